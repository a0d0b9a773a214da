"""Drawing train cards (D1-D4) from the deck or the face-up row (C5, C6).

Each action has a check, which may raise ``IllegalDraw`` and changes nothing, an effect,
which never raises, and the list of the actions the check accepts (``legal_*``). The policies
where the rulebook is silent are listed in ``ttrlib.rules``.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from .. import actions as act
from ..cards import Color, Place
from ..errors import IllegalDraw, shown
from ..events import Draw, DrawStep, Placed
from ..seats import team_of
from ..state import FACE_UP, GameState, Phase
from . import check_mode, deck
from .ending import end_turn


def _check_source(state: GameState, source: object, *, second: bool) -> None:
    """D1, D3, C6: a card can be taken from ``source`` now."""
    if isinstance(source, str) and source == "deck":
        if not state.can_draw_from_deck():
            raise IllegalDraw("C6", "the draw pile and the discard pile are both empty")
        return
    if isinstance(source, bool) or not isinstance(source, int) or not 0 <= source < FACE_UP:
        raise IllegalDraw("D1", "DrawCard.source: draw from 'deck' or a face-up slot "
                          f"0-{FACE_UP - 1}, not {shown(source)}")
    card = state.face_up[source]
    if card is None:
        raise IllegalDraw("D1", f"face-up slot {source} is empty")
    if second and card is Color.LOCOMOTIVE:
        raise IllegalDraw("D3", "a face-up locomotive may not be taken as the second card")


def _take(state: GameState, source: act.DrawSource) -> tuple[Color, int | None]:
    """Take the checked card; a face-up slot is left empty (the caller replaces it, D3)."""
    if isinstance(source, str):  # "deck": the check let no other string through
        return deck.pop_deck(state), None
    card = state.face_up[source]
    assert card is not None  # the check refused an empty slot (D1)
    state.face_up[source] = None
    return card, source


def second_sources(state: GameState) -> list[act.DrawSource]:
    """D3, C6: where the second card may come from."""
    sources: list[act.DrawSource] = ["deck"] if state.can_draw_from_deck() else []
    sources += [i for i, c in enumerate(state.face_up)
                if c is not None and c is not Color.LOCOMOTIVE]
    return sources


# Actions are immutable, so the same objects serve every position that offers them.
_DRAW = {source: act.DrawCard(source) for source in ("deck", *range(FACE_UP))}
_PLACE = tuple(act.PlaceCard(place) for place in Place)


def rebuilt_first(state: GameState) -> tuple[act.DrawCard, ...]:
    """The first draws from scratch (D1, C6): the check mode's reference."""
    first = tuple(_DRAW[i] for i, c in enumerate(state.face_up) if c is not None)
    return (_DRAW["deck"], *first) if state.can_draw_from_deck() else first


def rebuilt_second(state: GameState) -> tuple[act.DrawCard, ...]:
    """The second draws from scratch (D3, C6): the check mode's reference."""
    return tuple(_DRAW[source] for source in second_sources(state))


# The family's own cache, per state (a copy starts afresh): the face-up row and whether a card
# can be drawn from the deck, which is all the two draw lists read, and each list once made
# from them: [row, deck flag, first draws or None, second draws or None]. The row changes in
# several places (a draw, a refill, a C5 reset, a position), so the entry is not updated there
# but compared with the row at each call (5 slots and one flag), and emptied when it differs.
_KEPT: WeakKeyDictionary[GameState, list[Any]] = WeakKeyDictionary()
_FIRST, _SECOND = 2, 3
_REBUILD = {_FIRST: rebuilt_first, _SECOND: rebuilt_second}


def unchanged(entry: list[Any], state: GameState) -> bool:
    """Does ``entry`` still describe ``state``'s row and deck (what the draw lists read)?"""
    return entry[1] is state.can_draw_from_deck() and entry[0] == state.face_up


