"""The tables' JSON API: how the lesson's kernels, and any other client, sit at a table.

- ``POST /api/tables`` (the teacher: ``Authorization: Bearer <token>``) with
  ``{"players": 4, "seed": 42, "bots": ["B2"]}`` (seed and bots optional; ``bots`` may also map
  seats to strategy presets, ``{"B2": "odds-aware"}``) gives ``201 {"table": ID, "seats":
  {"A1": {"key": K, "link": URL}, ...}, "board": "/tables/ID/board"}``.
- ``GET /api/tables/ID/seats/A1?key=K&after=N&since=E`` gives the seat's ``version``, ``view``
  (``ttrlib.plain.view_to_plain``), ``legal`` (empty unless it is the seat's move), ``events``
  (the public log narrated, from event ``E`` on; ``event_data`` the same events in the form a
  save holds them, ``Event.to_dict``'s ``{"kind": "claim", ...}``; ``event_count`` how many there
  are), ``turns``, ``bot`` (the preset playing the seat, or
  null) and ``scores`` once the game is over. With ``after=N`` it waits (up to ``LONG_POLL_S``)
  while the version is still ``N``.
- ``POST /api/tables/ID/seats/A1/actions?key=K`` with an action in plain form gives
  ``200 {"version": V}``; an illegal one ``409 {"rule": ..., "reason": ...}`` and changes
  nothing; a malformed one ``400`` naming the field; a wrong key ``403``; an unknown table or
  seat ``404``; a body over ``app.MAX_BODY`` is refused by the server before it is read.
- ``GET /api/tables/ID/public?after=N`` gives the public view (what every seat sees alike), the
  narrated log and, at the end, the score sheets; ``at=n`` the same at version ``n``.
- The teacher also has ``GET /api/tables`` (the class's tables), ``GET /api/tables/ID/log``
  (the game number, the deal's seed and every action: the whole game) and ``POST /api/tables/ID/seats/A1/bot`` with
  ``{"bot": "greedy"}`` (hand the seat to a bot) or ``{"bot": null}`` (back to its learner).
- On a JupyterHub (``hub``) a seat's requests also need a Hub token (or the Hub's cookie): the
  first Hub user to open a seat sits there, anyone else gets 403 with the same link; the teacher
  moves a seat with ``POST /api/tables/ID/seats/A1/owner`` and ``{"user": "name"}`` (or
  ``{"user": null}``: whoever opens the link next).

No error body quotes more than a short, cut piece of what it was sent (``errors.shown``).
"""

from __future__ import annotations

import functools
from urllib.parse import quote

import tornado.ioloop

from ..errors import IllegalMove, clip
from ..experiments import PRESETS
from ..plain import action_from_plain, to_plain
from ..seats import seat_name
from ..state import SHORT_GAME_TRAINS, TRAINS_PER_PLAYER
from .auth import Handler
from .json_body import read_json
from .table_refusal import Refusal, status_of
from .table_store import DEFAULT_BOT, TableClosed, public_text, seat_body

LONG_POLL_S = 25.0  # a waiting request returns after this long even if nothing happened
LESSON = "08-play-at-a-table.ipynb"
MAX_REASON = 300  # characters of a refusal's reason
MAX_NUMBER = 999_999_999  # the largest game number a teacher types
RETRY_S = 10  # a 503's Retry-After: a full disk or a crowd of waiting pages


def answers(method):
    """Answer the tables' errors (``TablesHandler.refuse``) from a handler's method."""

    @functools.wraps(method)
    async def wrapped(self, *args, **kwargs):
        try:
            await method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - refuse() answers the tables' errors only
            if not self.refuse(exc):
                raise

    return wrapped


def seat_link(lessons_url: str, table: str, seat: str, key: str | None) -> str:
    """The address a learner opens: lesson 08 in the classroom app, at this seat. A seat
    without a key (a bot's, never a learner's) gets an address that opens no seat (the lesson
    says to ask for the link): the API itself gives such a seat no link."""
    return (f"{lessons_url.rstrip('/')}/voila/render/{LESSON}?table={quote(table)}"
            f"&seat={quote(seat)}" + (f"&key={quote(key)}" if key else ""))


