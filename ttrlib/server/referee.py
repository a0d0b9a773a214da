"""The referee of the class's tables: one ``Game`` each, dealt, moved, played by bots, versioned,
and the bodies each seat and the public receive. It speaks ttrlib's errors, never HTTP.

The log (``table_log``) is the truth: a move is answered only once its row is committed, and on
start every table is replayed from its log (a fresh deal and every action in order), so a crash
or a restart loses no answered move. A game number the teacher gives is a public name: the deal
is keyed by it (``ttrlib.deals``); no seat can replay the deal.

A log that stops on replay (a row the rules refuse after an engine change, a damaged or missing
row) closes its table with a sentence: seats and the teacher read it, moves are refused with
it, rather than a table that can never move again.

On PostgreSQL several servers may share one log (a school): move ``n`` of a table is one row, so
of two servers writing it only the first commits; the other reads the log back (``sync``) and
tries again on the new state. Each server follows the others' writes (``table_log.listen``).

A seat is a capability: a 128-bit random key (``secrets``) in the seat's link. A seat may be
handed to a bot (a strategy preset of ``ttrlib.experiments``) and back; bots play their seats
here, each from its own seat's view, right after every move. Everything runs on the server's one
event loop: a move, its bots and its log rows happen between two awaits, so no lock is needed.
Each table's ``changed`` event wakes the requests waiting for its next version (long-poll);
the public's pages (no key) and each seat are bounded apart (``MAX_PUBLIC_WAITERS``,
``MAX_SEAT_WAITERS``), so a crowd of open boards never shuts a seat out.

A finished table leaves memory (all but ``KEEP_FINISHED`` of them, the latest used): its game
comes back from the log when it is asked for again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import actions as act
from .. import deals, narration
from ..bots import GreedyBot, decide
from ..errors import TableError, TTRError, WrongPhase, clip
from ..experiments import PRESETS
from ..game import Game
from ..plain import action_from_plain, public_to_plain, to_plain, view_to_plain
from ..seats import PLAYER_COUNTS, seat_name
from ..state import SHORT_GAME_TRAINS, TRAINS_PER_PLAYER
from .table_log import Conflict, LogUnavailable, TableLog, TableRow

log = logging.getLogger("ttrlib.server.tables")

DEFAULT_BOT = "greedy"
MAX_SEED = 2**63 - 1  # the largest game number (the log's BIGINT column)
BOT_STEPS = 5000  # a bot-only table plays to the end at once; a game is a few hundred actions
PAST_VERSIONS = 16  # replayed games kept for the teacher's step-back (each a few hundred KB)
PUBLIC_BODIES = 32  # public bodies kept per table (per version, ``at`` and ``since``)
MAX_PUBLIC_WAITERS = 300  # public pages (boards) waiting on one table; anyone may open them
MAX_SEAT_WAITERS = 50  # one seat's long-polls on its table (its kernel, a tab or two, a retry)
KEEP_FINISHED = 4  # finished tables kept in memory; the others come back from the log
BY_BOT = " (played by the bot)"


# --- the referee's refusals (the handlers give each its HTTP status, ``table_api``) -----------
class TableRefused(TableError):
    """A request about a table that the referee refuses; the sentence says why."""


class NoSuchTable(TableRefused):
    """No table has this id."""


class NoSuchSeat(TableRefused):
    """The table has no seat of this name."""


class WrongKey(TableRefused):
    """The key is not the seat's (or the seat has no link yet)."""


class NotYourSeat(TableRefused):
    """On a Hub: another user sits at the seat."""


class BadTableArgument(TableRefused):
    """An argument the referee cannot take (a player count, a bot preset)."""


class TableClosed(TableRefused):
    """The table's log stopped on replay: nothing more can be played at it."""


class TableBusy(TableRefused):
    """Too many requests wait on this table now."""


class MovedOn(TableRefused):
    """Other servers' moves came first twice while this one was tried."""


