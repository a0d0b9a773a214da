"""Rule I1: what a seat may know.

A view holds the seat's own hand and tickets, the team's two cardholders and everything public,
and never the teammate's private hand or tickets. Known cards (a face-up card someone took) stay
known until visibly played. The unseen pool is the 110 cards minus everything the seat can see;
the draw pile is always part of it.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from bot_games import play_bot_game
from rules_helpers import exact_position

from ttrlib import actions as act
from ttrlib.board import board_from_dict
from ttrlib.cards import EMPTY, CardCounts, Color, standard_deck
from ttrlib.game import Game, Phase, PlayerView

L = Color.LOCOMOTIVE
RED, BLUE, GREEN, WHITE = Color.RED, Color.BLUE, Color.GREEN, Color.WHITE
PURPLE, ORANGE, BLACK = Color.PURPLE, Color.ORANGE, Color.BLACK

_CITIES = ["Alma", "Bata", "Cora", "Dena", "Enna", "Fara", "Gola"]
BOARD = board_from_dict(
    {
        "name": "view test board",
        "cities": _CITIES,
        "routes": [
            {"id": "tun4", "a": "Alma", "b": "Bata", "length": 2, "color": "red", "tunnel": 4},
            {"id": "bata-cora", "a": "Bata", "b": "Cora", "length": 2, "color": "red"},
            {"id": "cora-dena", "a": "Cora", "b": "Dena", "length": 3, "color": "blue"},
            {"id": "dena-enna-1", "a": "Dena", "b": "Enna", "length": 2, "color": "gray",
             "group": "dena-enna"},
            {"id": "dena-enna-2", "a": "Dena", "b": "Enna", "length": 2, "color": "gray",
             "group": "dena-enna"},
            {"id": "enna-fara", "a": "Enna", "b": "Fara", "length": 1, "color": "green",
             "tunnel": 5},
            {"id": "fara-gola", "a": "Fara", "b": "Gola", "length": 4, "color": "gray"},
            {"id": "alma-gola", "a": "Alma", "b": "Gola", "length": 1, "color": "gray"},
        ],
        "tickets": [
            {"id": f"T{i:02d}", "a": _CITIES[i % 7], "b": _CITIES[(i + 3) % 7], "points": 5}
            for i in range(30)
        ],
    }
)
ROW = [PURPLE, PURPLE, ORANGE, ORANGE, BLACK]


def C(**kw) -> CardCounts:
    return CardCounts(**kw)


def position(*, face_up=ROW, **kw) -> Game:
    """Every card placed; those not named go to the last seat's hand."""
    return exact_position(BOARD, face_up=face_up, **kw)


def pass_turn(g: Game) -> None:
    """The seat to move draws tickets and keeps them all (no train card moves)."""
    g.apply(act.DrawTickets())
    offer = g.ticket_offer()
    g.apply(act.KeepTickets(offer, share=offer[0]))


def unseen_by_location(g: Game, seat: int) -> CardCounts:
    """The unseen pool counted where the cards are, not by subtraction: the draw pile, the part
    of other hands and other teams' cardholders that is not known, and a card drawn from the deck
    by someone else and not yet placed."""
    out = CardCounts.of(g.draw_pile)
    for other in range(g.players):
        if other != seat:
            out += g.hands[other] - g.known_hand[other]  # ValueError if "known" is not there
    for team in range(g.teams):
        if team != seat // 2:
            out += g.holders[team] - g.known_holder[team]
    if g.phase is Phase.PLACE_CARD and g.to_move != seat and g.events[-1].card is None:
        out += CardCounts.of([g.drawn])
    return out