class TablesHandler(Handler):
    def initialize(self, store, lessons_url: str) -> None:
        self.store = store
        self.lessons_url = lessons_url

    def refuse(self, exc: BaseException) -> bool:
        """Answer one of the tables' errors with its status (``table_refusal``, the one map)
        and its sentence; False if ``exc`` is none of them (a bug: tornado's 500)."""
        status = status_of(exc)
        if status is None or self._finished:
            return False
        if isinstance(exc, IllegalMove):
            self.json(409, {"rule": exc.rule, "reason": clip(exc.reason, MAX_REASON)})
            return True
        body = {"error": clip(str(exc), MAX_REASON)}
        if isinstance(exc, TableClosed):
            body["closed"] = body["error"]
        if status == 503:
            self.set_header("Retry-After", str(RETRY_S))
        self.json(status, body)
        return True

    def _handle_request_exception(self, e: BaseException) -> None:
        # The pages' handlers (``table_pages``) reach the referee too: its refusals get their
        # status and sentence there as well, never a 500 and a traceback.
        if not self.refuse(e):
            super()._handle_request_exception(e)

    def body_json(self):
        return read_json(self.request.body, "the body")  # BadBody: 400 naming the body

    def int_arg(self, name: str, default, limit: int = 10**9):
        text = self.get_query_argument(name, None)
        if text is None:
            return default
        if not text.isdigit() or len(text) > 10 or int(text) > limit:
            raise Refusal(400, f"{name}: a whole number, not {text[:20]!r}")
        return int(text)

    def seat(self, tid: str, name: str):
        """The table and seat number of the address, once the seat's key is checked."""
        table = self.store.get(tid)
        seat = table.seat_of(name)
        table.check_key(seat, self.get_query_argument("key", None))
        if self.hub is not None:  # on a Hub the seat is also its user's
            self.store.sit(table, seat, self.require_hub_user())
        return table, seat

    def teacher_table(self, tid: str):
        self.require_teacher()
        return self.store.get(tid)

    async def public_version(self, table) -> tuple[bool, int | None]:
        """For the public view and the board: ``?at=N`` (a step back through the log) or
        ``?after=N`` (wait up to ``LONG_POLL_S`` for a move past version N). Returns
        ``(still_there, at)``: False when the client left while it waited."""
        at = self.int_arg("at", None)
        if at is not None and at > table.version:
            raise Refusal(404, f"at: the table is at version {table.version}")
        after = self.int_arg("after", None)
        if after is not None and at is None:
            await self.store.wait(table, after, LONG_POLL_S)
            if self.closed():
                return False, at
        return True, at

    def closed(self) -> bool:
        """The client left while it waited: there is nobody to answer."""
        stream = getattr(self.request.connection, "stream", None)  # tornado's HTTP1Connection
        return stream is None or stream.closed()

    def links(self, table) -> dict:
        return {seat_name(s): {"key": table.keys[s], "bot": table.bots[s],
                               "user": table.owners[s],
                               "link": seat_link(self.lessons_url, table.id, seat_name(s),
                                                 table.keys[s]) if table.keys[s] else None}
                for s in range(table.players)}


class CreateTable(TablesHandler):
    @answers
    async def post(self) -> None:
        self.require_teacher()
        table = self.store.create(*read_new_table(self.body_json()))
        self.json(201, {"table": table.id, "seats": self.links(table),
                        "board": self.url(f"/tables/{table.id}/board")})

    @answers
    async def get(self) -> None:
        self.require_teacher()
        self.json(200, {"tables": [  # a finished table put away stays there (no replay)
            {"table": t.id, "players": t.players, "version": t.version, "over": t.over,
             "closed": t.closed, "seats": self.links(t)} for t in self.store.tables.values()]})


