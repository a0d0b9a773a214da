"""For every rule id a scenario that the rule refuses and one that it accepts (the rule-coverage
test demands both; see ``tests/test_rule_coverage.py``).

Positions are exact (``Game.from_position`` on the teaching board, every card placed, the cards
not named in the hand of seat B2, an opponent of A1 and A2), and every expected value is counted
by hand from the position written in the test. A refused action must raise the rule's
``IllegalMove`` and leave the saved game unchanged (``rules_helpers.rejected``). Seats: 0 = A1,
1 = A2 (A1's teammate), 2 = B1, 3 = B2.
"""

from __future__ import annotations

import pytest
from rules_helpers import exact_position, rejected

from ttrlib import CardCounts, Color, Game, Phase, seat_name, teaching_board
from ttrlib import actions as act
from ttrlib.errors import SetupError
from ttrlib.save import state_data

BOARD = teaching_board()
L, RED, BLUE, GREEN = Color.LOCOMOTIVE, Color.RED, Color.BLUE, Color.GREEN
WHITE, YELLOW, ORANGE = Color.WHITE, Color.YELLOW, Color.ORANGE
NONE = CardCounts()
# A full face-up row without red, blue, orange or locomotives, so that no slot is refilled at
# the end of a turn (C5) and the discard stays where the test can count it.
ROW = [Color.PURPLE, Color.PURPLE, Color.BLACK, Color.BLACK, YELLOW]
# Routes of the teaching board used below (id: colour, length, tunnel).
# kashgar-rawalpindi: gray 4, tunnel 4   delhi-kathmandu: orange 3, tunnel 4
# karachi-lahore: orange 4   lahore-rawalpindi-1/-2: gray 1 (a double route)
# delhi-lahore-1/-2/-3: red/blue/gray 2 (a triple route)   canton-hongkong-1/-2: gray 1
# Long routes of 8, 6, 6, 5 (25 trains) and 6, 5, 5, 5, 4 (25 trains), to use up trains:
SEAT0_25 = ["kashgar-lanchow", "lanchow-lhasa", "harbin-ulanbator", "kabul-karachi"]
SEAT1_25 = ["kashgar-lhasa", "calcutta-madras", "chengdu-lhasa", "kunming-lhasa", "bombay-karachi"]


