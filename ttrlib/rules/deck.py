"""The train-card deck and the face-up row (C5, C6), and the log every rule family writes.

Effects only: nothing here raises. The checks that guard them are in the families
(``draws``, ``claims``, ``tunnels``), which call these once their check is complete.
"""

from __future__ import annotations

from ..cards import COLORS, CardCounts, Color, Place, standard_deck
from ..events import Event, NoReset, Reset, Reshuffle
from ..seats import team_of
from ..state import FACE_UP, MAX_FACE_UP_RESETS, STARTING_HAND, GameState

#: one card of each colour, as counts (added to a hand or a cardholder)
ONE = {c: CardCounts._raw(tuple(int(c is d) for d in COLORS)) for c in COLORS}


def log(state: GameState, event: Event) -> None:
    """Log ``event``, then any event its step caused before it (a C6 reshuffle)."""
    state.events.append(event)
    if state.held:  # rare (a C6 reshuffle): no call otherwise
        release(state)


def log_after(state: GameState, event: Event) -> None:
    """Log an event caused by the step being logged next (a C6 reshuffle during a draw)."""
    state.held.append(event)


def release(state: GameState) -> None:
    if state.held:
        state.events += state.held
        state.held.clear()


def pop_deck(state: GameState) -> Color:
    """The top card of the draw pile; C6: the discard pile is shuffled into a new draw pile when
    the pile is empty (lazily: cards discarded meanwhile are shuffled in too). The caller has
    checked that a card exists (``state.can_draw_from_deck()``)."""
    if not state.draw_pile:
        pile = state.discard
        state.discard = []
        state.draw_pile = [pile[i] for i in state.rng.permutation(len(pile)).tolist()]
        log_after(state, Reshuffle(count=len(pile)))
    return state.draw_pile.pop()


def deal_cards(state: GameState) -> None:
    """The deal (C4, C5): the 110 cards shuffled, ``STARTING_HAND`` to each seat, the row turned
    up."""
    cards = standard_deck().elements()
    state.draw_pile = [cards[i] for i in state.rng.permutation(len(cards))]
    for seat in range(state.players):
        state.hands[seat] = CardCounts.of(pop_deck(state) for _ in range(STARTING_HAND))
    refill_face_up(state)


def refill_face_up(state: GameState) -> None:
    """C5/C6 policy: every empty face-up slot is filled while cards exist, then C5 is checked."""
    for i in range(FACE_UP):
        if state.face_up[i] is None and state.can_draw_from_deck():
            state.face_up[i] = pop_deck(state)
    check_three_locomotives(state)


def replace(state: GameState, slot: int) -> None:
    """D3: a taken face-up card is replaced from the deck (C6), then C5 is checked."""
    if state.can_draw_from_deck():
        state.face_up[slot] = pop_deck(state)
    check_three_locomotives(state)


def reset_can_help(state: GameState) -> bool:
    """C5 policy: a reset helps only if the row, the draw pile and the discard together hold at
    least 3 cards that are not locomotives; else the new row could never have fewer than 3."""
    row = [c for c in state.face_up if c is not None]
    return sum(c is not Color.LOCOMOTIVE for c in state.draw_pile + state.discard + row) >= 3


def check_three_locomotives(state: GameState) -> None:
    """C5: three face-up locomotives -> discard all five and turn five new ones (bounded)."""
    for _ in range(MAX_FACE_UP_RESETS):
        if state.face_up.count(Color.LOCOMOTIVE) < 3:
            return
        if not reset_can_help(state):
            log(state, NoReset())
            return
        row = [c for c in state.face_up if c is not None]
        state.discard.extend(row)
        state.face_up = [None] * FACE_UP
        for i in range(FACE_UP):
            if state.can_draw_from_deck():
                state.face_up[i] = pop_deck(state)
        log(state, Reset())


def put(state: GameState, seat: int, card: Color, to: Place, *, known: bool) -> None:
    """A drawn card goes to the seat's hand or its team's cardholder (D1); a face-up card is
    known to all (I1)."""
    one = ONE[card]
    if to is Place.HAND:
        state.hands[seat] += one
        if known:
            state.known_in_hands[seat] += one
    else:
        team = team_of(seat)
        state.cardholders[team] += one
        if known:
            state.known_in_cardholders[team] += one
