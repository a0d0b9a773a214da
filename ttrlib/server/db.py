"""The server's store: SQLite in WAL mode by default, PostgreSQL (psycopg 3) for a school.

``connect(target)`` takes a file path (SQLite) or a ``postgresql://`` address. Both give an
object with the subset of ``sqlite3.Connection`` the modules use (``execute`` with ``?``
placeholders, ``executemany``) and a ``dialect`` ("sqlite" or "postgresql"); PostgreSQL's
connection translates the placeholders (``pg_query``: only those outside string literals,
quoted names and comments), so every query is written once.

Each module of the server owns its tables and migrates them itself: ``migrate(conn, "tables",
STEPS)`` runs the steps not yet applied (their count is kept per module in ``schema``), so the
modules never edit one shared schema list. A step is SQL for both, or ``{"sqlite": ...,
"postgresql": ...}`` where the two differ (PostgreSQL's INTEGER is 32 bits and its REAL 4 bytes;
an id counts up by IDENTITY, not by ``INTEGER PRIMARY KEY``).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from pathlib import Path

DB_NAME = "class.sqlite3"
SCHEMA = "CREATE TABLE IF NOT EXISTS schema (module TEXT PRIMARY KEY, version INTEGER)"
#: the PostgreSQL channel on which every write to a table is announced (LISTEN/NOTIFY)
CHANNEL = "ttr_tables"
CONNECT_S = 10  # a database that does not answer by then fails the request, not the server
MIGRATION_LOCK = 0x7474726C  # "ttrl": one server at a time migrates a shared database


# What psycopg must not read as a placeholder, in the order PostgreSQL reads a query: a string
# literal ('' inside it is a quote), a quoted name, a comment, a dollar-quoted string; else a
# ``?`` (a placeholder) or a ``%`` (psycopg's own marker). One pass, so a ``?`` inside a literal
# is never taken for a placeholder, as ``str.replace`` took it (ttrlib writes no E'' strings,
# whose backslash escapes this does not read).
_PG_TOKENS = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|/\*.*?\*/"""
                        r"""|\$\$.*?\$\$|\$([A-Za-z_]\w*)\$.*?\$\1\$|[?%]""", re.S)


def pg_query(sql: str, has_params: bool) -> str:
    """``sql`` written with SQLite's ``?`` placeholders as psycopg takes it: each ``?`` outside
    a literal, quoted name or comment becomes ``%s``. With parameters psycopg reads every ``%``
    of the text, literals included, so each is doubled; without them it sends the text as is."""
    if not has_params:
        return sql

    def one(match: re.Match) -> str:
        token = match.group(0)
        return "%s" if token == "?" else token.replace("%", "%%")

    return _PG_TOKENS.sub(one, sql)


def is_postgres(target: str | Path) -> bool:
    return str(target).startswith(("postgresql://", "postgres://"))


def connect(target: str | Path):
    """A connection to ``target``: a ``postgresql://`` address or a SQLite file."""
    return PgConnection(str(target)) if is_postgres(target) else _sqlite(target)


def dialect(conn) -> str:
    return getattr(conn, "dialect", "sqlite")


class StoreRefused(Exception):
    """The store cannot be used (damaged, foreign, newer than this code, out of reach): one
    sentence saying which file and what to do; the server stops at start with it."""


def _sqlite(path: str | Path) -> sqlite3.Connection:
    """A connection in WAL mode (readers never block the writer; a crash loses no committed
    row) that waits up to 10 s for a lock instead of failing with "database is locked".
    A file that is no database, fails SQLite's quick check or holds tables ttrlib did not
    make is refused (``StoreRefused``) before anything is written to it."""
    existed = Path(path).exists() and Path(path).stat().st_size > 0
    conn = sqlite3.connect(str(path), timeout=10, isolation_level=None,
                           check_same_thread=False)
    try:
        if existed:
            problems = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise sqlite3.DatabaseError(problems[0])
            names = {r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()}
            if names and "schema" not in names:
                raise StoreRefused(f"{path} holds tables ttrlib did not make "
                                   f"({', '.join(sorted(names)[:3])}): it is not a class's "
                                   "database; give --data another folder")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable at each checkpoint
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(SCHEMA)
    except sqlite3.DatabaseError as exc:
        conn.close()
        if isinstance(exc, sqlite3.OperationalError):
            raise StoreRefused(f"{path} cannot be opened for writing ({exc}): give the "
                               "server a folder it may write in") from None
        raise StoreRefused(f"{path} is damaged ({exc}): put back a copy from a backup, or "
                           "move it away to start an empty class") from None
    return conn