def position(hands=(), cardholders=(), players=4, face_up=ROW, **kw) -> Game:
    hands = [CardCounts(h) for h in hands] + [NONE] * (players - len(hands))
    holders = [CardCounts(h) for h in cardholders] + [NONE] * (players // 2 - len(cardholders))
    return exact_position(BOARD, hands=hands, cardholders=holders, players=players,
                          face_up=face_up, **kw)


def saved(g: Game) -> dict:
    return state_data(g.state)


def finish_setup(g: Game) -> Game:
    """T1: every seat keeps its first three tickets and shares the first."""
    while g.phase is Phase.SETUP_TICKETS:
        offer = g.ticket_offer()
        g.apply(act.KeepTickets(offer[:3], offer[0]))
    return g


def draw_two_from_deck(g: Game) -> None:
    g.apply(act.DrawCard("deck"))
    g.apply(act.PlaceCard("hand"))
    g.apply(act.DrawCard("deck"))


def scores(claimed: dict, tickets=None, players=4):
    g = Game.from_position(players=players, claimed=claimed, tickets=tickets)
    return g.scores()


# --- C: components and setup ------------------------------------------------------------------
def test_C1_a_position_with_a_13th_red_card_is_refused():
    with pytest.raises(SetupError, match="^rule C1: "):
        Game.from_position(hands=[CardCounts(red=13), NONE, NONE, NONE])


def test_C1_a_position_holding_all_12_reds_is_accepted():
    g = position(hands=[{"red": 12}])
    assert g.view(0).hand == CardCounts(red=12)
    assert g.view(0).unseen[RED] == 0  # all 12 of C1 are in seat 0's hand


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_C2_other_player_counts_are_refused(players):
    with pytest.raises(SetupError, match="^rule C2: "):
        Game.new(players, seed=0)


def test_C2_six_players_are_accepted_in_three_teams_of_two():
    g = Game.new(6, seed=0)
    assert [seat_name(s) for s in range(6)] == ["A1", "A2", "B1", "B2", "C1", "C2"]
    assert (g.view(4).team, g.view(4).teammate) == (2, 5)


def test_C3_a_seat_with_3_trains_is_refused_a_4_route_though_its_teammate_has_27():
    # seat 0 has placed 8 + 6 + 6 + 4 = 24 trains: 3 left; its teammate's 27 do not help
    claimed = dict.fromkeys(["kashgar-lanchow", "lanchow-lhasa", "harbin-ulanbator",
                             "bombay-karachi"], 0)
    g = position(hands=[{"orange": 4}], claimed=claimed)
    assert g.trains[:2] == [3, 27]
    rejected(g, act.Claim("karachi-lahore", CardCounts(orange=4)), "K2")


def test_C3_a_seat_with_4_trains_is_accepted_for_a_4_route():
    claimed = dict.fromkeys(["kashgar-lanchow", "lanchow-lhasa", "harbin-ulanbator",
                             "calcutta-kathmandu"], 0)  # 8 + 6 + 6 + 3 = 23: 4 left
    g = position(hands=[{"orange": 4}], claimed=claimed)
    g.apply(act.Claim("karachi-lahore", CardCounts(orange=4)))
    assert saved(g)["trains"] == [0, 27, 27, 27]  # the teammate's trains are its own


def test_C4_paying_from_the_empty_starting_cardholder_is_refused():
    g = finish_setup(Game.new(4, seed=3))
    colour = g.view(0).hand.colors()[0]
    rejected(g, act.Claim("lahore-rawalpindi-1", NONE, CardCounts({colour: 1})), "K1")


def test_C4_a_starting_card_from_the_hand_is_accepted():
    g = finish_setup(Game.new(4, seed=3))
    colour = g.view(0).hand.colors()[0]
    g.apply(act.Claim("lahore-rawalpindi-1", CardCounts({colour: 1})))
    assert g.view(0).hand_sizes == (3, 4, 4, 4)  # 4 starting cards, one laid down


def test_C5_a_sixth_face_up_slot_is_refused():
    g = position(face_up=[RED, BLUE, GREEN, WHITE, YELLOW], draw_pile=[RED])
    rejected(g, act.DrawCard(5), "D1")


def test_C5_after_a_reset_the_new_row_is_accepted_for_the_second_card():
    # Taking the red (slot 2) turns up a locomotive: three face up, so the row is discarded
    # and the next five (all white) turned up; the second card is a white, replaced by yellow.
    pile = [L, WHITE, WHITE, WHITE, WHITE, WHITE, YELLOW]
    g = position(face_up=[L, L, RED, BLUE, GREEN], draw_pile=pile)
    g.apply(act.DrawCard(2))
    g.apply(act.PlaceCard("hand"))
    assert g.view(0).face_up == (WHITE,) * 5
    g.apply(act.DrawCard(0))
    view = g.view(0)
    assert (view.hand, view.team_cardholder) == (CardCounts(red=1), CardCounts(white=1))
    assert view.discard == CardCounts(locomotive=3, blue=1, green=1)
    assert view.face_up == (YELLOW, WHITE, WHITE, WHITE, WHITE)


def test_C6_drawing_from_an_empty_deck_and_empty_discard_is_refused():
    g = position(face_up=[RED, None, None, None, None], draw_pile=[])
    rejected(g, act.DrawCard("deck"), "C6")


def test_C6_the_deck_draw_is_accepted_from_the_reshuffled_discard():
    g = position(draw_pile=[], discard=CardCounts(blue=1), face_up=[None] * 5)
    g.apply(act.DrawCard("deck"))
    g.apply(act.PlaceCard("hand"))  # no second card exists (D4): the turn ends
    assert g.view(0).hand == CardCounts(blue=1)
    assert (g.to_move, g.view(0).draw_pile_size, len(g.view(0).discard)) == (1, 0, 0)


def test_C7_another_teams_train_cardholder_is_refused():
    g = position(cardholders=[NONE, {"red": 1}])
    rejected(g, act.Claim("lahore-rawalpindi-1", NONE, CardCounts(red=1)), "K1")


def test_C7_the_teams_own_train_cardholder_is_accepted():
    g = position(cardholders=[{"red": 2}])
    g.apply(act.Claim("delhi-lahore-1", NONE, CardCounts(red=2)))
    assert g.view(1).team_cardholder == NONE  # the teammate sees the cardholder emptied
    assert g.view(1).discard == CardCounts(red=2)


# --- D: drawing train cards ---------------------------------------------------------------------
def test_D1_a_first_card_to_the_cardholder_and_the_second_to_the_hand_is_accepted():
    g = position(draw_pile=[RED, BLUE])
    g.apply(act.DrawCard("deck"))
    assert g.view(0).drawn_card is RED
    g.apply(act.PlaceCard("cardholder"))
    g.apply(act.DrawCard("deck"))
    assert (g.view(0).hand, g.view(0).team_cardholder) == (CardCounts(blue=1), CardCounts(red=1))


def test_D2_placing_a_first_face_up_locomotive_in_the_hand_is_refused():
    g = position(face_up=[L, RED, None, None, None], draw_pile=[BLUE])
    g.apply(act.DrawCard(0))
    assert g.to_move == 1  # the locomotive was the whole draw
    rejected(g, act.PlaceCard("hand"), "D1")


def test_D2_a_first_face_up_locomotive_is_accepted_into_the_cardholder():
    g = position(face_up=[L, RED, None, None, None], draw_pile=[BLUE])
    g.apply(act.DrawCard(0))
    view = g.view(0)
    assert (view.hand, view.team_cardholder) == (NONE, CardCounts(locomotive=1))
    assert view.face_up[:2] == (BLUE, RED)  # D3: replaced from the deck


def test_D3_a_face_up_second_card_is_accepted_and_replaced():
    g = position(face_up=[L, RED, None, None, None], draw_pile=[BLUE, GREEN])
    g.apply(act.DrawCard("deck"))  # blue
    g.apply(act.PlaceCard("hand"))
    g.apply(act.DrawCard(1))  # the red goes to the other place
    view = g.view(0)
    assert (view.hand, view.team_cardholder) == (CardCounts(blue=1), CardCounts(red=1))
    assert view.face_up[:2] == (L, GREEN)


# --- K: claiming routes -------------------------------------------------------------------------
@pytest.mark.parametrize("players, claimed, route", [
    (4, {"lahore-rawalpindi-1": 2}, "lahore-rawalpindi-2"),  # double: the other is closed
    (4, {"delhi-lahore-1": 2, "delhi-lahore-2": 1}, "delhi-lahore-3"),  # 2 of 3 taken
    (6, {"lahore-rawalpindi-1": 0}, "lahore-rawalpindi-2"),  # policy: never two tracks
])
def test_K3_a_closed_track_is_refused(players, claimed, route):
    hands = [{"locomotive": 2}]
    g = position(hands=hands, players=players, claimed=claimed)
    length = BOARD.route(route).length
    rejected(g, act.Claim(route, CardCounts(locomotive=length)), "K3")


@pytest.mark.parametrize("players, claimed, route", [
    (4, {"canton-hongkong-1": 2}, "canton-hongkong-2"),  # Hong Kong - Canton stays open
    (4, {"delhi-lahore-1": 2}, "delhi-lahore-2"),  # a triple: the second of 3 is open
    (4, {"delhi-lahore-1": 1}, "delhi-lahore-3"),  # ... to the teammate too
    (6, {"lahore-rawalpindi-1": 2}, "lahore-rawalpindi-2"),  # 6 players: every track
])
def test_K3_an_open_parallel_track_is_accepted(players, claimed, route):
    g = position(hands=[{"locomotive": 2}], players=players, claimed=claimed)
    length = BOARD.route(route).length
    g.apply(act.Claim(route, CardCounts(locomotive=length)))
    assert saved(g)["claimed"][route] == 0


def test_K4_cards_already_played_are_refused_for_a_second_claim():
    g = position(hands=[{"red": 1}], cardholders=[{"red": 1}])
    g.apply(act.Claim("delhi-lahore-1", CardCounts(red=1), CardCounts(red=1)))
    assert g.to_move == 1  # the teammate cannot use the cardholder's red: it is discarded
    rejected(g, act.Claim("lahore-rawalpindi-1", NONE, CardCounts(red=1)), "K1")


def test_K4_a_claim_is_accepted_and_its_cards_discarded():
    g = position(hands=[{"locomotive": 1}], cardholders=[{"red": 1}], discard=CardCounts(green=1))
    g.apply(act.Claim("delhi-lahore-1", CardCounts(locomotive=1), CardCounts(red=1)))
    assert g.view(2).discard == CardCounts(green=1, red=1, locomotive=1)


# --- T: destination tickets ---------------------------------------------------------------------
def test_T1_keeping_two_of_five_or_sharing_an_unkept_ticket_is_refused():
    g = Game.new(4, seed=0)
    offer = g.ticket_offer()
    rejected(g, act.KeepTickets(offer[:2], offer[0]), "T1")
    rejected(g, act.KeepTickets(offer[:3], offer[4]), "T1")


def test_T1_keeping_three_and_sharing_one_is_accepted():
    g = Game.new(4, seed=0)
    offers = [g.ticket_offer(s) for s in range(2)]
    g.apply(act.KeepTickets(offers[0][:3], offers[0][0]))
    g.apply(act.KeepTickets(offers[1], offers[1][4]))  # all five, the last shared
    view = g.view(0)
    assert view.team_ticket_counts[0] == 2  # one from each teammate
    assert sorted(view.tickets) == sorted(offers[0][1:3])
    assert view.ticket_counts[:2] == (2, 4)


def test_T2_keeping_none_or_a_ticket_not_drawn_is_refused():
    g = position()
    g.apply(act.DrawTickets())
    assert g.ticket_offer() == ["T01", "T02", "T03", "T04"]  # the deck is in board order
    rejected(g, act.KeepTickets([], "T01"), "T2")
    rejected(g, act.KeepTickets(["T05"], "T05"), "T2")


def test_T2_keeping_two_and_sharing_one_is_accepted():
    g = position()
    g.apply(act.DrawTickets())
    g.apply(act.KeepTickets(["T01", "T02"], "T02"))
    view = g.view(0)
    assert (view.tickets, view.team_tickets) == (("T01",), ("T02",))
    assert view.ticket_deck_size == 46 - 4 + 2  # T3: the two returned go back in


def test_T3_a_returned_ticket_is_refused_from_the_next_draw():
    g = position()
    g.apply(act.DrawTickets())
    g.apply(act.KeepTickets(["T01"], "T01"))  # T02, T03, T04 go to the bottom
    g.apply(act.DrawTickets())  # seat 1 draws the next four from the top
    assert g.ticket_offer() == ["T05", "T06", "T07", "T08"]
    rejected(g, act.KeepTickets(["T03"], "T03"), "T2")


def test_T3_the_returned_tickets_are_accepted_at_the_bottom_in_order():
    g = position()
    g.apply(act.DrawTickets())
    g.apply(act.KeepTickets(["T02"], "T02"))
    assert saved(g)["ticket_deck"][-3:] == ["T01", "T03", "T04"]


# --- I: information -----------------------------------------------------------------------------
def test_I1_a_view_refuses_the_teammates_hand_and_private_tickets():
    g = position(hands=[{"blue": 1}, {"red": 3}], tickets=[["T01"], ["T02", "T03"], [], []])
    view = g.view(0)
    assert view.known_in_hands[1] == NONE  # dealt unseen: nothing of it is known
    assert view.unseen[RED] == 12  # the teammate's 3 reds are as unknown as the deck's
    assert "T02" not in view.tickets and view.ticket_counts[1] == 2  # only the count


def test_I1_a_view_allows_its_own_hand_tickets_and_team_cardholder():
    g = position(hands=[{"blue": 1}, {"red": 3}], cardholders=[{"green": 2}],
                 tickets=[["T01"], ["T02", "T03"], [], []], team_tickets=[["T04"], []])
    view = g.view(1)
    assert (view.hand, view.tickets) == (CardCounts(red=3), ("T02", "T03"))
    assert (view.team_cardholder, view.team_tickets) == (CardCounts(green=2), ("T04",))


# --- U: tunnels ---------------------------------------------------------------------------------
# delhi-kathmandu (orange 3, tunnel 4) laid with 3 orange; revealed orange, green, white, blue:
# one more orange or locomotive is owed (U2).
def orange_tunnel() -> Game:
    g = position(hands=[{"orange": 3, "green": 1}], cardholders=[{"locomotive": 1}],
                 draw_pile=[ORANGE, GREEN, WHITE, BLUE])
    g.apply(act.Claim("delhi-kathmandu", CardCounts(orange=3)))
    return g


def test_U1_a_tunnel_claim_short_of_its_cards_is_refused_before_any_reveal():
    g = position(hands=[{"orange": 3}], draw_pile=[ORANGE, GREEN, WHITE, BLUE])
    rejected(g, act.Claim("delhi-kathmandu", CardCounts(orange=2)), "K2")


def test_U1_a_tunnel_claim_is_accepted_and_turns_up_four_cards():
    g = orange_tunnel()
    view = g.view(0)
    assert g.phase is Phase.TUNNEL
    assert view.tunnel.revealed == (ORANGE, GREEN, WHITE, BLUE)
    assert (view.tunnel.extra, view.draw_pile_size) == (1, 0)


def test_U2_an_extra_card_of_another_colour_or_one_too_many_is_refused():
    g = orange_tunnel()
    rejected(g, act.PayTunnel(CardCounts(green=1)), "U2")
    rejected(g, act.PayTunnel(CardCounts(green=1), CardCounts(locomotive=1)), "U2")


def test_U2_a_locomotive_from_the_cardholder_is_accepted_as_the_extra_card():
    g = orange_tunnel()
    g.apply(act.PayTunnel(NONE, CardCounts(locomotive=1)))
    assert saved(g)["claimed"] == {"delhi-kathmandu": 0}
    assert (g.view(0).hand, g.view(0).team_cardholder) == (CardCounts(green=1), NONE)


def test_U3_a_payment_after_withdrawing_is_refused():
    g = orange_tunnel()
    g.apply(act.Withdraw())
    rejected(g, act.PayTunnel(NONE, CardCounts(locomotive=1)), "U2")


def test_U3_withdrawing_is_accepted_and_the_laid_cards_come_back():
    g = orange_tunnel()
    g.apply(act.Withdraw())
    view = g.view(0)
    assert (view.hand, view.team_cardholder) == (CardCounts(orange=3, green=1),
                                                 CardCounts(locomotive=1))
    assert (view.claimed, g.to_move) == ({}, 1)


def test_U4_the_revealed_orange_is_refused_as_payment():
    g = orange_tunnel()  # the revealed orange lies face up; the hand has no orange left
    rejected(g, act.PayTunnel(CardCounts(orange=1)), "K1")


def test_U4_after_the_accepted_payment_the_revealed_cards_are_discarded():
    g = orange_tunnel()
    g.apply(act.PayTunnel(NONE, CardCounts(locomotive=1)))
    # 3 laid + 1 paid (K4) and the 4 revealed (U4)
    assert g.view(0).discard == CardCounts(orange=4, green=1, white=1, blue=1, locomotive=1)


# The tunnel laid with three locomotives from the hand; revealed orange, locomotive, red,
# locomotive: only the two locomotives count (U5).
def locomotive_tunnel() -> Game:
    g = position(hands=[{"locomotive": 4, "orange": 2}], cardholders=[{"locomotive": 2}],
                 draw_pile=[ORANGE, L, RED, L])
    g.apply(act.Claim("delhi-kathmandu", CardCounts(locomotive=3)))
    return g


def test_U5_coloured_cards_for_a_locomotives_only_tunnel_are_refused():
    g = locomotive_tunnel()
    assert g.view(0).tunnel.extra == 2
    rejected(g, act.PayTunnel(CardCounts(orange=2)), "U5")
    rejected(g, act.PayTunnel(CardCounts(orange=1), CardCounts(locomotive=1)), "U5")


def test_U5_locomotives_from_hand_and_cardholder_are_accepted():
    g = locomotive_tunnel()
    g.apply(act.PayTunnel(CardCounts(locomotive=1), CardCounts(locomotive=1)))
    view = g.view(0)
    assert (view.hand, view.team_cardholder) == (CardCounts(orange=2), CardCounts(locomotive=1))
    assert view.claimed == {"delhi-kathmandu": 0}


def test_U6_with_nothing_to_reveal_a_payment_is_refused():
    g = position(hands=[{"red": 4}], draw_pile=[])
    g.apply(act.Claim("kashgar-rawalpindi", CardCounts(red=4)))
    assert g.view(0).claimed == {"kashgar-rawalpindi": 0}  # claimed at once, no extra cost
    rejected(g, act.PayTunnel(CardCounts()), "U2")


def test_U6_a_short_pile_and_the_reshuffled_discard_are_accepted_as_the_reveal():
    # one card in the pile, then the discard (two blues) is reshuffled: 3 revealed, not 4
    g = position(hands=[{"red": 4}], draw_pile=[RED], discard=CardCounts(blue=2))
    g.apply(act.Claim("kashgar-rawalpindi", CardCounts(red=4)))
    tunnel = g.view(0).tunnel
    assert (sorted(tunnel.revealed), tunnel.extra) == ([BLUE, BLUE, RED], 1)


def test_U7_a_gray_tunnel_laid_in_blue_accepts_a_blue_extra_card():
    g = position(hands=[{"blue": 5}], draw_pile=[BLUE, RED, RED, GREEN])
    g.apply(act.Claim("kashgar-rawalpindi", CardCounts(blue=4)))
    assert g.view(0).tunnel.extra == 1  # only the blue counts; the reds do not
    g.apply(act.PayTunnel(CardCounts(blue=1)))
    assert g.view(0).claimed == {"kashgar-rawalpindi": 0}


# --- E: end of game and scoring -----------------------------------------------------------------
def final_round() -> Game:
    """Team A has 2 + 2 trains: the first turn ends with 4, so E1 starts the final round."""
    claimed = {**dict.fromkeys(SEAT0_25, 0), **dict.fromkeys(SEAT1_25, 1)}
    return position(claimed=claimed, draw_pile=[RED] * 10)


def test_E1_every_action_is_refused_once_the_final_turns_are_played():
    g = final_round()
    for turn in range(5):  # the trigger turn, then one final turn each for seats 1, 2, 3, 0
        assert not g.is_over, turn
        draw_two_from_deck(g)
    assert g.is_over
    rejected(g, act.DrawCard("deck"), "E1")
    rejected(g, act.DrawTickets(), "E1")


def test_E1_a_final_turn_accepts_any_action():
    g = final_round()
    draw_two_from_deck(g)
    assert g.view(1).final_round
    g.apply(act.DrawTickets())  # seat 1's final turn: tickets are fine
    g.apply(act.KeepTickets(["T01"], "T01"))
    assert g.view(1).team_tickets == ("T01",)


def test_E2_refuses_a_team_points_for_another_teams_routes():
    a, b = scores({"karachi-lahore": 0, "kabul-karachi": 2})
    assert (a.route_points, b.route_points) == (7, 10)  # length 4: 7, length 5: 10


def test_E2_allows_both_teammates_routes():
    a, b = scores({"karachi-lahore": 0, "calcutta-kathmandu": 1})
    assert (a.route_points, b.route_points) == (7 + 4, 0)


def test_E3_refuses_a_ticket_joined_only_through_another_teams_route():
    claimed = {"kabul-rawalpindi": 0, "lahore-rawalpindi-1": 1, "delhi-lahore-1": 2}
    a, _ = scores(claimed, tickets=[["T05"], [], [], []])  # T05 Kabul - Delhi, 5
    assert a.ticket_points == -5


def test_E3_allows_a_ticket_joined_over_both_teammates_routes():
    claimed = {"kabul-rawalpindi": 0, "lahore-rawalpindi-1": 1, "delhi-lahore-1": 1}
    a, _ = scores(claimed, tickets=[["T05"], [], [], []])
    assert a.ticket_points == 5


def test_E4_refuses_a_path_that_would_use_a_track_twice():
    # a Y at Rawalpindi: 2 + 4 + 1 trains, but a path takes two arms only: 4 + 2
    a, _ = scores({"kabul-rawalpindi": 0, "kashgar-rawalpindi": 1, "lahore-rawalpindi-1": 0})
    assert (a.longest_path, a.asian_express) == (6, 10)


def test_E4_allows_a_path_over_both_teammates_trains():
    # Karachi - Lahore (seat 0, 4) then Lahore - Delhi (seat 1, 2): 6, longer than B's 5
    a, b = scores({"karachi-lahore": 0, "delhi-lahore-1": 1, "kabul-karachi": 2})
    assert (a.longest_path, a.asian_express, b.longest_path, b.asian_express) == (6, 10, 5, 0)


def test_E5_refuses_the_bonus_to_the_team_with_fewer_completed_tickets():
    claimed = {"karachi-lahore": 0, "delhi-lahore-1": 1, "bombay-madras-1": 2,
               "calcutta-delhi-1": 3}
    # A completes T09 Karachi - Delhi; B completes T01 Bombay - Madras and T03 Delhi - Calcutta
    a, b = scores(claimed, tickets=[["T09"], [], ["T01"], ["T03"]])
    assert (a.completed, a.globetrotter, b.completed, b.globetrotter) == (1, 0, 2, 10)


def test_E5_allows_the_bonus_to_every_tied_team():
    claimed = {"karachi-lahore": 0, "delhi-lahore-1": 1, "bombay-madras-1": 2}
    a, b = scores(claimed, tickets=[["T09"], [], ["T01"], []])
    assert (a.globetrotter, b.globetrotter) == (10, 10)


def test_E6_refuses_first_rank_to_the_tied_team_with_fewer_completed_tickets():
    # A: routes 7 + 2, T09 (+6), the Globetrotter (+10) = 25; B: routes 10 + 4 + 1 and the
    # longer path (Madras - Calcutta - Kathmandu, 8 against A's 6), the Asian Express = 25.
    claimed = {"karachi-lahore": 0, "delhi-lahore-1": 1, "calcutta-madras": 2,
               "calcutta-kathmandu": 2, "calcutta-dacca-1": 3}
    a, b = scores(claimed, tickets=[["T09"], [], [], []])
    assert (a.total, b.total) == (25, 25)
    assert (a.rank, b.rank) == (1, 2)


def test_E6_allows_a_shared_first_rank_on_a_complete_tie():
    a, b = scores({"karachi-lahore": 0, "bombay-madras-1": 2})  # 7 + 10 each, paths of 4
    assert (a.total, b.total, a.rank, b.rank) == (17, 17, 1, 1)
