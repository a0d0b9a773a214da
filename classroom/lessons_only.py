"""The learners' classroom app serves the lessons (``NN-name.ipynb``) and nothing else (issue 20).

Voila serves every notebook of its folder: a learner could open ``solutions.ipynb``, the
teacher's guide or the handouts, and list the answer keys' folder. Voila has no setting for which
notebooks it renders, but jupyter_server asks the identity provider about every request before
any handler runs (``JupyterHandler.prepare``), with the handler and its decoded path. So this
provider, which keeps the ``_xsrf`` cookie of its parent class, answers 404 first for:

- a render (``/voila/render/...``) of anything but a lesson file at the top of the folder;
- a folder page (``/``, ``/voila/tree/...``) or a contents listing (``/voila/api/contents/...``)
  of anything but the top folder, whose listing ``c.ContentsManager.hide_globs`` in ``voila.py``
  trims to the lessons.

Static files (``/voila/files/...``) keep Voila's allowlist (images only: no notebook, no TOML).
The teacher's pages are on the class server, behind the teacher's login (``ttrlib.server``).
"""

from __future__ import annotations

import re

from tornado import web
from voila.handler import VoilaHandler
from voila.tornado.contentshandler import VoilaContentsHandler
from voila.treehandler import VoilaTreeHandler
from xsrf_cookie import XsrfCookieIdentityProvider

LESSON = re.compile(r"[0-9]{2}-[A-Za-z0-9_-]+\.ipynb")

# fnmatch patterns for ContentsManager.hide_globs: together they hide every name that is not
# "NN-....ipynb" (a name shorter than 3, not starting with two digits and "-", or not ending
# in ".ipynb", or holding a space), so a folder listing shows the lessons only.
HIDE = ["?", "??", "[!0-9]*", "?[!0-9]*", "??[!-]*", "*[!b]", "*[!n]b", "*[!y]nb", "*[!p]ynb",
        "*[!i]pynb", "*[!.]ipynb", "*.*.ipynb", "??-.ipynb", "* *"]


def allowed(handler) -> bool:
    """Whether a learner may reach what ``handler`` is about to serve."""
    path = handler.path_kwargs.get("path") or (handler.path_args[0] if handler.path_args else "")
    path = path or ""
    if isinstance(handler, VoilaHandler):
        return bool(LESSON.fullmatch(path))
    if isinstance(handler, (VoilaTreeHandler, VoilaContentsHandler)):
        return path.strip("/") == ""
    return True  # kernels, widgets' static files, themes: what a lesson page needs


class LessonsOnlyIdentityProvider(XsrfCookieIdentityProvider):
    async def get_user(self, handler):
        if not allowed(handler):
            raise web.HTTPError(404)
        return await super().get_user(handler)
