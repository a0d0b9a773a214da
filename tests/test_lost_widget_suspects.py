"""Issue 33, suspects 2-6 of the lost widget models, each provoked in the classroom app (Voila in
Chromium, the kernel's websocket routed by Playwright: lab_harness.routed_page).

2. A displayed model's Layout closed while the model is shown (a Layout shared by two widgets,
   one closed by ``close_all``), and
6. a container whose children name a closed model (voila#1119), in the kernel: the kernel can
   no longer answer the page's question (``request_states`` raises on the closed reference),
   nor the per-model question for that model, so the page restores nothing: every widget of
   the page stays "Loading widget...". Not the one loss seen (some exercises, "model not
   found"); ``test_lost_widget_models.py`` shows that no lesson does either.
3. Late registration (ipywidgets#4026): a view drawn after the restore whose ``comm_open``
   comes later. Voila 0.5's renderer gives up for good; the template now draws the view when
   its model registers (Voila's modelRegistered, as ipywidgets PR #4042), even over the reload
   message, and asks again for the right model of a view inside another widget.
4. The control comm's 4 s timeout on a busy kernel: the answer held 6 s and the kernel kept busy
   12 s, so the per-model fallback waits behind it: every widget drawn.
5. The IOPub rate limit: lesson 06 with jupyter_server's limit at 5 messages/s, the first answer
   held past the 4 s timeout so the page asks model by model: the models are counted, and none
   is lost (each answer ends with the kernel's "idle", which resets the limit's count).

Skips without Chromium unless TTR_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import time
import uuid

import lab_harness as h
import nbformat
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("classroom")]

SETTLE_MS = 600_000  # a loaded machine (2 cores shared): the lessons draw in 20-90 s
STATUS = h.WIDGET_STATUS_JS


_notebook = h.notebook_of


KEPT = ("import ipywidgets as w\nfrom IPython.display import display\n"
        "from ttrlib.widgets.base import Screen, close_all\n"
        "kept = Screen()  # a lesson screen: its kernel hears the page's reports\n"
        "kept.children = [w.Button(description='Still here')]\ndisplay(kept)")
CLOSED_CHILD = _notebook(KEPT, "child = w.Button(description='Child')\n"
                         "box = w.VBox([child, w.Label('beside it')])\ndisplay(box)\n"
                         "child.close()  # the box still names it")
SHARED_LAYOUT = _notebook(KEPT, "shared = w.Layout(width='200px')\n"
                          "a = w.Button(description='A', layout=shared)\n"
                          "b = w.Button(description='B', layout=shared)\ndisplay(b)\n"
                          "close_all(a)  # closes a's layout, which b shares")
LATE = _notebook(KEPT, "out = w.Output()\n"
                 "def make(_):\n"
                 "    late = w.Button(description='Late button')\n"
                 "    late.on_click(lambda b: setattr(b, 'description', 'Pressed'))\n"
                 "    out.append_display_data(late)\n"
                 "go = w.Button(description='Make one')\ngo.on_click(make)\n"
                 "kept.children = [*kept.children, go, out]")
# named like lessons: the learners' classroom app serves lessons (NN-name.ipynb) only
PAGES = {"91-shared-layout.ipynb": SHARED_LAYOUT, "92-closed-child.ipynb": CLOSED_CHILD,
         "93-late.ipynb": LATE}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    h.need_browser()
    tmp = tmp_path_factory.mktemp("lost-widget-suspects")
    folder = tmp / "lessons"
    folder.mkdir()
    for name, nb in PAGES.items():
        nbformat.write(nb, folder / name)
    shutil.copy(h.ROOT / "notebooks" / "01-card-splits.ipynb", folder)
    with h.classroom(tmp, folder=folder) as (base, proc):
        yield base, proc, tmp / "classroom.log"


def _msg_type(raw) -> str:
    return h.ws_header(raw).get("msg_type", "") if isinstance(raw, (bytes, bytearray)) else ""


async def _settle(page, seconds: float = 2.0) -> dict:
    await page.wait_for_function(h.WIDGETS_SETTLED_JS, timeout=SETTLE_MS, polling=500)
    await asyncio.sleep(seconds)  # what comes late (asking again, a reload message) comes
    return await page.evaluate(STATUS)


# --- suspects 2 and 6, in the kernel --------------------------------------------------------------
@pytest.mark.parametrize("name", ["91-shared-layout.ipynb", "92-closed-child.ipynb"])
def test_a_closed_model_still_named_by_a_shown_one_costs_the_page_every_widget(server, name):
    base, proc, log = server
    answers = {"states": 0, "asked": 0, "answered": 0}

    def to_kernel(m, send) -> None:
        if isinstance(m, (bytes, bytearray)) and b'request_state"' in m:
            answers["asked"] += 1  # the per-model questions, after the 4 s wait
        send(m)

    def from_kernel(m, send) -> None:
        if isinstance(m, (bytes, bytearray)):
            answers["states"] += b"update_states" in m
            answers["answered"] += _msg_type(m) == "comm_msg" and b'"update"' in m
        send(m)

    async def run() -> dict:
        async with h.routed_page(base, f"/voila/render/{name}", from_kernel,
                                 to_kernel=to_kernel) as page:
            await page.wait_for_function(  # Voila's app has started its renderers
                "() => window.jupyterapp && window.jupyterapp.widgetManager",
                timeout=SETTLE_MS, polling=500)
            await asyncio.sleep(30)  # past the 4 s wait and the per-model questions
            return await page.evaluate(STATUS)

    status = asyncio.run(run())
    # the kernel could not answer the page's question, nor the question for the model that
    # names a closed one (the others it answered), and the page restored nothing
    assert answers["states"] == 0 and answers["asked"] > 3, answers
    assert answers["answered"] < answers["asked"], answers
    assert status["loading"] >= 2 and status["views"] == 0 and status["lost"] == 0, status


# --- suspect 3: late registration ------------------------------------------------------------------
HOLD_LATE_S = 35.0  # past the page's 30 s wait for its second answer: the reload message shows


def test_a_view_whose_model_registers_late_is_drawn_in_its_place(server):
    """The late button's comm_open is held 35 s; meanwhile the page's second question gets no
    answer (its answers are dropped), so the page shows the reload message; then the comm_open
    comes: the button is drawn in the Output, live, and the reload messages go."""
    base, proc, log = server
    seen = {"phase": "load", "held": [], "dropped": 0, "console": []}

    def from_kernel(m, send) -> None:
        kind = _msg_type(m)
        if seen["phase"] == "load" and isinstance(m, (bytes, bytearray)) and b"update_states" in m:
            seen["phase"] = "loaded"
        elif seen["phase"] in ("clicked", "silent") and kind == "comm_open":
            # the button's comm_open and those of its Layout and Style, in their order
            seen["held"].append(m)
            if seen["phase"] == "clicked":
                seen["phase"] = "silent"

                async def later() -> None:
                    await asyncio.sleep(HOLD_LATE_S)
                    seen["phase"] = "open"
                    for held in seen["held"]:
                        send(held)

                asyncio.ensure_future(later())
            return
        elif seen["phase"] == "silent" and (
                kind == "comm_info_reply" or (isinstance(m, (bytes, bytearray))
                                               and b"update_states" in m)):
            seen["dropped"] += 1
            return
        send(m)

    async def run() -> None:
        async with h.routed_page(base, "/voila/render/93-late.ipynb", from_kernel,
                                 console=seen["console"]) as page:
            await _settle(page)
            seen["phase"] = "clicked"
            await page.get_by_role("button", name="Make one").click()
            await page.wait_for_function("() => document.querySelector('.ttr-lost-widget')",
                                         timeout=SETTLE_MS, polling=500)
            seen["asked_reload"] = await page.locator(".ttr-lost-widget").count()
            await page.wait_for_function(
                "() => [...document.querySelectorAll('button')].some(b => "
                "b.textContent.trim() === 'Late button')", timeout=180_000, polling=500)
            await asyncio.sleep(2)
            seen.update(await page.evaluate(STATUS))
            seen["lost_messages"] = await page.locator(".ttr-lost-widget").count()
            await page.get_by_role("button", name="Late button").click()
            await page.get_by_role("button", name="Pressed").wait_for(timeout=120_000)
            seen["live"] = True
            await page.screenshot(path=str(h.ARTIFACTS / "classroom-late-model.png"))

    h.ARTIFACTS.mkdir(exist_ok=True)
    asyncio.run(run())
    said = [c for c in seen["console"] if c.startswith("ttrlib:")]
    assert len(seen["held"]) == 3 and seen["dropped"] >= 1, seen  # Button, Layout, Style
    assert seen["asked_reload"] == 2, said  # the lost view and the banner, before the comm_open
    assert seen["lost_messages"] == 0 and seen["lost"] == 0, said
    assert seen.get("live"), said
    assert any("model came late; drawn in its place: drawn" in c for c in said), said


# --- suspect 4: the 4 s timeout on a busy kernel ---------------------------------------------------
HOLD_S = 6.0  # past ipywidgets' 4 s wait for the control comm's answer
BUSY_S = 12  # the kernel runs this long after answering: the per-model questions wait behind it


def _execute_request(like: bytes, code: str) -> bytes:
    """A silent execute_request in the session of the page's message ``like``."""
    header = json.loads(h.ws_message_parts(like)[1])
    new = {"msg_id": uuid.uuid4().hex, "msg_type": "execute_request", "session": header["session"],
           "username": header.get("username", ""), "date": header.get("date", ""),
           "version": header.get("version", "5.3")}
    content = {"code": code, "silent": True, "store_history": False, "user_expressions": {},
               "allow_stdin": False, "stop_on_error": False}
    return h.ws_message([b"shell", json.dumps(new).encode(), b"{}", b"{}",
                         json.dumps(content).encode()])


