"""Counts shown to a learner agree with their number: "1 train", "1 card", never "1 cards"
(issue 21's small things: a 1-space route, a score check with one route)."""

from __future__ import annotations

from ttrlib import actions as act
from ttrlib.cards import CardCounts
from ttrlib.lessons import claims, position


def test_a_one_space_route_is_told_in_the_singular():
    # Calcutta - Dacca, 1 purple space: A1 lays its one purple card (K1), placing one train.
    game = position(hands=[CardCounts(purple=1)])
    text = claims.claim_story(game, act.Claim("calcutta-dacca-1", hand=CardCounts(purple=1),
                                              cardholder=CardCounts()))
    assert "placed 1 train " in text and "The 1 card laid" in text, text
    assert "1 trains" not in text and "1 cards" not in text, text


def test_a_two_space_route_is_told_in_the_plural():
    # a grey 2-space route, paid with 2 red cards (K2).
    game = position(hands=[CardCounts(red=2)])
    route = next(r for r in game.board.routes if r.length == 2 and r.color is None
                 and not r.tunnel)
    text = claims.claim_story(game, act.Claim(route.id, hand=CardCounts(red=2),
                                              cardholder=CardCounts()))
    assert "placed 2 trains " in text and "The 2 cards laid" in text, text
