"""The tables' pages: the board a teacher projects (anyone with the table's address may watch it:
it shows only the public view), the teacher's page of tables (a form to make a table, each
seat's state, seats handed to a bot and back) and each table's seat cards to print.

A seat's link is its key (issue 32, item 2), so the Tables page shows none on screen (a projected
or shared screen would hand out every seat at once): the teacher prints the cards page, one small
card per seat (its name, link and QR code), cuts them and hands them out face down. A seat whose
key is None (made as a bot) has no link yet. Every page is a template (``templates/``); every form
carries the XSRF token and is checked by ``Handler.check_form``.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import segno
import tornado.web

from ..errors import TTRError
from ..experiments import PRESETS
from ..plain import PUBLIC_FIELDS
from ..seats import seat_name
from ..state import LESSON_TRAINS, TRAINS_PER_PLAYER
from .board_page import SCRIPT, PublicView, frame_html, page_context
from .table_api import TablesHandler, answers, read_new_table, seat_link
from .table_refusal import Refusal, status_of
from .table_store import DEFAULT_BOT

STATUS_S = 3  # the Tables page asks for its tables' status lines this often
MAX_USER = 255


def _frame(table, at: int | None = None) -> tuple:
    """``(key, body, text)`` of the board at version ``at`` (default: the latest): the body
    (version, latest, HTML) and its JSON text, both made once and cached for the latest, as
    ``referee.public_text`` is: a move wakes every board waiting on the table, and each would
    encode the same ~100 KB again. Keyed by the seats' bots too: a seat handed to a bot
    changes the board without a move."""
    n = table.version if at is None else at
    key = (n, tuple(table.bots))
    cached = table.cache.get("board")
    if cached is None or cached[0] != key:
        game = table.at_version(n)
        view = game.view(0)
        public = PublicView(**{name: getattr(view, name) for name in PUBLIC_FIELDS})
        frame = frame_html(game.board, table.id, public, game.events, list(table.marks[:n + 1]),
                           game.scores() if game.is_over else None, n, table.version,
                           bots=tuple(table.bots))
        body = {"version": n, "latest": table.version, "html": frame}
        cached = (key, body, json.dumps(body))
        if n == table.version:
            table.cache["board"] = cached
    return cached


def board_frame(table, at: int | None = None) -> dict:
    """The board's HTML at version ``at`` (default: the latest), cached for the latest."""
    return dict(_frame(table, at)[1])


class BoardPage(TablesHandler):
    def get(self, tid: str) -> None:
        try:
            table = self.store.get(tid)
        except TTRError as exc:  # a browser gets a page saying so (write_error), not JSON
            raise tornado.web.HTTPError(status_of(exc) or 404,
                                        reason=str(exc)[:200]) from None
        frame = board_frame(table)
        self.page("board.html", script=SCRIPT,
                  **page_context(table.id, frame["html"], frame["version"]))


class BoardFrame(TablesHandler):
    @answers
    async def get(self, tid: str) -> None:
        table = self.store.get(tid)
        there, at = await self.public_version(table)
        if there:
            self.set_status(200)
            self.set_header("Content-Type", "application/json")
            self.set_header("Cache-Control", "no-store")
            self.finish(_frame(table, at)[2])  # one text for every waiting board


# --- the teacher's page of tables ------------------------------------------------------------
def qr_svg(link: str) -> str:
    """The link as a QR code (inline SVG), big enough to scan from a printed card."""
    return segno.make(link, error="m").svg_inline(scale=3, dark="#000", light="#fff")


def status_line(table) -> str:
    if table.over:  # a finished table may be put away: its status needs no replay
        return "the game is over"
    return f"{seat_name(table.game.to_move)} to move, {table.version} actions played"


def names_this_machine(lessons_url: str) -> bool:
    """Whether the seats' links name this machine only (a learner's device cannot open them)."""
    return (urlsplit(lessons_url).hostname or "") in ("localhost", "127.0.0.1", "::1")


def seat_rows(table, lessons_url: str) -> list[dict]:
    rows = []
    for s in range(table.players):
        name, key = seat_name(s), table.keys[s]
        rows.append({"name": name, "bot": table.bots[s], "user": table.owners[s],
                     "link": seat_link(lessons_url, table.id, name, key) if key else None})
    return rows


class _TablesPage(TablesHandler):
    def refused(self, exc: Exception) -> None:
        """A form's refusal as a page: the sentence and the way back."""
        self.page("form_refused.html", status_of(exc) or 400, reason=str(exc)[:300])


