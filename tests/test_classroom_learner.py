"""The learner's id reaches the lesson's kernel in the classroom app (issue 18 item 2), in Chromium.

The classroom page sets the cookie ``ttr_learner`` (128 random bits, classroom template) and
Voila hands the request's Cookie header to the kernel (``http_header_envs`` in
``classroom/voila.py``), where ``ttrlib.lessons.learner.learner_id()`` reads it. A preheated
probe lesson shows a digest of the id its kernel sees (never the id itself); the test compares
it with the digest of the browser's cookie. A browser without the cookie gets it from the server
with its very first lesson page, whose kernel already knows it (classroom/xsrf_cookie.py): no page
ever reloads. The home page (the list of lessons) sets the cookie too. Skips without Chromium unless TTR_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import hashlib
import re
import time

import lab_harness as h
import nbformat
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("classroom")]

PROBE = "98-learner.ipynb"  # named like a lesson: the config preheats lessons only
PAGE_TIMEOUT_MS = 300_000


def _probe_notebook():
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python",
                                 "name": "python3"}
    nb.cells = [nbformat.v4.new_code_cell(
        "import hashlib\nimport ipywidgets as w\n"
        "from ttrlib.lessons.learner import learner_id\n"
        "me = learner_id()\n"
        "seen = hashlib.sha256(me.encode()).hexdigest()[:12] if me else 'none'\n"
        "w.HTML(f'<span class=\"learner\">{seen}</span>')")]
    return nb


def test_the_lesson_kernel_sees_the_browsers_learner_id(tmp_path):
    h.need_browser()
    folder = tmp_path / "lessons"
    folder.mkdir()
    nbformat.write(_probe_notebook(), folder / PROBE)
    env = {"TTR_CLASS_LESSON": PROBE, "TTR_CLASS_SIZE": "2"}
    log = tmp_path / "classroom.log"
    with h.classroom(tmp_path, folder=folder, env=env) as (base, proc), h.browser() as browser:
        h.wait_for_log(log, f"Kernel pool of {PROBE} is filled with 2 kernel(s)", proc)
        context = browser.new_context()
        page = context.new_page()
        loads = []  # the page documents requested (a reload in the head fires no load event)
        page.on("request", lambda r: loads.append(r.url) if r.resource_type == "document" else 0)
        page.goto(f"{base}/voila/render/{PROBE}?seed=3", timeout=PAGE_TIMEOUT_MS)
        shown = page.locator(".learner")
        shown.wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
        cookie = {c["name"]: c for c in context.cookies()}["ttr_learner"]
        assert re.fullmatch(r"[0-9a-f]{32}", cookie["value"])
        assert cookie["sameSite"] == "Strict" and cookie["path"] == "/"
        assert 360 * 86400 < cookie["expires"] - time.time() <= 366 * 86400
        expected = hashlib.sha256(cookie["value"].encode()).hexdigest()[:12]
        assert shown.inner_text() == expected, "the kernel did not get the browser's id"
        assert len(loads) == 1 and loads[0].endswith("?seed=3")  # the first page: no reload
        assert cookie["value"] not in page.content()  # the id itself is never on the page

        again = context.new_page()  # the same browser, a second lesson page: no reload
        again_loads = []
        again.on("request", lambda r: again_loads.append(1) if r.resource_type == "document"
                 else 0)
        again.goto(f"{base}/voila/render/{PROBE}", timeout=PAGE_TIMEOUT_MS)
        again.locator(".learner").wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
        assert again.locator(".learner").inner_text() == expected and again_loads == [1]

        home = browser.new_context().new_page()  # the list of lessons: the cookie, no reload
        home_loads = []
        home.on("request", lambda r: home_loads.append(1) if r.resource_type == "document"
                else 0)
        home.goto(f"{base}/", timeout=PAGE_TIMEOUT_MS)
        home.wait_for_timeout(1000)
        names = [c["name"] for c in home.context.cookies()]
        assert "ttr_learner" in names and home_loads == [1]
