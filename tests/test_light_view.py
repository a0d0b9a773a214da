"""Issue 24 item 2: the bots' light view (``observer.LightView``) builds each field when read,
and every field equals the full ``Game.view`` of the same moment (I1: it shows no more)."""

from __future__ import annotations

import dataclasses

import pytest

from ttrlib import Game, PlayerView
from ttrlib.bots import GreedyBot, RandomBot, play
from ttrlib.observer import LightView

NAMES = [f.name for f in dataclasses.fields(PlayerView)]


@pytest.mark.parametrize("players,seed", [(4, 2), (6, 5)])
def test_every_field_of_every_seat_equals_the_full_view_at_every_step(players, seed):
    g = Game.new(players=players, seed=seed)
    bots = [RandomBot(seed=seed * 10 + s) for s in range(players)]
    steps = 0
    while not g.is_over:
        for seat in range(players):
            full, light = g.view(seat), g.light_view(seat)
            for name in NAMES:  # one field at a time, each read first on its own
                assert getattr(light, name) == getattr(full, name), name
            assert light == full and full == light
        g.apply(bots[g.to_move].choose(None, g.legal_actions()))
        steps += 1
    assert steps > 100


def test_a_field_first_read_after_close_raises_and_one_read_before_stays():
    g = Game.new(players=4, seed=1)
    light = g.light_view(0)
    hand = light.hand
    light.close()
    g.apply(g.legal_actions()[0])
    assert light.hand == hand
    with pytest.raises(RuntimeError, match="first read after the decision"):
        _ = light.unseen


def test_greedy_bots_are_handed_a_light_view_and_play_the_same_games():
    """``play`` hands GreedyBot a LightView; the moves are those made with full views."""
    handed = []

    class Recording(GreedyBot):
        def choose(self, view, legal):
            handed.append(type(view))
            return super().choose(view, legal)

    class Full(GreedyBot):
        light_view = False

    games = []
    for kind in (Recording, Full):
        g = Game.new(players=4, seed=3)
        play(g, [kind(seed=30 + s) for s in range(4)])
        games.append(g.history)
    assert handed and set(handed) == {LightView}
    assert games[0] == games[1]


class _Recording(GreedyBot):
    """A GreedyBot that notes each view it is handed (its type, and the view itself)."""

    def __init__(self, seed, handed: list):
        super().__init__(seed=seed)
        self.handed = handed

    def choose(self, view, legal):
        self.handed.append(view)
        return super().choose(view, legal)


def _closed_after_the_decision(handed: list) -> bool:
    """Every view handed was a LightView that can no longer build a field (closed before the
    action was applied): ``unseen`` is never read by GreedyBot, so it was not built."""
    for view in handed:
        try:
            _ = view.unseen
        except RuntimeError:
            continue
        return False
    return True


def test_a_seat_sessions_bots_are_handed_a_light_view_closed_before_the_action():
    from ttrlib.session import SeatSession

    handed: list = []
    game = Game.new(players=4, seed=4)
    session = SeatSession(game, 0, bots=[_Recording(40 + s, handed) for s in range(4)])
    session.play_setup(humans=[])  # the bots choose every seat's tickets
    session.bot_plays_my_turn()
    assert session.play_others() > 0
    assert handed and {type(v) for v in handed} == {LightView}
    assert _closed_after_the_decision(handed)


def test_the_class_servers_bots_are_handed_a_light_view_closed_before_the_action(tmp_path):
    from ttrlib.experiments import PRESETS
    from ttrlib.server import db
    from ttrlib.server.table_store import TableStore

    store = TableStore(db.connect(tmp_path / "tables.db"))
    preset = next(iter(PRESETS))
    table = store.create(4, seed=5, bots={"A2": preset, "B1": preset, "B2": preset})
    handed: list = []
    for seat in (1, 2, 3):
        table.players_of_bots[seat] = _Recording(50 + seat, handed)
    first = table.game.legal_actions()[0]
    store.move(table, 0, first)  # A1 keeps its tickets; the server then lets the bots play
    store.play_bots(table)
    assert handed and {type(v) for v in handed} == {LightView}
    assert _closed_after_the_decision(handed)
