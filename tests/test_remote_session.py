"""RemoteSeatSession: SeatSession's interface over the class server's API (issue 19, item 3).

- At every step of whole games, a remote seat answers every question of the interface (view,
  legal actions, events, scores, turn, claimable routes, why a route cannot be claimed) as a
  ``SeatSession`` on a local replay of the table's log does.
- A refusal of the server becomes ``IllegalMove(rule, reason)`` and changes nothing.
- On a class server (in this process): the long-poll returns when another seat moves, the task started
  on a running event loop calls back on that loop, and a wrong key, an unknown table or a server
  that does not answer is a ``TableError`` that says what to do.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from server_harness import in_process
from table_fakes import InProcess

from ttrlib import Game
from ttrlib import actions as act
from ttrlib.bots import GreedyBot
from ttrlib.errors import IllegalMove, TableError
from ttrlib.remote_session import RemoteSeatSession
from ttrlib.session import SeatSession


def local_twin(table, seat: int) -> SeatSession:
    """A SeatSession on the table's log replayed in a fresh game (the server's code not used)."""
    game = Game.new(players=table.players, seed=table.seed)
    for a in table.actions:
        game.apply(a)
    return SeatSession(game, seat)


def same_answers(remote: RemoteSeatSession, twin: SeatSession) -> None:
    assert remote.view() == twin.view()
    assert remote.events() == twin.events()
    assert remote.legal_actions() == twin.legal_actions()
    assert (remote.my_turn, remote.is_over, remote.turns) == (twin.my_turn, twin.is_over,
                                                              twin.turns)
    assert remote.scores() == twin.scores()
    assert remote.claimable_routes() == twin.claimable_routes()
    for route in remote.view().board.routes:
        assert remote.claim_problem(route.id) == twin.claim_problem(route.id), route.id


@pytest.mark.parametrize("players, seed, seat", [(4, 2, 0), (6, 6, 3)])
def test_a_remote_seat_answers_as_a_seat_session_at_every_step(tmp_path, players, seed, seat):
    fake = InProcess(tmp_path / "t.sqlite3")
    names = ["A1", "A2", "B1", "B2", "C1", "C2"][:players]
    mine = names[seat]
    table = fake.store.create(players, seed, {n: "greedy" for n in names if n != mine})
    remote = fake.session(table, seat)
    bot = GreedyBot(seed=1)
    steps = 0
    while True:
        same_answers(remote, local_twin(table, seat))
        if remote.is_over:
            break
        assert remote.my_turn  # the server's bots played every other seat at once
        new = remote.apply(bot.choose(remote.view(), remote.legal_actions()))
        assert new == list(remote.events()[len(remote.events()) - len(new):])
        steps += 1
    assert steps > 30 and remote.scores() == local_twin(table, seat).game.scores()


def test_a_refusal_is_an_illegal_move_and_changes_nothing(tmp_path):
    fake = InProcess(tmp_path / "t.sqlite3")
    table = fake.store.create(4, 5, {})
    a1, b1 = fake.session(table, 0), fake.session(table, "B1")
    before = (a1.version, a1.view())
    with pytest.raises(IllegalMove) as refused:
        a1.apply(act.DrawCard("deck"))  # tickets first (T1)
    assert refused.value.rule == "T1"
    with pytest.raises(IllegalMove) as refused:
        b1.apply(a1.legal_actions()[0])  # not B1's move (C2)
    assert refused.value.rule == "C2" and "A1" in refused.value.reason
    a1.refresh()
    assert (a1.version, a1.view()) == before and table.version == 0
    for method, args in ((a1.new_game, ()), (a1.save, ("x",)), (a1.load, ("x",)),
                         (a1.bot_plays_my_turn, ())):
        with pytest.raises(IllegalMove, match="teacher"):
            method(*args)
    assert a1.play_others() == 0 and a1.play_setup() is None


def test_a_fresh_look_follows_a_table_that_went_back(tmp_path):
    """Were a table ever behind a session (a log cut short on replay), a refresh follows it;
    a long-poll's late answer, older than what the session holds, is dropped."""
    from ttrlib.server.table_store import seat_body

    fake = InProcess(tmp_path / "t.sqlite3")
    table = fake.store.create(4, 8, {"A2": "greedy", "B1": "greedy", "B2": "greedy"})
    a1 = fake.session(table, 0)
    bot = GreedyBot(seed=2)
    for _ in range(12):
        a1.apply(bot.choose(a1.view(), a1.legal_actions()))
    stale = {**seat_body(table, 0),
             "version": 1}
    assert a1._take(stale) == [] and a1.version == table.version  # dropped
    # back to a version where A1 is to move (at a bot's, the server would let the bot play)
    back = max(v for v in range(1, 20) if table.at_version(v).to_move == 0)
    table.undo_to(back)
    a1.refresh()
    assert a1.version == back and a1.view() == local_twin(table, 0).view()
    assert a1.events() == local_twin(table, 0).events()


def _shapes(good: dict):
    """Answers of the wrong shape, each built from a good seat's body (issue 30 finding 9)."""
    yield []
    yield "a page"
    for name in ("version", "view", "legal", "event_data", "scores", "bot", "turns"):
        yield {k: v for k, v in good.items() if k != name}
    for name, junk in (("version", "7"), ("version", True), ("event_count", None),
                       ("event_data", "x"), ("view", {}), ("view", {**good["view"],
                                                                   "phase": "nap"}),
                       ("legal", [{"type": "Nope"}]), ("event_data", [{"kind": "nope"}]),
                       ("event_data", [{"type": "Claimed", "seat": 0}]),
                       ("scores", [{}]), ("closed", 3), ("version", -2)):
        yield {**good, name: junk}


