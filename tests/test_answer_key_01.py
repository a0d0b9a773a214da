"""Lesson 01's hand-written answer key, checked against the library.

Each answer is computed here by playing the exercise's position in the engine (never read from
the key), then compared with the key.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from ttrlib import actions as act
from ttrlib.cards import Color
from ttrlib.game import Phase
from ttrlib.lessons import card_splits
from ttrlib.lessons.answers import load_key

KEY = load_key("01", Path(__file__).resolve().parents[1] / "notebooks" / "answers")


def _option(source) -> str:
    return "the deck" if source == "deck" else f"slot {source}"


def test_second_card_goes_to_the_other_place():
    game = card_splits.position(draw_pile=["yellow", "black", "white"])
    game.apply(act.DrawCard("deck"))
    game.apply(act.PlaceCard("cardholder"))
    before = game.view(0)
    choices = {type(a) for a in game.legal_actions()}
    assert choices == {act.DrawCard}  # no PlaceCard offered: the second card has no choice
    game.apply(act.DrawCard("deck"))
    after = game.view(0)
    grew = {"into A1's hand": len(after.hand) - len(before.hand),
            "into the Team A cardholder": len(after.team_cardholder) - len(before.team_cardholder)}
    assert sorted(grew.values()) == [0, 1]
    assert KEY["second-card-place"].answer == max(grew, key=grew.get)


def test_second_card_slots_after_the_red_is_placed():
    game = card_splits.second_slots_position()
    game.apply(act.DrawCard(1))
    assert game.view(0).face_up[1] is None  # D3 policy: nothing turned up before the placing
    game.apply(act.PlaceCard("hand"))
    assert game.face_up[1] is Color.LOCOMOTIVE  # then the top card refills slot 1
    allowed = {_option(a.source) for a in game.legal_actions()}
    assert KEY["second-card-slots"].answer == frozenset(allowed)


def test_reset_count_when_the_refill_is_a_third_locomotive():
    game = card_splits.reset_exercise_position()
    game.apply(act.DrawCard(3))
    game.apply(act.PlaceCard("hand"))
    assert game.phase is Phase.SECOND_CARD  # all of it happened before the second pick
    assert KEY["reset-count"].answer == Fraction(len(game.discard))
    assert Color.LOCOMOTIVE not in game.face_up  # the new row holds none: one reset only


def test_d2_a_face_up_locomotive_first_is_the_whole_draw():
    game = card_splits.example()
    before = game.view(0)
    game.apply(act.DrawCard(1))  # the face-up locomotive
    after = game.view(0)
    taken = (len(after.hand) - len(before.hand)) + (
        len(after.team_cardholder) - len(before.team_cardholder))
    assert game.to_move == 1  # the turn is over
    assert KEY["d2-cards-taken"].answer == Fraction(taken)


# --- the prose says what the engine allows (expected sentences written by hand) ----------------
def test_may_now_walks_through_every_step_of_example_1():
    game = card_splits.example()
    game.apply(act.DrawCard(0))
    assert "must** say where it goes: their hand or the team cardholder" in \
        card_splits.may_now(game)
    game.apply(act.PlaceCard("hand"))
    text = card_splits.may_now(game)
    assert ("from the deck, slot 0 (yellow), slot 2 (blue) or slot 4 (green); it will go to the "
            "team cardholder") in text
    assert "Not slot 1 (locomotive) or slot 3 (locomotive)" in text


def test_the_stacked_position_resets_twice_after_the_placing():
    game = card_splits.stacked_reset_position()
    game.apply(act.DrawCard(0))
    assert not any(e.kind == "reset" for e in game.events)  # nothing before the placing
    game.apply(act.PlaceCard("hand"))
    assert sum(e.kind == "reset" for e in game.events) == 2  # counted by hand: 2 rows of 5
    assert len(game.discard) == 10