class TeacherTables(_TablesPage):
    def get(self) -> None:
        self.require_teacher()
        tables = list(reversed(list(self.store.tables.values())))
        self.page("tables.html", presets=PRESETS, default_bot=DEFAULT_BOT,
                  seats6=[seat_name(s) for s in range(6)], status_s=STATUS_S,
                  tables=[{"id": t.id, "players": t.players, "status": status_line(t),
                           "seats": seat_rows(t, self.lessons_url)} for t in tables],
                  localhost=names_this_machine(self.lessons_url), hub=self.hub is not None)

    def post(self) -> None:
        self.require_teacher()
        self.check_form()
        players = self.get_body_argument("players", "4")
        seed = self.get_body_argument("seed", "").strip()
        preset = self.get_body_argument("preset", DEFAULT_BOT)
        # every ticked seat goes to read_new_table: one that the table lacks (C1 at a 4-player
        # table) is refused with a sentence there, not dropped here
        body = {"players": int(players) if players in ("4", "6") else players,
                "bots": {n[:8]: preset for n in self.get_body_arguments("bot")[:6]}}
        if self.get_body_argument("short", ""):  # C3's short-game policy, for a lesson
            body["trains"] = LESSON_TRAINS.get(int(players) if players in ("4", "6") else 0,
                                               TRAINS_PER_PLAYER)
        if seed:  # a typed number; anything else is refused by read_new_table, by name
            body["seed"] = int(seed) if seed.isdigit() and len(seed) <= 18 else seed[:20]
        slip = form_slip(players, seed, self.get_body_arguments("bot")[:6])
        if slip:
            self.refused(Refusal(400, slip))
            return
        try:
            table = self.store.create(*read_new_table(body))
        except TTRError as exc:
            self.refused(exc)
            return
        self.redirect(f"/teacher/tables#t-{table.id}", status=303)


def form_slip(players: str, seed: str, ticked: list[str]) -> str | None:
    """The Tables form's likely slips in the teacher's words: the API's refusals name its fields
    ("seed: ...", "bots: ..."), which a teacher never typed (issue 32, item 9)."""
    if seed and not seed.isdigit():
        return (f"Game number: {seed[:20]!r} is not a whole number. Type a number such as 7 to give"
                " every table of the class one game, or leave the box empty for a secret game.")
    if players in ("4", "6"):
        names = [seat_name(s) for s in range(int(players))]
        extra = [name[:8] for name in ticked if name not in names]
        if extra:
            return (f"Seat {extra[0]} is not at a {players}-player table ({', '.join(names)}):"
                    " untick it, or choose 6 players.")
    return None


class TablesStatus(TablesHandler):
    """The status line of every table, for the Tables page's script (it updates by itself)."""

    def get(self) -> None:
        self.require_teacher()
        self.json(200, {t.id: status_line(t) for t in self.store.tables.values()})


class SeatCards(_TablesPage):
    """One small card per seat (name, link, QR code) to print, cut and hand out face down."""

    def get(self, tid: str) -> None:
        self.require_teacher()
        try:
            table = self.store.get(tid)
        except TTRError as exc:
            self.refused(exc)
            return
        seats = seat_rows(table, self.lessons_url)
        for seat in seats:
            seat["qr"] = qr_svg(seat["link"]) if seat["link"] else None
        self.page("seat_cards.html", table=table.id, players=table.players, seats=seats,
                  localhost=names_this_machine(self.lessons_url))


class _SeatForm(_TablesPage):
    """A form of a seat on the teacher's tables page: the change, then back to the table (or
    the refusal's sentence with a link back)."""

    def change(self, table, seat: int) -> None:
        raise NotImplementedError

    def post(self, tid: str, name: str) -> None:
        self.require_teacher()
        self.check_form()
        try:
            table = self.store.get(tid)
            self.change(table, table.seat_of(name))
        except TTRError as exc:
            self.refused(exc)
            return
        self.redirect(f"/teacher/tables#t-{tid}", status=303)


class TeacherSeatBot(_SeatForm):
    def change(self, table, seat: int) -> None:
        self.store.set_bot(table, seat, self.get_body_argument("preset", "") or None)


class _UserName(TTRError):
    status = 400


class TeacherSeatOwner(_SeatForm):
    """On a Hub: the teacher gives a seat to another Hub user (the form of each seat)."""

    def change(self, table, seat: int) -> None:
        user = self.get_body_argument("user", "").strip()
        if not 0 < len(user) <= MAX_USER:
            raise _UserName("user: the name of a Hub user")
        self.store.move_seat(table, seat, user)


def routes(store, lessons_url: str) -> list:
    args = {"store": store, "lessons_url": lessons_url}
    tid = r"([0-9a-f]{1,16})"
    return [
        (rf"/tables/{tid}/board", BoardPage, args),
        (rf"/tables/{tid}/board/frame", BoardFrame, args),
        (r"/teacher/tables", TeacherTables, args),
        (r"/teacher/tables/status", TablesStatus, args),
        (rf"/teacher/tables/{tid}/cards", SeatCards, args),
        (rf"/teacher/tables/{tid}/seats/([A-C][12])/bot", TeacherSeatBot, args),
        (rf"/teacher/tables/{tid}/seats/([A-C][12])/owner", TeacherSeatOwner, args),
    ]
