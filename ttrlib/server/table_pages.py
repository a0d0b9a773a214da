"""The tables' pages: the board a teacher projects (anyone with the table's address may watch it:
it shows only the public view) and the teacher's page of tables (seat links with QR codes to
print or project, a form to make a table, seats handed to a bot and back).
"""

from __future__ import annotations

import html

import segno

from ..experiments import PRESETS
from ..plain import PUBLIC_FIELDS
from ..seats import seat_name
from ..state import Phase
from .board_page import PublicView, frame_html, page_html
from .table_api import TablesHandler, answers, read_new_table, seat_link
from .table_store import DEFAULT_BOT, Refusal


def board_frame(table, at: int | None = None) -> dict:
    """The board's HTML at version ``at`` (default: the latest), cached for the latest."""
    n = table.version if at is None else at
    cached = table.cache.get("board")
    if cached is None or cached[0] != n:
        game = table.at_version(n)
        view = game.view(0)
        public = PublicView(**{name: getattr(view, name) for name in PUBLIC_FIELDS})
        new_from = table.marks[n - 1] if n else len(game.events)
        frame = frame_html(game.board, table.id, public, game.events, new_from,
                           game.scores() if game.is_over else None, n, table.version)
        cached = (n, frame)
        if n == table.version:
            table.cache["board"] = cached
    return {"version": n, "latest": table.version, "html": cached[1]}


class BoardPage(TablesHandler):
    @answers
    async def get(self, tid: str) -> None:
        table = self.store.get(tid)
        frame = board_frame(table)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(page_html(table.id, frame["html"], frame["version"]))


class BoardFrame(TablesHandler):
    @answers
    async def get(self, tid: str) -> None:
        table = self.store.get(tid)
        there, at = await self.public_version(table)
        if there:
            self.json(200, board_frame(table, at))


# --- the teacher's page of tables ------------------------------------------------------------
def _qr(link: str) -> str:
    """The link as a QR code (inline SVG), big enough to scan from a printed sheet."""
    return segno.make(link, error="m").svg_inline(scale=3, dark="#000", light="#fff")


def _status(table) -> str:
    game = table.game
    if game.phase is Phase.OVER:
        return "the game is over"
    return f"{seat_name(game.to_move)} to move, {table.version} actions played"


def _owner_form(table, name: str, user: str | None) -> str:
    """On a Hub: who sits at the seat, and a form to give it to another Hub user."""
    e = html.escape
    who = f"<b>{e(user)}</b> sits here" if user else "nobody has opened the link yet"
    return (f"<p>{who}</p><form method='post' action='/teacher/tables/{table.id}/seats/{name}"
            "/owner'><label>Give to the Hub user <input name='user' size='10' required>"
            "</label> <button>Give</button></form>")


def tables_page(store, lessons_url: str, hub: bool = False) -> str:
    e = html.escape
    presets = "".join(f"<option value='{e(p)}'>{e(p)}</option>" for p in PRESETS)
    seats6 = [seat_name(s) for s in range(6)]
    form = (
        "<form method='post' action='/teacher/tables' class='make'><h2>Make a table</h2>"
        "<label>Players <select name='players'><option>4</option><option>6</option></select>"
        "</label> <label>Game number (empty: a secret one) <input name='seed' size='8' "
        "inputmode='numeric'></label><fieldset><legend>Seats played by a bot</legend>"
        + "".join(f"<label><input type='checkbox' name='bot' value='{n}'> {n}</label> "
                  for n in seats6)
        + f"<label>Bot <select name='preset'>{presets}</select></label></fieldset>"
        "<button>Make the table</button></form>")
    blocks = []
    for table in reversed(list(store.tables.values())):
        seats = []
        for s in range(table.players):
            name = seat_name(s)
            link = seat_link(lessons_url, table.id, name, table.keys[s])
            bot = table.bots[s]
            action = f"/teacher/tables/{table.id}/seats/{name}/bot"
            if bot:
                who = f"played by the bot <b>{e(bot)}</b>"
                button = (f"<form method='post' action='{action}'><input type='hidden' "
                          "name='preset' value=''><button>Back to the learner</button></form>")
            else:
                who = "a learner's seat"
                button = (f"<form method='post' action='{action}'><input type='hidden' "
                          f"name='preset' value='{DEFAULT_BOT}'><button>Hand to a bot"
                          "</button></form>")
            owner = _owner_form(table, name, table.owners[s]) if hub else ""
            seats.append(f"<div class='seat'><h3>{name}</h3>{_qr(link)}"
                         f"<p><a href='{e(link)}'>{e(link)}</a></p><p>{who}</p>{button}{owner}"
                         "</div>")
        blocks.append(
            f"<section id='t-{table.id}'><h2>Table {table.id} · {table.players} players · "
            f"{e(_status(table))} · <a href='/tables/{table.id}/board'>the board</a></h2>"
            f"<div class='seats'>{''.join(seats)}</div></section>")
    body = "".join(blocks) or "<p>No table yet.</p>"
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Tables</title><style>"
        "body{font-family:system-ui,sans-serif;margin:1rem 2rem} .seats{display:flex;"
        "flex-wrap:wrap;gap:1rem} .seat{border:1px solid #999;border-radius:8px;padding:.5rem;"
        "width:260px;break-inside:avoid} .seat a{word-break:break-all;font-size:.8rem} "
        "section{break-inside:avoid;margin-bottom:1.5rem} fieldset{margin:.5rem 0} "
        "@media print{form,.make{display:none}}</style></head><body>"
        "<p><a href='/teacher'>The teacher's room</a></p><h1>Tables</h1>"
        "<p>Each seat's link (or its QR code) opens lesson 08 at that seat. A link is the seat's "
        "key: give it to that learner only. A learner who closes the tab opens the same link "
        "again and is back at the seat.</p>"
        f"{form}{body}</body></html>")


