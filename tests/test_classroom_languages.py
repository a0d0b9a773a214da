"""Choosing the language in the classroom app (issue 35): a translated lesson is a path,
``/voila/render/ru/00-start-here.ipynb``, its kernel knows its language from its folder, the list
of lessons offers "English | Русский", ``?lang=ru`` redirects to the Russian copy and is
remembered in the cookie ``ttr_lang``, and ``Accept-Language`` decides only a first visit to the
home page (``classroom/languages.py``).

Plain HTTP against a classroom server (``classroom/`` config) on a folder named ``notebooks``
holding lesson 00 in both languages, a probe lesson that prints its kernel's language, and
things a learner must not reach; then Chromium reads the Russian lesson 00 at 1280 and 400 px.
"""

from __future__ import annotations

import html
import re
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import lab_harness as h
import pytest

pytest.importorskip("voila")
pytestmark = pytest.mark.xdist_group("classroom")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
LESSON = "00-start-here.ipynb"
PROBE = "99-language.ipynb"  # named like a lesson, so it is served (and preheated) as one


def _probe() -> str:
    nb = h.notebook_of("import os\nimport ttrlib.i18n as i18n\n"
                       "print('kernel language:', i18n.language(), '| folder:',"
                       " os.path.basename(os.getcwd()))")
    import nbformat

    return nbformat.writes(nb)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("languages")
    folder = tmp / "notebooks"  # as shipped: ttrlib.i18n reads a kernel's folder notebooks/<lang>
    # (no ru/answers folder: a lesson's kernel would look for its answer keys there)
    (folder / "ru" / "secret").mkdir(parents=True)
    (folder / "xx").mkdir()
    shutil.copy(ROOT / "notebooks" / LESSON, folder / LESSON)
    shutil.copy(ROOT / "notebooks" / "ru" / LESSON, folder / "ru" / LESSON)
    for name in (PROBE, f"ru/{PROBE}"):
        (folder / name).write_text(_probe())
    for name in ("solutions.ipynb", "ru/solutions.ipynb", "ru/secret/key.ipynb",
                 "xx/00-start-here.ipynb"):
        (folder / name).write_text(NOTEBOOK)
    with h.classroom(tmp, folder=folder) as (base, proc):
        yield base, proc, tmp / "classroom.log"


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a 3xx comes back as an HTTPError: the test reads its Location


_OPENER = urllib.request.build_opener(_NoRedirects)


