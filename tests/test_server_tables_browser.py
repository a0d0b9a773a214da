"""A class table in Chromium (issue 19, "Tests"): lesson 08 in the classroom app at seat A1,
driven by clicks, while A2, B1 and B2 play through the API with their keys (one browser page at
a time is what two cores allow), and the board page follows the game to the score sheet.

The class server and the classroom app (Voila with the project's ``classroom/`` config, serving
a folder with lesson 08 alone) run as ``make classroom`` runs them; the lesson's kernel finds the
server through ``TTR_CLASS_SERVER``. Screenshots of the seat and of the board at 1920x1080 and
1280x800 go to ``test-artifacts/``. Skips without Chromium unless TTR_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import json
import re
import shutil
import threading
import time

import lab_harness as h
import pytest
from server_harness import start_server

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("classroom")]

LESSON = "08-play-at-a-table.ipynb"
LOAD_MS = 300_000
BIG, SMALL = {"width": 1920, "height": 1080}, {"width": 1280, "height": 800}
OTHERS = ("A2", "B1", "B2")
MAX_CLICKS = 400

# what the seat's hint line says, and what A1 does then
HINTS = {
    "The game is over": "over",
    "This screen changes by itself": "wait",
    "Choose your tickets": "setup",
    "Where does the card you drew go": "place",
    "Draw your second card": "second",
    "Keep at least 1 of the tickets you drew": "tickets",
    "The tunnel asks for more cards": "tunnel",
    "Your turn: draw train cards": "turn",
}


def _state(page) -> str:
    text = page.locator(".ttr-widget").first.inner_text()
    for words, state in HINTS.items():
        if words in text:
            return state
    return "unknown"


def _primary(page, text: str):
    """The button labelled ``text`` if it is highlighted (a legal move: mod-primary)."""
    found = page.locator(f"button.mod-primary:has-text('{text}')")
    return found.first if found.count() else None


def _choose_tickets(page, keep: int, confirm: str) -> None:
    boxes = page.locator(".widget-checkbox:has-text('keep') input")
    for i in range(keep):
        boxes.nth(i).check()
    page.locator(".widget-radio-box input[type=radio]").first.check()
    page.locator(f"button:has-text('{confirm}')").first.click()


def _click_a_move(page, state: str) -> None:
    if state == "setup":
        _choose_tickets(page, 3, "Confirm my setup tickets")
    elif state == "tickets":
        _choose_tickets(page, 1, "Keep the ticked tickets")
    elif state == "place":
        page.locator("button:has-text('→ my hand')").click()
    elif state == "tunnel":
        (_primary(page, "Pay the extra cards")
         or page.locator("button:has-text('Take my cards back')")).click()
    else:  # turn, second: claim a payable route, else draw
        button = ((_primary(page, "Claim the route") if state == "turn" else None)
                  or _primary(page, "Deck (") or _primary(page, "Take slot")
                  or _primary(page, "Draw 4 tickets"))
        assert button is not None, f"no legal move highlighted in state {state}"
        button.click()


def _own_cards(page) -> tuple:
    """What the seat's screen says of A1's own hand and private tickets."""
    text = page.locator(".ttr-widget").first.inner_text()
    hand = re.search(r"Your hand\s*\((\d+) cards?\)", text)
    tickets = re.search(r"Your private tickets \(A1\)\s*\((\d+) tickets?\)", text)
    assert hand and tickets, text[:800]
    return hand[1], tickets[1]


def _shoot(page, name: str, size: dict) -> None:
    h.ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size(size)
    page.wait_for_timeout(400)
    page.screenshot(path=str(h.ARTIFACTS / f"{name}-{size['width']}x{size['height']}.png"))


def test_lesson_08_and_the_board_play_a_game_to_the_end(tmp_path):
    h.need_browser()
    from table_client import play

    folder = tmp_path / "lessons"
    folder.mkdir()
    shutil.copy(h.ROOT / "notebooks" / LESSON, folder / LESSON)
    server = start_server(tmp_path / "data")
    errors: list[str] = []
    try:
        status, table, _ = server.request("POST", "/api/tables", {"players": 4, "seed": 31},
                                          token=server.token)
        assert status == 201
        tid, keys = table["table"], {n: s["key"] for n, s in table["seats"].items()}

        def other(name):
            try:
                with open(tmp_path / f"{name}.jsonl", "w") as out:
                    play(server.url, tid, name, keys[name], out, seed=len(name))
            except Exception as exc:  # noqa: BLE001 - reported by the test below
                errors.append(f"{name}: {exc!r}")

        others = [threading.Thread(target=other, args=(n,), daemon=True) for n in OTHERS]
        for t in others:
            t.start()
        env = {"TTR_CLASS_SERVER": server.url}
        with h.classroom(tmp_path, folder=folder, env=env) as (base, _proc), \
                h.browser() as browser:
            # without a seat's link the lesson says what to do, and shows no game
            bare = browser.new_context(viewport=SMALL).new_page()
            bare.goto(f"{base}/voila/render/{LESSON}", timeout=LOAD_MS)
            bare.wait_for_selector("text=Open the page from your link", timeout=LOAD_MS)
            assert not bare.locator(".ttr-widget").count()
            assert "Traceback" not in bare.inner_text("body")
            bare.context.close()
            seat = browser.new_context(viewport=SMALL).new_page()
            seat.goto(f"{base}/voila/render/{LESSON}?table={tid}&seat=A1&key={keys['A1']}",
                      timeout=LOAD_MS)
            seat.wait_for_selector(".ttr-widget", timeout=LOAD_MS)
            assert f"You are A1 (Team A) at table {tid}" in seat.inner_text("body")
            board = browser.new_context(viewport=BIG).new_page()
            board.goto(f"{server.url}/tables/{tid}/board")

            clicks, shot_mid, lags = 0, False, []
            while True:
                state = _state(seat)
                if state == "over":
                    break
                assert state != "unknown", seat.locator(".ttr-widget").first.inner_text()[:500]
                if state == "wait":
                    seat.wait_for_function(
                        "() => !document.querySelector('.ttr-widget').innerText"
                        ".includes('This screen changes by itself')", timeout=60_000)
                    continue
                before = seat.locator(".ttr-widget").first.inner_text()
                version = int(board.locator("#frame").get_attribute("data-version"))
                _click_a_move(seat, state)
                t0 = time.monotonic()
                seat.wait_for_function(
                    "(old) => document.querySelector('.ttr-widget').innerText !== old",
                    arg=before, timeout=60_000)
                # the projected board follows the move (its long-poll returns)
                board.wait_for_function(
                    f"() => +document.getElementById('frame').dataset.version > {version}",
                    timeout=10_000)
                lags.append(time.monotonic() - t0)
                clicks += 1
                assert clicks < MAX_CLICKS
                text = seat.locator(".ttr-widget").first.inner_text()
                assert "went wrong" not in text and "Traceback" not in text
                if clicks == 40 and not shot_mid:
                    shot_mid = True
                    for size in (BIG, SMALL):
                        _shoot(seat, "table-seat-A1-mid", size)
                        _shoot(board, "table-board-mid", size)
                    board.set_viewport_size(BIG)
                    # the learner closes the tab and opens the link again: back at the seat
                    link, mine = seat.url, _own_cards(seat)
                    seat.context.close()
                    seat = browser.new_context(viewport=SMALL).new_page()
                    seat.goto(link, timeout=LOAD_MS)
                    seat.wait_for_selector(".ttr-widget", timeout=LOAD_MS)
                    assert _own_cards(seat) == mine  # nobody else can change A1's hand

            for t in others:
                t.join(60)
            assert not errors, errors
            seat.wait_for_selector("text=Score sheet", timeout=30_000)
            board.wait_for_selector("text=The game is over", timeout=10_000)
            for size in (BIG, SMALL):
                _shoot(seat, "table-seat-A1-end", size)
                _shoot(board, "table-board-end", size)
            median = sorted(lags)[len(lags) // 2]
            (h.ARTIFACTS / "table-board-lag.json").write_text(json.dumps(
                {"clicks": clicks, "median_s": round(median, 3), "worst_s": round(max(lags), 3)}))
            assert clicks > 20 and median < 3.0

            # the teacher steps back through the log, and back to the live board
            latest = int(board.locator("#frame").get_attribute("data-version"))
            board.click("#back")
            board.wait_for_selector(f"text=step {latest - 1} of {latest}")
            assert "The game is over" not in board.locator(".tb-status").inner_text()
            board.click("#back")
            board.wait_for_selector(f"text=step {latest - 2} of {latest}")
            board.click("#live")
            board.wait_for_selector(".tb-scores")

            # the seat's page holds no other seat's key, and no hand but A1's own
            html = seat.content()
            assert not [n for n in OTHERS if keys[n] in html]
            final = json.loads((tmp_path / "B1.jsonl").read_text().splitlines()[-1])
            assert final["view"]["phase"] == "over"
    finally:
        server.stop()
