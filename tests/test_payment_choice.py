"""Which way to pay a widget offers first (issue 21, item 1): the cheapest, everywhere.

The team game's "Pay with" used to preselect the engine's first legal way, which could spend
locomotives where plain cards were enough. Every widget and lesson now offers the ways in one
order (``odds.best_payment`` for claims, ``odds.cheapest_first`` for a tunnel's extra cards): the
best chance to pay a tunnel's extra, then the fewest locomotives, then the fewest cards from the
team cardholder (they are the teammate's too, K1). The expected ways below are written by hand
for exact positions, or found by brute force over the engine's legal actions.
"""

from __future__ import annotations

import pytest

from ttrlib import CardCounts, Game, Phase
from ttrlib import actions as act
from ttrlib.bots import GreedyBot
from ttrlib.cards import Color
from ttrlib.lessons import claims as claims_lesson
from ttrlib.lessons import position
from ttrlib.lessons import tunnels as tunnels_lesson
from ttrlib.odds import tunnel_odds
from ttrlib.widgets.team_game import TeamGame
from ttrlib.widgets.tunnel_claim import TunnelClaimStepper

LOCO = Color.LOCOMOTIVE


def _issue_position() -> Game:
    """The issue's case: Hanoi - Kunming is 3 red; A1 holds 2 red, a blue and a locomotive, the
    team cardholder 1 red and 1 locomotive. Mandalay - Rangoon is 2 yellow and A1 holds 2 yellow."""
    return position(hands=[CardCounts(red=2, yellow=2, blue=1, locomotive=1)],
                    cardholders=[CardCounts(red=1, locomotive=1)], seed=3)


def _pick(widget, route: str) -> None:
    widget.route.value = route


@pytest.mark.parametrize("route, hand, holder", [
    ("hanoi-kunming", CardCounts(red=2), CardCounts(red=1)),  # by hand: no locomotive needed
    ("mandalay-rangoon-1", CardCounts(yellow=2), CardCounts()),
])
def test_K1_K2_the_team_game_preselects_the_way_that_keeps_the_locomotives(route, hand, holder):
    g = TeamGame(_issue_position())
    game = g.session.game
    _pick(g, route)
    assert g.payment.value == act.Claim(route, hand, holder)
    before = game.view(0)
    g.claim_button.click()  # "Claim the route" with what is preselected
    after = game.view(0)
    assert after.claimed.get(route) == 0, g.message_text
    assert after.hand[LOCO] == before.hand[LOCO] == 1
    assert after.team_cardholder[LOCO] == before.team_cardholder[LOCO] == 1
    g.close()


def test_every_widget_and_lesson_lists_the_same_ways_in_the_same_order():
    game = _issue_position()
    team = TeamGame(_issue_position())
    stepper = TunnelClaimStepper(_issue_position())
    for route in ("hanoi-kunming", "mandalay-rangoon-1", "hanoi-nanning"):
        _pick(team, route)
        _pick(stepper, route)
        lesson = claims_lesson.ways(game, route)
        legal = {c for c in game.legal_claims(0) if c.route == route}
        assert set(lesson) == legal and len(lesson) == len(legal)  # every way, once
        assert [c for _, c in team.payment.options] == lesson
        assert [c for _, c in stepper.payment.options] == lesson
    team.close()
    stepper.close()


def _brute_cheapest(ways):
    """The ways that spend the fewest locomotives, and of those the fewest cardholder cards."""
    fewest = min((c.hand + c.cardholder)[LOCO] for c in ways)
    ways = [c for c in ways if (c.hand + c.cardholder)[LOCO] == fewest]
    shared = min(c.cardholder.total for c in ways)
    return {c for c in ways if c.cardholder.total == shared}