@dataclass(eq=False)
class Table:
    """One table: its game, its log (the same actions as its rows), its seats' keys and bots."""

    id: str
    players: int
    seed: int  # the deal's secret seed (``deals``): the teacher's log gives it, no seat
    _game: Game | None  # None: dealt from the seed (put away: brought back by ``reload``)
    keys: list[str | None]  # None: a seat made as a bot's, no link until a learner has it
    bots: list[str | None]  # the preset playing each seat, None for a learner
    owners: list[str | None] = field(default_factory=list)  # on a Hub: who sits at each seat
    number: int | None = None  # the public game number the teacher chose, None for a random deal
    closed: str | None = None  # why the table's log stopped on replay, for seats and teacher
    by_bot: list[bool] = field(default_factory=list)  # by_bot[v]: a bot played action v
    marks: list[int] = field(default_factory=list)  # marks[v]: events in the log at version v
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    players_of_bots: dict = field(default_factory=dict)  # seat -> GreedyBot
    cache: dict = field(default_factory=dict)  # seat (or "board") -> (version, body)
    public: OrderedDict = field(default_factory=OrderedDict)  # (n, since, latest) -> JSON text
    past: OrderedDict = field(default_factory=OrderedDict)  # version -> replayed Game
    waiting: dict = field(default_factory=dict)  # seat (None: the public) -> requests waiting
    _actions: list = field(default_factory=list)
    _version: int = 0  # the version while the game is put away
    _over: bool = False
    reload: Callable[[Table], None] | None = None  # brings a put-away game back from the log
    trains: int = TRAINS_PER_PLAYER  # per player: fewer for a short game (C3's policy)

    def __post_init__(self):
        self.owners = self.owners or [None] * self.players
        if self._game is None:
            self._game = Game.new(players=self.players, seed=self.seed, trains=self.trains)
        self.marks = [len(self._game.events)]

    # --- the game, in memory or put away -----------------------------------------------------
    @property
    def game(self) -> Game:
        if self._game is None:
            assert self.reload is not None, "a put-away table needs its log"
            self.reload(self)
        assert self._game is not None
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        self._game = game  # the tests put another deal of the same position here

    @property
    def actions(self) -> list[act.Action]:
        _ = self.game
        return self._actions

    @property
    def in_memory(self) -> bool:
        return self._game is not None

    @property
    def version(self) -> int:
        """How many actions the table has seen: version 0 is the deal."""
        return len(self._actions) if self._game is not None else self._version

    @property
    def over(self) -> bool:
        return self._game.is_over if self._game is not None else self._over

    def put_away(self) -> None:
        """Drop the game and everything made from it (a finished table: it comes back from the
        log when asked for); the keys, bots and the version stay."""
        self._version, self._over = self.version, self.over
        self._game, self._actions, self.by_bot, self.marks = None, [], [], []
        self.cache.clear()
        self.public.clear()
        self.past.clear()
        self.players_of_bots.clear()

    def dealt(self) -> Game:
        return Game.new(players=self.players, seed=self.seed, trains=self.trains)

    def applied(self, action: act.Action, by_bot: bool = False) -> None:
        """Note an action just applied to the game (its events end the version's mark)."""
        self._actions.append(action)
        self.by_bot.append(by_bot)
        self.marks.append(len(self.game.events))

    def undo_to(self, version: int) -> None:
        """Forget the actions after ``version`` (the log refused them): replay the rest."""
        actions = self._actions[:version]
        self._game, self._actions, by_bot = self.dealt(), [], self.by_bot[:version]
        self.by_bot, self.marks = [], [len(self._game.events)]
        for a, b in zip(actions, by_bot):
            self._game.apply(a)
            self.applied(a, b)
        self.cache.clear()
        self.public.clear()

    @property
    def waiters(self) -> int:
        """How many requests wait for the table's next version now."""
        return sum(self.waiting.values())

    # --- seats -------------------------------------------------------------------------------
    def seat_of(self, name: str) -> int:
        for s in range(self.players):
            if seat_name(s) == name:
                return s
        raise NoSuchSeat(f"no seat {str(name)[:8]!r} at this {self.players}-player table")

    def check_key(self, seat: int, key: str | None) -> None:
        expected = self.keys[seat]
        # compare_digest: the time taken says nothing about how much of a guess was right
        if key is None or expected is None or not secrets.compare_digest(key.encode(),
                                                                         expected.encode()):
            raise WrongKey("that is not this seat's key: open the link your teacher gave you")

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
            game = self.dealt()
            for a in self.actions[:n]:
                game.apply(a)
            self.past[n] = game
            while len(self.past) > PAST_VERSIONS:
                self.past.popitem(last=False)
        self.past.move_to_end(n)
        return game


