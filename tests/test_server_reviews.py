"""The coach's review at a class table (issue 34): computed in a worker process with its progress
shown, given to the teacher only, of a finished game only (I1), and shown on the board's
step-back, where "Pause: what would you do?" leaves the coach's answer out until it is revealed.
Also the board's header for a short game (issue 32).

In-process (``server_harness.in_process``). Expected values come from the API (the table's
version, the review's own entries), never from the page code.
"""

from __future__ import annotations

import html
import re
import time

import pytest
from server_harness import in_process

BOTS = ["A1", "A2", "B1", "B2"]
# a review runs in a worker process that ttrlib starts (conftest's "slow": worker processes)
in_a_worker = pytest.mark.slow


@pytest.fixture
def server(tmp_path):
    s = in_process(tmp_path / "data")
    # one deal per judged action: the tests check the review's plumbing, not its estimates
    s.call(lambda: setattr(s.server.reviews, "budget", 1))
    yield s
    s.stop()  # the review's worker process with it


def finished_table(server, trains: int = 10) -> tuple[str, int]:
    """A short bot-only game, played to its end at once: (table id, its version)."""
    table = server.request("POST", "/api/tables", {"players": 4, "seed": 5, "trains": trains,
                                                   "bots": BOTS}, token=server.token)[1]
    public = server.request("GET", f"/api/tables/{table['table']}/public")[1]
    assert public["scores"] is not None  # over
    return table["table"], public["version"]


def review_of(server, tid: str) -> tuple[dict, list[tuple[str, int, int]]]:
    """Ask the teacher's API until the review is ready: (its body, every progress seen)."""
    seen = []
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        status, body, _ = server.request("GET", f"/api/tables/{tid}/review", token=server.token)
        assert status == 200, body
        seen.append((body["state"], body["done"], body["total"]))
        if body["state"] in ("ready", "failed"):
            return body, seen
        time.sleep(0.05)
    raise AssertionError(f"no review within 240 s: {seen[-3:]}")


def panel(server, tid: str, at: int, pause: bool = False) -> dict:
    status, body, _ = server.request(
        "GET", f"/tables/{tid}/board/review?at={at}" + ("&pause=1" if pause else ""))
    assert status == 200, body
    return body


def test_the_review_api_refuses_a_learner_no_cookie_and_a_game_in_progress(server):
    table = server.new_table(players=4, seed=42)  # learners at every seat: the game goes on
    tid, key = table["table"], table["seats"]["A1"]["key"]
    path = f"/api/tables/{tid}/review"
    assert server.request("GET", path)[0] == 401  # no cookie, no token
    assert server.request("GET", f"{path}?key={key}")[0] == 401  # a learner's seat key
    assert server.request("GET", path, token="0" * 64)[0] == 403  # a wrong token
    assert server.request("GET", path, headers={"Cookie": "ttr_teacher=" + "0" * 64})[0] == 403
    status, body, _ = server.request("GET", path, token=server.token)
    assert status == 409 and "still going" in body["error"] and "Traceback" not in str(body)
    assert server.call(lambda: dict(server.server.reviews.jobs)) == {}  # nothing started


@in_a_worker
def test_a_game_in_progress_shows_no_review_on_its_board(server):
    done, _ = finished_table(server)
    review_of(server, done)  # a review exists on this server: still none for the other table
    table = server.new_table(players=4, seed=42)
    tid = table["table"]
    assert panel(server, tid, 0) == {"state": "playing", "html": ""}
    assert server.request("GET", f"/tables/{tid}/board/review")[1] == {"state": "playing",
                                                                        "html": ""}
    page = server.request("GET", f"/tables/{tid}/board", headers={"Accept": "text/html"})[1]
    assert 'id="review" hidden' in page
    assert 'class="tb-review"' not in page and "The coach:" not in page
    assert server.call(lambda: sorted(server.server.reviews.jobs)) == [done]


