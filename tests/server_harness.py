"""A real class server process for the tests: 127.0.0.1, a free port, a temporary data folder;
stopped by its PID. Nothing here reaches another address. For a school's tests (marked ``hub``):
a throw-away PostgreSQL cluster (``Postgres``) and a real JupyterHub (``Hub``)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


def keyed_seed(players: int, number: int, label: str = "deal") -> int:
    """The deal's seed of game ``number`` on the tests' key, by the formula ``ttrlib.deals``
    documents (computed here, not by the module): 16 bytes of HMAC-SHA256(key, "ttrlib deal v1"
    NUL players NUL number), big-endian."""
    import hashlib
    import hmac

    key = bytes.fromhex(Path(os.environ["TTRLIB_DEAL_KEY"]).read_text())
    message = "\0".join([f"ttrlib {label} v1", str(players), str(number)])
    return int.from_bytes(hmac.new(key, message.encode(), hashlib.sha256).digest()[:16], "big")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class ClassServer:
    url: str
    data: Path
    port: int
    proc: subprocess.Popen

    @property
    def token(self) -> str:
        return (self.data / "teacher-token").read_text().strip()

    @property
    def class_secret(self) -> str:
        return (self.data / "class-secret").read_text().strip()

    def request(self, method: str, path: str, body=None, *, token: str | None = None,
                headers: dict | None = None, raw: bytes | None = None, timeout: float = 60):
        """``(status, parsed JSON or text, headers)`` of one request; never raises on a status."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers=dict(headers or {}))
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(req, timeout=timeout) as r:
                status, text, hdrs = r.status, r.read().decode(), r.headers
        except urllib.error.HTTPError as e:
            status, text, hdrs = e.code, e.read().decode(), e.headers
        try:
            return status, json.loads(text), hdrs
        except ValueError:
            return status, text, hdrs

    def new_table(self, **body) -> dict:
        """A table made by the teacher (``POST /api/tables``; a 4-player game 42 by default)."""
        status, table, _ = self.request("POST", "/api/tables", body or {"players": 4, "seed": 42},
                                        token=self.token)
        assert status == 201, table
        return table

    def stop(self, sig=signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, sig)
            self.proc.wait(30)


class InProcessServer(ClassServer):
    """The class server's application (``make_app``) in this process: its own event loop on a
    thread, a free port of 127.0.0.1 from ``tornado.testing``, the same ``request`` as a real
    process. No process start-up (most of a server test's time); ``call`` runs a function on the
    server's loop (the store is the loop's alone)."""

    def __init__(self, data: Path, base_url: str = "/", **make):
        import asyncio
        import threading

        import tornado.testing

        from ttrlib.server.app import MAX_BODY, make_app, make_server

        self.data, self.loop = Path(data), asyncio.new_event_loop()
        sock, self.port = tornado.testing.bind_unused_port()
        self.url = f"http://127.0.0.1:{self.port}{base_url.rstrip('/')}"
        ready, failed = threading.Event(), []

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            try:
                self.server = make_server(data, **make)
                self.server.base_url = base_url  # a Hub's prefix, as the Hub service has it
                self.app = make_app(self.server)
                import tornado.httpserver

                self.http = tornado.httpserver.HTTPServer(self.app, max_body_size=MAX_BODY)
                self.http.add_sockets([sock])
            except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
                failed.append(exc)
                ready.set()
                return
            ready.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        ready.wait(60)
        if failed:
            self.thread.join(10)
            raise failed[0]

    def call(self, fn, *args):
        """``fn(*args)`` run on the server's loop; its result (or its exception)."""
        import asyncio

        async def run():
            return fn(*args)

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(60)

    def stop(self, sig=None) -> None:
        if not self.thread.is_alive():
            return

        def down() -> None:
            self.http.stop()
            if getattr(self.server, "reviews", None) is not None:
                self.server.reviews.close()  # the coach's worker process, if one was started
            self.server.conn.close()
            self.loop.stop()

        self.loop.call_soon_threadsafe(down)
        self.thread.join(30)


