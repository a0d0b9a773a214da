"""The class's records on the class server (issue 20, items 3, 5, 6): the report endpoint, the
progress API, the teacher's pages, the CSV exports and forgetting the class.

The server's application in this process (``inprocess_server``) on a free port with a temporary
data folder. The expected numbers are counted by hand from the reports each test sends.
"""

from __future__ import annotations

import csv
import io
import re
import sqlite3
import subprocess
import sys
import time

import pytest
from server_harness import in_process as start_in_process

LEARNERS = [f"{i:032x}" for i in range(1, 40)]  # 32 hex digits each, as a browser's id


@pytest.fixture
def server(tmp_path):
    s = start_in_process(tmp_path / "data")
    s.tokens = {}
    yield s
    s.stop()


def report(learner=LEARNERS[0], lesson="01", exercise="reset-count", try_=1, verdict="wrong",
           answer="3", revealed=False) -> dict:
    return {"learner": learner, "lesson": lesson, "exercise": exercise, "try": try_,
            "verdict": verdict, "answer": answer, "revealed": revealed}


def token_of(server, browser: str) -> str:
    """The learner token the server issues for a browser's id (as a lesson kernel asks)."""
    if not hasattr(server, "tokens"):  # a server of another test module's (real process)
        server.tokens = {}
    if browser not in server.tokens:
        status, body, _ = server.request("POST", "/api/progress/learner", {"browser": browser},
                                         token=server.class_secret)
        assert status == 200, body
        server.tokens[browser] = body["learner"]
    return server.tokens[browser]


def learner_of(server, browser: str) -> str:
    """The learner id the records hold for a browser (the server's, not the browser's)."""
    return token_of(server, browser).split(".")[0]


def send(server, body, *, secret=True, **kwargs):
    token = server.class_secret if secret is True else secret
    if isinstance(body, dict) and body.get("learner") in LEARNERS:
        body = {**body, "learner": token_of(server, body["learner"])}
    return server.request("POST", "/api/progress/report", body, token=token, **kwargs)


def rows(server) -> list[tuple]:
    with sqlite3.connect(server.data / "class.sqlite3") as conn:
        return conn.execute("SELECT learner, lesson, exercise, try, verdict, answer, revealed "
                            "FROM checks ORDER BY id").fetchall()


# --- who may report, and what ----------------------------------------------------------------
def test_a_report_needs_the_class_secret(server):
    assert send(server, report(), secret=None)[0] == 401
    assert send(server, report(), secret="0" * 64)[0] == 403
    assert send(server, report(), secret=server.token)[0] == 403  # the teacher's is not it
    assert rows(server) == []
    status, _, _ = send(server, report())
    assert status == 204
    assert rows(server) == [(learner_of(server, LEARNERS[0]), "01", "reset-count", 1, "wrong",
                             "3", 0)]


@pytest.mark.parametrize("change, field", [
    ({"learner": "A" * 32}, "learner"), ({"learner": "a" * 31}, "learner"),
    ({"learner": "Ada Lovelace"}, "learner"), ({"learner": 12}, "learner"),
    ({"lesson": "1"}, "lesson"), ({"lesson": "99"}, "lesson"),
    ({"lesson": "01-card-splits"}, "lesson"),
    ({"exercise": "no-such"}, "exercise"), ({"exercise": "k1-cards"}, "exercise"),  # 00's
    ({"try": -1}, "try"), ({"try": "1"}, "try"), ({"try": True}, "try"), ({"try": 1.5}, "try"),
    ({"try": 10**9}, "try"),
    ({"verdict": "maybe"}, "verdict"), ({"verdict": None}, "verdict"),
    ({"answer": "I think it is three"}, "answer"), ({"answer": "6/2"}, "answer"),
    ({"answer": "03"}, "answer"), ({"answer": "5.0"}, "answer"), ({"answer": 5}, "answer"),
    ({"answer": "1" * 41}, "answer"),
    ({"verdict": "shown", "answer": "5", "revealed": True}, "answer"),
    ({"verdict": "shown", "answer": None, "revealed": False}, "answer"),
    ({"revealed": "no"}, "revealed"), ({"revealed": 0}, "revealed"),
    ({"name": "Ada"}, "name"), ({"address": "10.0.0.7"}, "address"),
])
def test_every_field_is_checked_and_a_refusal_names_it(server, change, field):
    status, body, _ = send(server, {**report(), **change})
    assert status == 400, body
    assert field in body["error"] and len(body["error"]) <= 200
    assert rows(server) == []


