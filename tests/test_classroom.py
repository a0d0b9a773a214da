"""The classroom server (`make classroom`: Voila with ``classroom/voila.py``) in Chromium.

Five learners open a lesson from the server's kernel pool (preheated kernels), each with its own
``?seed=N``, then close their tabs: three as a tab closes (the page's shut-down request, which
must pass the XSRF check), two by vanishing (their kernels must be culled). Every kernel must be
gone, and no page may ask for anything outside this machine (Font Awesome is served locally).

The server serves a temporary folder holding a copy of lesson 01 and a small notebook that reads
its query string the way a lesson does with preheated kernels (``voila.utils.get_query_string``)
and shows it with an icon button. The idle culler is set short for the test on the command line
(it wins over the config file), and the pages open only when the preheated kernels have been
idle longer than that: a kernel handed out of the pool must not be culled before its page
connects. Skips without Chromium unless TTR_REQUIRE_BROWSER=1.

No step has a fixed time limit: each waits for its condition while the server works (see
``lab_harness.wait_until``), so a slow machine only makes the test slower; a failure says what
the page showed and how the server's log ends.
"""

from __future__ import annotations

import shutil
import time

import lab_harness as h
import nbformat
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("classroom")]

LESSON = "01-card-splits.ipynb"
PROBE = "99-query.ipynb"  # named like a lesson: the config preheats lessons only
LEARNERS = 5
CULL_IDLE_S = 20
WIDGET_SHOWN = """() => [...document.querySelectorAll('.jupyter-widgets')].some(
    e => e.offsetParent !== null && e.getBoundingClientRect().height > 0)"""


def _probe_notebook():
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python",
                                 "name": "python3"}
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import ipywidgets as w\nfrom voila.utils import get_query_string\n"
            "query = get_query_string()"),
        nbformat.v4.new_code_cell(
            "w.VBox([w.HTML(f'<span class=\"query\">{query}</span>'),"
            " w.Button(description='Play', icon='play')])"),
    ]
    return nb


def _settles(proc, most: int, log) -> None:
    """Wait until at most ``most`` kernels run under the server, as long as the server or its
    kernels use CPU (no fixed time); fail with the count and the end of the server's log."""
    cpu, moved = h._cpu_seconds(proc.pid), time.monotonic()
    while (running := len(h.kernel_processes(proc.pid))) > most:
        time.sleep(2)
        now_cpu = h._cpu_seconds(proc.pid)
        if now_cpu - cpu > 2 * h.CPU_MOVING_S:
            moved = time.monotonic()
        elif time.monotonic() - moved > h.STALL_S:
            raise AssertionError(f"{running} kernels run for a pool of {most}, nothing moved "
                                 f"for {h.STALL_S:.0f} s\n{log.read_text()[-3000:]}")
        cpu = now_cpu


def _gone(base: str, kernel_ids: list[str], proc, log, what: str) -> None:
    """Wait until none of ``kernel_ids`` is alive, as long as the server works or some go
    (no fixed time); fail naming those still alive, with the end of the server's log."""
    alive = list(kernel_ids)
    cpu, moved = h._cpu_seconds(proc.pid), time.monotonic()
    while alive:
        time.sleep(2)
        still = [k for k in alive if h.kernel_alive(base, k)]
        now_cpu = h._cpu_seconds(proc.pid)
        if len(still) < len(alive) or now_cpu - cpu > 2 * h.CPU_MOVING_S:
            moved = time.monotonic()
        elif time.monotonic() - moved > h.STALL_S:
            raise AssertionError(f"{what}: kernels still alive {still}, nothing moved for "
                                 f"{h.STALL_S:.0f} s\n{log.read_text()[-3000:]}")
        alive, cpu = still, now_cpu


