"""The team game's route list offers no track K3 has closed, and preselects none (issue 32,
item 8). The closed tracks are worked out here from the rule's text (4 players: once one track
of a double route is claimed the other is closed; a triple route keeps its other two open after
one claim; one player never claims two tracks between the same cities), not from ttrlib."""

from __future__ import annotations

from collections import defaultdict

import pytest
from ipywidgets.widgets.widget import Widget

from ttrlib import Game
from ttrlib.bots import GreedyBot
from ttrlib.cards import CardCounts
from ttrlib.widgets import TeamGame


@pytest.fixture(autouse=True)
def empty_registry():
    Widget.close_all()
    yield
    Widget.close_all()


def _groups(board) -> dict[str, list[str]]:
    groups = defaultdict(list)
    for r in board.routes:
        if r.group:
            groups[r.group].append(r.id)
    return groups


@pytest.mark.parametrize("hand", [CardCounts(), CardCounts(red=3, blue=2, locomotive=2)])
def test_K3_closed_tracks_are_not_offered_and_not_preselected(hand):
    board = Game.new(players=4, seed=0).board
    groups = _groups(board)
    claimed, closed, trains = {}, set(), {2: 0, 3: 0, 0: 0}
    lengths = {r.id: r.length for r in board.routes}
    for group, ids in sorted(groups.items()):
        first, *rest = sorted(ids)
        if len(ids) == 3 and trains[0] + lengths[first] <= 27:  # A1 owns one of a triple
            seat = 0
            closed.update(rest)  # one player never claims two tracks between the same cities
        else:
            seat = 2 if trains[2] <= trains[3] else 3
            if group not in board.open_groups and len(ids) == 2:
                closed.update(rest)  # 4 players: the other track of a double is closed
        if trains[seat] + lengths[first] > 27:
            continue
        trains[seat] += lengths[first]
        claimed[first] = seat
    assert closed and any(s == 0 for s in claimed.values())
    game = Game.from_position(seed=0, claimed=claimed, hands=[hand, CardCounts(), CardCounts(),
                                                              CardCounts()])
    g = TeamGame(game, bots=[GreedyBot(seed=s) for s in range(4)])
    offered = {rid for _, rid in g.route.options}
    expected = {r.id for r in board.routes} - set(claimed) - closed
    assert offered == expected
    assert g.route.value in expected
    # the routes table says why those tracks are not in the list
    assert g.table.value.count("closed to you (K3)") == len(closed)
