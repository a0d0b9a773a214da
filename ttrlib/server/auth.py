"""Who may do what on the class server: the teacher's token and the class secret, or the Hub.

Both are 32 random bytes (hex) in files of the data folder, made on first start with mode 0600:

- ``teacher-token``: the teacher's. ``GET /teacher?token=...`` (the login link ``make classroom``
  prints) sets an HttpOnly, SameSite=Strict cookie and redirects to an address without the token;
  API clients send ``Authorization: Bearer <token>``. No address a learner can type makes them a
  teacher.
- ``class-secret``: the lesson kernels' (``make classroom`` hands its path to Voila, whose kernels
  inherit it). A kernel reports a learner's exercise checks with it; a learner's browser never holds
  it (a classroom page cannot run code).

Every comparison is ``hmac.compare_digest``.

On a JupyterHub (``--hub``, ``ttrlib.server.hub``) the Hub says who is asking instead: its OAuth
cookie for pages, a Hub token (``Authorization: token ...``) for the API, such as the learner's
``JUPYTERHUB_API_TOKEN`` in a lesson kernel. A teacher is a Hub user whose token holds the custom
scope ``hub.TEACHER_SCOPE`` (granted to the group ``ttr-teachers``); neither the teacher token
nor a login link exists there. The server then lives under the Hub's prefix
(``/services/ttr/``): its pages are written for ``/`` and ``Handler`` puts the prefix in front of
their own addresses.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

import tornado.log
import tornado.web

TEACHER_TOKEN = "teacher-token"
CLASS_SECRET = "class-secret"
COOKIE = "ttr_teacher"
# a page's forms that post (on a Hub they get its XSRF token)
_POST_FORM = re.compile(r"<form method='post'[^>]*>")
# the server's own addresses in its pages: attributes and the progress page's fetch
_OWN_ADDRESS = re.compile(r"""((?:href|action|src)=['"]|fetch\(['"`])/(?!/)""")


def secret_file(data_dir: str | Path, name: str) -> str:
    """The secret in ``data_dir/name``, made (0600) on first use."""
    path = Path(data_dir) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        value = path.read_text().strip()
        if len(value) != 64 or not all(c in "0123456789abcdef" for c in value):
            raise SystemExit(f"{path} is not a secret made by ttrlib (64 hex digits); "
                             "delete it to make a new one") from None
        return value
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32))
    return path.read_text().strip()


def same(given: str | None, expected: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), expected.encode())


def cookie_value(token: str) -> str:
    """What the teacher's cookie holds: derived from the token, never the token itself."""
    return hmac.new(token.encode(), b"ttrlib teacher cookie v1", hashlib.sha256).hexdigest()


