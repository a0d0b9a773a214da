"""Scenario tests for claiming routes: K1 (hand + team cardholder, never the teammate's hand),
K2 (cost and trains), K3 (double and triple routes) and K4 (played cards are discarded).

A small board of the test's own gives exact shapes: a red 3-route, a gray 2-route, a double
route, a triple route, a Hong Kong - Canton double listed in ``open_groups`` and a few long
routes to run a seat's train supply down.
"""

from __future__ import annotations

import pytest
from rules_helpers import exact_position
from rules_helpers import rejected as rejected_and_unchanged

from ttrlib import actions as act
from ttrlib.board import board_from_dict, teaching_board
from ttrlib.cards import EMPTY, TRAIN_COLORS, CardCounts, Color, standard_deck
from ttrlib.errors import IllegalClaim, IllegalMove
from ttrlib.game import Game, Phase

_CITIES = ["Alma", "Bata", "Cora", "Dena", "Enna", "Fara", "Gola", "Hana", "Iris", "Jura",
           "Canton", "Hong Kong"]


def _route(rid, a, b, length, color, **kw):
    return {"id": rid, "a": a, "b": b, "length": length, "color": color, **kw}


BOARD = board_from_dict(
    {
        "name": "claims test board",
        "cities": _CITIES,
        "open_groups": ["canton-hongkong"],
        "routes": [
            _route("alma-bata", "Alma", "Bata", 3, "red"),
            _route("alma-cora", "Alma", "Cora", 2, "gray"),
            _route("alma-dena-1", "Alma", "Dena", 2, "blue", group="alma-dena"),
            _route("alma-dena-2", "Alma", "Dena", 2, "green", group="alma-dena"),
            _route("alma-enna-1", "Alma", "Enna", 1, "gray", group="alma-enna"),
            _route("alma-enna-2", "Alma", "Enna", 1, "gray", group="alma-enna"),
            _route("alma-enna-3", "Alma", "Enna", 1, "gray", group="alma-enna"),
            _route("canton-hongkong-1", "Canton", "Hong Kong", 2, "gray", group="canton-hongkong"),
            _route("canton-hongkong-2", "Canton", "Hong Kong", 2, "gray", group="canton-hongkong"),
            _route("bata-fara", "Bata", "Fara", 8, "gray"),
            _route("cora-gola", "Cora", "Gola", 8, "gray"),
            _route("dena-hana", "Dena", "Hana", 8, "gray"),
            _route("enna-iris", "Enna", "Iris", 1, "white"),
            _route("bata-jura", "Bata", "Jura", 6, "yellow"),
        ],
        "tickets": [
            {"id": f"T{i:02d}", "a": _CITIES[i % 10], "b": _CITIES[(i + 3) % 10], "points": 6}
            for i in range(30)
        ],
    }
)

ROW = ["purple", "purple", "orange", "orange", "black"]


def position(*, draw_pile=("white", "white"), face_up=ROW, board=BOARD, **kw) -> Game:
    """An exact position; the cards not named go to the last seat (an opponent of seats 0 and
    1); by default five plain cards lie face up."""
    return exact_position(board, draw_pile=draw_pile, face_up=face_up, **kw)


def rejected(g: Game, action, rule: str) -> IllegalMove:
    return rejected_and_unchanged(g, action, rule, IllegalClaim)


def claimed_ok(g: Game, action: act.Claim, seat: int) -> None:
    assert action in g.legal_actions()
    route = BOARD.route(action.route) if BOARD.has_route(action.route) else None
    trains = g.trains[seat]
    g.apply(action)
    assert g.owners[action.route] == seat
    if route is not None:
        assert g.trains[seat] == trains - route.length


def C(**kw) -> CardCounts:
    return CardCounts(**kw)


# --------------------------------------------------------------------------------------------------
# K1: own hand + team cardholder, never the teammate's hand
# --------------------------------------------------------------------------------------------------


