"""The kernel's side of the class's records (issue 20, item 3), against a real class server.

- 30 simulated learners answer through the exercise widgets; the server's aggregates equal a
  count made here from the learners' plan, with the canonical forms written by hand;
- eight processes report at once: no row lost, no "database is locked";
- a report that cannot be delivered costs the learner nothing, and the class secret is never in
  a widget's state.

The class server runs in this process (``server_harness.in_process``: a real port of 127.0.0.1,
which the reporting processes reach too); its log is read through ``caplog``.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import random
import socket
import sqlite3
import time

import pytest
from server_harness import in_process

pytest.importorskip("ipywidgets")

from ttrlib.lessons import recording  # noqa: E402
from ttrlib.widgets.base import close_all  # noqa: E402
from ttrlib.widgets.exercise import exercise  # noqa: E402

# (what the learner types or ticks, its canonical form, right?); canonical None: not readable,
# so not a try and not recorded. Written by hand from the keys (notebooks/answers).
ANSWERS = {
    ("01", "reset-count"): [("5", "5", True), ("3", "3", False), ("0", "0", False),
                            ("4", "4", False), ("five", None, None), ("10/2", "5", True)],
    ("04", "first-card-chance"): [("5/24", "5/24", True), ("20.8%", "26/125", True),
                                  ("13/55", "13/55", False), ("1/4", "1/4", False),
                                  ("7", None, None), ("1/0", None, None)],
    ("01", "second-card-place"): [("into A1's hand", "into A1's hand", True),
                                  ("wherever A1 chooses", "wherever A1 chooses", False),
                                  ("into the Team A cardholder", "into the Team A cardholder",
                                   False)],
    ("01", "second-card-slots"): [
        (["slot 4", "the deck", "slot 2", "slot 3"], "the deck; slot 2; slot 3; slot 4", True),
        (["the deck", "slot 0", "slot 2", "slot 3", "slot 4"],
         "the deck; slot 0; slot 2; slot 3; slot 4", False),
        (["slot 2", "slot 3", "slot 4"], "slot 2; slot 3; slot 4", False)],
}
SHOW = ("show", None, None)


@pytest.fixture
def server(tmp_path, monkeypatch):
    s = in_process(tmp_path / "data")
    monkeypatch.setenv(recording.SERVER_ENV, s.url)
    monkeypatch.setenv(recording.SECRET_ENV, str(s.data / "class-secret"))
    yield s
    s.stop()


def _give(box, typed) -> None:
    if isinstance(typed, list):
        for b in box.boxes:
            b.value = b.description in typed
    else:
        box.answer_box.value = typed


def _plan(seed: int = 20, learners: int = 30) -> list[dict]:
    """For each learner, what they do on each exercise: 0 to 4 steps, each an answer or Show."""
    rng = random.Random(seed)
    plan = []
    for _ in range(learners):
        mine = {}
        for ex, answers in ANSWERS.items():
            if rng.random() < 0.15:
                continue  # this learner never reached that exercise
            mine[ex] = [rng.choice(answers + [SHOW]) for _ in range(rng.randint(1, 4))]
        plan.append(mine)
    return plan


def _count(plan: list[dict]) -> dict:
    """The aggregates as issue 20 defines them, counted from the plan (not by the server)."""
    out = {}
    for ex in ANSWERS:
        tried = first = right = shown = 0
        wrong: dict[str, set] = {}
        for n, mine in enumerate(plan):
            steps = [s for s in mine.get(ex, []) if s[0] == "show" or s[1] is not None]
            if not steps:
                continue
            tried += 1
            revealed, judged, was_right = False, 0, False
            for typed, canonical, ok in steps:
                if typed == "show":
                    revealed = True
                    continue
                judged += 1
                if judged == 1 and ok and not revealed:
                    first += 1
                if ok and not revealed:
                    was_right = True
                if not ok:
                    wrong.setdefault(canonical, set()).add(n)
            right += was_right
            shown += revealed
        named = sorted(((a, len(who)) for a, who in wrong.items() if len(who) >= 3),
                       key=lambda item: (-item[1], item[0]))
        out[ex] = (tried, first, right, shown, named)
    return out


def test_thirty_learners_through_the_widgets_add_up_as_counted(server, monkeypatch):
    plan = _plan()
    for n, mine in enumerate(plan):
        monkeypatch.setenv("TTR_LEARNER", f"{n + 1:032x}")
        for (lesson, ex_id), steps in mine.items():
            box = exercise(lesson, ex_id, teacher=False)
            for typed, _canonical, _ok in steps:
                if typed == "show":
                    box.reveal()
                else:
                    _give(box, typed)
                    box.check()
            close_all(box)
    assert recording.flush(120), "the records were not all sent within 120 s"
    status, body, _ = server.request("GET", "/api/progress", token=server.token)
    assert status == 200
    got = {(e["lesson"], e["exercise"]): (e["learners"], e["right_first_try"], e["right"],
                                          e["revealed"],
                                          [(w["answer"], w["learners"]) for w in e["wrong"]])
           for e in body["exercises"]}
    expected = _count(plan)
    assert got == expected
    assert sum(v[0] for v in expected.values()) > 80  # the plan really exercises the counts
    assert any(v[4] for v in expected.values()) and any(v[3] for v in expected.values())
    named = {w["answer"]: w["misconception"] for e in body["exercises"] for w in e["wrong"]}
    if "wherever A1 chooses" in named:
        assert named["wherever A1 chooses"] == "I choose where each of my two cards goes."


def test_the_class_secret_never_reaches_a_widget(server, monkeypatch):
    from ipywidgets.widgets.widget import _instances

    monkeypatch.setenv("TTR_LEARNER", "f" * 32)
    box = exercise("01", "reset-count", teacher=False)
    box.answer_box.value = "3"
    box.check()
    box.reveal()
    assert recording.flush(60)
    state = json.dumps([m.get_state() for m in list(_instances.values())], default=str)
    assert server.class_secret not in state and "class-secret" not in state
    assert "f" * 32 not in state  # nor the learner's id (a capability)
    close_all(box)
    with sqlite3.connect(server.data / "class.sqlite3") as conn:
        assert conn.execute("SELECT COUNT(*) FROM checks").fetchone()[0] == 2


def test_without_a_class_server_nothing_is_recorded(monkeypatch):
    monkeypatch.delenv(recording.SERVER_ENV, raising=False)
    box = exercise("01", "reset-count", teacher=False)
    box.answer_box.value = "5"
    assert box.check()
    assert recording._outbox.unfinished_tasks == 0
    close_all(box)


@pytest.mark.parametrize("how", ["nobody listens", "never answers"])
def test_a_report_that_fails_costs_the_learner_nothing(tmp_path, monkeypatch, how):
    secret = tmp_path / "class-secret"
    secret.write_text("0" * 64)
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    if how == "never answers":
        silent.listen(50)  # accepts connections, answers nothing
    port = silent.getsockname()[1]
    if how == "nobody listens":
        silent.close()
    monkeypatch.setenv(recording.SERVER_ENV, f"http://127.0.0.1:{port}")
    monkeypatch.setenv(recording.SECRET_ENV, str(secret))
    monkeypatch.setenv("TTR_LEARNER", "e" * 32)
    box = exercise("01", "reset-count", teacher=False)
    started = time.monotonic()
    for typed in ("3", "4", "5"):
        box.answer_box.value = typed
        box.check()
    box.reveal()
    assert time.monotonic() - started < 1.0  # the checks never waited for the server
    assert "Right!" not in box.feedback_text and "The answer: 5" in box.feedback_text
    assert recording.flush(60)  # dropped quietly, each within the report's time limit
    close_all(box)
    if how == "never answers":
        silent.close()


def _reporter(url: str, secret_file: str, count: int, start_at: float) -> int:
    """One lesson kernel: ``count`` records through ttrlib.lessons.recording, all at once."""
    os.environ[recording.SERVER_ENV] = url
    os.environ[recording.SECRET_ENV] = secret_file
    os.environ.pop("TTR_LEARNER", None)  # no browser id: the kernel's own random one
    from ttrlib.lessons.answers import load_key

    ex = load_key("01")["reset-count"]
    time.sleep(max(0.0, start_at - time.time()))
    for n in range(count):
        recording.record(ex, try_number=n + 1, verdict="wrong" if n % 2 else "right",
                         answer=str(n % 7), revealed=False)
    return int(recording.flush(120))


def test_eight_processes_report_at_once_and_no_row_is_lost(server, caplog):
    processes, count = 8, 60
    caplog.set_level(logging.WARNING)  # the server's warnings and errors, from its thread too
    start_at = time.time() + 8  # every process imported and waiting: they start together
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes) as pool:
        results = [pool.apply_async(_reporter, (server.url, str(server.data / "class-secret"),
                                                count, start_at)) for _ in range(processes)]
        reading = 0
        while not all(r.ready() for r in results):  # the teacher's page reads meanwhile
            assert server.request("GET", "/api/progress", token=server.token)[0] == 200
            reading += 1
        assert [r.get(timeout=180) for r in results] == [1] * processes
    with sqlite3.connect(server.data / "class.sqlite3") as conn:
        total, learners = conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT learner) FROM checks").fetchone()
        per_learner = conn.execute("SELECT learner, COUNT(*), MIN(try), MAX(try) FROM checks "
                                   "GROUP BY learner").fetchall()
    assert total == processes * count and learners == processes
    assert all(row[1:] == (count, 1, count) for row in per_learner)
    server.stop()
    assert "locked" not in caplog.text and not any(r.exc_info for r in caplog.records)
    assert reading > 0


def test_on_a_hub_a_report_carries_the_learners_hub_token(tmp_path, monkeypatch):
    # A learner's server on a JupyterHub has no class secret; the class server checks the
    # learner's Hub token with the Hub instead (tests/test_hub_service.py). Without a secret
    # file the report must carry that token; with one, the secret.
    sent: list[str] = []

    class Opened:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def read(self):
            return b"{}"

    def open_(request, timeout):
        sent.append(request.get_header("Authorization"))
        return Opened()

    monkeypatch.setattr(recording._opener, "open", open_)
    monkeypatch.setenv(recording.SERVER_ENV, "http://127.0.0.1:9")
    monkeypatch.delenv(recording.SECRET_ENV, raising=False)
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "hub-token-of-the-learner")
    recording._post({"lesson": "01"})
    secret = tmp_path / "class-secret"
    secret.write_text("the-class-secret\n")
    monkeypatch.setenv(recording.SECRET_ENV, str(secret))
    recording._post({"lesson": "01"})
    assert sent == ["token hub-token-of-the-learner", "Bearer the-class-secret"]
