"""The server's SQLite store: WAL mode, one connection owned by the server's one thread.

Each module of the server owns its tables and migrates them itself: ``migrate(conn, "tables",
STEPS)`` runs the steps not yet applied (their count is kept per module in ``schema``), so the
modules never edit one shared schema list.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

DB_NAME = "class.sqlite3"


def connect(path: str | Path) -> sqlite3.Connection:
    """A connection in WAL mode (readers never block the writer; a crash loses no committed
    row) that waits up to 10 s for a lock instead of failing with "database is locked"."""
    conn = sqlite3.connect(str(path), timeout=10, isolation_level=None,
                           check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable at each checkpoint
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("CREATE TABLE IF NOT EXISTS schema (module TEXT PRIMARY KEY, version INTEGER)")
    return conn


def migrate(conn: sqlite3.Connection, module: str, steps: Sequence[str]) -> None:
    """Apply the SQL ``steps`` of ``module`` that this database has not seen yet, in order.
    Steps are only ever appended: a shipped step is never edited."""
    row = conn.execute("SELECT version FROM schema WHERE module = ?", (module,)).fetchone()
    done = row[0] if row else 0
    for number, sql in enumerate(steps[done:], start=done + 1):
        with transaction(conn):
            for statement in _statements(sql):  # not executescript: it would commit mid-way
                conn.execute(statement)
            conn.execute("INSERT INTO schema VALUES (?, ?) ON CONFLICT(module) "
                         "DO UPDATE SET version = excluded.version", (module, number))


class transaction:
    """``with transaction(conn):`` one atomic write (BEGIN IMMEDIATE takes the write lock at
    once, so two processes never deadlock upgrading a read lock)."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, kind, exc, tb):
        self.conn.execute("COMMIT" if kind is None else "ROLLBACK")
        return False


def _statements(sql: str) -> list[str]:
    return [s.strip() for s in sql.split(";") if s.strip()]
