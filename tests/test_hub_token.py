"""A lesson kernel in a learner's server spawned by a JupyterHub knows the learner's Hub token
(``JUPYTERHUB_API_TOKEN``): ``RemoteSeatSession`` sends it with every request, the blocking ones
and the long-poll, so the class server (a Hub service there) knows who sits at the seat. Outside
a Hub it sends no Authorization header at all. A local HTTP server records the headers.
"""

from __future__ import annotations

import asyncio
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from ttrlib.errors import TableError
from ttrlib.remote_session import RemoteSeatSession


@pytest.fixture
def recorder():
    seen: list = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's name
            seen.append(self.headers.get("Authorization"))
            self.send_response(404)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"error": "no such table"}')

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen
    server.shutdown()
    server.server_close()


def test_the_learners_hub_token_goes_with_every_request(recorder, monkeypatch):
    url, seen = recorder
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "learner-token-123")
    session = RemoteSeatSession.__new__(RemoteSeatSession)  # no first look: only the calls
    session.url = url
    with pytest.raises(TableError):
        RemoteSeatSession(url, "abcd1234", "A1", "k")  # the first look (blocking)
    session._http("GET", "/api/tables/abcd1234/seats/A1?key=k")
    status, _ = asyncio.run(session._http_wait("/api/tables/abcd1234/seats/A1?key=k&after=0"))
    assert status == 404
    assert seen == ["token learner-token-123"] * 3


def test_outside_a_hub_no_authorization_is_sent(recorder, monkeypatch):
    url, seen = recorder
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    with pytest.raises(TableError):
        RemoteSeatSession(url, "abcd1234", "A1", "k")
    assert seen == [None]