@pytest.mark.parametrize("lesson, exercise, answer", [
    ("04", "first-card-chance", "0.25"),  # a chance is kept as a fraction
    ("04", "first-card-chance", "7"),  # a chance above 1
    ("01", "second-card-place", "into my pocket"),  # not an option
    ("01", "second-card-slots", "slot 3; the deck"),  # options out of the key's order
    ("01", "second-card-slots", "the deck, slot 3"),  # joined otherwise
])
def test_answers_are_only_canonical_forms_of_the_key(server, lesson, exercise, answer):
    status, body, _ = send(server, report(lesson=lesson, exercise=exercise, answer=answer))
    assert status == 400 and "answer" in body["error"]


def test_the_key_forms_are_accepted(server):
    for lesson, exercise, answer in [("04", "first-card-chance", "1/4"),
                                     ("06", "ticket-points", "-21"),
                                     ("01", "second-card-slots", "the deck; slot 3"),
                                     ("01", "second-card-place", "wherever A1 chooses"),
                                     ("07", "win-share", "29/50")]:
        assert send(server, report(lesson=lesson, exercise=exercise, answer=answer))[0] == 204


@pytest.mark.parametrize("raw", [b"not json", b"[1, 2]", b"\xff\xfe", b"null",
                                 b"[" * 1000 + b"]" * 1000])  # deep: RecursionError was a 500
def test_a_body_that_is_no_report_is_refused(server, raw):
    status, body, _ = send(server, None, raw=raw)
    assert status == 400 and len(str(body)) < 300


def test_a_report_is_bounded(server):
    big = {**report(), "learner": "a" * 3000}
    status, _, _ = send(server, big)
    assert status == 413
    assert rows(server) == []


# --- who may read ------------------------------------------------------------------------------
TEACHER_PAGES = ["/api/progress", "/teacher", "/teacher/progress", "/teacher/progress/board",
                 "/teacher/progress.js", "/teacher/progress.csv", "/teacher/summary.csv",
                 "/teacher/guide", "/teacher/solutions", "/teacher/cheat-sheet",
                 "/teacher/glossary"]


@pytest.mark.parametrize("path", TEACHER_PAGES)
def test_teacher_pages_need_the_teacher(server, path):
    assert server.request("GET", path)[0] == 401
    assert server.request("GET", path, token=server.class_secret)[0] == 403  # a kernel's secret
    assert server.request("GET", path, headers={"Cookie": "ttr_teacher=" + "0" * 64})[0] == 403
    assert server.request("GET", path, token=server.token)[0] == 200


def test_the_teachers_cookie_opens_the_progress_page(server):
    _, _, headers = server.request("GET", f"/teacher?token={server.token}")
    cookie = headers["Set-Cookie"].split(";")[0]
    status, page, headers = server.request("GET", "/teacher/progress", headers={"Cookie": cookie})
    assert status == 200 and "The class's progress" in page
    assert "script-src 'nonce-" in headers["Content-Security-Policy"]
    assert "/teacher/progress.js" in page
    status, script, _ = server.request("GET", "/teacher/progress.js", headers={"Cookie": cookie})
    assert status == 200 and "setInterval(refresh, 3000)" in script  # within 5 s


# --- the numbers --------------------------------------------------------------------------------
def _class_of_seven(server) -> None:
    """Seven learners on 01 reset-count (answer 5), one on 01 d2-cards-taken. By hand:

    L0: 5                 right first try, right
    L1: 3, 5              right
    L2: 3, shown          revealed
    L3: 3, 4, 5           right
    L4: shown, 5          revealed (the 5 after the answer is not "right")
    L5: 4, 0              (nothing right)
    L6: 0, shown, 5       revealed
    learners 7; right first try 1; right 3 (L0, L1, L3); revealed 3 (L2, L4, L6);
    wrong: "3" by L1, L2, L3 = 3 (named); "4" by L3, L5 = 2; "0" by L5, L6 = 2 (not named).
    """
    plan = {0: ["5"], 1: ["3", "5"], 2: ["3", "shown"], 3: ["3", "4", "5"], 4: ["shown", "5"],
            5: ["4", "0"], 6: ["0", "shown", "5"]}
    for n, steps in plan.items():
        tries, revealed = 0, False
        for step in steps:
            if step == "shown":
                revealed = True
                body = report(LEARNERS[n], try_=tries, verdict="shown", answer=None,
                              revealed=True)
            else:
                tries += 1
                body = report(LEARNERS[n], try_=tries, answer=step, revealed=revealed,
                              verdict="right" if step == "5" else "wrong")
            assert send(server, body)[0] == 204
    assert send(server, report(LEARNERS[9], exercise="d2-cards-taken", answer="1",
                               verdict="right"))[0] == 204