def test_five_sessions_get_their_seed_stay_local_and_free_their_kernels(tmp_path):
    h.need_browser()
    folder = tmp_path / "lessons"
    folder.mkdir()
    shutil.copy(h.ROOT / "notebooks" / LESSON, folder / LESSON)
    nbformat.write(_probe_notebook(), folder / PROBE)
    args = (f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_S}",
            "--MappingKernelManager.cull_interval=2")
    env = {"TTR_CLASS_LESSON": PROBE, "TTR_CLASS_SIZE": str(LEARNERS)}
    log = tmp_path / "classroom.log"
    with h.classroom(tmp_path, folder=folder, args=args, env=env) as (base, proc), \
            h.browser() as browser:
        h.wait_for_log(log, f"Kernel pool of {PROBE} is filled with {LEARNERS} kernel(s)", proc)
        h.wait_for_log(log, f"Kernel pool of {LESSON} is filled with 1 kernel(s)", proc)
        time.sleep(CULL_IDLE_S + 5)  # the lesson's waiting kernel is now "idle" for the culler
        requests: list[str] = []
        contexts, pages = [], []
        for seed in range(1, LEARNERS + 1):  # one context each: learners share no cookie
            context = browser.new_context(viewport={"width": 1000, "height": 700})
            context.on("request", lambda r: requests.append(r.url))
            page = h.open_page(context.new_page(), f"{base}/voila/render/{PROBE}?seed={seed}")
            contexts.append(context)
            pages.append(page)
        lesson_context = browser.new_context(viewport={"width": 1280, "height": 900})
        lesson_context.on("request", lambda r: requests.append(r.url))
        lesson = h.open_page(lesson_context.new_page(), f"{base}/voila/render/{LESSON}")

        for seed, page in enumerate(pages, 1):
            h.wait_until(page, WIDGET_SHOWN, f"learner {seed}'s widget", proc=proc, log=log)
            # the preheated kernel got this page's query string
            assert page.locator(".query").inner_text() == f"seed={seed}", h.page_report(page)
            # the icon font (Font Awesome 5, bundled with Voila) loaded from this server
            h.wait_until(page, "() => document.fonts.check('900 16px \"Font Awesome 5 Free\"')",
                         f"learner {seed}'s icon font", proc=proc, log=log)
        h.wait_until(lesson, WIDGET_SHOWN, "the lesson's widget", proc=proc, log=log)
        lesson.screenshot(path=str(_artifact("classroom-01-top.png")))
        assert not lesson.locator(".jp-OutputArea-output", has_text="Traceback").count()

        outside = sorted({u for u in requests if not u.startswith(base + "/")})
        assert not outside, f"pages asked for things outside this machine: {outside}"
        assert any("/voila/render/" in u for u in requests)

        ids = [page.evaluate(h.KERNEL_ID_JS) for page in pages]
        lesson_id = lesson.evaluate(h.KERNEL_ID_JS)
        assert len(set(ids + [lesson_id])) == LEARNERS + 1, "two pages share a kernel"
        assert all(h.kernel_alive(base, k) for k in ids + [lesson_id])
        for page in pages:
            assert any(c["name"] == "_xsrf" for c in page.context.cookies()), \
                "the lesson page set no _xsrf cookie: its shut-down request will be refused"

        # three tabs close as tabs do: the page posts voila/api/shutdown/<kernel id>
        for page in pages[:3]:
            page.close(run_before_unload=True)
        _gone(base, ids[:3], proc, log, "kernels of closed tabs")
        text = log.read_text()
        for k in ids[:3]:  # shut down on request, not culled
            assert f"Kernel shutdown: {k}" in text and f"({k}) with" not in text
        assert "_xsrf" not in text and "403 POST" not in text

        # two tabs and the lesson vanish without a word: the idle culler must find them
        for context in contexts[3:] + [lesson_context]:
            context.close()
        _gone(base, ids[3:] + [lesson_id], proc, log, "kernels of vanished tabs (culling)")
        text = log.read_text()
        assert all(f"Culling 'idle' kernel 'python3' ({k})" in text for k in ids[3:])

        # what is left is the pool waiting for the next learners, nothing more (a kernel shut
        # down a moment ago may still be exiting, and a refill may be starting: on a loaded
        # machine that takes a while, so wait for the count while the server still works)
        _settles(proc, LEARNERS, log)


def _artifact(name: str):
    h.ARTIFACTS.mkdir(exist_ok=True)
    return h.ARTIFACTS / name