class TeacherTables(TablesHandler):
    def get(self) -> None:
        self.require_teacher()
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(tables_page(self.store, self.lessons_url, hub=self.hub is not None))

    def post(self) -> None:
        self.require_teacher()
        players = self.get_body_argument("players", "4")
        seed = self.get_body_argument("seed", "").strip()
        preset = self.get_body_argument("preset", DEFAULT_BOT)
        seats = {seat_name(s) for s in range(6 if players == "6" else 4)}
        body = {"players": int(players) if players in ("4", "6") else players,
                "bots": {n: preset for n in self.get_body_arguments("bot") if n in seats}}
        if seed:  # a typed number; anything else is refused by read_new_table, by name
            body["seed"] = int(seed) if seed.isdigit() and len(seed) <= 18 else seed
        try:
            table = self.store.create(*read_new_table(body))
        except Refusal as exc:
            self.set_status(exc.status)
            self.finish(f"<p>{html.escape(str(exc))}</p><p><a href='/teacher/tables'>Back</a>")
            return
        self.redirect(f"/teacher/tables#t-{table.id}", status=303)


class _SeatForm(TablesHandler):
    """A form of a seat on the teacher's tables page: the change, then back to the table (or
    the refusal's sentence with a link back)."""

    def change(self, table, seat: int) -> None:
        raise NotImplementedError

    def post(self, tid: str, name: str) -> None:
        self.require_teacher()
        try:
            table = self.store.get(tid)
            self.change(table, table.seat_of(name))
        except Refusal as exc:
            self.set_status(exc.status)
            self.finish(f"<p>{html.escape(str(exc))}</p><p><a href='/teacher/tables'>Back</a>")
            return
        self.redirect(f"/teacher/tables#t-{tid}", status=303)


class TeacherSeatBot(_SeatForm):
    def change(self, table, seat: int) -> None:
        self.store.set_bot(table, seat, self.get_body_argument("preset", "") or None)


class TeacherSeatOwner(_SeatForm):
    """On a Hub: the teacher gives a seat to another Hub user (the form of each seat)."""

    def change(self, table, seat: int) -> None:
        user = self.get_body_argument("user", "").strip()
        if not 0 < len(user) <= 255:
            raise Refusal(400, "user: the name of a Hub user")
        self.store.move_seat(table, seat, user)


def routes(store, lessons_url: str) -> list:
    args = {"store": store, "lessons_url": lessons_url}
    tid = r"([0-9a-f]{1,16})"
    return [
        (rf"/tables/{tid}/board", BoardPage, args),
        (rf"/tables/{tid}/board/frame", BoardFrame, args),
        (r"/teacher/tables", TeacherTables, args),
        (rf"/teacher/tables/{tid}/seats/([A-C][12])/bot", TeacherSeatBot, args),
        (rf"/teacher/tables/{tid}/seats/([A-C][12])/owner", TeacherSeatOwner, args),
    ]
