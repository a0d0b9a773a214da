"""Who the learner is, as far as the classroom app can tell: a random id their own browser keeps.

In the classroom app (Voila) every page is a new kernel, so a learner's saves and exercise records
need a name that outlives one page. The classroom template gives each browser a 128-bit random id
in the cookie ``ttr_learner`` (no name, no address); Voila passes the page request's ``Cookie``
header to the kernel as ``HTTP_COOKIE`` (``VoilaConfiguration.http_header_envs`` in
``classroom/voila.py``). The id is a capability: whoever holds it is that learner, so it is never
shown on a page. Outside the classroom app (JupyterLab, Binder, the tests) there is no id: one
learner alone on their own files.
"""

from __future__ import annotations

import os
import re
from http.cookies import CookieError, SimpleCookie

COOKIE = "ttr_learner"
_ID = re.compile(r"[0-9a-f]{32}")


def learner_id() -> str | None:
    """The browser's learner id (32 lowercase hex digits) in the classroom app, else ``None``.

    ``TTR_LEARNER`` in the environment stands in for the cookie (tests)."""
    from . import query

    query()  # a preheated classroom kernel learns the request's headers only with its query
    value = os.environ.get("TTR_LEARNER")
    if value is None:
        try:
            jar = SimpleCookie(os.environ.get("HTTP_COOKIE", ""))
        except CookieError:
            return None
        morsel = jar.get(COOKIE)
        value = morsel.value if morsel is not None else None
    return value if value is not None and _ID.fullmatch(value) else None


def in_classroom() -> bool:
    """Whether this kernel serves the classroom app (``classroom/voila.py`` sets
    ``TTR_CLASSROOM=1``): there a page without a learner id must not save into the folder
    every learner shares."""
    return os.environ.get("TTR_CLASSROOM") == "1"
