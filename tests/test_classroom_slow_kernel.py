"""A lesson page whose kernel answers late, or short, still draws every widget (issue 21, item 2).

On a busy classroom server a page once showed "Error displaying widget: model not found" for a
lesson's exercises. One suspect: the page asks its kernel for every widget state on the
``jupyter.widget.control`` comm and gives up after 4 s (ipywidgets' ``CONTROL_COMM_TIMEOUT``),
then asks model by model. Here the kernel's answer (``update_states``) is held back 6 s on its
way to the page (Playwright's WebSocket route between the page and the server), so the page
takes that second path: every widget must still be drawn, with no lost-widget message. This
ruled the suspect out (the cause of the loss is not found), and keeps the path working.

A second test removes the exercises' boxes from the kernel's first answer (the page then says
"model not found" for each, as in the one loss seen): the page asks the kernel again and draws
them in place, live, and the server's log says the page lost them. A third lets nothing of the
kernel through after that first answer: the page gives up its second question after 30 s and
asks for a reload.

The server serves a temporary folder with a copy of lesson 01. Skips without Chromium unless
TTR_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import asyncio
import shutil
from contextlib import contextmanager

import lab_harness as h
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("classroom")]

LESSON = "01-card-splits.ipynb"
HOLD_S = 6.0  # past ipywidgets' 4 s wait for the control comm's answer
DRAW_MS = 600_000
DRAWN = """() => {
  const views = [...document.querySelectorAll('.jupyter-widgets')];
  return views.length > 0 && views.every(e => !/^(Loading widget|Error displaying)/.test(
    (e.textContent || '').trim()));
}"""


@contextmanager
def _lesson_server(tmp_path):
    """The classroom server on a folder holding lesson 01 alone: ``(base, process)``."""
    h.need_browser()
    folder = tmp_path / "lessons"
    folder.mkdir()
    shutil.copy(h.ROOT / "notebooks" / LESSON, folder / LESSON)
    with h.classroom(tmp_path, folder=folder) as (base, proc):
        yield base, proc


def _lesson_page(base: str, from_kernel, console: list | None = None):
    """Lesson 01 open in Chromium, every message of its kernel handed to
    ``from_kernel(message, send)`` on its way to the page (lab_harness.routed_page)."""
    return h.routed_page(base, f"/voila/render/{LESSON}", from_kernel, console=console)


async def _open_with_late_states(base: str) -> dict:
    held = {"states": 0, "frames": 0}

    def from_kernel(m, send) -> None:
        held["frames"] += 1
        raw = m if isinstance(m, (bytes, bytearray)) else m.encode()
        if b"update_states" not in raw:
            send(m)
            return
        held["states"] += 1

        async def later() -> None:
            await asyncio.sleep(HOLD_S)
            send(m)

        asyncio.ensure_future(later())

    async with _lesson_page(base, from_kernel) as page:
        # a generous bound: the page draws in 20-40 s here, more on a loaded machine
        await page.wait_for_function(DRAWN, timeout=DRAW_MS, polling=500)
        await asyncio.sleep(HOLD_S + 2)  # the late answer arrives, then settles
        held["lost"] = await page.locator(".ttr-lost-widget").count()
        held["views"] = await page.locator(".jupyter-widgets").count()
        held["drawn"] = await page.evaluate(DRAWN)
        h.ARTIFACTS.mkdir(exist_ok=True)
        await page.screenshot(path=str(h.ARTIFACTS / "classroom-late-states.png"))
    return held


def test_a_page_whose_widget_states_come_late_draws_every_widget(tmp_path):
    with _lesson_server(tmp_path) as (base, _proc):
        held = asyncio.run(_open_with_late_states(base))
    assert held["states"] >= 1, held  # the answer was held back: the page took the slow path
    assert held["frames"] > 20, held  # ... and asked model by model
    assert held["drawn"] and held["views"] > 3 and held["lost"] == 0, held


# --- a first answer without some widgets --------------------------------------------------------
# The one loss seen (issue 21) fits a page that took its kernel's widget states before the
# exercises were made: the models of the exercises' boxes were missing from the kernel's answer
# (update_states), and the page said "model not found" for each. Here the route removes them from
# the kernel's first answer only: the page must ask again (the classroom template's script) and
# draw every exercise in place, live, with no reload message.
EXERCISE_CLASS = "ttr-exercise"


def _without_exercises(raw: bytes) -> tuple[bytes, int]:
    """The update_states message ``raw`` without the exercises' own boxes (their children stay)."""
    import json

    parts = h.ws_message_parts(raw)
    content = json.loads(parts[4])
    states = content["data"]["states"]
    gone = [k for k, v in states.items()
            if EXERCISE_CLASS in v.get("state", {}).get("_dom_classes", [])]
    for k in gone:
        del states[k]
    assert not any(p[0] in gone for p in content["data"]["buffer_paths"])  # boxes hold no bytes
    parts[4] = json.dumps(content).encode()
    return h.ws_message(parts), len(gone)