def _kept(state: GameState, which: int) -> tuple[act.DrawCard, ...]:
    entry = _KEPT.get(state)
    if entry is None:
        entry = _KEPT[state] = [None, None, None, None]
    if not unchanged(entry, state):
        entry[:] = list(state.face_up), state.can_draw_from_deck(), None, None
    out: tuple[act.DrawCard, ...] | None = entry[which]
    if out is None:
        out = entry[which] = _REBUILD[which](state)
    elif check_mode.CHECK:
        check_mode.compare("draw lists", out, _REBUILD[which](state))
    return out


def legal_draw_first(state: GameState) -> tuple[act.DrawCard, ...]:
    """D1, C6: the deck (while it or the discard holds a card) and every face-up card."""
    return _kept(state, _FIRST)


def legal_place(state: GameState) -> tuple[act.PlaceCard, ...]:
    """D1: the drawn card goes to the hand or to the team cardholder."""
    return _PLACE


def legal_draw_second(state: GameState) -> tuple[act.DrawCard, ...]:
    """D3, C6: the second card (``second_sources``)."""
    return _kept(state, _SECOND)


# --- D1, D2: the first card --------------------------------------------------------------------
def check_draw_first(state: GameState, a: act.DrawCard) -> None:
    _check_source(state, a.source, second=False)


def do_draw_first(state: GameState, a: act.DrawCard) -> None:
    seat = state.to_move
    card, slot = _take(state, a.source)
    if slot is not None and card is Color.LOCOMOTIVE:
        # D2: a face-up locomotive as first card is the whole draw, and goes to the cardholder.
        state.cardholders[team_of(seat)] += deck.ONE[card]
        state.known_in_cardholders[team_of(seat)] += deck.ONE[card]
        deck.log(state, Draw(seat=seat, step=DrawStep.LOCOMOTIVE, slot=slot, card=card))
        deck.replace(state, slot)
        end_turn(state)
        return
    state.drawn = card
    state.taken_slot = slot  # D3 policy: the slot stays empty until the card is placed
    state.phase = Phase.PLACE_CARD
    deck.log(state, Draw(seat=seat, step=DrawStep.FIRST, slot=slot,
                         card=card if slot is not None else None))


# --- D1, D4: placing the first card ------------------------------------------------------------
def check_place(state: GameState, a: act.PlaceCard) -> None:
    if not isinstance(a.to, Place):
        raise IllegalDraw("D1", "PlaceCard.to: the card goes to 'hand' or 'cardholder', not "
                          f"{shown(a.to)}")


def do_place(state: GameState, a: act.PlaceCard) -> None:
    seat = state.to_move
    slot, card = state.taken_slot, state.drawn
    assert card is not None  # PLACE_CARD waits with the drawn card (D1)
    deck.put(state, seat, card, a.to, known=slot is not None)
    state.first_to = a.to
    state.drawn = None
    state.taken_slot = None
    deck.log(state, Placed(seat=seat, to=a.to))
    if slot is not None:
        # D3 policy: only now, with the first card placed, is the replacement turned up and
        # C5 checked; the second pick (and D4) sees the new row.
        deck.replace(state, slot)
    if legal_draw_second(state):  # kept: the next legal list reads the same entry
        state.phase = Phase.SECOND_CARD
    else:
        deck.log(state, Draw(seat=seat, step=DrawStep.NONE))  # D4
        end_turn(state)


# --- D1, D3: the second card -------------------------------------------------------------------
def check_draw_second(state: GameState, a: act.DrawCard) -> None:
    _check_source(state, a.source, second=True)


def do_draw_second(state: GameState, a: act.DrawCard) -> None:
    seat = state.to_move
    card, slot = _take(state, a.source)
    assert state.first_to is not None  # SECOND_CARD follows a placed first card (D1)
    to = state.first_to.other
    deck.put(state, seat, card, to, known=slot is not None)
    deck.log(state, Draw(seat=seat, step=DrawStep.SECOND, slot=slot,
                         card=card if slot is not None else None, to=to))
    if slot is not None:
        deck.replace(state, slot)  # D3, C5
    end_turn(state)