def test_the_progress_api_counts_as_counted_by_hand(server):
    _class_of_seven(server)
    status, body, _ = server.request("GET", "/api/progress", token=server.token)
    assert status == 200
    assert body == {"exercises": [
        {"lesson": "01", "exercise": "reset-count", "learners": 7, "right_first_try": 1,
         "right": 3, "revealed": 3,
         "wrong": [{"answer": "3", "learners": 3,
                    "misconception": "In a reset only the face-up locomotives are discarded."}]},
        {"lesson": "01", "exercise": "d2-cards-taken", "learners": 1, "right_first_try": 1,
         "right": 1, "revealed": 0, "wrong": []},
    ]}


def test_wrong_answers_come_most_common_first(server):
    # "0" by 4 learners, "3" by 3, "4" by 5: the order is 4, 0, 3 (and none below 3 learners)
    for answer, first in (("0", 0), ("3", 4), ("4", 7), ("7", 12)):
        count = {"0": 4, "3": 3, "4": 5, "7": 2}[answer]
        for n in range(first, first + count):
            assert send(server, report(LEARNERS[n], answer=answer))[0] == 204
    _, body, _ = server.request("GET", "/api/progress", token=server.token)
    wrong = body["exercises"][0]["wrong"]
    assert [(w["answer"], w["learners"]) for w in wrong] == [("4", 5), ("0", 4), ("3", 3)]
    assert wrong[1]["misconception"] == "A reset waits until the end of my turn."
    assert wrong[0]["misconception"] is None  # the key names none for 4


def test_the_page_and_the_csv_show_the_same_numbers(server):
    _class_of_seven(server)
    status, board, _ = server.request("GET", "/teacher/progress/board", token=server.token)
    assert status == 200
    assert "01 Card splits" in board and "Exercise 3" in board and "Exercise 4" in board
    assert 'aria-label="3 of 7"' in board  # right in the end, revealed and the "3" bar
    assert "In a reset only the face-up locomotives are discarded." in board
    _, text, headers = server.request("GET", "/teacher/summary.csv", token=server.token)
    assert headers["Content-Type"].startswith("text/csv")
    table = list(csv.DictReader(io.StringIO(text)))
    assert table[0] == {"lesson": "01", "exercise": "reset-count", "learners": "7",
                        "right_first_try": "1", "right": "3", "revealed": "3",
                        "common wrong answers": "3 (3)",
                        "misconceptions": "3: In a reset only the face-up locomotives are "
                                          "discarded."}
    _, text, _ = server.request("GET", "/teacher/progress.csv", token=server.token)
    records = list(csv.reader(io.StringIO(text)))
    assert records[0] == ["record", "time (UTC)", "learner", "lesson", "exercise", "try",
                          "verdict", "answer", "revealed"]
    stamps = [r[1] for r in records[1:]]  # the server's time of each check, to the second
    assert all(re.fullmatch(r"20\d\d-\d\d-\d\d \d\d:\d\d:\d\d", t) for t in stamps), stamps
    assert stamps == sorted(stamps)
    assert len(records) == 1 + 16  # 15 on reset-count (1+2+2+3+2+2+3), 1 on d2-cards-taken


def test_an_empty_class_says_so(server):
    _, board, _ = server.request("GET", "/teacher/progress/board", token=server.token)
    assert "No check recorded yet" in board
    _, body, _ = server.request("GET", "/api/progress", token=server.token)
    assert body == {"exercises": []}


