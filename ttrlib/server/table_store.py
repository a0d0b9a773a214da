"""The class server's tables: one ``Game`` each, refereed here, and its append-only action log.

The log in the database is the truth: a move is answered only once its row is committed, and on
start every table is replayed from its log (a fresh ``Game.new(players, seed)`` and every action
in order), so a crash or a restart loses no answered move. The seed is the server's secret unless
the teacher chose it: no seat can replay the deal.

On PostgreSQL several servers may share one log (a school): move ``n`` of a table is one row, so
of two servers writing it only the first commits; the other reads the log back (``sync``) and
tries again on the new state. Every write is announced (NOTIFY, ``db.notify``); each server
listens (``listen``) and brings the table up to its log, which wakes the seats waiting on it.

A seat is a capability: a 128-bit random key (``secrets``) in the seat's link. A seat may be
handed to a bot (a strategy preset of ``ttrlib.experiments``) and back; bots play their seats
here, each from its own seat's view, right after every move. Everything runs on the server's one
event loop: a move, its bots and its log rows happen between two awaits, so no lock is needed.
Each table's ``changed`` event wakes the requests waiting for its next version (long-poll).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from .. import actions as act
from .. import deals, narration
from ..bots import GreedyBot, decide
from ..errors import TableError, TTRError, WrongPhase
from ..experiments import PRESETS
from ..game import Game
from ..plain import action_from_plain, public_to_plain, to_plain, view_to_plain
from ..seats import PLAYER_COUNTS, seat_name
from . import db

log = logging.getLogger("ttrlib.server.tables")

_TABLES = """
CREATE TABLE tables (id TEXT PRIMARY KEY, players INTEGER NOT NULL, seed INTEGER NOT NULL,
                     created REAL NOT NULL);
CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,
                    key TEXT NOT NULL, bot TEXT, PRIMARY KEY (table_id, seat));
CREATE TABLE moves (table_id TEXT NOT NULL REFERENCES tables(id), n INTEGER NOT NULL,
                    seat INTEGER NOT NULL, action TEXT NOT NULL, bot TEXT, at REAL NOT NULL,
                    PRIMARY KEY (table_id, n))
"""
STEPS = [
    # PostgreSQL: a seed is 63 bits (its INTEGER has 32) and a time needs a double (its REAL is
    # 4 bytes: a minute's precision); the primary key (table_id, n) is what keeps two servers
    # from both writing move n.
    {"sqlite": _TABLES,
     "postgresql": _TABLES.replace("seed INTEGER", "seed BIGINT").replace(" REAL ",
                                                                          " DOUBLE PRECISION ")},
    # On a JupyterHub, the Hub user who sits at a seat first (the teacher may move it).
    "ALTER TABLE seats ADD COLUMN owner TEXT",
    # The deal's seed in decimal (128 keyed or random bits: no INTEGER column holds them); the
    # seed column then holds the table's public game number, -1 for none. NULL on the tables
    # made before this step, whose seed column is the plain seed they were dealt from.
    "ALTER TABLE tables ADD COLUMN deal TEXT",
]
DEFAULT_BOT = "greedy"
MAX_SEED = 2**63 - 1
BOT_STEPS = 5000  # a bot-only table plays to the end at once; a game is a few hundred actions
PAST_VERSIONS = 16  # replayed games kept for the teacher's step-back (each a few hundred KB)


class Refusal(TableError):
    """A request the tables cannot serve; ``status`` is its HTTP status (400, 403, 404)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


@dataclass
class Table:
    """One table: its game, its log (the same actions as its rows), its seats' keys and bots."""

    id: str
    players: int
    seed: int  # the deal's secret seed (``deals``): the teacher's log gives it, no seat
    game: Game
    keys: list[str]
    bots: list[str | None]  # the preset playing each seat, None for a learner
    owners: list[str | None] = field(default_factory=list)  # on a Hub: who sits at each seat
    number: int | None = None  # the public game number the teacher chose, None for a random deal
    actions: list[act.Action] = field(default_factory=list)
    marks: list[int] = field(default_factory=list)  # marks[v]: events in the log at version v
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    players_of_bots: dict = field(default_factory=dict)  # seat -> GreedyBot
    cache: dict = field(default_factory=dict)  # seat (or "public") -> (version, body)
    past: OrderedDict = field(default_factory=OrderedDict)  # version -> replayed Game

    def __post_init__(self):
        self.marks = [len(self.game.events)]
        self.owners = self.owners or [None] * self.players

    def applied(self) -> None:
        """Note an action just applied to the game (its events end the version's mark)."""
        self.marks.append(len(self.game.events))

    @property
    def version(self) -> int:
        """How many actions the table has seen: version 0 is the deal."""
        return len(self.actions)

    def seat_of(self, name: str) -> int:
        for s in range(self.players):
            if seat_name(s) == name:
                return s
        raise Refusal(404, f"no seat {name[:8]!r} at this {self.players}-player table")

    def check_key(self, seat: int, key: str | None) -> None:
        # compare_digest: the time taken says nothing about how much of a guess was right
        if key is None or not secrets.compare_digest(key.encode(), self.keys[seat].encode()):
            raise Refusal(403, "that is not this seat's key: open the link your teacher gave you")

    def notify(self) -> None:
        """Wake every request waiting for a version after the current one."""
        old, self.changed = self.changed, asyncio.Event()
        old.set()

    def at_version(self, n: int) -> Game:
        """The game after the first ``n`` actions of the log (replayed; the teacher's step-back)."""
        if n == self.version:
            return self.game
        game = self.past.get(n)
        if game is None:
            game = replay(self.players, self.seed, self.actions[:n])
            self.past[n] = game
            while len(self.past) > PAST_VERSIONS:
                self.past.popitem(last=False)
        self.past.move_to_end(n)
        return game