def test_K1_hand_and_team_cardholder_mix_pays_for_a_route():
    g = position(hands=[C(red=2, blue=1)], cardholders=[C(red=1, locomotive=1), EMPTY])
    claimed_ok(g, act.Claim("alma-bata", hand=C(red=2), cardholder=C(red=1)), seat=0)
    assert g.hands[0] == C(blue=1)
    assert g.holders[0] == C(locomotive=1)
    assert g.to_move == 1 and g.phase is Phase.TURN


def test_K1_a_seat_may_pay_entirely_from_the_team_cardholder():
    """A2 pays with cards A1 (or anyone of the team) put in the team's cardholder."""
    g = position(hands=[C(red=5), EMPTY], cardholders=[C(red=2, locomotive=1), C(red=3)],
                 to_move=1)
    claimed_ok(g, act.Claim("alma-bata", cardholder=C(red=2, locomotive=1)), seat=1)
    assert g.holders == [EMPTY, C(red=3)]
    assert g.hands[0] == C(red=5)  # the teammate's hand is untouched


def test_K1_teammates_hand_cannot_pay():
    g = position(hands=[C(red=1), C(red=3)])
    err = rejected(g, act.Claim("alma-bata", hand=C(red=3)), "K1")
    assert str(err).startswith("rule K1: your hand lacks 2 red")
    assert "never your teammate's hand" in str(err)
    # I1: the refusal reads the same whether or not the teammate holds those cards
    g_other = position(hands=[C(red=1), C(blue=3)])
    assert str(rejected(g_other, act.Claim("alma-bata", hand=C(red=3)), "K1")) == str(err)
    # nothing the engine offers to seat 0 touches the teammate's red cards
    assert all(c.route != "alma-bata" for c in g.legal_claims(0))
    # the teammate may of course use them on their own turn
    g2 = position(hands=[C(red=1), C(red=3)], to_move=1)
    claimed_ok(g2, act.Claim("alma-bata", hand=C(red=3)), seat=1)


def test_K1_naming_the_teammates_cards_is_always_refused():
    """``Claim.teammate`` lets a learner try to use the teammate's cards: K1 always refuses."""
    g = position(hands=[C(red=3), C(red=3)])
    for cards in (C(red=3), C(red=1)):
        err = rejected(g, act.Claim("alma-bata", teammate=cards), "K1")
        assert str(err).startswith(
            "rule K1: cards in your teammate's hand cannot pay for your route")
    rejected(g, act.Claim("alma-bata", hand=C(red=2), teammate=C(red=1)), "K1")
    claimed_ok(g, act.Claim("alma-bata", hand=C(red=3)), seat=0)


def test_K1_mixing_own_hand_with_teammates_cards_is_rejected():
    g = position(hands=[C(red=2), C(red=2)], cardholders=[EMPTY, EMPTY])
    rejected(g, act.Claim("alma-bata", hand=C(red=3)), "K1")


def test_K1_another_teams_cardholder_cannot_pay():
    g = position(hands=[C(red=1)], cardholders=[EMPTY, C(red=3)])
    err = rejected(g, act.Claim("alma-bata", cardholder=C(red=3)), "K1")
    assert "cardholder" in err.reason


def test_K1_cards_claimed_from_the_cardholder_must_be_there():
    g = position(hands=[C(red=2)], cardholders=[C(red=1), EMPTY])
    rejected(g, act.Claim("alma-bata", hand=C(red=1), cardholder=C(red=2)), "K1")
    rejected(g, act.Claim("alma-bata", hand=C(red=3)), "K1")


def test_K1_K2_legal_claims_are_exactly_the_ways_to_pay():
    """Hand: 1 red, 1 locomotive; cardholder: 1 red. The red 3-route takes all three; the gray
    2-route any two with at least one red (two locomotives are not there)."""
    hand, holder = C(red=1, locomotive=1), C(red=1)
    g = position(hands=[hand, C(red=4)], cardholders=[holder, EMPTY])
    claims = {c for c in g.legal_claims(0) if c.route in ("alma-bata", "alma-cora")}
    expected = {
        act.Claim("alma-bata", hand=C(red=1, locomotive=1), cardholder=C(red=1)),
        act.Claim("alma-cora", hand=C(red=1), cardholder=C(red=1)),
        act.Claim("alma-cora", hand=C(red=1, locomotive=1)),
        act.Claim("alma-cora", hand=C(locomotive=1), cardholder=C(red=1)),
    }
    assert claims == expected
    # routes whose colour this seat cannot pay are not offered (blue, green, yellow, white...)
    assert {c.route for c in g.legal_claims(0)} == {
        "alma-bata", "alma-cora", "alma-enna-1", "alma-enna-2", "alma-enna-3",
        "canton-hongkong-1", "canton-hongkong-2", "enna-iris"}
    for claim in g.legal_claims(0):
        g.copy().apply(claim)  # each is accepted


