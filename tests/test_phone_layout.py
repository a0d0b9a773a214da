"""The team game on a 400 px phone (issue 32, item 13), the parts a test can check without a
browser; the screenshots of lesson 06 at 400 and 1280 px in the classroom app are in the
commit message. The face-up cards, the draw buttons and the hand come one after the other; the
boxes of the route and of the ways to pay are never wider than the screen, their options are
short and the chosen way to pay is also said in full words below; the seat line is two short
lines."""

from __future__ import annotations

import html
import re

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


def _game() -> TeamGame:
    game = Game.from_position(seed=0, hands=[CardCounts(red=3, locomotive=2), CardCounts(),
                                             CardCounts(), CardCounts()],
                              cardholders=[CardCounts(red=2, locomotive=1), CardCounts()])
    return TeamGame(game, bots=[GreedyBot(seed=s) for s in range(4)])


def test_the_face_up_cards_the_draw_buttons_and_the_hand_come_together():
    g = _game()
    kids = list(g.children)
    row, hand = kids.index(g.row), kids.index(g.cards)
    between = kids[row + 1:hand]
    assert len(between) == 3  # the "Draw train cards" label, the draw buttons, the place buttons
    assert g.deck in between[1].children and g.to_hand in between[2].children


def test_the_route_and_payment_boxes_fit_a_phone_and_say_the_payment_in_full():
    g = _game()
    for box, most in ((g.route, "400px"), (g.payment, "400px"), (g.tunnel_payment, "470px")):
        assert (box.layout.width, box.layout.max_width) == ("100%", most)
    assert g.payment.options, "a payable route is chosen first"
    longest = max(len(label) for label, _ in g.payment.options)
    assert longest <= 60  # was 'N red, N locomotives from your hand + ...': up to 80
    note = html.unescape(re.sub(r"<[^>]+>", "", g.pay_note.value))
    claim = g.payment.value
    assert note.startswith("You lay ") and f"{claim.hand.describe()} from your hand" in note


def test_the_seat_line_is_two_short_lines():
    g = _game()
    text = html.unescape(re.sub(r"<br>", "\n", g.header.value))
    lines = [re.sub(r"<[^>]+>", "", line) for line in text.split("\n")]
    assert len(lines) == 2 and all(len(line) <= 64 for line in lines), lines