def replay(players: int, seed: int, actions) -> Game:
    game = Game.new(players=players, seed=seed)
    for a in actions:
        game.apply(a)
    return game


def seat_body(table: Table, seat: int, since: int = 0) -> dict:
    """What a seat receives: its view (I1), its legal actions when it is its move, the public
    log narrated from event ``since`` on, and the score sheets once the game is over."""
    version = table.version
    cached = table.cache.get(seat)
    if cached is None or cached[0] != version:
        game = table.game
        view = game.view(seat)
        mine = not game.is_over and game.to_move == seat and table.bots[seat] is None
        cached = (version, {
            "view": view_to_plain(view),
            "legal": to_plain(game.legal_actions()) if mine else [],
            "scores": to_plain(game.scores()) if game.is_over else None,
            "turns": game.turns})
        table.cache[seat] = cached
    events = table.game.events
    return {"table": table.id, "seat": seat_name(seat), "version": version,
            "bot": table.bots[seat], **cached[1], **_events(events, seat, since)}


def public_snapshot(table: Table, at: int | None = None) -> dict:
    """The public view at version ``at`` (default: now): what every seat sees alike, the
    narrated public log, and the score sheets once the game is over (then nothing is hidden)."""
    n = table.version if at is None else at
    game = table.at_version(n)
    return {"table": table.id, "version": n, "latest": table.version, "turns": game.turns,
            "public": public_to_plain(game.view(0)),
            "scores": to_plain(game.scores()) if game.is_over else None,
            "bots": {seat_name(s): b for s, b in enumerate(table.bots) if b},
            **_events(game.events, None, 0)}


def _events(events, seat: int | None, since: int) -> dict:
    part = events[since:]
    return {"event_count": len(events), "events": narration.lines(part, seat),
            "event_data": to_plain(list(part))}


class Conflict(Exception):
    """Another server wrote the same move number first (the log has moved on)."""