def read_new_table(body) -> tuple[int, int | None, dict, int]:
    """``(players, game number, {seat: preset}, trains per player)`` of a new table's body (the
    API's and the Tables form's); ``Refusal`` 400 with a sentence naming the field that is
    wrong."""
    if not isinstance(body, dict):
        raise Refusal(400, 'the body is an object such as {"players": 4}')
    extra = sorted(str(k)[:20] for k in body if k not in ("players", "seed", "bots", "trains"))
    if extra:
        raise Refusal(400, f"no field {extra[0]!r} (players, seed, bots, trains)")
    players = body.get("players", 4)
    if type(players) is not int or players not in (4, 6):
        raise Refusal(400, "players: 4 or 6 (C2)")
    seed = body.get("seed")
    if seed is not None and (type(seed) is not int or not 0 <= seed <= MAX_NUMBER):
        raise Refusal(400, f"seed: the game number is a whole number from 0 to {MAX_NUMBER:,} "
                           "(or none, for a secret deal)")
    names = [seat_name(s) for s in range(players)]
    given = body.get("bots") or []
    if isinstance(given, list):
        given = {name: DEFAULT_BOT for name in given}
    if not isinstance(given, dict) or len(given) > players:
        raise Refusal(400, "bots: a list of seats such as [\"B2\"], or {seat: preset}")
    bots = {}
    for name, preset in given.items():
        if name not in names:
            raise Refusal(400, f"bots: {str(name)[:8]!r} is not a seat of a {players}-player "
                               f"table ({', '.join(names)})")
        if preset not in PRESETS:
            raise Refusal(400, f"bots.{name}: one of {', '.join(PRESETS)}")
        bots[name] = preset
    trains = body.get("trains", TRAINS_PER_PLAYER)
    fewest, most = SHORT_GAME_TRAINS
    if type(trains) is not int or not fewest <= trains <= most:
        raise Refusal(400, f"trains: trains per player, a whole number from {fewest} to {most} "
                           "(27 is the full game; fewer is C3's short-game policy)")
    return players, seed, bots, trains


class SeatState(TablesHandler):
    @answers
    async def get(self, tid: str, name: str) -> None:
        table, seat = self.seat(tid, name)
        after = self.int_arg("after", None)
        since = self.int_arg("since", 0)
        if after is not None:  # bounded per seat, apart from the public's pages
            await self.store.wait(table, after, LONG_POLL_S, seat)
            if self.closed():
                return
        self.json(200, seat_body(table, seat, since))


class SeatAction(TablesHandler):
    @answers
    async def post(self, tid: str, name: str) -> None:
        table, seat = self.seat(tid, name)
        action = action_from_plain(self.body_json())
        version = self.store.move(table, seat, action)
        self.json(200, {"version": version})
        # the bots answer after the learner has their answer
        tornado.ioloop.IOLoop.current().add_callback(self.store.play_bots, table)


class PublicState(TablesHandler):
    @answers
    async def get(self, tid: str) -> None:
        table = self.store.get(tid)
        since = self.int_arg("since", 0)
        there, at = await self.public_version(table)
        if there:
            self.set_status(200)
            self.set_header("Content-Type", "application/json")
            self.set_header("Cache-Control", "no-store")
            self.finish(public_text(table, at, since))  # one text for every waiting page


class TableLog(TablesHandler):
    @answers
    async def get(self, tid: str) -> None:
        table = self.teacher_table(tid)
        self.json(200, {"table": table.id, "players": table.players, "number": table.number,
                        "seed": table.seed, "trains": table.trains,
                        "version": table.version, "actions": to_plain(table.actions)})


class SeatBot(TablesHandler):
    @answers
    async def post(self, tid: str, name: str) -> None:
        table = self.teacher_table(tid)
        seat = table.seat_of(name)
        body = self.body_json()
        if not isinstance(body, dict) or set(body) != {"bot"}:
            raise Refusal(400, 'the body is {"bot": "greedy"} or {"bot": null}')
        self.store.set_bot(table, seat, body["bot"])
        self.json(200, {"seat": name, "bot": table.bots[seat], "version": table.version})


class SeatOwner(TablesHandler):
    @answers
    async def post(self, tid: str, name: str) -> None:
        table = self.teacher_table(tid)
        seat = table.seat_of(name)
        body = self.body_json()
        if (not isinstance(body, dict) or set(body) != {"user"}
                or not (body["user"] is None or (isinstance(body["user"], str)
                                                 and 0 < len(body["user"]) <= 255))):
            raise Refusal(400, 'user: a Hub user\'s name, {"user": "ada"}, or {"user": null}')
        self.store.move_seat(table, seat, body["user"])
        self.json(200, {"seat": name, "user": table.owners[seat], "version": table.version})


def routes(store, lessons_url: str) -> list:
    args = {"store": store, "lessons_url": lessons_url}
    seat = r"/api/tables/([0-9a-f]{1,16})/seats/([A-C][12])"
    return [
        (r"/api/tables", CreateTable, args),
        (seat, SeatState, args),
        (seat + r"/actions", SeatAction, args),
        (seat + r"/bot", SeatBot, args),
        (seat + r"/owner", SeatOwner, args),
        (r"/api/tables/([0-9a-f]{1,16})/public", PublicState, args),
        (r"/api/tables/([0-9a-f]{1,16})/log", TableLog, args),
    ]