def test_a_busy_kernel_past_the_4_s_wait_still_draws_every_widget(server):
    base, proc, log = server
    seen = {"held": 0, "busy_sent": 0, "per_model": 0}

    def to_kernel(m, send) -> None:
        send(m)
        if isinstance(m, (bytes, bytearray)) and b"request_states" in m and not seen["busy_sent"]:
            seen["busy_sent"] = time.monotonic()
            send(_execute_request(bytes(m), f"import time\ntime.sleep({BUSY_S})"))
        elif isinstance(m, (bytes, bytearray)) and b"request_state\"" in m:
            seen["per_model"] += 1

    def from_kernel(m, send) -> None:
        if isinstance(m, (bytes, bytearray)) and b"update_states" in m and not seen["held"]:
            seen["held"] = 1

            async def later() -> None:
                await asyncio.sleep(HOLD_S)
                send(m)

            asyncio.ensure_future(later())
            return
        send(m)

    async def run() -> None:
        async with h.routed_page(base, "/voila/render/01-card-splits.ipynb", from_kernel,
                                 to_kernel=to_kernel) as page:
            seen.update(await _settle(page, seconds=HOLD_S))
            seen["drawn_s"] = round(time.monotonic() - seen["busy_sent"], 1)

    asyncio.run(run())
    assert seen["held"] and seen["busy_sent"], seen
    assert seen["per_model"] > 20, seen  # the page asked model by model
    # ... and could draw nothing before the held answer came (the busy kernel answered the
    # per-model questions later still; under load the page was seen drawn at 10.5 s of the
    # 12 s busy run, so the bound is the hold, which nothing can beat)
    assert seen["drawn_s"] >= HOLD_S, seen
    assert seen["views"] > 3 and seen["lost"] == 0 and seen["loading"] == 0, seen