def _get(url: str, headers: dict[str, str] | None = None):
    """(status, headers, page) of one GET, redirects not followed."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with _OPENER.open(request, timeout=900) as answer:
            return answer.status, answer.headers, answer.read().decode()
    except urllib.error.HTTPError as other:
        return other.code, other.headers, other.read().decode()


def _cookie(headers) -> str | None:
    """The value the response sets for ttr_lang, None if it sets none."""
    for line in headers.get_all("Set-Cookie") or []:
        found = re.match(r"ttr_lang=([^;]*)", line)
        if found:
            return found.group(1)
    return None


def _nav(page: str, cls: str) -> str:
    found = re.search(rf'<nav class="{cls}"[^>]*>(.*?)</nav>', page, re.S)
    return " ".join(found.group(1).split()) if found else ""


# --- which addresses open --------------------------------------------------------------------

@pytest.mark.parametrize("path", [
    "/voila/render/ru/../solutions.ipynb", "/voila/render/ru/secret/key.ipynb",
    "/voila/render/ru/answers/01-card-splits.ipynb", "/voila/render/xx/00-start-here.ipynb",
    "/voila/render/ru/solutions.ipynb", "/voila/tree/ru/answers", "/voila/tree/xx",
    "/voila/api/contents/ru/secret", "/voila/tree/ru/secret", "/voila/render/ru/ru/00-start-here.ipynb"])
def test_nothing_else_in_a_language_folder_opens(server, path):
    base, _, _ = server
    status, _, page = _get(base + path)
    assert status == 404 and "This address is not a lesson" in page, (path, status)


def test_the_russian_lesson_opens_with_a_link_to_the_english_one(server):
    base, _, _ = server
    status, _, page = _get(base + f"/voila/render/ru/{LESSON}")
    assert status == 200, page[-2000:]
    assert '<html lang="ru">' in page and "С чего начать" in html.unescape(page)
    nav = _nav(page, "ttr-language-switch")
    assert nav == (f'<a href="/voila/render/ru/{LESSON}?lang=en" lang="en" hreflang="en">'
                   "English</a>"), nav
    # the script that sends its links to the lessons reads this page's language and lessons
    assert '"ttrLanguage": "ru"' in page and f'"ttrLessons": ["{LESSON}", "{PROBE}"]' in page


def test_the_english_lesson_links_to_the_russian_one(server):
    base, _, _ = server
    status, _, page = _get(base + f"/voila/render/{LESSON}")
    assert status == 200 and '<html lang="en">' in page, page[-2000:]
    assert _nav(page, "ttr-language-switch") == (
        f'<a href="/voila/render/{LESSON}?lang=ru" lang="ru" hreflang="ru">Русский</a>')


def test_a_russian_lessons_kernel_knows_its_language(server):
    base, _, _ = server
    pages = {path: _get(base + "/voila/render/" + path)[2] for path in (f"ru/{PROBE}", PROBE)}
    assert "kernel language: ru | folder: ru" in pages[f"ru/{PROBE}"], pages[f"ru/{PROBE}"][-3000:]
    assert "kernel language: en | folder: notebooks" in pages[PROBE], pages[PROBE][-3000:]


# --- ?lang= on a lesson ------------------------------------------------------------------------

def test_lang_on_a_lesson_redirects_to_its_copy_and_is_remembered(server):
    base, _, _ = server
    status, headers, _ = _get(base + f"/voila/render/{LESSON}?seed=7&lang=ru")
    assert status == 302 and headers["Location"] == f"/voila/render/ru/{LESSON}?seed=7"
    assert _cookie(headers) == "ru"
    status, headers, _ = _get(base + f"/voila/render/ru/{LESSON}?lang=en")
    assert status == 302 and headers["Location"] == f"/voila/render/{LESSON}"
    assert _cookie(headers) == "en"


def test_lang_on_a_lesson_without_a_copy_stays(server):
    base, _, _ = server
    # no Russian copy of 98 (nor an English one: Voila's 404, and no kernel started for it)
    status, headers, _ = _get(base + "/voila/render/98-nowhere.ipynb?lang=ru")
    assert status == 404 and "Location" not in headers
    status, headers, _ = _get(base + "/voila/render/98-nowhere.ipynb?lang=xx")
    assert status == 404 and _cookie(headers) is None  # not a language: not remembered


# --- the list of lessons -----------------------------------------------------------------------

def test_the_home_page_offers_the_languages(server):
    base, _, _ = server
    status, headers, page = _get(base + "/")
    assert status == 200 and _cookie(headers) is None
    assert _nav(page, "ttr-languages") == (
        '<strong lang="en" aria-current="page">English</strong> | '
        '<a href="/voila/tree/ru?lang=ru" lang="ru" hreflang="ru">Русский</a>')
    links = re.findall(r'href="(/voila/render/[^"]*)"', page)
    assert links == [f"/voila/render/{LESSON}", f"/voila/render/{PROBE}"], links


def test_the_russian_list_holds_the_russian_lessons(server):
    base, _, _ = server
    status, _, page = _get(base + "/voila/tree/ru")
    assert status == 200
    assert _nav(page, "ttr-languages") == (
        '<a href="/?lang=en" lang="en" hreflang="en">English</a> | '
        '<strong lang="ru" aria-current="page">Русский</strong>')
    links = re.findall(r'href="(/voila/(?:render|tree)/[^"]*)"', page)
    assert links == [f"/voila/render/ru/{LESSON}", f"/voila/render/ru/{PROBE}"], links


@pytest.mark.parametrize("path, location, cookie", [
    ("/?lang=ru", "/voila/tree/ru", "ru"),
    ("/voila/tree?lang=ru", "/voila/tree/ru", "ru"),
    ("/voila/tree/ru?lang=en", "/", "en"),
    ("/?lang=en", None, "en"),
    ("/voila/tree/ru?lang=ru", None, "ru"),
    ("/?lang=xx", None, None),
])
def test_lang_on_the_list_goes_to_that_list_and_is_remembered(server, path, location, cookie):
    base, _, _ = server
    status, headers, _ = _get(base + path)
    assert (status, headers.get("Location")) == ((302, location) if location else (200, None))
    assert _cookie(headers) == cookie


@pytest.mark.parametrize("cookie, accept, location", [
    (None, "ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "/voila/tree/ru"),
    (None, "en-GB,en;q=0.9,ru;q=0.8", None),
    (None, "de-DE,de;q=0.9,ru;q=0.5", "/voila/tree/ru"),
    (None, "de-DE,fr;q=0.9", None),
    ("ru", "en-US,en", "/voila/tree/ru"),
    ("en", "ru-RU,ru", None),  # the choice made wins over the browser's
    ("xx", "ru", "/voila/tree/ru"),  # a cookie naming no language counts as none
])
def test_the_home_page_follows_the_cookie_else_accept_language(server, cookie, accept, location):
    base, _, _ = server
    headers = {"Accept-Language": accept, **({"Cookie": f"ttr_lang={cookie}"} if cookie else {})}
    status, answer, _ = _get(base + "/", headers)
    assert (status, answer.get("Location")) == ((302, location) if location else (200, None))
    assert _cookie(answer) is None  # only a choice made on a page is remembered
    # Accept-Language decides the home page only: a lesson's address is the lesson it names
    status, answer, _ = _get(base + "/voila/render/98-nowhere.ipynb", headers)
    assert status == 404 and "Location" not in answer


# --- in Chromium -------------------------------------------------------------------------------

READY = """() => !document.getElementById('loading')
    && document.querySelectorAll('.ttr-exercise').length > 0
    && !document.body.innerText.includes('Loading widget')"""


@pytest.mark.browser
def test_the_russian_lesson_in_chromium_at_1280_and_400_px(server):
    h.need_browser()
    base, proc, log = server
    with h.browser() as browser:
        for width in (1280, 400):
            context = browser.new_context(viewport={"width": width, "height": 900})
            page = h.open_page(context.new_page(), f"{base}/voila/render/ru/{LESSON}")
            h.wait_until(page, READY, f"ru/{LESSON} at {width} px", proc=proc, log=log)
            h.wait_until(page, h.WIDGETS_SETTLED_JS, f"ru/{LESSON} widgets at {width} px",
                         proc=proc, log=log)
            status = page.evaluate(h.WIDGET_STATUS_JS)
            assert status["views"] > 0 and status["lost"] == 0, status
            over = page.evaluate(h.OVERFLOW_JS, width)
            assert over["cut"] == [] and over["page"] <= width, over
            text = page.evaluate("() => document.body.innerText")
            assert "С чего начать" in text and "Упражнения" in text
            # the exercises speak Russian: their buttons, titles and questions (the key's words)
            buttons = page.evaluate("() => [...document.querySelectorAll('.ttr-exercise button')]"
                                    ".map(b => b.innerText.trim())")
            assert buttons and set(buttons) == {"Проверить", "Показать ответ"}, buttons
            assert "Упражнение 1." in text and "кто напарник места B1?" in text
            assert not re.search(r"Exercise \d|Show the answer|your answer", text)
            switch = page.locator("nav.ttr-language-switch a")
            assert switch.count() == 1 and switch.inner_text() == "English"
            box = switch.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, box
            # the Russian lesson's links: lesson 01 is translated, so its link stays in the
            # folder; no link to the teacher's material (test_lesson_translations checks that an
            # untranslated lesson is linked one folder up, in English)
            hrefs = page.evaluate("() => [...document.querySelectorAll('#rendered_cells a[href]')]"
                                  ".map(a => a.getAttribute('href'))")
            assert "01-card-splits.ipynb" in hrefs and not [
                x for x in hrefs if re.search(r"(teachers|glossary|cheat-sheet)\.ipynb", x)], hrefs
            # the lesson scrolls inside the page: a window as tall as it, to see it whole
            tall = page.evaluate("() => Math.max(...[...document.querySelectorAll('*')]"
                                 ".map(e => e.scrollHeight))")
            page.set_viewport_size({"width": width, "height": min(int(tall) + 40, 16000)})
            page.wait_for_timeout(500)
            over = page.evaluate(h.OVERFLOW_JS, width)
            assert over["cut"] == [] and over["page"] <= width, over
            h.ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(h.ARTIFACTS / f"ru-00-{width}.png"))
            context.close()