def check_view(g: Game, seat: int) -> PlayerView:
    v = g.view(seat)
    assert v.hand == g.hands[seat]
    assert v.tickets == tuple(g.tickets[seat])
    assert v.team_cardholder == g.holders[seat // 2]
    assert v.team_tickets == tuple(g.team_tickets[seat // 2])
    assert CardCounts.of(g.draw_pile) <= v.unseen
    assert v.unseen == unseen_by_location(g, seat)
    assert len(v.unseen) >= v.draw_pile_size == len(g.draw_pile)
    return v


# --------------------------------------------------------------------------------------------------
# I1: never the teammate's hand or private tickets
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 6])
def test_I1_view_never_contains_the_teammates_hand_or_private_tickets(players):
    """Two games that differ only in which cards and tickets A2 and B1 hold (same sizes) look
    exactly the same to A1: nothing in A1's view depends on A2's private hand or tickets."""
    hands_x = [C(red=1), C(red=3, blue=1), C(green=4)]
    hands_y = [C(red=1), C(green=4), C(red=3, blue=1)]
    tickets_x = [["T01"], ["T05", "T06"], ["T07", "T08"]] + [[]] * (players - 3)
    tickets_y = [["T01"], ["T07", "T08"], ["T05", "T06"]] + [[]] * (players - 3)
    common = dict(players=players, draw_pile=[WHITE, BLUE, L], discard=C(black=2),
                  cardholders=[C(yellow=1)] + [EMPTY] * (players // 2 - 1),
                  team_tickets=[["T10"]] + [[] for _ in range(players // 2 - 1)])
    x = position(hands=hands_x, tickets=tickets_x, **common)
    y = position(hands=hands_y, tickets=tickets_y, **common)
    assert x.view(0) == y.view(0)
    assert x.view(1) != y.view(1)  # A2 does see their own hand: the test can tell them apart
    v = check_view(x, 0)
    assert v.hand == C(red=1) and v.tickets == ("T01",)
    assert v.hand_sizes[1] == 4 and v.ticket_counts[1] == 2  # only the sizes are public
    assert v.known_in_hands[1] == EMPTY


def _leaves(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(k)
            yield from _leaves(v)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for v in value:
            yield from _leaves(v)
    elif isinstance(value, act.KeepTickets):
        yield from _leaves(value.keep)
        yield value.share
    else:
        yield value


def test_I1_no_field_of_the_view_holds_the_teammates_hand_or_private_tickets():
    """Field by field: no card count equal to A2's hand, no id of A2's private tickets (the board,
    which lists every ticket of the game, aside)."""
    mate_hand = C(red=3, blue=1, locomotive=2)
    g = position(hands=[C(green=2), mate_hand, C(white=1)], cardholders=[C(yellow=1), EMPTY],
                 tickets=[["T01"], ["T05", "T06"], ["T07"], []],
                 team_tickets=[["T10"], ["T11"]], draw_pile=[WHITE, BLUE, L])
    for seat in (0, 2, 3):
        v = g.view(seat)
        for f in dataclasses.fields(PlayerView):
            if f.name == "board":
                continue
            for leaf in _leaves(getattr(v, f.name)):
                assert leaf != mate_hand, f"view({seat}).{f.name} shows A2's hand"
                assert leaf not in ("T05", "T06"), f"view({seat}).{f.name} shows A2's tickets"
                if isinstance(leaf, str):
                    assert "T05" not in leaf and "T06" not in leaf
    assert g.view(1).hand == mate_hand and g.view(1).tickets == ("T05", "T06")


def test_I1_other_teams_cardholder_is_not_visible():
    """Engine policy on I1: a team's train cardholder is seen by its two players only."""
    x = position(hands=[C(red=1), EMPTY, C(blue=2)], cardholders=[EMPTY, C(red=2)],
                 draw_pile=[WHITE])
    y = position(hands=[C(red=1), EMPTY, C(red=2)], cardholders=[EMPTY, C(blue=2)],
                 draw_pile=[WHITE])
    assert x.view(0) == y.view(0)
    assert x.view(0).cardholder_sizes == (0, 2)
    assert x.view(2).team_cardholder == C(red=2) == x.view(3).team_cardholder


def test_I1_team_cardholder_and_team_tickets_are_visible_to_both_teammates():
    g = position(hands=[C(red=1), C(blue=1)], cardholders=[C(green=2, locomotive=1), C(white=1)],
                 tickets=[["T01"], ["T02"], [], []], team_tickets=[["T03", "T04"], ["T05"]],
                 draw_pile=[WHITE])
    for seat in (0, 1):
        v = check_view(g, seat)
        assert v.team_cardholder == C(green=2, locomotive=1)
        assert v.team_tickets == ("T03", "T04")
    assert g.view(0).tickets == ("T01",) and g.view(1).tickets == ("T02",)
    assert g.view(2).team_tickets == ("T05",) and g.view(2).team_cardholder == C(white=1)


def test_I1_a_ticket_offer_is_seen_by_the_chooser_only():
    g = position(draw_pile=[WHITE], ticket_deck=None)
    g.apply(act.DrawTickets())
    offer = tuple(g.ticket_offer())
    assert g.view(0).ticket_offer == offer
    assert all(g.view(s).ticket_offer == () for s in (1, 2, 3))
    g.apply(act.KeepTickets(offer[:2], share=offer[1]))
    assert g.view(0).tickets == (offer[0],)
    assert g.view(1).tickets == () and g.view(1).team_tickets == (offer[1],)
    assert g.view(2).team_tickets == () and g.view(2).ticket_counts == (1, 0, 0, 0)


# --------------------------------------------------------------------------------------------------
# I1: a seat always sees its own tickets; team ticket counts are public
# --------------------------------------------------------------------------------------------------


def view_leaves(v: PlayerView) -> set:
    """Every value in a view except the board (which lists every ticket of the game)."""
    return {leaf for f in dataclasses.fields(PlayerView) if f.name != "board"
            for leaf in _leaves(getattr(v, f.name))}


def setup_game(seed: int = 21, players: int = 4) -> Game:
    return Game.new(players=players, seed=seed, board=BOARD)


@pytest.mark.parametrize("players", [4, 6])
def test_I1_every_seat_sees_its_own_five_dealt_tickets_from_the_deal(players):
    """T1 deals every seat at once, so before anyone has chosen each seat's view holds its own
    five tickets: the very five it is offered when its setup turn comes."""
    g = setup_game(players=players)
    dealt = [g.view(s).dealt_tickets for s in range(players)]
    assert all(len(d) == 5 for d in dealt)
    assert len({t for d in dealt for t in d}) == 5 * players  # nobody holds another's tickets
    for seat in range(players):
        assert g.to_move == seat
        assert g.view(seat).ticket_offer == dealt[seat]
        for other in range(players):
            if other != seat:
                assert not set(dealt[seat]) & view_leaves(g.view(other))
        offer = dealt[seat]
        g.apply(act.KeepTickets(offer[:3], share=offer[0]))
    assert g.phase is Phase.TURN and all(g.view(s).dealt_tickets == () for s in range(players))


def test_I1_a_seat_sees_its_own_choice_the_teammate_only_after_choosing_too():
    """A1 chooses first: A1's view holds A1's five and its choice; A2 and the others see nothing
    of it (two different choices give them the same view) until A2 has chosen as well."""
    g = setup_game()
    o0 = g.view(0).dealt_tickets
    a, b = g.copy(), g.copy()
    a.apply(act.KeepTickets(o0[:3], share=o0[0]))
    b.apply(act.KeepTickets(o0, share=o0[4]))
    va = a.view(0)
    assert va.dealt_tickets == o0
    assert va.setup_choice == act.KeepTickets(o0[:3], share=o0[0])
    assert b.view(0).setup_choice == act.KeepTickets(o0, share=o0[4])
    for seat in (1, 2, 3):
        assert a.view(seat) == b.view(seat)
        assert a.view(seat).setup_choice is None
        assert not set(o0) & view_leaves(a.view(seat))
    o1 = a.view(1).dealt_tickets
    a.apply(act.KeepTickets(o1[1:4], share=o1[3]))  # both chose: revealed together (T1)
    v0, v1 = a.view(0), a.view(1)
    assert v0.setup_choice is None and v0.dealt_tickets == ()
    assert v0.tickets == (o0[1], o0[2]) and v1.tickets == (o1[1], o1[2])
    assert sorted(v0.team_tickets) == sorted(v1.team_tickets) == sorted([o0[0], o1[3]])


def test_I1_team_ticket_counts_are_public_in_every_view():
    g = position(tickets=[["T01", "T02"], [], ["T03"], []],
                 team_tickets=[["T10", "T11", "T12"], ["T13"]], draw_pile=[WHITE])
    for seat in range(4):
        assert g.view(seat).team_ticket_counts == (3, 1)
    assert g.view(2).team_tickets == ("T13",)  # the ids stay with the team
    g.apply(act.ShareTickets(["T01", "T02"]))  # T4: A1 places two tickets
    assert all(g.view(seat).team_ticket_counts == (5, 1) for seat in range(4))


def test_I1_team_ticket_counts_during_setup_count_only_revealed_tickets():
    g = setup_game(players=6)
    assert all(g.view(s).team_ticket_counts == (0, 0, 0) for s in range(6))
    o0 = g.view(0).dealt_tickets
    g.apply(act.KeepTickets(o0[:3], share=o0[0]))
    assert all(g.view(s).team_ticket_counts == (0, 0, 0) for s in range(6))  # still hidden
    o1 = g.view(1).dealt_tickets
    g.apply(act.KeepTickets(o1[:3], share=o1[0]))
    assert all(g.view(s).team_ticket_counts == (2, 0, 0) for s in range(6))


# --------------------------------------------------------------------------------------------------
# I1: known cards
# --------------------------------------------------------------------------------------------------


def test_I1_a_face_up_card_taken_into_the_hand_is_known_until_visibly_played():
    g = position(hands=[C(red=1, blue=3)], face_up=[RED] + ROW[1:], draw_pile=[BLACK, WHITE, L])
    g.apply(act.DrawCard(0))  # the face-up red ...
    g.apply(act.PlaceCard("hand"))  # ... into A1's hand: everyone saw it
    g.apply(act.DrawCard("deck"))  # white, from the deck, to the cardholder: seen by team A only
    for seat in (1, 2, 3):
        v = check_view(g, seat)
        assert v.known_in_hands[0] == C(red=1)
    assert g.view(2).known_in_cardholders[0] == EMPTY
    assert g.view(2).unseen[WHITE] == g.view(0).unseen[WHITE] + 1
    for _ in range(3):
        pass_turn(g)
    g.apply(act.Claim("cora-dena", hand=C(blue=3)))  # blue played: the red is still known
    assert g.view(2).known_in_hands[0] == C(red=1)
    for _ in range(3):
        pass_turn(g)
    g.apply(act.Claim("bata-cora", hand=C(red=2)))  # now it is played
    for seat in (1, 2, 3):
        assert check_view(g, seat).known_in_hands[0] == EMPTY


def test_I1_a_face_up_card_put_in_the_cardholder_is_known_to_the_other_teams():
    g = position(face_up=[GREEN, L] + ROW[2:], draw_pile=[BLACK, WHITE, WHITE])
    g.apply(act.DrawCard(0))
    g.apply(act.PlaceCard("cardholder"))
    g.apply(act.DrawCard("deck"))
    assert g.view(2).known_in_cardholders[0] == C(green=1)
    assert 0 not in g.view(0).known_in_cardholders  # team A sees its cardholder in full
    g.apply(act.DrawCard(1))  # A2 takes the face-up locomotive: D2, to A's cardholder
    assert g.view(2).known_in_cardholders[0] == C(green=1, locomotive=1)
    assert g.view(3).known_in_cardholders[0] == C(green=1, locomotive=1)
    for seat in range(4):
        check_view(g, seat)


def test_I1_a_card_drawn_from_the_deck_is_seen_by_the_drawer_only():
    g = position(draw_pile=[RED, BLUE])
    g.apply(act.DrawCard("deck"))
    assert g.view(0).drawn_card is RED
    for seat in (1, 2, 3):
        v = check_view(g, seat)
        assert v.drawn_card is None
        assert all(e.card is None for e in v.events if e.kind == "draw")
    assert check_view(g, 0).unseen[RED] == g.view(1).unseen[RED] - 1
    g.apply(act.PlaceCard("hand"))
    g.apply(act.DrawCard("deck"))
    assert g.view(2).known_in_hands[0] == EMPTY and g.view(2).known_in_cardholders[0] == EMPTY
    assert g.view(1).team_cardholder == C(blue=1)  # the teammate sees the cardholder
    assert g.view(1).hand_sizes[0] == 1


# --------------------------------------------------------------------------------------------------
# I1: the unseen pool
# --------------------------------------------------------------------------------------------------


def test_I1_unseen_pool_is_110_minus_everything_the_seat_can_see():
    g = position(hands=[C(red=2, blue=1), C(yellow=4), C(green=3)], cardholders=[C(green=1),
                 C(white=2)], discard=C(white=3, locomotive=1), draw_pile=[BLACK, RED, L])
    seen_by_a1 = C(red=2, blue=1) + C(green=1) + CardCounts.of(ROW) + C(white=3, locomotive=1)
    assert g.view(0).unseen == standard_deck() - seen_by_a1
    assert len(g.view(0).unseen) == 110 - 3 - 1 - 5 - 4
    # the same cards, counted where they are: the pile, A2's, B1's and B2's hands, B's cardholder
    assert g.view(0).unseen == C(black=1, red=1, locomotive=1) + sum(g.hands[1:], EMPTY) + C(white=2)
    seen_by_b1 = C(green=3) + C(white=2) + CardCounts.of(ROW) + C(white=3, locomotive=1)
    assert g.view(2).unseen == standard_deck() - seen_by_b1
    for seat in range(4):
        check_view(g, seat)


def test_I1_unseen_pool_during_a_tunnel_counts_a_known_laid_card_once():
    """A1 takes a face-up red (known to all), then lays it with another red on a tunnel: the
    laid reds are seen once, not also as "known in A1's hand"."""
    g = position(hands=[C(red=1)], face_up=[RED] + ROW[1:],
                 draw_pile=[BLACK, WHITE, GREEN, GREEN, L, GREEN, WHITE])
    g.apply(act.DrawCard(0))
    g.apply(act.PlaceCard("hand"))
    g.apply(act.DrawCard("deck"))
    for _ in range(3):
        pass_turn(g)
    g.apply(act.Claim("tun4", hand=C(red=2)))
    assert g.phase is Phase.TUNNEL and g.tunnel.extra == 1
    # 12 reds: 2 laid on the table, the other 10 in B2's hand (seat 3)
    assert g.view(2).unseen[RED] == 10
    assert g.view(3).unseen[RED] == 0
    assert g.view(1).unseen[RED] == 10
    for seat in range(4):
        check_view(g, seat)
    g.apply(act.Withdraw())
    # the two reds went back to A1's hand in view of everyone: both are known now
    assert g.hands[0] == C(red=2)
    assert g.view(2).known_in_hands[0] == C(red=2)
    for seat in range(4):
        check_view(g, seat)


@pytest.mark.parametrize("players,seed", [(4, 1), (4, 2), (6, 3)])
def test_I1_draw_pile_is_always_part_of_every_seats_unseen_pool(players, seed):
    """Random legal play: after every action, for every seat, the unseen pool equals the cards
    counted where they are and holds the draw pile; the teammate's hand is never in the view."""
    rng = random.Random(seed)
    g = Game.new(players=players, seed=seed, board=BOARD)
    for _ in range(150):
        if g.is_over:
            break
        actions = g.legal_actions()
        claims = [a for a in actions if isinstance(a, (act.Claim, act.PayTunnel))]
        g.apply(rng.choice(claims if claims and rng.random() < 0.5 else actions))
        for seat in range(players):
            v = check_view(g, seat)
            assert g.known_hand[seat] <= g.hands[seat]
            mate = seat ^ 1
            assert v.hand_sizes[mate] == len(g.hands[mate])
            assert v.known_in_hands[mate] <= g.hands[mate]


def _played(seed: int, players: int, actions: int) -> Game:
    return play_bot_game(players, seed, actions)


@pytest.mark.parametrize("players,actions", [(4, 2), (4, 60), (6, 3), (6, 90)])
def test_I1_resample_hidden_deals_the_hidden_tickets_anew_and_keeps_the_view(players, actions):
    g = _played(5, players, actions)
    seat = 0
    changed = set()
    for k in range(12):
        r = g.resample_hidden(seat, np.random.default_rng(k))
        assert r.view(seat) == g.view(seat)  # I1: nothing the seat can see moved
        r._check_invariants()  # every ticket in exactly one place, every card too
        assert [len(t) for t in r.tickets] == [len(t) for t in g.tickets]
        assert [len(t) for t in r.offers] == [len(t) for t in g.offers]
        assert len(r.ticket_deck) == len(g.ticket_deck)
        for s in range(1, players):  # the teammate's private tickets are hidden too (I1)
            if sorted(r.tickets[s] + r.offers[s]) != sorted(g.tickets[s] + g.offers[s]):
                changed.add(s)
        for s, choice in r.setup_choices.items():  # T1: a pending choice is over the new offer
            assert choice.keep <= set(r.offers[s]) and choice.share in choice.keep
            assert len(choice.keep) == len(g.setup_choices[s].keep)
    assert changed == set(range(1, players))
    assert g.view(seat) == _played(5, players, actions).view(seat)  # the original is untouched
