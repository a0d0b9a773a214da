"""A data folder the class server cannot use is refused at start (issue 30, finding 6): one
sentence on stderr, an exit code other than 0, no traceback, and nothing written over. These
start real processes (the exit code and stderr are the point); each refusal comes at once."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from server_harness import free_port

from ttrlib.server import db
from ttrlib.server.table_store import TableStore

TOKEN = "ab" * 32  # a teacher token as ttrlib makes them (64 hex digits)


def start(data: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ttrlib.server", "--port", str(free_port()),
                           "--data", str(data), "--quiet"], capture_output=True, text=True,
                          timeout=120)


def a_class(data: Path, tables: int = 30) -> Path:
    """A data folder with a real class: its teacher token and a database of ``tables``."""
    data.mkdir(parents=True)
    (data / "teacher-token").write_text(TOKEN)
    store = TableStore(db.connect(data / db.DB_NAME))
    for _ in range(tables):
        store.create(4, None, {"A2": "greedy", "B1": "greedy", "B2": "greedy"})
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.conn.close()
    return data / db.DB_NAME


def zero_length(tmp: Path) -> tuple[Path, bytes]:
    path = a_class(tmp / "d", 0)
    path.write_bytes(b"")
    return tmp / "d", b""


def zeroed(tmp: Path) -> tuple[Path, bytes]:
    path = a_class(tmp / "d", 0)
    path.write_bytes(bytes(8192))
    return tmp / "d", bytes(8192)


def truncated(tmp: Path) -> tuple[Path, bytes]:
    path = a_class(tmp / "d")
    cut = path.read_bytes()[: path.stat().st_size // 2]
    path.write_bytes(cut)
    return tmp / "d", cut


def foreign(tmp: Path) -> tuple[Path, bytes]:
    (tmp / "d").mkdir()
    with sqlite3.connect(tmp / "d" / db.DB_NAME) as conn:
        conn.execute("CREATE TABLE customers (name TEXT)")
        conn.execute("INSERT INTO customers VALUES ('ada')")
    conn.close()
    return tmp / "d", (tmp / "d" / db.DB_NAME).read_bytes()


def newer(tmp: Path) -> tuple[Path, bytes]:
    path = a_class(tmp / "d", 1)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE schema SET version = 99 WHERE module = 'tables'")
    conn.close()
    return tmp / "d", path.read_bytes()


def unwritable(tmp: Path) -> tuple[Path, bytes]:
    # a folder inside a file: no user may make it (root ignores a read-only folder's mode)
    (tmp / "a-file").write_text("not a folder")
    return tmp / "a-file" / "d", b""


@pytest.mark.parametrize("make, words", [
    (zero_length, "is empty, but this folder held a class"), (zeroed, "is damaged"),
    (truncated, "damaged"), (foreign, "holds tables ttrlib did not make"),
    (newer, "newer ttrlib"), (unwritable, "cannot be used")])
def test_a_data_folder_it_cannot_use_is_refused_at_start_with_one_sentence(tmp_path, make,
                                                                           words):
    data, before = make(tmp_path)
    done = start(data)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("ttrlib class server: ") and len(lines[0]) < 400
    if make is not unwritable:
        assert (data / db.DB_NAME).read_bytes() == before  # nothing written over
