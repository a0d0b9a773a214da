"""Scenario tests for tunnels (U1-U7).

Every position places all 110 cards explicitly: the draw pile is stacked top-first, so the cards a
tunnel reveals are known, and the discard pile is counted exactly before and after.
"""

from __future__ import annotations

import pytest
from rules_helpers import exact_position
from rules_helpers import rejected as rejected_and_unchanged

from ttrlib import actions as act
from ttrlib.board import board_from_dict
from ttrlib.cards import EMPTY, CardCounts, Color, standard_deck
from ttrlib.errors import IllegalMove, IllegalTunnelPayment, WrongPhase
from ttrlib.game import Game, Phase
from ttrlib.narration import text

L = Color.LOCOMOTIVE
RED, BLUE, GREEN, WHITE = Color.RED, Color.BLUE, Color.GREEN, Color.WHITE
YELLOW, PURPLE, ORANGE, BLACK = Color.YELLOW, Color.PURPLE, Color.ORANGE, Color.BLACK

_CITIES = ["Alma", "Bata", "Cora", "Dena", "Enna", "Fara"]
BOARD = board_from_dict(
    {
        "name": "tunnels test board",
        "cities": _CITIES,
        "tunnel_reveals": [3, 4, 5, 6],  # U1: Team Asia's 4-6, and 3 (the Europe tunnels) too
        "routes": [
            {"id": "tun4", "a": "Alma", "b": "Bata", "length": 2, "color": "red", "tunnel": 4},
            {"id": "tun5", "a": "Bata", "b": "Cora", "length": 2, "color": "yellow", "tunnel": 5},
            {"id": "tun6", "a": "Cora", "b": "Dena", "length": 3, "color": "blue", "tunnel": 6},
            {"id": "gtun", "a": "Dena", "b": "Enna", "length": 2, "color": "gray", "tunnel": 4},
            {"id": "tun3", "a": "Enna", "b": "Fara", "length": 1, "color": "purple", "tunnel": 3},
            {"id": "plain", "a": "Alma", "b": "Cora", "length": 2, "color": "red"},
        ],
        "tickets": [
            {"id": f"T{i:02d}", "a": _CITIES[i % 6], "b": _CITIES[(i + 2) % 6], "points": 5}
            for i in range(12)
        ],
    }
)
ROW = [PURPLE, PURPLE, ORANGE, ORANGE, BLACK]


def C(**kw) -> CardCounts:
    return CardCounts(**kw)


def position(*, dump=3, **kw) -> Game:
    """Every card placed: those not named go to seat B2's hand (an opponent of A1 and A2)."""
    return exact_position(BOARD, face_up=ROW, dump=dump, **kw)


def rejected(g: Game, action, rule: str, kind=IllegalTunnelPayment) -> IllegalMove:
    return rejected_and_unchanged(g, action, rule, kind)


def discard_counts(g: Game) -> CardCounts:
    return CardCounts.of(g.discard)


# --------------------------------------------------------------------------------------------------
# U1: lay the cards, then reveal the top N cards of the draw pile
# --------------------------------------------------------------------------------------------------


def test_U1_cards_are_laid_first_then_the_top_cards_revealed():
    g = position(hands=[C(red=2, locomotive=1, white=1)],
                 draw_pile=[GREEN, RED, L, BLUE, WHITE, YELLOW])
    g.apply(act.Claim("tun4", hand=C(red=2)))
    t = g.tunnel
    assert g.phase is Phase.TUNNEL and g.to_move == 0
    assert t.route == "tun4" and t.seat == 0
    assert t.laid_hand == C(red=2) and t.laid_holder == EMPTY
    assert g.hands[0] == C(locomotive=1, white=1)  # the laid cards have left the hand
    assert t.revealed == (GREEN, RED, L, BLUE)  # the top 4, in order
    assert g.draw_pile == [YELLOW, WHITE]  # list end = top: white is next
    assert "tun4" not in g.owners and g.trains[0] == 27
    assert g.view(2).tunnel == t  # everyone sees the laid and revealed cards
    assert g.total_cards() == standard_deck()


