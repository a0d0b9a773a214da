"""The language of the lessons in the classroom app (issue 35, "Choosing the language").

A language is a path: Voila renders a lesson's Markdown on the server and keeps one kernel pool
per notebook path, so the Russian lesson 01 is ``/voila/render/ru/01-card-splits.ipynb``, built
into ``notebooks/ru/`` (``lessons_only.py`` serves exactly ``<lang>/NN-name.ipynb`` for the
languages of ``notebooks/locale/languages.toml``). A lesson's kernel starts in its notebook's
folder and so knows its language (``ttrlib.i18n``: the kernel's working folder ``.../ru``).

This module chooses between the paths, in the same hook as ``lessons_only`` (the identity
provider jupyter_server asks about every request, before any handler runs), and never rewrites
a page:

- ``?lang=ru`` on a lesson's address redirects to its Russian copy when there is one
  (``?lang=en`` from the copy back to the English lesson), keeping the rest of the query
  (``seed=7``; a seat's link of lesson 08), and remembers the choice in the cookie ``ttr_lang``
  (a year). On the list of lessons it goes to the list in that language.
- The home page (``/``, the list of lessons) without ``?lang=`` shows the list in the cookie's
  language; without the cookie (a first visit) in the browser's ``Accept-Language`` choice
  among the languages there are. Only the home page reads them: a lesson's address is the lesson
  its link names, in the language of its path.

The pages offer the choice (``page_config_hook``, given to Voila in ``voila.py``, puts it in
each page's ``page_config``, which the classroom templates read): the list of lessons says
"English | Русский", and a lesson page links to its sibling in the other language when it
exists. A lesson page is rendered ahead of time (preheated kernels) with no request at hand, so
its links are drawn from its path alone, and go through ``?lang=``: the cookie follows a
learner's click.
"""

from __future__ import annotations

import os
from urllib.parse import quote, urlencode

from lessons_only import LANGUAGES, LESSON, TRANSLATED
from tornado import web
from voila.handler import VoilaHandler
from voila.treehandler import VoilaTreeHandler

COOKIE = "ttr_lang"
SOURCE = "en"  # the lessons' own language: the top of the folder
NAMES = {SOURCE: "English", **LANGUAGES}  # each language in its own words, as the list shows it


def split(path: str) -> tuple[str, str]:
    """``"ru/00-start-here.ipynb"`` -> ``("ru", "00-start-here.ipynb")``; a lesson at the top of
    the folder is English."""
    found = TRANSLATED.fullmatch(path)
    if found:
        return found.group(1) or SOURCE, found.group(2)
    return SOURCE, path


def accept_language(header: str) -> str | None:
    """The language of ``NAMES`` the browser prefers (``Accept-Language: ru-RU,ru;q=0.9,en;q=0.8``
    -> ``"ru"``), None when it names none of them. Equal weights: the first named wins."""
    best, best_q = None, 0.0
    for part in header.split(","):
        tag, _, params = part.partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        code = tag.strip().lower().split("-")[0]
        if code in NAMES and q > best_q:
            best, best_q = code, q
    return best


def _root(handler_or_settings) -> str:
    settings = getattr(handler_or_settings, "settings", handler_or_settings)
    manager = settings.get("contents_manager")
    return os.path.abspath(getattr(manager, "root_dir", None) or os.getcwd())


def _lessons(root: str, lang: str) -> list[str]:
    """The lessons of a language's folder (the top of the folder for English)."""
    folder = root if lang == SOURCE else os.path.join(root, lang)
    try:
        return sorted(n for n in os.listdir(folder) if LESSON.fullmatch(n))
    except OSError:
        return []


def _redirect(handler, path: str, query: list[tuple[str, str]]) -> None:
    """End the request with a redirect to ``base_url + path`` (the cookie set before stays)."""
    handler.current_user = handler._jupyter_current_user = None  # as lessons_only.refuse
    handler.set_status(302)
    handler.set_header("Cache-Control", "no-store")
    handler.set_header("Location", handler.base_url + path +
                       ("?" + urlencode(query) if query else ""))
    raise web.Finish()


def choose(handler) -> None:
    """Redirect a lesson or the list of lessons to the language asked for (``?lang=``, or on
    the home page the cookie, else ``Accept-Language``); remember ``?lang=`` in the cookie.
    Called for every request, after ``lessons_only.allowed``."""
    render, tree = isinstance(handler, VoilaHandler), isinstance(handler, VoilaTreeHandler)
    if handler.request.method not in ("GET", "HEAD") or not (render or tree):
        return
    path = handler.path_kwargs.get("path") or (handler.path_args[0] if handler.path_args else "")
    path = path or ""
    asked = handler.get_query_argument("lang", None)
    asked = asked if asked in NAMES else None
    rest = [(k, v.decode("utf-8", "replace")) for k, values in
            handler.request.query_arguments.items() if k != "lang" for v in values]
    if asked:
        handler.set_cookie(COOKIE, asked, path="/", expires_days=365, samesite="Lax")
    root = _root(handler)
    if render:
        if asked is None:
            return
        _, name = split(path)
        target = name if asked == SOURCE else f"{asked}/{name}"
        if target != path and LESSON.fullmatch(name) and name in _lessons(root, asked):
            _redirect(handler, "voila/render/" + quote(target), rest)
        return
    folder = path.strip("/")
    if asked is None:
        if folder:
            return  # a language's list, asked for by its address
        handler.set_header("Vary", "Cookie, Accept-Language")
        cookie = handler.get_cookie(COOKIE)
        asked = cookie if cookie in NAMES else (
            accept_language(handler.request.headers.get("Accept-Language", "")) or SOURCE)
    here = folder or SOURCE
    if asked != here and (asked == SOURCE or _lessons(root, asked)):
        _redirect(handler, "" if asked == SOURCE else f"voila/tree/{asked}", rest)


def page_config_hook(page_config: dict, *, base_url: str, settings: dict, log=None,
                     voila_configuration=None, notebook_path: str | None = None, **_) -> dict:
    """What a page offers (read by the classroom templates), from its path alone:

    - a lesson page: ``ttrLanguage``, its language; ``ttrLessons``, the lessons of that
      language's folder (its script points a Russian lesson's links to the Russian copies);
      ``ttrSiblings``, a link to the same lesson in each other language that has it;
    - the list of lessons (a folder): ``ttrLanguage`` and ``ttrChoices``, every language that
      has lessons, with a link to its list (the current one marked)."""
    root, path = _root(settings), (notebook_path or "").strip("/")
    if path.endswith(".ipynb"):
        lang, name = split(path)
        page_config["ttrLanguage"] = lang
        page_config["ttrLessons"] = _lessons(root, lang)
        here = f"{base_url}voila/render/{quote(path)}"
        page_config["ttrSiblings"] = [
            {"lang": code, "name": own, "href": f"{here}?lang={code}"}
            for code, own in NAMES.items() if code != lang and name in _lessons(root, code)]
    else:
        here = path or SOURCE
        page_config["ttrLanguage"] = here
        page_config["ttrChoices"] = [
            {"lang": code, "name": own, "current": code == here,
             "href": f"{base_url}?lang={code}" if code == SOURCE else
             f"{base_url}voila/tree/{code}?lang={code}"}
            for code, own in NAMES.items() if code == SOURCE or _lessons(root, code)]
    return page_config