@in_a_worker
def test_progress_goes_up_and_ends_with_one_entry_per_action(server):
    tid, version = finished_table(server)
    first = panel(server, tid, version)  # the board of a finished game starts the review
    assert first["state"] in ("waiting", "running")
    assert f"Reviewing: 0 of {version} moves" in first["html"]
    body, seen = review_of(server, tid)
    assert body["state"] == "ready", seen
    done = [d for _, d, _ in seen]
    assert done == sorted(done) and done[-1] == version
    assert any(0 < d < version for d in done), seen  # seen part way, not only at the end
    assert all(total == version for _, _, total in seen)
    entries = body["review"]["entries"]
    assert [e["step"] for e in entries] == list(range(1, version + 1))
    assert {e["seat"] for e in entries} == set(BOTS)
    assert [t["team"] for t in body["review"]["costliest"]] == ["Team A", "Team B"]
    for team in body["review"]["costliest"]:
        costs = [m["cost"] for m in team["moves"]]
        assert len(costs) <= 3 and costs == sorted(costs, reverse=True)
        assert all(c > 0 for c in costs)
    assert 0 < body["review"]["cpu_s"] < 60


@in_a_worker
def test_the_board_shows_the_entry_at_a_step_and_pause_hides_the_coachs_move(server):
    tid, version = finished_table(server)
    entries = review_of(server, tid)[0]["review"]["entries"]
    # a step where the coach would have played otherwise, its words nowhere else on the panel
    e = next(e for e in entries if not e["same"] and e["best"] not in e["played"])
    shown = panel(server, tid, e["step"])
    assert shown["state"] == "ready"
    text = html.unescape(shown["html"])
    assert f"Step {e['step']} · {e['seat']} ({e['team']}): {e['played']}" in text
    assert f"The coach: {e['best']}" in text
    if e["cost"] > 0:
        assert f"about −{e['cost']:.0%} win share" in text
    paused = html.unescape(panel(server, tid, e["step"], pause=True)["html"])
    assert f"{e['seat']} ({e['team']}): {e['played']}" in paused  # the move played stays
    assert "What would you do?" in paused and 'id="reveal"' in paused
    assert e["best"] not in paused and "The coach:" not in paused and "coach would" not in paused
    # every team's costliest moves are listed, each a button to its step
    steps = [int(n) for n in re.findall(r'data-step="(\d+)"', shown["html"])]
    assert steps and all(1 <= n <= version for n in steps)
    tunnels = [e for e in entries if e["p_can_pay"] is not None]
    for t in tunnels[:2]:  # a tunnel tried: its exact chance to pay
        words = html.unescape(panel(server, tid, t["step"])["html"])
        assert f"the exact chance to pay this tunnel was {t['p_can_pay']:.0%}" in words


def test_a_short_games_board_says_so_at_every_step(server):
    tid, version = finished_table(server, trains=12)
    for at in (0, 1, version // 2, version):
        frame = server.request("GET", f"/tables/{tid}/board/frame?at={at}")[1]["html"]
        assert "a short game, 12 trains each" in frame, at
    full = server.new_table(players=4, seed=42)["table"]
    assert "a short game" not in server.request("GET", f"/tables/{full}/board/frame")[1]["html"]


def test_the_08_plan_walks_through_the_review_with_the_boards_own_words():
    from pathlib import Path

    from ttrlib.lessons import catalog

    plan = [step.activity for step in catalog.guide("08").plan]
    back = next(i for i, a in enumerate(plan) if "step back" in a)
    walk = plan[back + 1]  # right after the step-back
    templates = Path(__file__).parents[1] / "ttrlib" / "server" / "templates"
    pages = (templates / "board.html").read_text() + (templates / "board_review.html").read_text()
    for button in ("Pause: what would you do?", "Show the coach's answer"):
        assert f"'{button}'" in walk and button in pages, button  # the buttons as the board says
    assert "Reviewing:" in walk and "estimates" in walk and "exact" in walk and "I1" in walk
    for code in ("API", "JSON", "review(", "seed", "budget", "Python"):  # no programming
        assert code not in walk, code
