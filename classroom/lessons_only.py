"""The learners' classroom app serves the lessons (``NN-name.ipynb``) and nothing else (issue 20).

Voila serves every notebook of its folder: a learner could open ``solutions.ipynb``, the
teacher's guide or the handouts, and list the answer keys' folder. Voila has no setting for which
notebooks it renders, but jupyter_server asks the identity provider about every request before
any handler runs (``JupyterHandler.prepare``), with the handler and its decoded path. So this
provider, which keeps the ``_xsrf`` cookie of its parent class, answers 404 first for:

- a render (``/voila/render/...``) of anything but a lesson file at the top of the folder or in
  a language's folder (``ru/00-start-here.ipynb``, issue 35: ``LANGUAGES``);
- a folder page (``/``, ``/voila/tree/...``) or a contents listing (``/voila/api/contents/...``)
  of anything but the top folder and the language folders, whose listings
  ``c.ContentsManager.hide_globs`` in ``voila.py`` trims to the lessons (the language folders
  themselves are hidden in the top listing: the list of lessons offers the languages instead,
  see ``languages.py``).

Static files (``/voila/files/...``) keep Voila's allowlist (images only: no notebook, no TOML).
The teacher's pages are on the class server, behind the teacher's login (``ttrlib.server``).

A refusal is a short page of its own (``NOT_A_LESSON``: this address is not a lesson, and a link
to the list), or a JSON message for the contents API, ended here with tornado's ``Finish``. Not
``HTTPError(404)``: jupyter_server's error page reads ``current_user``, which this hook has not
set yet, so every refusal printed a 35-line traceback ("Calling get_current_user() directly is
deprecated") in the teacher's terminal and sent the learner an empty 404 (issue 30, finding 8).
"""

from __future__ import annotations

import json
import logging
import re
import sys
from pathlib import Path

from tornado import web
from tornado.escape import xhtml_escape
from tornado.log import access_log
from voila.handler import VoilaHandler
from voila.tornado.contentshandler import VoilaContentsHandler
from voila.treehandler import VoilaTreeHandler
from xsrf_cookie import XsrfCookieIdentityProvider

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the backport ttrlib depends on there
    import tomli as tomllib

LESSON = re.compile(r"[0-9]{2}-[A-Za-z0-9_-]+\.ipynb")
LANGUAGES_FILE = Path(__file__).resolve().parents[1] / "notebooks" / "locale" / "languages.toml"


def read_languages(path: Path = LANGUAGES_FILE) -> dict[str, str]:
    """The languages of the lessons besides English, code -> own name (``{"ru": "Русский"}``),
    from ``notebooks/locale/languages.toml``: codes of two lowercase letters only (a folder
    name that could mean anything else is never served)."""
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        table = {"ru": {"name": "Русский"}}  # the file gone: the one language shipped so far
    return {code: str(entry.get("name", code)) for code, entry in table.items()
            if re.fullmatch(r"[a-z]{2}", code) and code != "en" and isinstance(entry, dict)}


LANGUAGES = read_languages()
# A lesson in a language's folder: exactly <lang>/NN-name.ipynb, one level down.
TRANSLATED = re.compile(r"(?:(%s)/)?(%s)" % ("|".join(map(re.escape, LANGUAGES)) or "(?!)",
                                              LESSON.pattern))

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
        return bool(TRANSLATED.fullmatch(path))
    if isinstance(handler, (VoilaTreeHandler, VoilaContentsHandler)):
        folder = path.strip("/")
        return folder == "" or folder in LANGUAGES
    return True  # kernels, widgets' static files, themes: what a lesson page needs


NOT_A_LESSON = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not a lesson</title>
<style>body {{ font-family: system-ui, sans-serif; max-width: 36em; margin: 3em auto;
padding: 0 1em; line-height: 1.5; }}</style></head>
<body><h1>This address is not a lesson</h1>
<p>This classroom app shows the lessons only. Open one from
<a href="{home}">the list of lessons</a>.</p></body></html>
"""
NOT_A_LESSON_API = "This address is not a lesson: the classroom app lists the lessons only."


def refuse(handler) -> None:
    """End the request with a 404 that says why (a page, or JSON for the API), and nothing in
    the log but tornado's one line for the request."""
    # as jupyter_server's own refusals (check_host): no user, so nothing asks for one later
    handler.current_user = handler._jupyter_current_user = None
    handler.set_status(404)
    if isinstance(handler, VoilaContentsHandler):
        handler.set_header("Content-Type", "application/json")
        raise web.Finish(json.dumps({"message": NOT_A_LESSON_API}))
    handler.set_header("Content-Type", "text/html; charset=UTF-8")
    handler.set_header("Cache-Control", "no-store")
    raise web.Finish(NOT_A_LESSON.format(home=xhtml_escape(handler.base_url)))


def log_request(handler: web.RequestHandler) -> None:
    """The classroom's access log without the query string: lesson 08's seat links carry the
    seat's key (``?table=..&seat=..&key=..``), and the terminal of ``make classroom`` is read by
    the teacher, or shown to the room. Tornado's own line names the whole address."""
    status = handler.get_status()
    log = (access_log.info if status < 400 else
           access_log.warning if status < 500 else access_log.error)
    request = handler.request
    log("%d %s %s %.2fms", status, request.method, request.path,
        1000.0 * request.request_time())


class NoQueryStrings(logging.Filter):
    """Takes the query string out of the request lines tornado's warnings and errors print
    ("404 GET /voila/render/08-...ipynb?table=..&key=.. (127.0.0.1): ..."), Voila's handlers'
    included: the same seat keys as in the access line."""

    ADDRESS = re.compile(r"((?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) /[^?\s]*)\?\S*")

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if "?" in text:
            record.msg, record.args = self.ADDRESS.sub(r"\1", text), None
        return True


def quiet_logs() -> None:
    """No query string in any line of the classroom's terminal (tornado's loggers, Voila's)."""
    for name in ("tornado.access", "tornado.general", "tornado.application", "Voila"):
        logging.getLogger(name).addFilter(NoQueryStrings())


class NotALessonHandler(web.RequestHandler):
    """The page for an address no handler serves (tornado's ``default_handler_class``, set in
    ``voila.py``): the same page as a refusal, not tornado's bare "404: Not Found"."""

    def prepare(self):
        self.set_status(404)
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Cache-Control", "no-store")
        base = self.settings.get("base_url", "/")
        raise web.Finish(NOT_A_LESSON.format(home=xhtml_escape(base)))


class LessonsOnlyIdentityProvider(XsrfCookieIdentityProvider):
    async def get_user(self, handler):
        if not allowed(handler):
            refuse(handler)
        # the language of a lesson or of the list: ?lang=, the cookie, Accept-Language
        from languages import choose  # beside this file; it imports this module

        choose(handler)
        return await super().get_user(handler)