class PgConnection:
    """A psycopg 3 connection in autocommit mode (``transaction`` opens each write) that takes
    the same ``?`` queries as SQLite. The server's one thread owns it."""

    dialect = "postgresql"
    IntegrityError: type[Exception]

    def __init__(self, url: str):
        try:
            import psycopg
        except ImportError:
            raise SystemExit("--db postgresql://... needs psycopg 3: pip install "
                             "'psycopg[binary]'") from None
        self.url = url
        self.conn = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_S)
        self.IntegrityError = psycopg.errors.IntegrityError
        self.conn.execute(SCHEMA)

    def _live(self):
        """The connection, made again if the last one was lost (a database restarted): the
        request that met the loss failed, the next ones work."""
        if self.conn.closed:
            import psycopg

            self.conn = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_S)
        return self.conn

    def execute(self, sql: str, params: Sequence = ()):
        return self._live().execute(pg_query(sql, bool(params)), params or None)

    def executemany(self, sql: str, rows) -> None:
        with self._live().cursor() as cur:
            cur.executemany(pg_query(sql, True), rows)

    def close(self) -> None:
        self.conn.close()


def integrity_error(conn) -> type[Exception]:
    """The exception a broken constraint raises on ``conn`` (a move number taken twice)."""
    return conn.IntegrityError if dialect(conn) == "postgresql" else sqlite3.IntegrityError


def migrate(conn, module: str, steps: Sequence) -> None:
    """Apply the SQL ``steps`` of ``module`` that this database has not seen yet, in order.
    Steps are only ever appended: a shipped step is never edited. Each step reads the version
    inside its own transaction (under a lock), so two servers starting on one database apply
    it once."""
    while True:
        with transaction(conn):
            if dialect(conn) == "postgresql":
                conn.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            row = conn.execute("SELECT version FROM schema WHERE module = ?",
                               (module,)).fetchone()
            done = row[0] if row else 0
            if done > len(steps):
                raise StoreRefused(f"the database was written by a newer ttrlib (its {module} "
                                   f"are at step {done}, this ttrlib knows {len(steps)}): "
                                   "update ttrlib on this machine first")
            if done == len(steps):
                return
            step = steps[done]
            sql = step[dialect(conn)] if isinstance(step, dict) else step
            for statement in _statements(sql):  # not executescript: it would commit mid-way
                conn.execute(statement)
            conn.execute("INSERT INTO schema VALUES (?, ?) ON CONFLICT(module) "
                         "DO UPDATE SET version = excluded.version", (module, done + 1))


class transaction:
    """``with transaction(conn):`` one atomic write (SQLite's BEGIN IMMEDIATE takes the write
    lock at once, so two processes never deadlock upgrading a read lock)."""

    def __init__(self, conn):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE" if dialect(self.conn) == "sqlite" else "BEGIN")
        return self.conn

    def __exit__(self, kind, exc, tb):
        self.conn.execute("COMMIT" if kind is None else "ROLLBACK")
        return False


def notify(conn, payload: str) -> None:
    """Announce a write to ``payload``'s table to the other servers on this database (sent on
    COMMIT, so inside a transaction a listener never hears of a write it cannot read yet)."""
    if dialect(conn) == "postgresql":
        conn.execute("SELECT pg_notify(?, ?)", (CHANNEL, payload))


def _statements(sql: str) -> list[str]:
    return [s.strip() for s in sql.split(";") if s.strip()]
