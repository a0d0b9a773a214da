"""The tables' log: the SQL of tables, seats and moves, their migrations, and a listener.

The log is the truth (the referee, ``referee``, replays it): a table's row (its players, its
public game number and its deal's seed), one row per seat (its key, the bot playing it, on a
Hub its user) and one row per action, numbered from 0. Rows are only ever appended; a move's row
is written before the move is answered.

This module speaks SQL only: it knows no game and no HTTP status. A write the database cannot
take (a full disk) raises ``LogUnavailable`` with a sentence and changes nothing; a move number
another server took first raises ``Conflict``. ``listen(callback)`` follows the other servers'
writes on PostgreSQL and hands each table id to ``callback``.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..errors import TableError
from ..state import TRAINS_PER_PLAYER
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
    # Trains per player (C3's short-game policy); NULL on the tables made before this step and
    # on full games: 27 (C3).
    "ALTER TABLE tables ADD COLUMN trains INTEGER",
]
NO_KEY = ""  # a seat's key column before the seat has one (a bot's seat: no live link)


class Conflict(Exception):
    """Another server wrote the same move number first (the log has moved on)."""


class LogUnavailable(TableError):
    """The database cannot take a write now (a full disk); nothing was written."""


@dataclass
class TableRow:
    """A table as its log keeps it (before any move)."""

    id: str
    players: int
    number: int | None  # the public game number, None for a random deal
    seed: int  # the deal's seed
    keys: list[str | None]
    bots: list[str | None]
    owners: list[str | None]
    trains: int = TRAINS_PER_PLAYER  # per player: fewer for a short game (C3's policy)


def _written(conn):
    """``with _written(conn):`` one write; a full disk becomes ``LogUnavailable``."""
    return _Write(conn)


class _Write(db.transaction):
    def __exit__(self, kind, exc, tb):
        super().__exit__(kind, exc, tb)
        if kind is not None and _is_full(exc):
            raise LogUnavailable("the class's database cannot be written (the disk is full): "
                                 "nothing was lost, but nothing new is kept until your teacher "
                                 "frees some space") from exc
        return False


def _is_full(exc) -> bool:
    # SQLite says "database or disk is full"; PostgreSQL's DiskFull is SQLSTATE 53100
    return ((isinstance(exc, sqlite3.OperationalError) and "full" in str(exc))
            or getattr(exc, "sqlstate", None) == "53100")


class TableLog:
    """The log of every table of the class in one database (``db.connect``)."""

    def __init__(self, conn):
        self.conn = conn
        db.migrate(conn, "tables", STEPS)
        self.shared = db.dialect(conn) == "postgresql"  # other servers may write the log

    # --- reading -----------------------------------------------------------------------------
    def table_ids(self) -> list[str]:
        return [tid for (tid,) in self.conn.execute(
            "SELECT id FROM tables ORDER BY created").fetchall()]

    def table(self, tid: str) -> TableRow | None:
        row = self.conn.execute("SELECT players, seed, deal, trains FROM tables WHERE id = ?",
                                (tid,)).fetchone()
        if row is None:
            return None
        players, seed, deal, trains = row
        number, seed = (None, seed) if deal is None else (None if seed < 0 else seed, int(deal))
        seats = self.conn.execute("SELECT key, bot, owner FROM seats WHERE table_id = ? "
                                  "ORDER BY seat", (tid,)).fetchall()
        return TableRow(tid, players, number, seed, [k or None for k, _, _ in seats],
                        [b for _, b, _ in seats], [o for _, _, o in seats],
                        TRAINS_PER_PLAYER if trains is None else trains)

    def seats(self, tid: str) -> list[tuple]:
        """``(key, bot, owner)`` of every seat, in order."""
        return [(k or None, b, o) for k, b, o in self.conn.execute(
            "SELECT key, bot, owner FROM seats WHERE table_id = ? ORDER BY seat",
            (tid,)).fetchall()]

    def moves(self, tid: str, start: int) -> list[tuple[int, str, str | None]]:
        """``(n, action as JSON, bot)`` of the moves numbered ``start`` on, by number (the
        caller checks that the numbers follow each other: a missing row is a damaged log)."""
        return self.conn.execute("SELECT n, action, bot FROM moves WHERE table_id = ? AND n >= ? "
                                 "ORDER BY n", (tid, start)).fetchall()

    # --- writing -----------------------------------------------------------------------------
    def new_table(self, row: TableRow) -> None:
        with _written(self.conn):
            self.conn.execute("INSERT INTO tables (id, players, seed, created, deal, trains) "
                              "VALUES (?, ?, ?, ?, ?, ?)",
                              (row.id, row.players, -1 if row.number is None else row.number,
                               time.time(), str(row.seed),
                               None if row.trains == TRAINS_PER_PLAYER else row.trains))
            self.conn.executemany("INSERT INTO seats (table_id, seat, key, bot) "
                                  "VALUES (?, ?, ?, ?)",
                                  [(row.id, s, row.keys[s] or NO_KEY, row.bots[s])
                                   for s in range(row.players)])
            db.notify(self.conn, row.id)

    def append(self, tid: str, start: int, moves: Sequence[tuple[int, str, str | None]]) -> None:
        """Write ``moves`` (seat, action as JSON, bot) as moves ``start``, ``start + 1``, ...;
        ``Conflict`` if another server wrote one of those numbers first."""
        now = time.time()
        rows = [(tid, start + i, seat, text, bot, now) for i, (seat, text, bot) in
                enumerate(moves)]
        try:
            with _written(self.conn):
                self.conn.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)", rows)
                db.notify(self.conn, tid)
        except db.integrity_error(self.conn) as exc:
            raise Conflict(tid) from exc

    def set_bot(self, tid: str, seat: int, preset: str | None, key: str | None) -> None:
        with _written(self.conn):
            self.conn.execute("UPDATE seats SET bot = ?, key = ? WHERE table_id = ? AND seat = ?",
                              (preset, key or NO_KEY, tid, seat))
            db.notify(self.conn, tid)

    def sit(self, tid: str, seat: int, user: str) -> str | None:
        """``user`` sits at ``seat`` unless someone does already; who sits there now."""
        with _written(self.conn):
            # the first to sit wins, on whichever server (owner IS NULL in the same write)
            self.conn.execute("UPDATE seats SET owner = ? WHERE table_id = ? AND seat = ? "
                              "AND owner IS NULL", (user, tid, seat))
            owner = self.conn.execute("SELECT owner FROM seats WHERE table_id = ? AND seat = ?",
                                      (tid, seat)).fetchone()[0]
            db.notify(self.conn, tid)
        return owner

    def move_seat(self, tid: str, seat: int, user: str | None) -> None:
        with _written(self.conn):
            self.conn.execute("UPDATE seats SET owner = ? WHERE table_id = ? AND seat = ?",
                              (user, tid, seat))
            db.notify(self.conn, tid)

    # --- the other servers' writes -----------------------------------------------------------
    async def listen(self, callback: Callable[[str], None], known: Callable[[], list[str]]):
        """Follow the other servers' writes (PostgreSQL's LISTEN) for as long as the server
        runs: ``callback(table id)`` for each; after a lost connection, ``callback`` for every
        table of ``known()`` (whatever was missed meanwhile)."""
        import psycopg

        while True:
            try:
                aconn = await psycopg.AsyncConnection.connect(self.conn.url, autocommit=True)
                async with aconn:
                    await aconn.execute(f"LISTEN {db.CHANNEL}")
                    for tid in known():
                        callback(tid)
                    async for note in aconn.notifies():
                        if self.conn.conn.closed or note.pid != self.conn.conn.info.backend_pid:
                            callback(note.payload)  # another server's write
            except psycopg.OperationalError as exc:
                log.warning("lost the database's notifications (%s); listening again in 1 s",
                            exc)
                await asyncio.sleep(1)