def test_over_a_whole_game_the_first_way_offered_is_the_cheapest_by_brute_force():
    """A bot plays seat A1 of a seeded game; at each of A1's turns, for every route A1 can pay,
    the team game offers first a way that no legal way beats: for a plain route none spends
    fewer locomotives (then fewer cardholder cards); for a tunnel none has a better chance to
    pay the extra cards, and among the best none is cheaper."""
    g = TeamGame(seed=11)
    session, bot = g.session, GreedyBot(seed=5)
    checked = tunnels = 0
    for _ in range(3000):
        view = session.view()
        if session.is_over or checked >= 120:
            break
        if not view.my_turn:
            g.others.click()
            continue
        legal = session.legal_actions()
        if view.phase is Phase.TURN:
            routes = sorted({a.route for a in legal if isinstance(a, act.Claim)})
            for rid in routes:
                _pick(g, rid)
                ways = [a for a in legal if isinstance(a, act.Claim) and a.route == rid]
                first = g.payment.value
                assert first in ways
                if view.board.route(rid).is_tunnel:
                    chance = {c: tunnel_odds(view, rid, c).p_can_pay for c in ways}
                    top = max(chance.values())
                    assert chance[first] == top, rid
                    assert first in _brute_cheapest([c for c in ways if chance[c] == top]), rid
                    tunnels += 1
                else:
                    assert first in _brute_cheapest(ways), (rid, first)
                checked += 1
        session.apply(bot.choose(view, legal))
        g.render()
    assert checked >= 40 and tunnels >= 1, (checked, tunnels)
    g.close()


def _tunnel_owing(extra_pile: list[str]) -> Game:
    """A1 laid 3 red on Kathmandu - Lhasa (reveals 5) and owes 2 more cards: A1 keeps 1 red and
    1 locomotive in hand, the cardholder holds 1 red and 1 locomotive."""
    game = position(hands=[CardCounts(red=4, locomotive=1)],
                    cardholders=[CardCounts(red=1, locomotive=1)],
                    draw_pile=extra_pile, seed=2)
    game.apply(act.Claim("kathmandu-lhasa-1", hand=CardCounts(red=3)))
    assert game.phase is Phase.TUNNEL and game.state.tunnel.extra == 2
    return game


PILE = ["red", "locomotive", "green", "white", "black", "purple"]


def test_U2_the_extra_cards_preselected_keep_the_locomotives_in_every_widget():
    # By hand: 2 extra cards, red or locomotive; the ways with no locomotive: 1 red from the
    # hand + 1 red from the cardholder. That is the one to offer first.
    want = act.PayTunnel(hand=CardCounts(red=1), cardholder=CardCounts(red=1))
    game = _tunnel_owing(PILE)
    pays = [a for a in game.legal_actions() if isinstance(a, act.PayTunnel)]
    assert want in pays and len(pays) > 1

    team = TeamGame(_tunnel_owing(PILE))
    assert team.tunnel_payment.value == want
    assert [a for _, a in team.tunnel_payment.options][1:] != []  # the others stay on offer
    team.close()

    # lesson 04's table of ways lists the same way first (its first row in words)
    html = tunnels_lesson.payments_html(_tunnel_owing(PILE))
    first_row = html.split("<tbody>")[1].split("</tr>")[0]
    assert "1 red from the hand + 1 red from the cardholder" in first_row


def test_U2_the_tunnel_stepper_preselects_the_cheapest_extra_cards():
    # After laying 3 red, A1 keeps 2 red and a locomotive, the cardholder 2 red and a
    # locomotive; 2 extra cards are owed. By hand: the ways with no locomotive take 2, 1 or 0
    # red from the hand; the one that leaves the team's cards alone takes both from the hand.
    game = position(hands=[CardCounts(red=5, locomotive=1)],
                    cardholders=[CardCounts(red=2, locomotive=1)], draw_pile=PILE, seed=2)
    t = TunnelClaimStepper(game)
    t.route.value = "kathmandu-lhasa-1"
    t.payment.value = act.Claim("kathmandu-lhasa-1", hand=CardCounts(red=3))
    t.lay_down.click()
    while t.turning:
        t.turn_next.click()
    pays = [a for _, a in t.pay_choice.options]
    assert len(pays) > 3 and t.pay_choice.value == pays[0]
    assert pays[0] in _brute_cheapest(pays)
    assert pays[0] == act.PayTunnel(hand=CardCounts(red=2))
    t.close()