@pytest.mark.parametrize("route,n,cards", [("tun3", 3, C(purple=1)), ("tun4", 4, C(red=2)),
                                           ("tun5", 5, C(yellow=2)), ("tun6", 6, C(blue=3))])
def test_U1_the_tunnel_number_is_how_many_cards_are_revealed(route, n, cards):
    pile = [ORANGE] * n + [GREEN, BLACK]
    g = position(hands=[cards], draw_pile=pile)
    g.apply(act.Claim(route, hand=cards))
    # nothing matched: the route is claimed at once
    assert g.owners[route] == 0
    assert g.draw_pile == [BLACK, GREEN]
    assert discard_counts(g) == C(orange=n) + cards
    assert list([e for e in g.events if e.kind == "tunnel"][-1].revealed) == ["orange"] * n


def test_U1_U2_a_route_that_is_not_a_tunnel_reveals_nothing():
    g = position(hands=[C(red=2)], draw_pile=[RED, RED, RED, RED])
    g.apply(act.Claim("plain", hand=C(red=2)))
    assert g.owners["plain"] == 0 and g.draw_pile == [RED] * 4 and g.tunnel is None


# --------------------------------------------------------------------------------------------------
# U2: each matching revealed card asks for one more card
# --------------------------------------------------------------------------------------------------


def test_U2_each_match_demands_one_more_card():
    g = position(hands=[C(red=3, blue=2)], cardholders=[C(red=1, locomotive=2), EMPTY],
                 draw_pile=[RED, RED, L, BLUE, GREEN])
    g.apply(act.Claim("tun4", hand=C(red=2)))
    assert g.tunnel.extra == 3  # red, red, locomotive; blue does not match
    assert g.tunnel.color is RED
    # after laying: hand red 1 (+ blue 2), cardholder red 1 + 2 locomotives: 3 ways to pay 3
    assert set(g.legal_actions()) == {
        act.PayTunnel(cardholder=C(red=1, locomotive=2)),
        act.PayTunnel(hand=C(red=1), cardholder=C(locomotive=2)),
        act.PayTunnel(hand=C(red=1), cardholder=C(red=1, locomotive=1)),
        act.Withdraw(),
    }
    g.apply(act.PayTunnel(hand=C(red=1), cardholder=C(locomotive=2)))
    assert g.owners["tun4"] == 0
    assert g.trains[0] == 25  # the route's length, not the cards paid
    assert g.hands[0] == C(blue=2) and g.holders[0] == C(red=1)
    assert g.tunnel is None and g.phase is Phase.TURN and g.to_move == 1


def test_U2_the_extra_cost_must_be_paid_exactly_in_the_colour_or_locomotives():
    g = position(hands=[C(red=4, blue=2, locomotive=1)], draw_pile=[RED, GREEN, L, BLUE, GREEN])
    g.apply(act.Claim("tun4", hand=C(red=2)))
    assert g.tunnel.extra == 2
    rejected(g, act.PayTunnel(hand=C(red=1)), "U2")  # too few
    rejected(g, act.PayTunnel(hand=C(red=2, locomotive=1)), "U2")  # too many
    rejected(g, act.PayTunnel(hand=C(blue=2)), "U2")  # wrong colour
    rejected(g, act.PayTunnel(hand=C(red=1, blue=1)), "U2")
    rejected(g, act.PayTunnel(), "U2")
    g.apply(act.PayTunnel(hand=C(red=1, locomotive=1)))
    assert g.owners["tun4"] == 0 and g.hands[0] == C(red=1, blue=2)


def test_U2_K1_the_extra_cards_come_from_hand_and_team_cardholder_only():
    g = position(hands=[C(red=2), C(red=5)], cardholders=[EMPTY, C(red=4)],
                 draw_pile=[RED, WHITE, WHITE, WHITE])
    g.apply(act.Claim("tun4", hand=C(red=2)))
    assert g.tunnel.extra == 1
    rejected(g, act.PayTunnel(hand=C(red=1)), "K1")  # the teammate holds the reds
    rejected(g, act.PayTunnel(cardholder=C(red=1)), "K1")  # the other team's cardholder
    assert g.legal_actions() == [act.Withdraw()]


