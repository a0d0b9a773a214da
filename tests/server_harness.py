"""A real class server process for the tests: 127.0.0.1, a free port, a temporary data folder;
stopped by its PID. Nothing here reaches another address."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path


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


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def start_server(data: Path, port: int | None = None, *, args=(), env=None) -> ClassServer:
    """Start ``python -m ttrlib.server`` and wait (on the condition, up to 60 s) until it answers."""
    port = port or free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ttrlib.server", "--port", str(port), "--data", str(data),
         "--quiet", *args],
        env={**os.environ, **(env or {})}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
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
    import shutil

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

            user = pwd.getpwnam("postgres")
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
        import shutil

        try:
            self._run([self.pg_ctl, "-D", str(self.folder / "data"), "-m", "immediate", "-w",
                       "stop"])
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
