"""PostgreSQL's placeholders (issue 30, finding 10): the server writes every query once with
SQLite's ``?``; ``db.PgConnection`` hands psycopg ``%s`` for each ``?`` that is a placeholder
and never touches one inside a string literal, a quoted name or a comment (a ``%`` there is
doubled, as psycopg reads every ``%`` of a query that has parameters).

No PostgreSQL here: psycopg's connection is replaced by one that records what it is sent (the
same queries on a real cluster: ``tests/test_postgres_store.py``).
"""

from __future__ import annotations

import pytest

from ttrlib.server.db import PgConnection


class Recorder:
    """Stands for psycopg's connection: what ``execute`` and ``executemany`` were sent."""

    closed = False

    def __init__(self):
        self.sent: list[tuple[str, object]] = []

    def execute(self, sql, params=None):
        self.sent.append((sql, params))

    def cursor(self):
        return self

    def executemany(self, sql, rows):
        self.sent.append((sql, rows))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def pg_sent(sql: str, params=()) -> str:
    conn = PgConnection.__new__(PgConnection)  # no database: only the translation is tested
    conn.conn = Recorder()
    conn.execute(sql, params)
    return conn.conn.sent[0][0]


@pytest.mark.parametrize("sql, params, sent", [
    ("SELECT 'why?', ?", ("x",), "SELECT 'why?', %s"),
    ("SELECT 'it''s ?' WHERE a = ?", (1,), "SELECT 'it''s ?' WHERE a = %s"),
    ('SELECT "who?" FROM t WHERE a = ? AND b = ?', (1, 2),
     'SELECT "who?" FROM t WHERE a = %s AND b = %s'),
    ("SELECT ? -- why?\n, 'x'", (1,), "SELECT %s -- why?\n, 'x'"),
    ("SELECT /* a ? here */ ?", (1,), "SELECT /* a ? here */ %s"),
    ("SELECT $$a?$$, $t$b'?$t$, ?", (1,), "SELECT $$a?$$, $t$b'?$t$, %s"),
    ("SELECT $t$ $$ ? $t$, ?", (1,), "SELECT $t$ $$ ? $t$, %s"),
    ("SELECT '100%?', ? || '%'", ("x",), "SELECT '100%%?', %s || '%%'"),
    ("SELECT 'why?', '100%'", (), "SELECT 'why?', '100%'"),  # no parameters: sent as written
])
def test_only_placeholders_outside_literals_become_percent_s(sql, params, sent):
    assert pg_sent(sql, params) == sent


def test_executemany_translates_the_same_way():
    conn = PgConnection.__new__(PgConnection)
    conn.conn = Recorder()
    conn.executemany("INSERT INTO t VALUES (?, 'a?')", [(1,), (2,)])
    assert conn.conn.sent == [("INSERT INTO t VALUES (%s, 'a?')", [(1,), (2,)])]