def replay(players: int, seed: int, actions, trains: int = TRAINS_PER_PLAYER) -> Game:
    game = Game.new(players=players, seed=seed, trains=trains)
    for a in actions:
        game.apply(a)
    return game


# --- the bodies ---------------------------------------------------------------------------------
def seat_body(table: Table, seat: int, since: int = 0) -> dict:
    """What a seat receives: its view (I1), its legal actions when it is its move, the public
    log narrated from event ``since`` on, the score sheets once the game is over, and why the
    table is closed if it is."""
    version = table.version
    cached = table.cache.get(seat)
    if cached is None or cached[0] != version:
        game = table.game
        view = game.view(seat)
        mine = (not game.is_over and game.to_move == seat and table.bots[seat] is None
                and table.closed is None)
        cached = (version, {
            "view": view_to_plain(view),
            "legal": to_plain(game.legal_actions()) if mine else [],
            "scores": to_plain(game.scores()) if game.is_over else None,
            "turns": game.turns})
        table.cache[seat] = cached
    return {"table": table.id, "seat": seat_name(seat), "version": version,
            "bot": table.bots[seat], "closed": table.closed, **cached[1],
            **_events(table, table.game.events, seat, since)}


def public_snapshot(table: Table, at: int | None = None, since: int = 0) -> dict:
    """The public view at version ``at`` (default: now): what every seat sees alike, the
    narrated public log from event ``since`` on, the score sheets once the game is over (then
    nothing is hidden), and why the table is closed if it is."""
    n = table.version if at is None else at
    game = table.at_version(n)
    return {"table": table.id, "version": n, "latest": table.version, "turns": game.turns,
            "public": public_to_plain(game.view(0)),
            "scores": to_plain(game.scores()) if game.is_over else None,
            "bots": {seat_name(s): b for s, b in enumerate(table.bots) if b},
            "closed": table.closed, **_events(table, game.events, None, since)}


def public_text(table: Table, at: int | None = None, since: int = 0) -> str:
    """``public_snapshot`` as JSON text, made once per version, ``at`` and ``since``: a move
    wakes every board and page waiting on the table, and they all ask for the same body."""
    key = (table.version if at is None else at, since, table.version, table.closed)
    text = table.public.get(key)
    if text is None:
        text = table.public[key] = json.dumps(public_snapshot(table, at, since))
        while len(table.public) > PUBLIC_BODIES:
            table.public.popitem(last=False)
    table.public.move_to_end(key)
    return text


def _events(table: Table, events, seat: int | None, since: int) -> dict:
    part = events[since:]
    return {"event_count": len(events), "events": _narrated(table, since, part, seat),
            "event_data": to_plain(list(part))}


def _narrated(table: Table, since: int, part, seat: int | None) -> list[str]:
    """The events' sentences; a bot's turn at a seat says so ("B2 (played by the bot) ..."),
    so a learner whose seat the teacher handed to a bot sees what it did."""
    lines = narration.lines(part, seat)
    played = [v for v, b in enumerate(table.by_bot) if b]
    if not played:
        return lines
    marks = table.marks
    for v in played:
        for i in range(max(marks[v], since), min(marks[v + 1], since + len(lines))):
            name = seat_name(part[i - since].seat) if part[i - since].seat is not None else None
            if name and lines[i - since].startswith(name + " "):
                lines[i - since] = name + BY_BOT + lines[i - since][len(name):]
    return lines


