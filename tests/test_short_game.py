"""A short game for a lesson (issue 32, item 4): the C3 short-game policy of the rules reference.

``Game.new(..., trains=N)`` gives every player N trains (10 to 27), kept in the state and its
save, shown where a seat sees trains; every other rule is unchanged. The expected values are
counted by hand from the rule (N each, N + N per team, E1 at 4 or fewer), not read from ttrlib.
"""

from __future__ import annotations

import json

import pytest

from ttrlib import Game, display
from ttrlib.bots import GreedyBot
from ttrlib.errors import SaveError, SetupError
from ttrlib.session import SeatSession, new_game
from ttrlib.state import LESSON_TRAINS


def _play_out(game: Game) -> Game:
    bots = [GreedyBot(seed=s) for s in range(game.players)]
    while not game.is_over:
        game.apply(bots[game.to_move].choose(game.view(game.to_move), game.legal_actions()))
        game._check_invariants()  # C3: trains left + trains on the board == 12, every seat
    return game


def test_C3_a_short_game_is_accepted_with_12_trains_each_and_ends_by_E1():
    game = Game.new(players=4, seed=2, trains=12)
    assert game.trains == [12, 12, 12, 12] and game.team_trains(0) == 24
    _play_out(game)
    lengths = {r.id: r.length for r in game.board.routes}
    for seat in range(4):  # every seat began with 12: what is left plus what it laid
        laid = sum(lengths[r] for r, s in game.claimed.items() if s == seat)
        assert game.trains[seat] + laid == 12
    assert min(game.team_trains(t) for t in range(2)) <= 4  # E1 ended it


@pytest.mark.parametrize("trains", [9, 28, 0, -1, True, 12.0, "12", None])
def test_C3_a_short_game_of_no_allowed_size_is_refused_naming_trains(trains):
    with pytest.raises(SetupError, match=r"^trains: .*10 to 27"):
        Game.new(players=4, seed=1, trains=trains)


def test_a_short_game_saves_and_loads_with_its_trains_and_a_standard_save_is_unchanged():
    game = Game.new(players=6, seed=4, trains=10)
    bots = [GreedyBot(seed=s) for s in range(6)]
    for _ in range(60):
        game.apply(bots[game.to_move].choose(game.view(game.to_move), game.legal_actions()))
    again = Game.from_json(game.to_json())
    assert again.trains_per_player == 10 and again.trains == game.trains
    assert again.to_json() == game.to_json()
    assert "trains_per_player" not in json.loads(Game.new(players=4, seed=4).to_json())["start"]
    assert Game.from_json(Game.new(players=4, seed=4).to_json()).trains_per_player == 27


@pytest.mark.parametrize("value,field", [(9, "start.trains_per_player"),
                                         (11, "start.trains"), ("x", "start.trains_per_player")])
def test_a_save_whose_trains_per_player_was_changed_is_refused(value, field):
    data = json.loads(Game.new(players=4, seed=4, trains=10).to_json())
    data["start"]["trains_per_player"] = value
    with pytest.raises(SaveError, match=field.replace(".", r"\.")):
        Game.from_json(json.dumps(data))


def test_a_seat_sees_the_short_game_where_it_sees_trains():
    view = Game.new(players=4, seed=3, trains=12).view(1)
    assert display.trains_each(view) == 12
    assert "Trains left (of 12, a short game)" in display.players_html(view)
    standard = Game.new(players=4, seed=3).view(1)
    assert "Trains left (of 27)</th>" in display.players_html(standard)


def test_a_new_deal_of_a_short_game_session_stays_short():
    session = SeatSession(new_game(7, 4, trains=12), 0)
    session.new_game()
    assert session.game.trains_per_player == 12 and session.view().trains == (12,) * 4


def test_the_lesson_tables_trains_are_short_games():
    assert LESSON_TRAINS == {4: 12, 6: 10}
    for players, trains in LESSON_TRAINS.items():
        assert _play_out(Game.new(players=players, seed=1, trains=trains)).is_over


def test_the_team_game_widget_deals_a_short_game_and_shows_it():
    from ipywidgets.widgets.widget import Widget

    from ttrlib.widgets import TeamGame

    g = TeamGame(trains=12)
    try:
        assert g.view().trains == (12,) * 4 and "(of 12, a short game)" in g.table.value
        g.new_game_button.click()
        assert g.view().trains == (12,) * 4
    finally:
        Widget.close_all()


# --- the guide (issue 32, items 4 and 11) --------------------------------------------------------
def _teachers_markdown() -> list[str]:
    from pathlib import Path

    nb = json.loads((Path(__file__).parents[1] / "notebooks" / "teachers.ipynb").read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


def test_the_guides_overview_names_lesson_08_and_running_the_room_its_tables():
    cells = _teachers_markdown()
    overview = cells[0]
    assert "[08 Play at a real table](08-play-at-a-table.ipynb)" in overview
    assert "tables of lesson 08" in overview
    room = next(c for c in cells if c.startswith("## Running the room"))
    assert "**Tables (lesson 08).**" in room and "TABLE_POOL" in room and "63 to 80" not in room
    assert "face down" in room and "12 trains per player" in room


def test_the_08_plan_is_timed_from_the_short_game():
    from ttrlib.lessons import catalog

    guide = catalog.guide("08")
    plan = " ".join(step.activity for step in guide.plan)
    assert f"{LESSON_TRAINS[4]} trains per player" in plan and f"{LESSON_TRAINS[6]} at six" in plan
    assert "never project them" in plan and "print or project" not in plan
    # the preparation is not in the lesson's 45 minutes, and a six-player table is timed too
    # (bench_short_game: 56 turns, 44 to 77, up to 38 minutes at 30 s a turn)
    assert plan.startswith("Before the class (not in these 45 minutes)")
    assert "At six players it lasts about 56 turns (44 to 77)" in plan and "up to 38" in plan
    assert sum(step.minutes for step in guide.plan) == 45