def test_the_records_hold_no_name_address_or_free_text(server):
    _class_of_seven(server)
    with sqlite3.connect(server.data / "class.sqlite3") as conn:
        columns = [r[1] for r in conn.execute("PRAGMA table_info(checks)")]
        assert columns == ["id", "learner", "lesson", "exercise", "try", "verdict", "answer",
                           "revealed", "at"]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables <= {"checks", "schema", "learners"} | {"tables", "moves", "seats"}  # (the tables' own)
    for learner, lesson, exercise, _try, _verdict, answer, _revealed in rows(server):
        assert re.fullmatch(r"[0-9a-f]{32}", learner) and re.fullmatch(r"\d\d", lesson)
        assert answer is None or re.fullmatch(r"-?\d+(/\d+)?", answer)
        assert exercise in ("reset-count", "d2-cards-taken")


# --- forgetting the class ------------------------------------------------------------------------
def _forget(data, answer: str | None):
    args = [sys.executable, "-m", "ttrlib.server.records", "forget", "--data", str(data)]
    if answer is None:
        args.append("--yes")
    return subprocess.run(args, input=answer or "", capture_output=True, text=True, timeout=120)


def test_forgetting_the_class_asks_first_then_deletes_every_record(server):
    _class_of_seven(server)
    done = _forget(server.data, "no\n")
    assert done.returncode == 1 and "Nothing deleted" in done.stdout
    assert len(rows(server)) == 16
    done = _forget(server.data, "yes\n")  # while the server runs
    assert done.returncode == 0 and "Deleted 16 records" in done.stdout
    assert rows(server) == []
    _, body, _ = server.request("GET", "/api/progress", token=server.token)
    assert body == {"exercises": []}
    assert send(server, report())[0] == 204  # the class goes on
    raw = b"".join(p.read_bytes() for p in server.data.glob("class.sqlite3*"))
    gone = learner_of(server, LEARNERS[6]).encode()
    assert gone not in raw  # gone from the file, not only from the table


# --- a learner the server knows, and bounds (issue 30, finding 2) --------------------------------
def test_a_learner_the_server_did_not_issue_is_refused(server):
    # Before: the report's own "learner" was recorded, so 20,000 invented ids made 20,000
    # learners. Now only a token the server signed names a learner.
    for n in range(50):
        status, body, _ = send(server, report(learner=f"{10**6 + n:032x}"))
        assert status == 400 and "learner" in body["error"] and "issued" in body["error"]
    token = token_of(server, LEARNERS[0])
    forged = token[:33] + ("0" if token[33] != "0" else "1") + token[34:]
    assert send(server, report(learner=forged))[0] == 400
    assert send(server, report(learner=token.split(".")[0]))[0] == 400  # the id alone
    assert rows(server) == []
    assert send(server, report(learner=token))[0] == 204


def test_the_same_browser_is_the_same_learner_and_not_its_own_id(server):
    first = token_of(server, LEARNERS[0])
    server.tokens.clear()
    assert token_of(server, LEARNERS[0]) == first  # a reload, another kernel: the same learner
    assert LEARNERS[0] not in first and token_of(server, LEARNERS[1]) != first
    status, body, _ = server.request("POST", "/api/progress/learner", {"browser": "Ada"},
                                     token=server.class_secret)
    assert status == 400 and "browser" in body["error"]
    assert server.request("POST", "/api/progress/learner", {"browser": LEARNERS[2]})[0] == 401


def test_new_learners_are_bounded_in_rate_and_number(server, monkeypatch):
    from ttrlib.server import learners

    invented = [f"{10**7 + n:032x}" for n in range(400)]
    started = time.monotonic()
    answers = [server.request("POST", "/api/progress/learner", {"browser": b},
                              token=server.class_secret) for b in invented]
    issued = [a for a in answers if a[0] == 200]
    # a class opening its lessons: 60 a minute (refilled evenly: one more a second meanwhile)
    assert 0 <= len(issued) - learners.NEW_PER_MINUTE <= time.monotonic() - started + 1
    refused = [a for a in answers if a[0] != 200]
    assert {a[0] for a in refused} == {429}
    assert "new learners in a minute" in refused[0][1]["error"]
    # an issued learner comes back at once: it is no new one
    assert server.request("POST", "/api/progress/learner", {"browser": invented[0]},
                          token=server.class_secret)[0] == 200
    monkeypatch.setattr(learners, "MAX_LEARNERS", len(issued))  # the store's cap, below
    status, body, _ = server.request("POST", "/api/progress/learner", {"browser": LEARNERS[5]},
                                     token=server.class_secret)
    assert status == 429, body
    assert f"already has {len(issued)} learners, the most this server records" in body["error"]


