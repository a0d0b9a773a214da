"""A real JupyterHub for the tests (marked ``hub``): one small Hub process, its
configurable-http-proxy and the class server as its managed service, from the school's own
deploy/jupyterhub/jupyterhub_config.py. Only the TEST settings are added here: the dummy
authenticator (one password), the local-process spawner (learners' servers as processes of this
user), free ports of 127.0.0.1 and an admin service token for the test to make users and tokens.
Everything lives in a temporary folder and is stopped by PID.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from server_harness import free_port, missing

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


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None
