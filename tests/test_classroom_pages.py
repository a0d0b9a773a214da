"""The classroom server's own pages in Chromium (issue 21, items 2 and 6).

* The home page lists the lessons in its own HTML (drawn on the server, classroom/voila.py's
  classic_tree), and it and a folder page fetch nothing from outside the machine (Voila's base page
  links Font Awesome 4.5 on a CDN; the classroom template's page.html leaves it out).
* A widget the page cannot find in its kernel ("Error displaying widget: model not found", seen
  once on a busy machine) is answered with a message and a Reload button, in its place and at
  the top of the page. The test makes the loss certain: the notebook closes a widget's model
  after displaying it, so the page names a model its kernel no longer has.

The server serves a temporary folder (no lesson in it, so no kernel is started ahead of time).
Skips without Chromium unless TTR_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import lab_harness as h
import nbformat
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("classroom")]
# The lost widget is what these pages show on purpose: only a traceback is a failure here.
NO_TRACEBACK = """() => [...document.querySelectorAll('.jp-OutputArea-output')].map(
    e => e.innerText).find(t => t.includes('Traceback')) || ''"""


_notebook = h.notebook_of


# named like a lesson: the learners' classroom app serves lessons (NN-name.ipynb) and nothing else
LOST = "97-lost.ipynb"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    h.need_browser()
    tmp = tmp_path_factory.mktemp("classroom-pages")
    folder = tmp / "lessons"
    folder.mkdir(parents=True)
    nbformat.write(_notebook(
        "import ipywidgets as w\nfrom ttrlib.widgets.base import Screen\n"
        "kept = Screen()  # a lesson screen: its kernel hears the page's reports\n"
        "kept.children = [w.Button(description='Still here')]\nkept",
        "lost = w.Button(description='Lost')\nlost",
        "lost.close()  # its output stays in the page; its model leaves the kernel"),
        folder / LOST)
    with h.classroom(tmp, folder=folder) as (base, proc), h.browser() as b:
        yield base, proc, tmp / "classroom.log", b


def test_home_and_folder_pages_fetch_nothing_from_outside(server):
    base, proc, log, browser = server
    context = browser.new_context()
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page = h.watch(context.new_page())
    # the learners' app lists the lessons only, and no sub-folder (classroom/lessons_only.py)
    for path, shows in (("/", "97 · Lost"),):  # the lesson, by its number and name
        page.goto(base + path)
        h.wait_until(page, "(t) => document.body.innerText.includes(t)", f"the page {path}",
                     arg=shows, proc=proc, log=log)
        page.wait_for_load_state("networkidle")
    context.close()
    outside = sorted({u for u in requests if not u.startswith(base + "/")})
    assert not outside, f"the home and folder pages asked for things outside: {outside}"


def test_the_list_of_lessons_is_in_the_page_itself(server):
    """The home page lists the lessons in its HTML (drawn on the server): a busy server shows
    the list as soon as the page arrives, with no script to wait for (Voila's own list is drawn
    by a script, and stayed empty for a minute on a loaded machine)."""
    import urllib.request

    base, _proc, _log, _browser = server
    with urllib.request.urlopen(base + "/", timeout=120) as r:
        html = r.read().decode()
    # a learner reads the number and the name, and the link opens the lesson in the same tab
    assert f'<a href="/voila/render/{LOST}">' in html, html[-2000:]
    assert "97 · Lost" in html, html[-2000:]


def test_a_lost_widget_asks_for_a_reload(server):
    base, proc, log, browser = server
    context = browser.new_context(viewport={"width": 980, "height": 800})
    page = h.open_page(context.new_page(), f"{base}/voila/render/{LOST}")
    try:
        # the message replaces Voila's dead end; everything else of the page stays
        h.wait_until(page, "() => document.querySelectorAll('.ttr-lost-widget').length >= 2",
                     "the reload message", proc=proc, log=log, failures=NO_TRACEBACK)
        lost = page.locator(".jupyter-widgets .ttr-lost-widget")
        assert lost.count() == 1, h.page_report(page)
        assert "Reload the page" in lost.inner_text()
        assert page.locator("#ttr-lost-banner").is_visible()
        assert page.locator("button", has_text="Still here").is_visible()
        assert "Error displaying widget" not in h.page_text(page)
        # asked again first: the kernel has no such model, and the server's log says so
        h.wait_for_log(log, f"ttrlib: {LOST} lost 1 widget on its way; this kernel holds "
                       "none of them: the kernel lost them; asked again: drawn 0 of 1", proc)
        page.screenshot(path=str(h.ARTIFACTS / "classroom-lost-widget.png"))
        first = page.evaluate(h.KERNEL_ID_JS)
        page.locator("#ttr-lost-banner button").click()  # a fresh page, in a fresh kernel
        h.wait_until(page, "(k) => { const c = document.getElementById('jupyter-config-data');"
                     " return c && JSON.parse(c.textContent).kernelId !== k"
                     " && document.querySelectorAll('.ttr-lost-widget').length >= 2; }",
                     "the reloaded page", arg=first, proc=proc, log=log,
                     failures=NO_TRACEBACK)
    finally:
        context.close()


def test_a_port_taken_before_the_server_binds_it_is_passed_over(tmp_path, monkeypatch):
    """Two pytest workers: a free port may be taken by another test's server before Voila binds
    it. The harness then tries another free port (seen once in a full run: "the port ... is
    already in use")."""
    import socket
    import urllib.request

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        ports, real = iter([busy]), h.free_port
        monkeypatch.setattr(h, "free_port", lambda: next(ports, None) or real())
        folder = tmp_path / "empty"
        folder.mkdir()
        with h.classroom(tmp_path, folder=folder) as (base, _proc):
            assert not base.endswith(f":{busy}")
            with urllib.request.urlopen(base + h.VOILA_PROBE, timeout=60) as r:
                assert r.status == 200