def in_process(data: Path, **make) -> InProcessServer:
    """A class server on ``data`` in this process (``InProcessServer``)."""
    return InProcessServer(data, **make)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def start_server(data: Path, port: int | None = None, *, args=(), env=None,
                 cwd: str | Path | None = None) -> ClassServer:
    """Start ``python -m ttrlib.server`` and wait (on the condition, up to 60 s) until it answers.
    ``cwd``: the checkout whose ``ttrlib`` the server runs (``-m`` looks there first)."""
    port = port or free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ttrlib.server", "--port", str(port), "--data", str(data),
         "--quiet", *args],
        env={**os.environ, **(env or {})}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        cwd=cwd)
    server = ClassServer(f"http://127.0.0.1:{port}", Path(data), port, proc)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the class server stopped at once: {proc.stdout.read().decode()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            time.sleep(0.1)
    server.stop(signal.SIGKILL)
    raise RuntimeError("the class server did not answer within 60 s")


# --- the school's parts: PostgreSQL and JupyterHub (tests marked ``hub``) ---------------------
REQUIRE_HUB = "TTR_REQUIRE_HUB"


def missing(what: str) -> None:
    """Skip the test, saying what this machine lacks; with ``TTR_REQUIRE_HUB=1`` (CI) fail."""
    import pytest

    if os.environ.get(REQUIRE_HUB) == "1":
        pytest.fail(f"{what} ({REQUIRE_HUB}=1 requires it: .ci/run installs it)")
    pytest.skip(f"{what}; .ci/run installs it (set {REQUIRE_HUB}=1 to make this a failure)")


def postgres_bin(name: str) -> str | None:
    """A PostgreSQL program: on the PATH, or in Debian's /usr/lib/postgresql/<version>/bin."""
    import glob

    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


class Postgres:
    """A throw-away PostgreSQL cluster: ``initdb`` in a temporary folder, ``pg_ctl`` on a free
    port of 127.0.0.1 (trust for local connections only), removed by ``stop``. As root, the
    cluster is made and run by the ``postgres`` user (PostgreSQL refuses to run as root)."""

    def __init__(self):
        import tempfile

        try:
            import psycopg  # noqa: F401
        except ImportError:
            missing("psycopg 3 is not installed (pip install 'psycopg[binary]')")
        self.initdb, self.pg_ctl = postgres_bin("initdb"), postgres_bin("pg_ctl")
        if not (self.initdb and self.pg_ctl):
            missing("PostgreSQL's initdb and pg_ctl are not on this machine (Debian: "
                    "apt-get install postgresql)")
        self.folder = Path(tempfile.mkdtemp(prefix="ttr-pg-"))
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            import pwd

            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                missing("PostgreSQL refuses to run as root and there is no postgres user (Debian's "
                        "postgresql package makes one)")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        data = self.folder / "data"
        self._run([self.initdb, "-D", str(data), "-A", "trust", "-U", "ttr", "-E", "UTF8",
                   "--no-sync"])
        self._run([self.pg_ctl, "-D", str(data), "-l", str(self.folder / "log"), "-w", "-o",
                   f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c max_connections=40", "start"])
        self._databases = 0

    def _run(self, cmd: list[str]) -> None:
        done = subprocess.run(self.as_user + cmd, capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{cmd[0]} failed: {done.stdout[-1500:]}{done.stderr[-1500:]}")

    def restart(self) -> None:
        """Stop the cluster at once (every connection lost) and start it again."""
        self._run([self.pg_ctl, "-D", str(self.folder / "data"), "-l", str(self.folder / "log"),
                   "-m", "immediate", "-w", "restart"])

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://ttr@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh database of its own for one test; its address."""
        import psycopg

        self._databases += 1
        name = f"class{self._databases}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run([self.pg_ctl, "-D", str(self.folder / "data"), "-m", "immediate", "-w",
                       "stop"])
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


# --- a real JupyterHub --------------------------------------------------------------------------
# One small Hub process, its configurable-http-proxy and the class server as its managed service,
# from the school's own deploy/jupyterhub/jupyterhub_config.py. Only the TEST settings are added
# here: the dummy authenticator (one password), the local-process spawner (learners' servers as
# processes of this user), free ports of 127.0.0.1 and an admin service token for the test to
# make users and tokens. Everything lives in a temporary folder and is stopped by PID.
ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"
PASSWORD = "a-test-password"
TEACHER = "teacher"
LEARNERS = ["ada", "ben", "cy", "dee"]
OTHER = "eve"  # a learner with no seat at first
ACCESS = "access:services!service=ttr"
TEACH = "custom:ttr:teach"

TEST_CONFIG = """
import os, sys
c = get_config()  # noqa: F821
load_subconfig({deploy!r})  # noqa: F821 - the school's settings, then the test's alone
c.JupyterHub.authenticator_class = "jupyterhub.auth.DummyAuthenticator"
c.DummyAuthenticator.password = {password!r}
c.Authenticator.allowed_users = set({users!r})
c.JupyterHub.spawner_class = "jupyterhub.spawner.SimpleLocalProcessSpawner"
c.SimpleLocalProcessSpawner.home_dir_template = {homes!r} + "/{{username}}"
c.Spawner.notebook_dir = {lessons!r}
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.args = ["--allow-root"]
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api}"
c.ConfigurableHTTPProxy.command = [{chp!r}]
c.JupyterHub.db_url = "sqlite:///" + {folder!r} + "/hub.sqlite"
c.JupyterHub.cookie_secret_file = {folder!r} + "/cookie_secret"
c.JupyterHub.pid_file = {folder!r} + "/hub.pid"
c.JupyterHub.cleanup_servers = True
c.JupyterHub.services.append({{"name": "tester", "api_token": {admin!r}}})
c.JupyterHub.load_roles.append({{"name": "tester", "services": ["tester"],
    "scopes": ["admin:users", "tokens", "admin:servers", "read:users"]}})
"""


@contextmanager
def one_hub_at_a_time():
    """Hold a lock (a file in the temporary folder) while a test's Hub runs."""
    import fcntl
    import tempfile

    with open(Path(tempfile.gettempdir()) / "ttrlib-test-hub.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def proxy_program() -> str | None:
    """configurable-http-proxy: the project's own (.venv/node_modules, .ci/run puts it there)
    or one on the PATH."""
    local = ROOT / ".venv" / "node_modules" / ".bin" / "configurable-http-proxy"
    return str(local) if local.exists() else shutil.which("configurable-http-proxy")


class Hub:
    """A running Hub; ``url`` is its proxy's public address."""

    def __init__(self, folder: Path, database: str):
        try:
            import jupyterhub  # noqa: F401
        except ImportError:
            missing("JupyterHub's Python package is not installed (pip install jupyterhub)")
        if not shutil.which("node"):
            missing("node is not on this machine (configurable-http-proxy runs on it)")
        chp = proxy_program()
        if not chp:
            missing("configurable-http-proxy is not installed (npm install "
                    "configurable-http-proxy, into .venv/node_modules)")
        self.folder = folder
        self.port, hub_port, proxy_api = free_port(), free_port(), free_port()
        self.service_port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.admin = os.urandom(16).hex()
        lessons = folder / "lessons"
        shutil.copytree(ROOT / "notebooks", lessons)
        (folder / "homes").mkdir()
        for user in [TEACHER, *LEARNERS, OTHER]:
            (folder / "homes" / user).mkdir()
        config = folder / "test_config.py"
        config.write_text(TEST_CONFIG.format(
            deploy=str(DEPLOY), password=PASSWORD, users=[TEACHER, *LEARNERS, OTHER],
            homes=str(folder / "homes"), lessons=str(lessons), port=self.port,
            hub_port=hub_port, proxy_api=proxy_api, chp=chp, folder=str(folder),
            admin=self.admin))
        env = {**os.environ, "PYTHONPATH": str(ROOT), "TTR_SERVICE_PORT": str(self.service_port),
               "TTR_DB": database, "TTR_DATA": str(folder / "ttr-data"),
               "TTR_HUB_PUBLIC_URL": self.url, "TTR_PYTHON": sys.executable,
               "TTR_TEACHERS": TEACHER}
        self.log = open(folder / "hub.log", "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)],
                                     cwd=folder, env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        try:
            self._wait_until_up()
        except BaseException:
            self.stop()
            raise

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the Hub stopped: {self.log_text()[-3000:]}")
            try:  # the service answers through the proxy: the Hub, the proxy and it are up
                status, _ = self.call("GET", "/services/ttr/api/tables")
                if status == 401:
                    return
            except OSError:
                pass
            time.sleep(0.5)
        raise RuntimeError(f"the Hub did not come up in 120 s: {self.log_text()[-3000:]}")

    def log_text(self) -> str:
        return (self.folder / "hub.log").read_text(errors="replace")

    def call(self, method: str, path: str, body=None, token: str | None = None,
             timeout: float = 60):
        """``(status, parsed JSON or text)`` of one request through the Hub's proxy."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if token:
            req.add_header("Authorization", f"token {token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        opener = urllib.request.build_opener(_NoRedirect, urllib.request.ProxyHandler({}))
        try:
            with opener.open(req, timeout=timeout) as r:
                status, text = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode()
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def token(self, user: str, scopes: list[str]) -> str:
        """A new Hub token of ``user`` holding ``scopes`` (made with the admin service)."""
        status, body = self.call("POST", f"/hub/api/users/{user}/tokens",
                                 {"scopes": scopes, "note": "ttrlib test"}, token=self.admin)
        assert status == 201, body
        return body["token"]

    def pids(self) -> dict[str, list[int]]:
        """The Hub's processes by part: hub, proxy, service, learners' servers (and kernels)."""
        import psutil

        parts: dict[str, list[int]] = {"hub": [self.proc.pid]}
        for child in psutil.Process(self.proc.pid).children(recursive=True):
            line = " ".join(child.cmdline())
            part = ("proxy" if "configurable-http-proxy" in line else
                    "service" if "ttrlib.server" in line else
                    "kernel" if "ipykernel" in line else
                    "learner server" if "singleuser" in line else "other")
            parts.setdefault(part, []).append(child.pid)
        return parts

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)  # the Hub's own session: its children too
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(30)
        self.log.close()


class _Stay(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def post_form(server, path: str, fields: str, headers: dict) -> int:
    """The status of a form's POST to ``server`` (``url`` attribute) with ``headers``; a
    redirect is not followed (its status, 303, is the answer)."""
    req = urllib.request.Request(server.url + path, data=fields.encode(), method="POST",
                                 headers={"Content-Type": "application/x-www-form-urlencoded",
                                          **headers})
    try:
        with urllib.request.build_opener(_Stay).open(req, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code
