"""``Game.from_position``: exact positions for tests and lessons, and its refusals."""

import pytest

from ttrlib import actions as act
from ttrlib.cards import CardCounts, Color, standard_deck
from ttrlib.errors import SetupError
from ttrlib.game import Game

ROW = ["green", "purple", "white", "orange", "black"]


def test_the_top_of_a_full_pile_can_be_stacked():
    hand = CardCounts(red=2)
    g = Game.from_position(hands=[hand, CardCounts(), CardCounts(), CardCounts()], face_up=ROW,
                           draw_pile=["locomotive", "red"], rest_to="draw_pile")
    assert g.discard == [] and g.draw_pile[-2:] == [Color.RED, Color.LOCOMOTIVE]
    assert len(g.draw_pile) == 110 - 2 - 5
    g.apply(act.DrawCard("deck"))
    assert g.drawn_card is Color.LOCOMOTIVE  # the top card, as given


def test_the_rest_can_go_to_the_discard_beside_a_given_discard():
    g = Game.from_position(face_up=ROW, draw_pile=["red"], discard=CardCounts(blue=3),
                           rest_to="discard")
    assert g.draw_pile == [Color.RED]
    assert CardCounts.of(g.discard) == standard_deck() - CardCounts.of(ROW) - CardCounts(red=1)


def test_auto_keeps_its_documented_meaning():
    only_pile = Game.from_position(face_up=ROW, draw_pile=["red"])
    assert only_pile.draw_pile == [Color.RED] and len(only_pile.discard) == 110 - 6
    neither = Game.from_position(face_up=ROW)
    assert neither.discard == [] and len(neither.draw_pile) == 105
    with pytest.raises(SetupError, match="not placed anywhere"):
        Game.from_position(face_up=ROW, draw_pile=["red"], discard=CardCounts())


def test_the_rest_can_go_to_a_seats_hand():
    g = Game.from_position(face_up=ROW, draw_pile=["red"], rest_to=2)
    assert g.draw_pile == [Color.RED] and g.discard == []
    assert g.hands[2] == standard_deck() - CardCounts.of(ROW) - CardCounts(red=1)
    with pytest.raises(SetupError, match="no seat 4"):
        Game.from_position(rest_to=4)


def test_bad_positions_are_refused():
    with pytest.raises(SetupError, match="rest_to"):
        Game.from_position(rest_to="hand")
    with pytest.raises(SetupError, match="more cards than the deck has"):
        Game.from_position(hands=[CardCounts(red=13), CardCounts(), CardCounts(), CardCounts()])
    with pytest.raises(SetupError, match="C2"):
        Game.from_position(players=5)


@pytest.mark.parametrize("kwargs, field", [
    (dict(claimed={"hanoi-kunming": 9}), "claimed"),
    (dict(claimed={"hanoi-kunming": "A1"}), "claimed"),
    (dict(claimed={"hanoi-kunming": -1}), "claimed"),  # not seat 3 counted from the end
    (dict(claimed=[("hanoi-kunming", 0)]), "claimed"),
    (dict(trains=[27, 27, 27]), "trains"),
    (dict(trains=["27"] * 4), "trains"),
    (dict(hands=[{"red": -1}, {}, {}, {}]), "hands[0]"),
    (dict(hands=["red"] * 4), "hands"),
    (dict(face_up=["red", "pink", None, None, None]), "face_up[1]"),
    (dict(draw_pile=[None]), "draw_pile[0]"),
    (dict(discard="red"), "discard"),
    (dict(tickets=[[7], [], [], []]), "tickets[0]"),
    (dict(ticket_deck=[None]), "ticket_deck"),
    (dict(rest_to="x" * 10_000), "rest_to"),
    (dict(players=10 ** 5000), "C2"),
])
def test_a_malformed_position_is_refused_naming_the_argument(kwargs, field):
    with pytest.raises(SetupError) as info:
        Game.from_position(**kwargs)
    message = str(info.value)
    assert field in message and len(message) <= 400


def test_view_of_a_seat_that_is_not_there_is_refused_briefly():
    game = Game.new(players=4, seed=1)
    for seat in (4, -1, True, "x" * 10_000):
        with pytest.raises(ValueError) as info:
            game.view(seat)
        assert len(str(info.value)) < 200