async def _open_with_first_states_short(base: str, *, then_silent: bool = False) -> dict:
    """Open the lesson with the exercises' boxes left out of the kernel's first answer; with
    ``then_silent``, nothing the kernel sends after that answer reaches the page."""
    seen = {"answers": 0, "removed": 0, "console": []}

    def from_kernel(m, send) -> None:
        if then_silent and seen["answers"]:
            return
        if isinstance(m, (bytes, bytearray)) and b"update_states" in m:
            seen["answers"] += 1
            if seen["answers"] == 1:
                m, seen["removed"] = _without_exercises(bytes(m))
        send(m)

    async with _lesson_page(base, from_kernel, seen["console"]) as page:
        await page.wait_for_function(
            f"() => ({DRAWN})() && document.querySelectorAll('.{EXERCISE_CLASS}').length > 0"
            " || document.querySelectorAll('.ttr-lost-widget').length > 0",
            timeout=DRAW_MS, polling=500)
        await asyncio.sleep(2)  # anything still to come (a reload message) comes
        seen["lost"] = await page.locator(".ttr-lost-widget").count()
        if then_silent:
            return seen
        seen["drawn"] = await page.evaluate(DRAWN)
        seen["exercises"] = await page.locator(f".{EXERCISE_CLASS}").count()
        # a redrawn exercise is live: its button reaches the kernel, the answer comes back
        if seen["exercises"]:
            first = page.locator(f".{EXERCISE_CLASS}").first
            await first.get_by_role("button", name="Show the answer").click()
            await page.wait_for_function(
                f"() => document.querySelector('.{EXERCISE_CLASS}').innerText"
                ".includes('The answer:')", timeout=120_000)
            seen["answered"] = True
        await page.screenshot(path=str(h.ARTIFACTS / "classroom-states-asked-again.png"))
    return seen


def test_widgets_missing_from_the_kernels_first_answer_are_asked_for_again(tmp_path):
    with _lesson_server(tmp_path) as (base, proc):
        seen = asyncio.run(_open_with_first_states_short(base))
        # the teacher's terminal (the server's log) says which side lost them (page_reports)
        h.wait_for_log(tmp_path / "classroom.log", f"ttrlib: {LESSON} lost 4 widgets on its "
                       "way; this kernel holds them all: the page lost them; asked again: "
                       "drawn 4 of 4", proc)
    assert seen["removed"] == 4, seen  # lesson 01's four exercises were left out of the answer
    assert seen["answers"] >= 2, seen  # the page asked again
    assert seen["lost"] == 0 and seen["drawn"] and seen["exercises"] == 4, [
        c for c in seen["console"] if "atisf" not in c]
    assert seen.get("answered"), seen
    assert any("asked the kernel again: drawn 4 of 4" in c
               for c in seen["console"]), seen["console"]


def test_a_kernel_that_does_not_answer_again_gets_the_reload_message(tmp_path):
    """The same first answer, then nothing more from the kernel: the page does not wait for ever
    on its second question (30 s), every lost exercise asks for a reload."""
    with _lesson_server(tmp_path) as (base, _proc):
        seen = asyncio.run(_open_with_first_states_short(base, then_silent=True))
    assert seen["removed"] == 4, seen
    assert seen["lost"] == 4 + 1, seen  # the four exercises and the banner at the top
    assert any("asked the kernel again: failed: no answer in time" in c
               for c in seen["console"]), [c for c in seen["console"] if "atisf" not in c]
