"""Scenario tests for the train-card rules: setup (C4), the face-up row (C5), reshuffles (C6) and
the Team Asia card split (D1-D4).

Every position is built with ``Game.from_position`` on a small board of the test's own, with
every one of the 110 cards placed explicitly (cards not named go to seat B2's hand), so the top of
the draw pile and the content of the discard pile are known exactly.
"""

from __future__ import annotations

from collections import Counter

import pytest
from rules_helpers import exact_position, rejected

from ttrlib import actions as act
from ttrlib.board import board_from_dict
from ttrlib.cards import EMPTY, CardCounts, Color, standard_deck
from ttrlib.errors import IllegalDraw, IllegalMove, WrongPhase
from ttrlib.game import MAX_FACE_UP_RESETS, Game, Phase
from ttrlib.narration import text

L = Color.LOCOMOTIVE
RED, BLUE, GREEN, WHITE = Color.RED, Color.BLUE, Color.GREEN, Color.WHITE
YELLOW, PURPLE, ORANGE, BLACK = Color.YELLOW, Color.PURPLE, Color.ORANGE, Color.BLACK

_CITIES = ["Alma", "Bata", "Cora", "Dena", "Enna", "Fara"]
BOARD = board_from_dict(
    {
        "name": "draws test board",
        "cities": _CITIES,
        "routes": [
            {"id": "alma-bata", "a": "Alma", "b": "Bata", "length": 2, "color": "red"},
            {"id": "bata-cora", "a": "Bata", "b": "Cora", "length": 3, "color": "gray"},
            {"id": "cora-dena", "a": "Cora", "b": "Dena", "length": 1, "color": "blue"},
            # every ticket's cities joined by some chain of routes (the loader refuses others)
            {"id": "dena-enna", "a": "Dena", "b": "Enna", "length": 8, "color": "gray"},
            {"id": "enna-fara", "a": "Enna", "b": "Fara", "length": 8, "color": "gray"},
        ],
        "tickets": [
            {"id": f"T{i:02d}", "a": _CITIES[i % 6], "b": _CITIES[(i + 1 + i // 6) % 6], "points": 5}
            for i in range(30)
        ],
    }
)


def position(*, dump=3, **kw) -> Game:
    """An exact position where every card is placed: the cards not named go to seat ``dump``."""
    return exact_position(BOARD, dump=dump, **kw)


def kinds(g: Game) -> Counter:
    return Counter(e.kind for e in g.events)


def draw_sources(g: Game) -> set:
    return {a.source for a in g.legal_actions() if isinstance(a, act.DrawCard)}


ROW = [PURPLE, PURPLE, ORANGE, ORANGE, BLACK]  # a plain row without locomotives


# --------------------------------------------------------------------------------------------------
# C4: starting hands
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 6])
@pytest.mark.parametrize("seed", range(4))
def test_C4_each_player_starts_with_4_cards_and_the_cardholders_empty(players, seed):
    g = Game.new(players=players, seed=seed, board=BOARD)
    assert len(g.hands) == players
    assert [len(h) for h in g.hands] == [4] * players
    assert g.holders == [EMPTY] * (players // 2)
    # C5: five face up; the rest of the 110 is in the draw pile (or the discard after a C5 reset)
    assert all(c is not None for c in g.face_up)
    assert len(g.draw_pile) + len(g.discard) == 110 - 4 * players - 5
    assert g.total_cards() == standard_deck()


def test_C4_starting_hands_are_private():
    """C4 + I1: the 4 starting cards are private; others see only the hand size."""
    g = Game.new(players=4, seed=3, board=BOARD)
    for seat in range(4):
        for other in range(4):
            v = g.view(other)
            assert v.hand_sizes[seat] == 4
            if other != seat:
                assert v.known_in_hands[seat] == EMPTY
        assert g.view(seat).hand == g.hands[seat]


# --------------------------------------------------------------------------------------------------
# C5: three face-up locomotives
# --------------------------------------------------------------------------------------------------


def test_C5_three_face_up_locomotives_discard_the_row_and_turn_five_new():
    g = position(face_up=[L, L, RED, BLUE, GREEN], draw_pile=[L, WHITE, WHITE, WHITE, WHITE, WHITE,
                 YELLOW], discard=CardCounts(orange=2))
    g.apply(act.DrawCard(2))  # red; the slot stays empty until red is placed (D3 policy)
    assert g.face_up == [L, L, None, BLUE, GREEN] and kinds(g)["reset"] == 0
    g.apply(act.PlaceCard("hand"))  # now the replacement is a locomotive: three in the row
    # all five (the 3 locomotives, blue, green) are discarded and 5 new cards turned up
    assert g.face_up == [WHITE] * 5
    assert CardCounts.of(g.discard) == CardCounts(orange=2, locomotive=3, blue=1, green=1)
    assert g.draw_pile == [YELLOW]
    assert kinds(g)["reset"] == 1
    assert g.phase is Phase.SECOND_CARD and g.hands[0] == CardCounts(red=1)
    assert g.total_cards() == standard_deck()


def test_C5_reset_repeats_while_the_new_row_again_holds_three_locomotives():
    pile = [L, L, L, L, WHITE, WHITE] + [PURPLE] * 5 + [YELLOW]
    g = position(face_up=[L, L, RED, BLUE, GREEN], draw_pile=pile, discard=CardCounts(orange=1))
    g.apply(act.DrawCard(2))
    g.apply(act.PlaceCard("cardholder"))
    # 1st row after reset: L L L white white -> three locomotives again -> 2nd reset
    assert g.face_up == [PURPLE] * 5
    assert kinds(g)["reset"] == 2
    assert CardCounts.of(g.discard) == CardCounts(orange=1, locomotive=6, blue=1, green=1, white=2)
    assert g.draw_pile == [YELLOW]


def test_C5_checked_after_the_second_pick_too():
    g = position(face_up=[L, L, RED, BLUE, GREEN], draw_pile=[WHITE, L] + [YELLOW] * 6)
    g.apply(act.DrawCard("deck"))  # white, from the deck
    g.apply(act.PlaceCard("hand"))
    g.apply(act.DrawCard(2))  # red; replaced by a locomotive: three -> reset
    assert g.face_up == [YELLOW] * 5
    assert g.holders[0] == CardCounts(red=1) and g.hands[0] == CardCounts(white=1)
    assert g.to_move == 1


def test_C5_new_game_rows_never_start_with_three_locomotives():
    for seed in range(60):
        g = Game.new(players=4, seed=seed, board=BOARD)
        assert sum(c is L for c in g.face_up) < 3, seed


def test_C5_policy_loop_stops_when_the_cards_left_cannot_break_it():
    """C5 policy: every locomotive left is in the draw pile and no other card is left to draw, so
    a reset could only turn up locomotives again: the draw ends at once and the row stays as it
    is, three locomotives included."""
    # 2 locomotives face up + the other 12 as the whole draw pile; the discard is empty.
    g = position(face_up=[L, L, RED, BLUE, GREEN], draw_pile=[L] * 12)
    g.apply(act.DrawCard(2))  # red
    assert g.phase is Phase.PLACE_CARD and g.drawn_card is RED
    g.apply(act.PlaceCard("hand"))  # the replacement is a locomotive: three in the row
    assert g.face_up == [L, L, L, BLUE, GREEN]
    assert g.draw_pile == [L] * 11
    assert g.discard == []
    assert kinds(g)["reset"] == 0
    # D3: the locomotives are not a second card; the deck and blue/green are
    assert draw_sources(g) == {"deck", 3, 4}
    g.apply(act.DrawCard(3))
    assert g.face_up == [L, L, L, L, GREEN]
    assert g.holders[0] == CardCounts(blue=1)
    assert g.to_move == 1 and g.phase is Phase.TURN
    assert g.total_cards() == standard_deck()


@pytest.mark.parametrize("seed", range(12))
def test_C5_policy_a_hopeless_loop_is_bounded(seed):
    """C5 policy: the draw pile is 12 locomotives over 1 white and the discard is empty. With the
    blue and green of the row there are 3 non-locomotives, so a reset could still help and one is
    tried (C5); but resets are bounded, and the draw always ends with every card accounted for."""
    g = position(face_up=[L, L, RED, BLUE, GREEN], draw_pile=[L] * 12 + [WHITE], seed=seed)
    g.apply(act.DrawCard(2))
    g.apply(act.PlaceCard("hand"))
    resets = kinds(g)["reset"]
    assert 1 <= resets <= MAX_FACE_UP_RESETS  # blue, green and white make 3: one reset is tried
    locos_up = sum(c is L for c in g.face_up)
    left = [c for c in g.draw_pile + g.discard + g.face_up if c is not None]
    hopeless = sum(c is not L for c in left) < 3
    assert locos_up < 3 or resets == MAX_FACE_UP_RESETS or hopeless
    assert g.phase in (Phase.SECOND_CARD, Phase.TURN)
    assert g.total_cards() == standard_deck()


# --------------------------------------------------------------------------------------------------
# C6: reshuffles
# --------------------------------------------------------------------------------------------------


def test_C6_reshuffle_in_the_middle_of_a_draw():
    g = position(face_up=ROW, draw_pile=[RED], discard=CardCounts(white=5))
    g.apply(act.DrawCard("deck"))  # the last card of the pile
    assert g.draw_pile == [] and g.drawn_card is RED
    g.apply(act.PlaceCard("hand"))
    assert act.DrawCard("deck") in g.legal_actions()  # the discard can become the pile
    g.apply(act.DrawCard("deck"))
    # the 5 discarded whites became the draw pile; one of them is the second card
    assert g.holders[0] == CardCounts(white=1)
    assert g.hands[0] == CardCounts(red=1)
    assert g.draw_pile == [WHITE] * 4
    assert g.discard == []
    assert kinds(g)["reshuffle"] == 1
    assert g.to_move == 1


def test_C6_reshuffle_to_replace_a_face_up_card():
    g = position(face_up=[RED] + ROW[1:], draw_pile=[], discard=CardCounts(blue=3))
    g.apply(act.DrawCard(0))
    assert g.face_up[0] is None and g.discard == [BLUE] * 3  # D3 policy: not yet replaced
    g.apply(act.PlaceCard("hand"))
    assert g.face_up[0] is BLUE
    assert g.discard == [] and g.draw_pile == [BLUE, BLUE]


def test_C6_no_draw_pile_and_no_discard_no_deck_draw():
    g = position(face_up=[RED, BLUE, None, None, None], draw_pile=[], discard=EMPTY)
    assert not g.can_draw_from_deck()
    rejected(g, act.DrawCard("deck"), "C6", IllegalDraw)
    assert draw_sources(g) == {0, 1}
    g.apply(act.DrawCard(1))
    assert g.face_up == [RED, None, None, None, None]  # nothing to replace it with
    g.apply(act.PlaceCard("hand"))
    rejected(g, act.DrawCard("deck"), "C6", IllegalDraw)
    g.apply(act.DrawCard(0))
    assert g.hands[0] == CardCounts(blue=1) and g.holders[0] == CardCounts(red=1)


# --------------------------------------------------------------------------------------------------
# D1: two cards, one at a time; the first goes where the player says, the second to the other place
# --------------------------------------------------------------------------------------------------


def test_D1_first_card_to_hand_second_to_cardholder():
    g = position(face_up=ROW, draw_pile=[RED, BLUE, GREEN])
    g.apply(act.DrawCard("deck"))
    assert g.phase is Phase.PLACE_CARD
    assert g.view(0).drawn_card is RED  # seen before the choice
    assert g.view(1).drawn_card is None and g.view(2).drawn_card is None  # a deck card is private
    assert set(g.legal_actions()) == {act.PlaceCard("hand"), act.PlaceCard("cardholder")}
    g.apply(act.PlaceCard("hand"))
    assert g.hands[0] == CardCounts(red=1) and g.holders[0] == EMPTY
    assert g.phase is Phase.SECOND_CARD and g.to_move == 0
    g.apply(act.DrawCard("deck"))
    assert g.hands[0] == CardCounts(red=1)
    assert g.holders[0] == CardCounts(blue=1)
    assert g.phase is Phase.TURN and g.to_move == 1
    assert g.draw_pile == [GREEN]


def test_D1_first_card_to_cardholder_second_to_hand():
    g = position(face_up=[RED, BLUE, GREEN, WHITE, YELLOW], draw_pile=[ORANGE, BLACK], to_move=1)
    g.apply(act.DrawCard(1))  # blue, face up
    g.apply(act.PlaceCard("cardholder"))  # now replaced by orange (D3 policy)
    assert g.face_up[1] is ORANGE
    g.apply(act.DrawCard(3))  # white, face up; replaced by black
    assert g.holders[0] == CardCounts(blue=1)
    assert g.hands[1] == CardCounts(white=1)
    assert g.face_up == [RED, ORANGE, GREEN, BLACK, YELLOW]
    assert g.to_move == 2


def test_D1_the_second_card_goes_to_the_other_place_even_from_the_cardholder_side():
    """D1 for team B: seat B2 (3) sends the first card to the B cardholder (index 1)."""
    g = position(face_up=ROW, draw_pile=[RED, BLUE], to_move=3, dump=0)
    g.apply(act.DrawCard("deck"))
    g.apply(act.PlaceCard("cardholder"))
    g.apply(act.DrawCard("deck"))
    assert g.holders == [EMPTY, CardCounts(red=1)]
    assert g.hands[3] == CardCounts(blue=1)
    assert g.to_move == 0


def test_D1_the_first_card_must_be_placed_before_anything_else():
    g = position(face_up=ROW, draw_pile=[RED, BLUE], hands=[CardCounts(red=2), EMPTY, EMPTY, EMPTY])
    g.apply(act.DrawCard("deck"))
    rejected(g, act.DrawCard("deck"), "D1", WrongPhase)
    rejected(g, act.DrawCard(0), "D1", WrongPhase)
    rejected(g, act.Claim("alma-bata", hand=CardCounts(red=2)), "D1", WrongPhase)
    rejected(g, act.DrawTickets(), "D1", WrongPhase)
    rejected(g, act.PlaceCard("pocket"), "D1", IllegalDraw)


def test_D1_the_second_card_is_not_placed_by_choice():
    g = position(face_up=ROW, draw_pile=[RED, BLUE])
    g.apply(act.DrawCard("deck"))
    g.apply(act.PlaceCard("hand"))
    rejected(g, act.PlaceCard("hand"), "D1", WrongPhase)
    rejected(g, act.PlaceCard("cardholder"), "D1", WrongPhase)
    rejected(g, act.DrawTickets(), "D1", WrongPhase)
    rejected(g, act.Pass(), "D1", WrongPhase)
    assert all(isinstance(a, act.DrawCard) for a in g.legal_actions())


def test_D1_no_placing_outside_a_draw_and_bad_sources_rejected():
    g = position(face_up=[RED, None, BLUE, GREEN, WHITE], draw_pile=[RED])
    rejected(g, act.PlaceCard("hand"), "D1", WrongPhase)
    rejected(g, act.DrawCard(5), "D1", IllegalDraw)
    rejected(g, act.DrawCard(-1), "D1", IllegalDraw)
    rejected(g, act.DrawCard("top"), "D1", IllegalDraw)
    rejected(g, act.DrawCard(1), "D1", IllegalDraw)  # an empty slot


# --------------------------------------------------------------------------------------------------
# D2: a face-up locomotive as first card
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_D2_face_up_locomotive_goes_to_the_cardholder_and_ends_the_turn(seat):
    team = seat // 2
    g = position(face_up=[RED, L, BLUE, GREEN, WHITE], draw_pile=[YELLOW, ORANGE], to_move=seat,
                 dump=(seat + 2) % 4)
    hand_before = g.hands[seat]
    g.apply(act.DrawCard(1))
    assert g.holders[team] == CardCounts(locomotive=1)
    assert g.holders[1 - team] == EMPTY
    assert g.hands[seat] == hand_before  # nothing else was taken
    assert g.face_up == [RED, YELLOW, BLUE, GREEN, WHITE]  # replaced at once (D3)
    assert g.phase is Phase.TURN and g.to_move == (seat + 1) % 4
    assert g.drawn is None
    assert g.draw_pile == [ORANGE]


def test_D2_a_locomotive_drawn_from_the_deck_is_a_normal_first_card():
    g = position(face_up=ROW, draw_pile=[L, RED])
    g.apply(act.DrawCard("deck"))
    assert g.phase is Phase.PLACE_CARD and g.drawn_card is L
    g.apply(act.PlaceCard("hand"))
    g.apply(act.DrawCard("deck"))
    assert g.hands[0] == CardCounts(locomotive=1)
    assert g.holders[0] == CardCounts(red=1)


# --------------------------------------------------------------------------------------------------
# D3: no face-up locomotive as second card; replacement and C5 before the second pick
# --------------------------------------------------------------------------------------------------


def test_D3_second_face_up_locomotive_is_rejected():
    g = position(face_up=[RED, L, BLUE, GREEN, WHITE], draw_pile=[YELLOW, ORANGE])
    g.apply(act.DrawCard(0))
    g.apply(act.PlaceCard("hand"))
    err = rejected(g, act.DrawCard(1), "D3", IllegalDraw)
    assert "second card" in err.reason
    assert draw_sources(g) == {"deck", 0, 2, 3, 4}
    g.apply(act.DrawCard(2))
    assert g.hands[0] == CardCounts(red=1) and g.holders[0] == CardCounts(blue=1)


def test_D3_taken_face_up_card_is_replaced_before_the_second_pick():
    g = position(face_up=[RED, BLUE, GREEN, WHITE, PURPLE], draw_pile=[ORANGE, BLACK, YELLOW])
    g.apply(act.DrawCard(0))
    g.apply(act.PlaceCard("cardholder"))
    assert g.face_up[0] is ORANGE  # replaced once placed, before the second pick
    g.apply(act.DrawCard(0))  # the replacement itself may be the second card
    assert g.hands[0] == CardCounts(orange=1) and g.holders[0] == CardCounts(red=1)
    assert g.face_up == [BLACK, BLUE, GREEN, WHITE, PURPLE]
    assert g.draw_pile == [YELLOW]


def test_D3_a_locomotive_turned_up_as_replacement_cannot_be_the_second_card():
    g = position(face_up=[RED, BLUE, GREEN, WHITE, PURPLE], draw_pile=[L, BLACK])
    g.apply(act.DrawCard(0))
    g.apply(act.PlaceCard("hand"))
    assert g.face_up[0] is L
    rejected(g, act.DrawCard(0), "D3", IllegalDraw)
    assert draw_sources(g) == {"deck", 1, 2, 3, 4}


def test_D3_C5_is_checked_before_the_second_pick():
    g = position(face_up=[L, L, RED, BLUE, GREEN], draw_pile=[L] + [WHITE] * 5 + [BLACK])
    g.apply(act.DrawCard(2))
    assert g.phase is Phase.PLACE_CARD
    g.apply(act.PlaceCard("hand"))
    assert g.face_up == [WHITE] * 5  # the reset happened before the second pick
    assert draw_sources(g) == {"deck", 0, 1, 2, 3, 4}
    g.apply(act.DrawCard(4))
    assert g.holders[0] == CardCounts(white=1) and g.face_up[4] is BLACK


def test_D3_policy_the_replacement_is_turned_up_only_after_the_first_card_is_placed():
    """D3 policy (D1 "immediately"): while the first face-up card waits to be placed, its slot is
    empty in every view, nothing has come off the draw pile, and the only legal actions are the
    two placements; once placed, the top of the draw pile fills the slot."""
    g = position(face_up=[RED, BLUE, GREEN, WHITE, PURPLE], draw_pile=[ORANGE, BLACK, YELLOW])
    g.apply(act.DrawCard(1))
    assert g.face_up == [RED, None, GREEN, WHITE, PURPLE]
    for seat in range(4):
        v = g.view(seat)
        assert v.face_up == (RED, None, GREEN, WHITE, PURPLE)
        assert v.draw_pile_size == 3
    assert g.draw_pile == [YELLOW, BLACK, ORANGE]  # top is the end of the list
    assert set(g.legal_actions()) == {act.PlaceCard("hand"), act.PlaceCard("cardholder")}
    g.apply(act.PlaceCard("hand"))
    assert g.face_up == [RED, ORANGE, GREEN, WHITE, PURPLE]
    assert g.view(2).face_up == (RED, ORANGE, GREEN, WHITE, PURPLE)
    # the second pick sees the new row: the replacement itself may be taken
    assert draw_sources(g) == {"deck", 0, 1, 2, 3, 4}
    g.apply(act.DrawCard(1))
    assert g.hands[0] == CardCounts(blue=1) and g.holders[0] == CardCounts(orange=1)
    assert g.face_up == [RED, BLACK, GREEN, WHITE, PURPLE]  # the second card is replaced at once


def test_D3_policy_C5_and_C6_run_after_the_placement_and_are_logged_after_it():
    """The reset (C5) and the reshuffle (C6) that the replacement causes come after ``PlaceCard``
    in the event log, never between the draw and the placement."""
    g = position(face_up=[L, L, RED, BLUE, GREEN], draw_pile=[],
                 discard=CardCounts(locomotive=1) + CardCounts(white=5))
    g.apply(act.DrawCard(2))
    assert g.discard and not g.draw_pile, "nothing reshuffled before the placement"
    assert [e.kind for e in g.events] == ["draw"]
    g.apply(act.PlaceCard("cardholder"))
    after = [e.kind for e in g.events]
    assert after[:2] == ["draw", "place"]
    assert "reshuffle" in after[2:]
    assert g.phase is Phase.SECOND_CARD and g.holders[0] == CardCounts(red=1)
    assert g.total_cards() == standard_deck()


def test_D3_policy_a_face_up_locomotive_as_replacement_is_not_offered_as_second_card():
    """The second pick is offered from the row as it is after the placement."""
    g = position(face_up=[RED, BLUE, GREEN, WHITE, PURPLE], draw_pile=[L])
    g.apply(act.DrawCard(0))
    assert g.legal_actions() == [act.PlaceCard("hand"), act.PlaceCard("cardholder")]
    g.apply(act.PlaceCard("hand"))
    assert g.face_up[0] is L
    assert draw_sources(g) == {1, 2, 3, 4}  # the pile is empty now and slot 0 is a locomotive
    rejected(g, act.DrawCard(0), "D3", IllegalDraw)


# --------------------------------------------------------------------------------------------------
# D4 (policy): only one card can be drawn / none can
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("to", ["hand", "cardholder"])
def test_D4_only_one_face_up_card_left_player_chooses_its_place_and_turn_ends(to):
    g = position(face_up=[None, None, RED, None, None], draw_pile=[], discard=EMPTY)
    assert draw_sources(g) == {2}
    g.apply(act.DrawCard(2))
    assert g.phase is Phase.PLACE_CARD
    g.apply(act.PlaceCard(to))
    mine = g.hands[0] if to == "hand" else g.holders[0]
    other = g.holders[0] if to == "hand" else g.hands[0]
    assert mine == CardCounts(red=1) and other == EMPTY
    assert g.phase is Phase.TURN and g.to_move == 1
    assert g.face_up == [None] * 5


@pytest.mark.parametrize("to", ["hand", "cardholder"])
def test_D4_only_one_deck_card_left(to):
    g = position(face_up=[None] * 5, draw_pile=[BLUE], discard=EMPTY)
    g.apply(act.DrawCard("deck"))
    g.apply(act.PlaceCard(to))
    assert (g.hands[0] if to == "hand" else g.holders[0]) == CardCounts(blue=1)
    assert g.to_move == 1 and g.phase is Phase.TURN


def test_D4_the_only_other_cards_are_face_up_locomotives():
    """D3 forbids a face-up locomotive as second card, so one card is all that can be drawn."""
    g = position(face_up=[L, RED, L, None, None], draw_pile=[], discard=EMPTY)
    g.apply(act.DrawCard(1))
    g.apply(act.PlaceCard("hand"))
    assert g.hands[0] == CardCounts(red=1)
    assert g.to_move == 1 and g.phase is Phase.TURN
    assert g.face_up == [L, None, L, None, None]


def test_D4_only_one_card_left_in_the_discard():
    g = position(face_up=[None] * 5, draw_pile=[], discard=CardCounts(green=1))
    g.apply(act.DrawCard("deck"))  # C6: the discard is shuffled into a 1-card pile
    g.apply(act.PlaceCard("cardholder"))
    assert g.holders[0] == CardCounts(green=1)
    assert g.to_move == 1


def test_D4_no_card_can_be_drawn_drawing_is_not_legal():
    g = position(face_up=[None] * 5, draw_pile=[], discard=EMPTY)
    assert not any(isinstance(a, act.DrawCard) for a in g.legal_actions())
    assert act.DrawTickets() in g.legal_actions()  # the turn can still be used otherwise
    rejected(g, act.DrawCard("deck"), "C6", IllegalDraw)
    for slot in range(5):
        rejected(g, act.DrawCard(slot), kind=IllegalDraw)


def test_D4_pass_only_when_nothing_at_all_is_legal():
    """Nothing to draw, no ticket left, no private ticket, no claim: the only action is Pass."""
    g = position(face_up=[None] * 5, draw_pile=[], discard=EMPTY,
                 ticket_deck=[], team_tickets=[[t.id for t in BOARD.tickets], []])
    assert g.legal_actions() == [act.Pass()]
    g.apply(act.Pass())
    assert g.to_move == 1
    g2 = position(face_up=ROW, draw_pile=[RED])
    rejected(g2, act.Pass(), kind=WrongPhase)


def test_C5_an_emptied_face_up_slot_is_refilled_once_cards_exist():
    """Policy (C5, C6): with no card left, a taken face-up card leaves its slot empty; the slot is
    refilled at the end of the first turn after cards reach the discard pile again."""
    from ttrlib.board import teaching_board

    board = teaching_board()
    route = next(r for r in board.routes if r.color is not None and not r.tunnel and not r.group)
    row = [Color.PURPLE, Color.WHITE, Color.BLUE, Color.YELLOW, Color.GREEN]
    payer = CardCounts({route.color: route.length})
    rest = standard_deck() - CardCounts.of(row) - payer
    g = Game.from_position(hands=[rest, payer, CardCounts(), CardCounts()], face_up=row,
                           draw_pile=[], discard=CardCounts())
    g.apply(act.DrawCard(0))
    g.apply(act.PlaceCard("hand"))
    g.apply(act.DrawCard(1))  # turn over: two slots empty, nothing to refill them with
    assert g.face_up[:2] == [None, None] and g.to_move == 1
    g.apply(act.Claim(route.id, hand=payer))  # K4: the cards reach the discard pile
    assert None not in g.face_up, "the emptied slots are refilled at the end of the turn"
    assert len(g.discard) + len(g.draw_pile) == route.length - 2


def test_T1_ticket_ids_must_be_strings():
    g = Game.new(players=4, seed=0)
    offer = g.ticket_offer()
    before = g.to_json()
    with pytest.raises(IllegalMove) as info:
        g.apply(act.KeepTickets([1, *offer[:2]], share=1))
    assert info.value.rule == "T1" and g.to_json() == before


def test_C6_a_reshuffle_is_logged_after_the_first_draw_that_caused_it():
    g = position(face_up=ROW, draw_pile=[], discard=CardCounts(white=5))
    g.apply(act.DrawCard("deck"))  # the pile is empty: the discard is shuffled in first
    assert [e.kind for e in g.events] == ["draw", "reshuffle"]
    assert text(g.events[-1]) == ("the draw pile is empty: 5 discarded cards shuffled into a "
                                    "new draw pile (C6)")


def test_C6_a_reshuffle_is_logged_after_the_second_draw_that_caused_it():
    g = position(face_up=ROW, draw_pile=[RED], discard=CardCounts(white=1))
    g.apply(act.DrawCard("deck"))
    g.apply(act.PlaceCard("hand"))
    g.apply(act.DrawCard("deck"))
    assert [e.kind for e in g.events] == ["draw", "place", "draw", "reshuffle"]
    assert text(g.events[-1]) == ("the draw pile is empty: 1 discarded card shuffled into a "
                                    "new draw pile (C6)")