# --------------------------------------------------------------------------------------------------
# K2: L cards of one colour (any one for gray, locomotives wild); L trains placed
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("cards", [C(red=2), C(red=4), C(red=1), C(red=2, locomotive=2)])
def test_K2_a_route_costs_exactly_its_length(cards):
    g = position(hands=[C(red=4, locomotive=2)])
    err = rejected(g, act.Claim("alma-bata", hand=cards), "K2")
    assert "exactly 3" in err.reason


def test_K2_no_cards_is_no_claim():
    g = position(hands=[C(red=4)])
    rejected(g, act.Claim("alma-bata"), "K2")


def test_K2_a_coloured_route_takes_its_colour():
    g = position(hands=[C(blue=3, green=3)])
    err = rejected(g, act.Claim("alma-bata", hand=C(blue=3)), "K2")
    assert "red" in err.reason
    rejected(g, act.Claim("alma-dena-1", hand=C(green=2)), "K2")  # blue track
    claimed_ok(g, act.Claim("alma-dena-2", hand=C(green=2)), seat=0)  # green track


@pytest.mark.parametrize("colour", [c.value for c in TRAIN_COLORS])
def test_K2_gray_route_takes_any_one_colour(colour):
    g = position(hands=[C(**{colour: 2})])
    claimed_ok(g, act.Claim("alma-cora", hand=C(**{colour: 2})), seat=0)


def test_K2_one_colour_only_even_on_gray():
    g = position(hands=[C(red=1, blue=1, green=3)])
    err = rejected(g, act.Claim("alma-cora", hand=C(red=1, blue=1)), "K2")
    assert "one colour" in err.reason


def test_K2_one_colour_across_hand_and_cardholder():
    g = position(hands=[C(red=1)], cardholders=[C(blue=1), EMPTY])
    rejected(g, act.Claim("alma-cora", hand=C(red=1), cardholder=C(blue=1)), "K2")


@pytest.mark.parametrize(
    "route,cards",
    [
        ("alma-bata", C(red=1, locomotive=2)),
        ("alma-bata", C(locomotive=3)),
        ("alma-cora", C(blue=1, locomotive=1)),
        ("alma-cora", C(locomotive=2)),
        ("alma-dena-1", C(locomotive=2)),
    ],
)
def test_K2_locomotives_are_wild(route, cards):
    g = position(hands=[cards])
    claimed_ok(g, act.Claim(route, hand=cards), seat=0)
    assert g.hands[0] == EMPTY


def test_K2_the_player_places_route_length_of_their_own_trains():
    g = position(hands=[C(red=3), C(yellow=6)])
    g.apply(act.Claim("alma-bata", hand=C(red=3)))
    assert g.trains == [24, 27, 27, 27]
    g.apply(act.Claim("bata-jura", hand=C(yellow=6)))
    assert g.trains == [24, 21, 27, 27]  # A2's own supply, not the team's pool
    assert g.owners == {"alma-bata": 0, "bata-jura": 1}


def test_K2_too_few_trains():
    # seat 0 has placed 8 + 8 + 8 + 1 = 25 trains: 2 are left
    done = {"bata-fara": 0, "cora-gola": 0, "dena-hana": 0, "enna-iris": 0}
    g = position(hands=[C(red=3, blue=2)], claimed=done)
    assert g.trains[0] == 2
    err = rejected(g, act.Claim("alma-bata", hand=C(red=3)), "K2")
    assert "trains" in err.reason
    claimed_ok(g, act.Claim("alma-cora", hand=C(blue=2)), seat=0)  # exactly 2: fine
    assert g.trains[0] == 0