# --- the store: every table of the class, refereed here and logged in ``table_log`` -------------
class TableStore:
    """Every table of the class, kept in memory (finished ones put away) and logged."""

    def __init__(self, conn):
        self.log = TableLog(conn)
        self.conn = conn
        self.shared = self.log.shared
        self.tables: dict[str, Table] = {}
        self.finished: OrderedDict[str, None] = OrderedDict()  # in memory, latest used last
        for tid in self.log.table_ids():
            self._load(tid)

    # --- start: replay every log -------------------------------------------------------------
    def _load(self, tid: str) -> Table | None:
        row = self.log.table(tid)
        if row is None:
            return None
        table = Table(tid, row.players, row.seed, None, row.keys, row.bots, row.owners,
                      number=row.number, reload=self._reload, trains=row.trains)
        self._catch_up(table)
        self.tables[tid] = table
        self._make_bots(table)
        self.play_bots(table)  # the server may have stopped between a move and its bots
        self._finish(table)
        return table

    def _reload(self, table: Table) -> None:
        """Bring a put-away table's game back from its log."""
        table._game, table._actions = table.dealt(), []
        table.marks, table.by_bot = [len(table._game.events)], []
        self._catch_up(table)
        self._make_bots(table)
        self._finish(table)

    def _finish(self, table: Table) -> None:
        """Keep a finished table in memory while it is among the latest used; put away the
        others (their waiters, if any, are answered first)."""
        if not (table.in_memory and table.over):
            return
        self.finished[table.id] = None
        self.finished.move_to_end(table.id)
        for tid in list(self.finished)[:-KEEP_FINISHED]:
            old = self.tables.get(tid)
            if old is not None and old.waiters == 0:
                old.put_away()
                del self.finished[tid]

    def _catch_up(self, table: Table) -> bool:
        """Apply the log's moves past the table's version, by number; whether there were any.
        A row the rules refuse, or a missing number, closes the table there."""
        moves = self.log.moves(table.id, table.version)
        for n, text, bot in moves:
            if table.closed is not None:
                break
            if n != table.version:
                self._close(table, f"move {table.version} is missing from its log")
                break
            try:
                action = action_from_plain(json.loads(text))
                table._game.apply(action)  # type: ignore[union-attr]
            except (TTRError, ValueError, TypeError) as exc:  # an engine changed, a bad row
                self._close(table, f"move {n} of its log cannot be played again "
                                   f"({clip(str(exc), 100)})")
                break
            table.applied(action, by_bot=bot is not None)
        return bool(moves)

    def _close(self, table: Table, why: str) -> None:
        table.closed = (f"This table is closed: {why}. Nothing more can be played at it; "
                        "your teacher can make a new table.")
        table.cache.clear()
        log.error("table %s: %s; the table is closed", table.id, why)

    def sync(self, table: Table) -> None:
        """Bring ``table`` up to the shared log: other servers' moves, seats handed to a bot or
        to another user. Wakes the seats waiting on it if anything changed."""
        if not table.in_memory:
            return  # it comes back from the log, as it is then, when asked for
        moved = self._catch_up(table)
        seats = self.log.seats(table.id)
        keys = [k for k, _, _ in seats]
        bots, owners = [b for _, b, _ in seats], [o for _, _, o in seats]
        handed = bots != table.bots or owners != table.owners or keys != table.keys
        if handed:
            table.keys, table.bots, table.owners = keys, bots, owners
            table.cache.clear()
            table.public.clear()
            self._make_bots(table)
        if moved or handed:
            table.notify()

    async def listen(self) -> None:
        """Follow the other servers' writes for as long as the server runs."""
        await self.log.listen(self.heard, lambda: list(self.tables))

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
            if table.in_memory:
                self.play_bots(table)
        except Exception:  # noqa: BLE001 - one table's trouble must not stop the listening
            log.exception("table %s: could not follow the log", tid)

    # --- tables ------------------------------------------------------------------------------
    def create(self, players: int, seed: int | None = None, bots: dict | None = None,
               trains: int = TRAINS_PER_PLAYER) -> Table:
        """A new table of ``players``: game number ``seed`` (a public name, dealt through the
        keyed door), or a secret random deal; ``bots`` maps seats to presets (those seats
        have no key until a learner has them); ``trains`` per player (a short game: fewer)."""
        if players not in PLAYER_COUNTS:
            raise BadTableArgument("players: Team Asia is played by 4 or 6 players (C2)")
        fewest, most = SHORT_GAME_TRAINS
        if type(trains) is not int or not fewest <= trains <= most:
            raise BadTableArgument(f"trains: trains per player, a whole number from {fewest} to "
                                   f"{most} (C3 and its short-game policy)")
        if seed is not None and (type(seed) is not int or not 0 <= seed <= MAX_SEED):
            raise BadTableArgument(f"the game number is a whole number from 0 to {MAX_SEED}")
        # A game number is a public name: the deal is keyed by it (``deals``, the lessons'
        # door), so the same number gives every table of this server one game, and nobody
        # who knows the number (or sees A1's cards) can deal it with ``Game.new(seed=...)``.
        dealt = deals.unnamed() if seed is None else deals.named(seed, players)
        bots = bots or {}
        tid = secrets.token_hex(4)
        while tid in self.tables:
            tid = secrets.token_hex(4)
        names = [bots.get(seat_name(s)) for s in range(players)]
        # 128 random bits a seat; a bot's seat has no key (no live link) until the teacher
        # hands it to a learner (``set_bot``), so no link opens a seat a bot plays
        keys: list[str | None] = [None if names[s] else secrets.token_urlsafe(16)
                                  for s in range(players)]
        self.log.new_table(TableRow(tid, players, seed, dealt.seed, keys, names,
                                    [None] * players, trains))
        table = Table(tid, players, dealt.seed, None, keys, names, number=seed,
                      reload=self._reload, trains=trains)
        self.tables[tid] = table
        self._make_bots(table)
        self.play_bots(table)
        return table

    def get(self, tid: str) -> Table:
        """The table ``tid`` (``NoSuchTable`` if there is none)."""
        table = self.tables.get(tid)
        if table is None and self.shared:
            table = self._load(tid)  # made by another server
        elif table is not None and self.shared:
            self.sync(table)  # read our own writes wherever they were made
        if table is None:
            raise NoSuchTable("no such table")
        if table.id in self.finished:
            self.finished.move_to_end(table.id)
        elif table.in_memory and self._bots_due(table):
            self.play_bots(table)  # their last moves were not kept (a full disk): again now
        return table

    @staticmethod
    def _bots_due(table: Table) -> bool:
        game = table.game
        return (table.closed is None and not game.is_over
                and table.bots[game.to_move] is not None)

    def summaries(self) -> list[dict]:
        """Every table as the teacher's list shows it, without bringing a put-away game back."""
        return [{"table": t.id, "players": t.players, "version": t.version, "over": t.over,
                 "closed": t.closed, "keys": list(t.keys), "bots": list(t.bots),
                 "owners": list(t.owners)} for t in self.tables.values()]

    def set_bot(self, table: Table, seat: int, preset: str | None) -> None:
        """Hand ``seat`` to the bot ``preset`` (it plays at once if it is the seat's move), or
        back to its learner (``None``). The seat's key stays the same; a seat that never had
        one (made as a bot's) gets a fresh key when it goes to a learner."""
        if preset is not None and preset not in PRESETS:
            raise BadTableArgument(f"bot: one of {', '.join(PRESETS)}, or null for a learner")
        if table.closed is not None:
            raise TableClosed(table.closed)
        key = table.keys[seat]
        if preset is None and key is None:
            key = secrets.token_urlsafe(16)
        self.log.set_bot(table.id, seat, preset, key)
        table.bots[seat], table.keys[seat] = preset, key
        table.cache.pop(seat, None)
        table.public.clear()
        if table.in_memory:
            self._make_bots(table)
        table.notify()
        if table.in_memory:
            self.play_bots(table)

    def sit(self, table: Table, seat: int, user: str) -> None:
        """On a Hub: ``user`` sits at ``seat``, the first to open its link; anyone else is
        refused (``NotYourSeat``), even with the link."""
        owner = table.owners[seat]
        if owner is None:
            owner = table.owners[seat] = self.log.sit(table.id, seat, user)
        if owner != user:
            raise NotYourSeat(f"{seat_name(seat)} is {owner}'s seat: ask your teacher for "
                              "your own link")

    def move_seat(self, table: Table, seat: int, user: str | None) -> None:
        """The teacher gives ``seat`` to Hub user ``user`` (``None``: to whoever opens its
        link first)."""
        self.log.move_seat(table.id, seat, user)
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
            if table.closed is not None:
                raise TableClosed(table.closed)
            game = table.game
            if table.bots[seat] is not None:
                raise WrongPhase("C2", f"a bot plays {seat_name(seat)} now: your teacher can "
                                       "hand the seat back to you")
            if game.is_over:
                raise WrongPhase("E1", "the game is over: nothing more can be played")
            if game.to_move != seat:
                raise WrongPhase("C2", f"it is {seat_name(game.to_move)}'s move, not yours")
            game.apply(action)  # IllegalMove: nothing changed
            table.applied(action)
            try:
                self._log(table, [(seat, action, None)])
            except Conflict:
                self.sync(table)
                continue
            return table.version
        raise MovedOn("the table moved on meanwhile: look again and play your move")

    def play_bots(self, table: Table) -> int:
        """Bots play while the seat to move is theirs; their moves are logged together. If
        another server logged moves first, this one reads them and leaves the bots to it."""
        if table.closed is not None or not table.in_memory:
            return 0
        game, done = table.game, list[tuple[int, Any, Any]]()
        while not game.is_over and table.bots[game.to_move] is not None and len(done) < BOT_STEPS:
            seat = game.to_move
            bot = table.players_of_bots[seat]
            action = decide(game, bot)  # a LightView, closed before the action is applied
            game.apply(action)
            table.applied(action, by_bot=True)
            done.append((seat, action, table.bots[seat]))
        if done:
            try:
                self._log(table, done)
            except (Conflict, LogUnavailable) as exc:
                if isinstance(exc, Conflict):
                    self.sync(table)
                else:  # the bots play again at the next move, once there is room
                    log.error("table %s: the bots' moves were not kept (%s)", table.id, exc)
                return 0
        return len(done)

    def _log(self, table: Table, moves: list) -> None:
        """Append ``moves`` (already applied to the game) to the log, then wake the waiters. If
        the database refuses, the game goes back to the log's last move: memory never runs
        ahead of it (``Conflict`` if another server wrote these move numbers first,
        ``LogUnavailable`` if the disk is full)."""
        start = table.version - len(moves)
        rows = [(seat, json.dumps(to_plain(a)), bot) for seat, a, bot in moves]
        try:
            self.log.append(table.id, start, rows)
        except Exception:
            table.undo_to(start)
            raise
        table.notify()
        self._finish(table)

    async def wait(self, table: Table, after: int, timeout: float,
                   seat: int | None = None) -> None:
        """Return when the table's version is no longer ``after`` (at once if it is not), or
        after ``timeout`` seconds. ``seat`` is the waiting seat, None for a public page (no
        key: anyone may open one). Each counts against its own bound, never the other's:
        ``TableBusy`` past ``MAX_PUBLIC_WAITERS`` public pages, or past ``MAX_SEAT_WAITERS``
        requests of one seat."""
        if table.version != after:
            return
        now = table.waiting.get(seat, 0)
        if seat is None and now >= MAX_PUBLIC_WAITERS:
            raise TableBusy(f"{MAX_PUBLIC_WAITERS} pages are already waiting on this table: "
                            "close a few of its boards or look again in a minute")
        if seat is not None and now >= MAX_SEAT_WAITERS:
            raise TableBusy(f"{MAX_SEAT_WAITERS} requests of seat {seat_name(seat)} are already "
                            "waiting on this table: close the seat's other pages or look again "
                            "in a minute")
        changed = table.changed
        table.waiting[seat] = now + 1
        try:
            await asyncio.wait_for(changed.wait(), timeout)
        except asyncio.TimeoutError:
            pass
        finally:
            table.waiting[seat] -= 1