def test_U2_the_tunnel_waits_for_payment_or_withdrawal():
    g = position(hands=[C(red=3)], draw_pile=[RED, WHITE, WHITE, WHITE, WHITE])
    g.apply(act.Claim("tun4", hand=C(red=2)))
    rejected(g, act.DrawCard("deck"), "U3", WrongPhase)
    rejected(g, act.Claim("plain", hand=C(red=1)), "U3", WrongPhase)
    rejected(g, act.DrawTickets(), "U3", WrongPhase)
    rejected(g, act.Pass(), "U3", WrongPhase)


# --------------------------------------------------------------------------------------------------
# U3: withdrawing
# --------------------------------------------------------------------------------------------------


def test_U3_withdraw_returns_laid_cards_to_where_they_came_from_and_ends_the_turn():
    hand, holder = C(red=1, blue=2), C(locomotive=1, green=1)
    g = position(hands=[hand], cardholders=[holder, EMPTY], draw_pile=[L, WHITE, WHITE, WHITE, BLUE])
    g.apply(act.Claim("tun4", hand=C(red=1), cardholder=C(locomotive=1)))
    assert g.tunnel.extra == 1
    assert g.hands[0] == C(blue=2) and g.holders[0] == C(green=1)
    g.apply(act.Withdraw())
    assert g.hands[0] == hand  # the red goes back to the hand
    assert g.holders[0] == holder  # the locomotive back to the cardholder
    assert "tun4" not in g.owners and g.trains[0] == 27
    assert g.tunnel is None and g.phase is Phase.TURN and g.to_move == 1


def test_U3_a_player_who_cannot_pay_can_only_withdraw():
    g = position(hands=[C(red=2, blue=3)], draw_pile=[RED, RED, WHITE, WHITE])
    g.apply(act.Claim("tun4", hand=C(red=2)))
    assert g.legal_actions() == [act.Withdraw()]
    rejected(g, act.PayTunnel(hand=C(blue=2)), "U2")
    g.apply(act.Withdraw())
    assert g.hands[0] == C(red=2, blue=3) and g.to_move == 1


def test_U3_a_player_who_can_pay_may_still_withdraw():
    g = position(hands=[C(red=4)], draw_pile=[RED, WHITE, WHITE, WHITE])
    g.apply(act.Claim("tun4", hand=C(red=2)))
    assert act.Withdraw() in g.legal_actions()
    g.apply(act.Withdraw())
    assert g.hands[0] == C(red=4)


# --------------------------------------------------------------------------------------------------
# U4: revealed cards are discarded once the attempt is over
# --------------------------------------------------------------------------------------------------


def test_U4_revealed_laid_and_paid_cards_discarded_after_paying():
    g = position(hands=[C(red=2, locomotive=1)], discard=C(orange=3),
                 draw_pile=[RED, BLUE, GREEN, WHITE, BLACK])
    g.apply(act.Claim("tun4", hand=C(red=2)))
    assert discard_counts(g) == C(orange=3)  # nothing discarded while the attempt is open
    g.apply(act.PayTunnel(hand=C(locomotive=1)))
    revealed = C(red=1, blue=1, green=1, white=1)
    assert discard_counts(g) == C(orange=3) + revealed + C(red=2) + C(locomotive=1)
    assert g.draw_pile == [BLACK]
    assert g.total_cards() == standard_deck()


def test_U4_revealed_cards_discarded_after_withdrawing_laid_cards_not():
    g = position(hands=[C(red=2)], discard=C(orange=3), draw_pile=[RED, BLUE, GREEN, WHITE, BLACK])
    g.apply(act.Claim("tun4", hand=C(red=2)))
    g.apply(act.Withdraw())
    assert discard_counts(g) == C(orange=3, red=1, blue=1, green=1, white=1)
    assert g.hands[0] == C(red=2)


