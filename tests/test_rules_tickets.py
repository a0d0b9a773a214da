"""Scenario tests for destination tickets: setup (T1), drawing (T2), rejected tickets (T3),
sharing as a turn (T4) and the two team cardholders (C7).

A board of the test's own with 30 tickets T00..T29 keeps the ticket deck's order exact.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from rules_helpers import rejected as rejected_and_unchanged

from ttrlib import actions as act
from ttrlib.board import board_from_dict
from ttrlib.cards import EMPTY, CardCounts, standard_deck
from ttrlib.errors import IllegalMove, IllegalTickets, SetupError, WrongPhase
from ttrlib.game import Game, Phase, seat_name
from ttrlib.narration import text

_CITIES = ["Alma", "Bata", "Cora", "Dena", "Enna", "Fara", "Gola"]
IDS = [f"T{i:02d}" for i in range(30)]
BOARD = board_from_dict(
    {
        "name": "tickets test board",
        "cities": _CITIES,
        "routes": [
            {"id": "alma-bata", "a": "Alma", "b": "Bata", "length": 2, "color": "red"},
            {"id": "bata-cora", "a": "Bata", "b": "Cora", "length": 3, "color": "gray"},
            # every ticket's cities joined by some chain of routes (the loader refuses others)
            *({"id": f"link{i}", "a": _CITIES[i], "b": _CITIES[i + 1], "length": 8, "color": "gray"}
              for i in range(2, 6)),
        ],
        "tickets": [
            {"id": tid, "a": _CITIES[i % 7], "b": _CITIES[(i + 1 + i // 7) % 7], "points": 4 + i % 9}
            for i, tid in enumerate(IDS)
        ],
    }
)
ROW = ["purple", "purple", "orange", "orange", "black"]


def rejected(g: Game, action, rule: str, kind=IllegalTickets) -> IllegalMove:
    return rejected_and_unchanged(g, action, rule, kind)


def midgame(*, tickets=None, team_tickets=None, ticket_deck=None, hands=None, **kw) -> Game:
    """A TURN position; by default A1 holds T20, A2 holds T21, team A shares T22 T23, team B
    shares T24 T25, and the ticket deck is the other 24 tickets in order (top first)."""
    tickets = tickets if tickets is not None else [["T20"], ["T21"], [], []]
    team_tickets = team_tickets if team_tickets is not None else [["T22", "T23"], ["T24", "T25"]]
    placed = {t for ts in tickets + team_tickets for t in ts}
    if ticket_deck is None:
        ticket_deck = [t for t in IDS if t not in placed]
    hands = hands or [EMPTY] * 4
    rest = standard_deck() - sum(hands, EMPTY) - CardCounts.of(ROW)
    return Game.from_position(board=BOARD, tickets=tickets, team_tickets=team_tickets,
                              ticket_deck=ticket_deck, hands=hands, face_up=ROW,
                              draw_pile=rest.elements(), discard=EMPTY, **kw)


# --------------------------------------------------------------------------------------------------
# C2: 4 or 6 players, teams of two, teammates play in succession
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 5, 8])
def test_C2_only_4_or_6_players(players):
    with pytest.raises(SetupError) as info:
        Game.new(players=players, seed=0, board=BOARD)
    assert "C2" in str(info.value)
    with pytest.raises(SetupError):
        Game.from_position(players=players, board=BOARD)


@pytest.mark.parametrize("players,names", [(4, ["A1", "A2", "B1", "B2"]),
                                           (6, ["A1", "A2", "B1", "B2", "C1", "C2"])])
def test_C2_seats_teams_and_turn_order(players, names):
    g = midgame6() if players == 6 else midgame()
    assert [seat_name(s) for s in range(players)] == names
    assert g.teams == players // 2
    assert len(g.holders) == len(g.team_tickets) == players // 2
    for seat in range(players):
        v = g.view(seat)
        assert v.name == names[seat]
        assert v.team == seat // 2 and v.teammate == seat ^ 1
        assert names[v.teammate][0] == names[seat][0]  # the teammate is of the same team
    # teammates play in succession: A1, A2, B1, B2 (, C1, C2), then A1 again
    order = []
    for _ in range(players + 1):
        order.append(g.to_move)
        g.apply(act.DrawCard("deck"))
        g.apply(act.PlaceCard("hand"))
        g.apply(act.DrawCard("deck"))
    assert order == list(range(players)) + [0]
    # each turn: one card to the hand, one to the team's cardholder (A1 has played twice)
    assert [len(h) for h in g.hands] == [2] + [1] * (players - 1)
    assert [len(h) for h in g.holders] == [3] + [2] * (players // 2 - 1)


def midgame6() -> Game:
    rest = standard_deck() - CardCounts.of(ROW)
    return Game.from_position(players=6, board=BOARD, face_up=ROW, draw_pile=rest.elements(),
                              discard=EMPTY)


# --------------------------------------------------------------------------------------------------
# T1: setup
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 6])
def test_T1_each_player_is_dealt_five_tickets(players):
    g = Game.new(players=players, seed=5, board=BOARD)
    assert g.phase is Phase.SETUP_TICKETS and g.to_move == 0
    dealt = [t for seat in range(players) for t in g.ticket_offer(seat)]
    assert all(len(g.ticket_offer(seat)) == 5 for seat in range(players))
    assert len(set(dealt)) == 5 * players
    assert len(g.ticket_deck) == 30 - 5 * players
    assert not set(dealt) & set(g.ticket_deck)
    assert g.tickets == [[] for _ in range(players)]
    assert g.team_tickets == [[] for _ in range(players // 2)]


def test_T1_keep_at_least_three():
    g = Game.new(players=4, seed=1, board=BOARD)
    offer = g.ticket_offer()
    err = rejected(g, act.KeepTickets(offer[:2], share=offer[0]), "T1")
    assert "at least 3" in err.reason
    rejected(g, act.KeepTickets([], share=offer[0]), "T1")
    g.apply(act.KeepTickets(offer[:3], share=offer[0]))
    assert g.to_move == 1


def test_T1_the_shared_ticket_is_one_of_the_kept_and_was_dealt():
    g = Game.new(players=4, seed=2, board=BOARD)
    offer = g.ticket_offer()
    other = g.ticket_offer(1)[0]
    rejected(g, act.KeepTickets(offer[:3], share=offer[4]), "T1")
    rejected(g, act.KeepTickets(offer[:3] + [other], share=offer[0]), "T1")  # A2's ticket
    rejected(g, act.KeepTickets(offer[:3] + ["T99"], share=offer[0]), "T1")
    rejected(g, act.DrawTickets(), "T1", WrongPhase)
    rejected(g, act.DrawCard("deck"), "T1", WrongPhase)
    rejected(g, act.ShareTickets([offer[0]]), "T1", WrongPhase)
    assert len(g.legal_actions()) == 3 * 10 + 4 * 5 + 5  # keep 3, 4 or 5, share one of them


def test_T1_each_team_starts_with_two_shared_tickets():
    g = Game.new(players=4, seed=7, board=BOARD)
    o = [g.ticket_offer(s) for s in range(4)]
    deck = list(g.ticket_deck)
    g.apply(act.KeepTickets(o[0][:3], share=o[0][0]))  # A1 keeps 3
    g.apply(act.KeepTickets(o[1], share=o[1][4]))  # A2 keeps all 5
    g.apply(act.KeepTickets(o[2][:4], share=o[2][1]))  # B1 keeps 4
    g.apply(act.KeepTickets(o[3][2:], share=o[3][4]))  # B2 keeps 3
    assert g.phase is Phase.TURN and g.to_move == 0
    assert sorted(g.team_tickets[0]) == sorted([o[0][0], o[1][4]])
    assert sorted(g.team_tickets[1]) == sorted([o[2][1], o[3][4]])
    assert sorted(g.tickets[0]) == sorted(o[0][1:3])
    assert sorted(g.tickets[1]) == sorted(o[1][:4])
    assert sorted(g.tickets[2]) == sorted([o[2][0], o[2][2], o[2][3]])
    assert sorted(g.tickets[3]) == sorted(o[3][2:4])
    # T3: the 2 + 0 + 1 + 2 rejected tickets go beneath the 10 undealt ones
    assert g.ticket_deck[:10] == deck
    assert sorted(g.ticket_deck[10:]) == sorted(o[0][3:] + o[2][4:] + o[3][:2])


def test_T1_first_teammates_choice_is_not_visible_before_the_second_chooses():
    g = Game.new(players=4, seed=11, board=BOARD)
    o0, o1 = g.ticket_offer(0), g.ticket_offer(1)
    a, b = g.copy(), g.copy()
    a.apply(act.KeepTickets(o0[:3], share=o0[0]))  # A1 keeps 3, shares the first
    b.apply(act.KeepTickets(o0, share=o0[4]))  # A1 keeps all 5, shares another
    # A2 (and everyone else) sees exactly the same game either way
    for seat in (1, 2, 3):
        assert a.view(seat) == b.view(seat)
    v = a.view(1)
    assert v.team_tickets == () and v.tickets == ()
    assert v.ticket_counts == (0, 0, 0, 0)
    assert v.ticket_offer == tuple(o1)
    assert not any(tid in str(e) for tid in o0 for e in v.events)
    # nothing has been placed yet, in the game itself either
    assert a.team_tickets == [[], []] and a.tickets[0] == []
    # both shared tickets appear at the same moment, once A2 has chosen
    a.apply(act.KeepTickets(o1[:3], share=o1[2]))
    assert sorted(a.team_tickets[0]) == sorted([o0[0], o1[2]])
    assert sorted(a.view(1).team_tickets) == sorted([o0[0], o1[2]])
    assert sorted(a.view(0).team_tickets) == sorted([o0[0], o1[2]])


def test_T1_the_second_teammate_does_not_see_the_first_ones_dealt_tickets():
    g = Game.new(players=4, seed=4, board=BOARD)
    o0 = g.ticket_offer(0)
    g.apply(act.KeepTickets(o0[:3], share=o0[0]))
    v = g.view(1)
    assert not set(o0) & (set(v.ticket_offer) | set(v.tickets) | set(v.team_tickets))


def test_T1_six_players_each_team_two_shared():
    g = Game.new(players=6, seed=3, board=BOARD)
    for seat in range(6):
        assert g.to_move == seat  # C2: seat order A1, A2, B1, B2, C1, C2
        offer = g.ticket_offer()
        g.apply(act.KeepTickets(offer[:3], share=offer[1]))
    assert g.phase is Phase.TURN and g.to_move == 0
    assert [len(t) for t in g.team_tickets] == [2, 2, 2]
    assert [len(t) for t in g.tickets] == [2] * 6
    assert len(g.ticket_deck) == 30 - 18


# --------------------------------------------------------------------------------------------------
# T2: drawing tickets mid-game
# --------------------------------------------------------------------------------------------------


def test_T2_draw_four_keep_at_least_one_share_one_of_the_newly_kept():
    g = midgame()
    deck = list(g.ticket_deck)
    g.apply(act.DrawTickets())
    assert g.phase is Phase.CHOOSE_TICKETS and g.to_move == 0
    assert g.ticket_offer() == deck[:4] == ["T00", "T01", "T02", "T03"]
    assert g.view(0).ticket_offer == ("T00", "T01", "T02", "T03")
    assert g.view(1).ticket_offer == ()  # the teammate does not see them
    rejected(g, act.KeepTickets([], share="T00"), "T2")
    rejected(g, act.KeepTickets(["T00", "T01"], share="T20"), "T2")  # not newly kept
    rejected(g, act.KeepTickets(["T00", "T01"], share="T02"), "T2")  # not kept
    rejected(g, act.KeepTickets(["T00", "T04"], share="T00"), "T2")  # not drawn
    rejected(g, act.DrawCard("deck"), "T2", WrongPhase)
    rejected(g, act.ShareTickets(["T20"]), "T2", WrongPhase)
    assert len(g.legal_actions()) == 4 * 1 + 6 * 2 + 4 * 3 + 1 * 4
    g.apply(act.KeepTickets(["T00", "T01"], share="T01"))
    assert g.tickets[0] == ["T20", "T00"]
    assert g.team_tickets[0] == ["T22", "T23", "T01"]
    assert g.phase is Phase.TURN and g.to_move == 1
    assert g.view(1).team_tickets == ("T22", "T23", "T01")
    assert g.view(1).tickets == ("T21",)  # A1's private T00 stays secret
    assert g.view(1).ticket_counts == (2, 1, 0, 0)


def test_T2_keeping_one_ticket_shares_it():
    g = midgame()
    g.apply(act.DrawTickets())
    g.apply(act.KeepTickets(["T03"], share="T03"))
    assert g.tickets[0] == ["T20"]
    assert g.team_tickets[0] == ["T22", "T23", "T03"]


def test_T2_fewer_than_four_tickets_left():
    deck = ["T05", "T06"]
    team = [["T22", "T23"], [t for t in IDS if t not in {"T05", "T06", "T20", "T21", "T22",
                                                         "T23"}]]
    g = midgame(team_tickets=team, ticket_deck=deck)
    g.apply(act.DrawTickets())
    assert g.ticket_offer() == ["T05", "T06"]
    assert g.ticket_deck == []
    g.apply(act.KeepTickets(["T06"], share="T06"))
    assert g.ticket_deck == ["T05"]  # T3
    assert g.team_tickets[0] == ["T22", "T23", "T06"]
    # one left: it must be kept (keep at least 1 of 1)
    g2 = midgame(team_tickets=[["T22", "T23"], team[1] + ["T06"]], ticket_deck=["T05"])
    g2.apply(act.DrawTickets())
    assert g2.legal_actions() == [act.KeepTickets(["T05"], share="T05")]


def test_T2_no_ticket_left_no_ticket_draw():
    team = [["T22", "T23"], [t for t in IDS if t not in {"T20", "T21", "T22", "T23"}]]
    g = midgame(team_tickets=team, ticket_deck=[])
    assert act.DrawTickets() not in g.legal_actions()
    rejected(g, act.DrawTickets(), "T2")


# --------------------------------------------------------------------------------------------------
# T3: rejected tickets go to the bottom of the deck
# --------------------------------------------------------------------------------------------------


def test_T3_rejected_tickets_go_to_the_bottom_of_the_ticket_deck():
    g = midgame()
    deck = list(g.ticket_deck)
    g.apply(act.DrawTickets())
    g.apply(act.KeepTickets(["T01"], share="T01"))
    assert g.ticket_deck[:-3] == deck[4:]
    assert sorted(g.ticket_deck[-3:]) == ["T00", "T02", "T03"]
    # the next draw takes the next tickets, not the rejected ones
    g.apply(act.DrawTickets())
    assert g.ticket_offer() == ["T04", "T05", "T06", "T07"]


def test_T3_policy_rejected_tickets_go_to_the_bottom_in_the_order_offered():
    """T3 policy: the offer is the top 4 of the deck, T00 T01 T02 T03 in that order; keeping
    T02 puts T00, T01, T03 under the deck in exactly that order (offer order, not sorted and not
    reversed)."""
    g = midgame()
    deck = list(g.ticket_deck)
    g.apply(act.DrawTickets())
    assert g.ticket_offer() == ["T00", "T01", "T02", "T03"]
    g.apply(act.KeepTickets(["T02"], share="T02"))
    assert g.ticket_deck == deck[4:] + ["T00", "T01", "T03"]


def test_T3_policy_the_order_offered_is_kept_even_when_the_offer_is_not_sorted():
    """A deck given top first as T09 T03 T07 T01: rejecting T09, T07 and T01 puts them at the
    bottom as T09, T07, T01."""
    top = ["T09", "T03", "T07", "T01"]
    deck = top + [t for t in IDS if t not in top and t not in {f"T2{i}" for i in range(6)}]
    g = midgame(ticket_deck=deck)
    g.apply(act.DrawTickets())
    g.apply(act.KeepTickets(["T03"], share="T03"))
    assert g.ticket_deck == deck[4:] + ["T09", "T07", "T01"]


def test_T3_policy_setup_rejects_go_to_the_bottom_in_deal_order():
    """Setup (T1): A1's and A2's rejected tickets go under the deck when the team reveals, A1's
    first, each in the order dealt."""
    g = Game.new(players=4, seed=5, board=BOARD)
    o0, o1 = g.ticket_offer(0), g.ticket_offer(1)
    deck = list(g.ticket_deck)
    g.apply(act.KeepTickets([o0[1], o0[3], o0[4]], share=o0[1]))
    assert g.ticket_deck == deck  # hidden until A2 has chosen (T1)
    g.apply(act.KeepTickets(o1[:3], share=o1[0]))
    assert g.ticket_deck == deck + [o0[0], o0[2], o1[3], o1[4]]


# --------------------------------------------------------------------------------------------------
# T4: sharing tickets as a whole turn
# --------------------------------------------------------------------------------------------------


def test_T4_share_one_ticket_is_the_whole_turn():
    g = midgame(tickets=[["T20", "T26", "T27"], ["T21"], [], []])
    pile, hands = list(g.draw_pile), list(g.hands)
    g.apply(act.ShareTickets(["T26"]))
    assert g.tickets[0] == ["T20", "T27"]
    assert g.team_tickets[0] == ["T22", "T23", "T26"]
    assert g.to_move == 1 and g.phase is Phase.TURN  # nothing else that turn
    assert g.draw_pile == pile and g.hands == hands
    assert "T26" in g.view(1).team_tickets


def test_T4_share_two_tickets():
    g = midgame(tickets=[["T20", "T26", "T27"], ["T21"], [], []])
    g.apply(act.ShareTickets(["T27", "T20"]))
    assert g.tickets[0] == ["T26"]
    assert sorted(g.team_tickets[0]) == ["T20", "T22", "T23", "T27"]
    assert g.to_move == 1


def test_T4_three_tickets_rejected():
    g = midgame(tickets=[["T20", "T26", "T27"], ["T21"], [], []])
    err = rejected(g, act.ShareTickets(["T20", "T26", "T27"]), "T4")
    assert "1 or 2" in err.reason
    rejected(g, act.ShareTickets([]), "T4")


@pytest.mark.parametrize("ticket", ["T21", "T22", "T24", "T00", "T99"])
def test_T4_only_own_private_tickets_can_be_shared(ticket):
    """T21: the teammate's; T22: already shared; T24: the other team's; T00: in the deck."""
    g = midgame()
    rejected(g, act.ShareTickets([ticket]), "T4")
    rejected(g, act.ShareTickets(["T20", ticket]), "T4")


def test_T4_legal_shares_are_every_one_or_two_private_tickets():
    mine = ["T20", "T26", "T27"]
    g = midgame(tickets=[mine, ["T21"], [], []])
    shares = {a for a in g.legal_actions() if isinstance(a, act.ShareTickets)}
    expected = {act.ShareTickets([t]) for t in mine}
    expected |= {act.ShareTickets(pair) for pair in combinations(mine, 2)}
    assert shares == expected


# --------------------------------------------------------------------------------------------------
# C7: two cardholders per team
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 6])
def test_C7_each_team_has_a_train_cardholder_and_a_ticket_cardholder(players):
    g = Game.new(players=players, seed=0, board=BOARD)
    assert len(g.holders) == players // 2
    assert len(g.team_tickets) == players // 2
    v = g.view(players - 1)
    assert v.team_cardholder == EMPTY and v.team_tickets == ()


def test_C7_both_teammates_use_the_same_two_cardholders():
    g = midgame(tickets=[["T20", "T26"], ["T21"], [], []],
                hands=[EMPTY, CardCounts(red=1), EMPTY, EMPTY])
    g.apply(act.ShareTickets(["T26"]))  # A1 places a ticket in the ticket cardholder
    assert g.view(1).team_tickets == ("T22", "T23", "T26")
    assert "T26" not in g.view(2).team_tickets + g.view(3).team_tickets
    g.apply(act.DrawCard("deck"))  # A2: first card to the train cardholder
    first = g.drawn_card
    g.apply(act.PlaceCard("cardholder"))
    g.apply(act.DrawCard("deck"))
    assert g.holders[0] == CardCounts.of([first])
    assert g.view(0).team_cardholder == g.holders[0]  # A1 sees it
    assert g.view(1).team_cardholder == g.holders[0]


# --------------------------------------------------------------------------------------------------
# log texts in plain English (the counts below are read off the scenario by hand)
# --------------------------------------------------------------------------------------------------


def test_T2_T4_log_texts_say_1_ticket_and_2_tickets():
    g = midgame(tickets=[["T20", "T26", "T27"], ["T21"], [], []])
    g.apply(act.ShareTickets(["T26"]))
    assert text(g.events[-1]) == "A1 shares 1 ticket (T4)"
    g.apply(act.ShareTickets(["T21"]))
    g.apply(act.DrawTickets())  # B1 draws 4
    assert text(g.events[-1]) == "B1 draws 4 tickets"
    g.apply(act.KeepTickets(["T00"], share="T00"))
    assert text(g.events[-1]) == "B1 keeps 1 ticket, shares 1, returns 3 (T2, T3)"
    g.apply(act.DrawTickets())  # B2
    g.apply(act.KeepTickets(["T04", "T05"], share="T04"))  # offered T04-T07
    assert text(g.events[-1]) == "B2 keeps 2 tickets, shares 1, returns 2 (T2, T3)"
    g.apply(act.ShareTickets(["T20", "T27"]))
    assert text(g.events[-1]) == "A1 shares 2 tickets (T4)"
    assert not any("(s)" in text(e) for e in g.events)


def test_T2_one_ticket_left_is_drawn_as_1_ticket():
    team = [["T22", "T23"], [t for t in IDS if t not in {"T05", "T20", "T21", "T22", "T23"}]]
    g = midgame(team_tickets=team, ticket_deck=["T05"])
    g.apply(act.DrawTickets())
    assert text(g.events[-1]) == "A1 draws 1 ticket"


def test_C2_player_counts_constant():
    from ttrlib.game import PLAYER_COUNTS

    assert PLAYER_COUNTS == (4, 6)  # C2, from the rulebook
    for players in PLAYER_COUNTS:
        assert Game.new(players=players, seed=0, board=BOARD).players == players
