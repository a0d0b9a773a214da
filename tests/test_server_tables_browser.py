"""A class table in Chromium (issue 19, "Tests"): four seat pages of lesson 08 in the classroom
app (A1, A2, B1, B2, each its own browser context, so its own learner, opened from the seat links
the teacher's API returns) and the board page, all open at once, play one game to the score
sheet; every move is a click on the page of the seat to move.

The class server and the classroom app (Voila with the project's ``classroom/`` config, serving
a folder with lesson 08 alone) run as ``make classroom`` runs them; the lesson's kernels find the
server through ``TTR_CLASS_SERVER``, and the server's links point at the classroom app
(``--lessons``). One Chromium, five contexts: what two cores allow.

No page ever holds another seat's secrets (I1). The expected values come from a local replay of
the table's log (the teacher's ``/log``: the seed and every action) in a fresh ``Game``, read from
its state (``hands``, ``holders``, ``offers``, ``tickets``, ``team_tickets``), not from any view:
- every kernel message a page receives (the widget state, over its websocket) and the page's
  own HTML may name only tickets its seat was offered, kept or shares with its team (until the
  score sheet, which shows them all, E3), and every pile of train cards in them sits in the
  seat's own hand (as the hand was at some version) or its own team's cardholder;
- the page of the seat to move shows exactly that seat's hand and cardholder now and
  highlights exactly the buttons of its legal moves (so the test clicks only on a page that
  has caught up, and plays the same game on every run), and the API's view of every seat
  holds exactly its own hand and tickets.
Mid-game one learner closes the tab and opens the link again: back at the seat. The page
without a link says what to do; the board follows every move and steps back through the log.

Screenshots of every seat and of the board at 1920x1080 and 1280x800, mid-game and at the end,
go to ``test-artifacts/``, and of A1 at 980 and 400 px wide, where nothing may run off the screen. Skips without Chromium unless TTR_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import json
import re
import shutil
import statistics
import time
from dataclasses import dataclass, field

import lab_harness as h
import pytest
from server_harness import free_port, keyed_seed, start_server

from ttrlib import actions as act
from ttrlib.game import Game
from ttrlib.plain import action_from_plain

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("classroom")]

LESSON = "08-play-at-a-table.ipynb"
SEATS = ("A1", "A2", "B1", "B2")
SEED = 31
LOAD_MS = 300_000  # a seat page starts a kernel; on a busy 2-core machine that takes a while
SYNC_MS = 120_000  # a page follows a move (its long-poll returns, the widget redraws)
BIG, SMALL = {"width": 1920, "height": 1080}, {"width": 1280, "height": 800}
NARROW = (980, 400)  # and one seat at the lessons' other widths (test_classroom_lessons.py)
MAX_MOVES = 1500
MID_CLAIMS = 8  # the mid-game screenshots: once this many routes are claimed
REOPENED = "B1"  # the learner who closes the tab mid-game and opens the link again

# what a seat's hint line says in each state (the state the test expects comes from the replay)
PHRASES = {
    "over": "The game is over",
    "wait": "This screen changes by itself",
    "setup": "Choose your tickets",
    "place": "Where does the card you drew go",
    "second": "Draw your second card",
    "tickets": "Keep at least 1 of the tickets you drew",
    "tunnel": "The tunnel asks for more cards",
    "turn": "Your turn: draw train cards",
}
PHASES = {"setup_tickets": "setup", "turn": "turn", "place_card": "place",
          "second_card": "second", "choose_tickets": "tickets", "tunnel": "tunnel"}

# the button each kind of legal action highlights (TeamGame; drawing, placing and keeping
# tickets are told apart in Table.offers)
BUTTONS = {act.Claim: "Claim the route", act.PayTunnel: "Pay the extra cards",
           act.Withdraw: "Take my cards back", act.DrawTickets: "Draw 4 tickets",
           act.ShareTickets: "Share the ticked tickets"}

TICKET_ID = re.compile(r"(?<![\w-])T\d\d(?!\d)")
# a titled frame whose body is piles of train cards (ttrlib.display: hand, cardholder, cards)
CARD_FRAME = re.compile(r'<div class="ttr-head"><span>([^<]*)</span>((?:(?!</div>).)*)</div>'
                        r'<div class="ttr-row ttr-row-stacks"[^>]*>(.*?)</div>', re.S)
STACKS = '<div class="ttr-row ttr-row-stacks"'
PILE = re.compile(r'data-color="(\w+)" data-count="(\d+)"')
WIDGET_STATE = "script[type='application/vnd.jupyter.widget-state+json']"

# every frame of piles on the page, as "title=colour:n,colour:n;title=..." (titles and piles
# sorted): what the page shows now
PAGE_PILES_JS = """() => [...document.querySelectorAll('.ttr-widget .ttr-frame')]
  .filter(f => f.querySelector('.ttr-row-stacks'))
  .map(f => (f.querySelector('.ttr-head > span') || {textContent: ''}).textContent + '='
       + [...f.querySelectorAll('.ttr-row-stacks .ttr-stack')]
           .map(s => `${s.dataset.color}:${s.dataset.count}`).sort().join(','))
  .sort().join(';')"""
# the highlighted buttons in sight (a hidden one is "Let the others play", which a table does
# not use), sorted, without a count in brackets ("Deck (85 cards)" is "Deck")
PAGE_OFFERS_JS = """() => [...document.querySelectorAll('.ttr-widget button.mod-primary')]
  .filter(b => b.offsetParent).map(b => b.innerText.trim().replace(/ \\(.*\\)$/, ''))
  .sort().join('|')"""
# whether the page shows the table's version: the hint line of the seat's state, the draw pile,
# exactly the piles of its hand and cardholder, and exactly its legal moves highlighted (a
# redraw reaches the page as one widget message per change, and the page applies them to its
# widgets one by one, not always in the order the kernel sent them)
CAUGHT_UP_JS = """([phrase, deck, piles, offers]) => {
  const el = document.querySelector('.ttr-widget');
  if (!el) return false;
  const t = el.innerText;
  return t.includes(phrase) && new RegExp(`Deck \\\\(${deck} cards?\\\\)`).test(t)
    && (PILES)() === piles && (OFFERS)() === offers;
}""".replace("PILES", PAGE_PILES_JS).replace("OFFERS", PAGE_OFFERS_JS)


def _cards(counts) -> frozenset:
    """Card counts (``CardCounts``, or a page's colour/count pairs) as comparable pairs."""
    items = counts.to_dict().items() if hasattr(counts, "to_dict") else counts
    return frozenset((str(c), int(n)) for c, n in items if int(n))


@dataclass
class Seat:
    name: str
    number: int
    key: str
    link: str
    page: object = None
    messages: list = field(default_factory=list)  # kernel messages received (decoded)
    checked: int = 0  # messages already checked
    seen_hands: int = 0  # piles of the seat's hand found in them (the check is not empty)
    seen_tickets: int = 0

    @property
    def team(self) -> int:
        return self.number // 2


def _message(payload) -> dict | None:
    """A kernel message from the websocket: JSON text (Jupyter's legacy protocol) or the v1
    binary framing (offsets, then channel, header, parent header, metadata, content, buffers)."""
    try:
        if isinstance(payload, str):
            return json.loads(payload)
        n = int.from_bytes(payload[:8], "little")
        offsets = [int.from_bytes(payload[8 * (i + 1):8 * (i + 2)], "little") for i in range(n)]
        parts = [payload[offsets[i]:offsets[i + 1]] for i in range(1, n - 1)]
        return {"header": json.loads(parts[0]), "content": json.loads(parts[3])}
    except (ValueError, IndexError):
        return None


def _strings(value):
    """Every string inside a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _open(browser, seat: Seat) -> None:
    """Open the seat's link in a context of its own, recording every kernel message."""
    page = browser.new_context(viewport=SMALL).new_page()
    seat.page, seat.messages, seat.checked = page, [], 0
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: seat.messages.append(_message(payload))))
    page.goto(seat.link, timeout=LOAD_MS)
    page.wait_for_selector(".ttr-widget", timeout=LOAD_MS)