def test_U4_revealed_cards_discarded_when_nothing_matched():
    g = position(hands=[C(red=2)], discard=C(orange=3), draw_pile=[BLUE, GREEN, WHITE, YELLOW, BLACK])
    g.apply(act.Claim("tun4", hand=C(red=2)))
    assert discard_counts(g) == C(orange=3, blue=1, green=1, white=1, yellow=1, red=2)
    assert g.draw_pile == [BLACK]


# --------------------------------------------------------------------------------------------------
# U5: a tunnel claimed with locomotives only
# --------------------------------------------------------------------------------------------------


def test_U5_locomotive_only_tunnel_matches_only_locomotives():
    g = position(hands=[C(locomotive=3, red=2)], draw_pile=[RED, RED, L, BLUE, WHITE])
    g.apply(act.Claim("tun4", hand=C(locomotive=2)))
    assert g.tunnel.color is L
    assert g.tunnel.extra == 1  # the revealed reds do not count, the locomotive does
    err = rejected(g, act.PayTunnel(hand=C(red=1)), "U5")
    assert "locomotives only" in err.reason
    assert set(g.legal_actions()) == {act.PayTunnel(hand=C(locomotive=1)), act.Withdraw()}
    g.apply(act.PayTunnel(hand=C(locomotive=1)))
    assert g.owners["tun4"] == 0 and g.hands[0] == C(red=2)


def test_U5_no_revealed_locomotive_no_extra_cost():
    g = position(hands=[C(locomotive=2)], draw_pile=[RED, RED, RED, RED, WHITE])
    g.apply(act.Claim("tun4", hand=C(locomotive=2)))
    assert g.owners["tun4"] == 0 and g.tunnel is None


def test_U5_one_coloured_card_makes_it_a_coloured_claim():
    """Contrast: red + locomotive is a red claim, so revealed reds match too (U2)."""
    g = position(hands=[C(locomotive=1, red=4)], draw_pile=[RED, RED, L, BLUE, WHITE])
    g.apply(act.Claim("tun4", hand=C(locomotive=1, red=1)))
    assert g.tunnel.color is RED and g.tunnel.extra == 3


def test_U5_gray_tunnel_with_locomotives_only():
    g = position(hands=[C(locomotive=2, green=3)], draw_pile=[GREEN, L, GREEN, RED, WHITE])
    g.apply(act.Claim("gtun", hand=C(locomotive=2)))
    assert g.tunnel.color is L and g.tunnel.extra == 1
    rejected(g, act.PayTunnel(hand=C(green=1)), "U5")


# --------------------------------------------------------------------------------------------------
# U6: too few cards to reveal
# --------------------------------------------------------------------------------------------------


def test_U6_reshuffle_mid_reveal_laid_cards_stay_out_of_it():
    g = position(hands=[C(red=4)], draw_pile=[GREEN, BLUE], discard=C(white=5))
    g.apply(act.Claim("tun4", hand=C(red=2)))
    # the 2 cards of the pile, then 2 from the reshuffled discard (all white)
    revealed = list([e for e in g.events if e.kind == "tunnel"][-1].revealed)
    assert revealed == ["green", "blue", "white", "white"]
    assert any(e.kind == "reshuffle" for e in g.events)
    assert g.draw_pile == [WHITE] * 3  # the laid reds were not shuffled in
    # nothing matched: claimed; revealed and laid cards go to the (new) discard
    assert g.owners["tun4"] == 0
    assert discard_counts(g) == C(green=1, blue=1, white=2, red=2)


def test_U6_reshuffle_mid_reveal_with_an_extra_cost():
    g = position(hands=[C(red=3)], draw_pile=[RED], discard=C(white=5))
    g.apply(act.Claim("tun4", hand=C(red=2)))
    assert g.tunnel.revealed == (RED, WHITE, WHITE, WHITE)
    assert g.tunnel.extra == 1
    assert g.draw_pile == [WHITE, WHITE] and g.discard == []
    assert g.tunnel.laid == C(red=2)
    g.apply(act.Withdraw())
    assert g.hands[0] == C(red=3)
    assert discard_counts(g) == C(red=1, white=3)


