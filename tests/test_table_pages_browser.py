"""The class server's pages in Chromium (issue 30, finding 7; issue 32, items 2, 5, 9):

- a page on another port of this host, opened in the teacher's browser (which holds the
  teacher's cookie), posts the Tables form and a seat's bot form: both refused, nothing changes;
- the board projected at 1920x1080: every city name at least 24 px high, the log beside the
  map and wholly on the screen, during play and at the end; bot seats marked;
- screenshots of the board (1920x1080, 1280x720, 400 px), the Tables page, the seat cards and
  the teacher's room in ``test-artifacts/``.

In-process server (``inprocess_server``); skips without Chromium unless TTR_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import http.server
import re
import threading

import lab_harness as h
import pytest
from server_harness import in_process as start_in_process

pytestmark = [pytest.mark.browser]

SIZES = {"1920x1080": (1920, 1080), "1280x720": (1280, 720), "400": (400, 860)}

#: per city label: its height on screen (font size times the map's scale), as the browser draws it
LABELS_JS = """() => [...document.querySelectorAll('.tb-map .ttr-city-label')].map(t =>
    parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)"""
BOX_JS = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }"""


@pytest.fixture
def server(tmp_path):
    h.need_browser()
    s = start_in_process(tmp_path / "data")
    yield s
    s.stop()


def _play(server, table: dict, seat: str, moves: int) -> None:
    """``moves`` of the seat's first legal actions, through the API (the bots answer)."""
    key = table["seats"][seat]["key"]
    base = f"/api/tables/{table['table']}/seats/{seat}"
    for _ in range(moves):
        body = server.request("GET", f"{base}?key={key}")[1]
        if not body["legal"]:
            return
        status, answer, _ = server.request("POST", f"{base}/actions?key={key}", body["legal"][0])
        assert status == 200, answer


def _login(context, server) -> None:
    page = context.new_page()
    page.goto(f"{server.url}/teacher?token={server.token}")
    assert page.locator("h1").inner_text() == "The teacher's room"
    page.close()


def test_a_page_on_another_port_cannot_post_the_teachers_forms(server):
    table = server.new_table(players=4, seed=11)
    tid = table["table"]
    hostile = (f"<form id='a' method='post' action='{server.url}/teacher/tables'>"
               "<input name='players' value='4'></form>"
               f"<form id='b' method='post' action='{server.url}/teacher/tables/{tid}/seats/A1/bot'"
               " target='other'><input name='preset' value='greedy'></form>"
               "<script>document.getElementById('b').submit();"
               "setTimeout(() => document.getElementById('a').submit(), 500);</script>")

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(hostile.encode())

        def log_message(self, *args):
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", h.free_port()), Page)
    thread = threading.Thread(target=other.serve_forever, daemon=True)
    thread.start()
    before = len(server.request("GET", "/api/tables", token=server.token)[1]["tables"])
    try:
        with h.browser() as browser:
            context = browser.new_context()
            _login(context, server)
            page = context.new_page()
            answers = []
            page.on("response", lambda r: answers.append((r.url, r.status)))
            page.goto(f"http://127.0.0.1:{other.server_address[1]}/")
            page.wait_for_url(re.compile(re.escape(f"{server.url}/teacher/tables")),
                              timeout=30_000)
            page.wait_for_load_state()
            text = page.inner_text("body")
            context.close()
    finally:
        other.shutdown()
        other.server_close()
    posts = [status for url, status in answers if url.startswith(server.url + "/teacher/tables")]
    assert posts and all(status == 403 for status in posts), answers
    assert "another site" in text
    assert len(server.request("GET", "/api/tables", token=server.token)[1]["tables"]) == before
    seat = server.request("GET", f"/api/tables/{tid}/seats/A1?key={table['seats']['A1']['key']}")
    assert seat[1]["bot"] is None


def _board_checks(page, when: str) -> dict:
    labels = page.evaluate(LABELS_JS)
    log, board_map = page.evaluate(BOX_JS, ".tb-log"), page.evaluate(BOX_JS, ".tb-map")
    return {"when": when, "smallest": min(labels), "labels": len(labels), "log": log,
            "map": board_map}


