"""Issue 33, suspect 1 of the lost widget models: a page that takes its preheated kernel while the
kernel is still running the lesson ahead of time.

Voila's pool runs a lesson in a waiting kernel up to the cell that waits for the learner's
request (``ttrlib.lessons.query``, where a lesson first deals a game). A page that comes earlier,
on a server just started or while the pool refills (1 s after each page here), gets the cells
run so far, then the cell running when it came, then the rest run for its request (Voila's
``stop_generator``, PR #936). The one loss seen was the first opening of lesson 06 (the longest
lesson) right after the server started.

The sweep: one classroom server serving lesson 06, with a test-only config
(``tests/lost_widget_probe/voila.py``) that logs when each kernel's run starts and ends each
cell and when a page takes a kernel. A page opens at once (before the pool's kernel has run a
cell), then one page as each refilled run starts each code cell up to the waiting one, so the
pages take their kernels at every point of the preheat run. Every page must draw every widget,
none lost; the test checks from the log where each page took its kernel (the cell then running,
against the cell that waits) and keeps the table in ``test-artifacts/lost-widget-preheat.json``.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import lab_harness as h
import nbformat
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("classroom")]

LESSON = "06-play-a-team-game.ipynb"
PROBE = Path(__file__).resolve().parent / "lost_widget_probe"
EVENT = re.compile(r"^ttr-probe (?P<t>[0-9.]+) (?:cell=(?P<cell>\d+) (?P<what>start|end)|taken) "
                   r"kernel=(?P<kernel>\S+)$")
USING = re.compile(r"Using pre-heated kernel: (\S+) for")


def waiting_cell(nb) -> int:
    """The index of the cell where a preheated run of the lesson waits for its page: the first
    that asks for the learner's request (session_seed without wait=False / query / learner_id /
    deal_from_the_address, follow_the_address)."""
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and re.search(
                r"session_seed\((?!wait=False)|query\(|learner_id\(|_the_address\(",
                cell.source):
            return i
    raise AssertionError("the lesson never waits for its page")


def events(log_text: str) -> list[dict]:
    """The probe's lines, in order; a "taken" line gets its kernel from Voila's "Using
    pre-heated kernel" line, written right after it."""
    found: list[dict] = []
    for line in log_text.splitlines():
        m = EVENT.match(line.strip())
        if m:
            found.append({"t": float(m["t"]), "cell": None if m["cell"] is None else int(m["cell"]),
                          "what": m["what"] or "taken", "kernel": m["kernel"]})
            continue
        u = USING.search(line)
        if u:
            taken = [e for e in found if e["what"] == "taken" and "used" not in e]
            if taken:
                taken[-1]["used"] = u.group(1)
    return found


def where_taken(found: list[dict], kernel: str) -> dict:
    """Where the run of ``kernel`` was when a page took it: the cell running then (or the last
    one ended), and whether the preheat run had reached its waiting cell."""
    take = next(e for e in found if e["what"] == "taken" and e.get("used") == kernel)
    before = [e for e in found if e["kernel"] == kernel and e["cell"] is not None
              and e["t"] <= take["t"]]
    started = [e["cell"] for e in before if e["what"] == "start"]
    ended = {e["cell"] for e in before if e["what"] == "end"}
    # -1: before the run's first cell (its kernel still starting); None: between two cells
    running = -1 if not started else next((c for c in reversed(started) if c not in ended), None)
    return {"kernel": kernel[:8], "t_taken": take["t"], "running": running,
            "cells_done": len(ended), "last_started": started[-1] if started else None}


def _wait_for(log: Path, proc, test, what: str, limit_s: float = 900) -> list[dict]:
    """Poll the server's log (every 0.1 s, a cell can be short) until ``test(events)`` is true."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the server exited:\n" + log.read_text()[-3000:])
        found = events(log.read_text())
        if test(found):
            return found
        time.sleep(0.1)
    raise AssertionError(f"no {what} in {limit_s:.0f} s:\n" + log.read_text()[-3000:])


def test_pages_that_take_their_kernel_inside_its_preheat_run_draw_every_widget(tmp_path):
    h.need_browser()
    folder = tmp_path / "lessons"
    folder.mkdir()
    shutil.copy(h.ROOT / "notebooks" / LESSON, folder / LESSON)
    nb = nbformat.read(folder / LESSON, as_version=4)
    wait_at = waiting_cell(nb)
    targets = [None] + [i for i, c in enumerate(nb.cells) if c.cell_type == "code"
                        and i <= wait_at]
    log = tmp_path / "classroom.log"
    url_of = f"/voila/render/{LESSON}"
    rows = []
    # the browser first: the first page then asks as soon as the server answers, while the
    # pool's first kernel is still starting
    with h.browser() as browser, h.classroom(
            tmp_path, folder=folder, args=(f"--Voila.config_file_paths={PROBE}",)) as (base, proc):
        pages, used = [], set()
        for target in targets:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            if target is not None:  # the next run (a refill) starts this cell: open now
                _wait_for(log, proc, lambda f, t=target: any(
                    e["cell"] == t and e["what"] == "start" and e["kernel"] not in used
                    for e in f), f"refilled run starting cell {target}")
            h.open_page(page, base + url_of)
            taken = len(pages) + 1
            found = _wait_for(log, proc, lambda f, n=taken: sum(
                1 for e in f if e.get("used")) >= n, "page taking a preheated kernel")
            kernel = [e["used"] for e in found if e.get("used")][-1]
            used.add(kernel)
            pages.append((target, kernel, page, context))
        for target, kernel, page, context in pages:
            h.wait_until(page, h.WIDGETS_SETTLED_JS, f"lesson 06 taken at cell {target}",
                         proc=proc, log=log, failures="() => ''")
            time.sleep(2)  # what comes late (a reload message after asking again) comes
            status = page.evaluate(h.WIDGET_STATUS_JS)
            assert page.evaluate(h.KERNEL_ID_JS) == kernel
            rows.append({"target": target, **where_taken(events(log.read_text()), kernel),
                         **status})
            context.close()
        # a preheated 06 has dealt a random game ahead; its last cell deals game 7 when the
        # address asks for it (issue 36)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = h.open_page(context.new_page(), base + url_of + "?seed=7")
        h.wait_until(page, h.WIDGETS_SETTLED_JS, "lesson 06 with ?seed=7", proc=proc, log=log)
        numbered = " ".join(page.locator(".ttr-game-no").all_inner_texts())
        context.close()
    h.ARTIFACTS.mkdir(exist_ok=True)
    (h.ARTIFACTS / "lost-widget-preheat.json").write_text(json.dumps(
        {"waiting_cell": wait_at, "pages": rows}, indent=1))
    # the sweep reached inside the preheat run: pages took their kernel while it ran a cell
    # before its waiting one (the cells it spends its time in: the imports, the bots' game,
    # the map), and after it had reached the waiting cell (the usual way)
    inside = {r["running"] for r in rows if r["running"] is not None and r["running"] < wait_at}
    assert len(inside) >= 3, rows
    assert any(r["running"] == wait_at for r in rows), rows
    assert all(r["views"] > 3 and r["lost"] == 0 and r["loading"] == 0 for r in rows), rows
    assert "game 7" in numbered, numbered
