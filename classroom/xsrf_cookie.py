"""Give every lesson page the ``_xsrf`` cookie that its kernel shut-down request needs.

When a tab closes, Voila 0.5's page posts ``voila/api/shutdown/<kernel id>`` with a form field
``_xsrf`` copied from the ``_xsrf`` cookie. jupyter_server checks that field against the cookie
(XSRF protection for every POST). Tornado sets that cookie only when a handler reads
``handler.xsrf_token``; JupyterLab's own pages do so in their templates, but Voila renders a
lesson with nbconvert, never reads it, and so no lesson page ever gets the cookie: the field is
empty and every shut-down is refused (403 "'_xsrf' argument missing from POST"), leaving the
kernel running.

The narrowest fix that keeps the check: read ``xsrf_token`` while a lesson page (a GET of a
Voila page handler) is authenticated, before anything is written, so Tornado sets the cookie
on that response. The POST then carries a token that passes the unchanged check; a foreign
site still cannot forge one. The identity provider is the hook jupyter_server calls for every
request with the handler (``Voila.identity_provider_class``); users and tokens stay as in its
parent class.

The same hook gives a browser its learner id (``ttrlib.lessons.learner``) on its first page: a
request without the cookie ``ttr_learner`` gets 128 random bits in the response's cookie AND in
the request's own Cookie header, which Voila hands on to the lesson's kernel (``http_header_envs``)
after this hook has run. So even the very first lesson page of a browser knows its learner,
without a reload (the template's script only sets the cookie where a page came without it, e.g.
a proxy that ate the header).
"""

from __future__ import annotations

import re
import secrets

from jupyter_core.utils import ensure_async
from jupyter_server.auth.identity import PasswordIdentityProvider
from voila.handler import BaseVoilaHandler

LEARNER_COOKIE = "ttr_learner"  # the name ttrlib.lessons.learner reads
_LEARNER = re.compile(r"(^|;\s*)ttr_learner=[0-9a-f]{32}(;|$)")


def give_learner_id(handler) -> None:
    """A fresh learner id for a request that came without one: in the response's cookie (the
    browser keeps it a year) and in the request's headers (this page's kernel gets it now)."""
    cookies = handler.request.headers.get("Cookie", "")
    if _LEARNER.search(cookies):
        return
    learner = secrets.token_hex(16)
    handler.set_cookie(LEARNER_COOKIE, learner, samesite="Strict", path="/", expires_days=365)
    handler.request.headers["Cookie"] = (f"{cookies}; " if cookies else "") + \
        f"{LEARNER_COOKIE}={learner}"


class XsrfCookieIdentityProvider(PasswordIdentityProvider):
    async def get_user(self, handler):
        user = await ensure_async(super().get_user(handler))
        if handler.request.method == "GET" and isinstance(handler, BaseVoilaHandler):
            # Tornado's xsrf_token looks at the user (cookie lifetime): give it the one that
            # jupyter_server's prepare() is about to set anyway.
            handler.current_user = user
            handler.xsrf_token  # noqa: B018 - reading it sets the _xsrf cookie (Tornado)
            give_learner_id(handler)
        return user
