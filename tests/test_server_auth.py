"""The class server's secrets: the teacher's token and the class secret (issue 20, item 1).

The server runs in this process (``server_harness.in_process``, on a real port of 127.0.0.1);
only the damaged secret's test starts a process, as what it checks is the process stopping
with a sentence."""

from __future__ import annotations

import stat

import pytest
from server_harness import in_process, start_server


@pytest.fixture
def server(tmp_path):
    s = in_process(tmp_path / "data")
    yield s
    s.stop()


def test_secrets_are_made_once_readable_by_the_owner_only(server, tmp_path):
    for name in ("teacher-token", "class-secret"):
        path = server.data / name
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert len(path.read_text().strip()) == 64
    token = server.token
    server.stop()
    again = in_process(server.data)  # a restart (a new server on the folder) keeps the link
    try:
        assert again.token == token
    finally:
        again.stop()


def test_the_login_link_sets_an_httponly_strict_cookie_and_forgets_the_token(server):
    status, _, headers = server.request("GET", f"/teacher?token={server.token}")
    assert status == 302
    assert headers["Location"] == "/teacher"  # the token leaves the address bar
    cookie = headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert server.token not in cookie  # the cookie is derived from the token, not the token
    value = cookie.split(";")[0]
    status, page, _ = server.request("GET", "/teacher", headers={"Cookie": value})
    assert status == 200 and "teacher" in page.lower()


@pytest.mark.parametrize("how", ["nothing", "wrong token", "wrong cookie", "wrong bearer"])
def test_no_one_else_is_the_teacher(server, how):
    headers, path = {}, "/teacher"
    if how == "wrong token":
        path = "/teacher?token=" + "0" * 64
    elif how == "wrong cookie":
        headers["Cookie"] = "ttr_teacher=" + "0" * 64
    elif how == "wrong bearer":
        headers["Authorization"] = "Bearer " + "0" * 64
    status, body, _ = server.request("GET", path, headers=headers)
    assert status in (401, 403)
    assert "Set-Cookie" not in _ or "ttr_teacher" not in _["Set-Cookie"]
    assert len(str(body)) < 300


def test_a_damaged_secret_file_stops_the_server_with_a_sentence(tmp_path):
    data = tmp_path / "d"
    data.mkdir()
    (data / "teacher-token").write_text("not hex")
    with pytest.raises(RuntimeError, match="teacher-token is not a secret made by ttrlib"):
        start_server(data)


def test_the_access_log_never_holds_a_token_or_a_key(caplog, tmp_path):
    """Addresses carry secrets (the login link's token, a seat's key): the log keeps the path."""
    import logging
    from types import SimpleNamespace

    from ttrlib.server.app import log_request

    request = SimpleNamespace(method="GET", path="/teacher", request_time=lambda: 0.01)
    handler = SimpleNamespace(get_status=lambda: 302, request=request)
    request.uri = "/teacher?token=" + "ab" * 32  # what tornado's own log would print
    with caplog.at_level(logging.INFO, logger="tornado.access"):
        log_request(handler)
    assert "/teacher" in caplog.text and "ab" * 32 not in caplog.text and "token" not in caplog.text
    from ttrlib.server.app import make_app, make_server

    assert make_app(make_server(tmp_path / "d")).settings["log_function"] is log_request
