"""Board positions (an optional table of the board file) and the board map drawn from them."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from ttrlib import Game  # noqa: E402
from ttrlib.board import board_from_dict, teaching_board  # noqa: E402
from ttrlib.errors import BoardError  # noqa: E402
from ttrlib.maps import draw_board  # noqa: E402


def small(**extra) -> dict:
    data = {"name": "tiny", "cities": ["A", "B", "C"],
            "routes": [{"id": "a-b", "a": "A", "b": "B", "length": 2, "color": "red"},
                       {"id": "b-c", "a": "B", "b": "C", "length": 3, "color": "gray",
                        "tunnel": 4}],
            "tickets": [{"id": "T1", "a": "A", "b": "C", "points": 5}]}
    data.update(extra)
    return data


def test_the_teaching_board_places_every_city():
    board = teaching_board()
    assert set(board.positions) == set(board.cities)
    lon, lat = board.positions["Lhasa"]
    assert 85 < lon < 95 and 25 < lat < 35  # the Tibetan plateau


@pytest.mark.parametrize("positions, words", [
    ({"A": [0, 0], "B": [1, 0], "Z": [2, 0]}, ["positions ('Z')", "not in 'cities'"]),
    ({"A": [0, 0], "B": [1, 0], "C": [2]}, ["positions ('C')", "[x, y]"]),
    ({"A": [0, 0], "B": [1, 0], "C": ["x", 1]}, ["positions ('C')", "[x, y]"]),
    ({"A": [0, 0], "B": [1, 0]}, ["positions", "missing ['C']"]),
    ([1, 2], ["'positions' must be a table"]),
])
def test_bad_positions_are_rejected_naming_the_entry(positions, words):
    with pytest.raises(BoardError) as info:
        board_from_dict(small(positions=positions), source="tiny.toml")
    for w in words:
        assert w in str(info.value), str(info.value)


def test_the_map_draws_every_track_and_marks_claimed_ones():
    board = teaching_board()
    game = Game.new(players=4, seed=0)
    claimed = {board.routes[0].id: 0, board.routes[5].id: 3}
    fig, ax = plt.subplots()
    draw_board(board, claimed, ax=ax)
    colour_lines = [ln for ln in ax.lines if ln.get_linewidth() in (3.2, 4.4)]
    assert len(colour_lines) == len(board.routes)
    badges = sorted(t.get_text() for t in ax.texts if t.get_text() in ("A", "B", "C"))
    assert badges == ["A", "B"]
    tunnels = {r.group or r.id for r in board.routes if r.is_tunnel}
    assert sum(t.get_text().startswith("▲") for t in ax.texts) == len(tunnels)
    assert game.board.positions == board.positions
    plt.close(fig)


def test_a_board_without_positions_cannot_be_drawn():
    with pytest.raises(ValueError, match="no 'positions'"):
        draw_board(board_from_dict(small()))


def test_positions_survive_save_and_resume():
    game = Game.new(players=4, seed=2)
    assert Game.from_json(game.to_json()).board.positions == teaching_board().positions


def test_team_game_shows_the_board_map_on_demand():
    from ttrlib.widgets import TeamGame

    w = TeamGame(seed=4)
    assert w.board_map.value == ""
    w.map_button.click()
    assert w.board_map.value.startswith("<img") and "base64," in w.board_map.value
    assert w.map_button.description == "Update the board map"