def test_the_board_on_a_projector_and_the_teachers_pages(server):
    mid = server.new_table(players=4, seed=21, bots=["A1", "A2", "B1"])
    _play(server, mid, "B2", 40)
    end = server.new_table(players=6, seed=22, bots=["A1", "A2", "B1", "B2", "C1", "C2"])
    found = []
    with h.browser() as browser:
        for name, (width, height) in SIZES.items():
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            for when, table in (("mid", mid), ("end", end)):
                page.goto(f"{server.url}/tables/{table['table']}/board")
                page.wait_for_selector(".tb-log li")
                page.screenshot(path=str(h.ARTIFACTS / f"board-{when}-{name}.png"))
                if name == "1920x1080":
                    found.append(_board_checks(page, when))
                    assert page.locator(".tb-bot").count() == (3 if when == "mid" else 6)
            context.close()
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        _login(context, server)
        page = context.new_page()
        for path, shot in (("/teacher", "teacher-room"), ("/teacher/tables", "tables-page"),
                           (f"/teacher/tables/{mid['table']}/cards", "seat-cards")):
            page.goto(server.url + path)
            page.screenshot(path=str(h.ARTIFACTS / f"{shot}.png"), full_page=True)
        page.goto(f"{server.url}/teacher/tables/{mid['table']}/cards")
        context.close()
    for f in found:
        assert f["labels"] >= 20 and f["smallest"] >= 24, f  # readable from the back row
        assert f["log"]["left"] >= f["map"]["right"] - 1, f  # beside the map
        assert f["log"]["bottom"] <= 1080 and f["log"]["top"] >= 0, f  # wholly on the screen


# --- issue 34: the coach's review on the board's step-back -------------------------------------
REVIEW_JS = """() => { const lines = [...document.querySelectorAll('#review .tb-rline')];
    return {sizes: lines.map(l => parseFloat(getComputedStyle(l).fontSize)),
            text: document.getElementById('review').innerText,
            right: Math.max(...lines.map(l => l.getBoundingClientRect().right)),
            bottom: Math.max(...lines.map(l => l.getBoundingClientRect().bottom)),
            scroll: document.documentElement.scrollWidth,
            map: document.querySelector('.tb-map svg').getBoundingClientRect().bottom}; }"""


def test_the_boards_review_at_a_step_in_pause_mode_and_revealed(server):
    server.call(lambda: setattr(server.server.reviews, "budget", 2))  # a short wait, same page
    table = server.request("POST", "/api/tables", {"players": 4, "seed": 5, "trains": 12,
                                                   "bots": ["A1", "A2", "B1", "B2"]},
                           token=server.token)[1]
    tid = table["table"]
    found = {}
    with h.browser() as browser:
        for name in ("1920x1080", "1280x720"):
            width, height = SIZES[name]
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(f"{server.url}/tables/{tid}/board")
            page.wait_for_selector("#review .tb-progress, #review .tb-costliest")
            if page.locator("#review .tb-progress").count():  # its progress, until it is ready
                assert "Reviewing:" in page.locator("#review").inner_text()
                page.screenshot(path=str(h.ARTIFACTS / f"board-review-progress-{name}.png"))
            page.wait_for_selector("#review .tb-costliest", timeout=240_000)
            goto = page.locator("#review .tb-goto").first  # a team's costliest move
            step = goto.get_attribute("data-step")
            goto.click()
            # the panel follows the step: its first line names the step clicked
            page.wait_for_function("(n) => document.querySelector('#review .tb-rline b')"
                                   "?.textContent.startsWith(`Step ${n} `)", arg=step)
            page.wait_for_selector("#review .tb-coach")
            assert page.locator("#review .tb-rline b").inner_text().startswith(f"Step {step} ")
            page.screenshot(path=str(h.ARTIFACTS / f"board-review-{name}.png"))
            shown = page.evaluate(REVIEW_JS)
            shown["labels"] = min(page.evaluate(LABELS_JS))  # the map gave up some width
            page.locator("#pause").click()
            page.wait_for_selector("#reveal")
            paused = page.evaluate(REVIEW_JS)
            page.screenshot(path=str(h.ARTIFACTS / f"board-review-paused-{name}.png"))
            page.locator("#reveal").click()
            page.wait_for_selector("#review .tb-coach")
            revealed = page.evaluate(REVIEW_JS)
            # two more rows above the map (a longer status or review line, as some steps have):
            # the map is drawn smaller, its city names keep their size
            page.evaluate("() => { document.getElementById('review').insertAdjacentHTML("
                          "'beforeend', '<p class=tb-rline>one more row</p>'.repeat(2));"
                          " dispatchEvent(new Event('resize')); }")
            taller = page.evaluate(REVIEW_JS)
            taller["labels"] = min(page.evaluate(LABELS_JS))
            found[name] = (width, height, shown, paused, revealed, taller)
            page.close()
    for name, (width, height, shown, paused, revealed, taller) in found.items():
        assert "The coach:" in shown["text"] and "The coach:" not in paused["text"], name
        assert "What would you do?" in paused["text"] and revealed["text"] == shown["text"]
        for box in (shown, paused, revealed, taller):  # nothing cut: on the screen, no sideways scrolling
            assert box["right"] <= width and box["bottom"] <= height and box["scroll"] <= width
            # the whole map, however many rows the lines above it take (CI of 7 Dec: a status
            # and a review line that both wrapped pushed the map 2 px below 1080)
            assert box["map"] <= height, (name, box)
        if name == "1920x1080":  # readable from the back row
            assert min(shown["sizes"]) >= 24 and shown["labels"] >= 24, shown
            assert taller["labels"] >= 24, taller