class Handler(tornado.web.RequestHandler):
    """The base of every handler: JSON errors of bounded length, the teacher check."""

    hub_user: dict | None = None  # on a Hub: the Hub's model of the user asking (``prepare``)

    @property
    def server(self):
        return self.settings["ttr"]

    @property
    def hub(self):
        """The Hub's ``HubOAuth`` when the server is a Hub service, else None."""
        return self.server.hub

    async def prepare(self) -> None:
        if self.hub is not None:
            self.hub_user = await hub_user(self)

    def url(self, path: str) -> str:
        """``path`` (one of this server's, such as ``/teacher``) as the browser reaches it."""
        return self.server.base_url.rstrip("/") + path

    def redirect(self, url: str, *args, **kwargs) -> None:
        super().redirect(self.url(url) if url.startswith("/") and not url.startswith("//")
                         else url, *args, **kwargs)

    def finish(self, chunk=None):
        if isinstance(chunk, str) and self._headers.get("Content-Type", "").startswith(
                "text/html"):
            if self.server.base_url != "/":
                chunk = _OWN_ADDRESS.sub(lambda m: m.group(1) + self.url("/"), chunk)
            if self.hub is not None and self.hub_user is not None:
                # the Hub accepts a cookie's login on a POST only with its XSRF token
                chunk = _POST_FORM.sub(lambda m: m.group(0) + self.xsrf_form_html(), chunk)
        return super().finish(chunk)

    def set_default_headers(self) -> None:
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")  # a seat's key never leaks onwards

    def bearer(self) -> str | None:
        header = self.request.headers.get("Authorization", "")
        return header[7:].strip() if header.startswith("Bearer ") else None

    def is_teacher(self) -> bool:
        if self.hub is not None:
            from .hub import TEACHER_SCOPE

            return self.hub_user is not None and TEACHER_SCOPE in self.hub_user["scopes"]
        token = self.server.teacher_token
        return same(self.bearer(), token) or same(self.get_cookie(COOKIE), cookie_value(token))

    def require_teacher(self) -> None:
        if self.is_teacher():
            return
        if self.hub is not None:
            name = self.require_hub_user()
            raise tornado.web.HTTPError(403, reason=f"{name} is not one of the class's teachers "
                                                    "(the Hub group ttr-teachers)")
        raise tornado.web.HTTPError(403 if self.bearer() or self.get_cookie(COOKIE) else 401)

    def require_hub_user(self) -> str:
        """The Hub user asking; a page's visitor who is not logged in is sent to the Hub's
        login (and comes back), an API client gets 401."""
        if self.hub_user is not None:
            return self.hub_user["name"]
        if self.request.method == "GET" and "/api/" not in self.request.path:
            from .hub import login_url

            super().redirect(login_url(self))
            raise tornado.web.Finish()
        raise tornado.web.HTTPError(401, reason="log in to the Hub first (or send a Hub token)")

    def json(self, status: int, body) -> None:
        import json

        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(body))

    def _request_summary(self) -> str:
        # Tornado names the request by this in its own warnings and errors; its version has the
        # whole address, and a seat's key or the teacher's token travel in the query string.
        return f"{self.request.method} {self.request.path}"

    def log_exception(self, typ, value, tb) -> None:
        # Tornado's version prints the request's repr (the query string again) and an
        # HTTPError's log_message, which may quote a query argument (invalid UTF-8 in ?key=).
        if isinstance(value, tornado.web.HTTPError):
            tornado.log.gen_log.warning("%d %s", value.status_code, self._request_summary())
        else:
            tornado.log.app_log.error("Uncaught exception %s", self._request_summary(),
                                      exc_info=(typ, value, tb))

    def write_error(self, status_code: int, **kwargs) -> None:
        # Never a traceback, never an echo of what was sent: the status and its short reason.
        self.set_header("Content-Type", "application/json")
        self.finish({"error": self._reason[:200]})


class TeacherLogin(Handler):
    """``/teacher?token=T``: the login link. Sets the cookie, then forgets the token in the
    address (a redirect), so it stays in no history, bookmark or screen share."""

    def get(self) -> None:
        token = self.get_query_argument("token", None)
        if token is not None and self.hub is not None:
            raise tornado.web.HTTPError(404, reason="on a Hub, teachers log in through the Hub")
        if token is not None:
            if not same(token, self.server.teacher_token):
                raise tornado.web.HTTPError(403, reason="that is not this class's teacher link")
            self.set_cookie(COOKIE, cookie_value(self.server.teacher_token), httponly=True,
                            samesite="Strict", path="/", expires_days=1)
            self.redirect("/teacher")
            return
        self.require_teacher()
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        links = "".join(f"<li><a href='{href}'>{text}</a></li>"
                        for href, text in self.server.teacher_links)
        self.finish("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
                    "<title>The teacher's room</title></head><body>"
                    f"<h1>The teacher's room</h1><ul>{links}</ul></body></html>")


def routes(server) -> list:
    return [(r"/teacher", TeacherLogin)]


async def hub_user(handler) -> dict | None:
    """The Hub's model of the user asking, if the Hub knows them and their token may reach this
    service (its access scope); else None."""
    from jupyterhub.services.auth import check_scopes

    model = await handler.hub.get_user(handler, sync=False)
    if not model or model.get("kind", "user") != "user":
        return None
    if handler.hub.access_scopes and not check_scopes(handler.hub.access_scopes,
                                                      set(model["scopes"])):
        return None
    return model
