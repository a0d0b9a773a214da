"""The actions a seat can take: small frozen dataclasses passed to ``Game.apply``.

Every pending decision is a phase of the game (see ``ttrlib.state.Phase``); each action below
belongs to one or more phases:

==================  ===================================================  ==========
action              what it does                                          rules
==================  ===================================================  ==========
``KeepTickets``     keep some of the offered tickets and share one        T1, T2, T3
``DrawCard``        take the top deck card or face-up slot 0-4           D1-D4, C5, C6
``PlaceCard``       send the first drawn card to hand or cardholder      D1, D4
``Claim``           lay down cards from hand and team cardholder         K1-K4, U1
``PayTunnel``       pay a tunnel's extra cost                            U2, U5, U7
``Withdraw``        take the laid tunnel cards back, ending the turn     U3
``DrawTickets``     draw 4 destination tickets                           T2
``ShareTickets``    place 1 or 2 private tickets in the team cardholder  T4
``Pass``            only when nothing else is legal (policy)             -
==================  ===================================================  ==========
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Literal, Union, get_args, get_type_hints

from .cards import EMPTY, MOST_CARDS, CardCounts, Place

#: The most cards an action can name (the whole deck, C1: ``cards.MOST_CARDS``) and the most
#: ticket ids (an offer
#: holds 5, T1). An iterable is read up to one item beyond, never to its end: it may be endless.
MOST_IDS = 16


class TooMany:
    """What a field holds when it was given more items than any action names: no check accepts
    it, and a message quotes it in a few words."""

    def __init__(self, most: int, what: str):
        self.text = f"more than {most} {what}"

    def __repr__(self) -> str:
        return self.text


def _first(value: Any, most: int, what: str) -> Any:
    """The items of the iterable ``value``, read up to ``most + 1`` of them (``TooMany`` then)."""
    items = list(islice(iter(value), most + 1))
    return TooMany(most, what) if len(items) > most else items


def _as_cards(value: Any) -> Any:
    """Cards given as ``CardCounts``, a colour -> count table or a list of colours. A value
    that is none of these is kept as given: the rules' check names the field (K1)."""
    if isinstance(value, CardCounts):
        return value
    if value is None:
        return EMPTY
    try:
        if isinstance(value, dict):
            return CardCounts(value)
        if not isinstance(value, (str, bytes)):
            items = _first(value, MOST_CARDS, "cards")
            return items if isinstance(items, TooMany) else CardCounts.of(items)
    except Exception:  # whatever the value does when read, the rules' check names the field
        pass
    return value


def _as_ids(value: Any) -> Any:
    """Ticket ids as a frozenset; one id given alone is that id (``KeepTickets("T04", "T04")``
    keeps T04). A value that is not a collection of ids is kept as given for the check."""
    if isinstance(value, str):
        return frozenset([value])
    try:
        items = _first(value, MOST_IDS, "ticket ids")
        return items if isinstance(items, TooMany) else frozenset(items)
    except Exception:  # not iterable, unhashable items, or worse: the check names the field
        return value


@dataclass(frozen=True)
class KeepTickets:
    """Keep ``keep`` (ticket ids) of the offered tickets; ``share`` (one of them) goes to the
    team's ticket cardholder. Setup (T1): keep at least 3 of 5. Mid-game (T2): keep at least 1."""

    keep: frozenset[str]
    share: str

    def __init__(self, keep: Any, share: str):
        object.__setattr__(self, "keep", _as_ids(keep))
        object.__setattr__(self, "share", share)


#: Where a card is drawn from: the deck or a face-up slot 0-4 (D1).
DrawSource = Union[Literal["deck"], int]


@dataclass(frozen=True)
class DrawCard:
    """Take a train card: ``"deck"`` or a face-up slot ``0``-``4`` (D1-D3)."""

    source: DrawSource


@dataclass(frozen=True)
class PlaceCard:
    """Where the first drawn card goes: ``Place.HAND`` or ``Place.CARDHOLDER`` (or their words
    ``"hand"``, ``"cardholder"``); the second card goes to the other place (D1). Any other
    value is kept as given: the rules' check names the field."""

    to: Place

    def __init__(self, to: Place | str):
        object.__setattr__(self, "to", Place.read(to) or to)


@dataclass(frozen=True)
class Claim:
    """Claim ``route`` (its id) laying down ``hand`` cards from your own hand and ``cardholder``
    cards from the team's train cardholder (K1, K2). A tunnel then reveals cards (U1)."""

    route: str
    hand: CardCounts = field(default=EMPTY)
    cardholder: CardCounts = field(default=EMPTY)
    #: Cards a player tries to take from the teammate's hand: always refused (K1). It exists so
    #: that a lesson can let a learner try, and hear the rule from the engine.
    teammate: CardCounts = field(default=EMPTY)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hand", _as_cards(self.hand))
        object.__setattr__(self, "cardholder", _as_cards(self.cardholder))
        object.__setattr__(self, "teammate", _as_cards(self.teammate))

    @property
    def cards(self) -> CardCounts:
        return self.hand + self.cardholder


@dataclass(frozen=True)
class PayTunnel:
    """Pay the extra cost of a pending tunnel from hand and team cardholder (U2)."""

    hand: CardCounts = field(default=EMPTY)
    cardholder: CardCounts = field(default=EMPTY)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hand", _as_cards(self.hand))
        object.__setattr__(self, "cardholder", _as_cards(self.cardholder))

    @property
    def cards(self) -> CardCounts:
        return self.hand + self.cardholder


@dataclass(frozen=True)
class Withdraw:
    """Decline a tunnel's extra cost: the laid cards go back, the turn ends (U3)."""


@dataclass(frozen=True)
class DrawTickets:
    """Draw 4 destination tickets (fewer if the deck is short) (T2)."""


@dataclass(frozen=True)
class ShareTickets:
    """Spend the turn placing 1 or 2 private tickets in the team's ticket cardholder (T4)."""

    tickets: frozenset[str]

    def __init__(self, tickets: Any):
        object.__setattr__(self, "tickets", _as_ids(tickets))


@dataclass(frozen=True)
class Pass:
    """Policy: a seat with no other legal action passes its turn."""


Action = Union[
    KeepTickets, DrawCard, PlaceCard, Claim, PayTunnel, Withdraw, DrawTickets, ShareTickets, Pass
]

#: Action class -> the names of its fields typed ``CardCounts``, read off the annotations: the
#: plain codec reads those fields as cards and the rules' checks name junk in them (K1).
CARD_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(name for name, kind in get_type_hints(cls).items() if kind is CardCounts)
    for cls in get_args(Action)}