def test_K2_unknown_route_is_rejected():
    g = position(hands=[C(red=3)])
    rejected(g, act.Claim("alma-nowhere", hand=C(red=3)), "K2")


# --------------------------------------------------------------------------------------------------
# C3: 27 trains per player, kept apart from the teammate's
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 6])
def test_C3_each_player_has_27_trains(players):
    g = Game.new(players=players, seed=0, board=BOARD)
    assert g.trains == [27] * players
    assert [g.team_trains(t) for t in range(players // 2)] == [54] * (players // 2)


def test_C3_a_players_trains_are_not_the_teammates():
    """A1 has 2 trains left and A2 all 27: the team holds 29, but A1 cannot use A2's trains."""
    done = {"bata-fara": 0, "cora-gola": 0, "dena-hana": 0, "enna-iris": 0}
    g = position(hands=[C(red=3), C(red=3)], claimed=done)
    assert g.trains[:2] == [2, 27] and g.team_trains(0) == 29
    rejected(g, act.Claim("alma-bata", hand=C(red=3)), "K2")
    g2 = position(hands=[C(red=3), C(red=3)], claimed=done, to_move=1)
    claimed_ok(g2, act.Claim("alma-bata", hand=C(red=3)), seat=1)
    assert g2.trains[:2] == [2, 24]


# --------------------------------------------------------------------------------------------------
# K3: double and triple routes
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1, 3])
def test_K3_four_players_double_route_closed_after_one_track(seat):
    g = position(hands=[C(green=2)] * 4, claimed={"alma-dena-1": 2}, to_move=seat, dump=2)
    err = rejected(g, act.Claim("alma-dena-2", hand=C(green=2)), "K3")
    assert "closed" in err.reason
    assert all(c.route != "alma-dena-2" for c in g.legal_claims())


def test_K3_triple_route_only_two_of_three_and_the_two_may_be_teammates():
    g = position(hands=[C(red=1), C(red=1), C(red=1)], claimed={"alma-enna-1": 0}, to_move=1)
    claimed_ok(g, act.Claim("alma-enna-2", hand=C(red=1)), seat=1)  # A2 beside A1's track
    assert g.to_move == 2
    err = rejected(g, act.Claim("alma-enna-3", hand=C(red=1)), "K3")
    assert "2 of the 3" in err.reason


def test_K3_triple_route_second_track_open_to_an_opponent():
    g = position(hands=[C(red=1), C(red=1), C(red=1)], claimed={"alma-enna-1": 0}, to_move=2)
    claimed_ok(g, act.Claim("alma-enna-3", hand=C(red=1)), seat=2)
    assert g.owners == {"alma-enna-1": 0, "alma-enna-3": 2}


def test_K3_hong_kong_canton_both_tracks_stay_open_with_four_players():
    g = position(hands=[C(red=2)], claimed={"canton-hongkong-1": 2})
    claimed_ok(g, act.Claim("canton-hongkong-2", hand=C(red=2)), seat=0)


def test_K3_hong_kong_canton_is_open_on_the_teaching_board():
    board = teaching_board()
    tracks = [r for r in board.routes if {r.a, r.b} == {"Hong Kong", "Canton"}]
    assert len(tracks) >= 2
    assert all(r.group in board.open_groups for r in tracks)
    first, second = tracks[0], tracks[1]
    colour = (second.color or Color.RED).value
    cards = C(**{colour: second.length})
    g = position(hands=[cards], claimed={first.id: 2}, board=board)
    g.apply(act.Claim(second.id, hand=cards))
    assert g.owners[second.id] == 0 and g.owners[first.id] == 2


