"""Lesson 00's hand-written answer key, checked against the library.

Each answer is computed here with the engine and the board (never read from the key) and then
compared with the key: a rule bug in the library shows up as a disagreement with the hand count.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from ttrlib import IllegalMove, seat_name, teaching_board
from ttrlib import actions as act
from ttrlib.cards import CardCounts
from ttrlib.lessons import start_here
from ttrlib.lessons.answers import load_key

KEY = load_key("00", Path(__file__).resolve().parents[1] / "notebooks" / "answers")


def test_b1_teammate_is_the_seat_the_engine_pairs_with_b1():
    game = start_here.k1_position()
    b1 = [s for s in range(game.players) if seat_name(s) == "B1"][0]
    assert KEY["b1-teammate"].answer == seat_name(game.view(b1).teammate)


def test_tunnels_revealing_five_counted_on_the_board():
    count = sum(1 for r in teaching_board().routes if r.is_tunnel and r.tunnel == 5)
    assert KEY["tunnels-reveal-5"].answer == Fraction(count)


def test_k1_cards_are_hand_plus_team_cardholder_and_never_the_teammates():
    game = start_here.k1_position()
    view = game.view(0)
    usable = len(view.hand) + len(view.team_cardholder)
    assert KEY["k1-cards"].answer == Fraction(usable)
    # Every legal payment the engine offers fits inside hand + cardholder ...
    claims = game.legal_claims(0)
    assert claims
    assert all(c.hand <= view.hand and c.cardholder <= view.team_cardholder for c in claims)
    # ... and a claim that reaches into A2's hand is refused by K1.
    route = claims[0]
    with pytest.raises(IllegalMove, match="K1"):
        game.apply(act.Claim(route.route, route.hand, route.cardholder,
                             teammate=CardCounts(green=1)))


def test_the_k1_position_is_the_one_the_key_describes():
    """The worked step counts 3 red + 1 blue, 1 green + 1 locomotive, and A2's 5 cards."""
    view = start_here.k1_position().view(0)
    assert view.hand == CardCounts(red=3, blue=1)
    assert view.team_cardholder == CardCounts(green=1, locomotive=1)
    assert view.hand_sizes[1] == 5


# --- the numbers lesson 00 states are computed, not typed (issue 14) --------------------------
def test_player_and_team_counts_come_from_the_engine():
    assert start_here.player_counts() == [4, 6]  # C2, read by hand: 4 or 6 players
    words = start_here.team_asia_words()
    assert "4 players in 2 teams or 6 players in 3 teams" in words
    assert "A1, A2, B1, B2 (and C1, C2 with 6 players)" in words


def test_lesson_times_are_read_from_the_catalogue_not_typed():
    import json
    import re

    from ttrlib.lessons import catalog

    table = start_here.lessons_table()
    for entry in catalog.lessons():
        assert re.search(rf"{re.escape(entry.name)}.*\| {entry.minutes}\u00a0min \|", table)
    assert f"**{catalog.total_minutes()} minutes**" in table
    nb = json.loads((Path(__file__).resolve().parents[1] / "notebooks" / "00-start-here.ipynb")
                    .read_text(encoding="utf-8"))
    prose = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert not re.search(r"\d+ min", prose), "lesson 00 types a lesson time by hand"
