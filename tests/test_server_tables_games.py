"""Whole games at a class table through the JSON API (issue 19, "Tests").

- Four client processes (``tests/table_client.py``), one per seat, play a game to the end; the
  log, replayed in a fresh ``Game``, ends in the state the seats and the board were shown.
- Every body a seat received holds exactly that seat's view: each is compared, field by field,
  with ``view_to_plain(game.view(seat))``, the seat's legal actions and the narrated log of a
  local replay at the body's version (the expected values come from the engine, the bodies from
  the server: two different paths).
- The server killed with SIGKILL mid-game and restarted on the same data shows every seat the
  same thing as before, and the game plays on to the end (a bot seat too).

Only the SIGKILL test starts a server process; the others run it in this process
(``server_harness.in_process``, a real port of 127.0.0.1 that the client processes reach).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from server_harness import in_process, start_server

from ttrlib import Game, narration
from ttrlib.plain import action_from_plain, public_to_plain, to_plain, view_to_plain
from ttrlib.seats import seat_name

ROOT = Path(__file__).resolve().parents[1]
CLIENT = Path(__file__).with_name("table_client.py")
SEATS = ["A1", "A2", "B1", "B2"]


class Replay:
    """The table's log replayed in a fresh Game, with what each seat should have been sent at
    every version (computed from the engine, not from the server's code)."""

    def __init__(self, server, tid: str, bots=()):
        status, log, _ = server.request("GET", f"/api/tables/{tid}/log", token=server.token)
        assert status == 200
        self.actions = [action_from_plain(a) for a in log["actions"]]
        self.bots = set(bots)
        game = Game.new(players=log["players"], seed=log["seed"])
        self.expected = {}  # (version, seat) -> (view, legal, events, scores)
        self.public = {}
        self.by_bot: set[int] = set()  # the events of the bots' moves (issue 32 b)
        self._note(game, 0)
        for v, action in enumerate(self.actions, 1):
            before, mover = len(game.events), seat_name(game.to_move)
            game.apply(action)
            if mover in self.bots:
                self.by_bot |= set(range(before, len(game.events)))
            self._note(game, v)
        self.game = game

    def lines(self, game: Game, seat: int) -> list[str]:
        """The narrated log a seat reads: a bot's move says so ("B2 (played by the bot) ...")."""
        lines = narration.lines(game.events, seat)
        for i in self.by_bot:
            if i < len(lines) and game.events[i].seat is not None:
                name = seat_name(game.events[i].seat)
                if lines[i].startswith(name + " "):
                    lines[i] = name + " (played by the bot)" + lines[i][len(name):]
        return lines

    def _note(self, game: Game, version: int) -> None:
        for s in range(game.players):
            name = seat_name(s)
            mine = not game.is_over and game.to_move == s and name not in self.bots
            self.expected[version, name] = (
                view_to_plain(game.view(s)),
                to_plain(game.legal_actions()) if mine else [],
                self.lines(game, s),
                to_plain(game.scores()) if game.is_over else None)
        self.public[version] = public_to_plain(game.view(0))

    def check(self, name: str, body: dict) -> None:
        """``body`` (sent to seat ``name``) is what that seat should see at its version."""
        view, legal, lines, scores = self.expected[body["version"], name]
        assert body["view"] == view, f"{name} v{body['version']}: the view differs"
        assert body["legal"] == legal, f"{name} v{body['version']}: the legal actions differ"
        since = body["event_count"] - len(body["events"])
        assert body["event_count"] == len(lines)
        assert body["events"] == lines[since:]
        assert body["scores"] == scores


def play_clients(table: dict, servers: dict, tmp_path: Path) -> list[tuple[str, Path]]:
    """Each seat of ``servers`` (name -> the server its client talks to) played to the end by
    a client process (table_client.py); returns (seat, its bodies file). Every client still
    running after a failure is stopped."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = []
    try:
        for name, server in servers.items():
            out = tmp_path / f"{name}.jsonl"
            procs.append((name, out, subprocess.Popen(
                # "--": a seat key (token_urlsafe) may begin with "-", which argparse would
                # take for an option (1 key in 64)
                [sys.executable, str(CLIENT), "--", server.url, table["table"], name,
                 table["seats"][name]["key"], str(out)], env=env,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)))
        for name, _, proc in procs:
            assert proc.wait(600) == 0, f"{name}: {proc.stdout.read().decode()[-2000:]}"
    finally:
        for _, _, proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(30)
    return [(name, out) for name, out, _ in procs]


def test_four_client_processes_play_a_whole_game_and_every_body_is_the_seats_view(tmp_path):
    server = in_process(tmp_path / "data")
    try:
        table = server.new_table(players=4, seed=11)
        tid = table["table"]
        played = play_clients(table, {name: server for name in SEATS}, tmp_path)

        replay = Replay(server, tid)
        assert replay.game.is_over
        checked = set()
        for name, out in played:
            bodies = [json.loads(line) for line in out.read_text().splitlines()]
            assert bodies[-1]["view"]["phase"] == "over"
            for body in bodies:
                assert body["seat"] == name and body["table"] == tid
                replay.check(name, body)
                checked.add(body["version"])
        # every version was seen by some seat: the clients followed the whole game
        assert checked == set(range(len(replay.actions) + 1))
        status, public, _ = server.request("GET", f"/api/tables/{tid}/public")
        assert public["version"] == len(replay.actions)
        assert public["public"] == replay.public[public["version"]]
        assert public["scores"] == to_plain(replay.game.scores())
        # the board of the final state: the winners and the totals of the replayed game
        status, page, _ = server.request("GET", f"/tables/{tid}/board")
        assert status == 200
        total_row = re.search(r'<tr class="tb-total">(.*?)</tr>', page).group(1)
        assert re.findall(r'class="tb-num">(-?\d+)', total_row) == [
            str(sheet.total) for sheet in replay.game.scores()]
    finally:
        server.stop()


def _play(server, table: dict, moves: int, bots=()) -> int:
    """The learners' seats make ``moves`` moves through the API (each seat its own legal action
    chosen by a bot from what the server sent); returns how many were made."""
    from table_client import play

    made = 0
    while made < moves:
        progressed, version = 0, None
        for name in SEATS:
            if name in bots:
                continue
            status, body, _ = server.request(
                "GET", f"/api/tables/{table['table']}/seats/{name}?key={table['seats'][name]['key']}")
            version = body["version"]
            if body["view"]["phase"] == "over":
                return made
            if body["legal"]:
                with open(os.devnull, "w") as sink:
                    n = play(server.url, table["table"], name, table["seats"][name]["key"], sink,
                             moves=1, seed=made)
                made += n
                progressed += n
        if not progressed:  # a bot's move is due: wait for it (long-poll)
            status, body, _ = server.request(
                "GET", f"/api/tables/{table['table']}/public?after={version}")
            assert body["version"] > version, "no seat could move and no bot moved"
    return made


def _bodies(server, table: dict) -> dict:
    """Every learner's seat's body (a bot's seat has no key: issue 32 a)."""
    return {name: server.request(
        "GET", f"/api/tables/{table['table']}/seats/{name}?key={table['seats'][name]['key']}")[1]
        for name in SEATS if table["seats"][name]["key"]}


def test_a_server_killed_mid_game_comes_back_with_every_move_and_plays_on(tmp_path):
    data = tmp_path / "data"
    server = start_server(data)
    table = server.new_table(players=4, seed=5, bots=["B2"])
    try:
        _play(server, table, 40, bots={"B2"})
        before = _bodies(server, table)
        assert before["A1"]["version"] > 40  # the bot's moves are in the log too
    finally:
        server.stop(signal.SIGKILL)  # no goodbye: whatever was answered must be on disk
    server = start_server(data)
    try:
        after = _bodies(server, table)
        assert sorted(after) == ["A1", "A2", "B1"]
        for name in after:
            assert after[name] == before[name], f"{name} sees another game after the restart"
        _play(server, table, 10_000, bots={"B2"})
        final = _bodies(server, table)
        assert final["A1"]["view"]["phase"] == "over"
        replay = Replay(server, table["table"], bots={"B2"})
        for name in final:
            replay.check(name, final[name])
            replay.check(name, before[name])
    finally:
        server.stop()


@pytest.mark.parametrize("players", [6])
def test_a_six_player_table_of_bots_and_one_learner_ends_and_replays(tmp_path, players):
    """Five bots and one learner (C1): the bots play at once after each of C1's moves."""
    server = in_process(tmp_path / "data")
    try:
        seats = ["A1", "A2", "B1", "B2", "C2"]
        table = server.new_table(players=players, seed=3, bots=seats)
        key = table["seats"]["C1"]["key"]
        with open(tmp_path / "c1.jsonl", "w") as out:
            from table_client import play

            play(server.url, table["table"], "C1", key, out)
        replay = Replay(server, table["table"], bots=seats)
        assert replay.game.is_over
        for line in (tmp_path / "c1.jsonl").read_text().splitlines():
            body = json.loads(line)
            view, legal, lines, scores = replay.expected[body["version"], "C1"]
            assert body["view"] == view and body["legal"] == legal and body["scores"] == scores
    finally:
        server.stop()