def test_K3_six_players_every_track_is_open():
    g = position(players=6, hands=[C(green=2)], claimed={"alma-dena-1": 2})
    claimed_ok(g, act.Claim("alma-dena-2", hand=C(green=2)), seat=0)
    g = position(players=6, hands=[C(red=1)], claimed={"alma-enna-1": 2, "alma-enna-2": 4})
    claimed_ok(g, act.Claim("alma-enna-3", hand=C(red=1)), seat=0)
    assert sorted(g.owners.values()) == [0, 2, 4]


@pytest.mark.parametrize(
    "players,mine,other",
    [
        (4, "alma-enna-1", "alma-enna-2"),
        (4, "canton-hongkong-1", "canton-hongkong-2"),
        (6, "alma-dena-1", "alma-dena-2"),
        (6, "alma-enna-2", "alma-enna-3"),
        (6, "canton-hongkong-2", "canton-hongkong-1"),
    ],
)
def test_K3_one_player_never_claims_two_tracks_between_the_same_cities(players, mine, other):
    g = position(players=players, hands=[C(green=2, locomotive=2)], claimed={mine: 0})
    cards = C(green=BOARD.route(other).length)
    err = rejected(g, act.Claim(other, hand=cards), "K3")
    assert "two tracks" in err.reason


def test_K3_a_claimed_track_cannot_be_claimed_again():
    g = position(hands=[C(red=3)], claimed={"alma-bata": 2})
    err = rejected(g, act.Claim("alma-bata", hand=C(red=3)), "K3")
    assert "already claimed" in err.reason


# --------------------------------------------------------------------------------------------------
# K4: played cards go to the discard pile
# --------------------------------------------------------------------------------------------------


def test_K4_played_cards_go_to_the_discard():
    g = position(hands=[C(red=1, locomotive=1, blue=2)], cardholders=[C(red=1, white=1), EMPTY],
                 discard=C(orange=2), draw_pile=["yellow", "yellow"])
    pile = list(g.draw_pile)
    g.apply(act.Claim("alma-bata", hand=C(red=1, locomotive=1), cardholder=C(red=1)))
    assert CardCounts.of(g.discard) == C(orange=2, red=2, locomotive=1)
    assert g.hands[0] == C(blue=2) and g.holders[0] == C(white=1)
    assert g.draw_pile == pile  # the played cards do not go back into the pile
    assert g.total_cards() == standard_deck()


def test_K4_played_cards_visibly_leave_what_others_knew_of_the_hand():
    """K4 + I1: a face-up red taken into the hand is known; once played it is in the discard."""
    g = position(hands=[C(red=1)], face_up=["red", "purple", "orange", "orange", "black"],
                 draw_pile=["white", "blue"])
    g.apply(act.DrawCard(0))  # the face-up red, into the hand
    g.apply(act.PlaceCard("hand"))
    g.apply(act.DrawCard("deck"))
    assert g.view(2).known_in_hands[0] == C(red=1)
    for _ in range(3):  # the other seats draw tickets and keep everything
        g.apply(act.DrawTickets())
        offer = g.ticket_offer()
        g.apply(act.KeepTickets(offer, share=offer[0]))
    g.apply(act.Claim("alma-cora", hand=C(red=2)))
    assert g.view(2).known_in_hands[0] == EMPTY
    assert CardCounts.of(g.discard) == C(red=2)


def test_K1_K2_payments_listed_by_hand():
    # A gray 2-route, hand: 1 red + 1 locomotive, team cardholder: 1 red. By hand: red + red
    # (one from each place), red + locomotive from the hand, or the cardholder's red + the
    # hand's locomotive. Two locomotives are not there; no other colour is held.
    from ttrlib.rules.payments import route_payments

    hand, holder = CardCounts(red=1, locomotive=1), CardCounts(red=1)
    expected = {(CardCounts(red=1), CardCounts(red=1)),
                (CardCounts(red=1, locomotive=1), CardCounts()),
                (CardCounts(locomotive=1), CardCounts(red=1))}
    assert set(route_payments(hand, holder, None, 2)) == expected
    assert len(route_payments(hand, holder, None, 2)) == 3  # each way once
    assert set(route_payments(hand, holder, Color.RED, 2)) == expected
    assert not route_payments(hand, holder, Color.BLUE, 2)  # one locomotive is not enough