class Table:
    """The table as the test knows it: the server's API and a local replay of its log."""

    def __init__(self, server, tid: str, seats: list[Seat]):
        self.server, self.tid, self.seats = server, tid, seats
        self.game = Game.new(players=len(seats), seed=keyed_seed(len(seats), SEED))
        self.version = 0
        # what each seat may know by now (I1), from the replay's state at every version
        self.hands = [set() for _ in seats]
        self.holders = [set() for _ in range(len(seats) // 2)]
        self.allowed = [set() for _ in seats]
        self._note()

    def _note(self) -> None:
        g = self.game
        for s in range(len(self.seats)):
            self.hands[s].add(_cards(g.hands[s]))
            self.allowed[s] |= set(g.offers[s]) | set(g.tickets[s]) | set(g.team_tickets[s // 2])
        for t, holder in enumerate(g.holders):
            self.holders[t].add(_cards(holder))

    def api(self, path: str, **kw):
        status, body, _ = self.server.request("GET", path, **kw)
        assert status == 200, (path, status, body)
        return body

    def catch_up(self) -> None:
        """Replay the log's new actions (the teacher's /log) and compare every seat's API view
        with the replay: each holds its own hand, cardholder and tickets, no more (I1)."""
        log = self.api(f"/api/tables/{self.tid}/log", token=self.server.token)
        assert log["seed"] == keyed_seed(len(self.seats), SEED)
        for plain in log["actions"][self.version:]:
            self.game.apply(action_from_plain(plain))
            self.version += 1
            self._note()
        g = self.game
        for seat in self.seats:
            body = self.api(f"/api/tables/{self.tid}/seats/{seat.name}?key={seat.key}"
                            f"&since={len(g.events)}")
            view, s = body["view"], seat.number
            said = f"the API's view of {seat.name} at version {self.version} (I1)"
            assert body["version"] == self.version, said
            assert _cards(view["hand"].items()) == _cards(g.hands[s]), (said, view["hand"])
            assert _cards(view["team_cardholder"].items()) == _cards(g.holders[seat.team]), said
            assert set(view["tickets"]) <= set(g.tickets[s]) | set(g.offers[s]), (
                said, view["tickets"])
            assert set(view["team_tickets"]) <= set(g.team_tickets[seat.team]), said

    def state_of(self, seat: Seat) -> str:
        g = self.game
        if g.is_over:
            return "over"
        return PHASES[g.phase.value] if g.to_move == seat.number else "wait"

    def piles(self, seat: Seat) -> str:
        """What the seat's page must show of train cards now (``PAGE_PILES_JS``'s form): its
        hand and its team's cardholder, each if not empty, and nothing else (K1, I1)."""
        g = self.game
        want = {"Your hand": _cards(g.hands[seat.number]),
                f"Team {'AB'[seat.team]} cardholder": _cards(g.holders[seat.team])}
        return ";".join(sorted(f"{title}=" + ",".join(sorted(f"{c}:{n}" for c, n in piles))
                               for title, piles in want.items() if piles))

    def offers(self, seat: Seat) -> str:
        """The buttons the seat's page must highlight now (``PAGE_OFFERS_JS``'s form): one for
        each kind of the replay's legal actions when the seat is to move, else none."""
        g = self.game
        if g.is_over or g.to_move != seat.number:
            return ""
        names = set()
        for a in g.legal_actions():
            if isinstance(a, act.DrawCard):
                names.add("Deck" if a.source == "deck" else f"Take slot {a.source}")
            elif isinstance(a, act.PlaceCard):
                names.add("→ my hand" if a.to == "hand" else "→ team cardholder")
            elif isinstance(a, act.KeepTickets):
                names.add("Confirm my setup tickets" if g.phase.value == "setup_tickets"
                          else "Keep the ticked tickets")
            else:
                names.add(BUTTONS.get(type(a), type(a).__name__))  # no button: said
        return "|".join(sorted(names))

    def wait_page(self, seat: Seat) -> None:
        """Wait until the seat's page shows the table's version: its state, the draw pile, its
        hand and its cardholder as the replay has them; else fail with what the page shows."""
        g = self.game
        state = self.state_of(seat)
        args = [PHRASES[state], len(g.draw_pile), self.piles(seat), self.offers(seat)]
        try:
            seat.page.wait_for_function(CAUGHT_UP_JS, arg=args, timeout=SYNC_MS)
        except Exception as exc:  # noqa: BLE001 - Playwright's TimeoutError: say what was seen
            raise AssertionError(
                f"{seat.name}'s page does not show version {self.version} within "
                f"{SYNC_MS // 1000} s: expected {state!r}, a draw pile of {args[1]}, the "
                f"cards {args[2]!r} and the moves {args[3]!r}; it shows the cards "
                f"{seat.page.evaluate(PAGE_PILES_JS)!r}, the moves "
                f"{seat.page.evaluate(PAGE_OFFERS_JS)!r} and:\n{_text(seat.page)[:1500]}"
            ) from exc

    def wait_version(self, after: int, seat: Seat) -> None:
        """Wait (long-poll on the public view) until the table passes version ``after``."""
        deadline = time.monotonic() + SYNC_MS / 1000
        while time.monotonic() < deadline:
            if self.api(f"/api/tables/{self.tid}/public?after={after}",
                        timeout=40)["version"] > after:
                return
        raise AssertionError(f"the table stayed at version {after} after a click on "
                             f"{seat.name}'s page, which shows:\n{_text(seat.page)[:1500]}")

    # --- I1: what a page holds --------------------------------------------------------------
    def check_markup(self, seat: Seat, text: str, where: str, tickets: bool = True) -> None:
        """``text`` (markup the page received or holds) names only tickets the seat may know,
        and every pile of train cards in it is the seat's own hand or its team's cardholder."""
        s = seat.number
        if tickets:
            ids = set(TICKET_ID.findall(text))
            foreign = ids - self.allowed[s]
            assert not foreign, (f"{seat.name}'s page holds tickets {sorted(foreign)} in {where} "
                                 f"(it may know {sorted(self.allowed[s])}): I1")
            seat.seen_tickets += len(ids)
        found = CARD_FRAME.findall(text)
        assert len(found) == text.count(STACKS), (
            f"{seat.name}: piles of cards outside a titled frame in {where}")
        for title, _sub, body in found:
            piles = _cards(PILE.findall(body))
            if title == "Your hand":
                assert piles in self.hands[s], (
                    f"{seat.name}'s page shows a hand {sorted(piles)} in {where} that was "
                    f"never {seat.name}'s: I1")
                seat.seen_hands += 1
            else:
                assert title == f"Team {'AB'[seat.team]} cardholder", (
                    f"{seat.name}'s page shows cards under {title!r} in {where}: I1")
                assert piles in self.holders[seat.team], (title, sorted(piles))

    def check_messages(self, seat: Seat, tickets: bool) -> None:
        """Every kernel message the page received since the last check (the widget state)."""
        new, seat.checked = seat.messages[seat.checked:], len(seat.messages)
        for msg in new:
            if msg and msg.get("content"):
                for text in _strings(msg["content"]):
                    if "ttr-" in text or TICKET_ID.search(text):
                        self.check_markup(seat, text, "a kernel message", tickets)

    def check_page(self, seat: Seat) -> None:
        """The page's HTML and the widget state it was rendered with (after ``wait_page``)."""
        page, g = seat.page, self.game
        self.check_markup(seat, page.content(), "its HTML", tickets=not g.is_over)
        for state in page.locator(WIDGET_STATE).all_text_contents():
            for text in _strings(json.loads(state)):
                self.check_markup(seat, text, "the page's widget state", not g.is_over)


def _text(page) -> str:
    found = page.locator(".ttr-widget")
    return found.first.inner_text() if found.count() else page.inner_text("body")


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


def _click_a_move(seat: Seat, state: str) -> None:
    page = seat.page
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
        assert button is not None, (f"no legal move highlighted on {seat.name}'s page in state "
                                    f"{state}:\n{_text(page)[:1500]}")
        button.click()


def _shoot(page, name: str, size: dict) -> None:
    h.ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size(size)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.screenshot(path=str(h.ARTIFACTS / f"{name}-{size['width']}x{size['height']}.png"))


def _shoot_all(table: Table, board, when: str) -> None:
    """Every seat (the top of its game, where the hint line is) and the board, at both sizes;
    and each seat's whole game at 1280 wide (Voila scrolls a panel, not the page: a viewport as
    tall as the game shows it all)."""
    for seat in table.seats:
        game = seat.page.locator(".ttr-widget").first
        for size in (BIG, SMALL):
            seat.page.set_viewport_size(size)
            game.evaluate("e => e.scrollIntoView()")
            _shoot(seat.page, f"table-seat-{seat.name}-{when}", size)
        tall = int(game.evaluate("e => e.getBoundingClientRect().height")) + 40
        seat.page.set_viewport_size({"width": SMALL["width"], "height": min(tall, 12_000)})
        game.evaluate("e => e.scrollIntoView()")
        seat.page.screenshot(path=str(
            h.ARTIFACTS / f"table-seat-{seat.name}-{when}-{SMALL['width']}-whole.png"))
        seat.page.set_viewport_size(SMALL)
    for size in (BIG, SMALL):
        _shoot(board, f"table-board-{when}", size)
    board.set_viewport_size(BIG)
    _narrow(table.seats[0], when)


def _narrow(seat: Seat, when: str) -> None:
    """Lesson 08 at the other widths of the lessons' test (980 and 400 px): nothing of the game
    runs off the right edge (its map scrolls inside its frame)."""
    game = seat.page.locator(".ttr-widget").first
    for width in NARROW:
        size = {"width": width, "height": 900}
        seat.page.set_viewport_size(size)
        game.evaluate("e => e.scrollIntoView()")
        fits = seat.page.evaluate(h.OVERFLOW_JS, width)
        assert fits["page"] <= width and not fits["cut"], (seat.name, width, fits)
        _shoot(seat.page, f"table-seat-{seat.name}-{when}", size)
    seat.page.set_viewport_size(SMALL)


def test_four_seats_of_lesson_08_and_the_board_play_a_game_to_the_end(tmp_path):
    h.need_browser()
    started = time.monotonic()
    folder = tmp_path / "lessons"
    folder.mkdir()
    shutil.copy(h.ROOT / "notebooks" / LESSON, folder / LESSON)
    port = free_port()
    env = {"TTR_CLASS_SERVER": f"http://127.0.0.1:{port}"}
    server = None
    try:
        with h.classroom(tmp_path, folder=folder, env=env) as (base, _proc), \
                h.browser() as browser:
            server = start_server(tmp_path / "data", port, args=("--lessons", base))
            status, made, _ = server.request("POST", "/api/tables", {"players": 4, "seed": SEED},
                                             token=server.token)
            assert status == 201, made
            tid = made["table"]
            seats = [Seat(n, i, made["seats"][n]["key"], made["seats"][n]["link"])
                     for i, n in enumerate(SEATS)]
            assert all(s.link.startswith(f"{base}/voila/render/{LESSON}?") for s in seats)

            # without a seat's link the lesson says what to do, and shows no game
            bare = browser.new_context(viewport=SMALL).new_page()
            bare.goto(f"{base}/voila/render/{LESSON}", timeout=LOAD_MS)
            bare.wait_for_selector("text=Open the page from your link", timeout=LOAD_MS)
            assert not bare.locator(".ttr-widget").count()
            assert "Traceback" not in bare.inner_text("body")
            bare.context.close()

            table = Table(server, tid, seats)
            for seat in seats:
                _open(browser, seat)
                said = seat.page.inner_text("body")
                assert (f"You are {seat.name} (Team {'AB'[seat.team]}) at table {tid}"
                        in said), said[:1500]
                table.wait_page(seat)
                table.check_page(seat)
            board = browser.new_context(viewport=BIG).new_page()
            board.goto(f"{server.url}/tables/{tid}/board")
            board.wait_for_selector("#frame")
            loaded = time.monotonic()

            lags, shot_mid = [], False
            table.catch_up()
            while not table.game.is_over:
                assert table.version < MAX_MOVES, "the game does not end"
                mover = seats[table.game.to_move]
                state = table.state_of(mover)
                table.wait_page(mover)
                table.check_page(mover)
                for seat in seats:
                    table.check_messages(seat, tickets=True)
                if not shot_mid and len(table.game.owners) >= MID_CLAIMS:
                    shot_mid = True
                    for seat in seats:
                        table.wait_page(seat)
                        table.check_page(seat)
                    _shoot_all(table, board, "mid")
                    # a learner closes the tab and opens the link again: back at the seat
                    again = seats[SEATS.index(REOPENED)]
                    again.page.context.close()
                    _open(browser, again)
                    table.wait_page(again)
                    table.check_page(again)
                    continue  # the mover's page is drawn anew if it was the reopened one
                version = table.version
                t0 = time.monotonic()
                _click_a_move(mover, state)
                table.wait_version(version, mover)
                # the projected board follows the move (its long-poll returns)
                board.wait_for_function(
                    f"() => +document.getElementById('frame').dataset.version > {version}",
                    timeout=SYNC_MS)
                lags.append(time.monotonic() - t0)
                table.catch_up()
                assert "went wrong" not in _text(mover.page)

            played = time.monotonic()
            for seat in seats:
                table.wait_page(seat)
                seat.page.wait_for_selector("text=Score sheet", timeout=SYNC_MS)
                table.check_messages(seat, tickets=False)  # the score sheet shows every ticket
                table.check_page(seat)
                assert seat.seen_hands and seat.seen_tickets, (seat.name, "nothing was checked")
                text = _text(seat.page)
                assert "Traceback" not in text and "went wrong" not in text
                # the message line tells the last move and the end in sentences (E1)
                said = [t for t in seat.page.locator(".ttr-widget .ttr-msg-text")
                        .all_inner_texts() if "game is over." in t]
                assert said and not re.search(r"(?:^|[.!] )[a-z]", said[0]), (seat.name, said)
                # the page holds no other seat's key
                html = seat.page.content()
                assert not [o.name for o in seats if o is not seat and o.key in html]
            board.wait_for_selector("text=The game is over", timeout=SYNC_MS)
            assert board.locator(".tb-log li").last.inner_text() == "The game is over"
            _shoot_all(table, board, "end")
            assert shot_mid, "the game ended before the mid-game screenshots"

            # the teacher steps back through the log, and back to the live board
            latest = int(board.locator("#frame").get_attribute("data-version"))
            assert latest == table.version
            board.click("#back")
            board.wait_for_selector(f"text=step {latest - 1} of {latest}")
            assert "The game is over" not in board.locator(".tb-status").inner_text()
            board.click("#back")
            board.wait_for_selector(f"text=step {latest - 2} of {latest}")
            board.click("#live")
            board.wait_for_selector(".tb-scores")

            figures = {"moves": table.version, "load_s": round(loaded - started, 1),
                       "play_s": round(played - loaded, 1),
                       "total_s": round(time.monotonic() - started, 1),
                       "click_to_board_median_s": round(statistics.median(lags), 3),
                       "click_to_board_worst_s": round(max(lags), 3),
                       "checked": {s.name: {"messages": len(s.messages), "hands": s.seen_hands,
                                            "ticket_ids": s.seen_tickets} for s in seats}}
            (h.ARTIFACTS / "table-four-seats.json").write_text(json.dumps(figures, indent=1))
            assert table.version > 100 and statistics.median(lags) < 3.0, figures
    finally:
        if server is not None:
            server.stop()