class TableStore:
    """Every table of the class, kept in memory and logged in the server's database."""

    def __init__(self, conn):
        self.conn = conn
        db.migrate(conn, "tables", STEPS)
        self.shared = db.dialect(conn) == "postgresql"  # other servers may write the log
        self.tables: dict[str, Table] = {}
        for (tid,) in self.conn.execute("SELECT id FROM tables ORDER BY created").fetchall():
            self._load(tid)

    # --- start: replay every log -------------------------------------------------------------
    def _load(self, tid: str) -> Table | None:
        row = self.conn.execute("SELECT players, seed, deal FROM tables WHERE id = ?",
                                (tid,)).fetchone()
        if row is None:
            return None
        players, seed, deal = row
        number, seed = (None, seed) if deal is None else (None if seed < 0 else seed, int(deal))
        seats = self.conn.execute("SELECT seat, key, bot, owner FROM seats WHERE table_id = ? "
                                  "ORDER BY seat", (tid,)).fetchall()
        table = Table(tid, players, seed, Game.new(players=players, seed=seed),
                      [k for _, k, _, _ in seats], [b for _, _, b, _ in seats],
                      [o for _, _, _, o in seats], number=number)
        self._catch_up(table)
        self.tables[tid] = table
        self._make_bots(table)
        self.play_bots(table)  # the server may have stopped between a move and its bots
        return table

    def _catch_up(self, table: Table) -> bool:
        """Apply the log's moves past the table's version; whether there were any."""
        moves = self.conn.execute("SELECT n, action FROM moves WHERE table_id = ? AND n >= ? "
                                  "ORDER BY n", (table.id, table.version)).fetchall()
        for n, text in moves:
            try:
                action = action_from_plain(json.loads(text))
                table.game.apply(action)
                table.applied()
            except (TTRError, ValueError) as exc:  # an engine changed under an old log
                log.error("table %s: move %d of its log is refused on replay (%s); the table "
                          "stops there", table.id, n, exc)
                break
            table.actions.append(action)
        return bool(moves)

    def sync(self, table: Table) -> None:
        """Bring ``table`` up to the shared log: other servers' moves, seats handed to a bot or
        to another user. Wakes the seats waiting on it if anything changed."""
        moved = self._catch_up(table)
        seats = self.conn.execute("SELECT bot, owner FROM seats WHERE table_id = ? ORDER BY seat",
                                  (table.id,)).fetchall()
        bots, owners = [b for b, _ in seats], [o for _, o in seats]
        handed = bots != table.bots or owners != table.owners
        if handed:
            table.bots, table.owners = bots, owners
            table.cache.clear()
            self._make_bots(table)
        if moved or handed:
            table.notify()

    async def listen(self) -> None:
        """Follow the other servers' writes (PostgreSQL's LISTEN) for as long as the server
        runs; after a lost connection, every table is brought up to its log again."""
        import psycopg

        while True:
            try:
                aconn = await psycopg.AsyncConnection.connect(self.conn.url, autocommit=True)
                async with aconn:
                    await aconn.execute(f"LISTEN {db.CHANNEL}")
                    for table in list(self.tables.values()):  # whatever was missed meanwhile
                        self.heard(table.id)
                    async for note in aconn.notifies():
                        if self.conn.conn.closed or note.pid != self.conn.conn.info.backend_pid:
                            self.heard(note.payload)  # another server's write
            except psycopg.OperationalError as exc:
                log.warning("lost the database's notifications (%s); listening again in 1 s",
                            exc)
                await asyncio.sleep(1)

    def heard(self, tid: str) -> None:
        """Another server wrote to table ``tid``: read it, and play its bots if it is their
        move (a server stopped between a move and its bots leaves them to the others; of two
        servers playing them, the log keeps the first)."""
        try:
            table = self.tables.get(tid)
            if table is None:
                self._load(tid)
                return
            self.sync(table)
            self.play_bots(table)
        except Exception:  # noqa: BLE001 - one table's trouble must not stop the listening
            log.exception("table %s: could not follow the log", tid)

    # --- tables ------------------------------------------------------------------------------
    def create(self, players: int, seed: int | None = None, bots: dict | None = None) -> Table:
        if players not in PLAYER_COUNTS:
            raise Refusal(400, "players: Team Asia is played by 4 or 6 players (C2)")
        # A game number is a public name: the deal is keyed by it (``deals``, the lessons'
        # door), so the same number gives every table of this server one game, and nobody
        # who knows the number (or sees A1's cards) can deal it with ``Game.new(seed=...)``.
        dealt = deals.unnamed() if seed is None else deals.named(seed, players)
        number, seed = (-1 if seed is None else seed), dealt.seed
        bots = bots or {}
        tid = secrets.token_hex(4)
        while tid in self.tables:
            tid = secrets.token_hex(4)
        keys = [secrets.token_urlsafe(16) for _ in range(players)]  # 128 random bits each
        names = [bots.get(seat_name(s)) for s in range(players)]
        table = Table(tid, players, seed, Game.new(players=players, seed=seed), keys, names,
                      number=None if number < 0 else number)
        with db.transaction(self.conn):
            self.conn.execute("INSERT INTO tables (id, players, seed, created, deal) "
                              "VALUES (?, ?, ?, ?, ?)",
                              (tid, players, number, time.time(), str(seed)))
            self.conn.executemany("INSERT INTO seats (table_id, seat, key, bot) "
                                  "VALUES (?, ?, ?, ?)",
                                  [(tid, s, keys[s], names[s]) for s in range(players)])
            db.notify(self.conn, tid)
        self.tables[tid] = table
        self._make_bots(table)
        self.play_bots(table)
        return table

    def get(self, tid: str) -> Table:
        table = self.tables.get(tid)
        if table is None and self.shared:
            table = self._load(tid)  # made by another server
        elif table is not None and self.shared:
            self.sync(table)  # read our own writes wherever they were made
        if table is None:
            raise Refusal(404, "no such table")
        return table

    def set_bot(self, table: Table, seat: int, preset: str | None) -> None:
        """Hand ``seat`` to the bot ``preset`` (it plays at once if it is the seat's move), or
        back to its learner (``None``); the seat's key stays the same."""
        if preset is not None and preset not in PRESETS:
            raise Refusal(400, f"bot: one of {', '.join(PRESETS)}, or null for a learner")
        with db.transaction(self.conn):
            self.conn.execute("UPDATE seats SET bot = ? WHERE table_id = ? AND seat = ?",
                              (preset, table.id, seat))
            db.notify(self.conn, table.id)
        table.bots[seat] = preset
        table.cache.pop(seat, None)
        self._make_bots(table)
        table.notify()
        self.play_bots(table)

    def sit(self, table: Table, seat: int, user: str) -> None:
        """On a Hub: ``user`` sits at ``seat``, the first to open its link; anyone else is
        refused (403), even with the link."""
        owner = table.owners[seat]
        if owner is None:
            with db.transaction(self.conn):
                # the first to sit wins, on whichever server (owner IS NULL in the same write)
                self.conn.execute("UPDATE seats SET owner = ? WHERE table_id = ? AND seat = ? "
                                  "AND owner IS NULL", (user, table.id, seat))
                owner = self.conn.execute("SELECT owner FROM seats WHERE table_id = ? AND "
                                          "seat = ?", (table.id, seat)).fetchone()[0]
                db.notify(self.conn, table.id)
            table.owners[seat] = owner
        if owner != user:
            raise Refusal(403, f"{seat_name(seat)} is {owner}'s seat: ask your teacher for "
                               "your own link")

    def move_seat(self, table: Table, seat: int, user: str | None) -> None:
        """The teacher gives ``seat`` to Hub user ``user`` (``None``: to whoever opens its
        link first)."""
        with db.transaction(self.conn):
            self.conn.execute("UPDATE seats SET owner = ? WHERE table_id = ? AND seat = ?",
                              (user, table.id, seat))
            db.notify(self.conn, table.id)
        table.owners[seat] = user
        table.notify()

    def _make_bots(self, table: Table) -> None:
        for s, preset in enumerate(table.bots):
            bot = table.players_of_bots.get(s)
            if preset is None:
                table.players_of_bots.pop(s, None)
            elif bot is None or bot.strategy is not PRESETS[preset]:
                table.players_of_bots[s] = GreedyBot(seed=secrets.randbits(32),
                                                     strategy=PRESETS[preset])

    # --- moves -------------------------------------------------------------------------------
    def move(self, table: Table, seat: int, action: act.Action) -> int:
        """Apply a learner's ``action`` for ``seat``; ``IllegalMove`` (and nothing changes) if
        the rules refuse it. Returns the new version once the move is in the log. Should
        another server have written a move first, the action is tried again on the new state."""
        for _ in range(2):
            game = table.game
            if table.bots[seat] is not None:
                raise WrongPhase("C2", f"a bot plays {seat_name(seat)} now: your teacher can "
                                       "hand the seat back to you")
            if game.is_over:
                raise WrongPhase("E1", "the game is over: nothing more can be played")
            if game.to_move != seat:
                raise WrongPhase("C2", f"it is {seat_name(game.to_move)}'s move, not yours")
            game.apply(action)  # IllegalMove: nothing changed
            table.applied()
            try:
                self._log(table, [(seat, action, None)])
            except Conflict:
                self.sync(table)
                continue
            return table.version
        raise Refusal(409, "the table moved on meanwhile: look again and play your move")

    def play_bots(self, table: Table) -> int:
        """Bots play while the seat to move is theirs; their moves are logged together. If
        another server logged moves first, this one reads them and leaves the bots to it."""
        game, done = table.game, list[tuple[int, Any, Any]]()
        while not game.is_over and table.bots[game.to_move] is not None and len(done) < BOT_STEPS:
            seat = game.to_move
            bot = table.players_of_bots[seat]
            action = decide(game, bot)  # a LightView, closed before the action is applied
            game.apply(action)
            table.applied()
            done.append((seat, action, table.bots[seat]))
        if done:
            try:
                self._log(table, done)
            except Conflict:
                self.sync(table)
                return 0
        return len(done)

    def _log(self, table: Table, moves: list) -> None:
        """Append ``moves`` (already applied to the game) to the log, then wake the waiters. If
        the database refuses, the game is rebuilt from the log: memory never runs ahead of it
        (``Conflict`` if another server wrote these move numbers first)."""
        start, now = table.version, time.time()
        rows = [(table.id, start + i, seat, json.dumps(to_plain(a)), bot, now)
                for i, (seat, a, bot) in enumerate(moves)]
        try:
            with db.transaction(self.conn):
                self.conn.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)", rows)
                db.notify(self.conn, table.id)
        except Exception as exc:
            table.game = replay(table.players, table.seed, table.actions)
            del table.marks[table.version + 1:]
            table.cache.clear()
            if isinstance(exc, db.integrity_error(self.conn)):
                raise Conflict(table.id) from exc
            raise
        table.actions += [a for _, a, _ in moves]
        table.notify()

    async def wait(self, table: Table, after: int, timeout: float) -> None:
        """Return when the table's version is no longer ``after`` (at once if it is not), or
        after ``timeout`` seconds."""
        if table.version != after:
            return
        changed = table.changed
        try:
            await asyncio.wait_for(changed.wait(), timeout)
        except asyncio.TimeoutError:
            pass