def test_a_server_answer_of_the_wrong_shape_is_a_table_error_and_changes_nothing(tmp_path):
    fake = InProcess(tmp_path / "t.sqlite3")
    table = fake.store.create(4, 3, {})
    a1 = fake.session(table, 0)
    good = fake("GET", f"{a1._path}?key={table.keys[0]}")[1]
    before = (a1.version, a1.view(), a1.legal_actions(), a1.events())
    checked = 0
    for answer in _shapes({**good, "version": good["version"] + 1}):
        a1._transport = lambda method, path, body=None, answer=answer: (200, answer)
        with pytest.raises(TableError) as caught:
            a1.refresh()
        assert "class server" in str(caught.value) and len(str(caught.value)) < 300
        assert (a1.version, a1.view(), a1.legal_actions(), a1.events()) == before
        checked += 1
    assert checked == 21


def test_a_closed_table_says_so_and_its_moves_are_a_table_error(tmp_path):
    fake = InProcess(tmp_path / "t.sqlite3")
    table = fake.store.create(4, 3, {})
    a1 = fake.session(table, 0)
    move = a1.legal_actions()[0]
    fake.store._close(table, "move 1 is missing from its log")
    a1.refresh()
    assert a1.closed == table.closed and not a1.my_turn
    with pytest.raises(TableError, match="This table is closed"):
        a1.apply(move)


# --- on a real server -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = in_process(tmp_path_factory.mktemp("remote") / "data")
    yield s
    s.stop()


def test_the_long_poll_returns_when_another_seat_moves(server):
    table = server.new_table(players=4, seed=13)
    keys = {n: s["key"] for n, s in table["seats"].items()}
    a1 = RemoteSeatSession(server.url, table["table"], "A1", keys["A1"])
    a2 = RemoteSeatSession(server.url, table["table"], "A2", keys["A2"])

    def a1_moves_later():
        time.sleep(1.0)
        a1.apply(a1.legal_actions()[0])

    mover = threading.Thread(target=a1_moves_later)
    t0 = time.monotonic()
    mover.start()
    new = asyncio.run(a2.poll())
    took = time.monotonic() - t0
    mover.join()
    assert 0.9 < took < 10 and a2.version == 1 and a2.my_turn
    assert new == []  # A1's setup choice is no public event until A2 has chosen too (T1)
    mover = threading.Thread(target=lambda: (time.sleep(0.5), a2.apply(a2.legal_actions()[0])))
    mover.start()
    new = asyncio.run(a1.poll())
    mover.join()
    assert a1.version == 2 and [e.kind for e in new] == ["tickets"]  # team A's shared tickets


def test_following_on_a_running_loop_calls_back_on_that_loop(server):
    table = server.new_table(players=4, seed=14, bots=["A2", "B1", "B2"])
    key = table["seats"]["A1"]["key"]
    a1 = RemoteSeatSession(server.url, table["table"], "A1", key)
    other = RemoteSeatSession(server.url, table["table"], "A1", key)  # the same seat elsewhere
    calls = []

    async def run():
        loop = asyncio.get_running_loop()
        a1.start(lambda events: calls.append((asyncio.get_running_loop() is loop, events)))
        await asyncio.sleep(0.3)
        other.apply(other.legal_actions()[0])  # the bots answer: the table moves on
        for _ in range(100):
            if calls:
                break
            await asyncio.sleep(0.1)
        a1.stop()

    asyncio.run(run())
    assert calls and all(on_loop for on_loop, _ in calls)
    assert a1.version == other.version and a1.view() == other.view()


def test_a_wrong_key_an_unknown_table_or_no_server_is_a_table_error(server, tmp_path):
    table = server.new_table(players=4)
    with pytest.raises(TableError, match="key"):
        RemoteSeatSession(server.url, table["table"], "A1", "not-the-key")
    with pytest.raises(TableError, match="no table"):
        RemoteSeatSession(server.url, "00000000", "A1", "k")
    with pytest.raises(TableError, match="no seat"):
        RemoteSeatSession(server.url, table["table"], "D7", "k")
    from server_harness import free_port

    with pytest.raises(TableError, match="does not answer"):
        RemoteSeatSession(f"http://127.0.0.1:{free_port()}", table["table"], "A1", "k")


def test_lesson_08_sits_at_the_links_seat_or_says_what_to_do(server, monkeypatch):
    from ttrlib.lessons import table as lesson

    made = server.new_table(players=4, seed=15)
    link = {"table": made["table"], "seat": "B1", "key": made["seats"]["B1"]["key"]}
    seat = lesson.open_seat(link, server.url)
    assert seat.session is not None and seat.session.seat == 2
    assert f"You are B1 (Team B) at table {made['table']}" in seat.message
    assert "Your teammate is B2" in seat.message
    for params, words in (({}, "opens from that seat"), ({**link, "key": ""}, "opens from that"),
                          ({**link, "key": "wrong"}, "does not open a seat"),
                          ({**link, "table": "00000000"}, "does not open a seat")):
        seat = lesson.open_seat(params, server.url)
        assert seat.session is None and words in seat.message, params
    monkeypatch.delenv(lesson.SERVER_ENV, raising=False)  # no class server in the environment
    seat = lesson.open_seat(link)
    assert seat.session is None and "not connected to a class server" in seat.message