def test_tries_per_learner_and_exercise_are_capped(server, monkeypatch):
    from ttrlib.server import learners

    monkeypatch.setattr(learners, "MAX_TRIES", 5)
    for n in range(5):
        assert send(server, report(try_=n + 1))[0] == 204
    status, body, _ = send(server, report(try_=6))
    assert status == 429 and "5 records of exercise reset-count" in body["error"]
    assert send(server, report(exercise="d2-cards-taken", answer="1"))[0] == 204  # another one
    assert send(server, report(LEARNERS[1], try_=1))[0] == 204  # another learner
    assert len(rows(server)) == 7


def test_reports_are_bounded_per_sender(server):
    from ttrlib.server import learners

    started = time.monotonic()
    answers = [send(server, report(try_=n, exercise=("reset-count", "d2-cards-taken")[n % 2],
                                   answer="1"))[0] for n in range(learners.REPORTS_PER_MINUTE + 40)]
    # the bucket refills evenly (2 a second): on a loaded machine a few more get through
    refilled = (time.monotonic() - started) * learners.REPORTS_PER_MINUTE / 60
    accepted = answers.count(204)
    assert learners.REPORTS_PER_MINUTE <= accepted <= learners.REPORTS_PER_MINUTE + refilled + 1
    assert set(answers) == {204, 429}
    assert send(server, report(LEARNERS[1]))[0] == 204  # another sender is not held back


def test_a_rate_is_so_many_a_minute_refilled_evenly():
    from ttrlib.server.learners import Rate

    rate = Rate(60, senders=2)
    assert [rate.take("a", now=0.0) for _ in range(61)] == [True] * 60 + [False]
    assert rate.take("a", now=0.5) is False and rate.take("a", now=1.0) is True  # 1 a second
    assert rate.take("b", now=1.0) and rate.take("c", now=1.0)  # "a" forgotten (2 senders)
    assert rate.take("a", now=1.0) is True  # a forgotten sender starts full


def test_the_store_is_capped(server, monkeypatch):
    from ttrlib.server import learners

    monkeypatch.setattr(learners, "MAX_RECORDS", 3)
    for n in range(3):
        assert send(server, report(LEARNERS[n]))[0] == 204
    status, body, _ = send(server, report(LEARNERS[3]))
    assert status == 507 and "3 records, the most it keeps" in body["error"]


def test_the_progress_is_computed_once_per_version_of_the_records(server, monkeypatch):
    from ttrlib.server import records

    calls = []
    real = records.summary
    monkeypatch.setattr(records, "summary", lambda conn: calls.append(1) or real(conn))
    _class_of_seven(server)
    for _ in range(5):
        assert server.request("GET", "/api/progress", token=server.token)[0] == 200
        assert server.request("GET", "/teacher/progress/board", token=server.token)[0] == 200
    assert len(calls) == 1
    assert send(server, report(LEARNERS[20]))[0] == 204
    assert server.request("GET", "/api/progress", token=server.token)[1]["exercises"][0][
        "learners"] == 8
    assert len(calls) == 2


def test_a_token_made_with_the_secret_still_counts_against_the_bounds(server, monkeypatch):
    # whoever holds the class secret could sign tokens without asking: each is counted when it
    # first reports, so the bounds on learners hold for them too
    from ttrlib.server import learners

    door = learners.Learners(server.server.conn, server.class_secret)  # the same key
    monkeypatch.setattr(learners, "MAX_LEARNERS", 3)
    minted = [door.issue(f"{n + 1:032x}") for n in range(3)]  # counted: 3 learners
    server.server.conn.execute("DELETE FROM learners")  # as after forgetting the class
    for token in minted:
        assert send(server, report(learner=token))[0] == 204  # counted again at the report
    status, body, _ = send(server, report(learner=door._mac(b"x")[:32] + "." + "0" * 32))
    assert status == 400
    token = learners.Learners(server.server.conn, server.class_secret)
    with pytest.raises(learners.Refused):
        token.issue("f" * 32)  # a fourth learner: the cap
