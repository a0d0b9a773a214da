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
(``/services/ttr/``): templates build every address with ``url()`` (the prefix in front).
Each handler is then its own class with JupyterHub's ``HubOAuthenticated`` mixed in front
(``hub.hub_class``): the Hub's user check, login address and XSRF tokens are the Hub's own.

Pages are templates (``templates/``, tornado's, autoescaped) rendered by ``Handler.page``, each
with a Content-Security-Policy: no script but the page's own (a nonce per answer), no frame, no
form posting elsewhere. A teacher's form is checked twice (``check_form``): the browser must say
it comes from this server (``Sec-Fetch-Site``/``Origin``: another port of the same host is
another site) and it must carry the XSRF token the page put in it (tornado's, or the Hub's). A
request without the teacher's cookie that asks for a page gets a page saying to open the login
link again, never raw JSON.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

import tornado.log
import tornado.web

TEACHER_TOKEN = "teacher-token"
CLASS_SECRET = "class-secret"
COOKIE = "ttr_teacher"
TEMPLATES = Path(__file__).with_name("templates")
#: every page's policy; {nonce} is the answer's own, the one script it may run
CSP = ("default-src 'none'; script-src 'nonce-{nonce}'; style-src 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
       "frame-ancestors 'none'")


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

    def __new__(cls, application, request, **kwargs):
        # On a Hub the handler is its class with JupyterHub's HubOAuthenticated in front (made
        # once per class): the Hub's own user check, login and XSRF, instead of a copy here.
        if application.settings["ttr"].hub is not None:
            from .hub import hub_class

            cls = hub_class(cls)
        return super().__new__(cls)

    async def prepare(self) -> None:
        if self.hub is not None:
            from .hub import hub_user

            self.hub_user = await hub_user(self)

    def url(self, path: str) -> str:
        """``path`` (one of this server's, such as ``/teacher``) as the browser reaches it."""
        return self.server.base_url.rstrip("/") + path

    def redirect(self, url: str, *args, **kwargs) -> None:
        super().redirect(self.url(url) if url.startswith("/") and not url.startswith("//")
                         else url, *args, **kwargs)

    # --- pages ----------------------------------------------------------------------------
    def get_template_path(self) -> str:
        return str(TEMPLATES)

    @property
    def nonce(self) -> str:
        if not hasattr(self, "_nonce"):
            self._nonce = secrets.token_urlsafe(16)
        return self._nonce

    def get_template_namespace(self) -> dict:
        return {**super().get_template_namespace(), "url": self.url, "nonce": self.nonce}

    def page(self, template: str, status: int = 200, **kwargs) -> None:
        """A page from ``templates/``: never cached, its own script only, in no frame."""
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Security-Policy", CSP.format(nonce=self.nonce))
        self.finish(self.render_string(template, **kwargs))

    def check_form(self) -> None:
        """A teacher's form post must come from this server's own page: refused (403) if the
        browser says another site or origin sent it (a page on another port of this host is
        one), or without the page's XSRF token. An API client with the teacher's Bearer token
        is no browser: a foreign page cannot set that header."""
        if self.hub is None and same(self.bearer(), self.server.teacher_token):
            return
        site = self.request.headers.get("Sec-Fetch-Site")
        origin = self.request.headers.get("Origin")
        # the host alone: behind a Hub's proxy that ends TLS the scheme differs ("null", a
        # sandboxed page's, has none and is refused)
        if site not in (None, "same-origin") or (
                origin is not None and urlsplit(origin).netloc != self.request.host):
            raise tornado.web.HTTPError(403, reason="this form was sent from another site's "
                                                    "page: use the teacher's own page")
        try:
            self.check_xsrf_cookie()
        except tornado.web.HTTPError:
            raise tornado.web.HTTPError(403, reason="this form lacks its page's token (an old "
                                                    "or a foreign page): open the teacher's "
                                                    "page again") from None

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
            super().redirect(self.get_login_url())  # HubOAuthenticated's: a round trip back
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

    def wants_page(self) -> bool:
        """Whether the request is a browser's for a page (an answer in HTML), not the API's."""
        return "/api/" not in self.request.path and (
            "text/html" in self.request.headers.get("Accept", "")
            or self.request.method == "POST" and self.request.headers.get(
                "Content-Type", "").startswith("application/x-www-form-urlencoded"))

    def write_error(self, status_code: int, **kwargs) -> None:
        # Never a traceback, never an echo of what was sent: the status and its short reason;
        # a browser asking for a page gets it as a page, with a way back.
        self.clear_header("Content-Disposition")
        if self.wants_page():
            teacher = self.request.path.startswith(self.url("/teacher"))
            self.page("refused.html", status_code, status_code=status_code,
                      reason=self._reason[:200],
                      # no teacher's cookie (401) or a wrong one (403, no sentence of ours)
                      login=teacher and self.hub is None and (
                          status_code == 401 or status_code == 403 and self._reason == "Forbidden"),
                      teacher=teacher)
            return
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
        self.page("room.html", links=self.server.teacher_links)


def routes(server) -> list:
    return [(r"/teacher", TeacherLogin)]