# --- suspect 5: the IOPub rate limit --------------------------------------------------------------
RATE = 5  # messages/s over jupyter_server's 3 s window (its default: 1,000)


def test_lesson_06_under_a_low_iopub_rate_limit_loses_nothing(tmp_path):
    h.need_browser()
    folder = tmp_path / "lessons"
    folder.mkdir()
    shutil.copy(h.ROOT / "notebooks" / "06-play-a-team-game.ipynb", folder)
    seen = {"models": 0, "updates": 0, "limited": 0, "held": 0}

    def from_kernel(m, send) -> None:
        raw = m if isinstance(m, (bytes, bytearray)) else m.encode()
        if b"IOPub message rate exceeded" in raw:
            seen["limited"] += 1
        if _msg_type(m) == "comm_msg" and b'"update"' in raw:
            seen["updates"] += 1
        if b"update_states" in raw and not seen["held"]:
            seen["held"] = 1
            seen["models"] = len(json.loads(h.ws_message_parts(bytes(raw))[4])["data"]["states"])

            async def later() -> None:  # past the 4 s wait: the page asks model by model
                await asyncio.sleep(HOLD_S)
                send(m)

            asyncio.ensure_future(later())
            return
        send(m)

    async def run(base: str) -> None:
        async with h.routed_page(base, "/voila/render/06-play-a-team-game.ipynb",
                                 from_kernel) as page:
            seen.update(await _settle(page, seconds=HOLD_S))

    args = (f"--ZMQChannelsWebsocketConnection.iopub_msg_rate_limit={RATE}",)
    with h.classroom(tmp_path, folder=folder, args=args) as (base, _proc):
        asyncio.run(run(base))
    h.ARTIFACTS.mkdir(exist_ok=True)
    (h.ARTIFACTS / "lost-widget-iopub-rate.json").write_text(json.dumps(seen))
    # the page asked for each of the kernel's models, far past 5 a second, and got them all
    assert seen["models"] > 3 * RATE * 10 and seen["updates"] >= seen["models"] - 5, seen
    assert seen["views"] > 3 and seen["lost"] == 0 and seen["loading"] == 0, seen