def test_U6_only_the_cards_that_exist_are_revealed():
    g = position(hands=[C(red=3)], draw_pile=[RED], discard=EMPTY)
    g.apply(act.Claim("tun4", hand=C(red=2)))
    assert g.tunnel.revealed == (RED,) and g.tunnel.extra == 1
    g.apply(act.PayTunnel(hand=C(red=1)))
    assert g.owners["tun4"] == 0
    assert discard_counts(g) == C(red=4)


def test_U6_nothing_left_to_reveal_the_tunnel_is_claimed_with_no_extra_cost():
    g = position(hands=[C(red=2)], draw_pile=[], discard=EMPTY)
    g.apply(act.Claim("tun4", hand=C(red=2)))
    assert g.owners["tun4"] == 0 and g.trains[0] == 25
    assert g.tunnel is None and g.phase is Phase.TURN and g.to_move == 1
    assert list([e for e in g.events if e.kind == "tunnel"][-1].revealed) == []
    assert discard_counts(g) == C(red=2)


# --------------------------------------------------------------------------------------------------
# U7: gray tunnels
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("colour,pay_ok,pay_bad", [
    (GREEN, C(green=1, locomotive=1), C(purple=1, locomotive=1)),
    (PURPLE, C(purple=1, locomotive=1), C(green=1, locomotive=1)),
])
def test_U7_gray_tunnel_colour_used_is_the_colour_paid(colour, pay_ok, pay_bad):
    hand = C(green=3, purple=3, locomotive=1)
    g = position(hands=[hand], draw_pile=[GREEN, RED, L, PURPLE, WHITE])
    laid = CardCounts({colour: 2})
    g.apply(act.Claim("gtun", hand=laid))
    assert g.tunnel.color is colour
    assert g.tunnel.extra == 2  # its colour once, the locomotive once; red never
    rejected(g, act.PayTunnel(hand=pay_bad), "U7")
    g.apply(act.PayTunnel(hand=pay_ok))
    assert g.owners["gtun"] == 0
    assert g.hands[0] == hand - laid - pay_ok


def test_U7_gray_tunnel_laid_in_two_colours_is_rejected():
    g = position(hands=[C(green=1, purple=1)], draw_pile=[WHITE] * 4)
    with pytest.raises(IllegalMove) as info:
        g.apply(act.Claim("gtun", hand=C(green=1, purple=1)))
    assert info.value.rule == "K2"
    assert g.draw_pile == [WHITE] * 4 and g.tunnel is None


# --------------------------------------------------------------------------------------------------
# the log: the claim before the reshuffle it caused (C6), counts in plain English
# --------------------------------------------------------------------------------------------------


def test_U1_C6_a_reshuffle_during_the_reveal_is_logged_after_the_claim():
    # 2 cards on the pile, 4 to reveal: the discard (2 greens) is shuffled in after 2 reveals
    g = position(hands=[C(red=2)], draw_pile=[BLUE, WHITE], discard=C(green=2))
    g.apply(act.Claim("tun4", hand=C(red=2)))
    assert [e.kind for e in g.events] == ["tunnel", "reshuffle", "claim"]
    assert "revealed blue, white, green, green; 0 extra cards owed (U1, U2)" in text(g.events[0])


def test_U2_log_and_error_say_1_extra_card_and_2_more_cards():
    g = position(hands=[C(red=4)], draw_pile=[RED, BLUE, WHITE, GREEN])
    g.apply(act.Claim("tun4", hand=C(red=2)))
    assert text(g.events[-1]).endswith("revealed red, blue, white, green; 1 extra card owed "
                                         "(U1, U2)")
    err = rejected(g, act.PayTunnel(hand=C(red=2)), "U2")
    assert "exactly 1 more card; you offered 2" in str(err)
    g = position(hands=[C(red=4)], draw_pile=[RED, L, WHITE, GREEN])
    g.apply(act.Claim("tun4", hand=C(red=2)))
    assert "2 extra cards owed" in text(g.events[-1])
    assert "exactly 2 more cards; you offered 1" in str(rejected(g, act.PayTunnel(hand=C(red=1)), "U2"))
