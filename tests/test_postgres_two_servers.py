"""Two class server processes on one PostgreSQL serve one school (issue 23, item 3).

- A move made through one server reaches a seat waiting (long-poll) on the other: the waiting
  request's own server has no other way to learn of it than the database's NOTIFY, so a body at
  the next version proves the wake-up.
- A whole game with its learners split over both servers and a bot seat both servers may play:
  every body each seat received is that seat's view at its version, checked against a local
  replay of the log (``test_server_tables_games.Replay``).
- One server killed (SIGKILL) mid-game: the other serves every seat the same game and it plays
  on to the end.
"""

from __future__ import annotations

import json
import signal
import threading
import time
from pathlib import Path

import pytest
from server_harness import Postgres, start_server
from test_server_tables_games import Replay, _bodies, _play, play_clients

from ttrlib import Game
from ttrlib.plain import action_from_plain, to_plain
from ttrlib.seats import seat_name

pytestmark = pytest.mark.hub
ROOT = Path(__file__).resolve().parents[1]
CLIENT = Path(__file__).with_name("table_client.py")


@pytest.fixture(scope="module")
def pg():
    cluster = Postgres()
    yield cluster
    cluster.stop()


@pytest.fixture
def pair(tmp_path, pg):
    """Two servers, each with its own data folder (its secrets), on one database."""
    url = pg.new_database()
    one = start_server(tmp_path / "one", args=["--db", url])
    try:
        # the same teacher token on both: a school's servers share their secrets
        (tmp_path / "two").mkdir()
        for name in ("teacher-token", "class-secret"):
            (tmp_path / "two" / name).write_text((tmp_path / "one" / name).read_text())
        two = start_server(tmp_path / "two", args=["--db", url])
    except BaseException:
        one.stop()
        raise
    yield one, two
    for server in (one, two):
        server.stop()


def _next_move(server, table: dict):
    """(seat name, action) of the seat to move, chosen from the table's log replayed here."""
    log = server.request("GET", f"/api/tables/{table['table']}/log", token=server.token)[1]
    game = Game.new(players=log["players"], seed=log["seed"])
    for a in log["actions"]:
        game.apply(action_from_plain(a))
    return seat_name(game.to_move), game.legal_actions()[0]


def test_a_move_through_one_server_wakes_a_seat_waiting_on_the_other(pair):
    one, two = pair
    table = one.new_table(players=4, seed=9)
    tid = table["table"]
    path = f"/api/tables/{tid}/seats/A2?key={table['seats']['A2']['key']}"
    for _ in range(3):
        status, body, _ = two.request("GET", path)  # a table made on the other server
        assert status == 200
        version = body["version"]
        answer: dict = {}
        def wait(answer=answer, after=f"{path}&after={version}"):
            answer.update(got=two.request("GET", after), at=time.monotonic())

        waiting = threading.Thread(target=wait)
        waiting.start()
        time.sleep(0.3)  # the long-poll is waiting on server two
        name, action = _next_move(one, table)
        status, moved, _ = one.request(
            "POST", f"/api/tables/{tid}/seats/{name}/actions?key={table['seats'][name]['key']}",
            to_plain(action))
        sent = time.monotonic()
        assert status == 200, moved
        waiting.join(30)
        status, woken, _ = answer["got"]
        # server two's long-poll returns after 25 s with its old version if nothing woke it
        assert status == 200 and woken["version"] == version + 1 == moved["version"]
        assert answer["at"] - sent < 10
        assert woken == one.request("GET", path)[1]  # the same view of A2 from both


def test_learners_split_over_two_servers_play_a_whole_game(pair, tmp_path):
    one, two = pair
    table = one.new_table(players=4, seed=21, bots=["B2"])
    tid = table["table"]
    played = play_clients(table, {"A1": one, "B1": one, "A2": two}, tmp_path)
    replay = Replay(one, tid, bots={"B2"})
    assert replay.game.is_over
    for name, out in played:
        bodies = [json.loads(line) for line in out.read_text().splitlines()]
        assert bodies[-1]["view"]["phase"] == "over"
        for body in bodies:
            replay.check(name, body)
    # both servers end on the same log, with no move written twice
    logs = [s.request("GET", f"/api/tables/{tid}/log", token=s.token)[1] for s in (one, two)]
    assert logs[0] == logs[1] and len(logs[0]["actions"]) == len(replay.actions)


def test_one_server_killed_mid_game_and_the_other_plays_on(pair):
    one, two = pair
    table = one.new_table(players=4, seed=5, bots=["B2"])
    _play(one, table, 40, bots={"B2"})
    before = _bodies(one, table)
    assert before["A1"]["version"] > 40
    one.stop(signal.SIGKILL)  # no goodbye
    assert _bodies(two, table) == before
    _play(two, table, 10_000, bots={"B2"})
    final = _bodies(two, table)
    assert final["A1"]["view"]["phase"] == "over"
    replay = Replay(two, table["table"], bots={"B2"})
    for name in final:  # the learners' seats (B2, a bot's, has no key)
        replay.check(name, final[name])
        replay.check(name, before[name])
