"""Issue 30's findings on the table engine room, on a class server in this process
(``server_harness.in_process``: ``make_app`` on a temporary data folder, no process start-up).

- finding 4: a body nested 1,000 deep is 400 naming the body at every JSON endpoint of the
  tables; no log line (access log, tornado's warnings and errors) holds a query string or key;
- finding 5: a log that stops on replay (a refused, damaged or missing row) closes its table
  with a sentence that seats, the public and the teacher read and moves are refused with;
- finding 6 (its running half): a full disk answers 503 with a sentence and loses nothing;
- finding 3: the public body is made once per version for every waiting page, sent from
  ``since``; at most ``MAX_PUBLIC_WAITERS`` public pages wait on one table (then 503 with a
  sentence), and they never shut a seat's long-poll out (a seat has its own bound);
- finding 9: finished tables leave memory and come back from the log, the same.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time

import pytest
from server_harness import in_process

from ttrlib.server import referee
from ttrlib.server.table_api import read_new_table
from ttrlib.server.table_store import Refusal

DEEP = b"[" * 1000 + b"]" * 1000
ALL_BOTS = ["A1", "A2", "B1", "B2"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = in_process(tmp_path_factory.mktemp("referee") / "data")
    yield s
    s.stop()


def seat_path(table: dict, name: str, rest: str = "", query: str = "") -> str:
    return (f"/api/tables/{table['table']}/seats/{name}{rest}"
            f"?key={table['seats'][name]['key']}{query}")


def first_legal(server, table: dict, name: str = "A1"):
    return server.request("GET", seat_path(table, name))[1]["legal"][0]


# --- finding 4: bodies and logs ----------------------------------------------------------------
def test_a_body_nested_1000_deep_is_400_naming_the_body_at_every_json_endpoint(server):
    table = server.new_table(players=4, seed=1)
    tid = table["table"]
    for path, teacher in [("/api/tables", True), (seat_path(table, "A1", "/actions"), False),
                          (f"/api/tables/{tid}/seats/A2/bot", True),
                          (f"/api/tables/{tid}/seats/A2/owner", True)]:
        status, answer, _ = server.request("POST", path, raw=DEEP,
                                           token=server.token if teacher else None)
        assert status == 400 and "the body" in answer["error"], (path, answer)
    assert server.request("GET", f"/api/tables/{tid}/public")[1]["version"] == 0


class Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(self.format(record))


@pytest.fixture
def log_lines():
    """Every log line of the process (tornado's access log included) while the test runs."""
    lines, root = Lines(), logging.getLogger()
    lines.setFormatter(logging.Formatter("%(name)s %(message)s"))
    levels = {name: logging.getLogger(name).level for name in
              ("", "tornado.access", "tornado.application", "tornado.general")}
    for name in levels:
        logging.getLogger(name).setLevel(logging.DEBUG)
    root.addHandler(lines)
    yield lines.lines
    root.removeHandler(lines)
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def test_no_log_line_holds_a_query_string_or_a_key(server, log_lines):
    table = server.new_table(players=4, seed=2)
    key = table["seats"]["A1"]["key"]
    tid = table["table"]
    asked = [("GET", seat_path(table, "A1"), None),  # 200
             ("GET", f"/api/tables/{tid}/seats/A1?key=%ff%fe", None),  # invalid UTF-8: 400
             ("GET", f"/api/tables/{tid}/seats/A1?key={key}x", None),  # 403
             ("GET", f"/api/tables/{tid}/seats/A1?key={key}&after=x", None),  # 400
             ("POST", seat_path(table, "A1", "/actions"), DEEP),  # 400
             ("POST", seat_path(table, "A2", "/actions"), b'{"type": "Pass"}'),  # 400 or 409
             ("GET", f"/api/tables/ffffffff/seats/A1?key={key}", None),  # 404
             ("GET", f"/teacher?token={server.token}x", None)]  # 403
    for method, path, raw in asked:
        server.request(method, path, raw=raw)
    time.sleep(0.2)  # the access log line is written as the answer ends
    assert len([line for line in log_lines if "tornado.access" in line]) >= len(asked)
    for line in log_lines:
        assert "?" not in line and key not in line and server.token not in line, line
        assert "%ff" not in line.lower() and "\\xff" not in line, line


# --- finding 5: a log that stops on replay -----------------------------------------------------
def _played(tmp_path, moves: int = 6) -> tuple[dict, list]:
    """A table of A1 and three bots with ``moves`` of A1's moves; its data folder is then
    stopped. The rows of its log."""
    s = in_process(tmp_path)
    try:
        table = s.new_table(players=4, seed=3, bots=["A2", "B1", "B2"])
        for _ in range(moves):
            assert s.request("POST", seat_path(table, "A1", "/actions"),
                             first_legal(s, table))[0] == 200
            time.sleep(0.05)  # the bots' answer is sent after A1's
    finally:
        s.stop()
    with sqlite3.connect(tmp_path / "class.sqlite3") as conn:
        rows = conn.execute("SELECT n, action FROM moves ORDER BY n").fetchall()
    return table, rows


@pytest.mark.parametrize("damage", ["refused", "not json", "missing"])
def test_a_log_that_stops_on_replay_closes_its_table_with_a_sentence(tmp_path, damage):
    table, rows = _played(tmp_path / "d")
    n = len(rows) // 2
    with sqlite3.connect(tmp_path / "d" / "class.sqlite3") as conn:
        if damage == "missing":
            conn.execute("DELETE FROM moves WHERE n = ?", (n,))
        else:  # a move the rules refuse (a claim of a route nobody can pay), or junk
            text = (json.dumps({"type": "ClaimRoute", "route": "R1", "color": "red",
                                "locomotives": 0}) if damage == "refused" else "{damaged")
            conn.execute("UPDATE moves SET action = ? WHERE n = ?", (text, n))
    s = in_process(tmp_path / "d")
    try:
        tid = table["table"]
        a1 = s.request("GET", seat_path(table, "A1"))[1]
        public = s.request("GET", f"/api/tables/{tid}/public")[1]
        listed = s.request("GET", "/api/tables", token=s.token)[1]["tables"]
        sentence = a1["closed"]
        assert sentence and f"move {n}" in sentence and "closed" in sentence
        assert a1["version"] == public["version"] == n and public["closed"] == sentence
        assert a1["legal"] == [] and [t["closed"] for t in listed] == [sentence]
        for _ in range(2):  # refused with the sentence, every time: not "the table moved on"
            status, answer, _ = s.request("POST", seat_path(table, "A1", "/actions"),
                                          json.loads(rows[0][1]))  # a well-formed action
            assert (status, answer["error"]) == (409, sentence), answer
        status, answer, _ = s.request("POST", f"/api/tables/{tid}/seats/A2/bot", {"bot": None},
                                      token=s.token)
        assert (status, answer["error"]) == (409, sentence)
    finally:
        s.stop()


# --- finding 6: a full disk --------------------------------------------------------------------
class FullDisk:
    """A connection whose writes fail as SQLite's do on a full disk, while ``full`` is set."""

    def __init__(self, conn):
        self.conn, self.full, self.moves_full = conn, False, False

    def execute(self, sql, params=()):
        if self.full and sql.split()[0].upper() in ("INSERT", "UPDATE"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.conn.execute(sql, params)

    def executemany(self, sql, rows):
        if self.full or (self.moves_full and "moves" in sql):
            raise sqlite3.OperationalError("database or disk is full")
        return self.conn.executemany(sql, rows)


def test_a_full_disk_answers_503_with_a_sentence_and_loses_nothing(tmp_path):
    s = in_process(tmp_path / "d")
    try:
        table = s.new_table(players=4, seed=4)
        disk = FullDisk(s.server.tables.log.conn)

        def use(conn):
            s.server.tables.log.conn = conn

        s.call(use, disk)
        disk.full = True
        move = first_legal(s, table)
        status, answer, headers = s.request("POST", seat_path(table, "A1", "/actions"), move)
        assert status == 503 and "full" in answer["error"] and "nothing was lost" in \
            answer["error"] and headers["Retry-After"], answer
        assert s.request("GET", seat_path(table, "A1"))[1]["version"] == 0
        status, answer, _ = s.request("POST", "/api/tables", {"players": 4}, token=s.token)
        assert status == 503 and "full" in answer["error"]
        disk.full = False
        assert s.request("POST", seat_path(table, "A1", "/actions"), move)[:2] == \
            (200, {"version": 1})
        assert len(s.request("GET", "/api/tables", token=s.token)[1]["tables"]) == 1
        # the bots' moves: not kept while the disk is full, played again once it is not
        disk.moves_full = True
        other = s.new_table(players=4, seed=5)
        assert s.request("POST", f"/api/tables/{other['table']}/seats/A1/bot", {"bot": "greedy"},
                         token=s.token)[0] == 200
        assert s.request("GET", f"/api/tables/{other['table']}/public")[1]["version"] == 0
        disk.moves_full = False
        assert s.request("GET", f"/api/tables/{other['table']}/public")[1]["version"] == 1
    finally:
        s.stop()
    again = in_process(tmp_path / "d")
    try:
        assert again.request("GET", seat_path(table, "A1"))[1]["version"] == 1
        assert again.request("GET", f"/api/tables/{other['table']}/public")[1]["version"] == 1
    finally:
        again.stop()


# --- finding 3: the public body and its waiters -------------------------------------------------
def _wait_all(server, paths: list[str]) -> tuple[list, list[threading.Thread]]:
    answers: list = []

    def wait(path):
        answers.append(server.request("GET", path, timeout=30))

    threads = [threading.Thread(target=wait, args=(p,)) for p in paths]
    for t in threads:
        t.start()
    return answers, threads


def test_the_public_body_is_made_once_per_version_for_every_waiting_page(server, monkeypatch):
    from ttrlib import narration

    table = server.new_table(players=4, seed=5)
    tid = table["table"]
    made = []
    real = narration.lines
    monkeypatch.setattr(narration, "lines", lambda part, seat=None: made.append(seat) or
                        real(part, seat))
    answers, threads = _wait_all(server, [f"/api/tables/{tid}/public?after=0"] * 20)
    time.sleep(1.0)
    assert server.request("POST", seat_path(table, "A1", "/actions"),
                          first_legal(server, table))[0] == 200
    for t in threads:
        t.join(30)
    assert [a[0] for a in answers] == [200] * 20
    assert len({json.dumps(a[1]) for a in answers}) == 1
    assert made.count(None) <= 2, made  # one public narration (two if a page came in late)


def test_the_board_frame_is_encoded_once_per_version_for_every_waiting_board(server,
                                                                            monkeypatch):
    table = server.new_table(players=4, seed=9)
    tid = table["table"]
    encoded = []
    real = json.dumps
    monkeypatch.setattr(json, "dumps", lambda obj, *a, **k: (
        encoded.append(1) if isinstance(obj, dict) and "html" in obj else None) or
        real(obj, *a, **k))
    answers, threads = _wait_all(server, [f"/tables/{tid}/board/frame?after=0"] * 20)
    time.sleep(1.0)
    assert server.request("POST", seat_path(table, "A1", "/actions"),
                          first_legal(server, table))[0] == 200
    for t in threads:
        t.join(30)
    made = len(encoded)
    assert [a[0] for a in answers] == [200] * 20
    assert {a[1]["version"] for a in answers} == {1}
    assert len({real(a[1]) for a in answers}) == 1
    assert made <= 2, made  # one text (two if a board came in late)


def test_the_board_frame_shows_a_seat_handed_to_a_bot_at_once(server):
    table = server.new_table(players=4, seed=10)
    tid = table["table"]
    before = server.request("GET", f"/tables/{tid}/board/frame")[1]
    assert server.request("POST", f"/api/tables/{tid}/seats/B2/bot", {"bot": "greedy"},
                          token=server.token)[0] == 200
    after = server.request("GET", f"/tables/{tid}/board/frame")[1]
    assert after["version"] == before["version"] == 0
    assert after["html"].count("greedy") > before["html"].count("greedy")


def test_the_public_log_is_sent_from_since(server):
    table = server.new_table(players=4, seed=6, bots=["A2", "B1", "B2"])
    tid = table["table"]
    for _ in range(2):
        server.request("POST", seat_path(table, "A1", "/actions"), first_legal(server, table))
        time.sleep(0.1)
    whole = server.request("GET", f"/api/tables/{tid}/public")[1]
    part = server.request("GET", f"/api/tables/{tid}/public?since=2")[1]
    assert whole["event_count"] == part["event_count"] >= 3
    assert part["events"] == whole["events"][2:]
    assert part["event_data"] == whole["event_data"][2:]


def _past_the_cap(server, table, crowd: str, refused_word: str, other: str) -> list:
    """Fill a cap with long-polls on ``crowd``, check one more gets 503 naming ``refused_word``,
    then wait on ``other`` and make a move: the answers of the crowd and of ``other``."""
    cap = referee.MAX_PUBLIC_WAITERS if "/public" in crowd else referee.MAX_SEAT_WAITERS
    answers, threads = _wait_all(server, [crowd] * cap)
    time.sleep(1.0)
    status, answer, headers = server.request("GET", crowd)
    assert status == 503 and refused_word in answer["error"] and headers["Retry-After"]
    late, late_threads = _wait_all(server, [other])
    time.sleep(1.0)
    assert server.request("POST", seat_path(table, "A1", "/actions"),
                          first_legal(server, table))[0] == 200
    for t in threads + late_threads:
        t.join(30)
    return answers + late


def test_past_the_public_cap_a_page_gets_503_and_a_seat_still_its_answer(server, monkeypatch):
    monkeypatch.setattr(referee, "MAX_PUBLIC_WAITERS", 3)
    table = server.new_table(players=4, seed=7)
    # the public's crowd never shuts a seat out: B1's long-poll waits and gets the move
    got = _past_the_cap(server, table, f"/api/tables/{table['table']}/public?after=0", "waiting",
                        seat_path(table, "B1", query="&after=0"))
    assert [a[0] for a in got] == [200] * 4 and got[-1][1]["version"] == 1


def test_past_a_seats_own_cap_that_seat_gets_503_and_another_seat_its_answer(server,
                                                                            monkeypatch):
    monkeypatch.setattr(referee, "MAX_SEAT_WAITERS", 2)
    table = server.new_table(players=4, seed=8)
    got = _past_the_cap(server, table, seat_path(table, "B1", query="&after=0"), "B1",
                        seat_path(table, "B2", query="&after=0"))
    assert [a[0] for a in got] == [200] * 3


# --- finding 9: finished tables leave memory ----------------------------------------------------
def test_finished_tables_leave_memory_and_come_back_from_the_log(server):
    keep = referee.KEEP_FINISHED
    made = [server.new_table(players=4, bots=ALL_BOTS)]  # the bots play it to the end at once
    first = made[0]["table"]
    before = server.request("GET", f"/api/tables/{first}/public")[1]
    assert before["scores"] is not None
    made += [server.new_table(players=4, bots=ALL_BOTS) for _ in range(keep + 1)]
    store = server.server.tables

    def in_memory():
        return server.call(lambda: [store.tables[t["table"]].in_memory for t in made])

    assert in_memory() == [False, False] + [True] * keep
    listed = {t["table"]: t for t in server.request("GET", "/api/tables",
                                                    token=server.token)[1]["tables"]}
    assert listed[first]["over"] and listed[first]["version"] == before["version"]
    assert in_memory()[0] is False  # the teacher's list brings no game back
    assert server.request("GET", f"/api/tables/{first}/public")[1] == before
    assert server.request("GET", f"/api/tables/{first}/public?at=3")[1]["version"] == 3
    assert in_memory() == [True, False, False] + [True] * (keep - 1)  # the least used left


# --- finding 9: the Tables form's body -----------------------------------------------------------
@pytest.mark.parametrize("body, words", [
    ({"players": 4, "bots": {"C1": "greedy"}}, "'C1' is not a seat of a 4-player table"),
    ({"players": 4, "seed": "12a"}, "the game number is a whole number from 0 to"),
    ({"players": 4, "seed": 10**12}, "the game number is a whole number from 0 to"),
])
def test_a_new_tables_body_is_refused_with_a_sentence(body, words):
    with pytest.raises(Refusal) as caught:
        read_new_table(body)
    assert caught.value.status == 400 and words in str(caught.value)


# --- issue 32 (a): a bot's seat has no live link ----------------------------------------------
def test_a_seat_made_as_a_bots_has_no_key_until_a_learner_gets_it(tmp_path):
    s = in_process(tmp_path / "d")
    try:
        table = s.new_table(players=4, seed=9, bots=["B2"])
        tid = table["table"]
        assert (table["seats"]["B2"]["key"], table["seats"]["B2"]["link"]) == (None, None)
        for key in ("None", "", table["seats"]["A1"]["key"]):  # no key opens it
            assert s.request("GET", f"/api/tables/{tid}/seats/B2?key={key}")[0] == 403
        assert s.request("POST", f"/api/tables/{tid}/seats/B2/bot", {"bot": None},
                         token=s.token)[0] == 200
        seats = s.request("GET", "/api/tables", token=s.token)[1]["tables"][0]["seats"]
        key = seats["B2"]["key"]
        assert len(key) == 22 and key in seats["B2"]["link"]  # 128 bits, urlsafe base64
        assert s.request("GET", f"/api/tables/{tid}/seats/B2?key={key}")[0] == 200
        assert s.request("POST", f"/api/tables/{tid}/seats/B2/bot", {"bot": "greedy"},
                         token=s.token)[0] == 200  # back to a bot: the learner keeps the key
    finally:
        s.stop()
    again = in_process(tmp_path / "d")
    try:
        assert again.request("GET", f"/api/tables/{tid}/seats/B2?key={key}")[1]["bot"] == \
            "greedy"
    finally:
        again.stop()
