"""The observer (rule I1): what one seat may know of a game, and the games it cannot tell apart.

``view(state, seat)`` is the seat's information set as a ``PlayerView``; ``deal_hidden(state,
seat, rng)`` deals everything the seat cannot see anew, so that the state is a random member
of that information set (OpenSpiel calls these an observer and ``resample_from_infostate``).
Both read a ``GameState``; ``Game.view`` and ``Game.resample_hidden`` check the arguments and
keep the game's history.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import actions as act
from .board import Board
from .cards import CardCounts, Color, Place, standard_deck
from .events import Event
from .seats import seat_name, team_of, teammate
from .state import GameState, Phase, TunnelAttempt

_ONE = {c: CardCounts.of([c]) for c in Color}


@dataclass(frozen=True)
class PlayerView:
    """What one seat may know (rule I1). Never holds the teammate's hand or private tickets.

    A seat always sees its own tickets (I1): during setup ``dealt_tickets`` holds the five it was
    dealt (all seats are dealt at once, T1) and ``setup_choice`` its own keep/share choice once
    made, which the others (the teammate too) see only when both teammates have chosen; from then
    on they are in ``tickets`` and ``team_tickets``. ``team_ticket_counts`` (public) is the number
    of tickets in every team's ticket cardholder. While a face-up card drawn first waits to be
    placed, its slot in ``face_up`` is ``None`` (D3 policy).

    ``unseen`` is every card this seat cannot place: the draw pile plus the unknown part of other
    hands and other teams' cardholders. The draw pile (``draw_pile_size`` cards) is a uniformly
    random part of it; this is the pool the tunnel odds work from.
    """

    seat: int
    board: Board
    players: int
    phase: Phase
    to_move: int
    hand: CardCounts
    tickets: tuple[str, ...]
    team_cardholder: CardCounts
    team_tickets: tuple[str, ...]
    face_up: tuple[Color | None, ...]
    discard: CardCounts
    draw_pile_size: int
    ticket_deck_size: int
    claimed: dict[str, int]
    trains: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    ticket_counts: tuple[int, ...]
    team_ticket_counts: tuple[int, ...]  # I1: tickets in each team's ticket cardholder (public)
    cardholder_sizes: tuple[int, ...]
    known_in_hands: dict[int, CardCounts]
    known_in_cardholders: dict[int, CardCounts]
    unseen: CardCounts
    drawn_card: Color | None  # the card this seat must place (PLACE_CARD)
    ticket_offer: tuple[str, ...]  # tickets this seat must choose from
    dealt_tickets: tuple[str, ...]  # T1, I1: this seat's five dealt tickets, during setup
    setup_choice: act.KeepTickets | None  # T1, I1: this seat's own choice, until it is revealed
    tunnel: TunnelAttempt | None
    final_round: bool
    events: tuple[Event, ...]

    @property
    def team(self) -> int:
        return team_of(self.seat)

    @property
    def teammate(self) -> int:
        return teammate(self.seat)

    @property
    def name(self) -> str:
        return seat_name(self.seat)

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat

    def _repr_html_(self) -> str:
        from . import display

        return display.view_html(self)


def ticket_offer(state: GameState, seat: int) -> list[str]:
    """The tickets ``seat`` must choose from now (T1 at setup, T2 after drawing tickets)."""
    if state.phase is Phase.SETUP_TICKETS:
        return list(state.offers[seat]) if seat not in state.setup_choices else []
    if state.phase is Phase.CHOOSE_TICKETS and seat == state.to_move:
        return list(state.offers[seat])
    return []


def view(g: GameState, seat: int) -> PlayerView:
    """The information set of ``seat`` (rule I1): its own hand and tickets (during setup its
    five dealt tickets and its own pending choice), its team's cardholders, and what is public,
    the number of tickets in every team's ticket cardholder included."""
    discard = CardCounts.of(g.discard)
    known_hands, known_holders = _known_in_hands(g, seat), _known_in_cardholders(g, seat)
    fields = {name: build(g, seat) for name, build in _BUILD.items()}
    fields.update(discard=discard, known_in_hands=known_hands, known_in_cardholders=known_holders,
                  unseen=_unseen_of(g, seat, discard, known_hands, known_holders))
    return PlayerView(**fields)


def _known_in_hands(g: GameState, seat: int) -> dict[int, CardCounts]:
    return {s: g.known_in_hands[s] for s in range(g.players) if s != seat}


def _known_in_cardholders(g: GameState, seat: int) -> dict[int, CardCounts]:
    team = team_of(seat)
    return {t: g.known_in_cardholders[t] for t in range(g.teams) if t != team}


def _unseen_of(g: GameState, seat: int, discard: CardCounts, known_hands: dict[int, CardCounts],
               known_holders: dict[int, CardCounts]) -> CardCounts:
    """Every card ``seat`` cannot place: the deck less what it sees (I1)."""
    face_up = CardCounts.of(c for c in g.face_up if c is not None)
    seen = [g.hands[seat], g.cardholders[team_of(seat)], face_up, discard, *known_hands.values(),
            *known_holders.values()]
    if g.tunnel is not None:
        seen += [g.tunnel.laid, CardCounts.of(g.tunnel.revealed)]
    if g.drawn is not None and (g.to_move == seat or g.taken_slot is not None):
        seen.append(_ONE[g.drawn])
    # one sum over all the parts (a view is built for every bot decision)
    return standard_deck() - CardCounts._raw(tuple(map(sum, zip(*(c.as_tuple() for c in seen)))))


# field -> how it is built from the state, for the seat: one statement for ``view`` and
# ``LightView`` (``view`` builds the four that share work itself, after these)
_BUILD: dict[str, Callable[[GameState, int], Any]] = {
    "seat": lambda g, seat: seat,
    "board": lambda g, seat: g.board,
    "players": lambda g, seat: g.players,
    "phase": lambda g, seat: g.phase,
    "to_move": lambda g, seat: g.to_move,
    "hand": lambda g, seat: g.hands[seat],
    "tickets": lambda g, seat: tuple(g.tickets[seat]),
    "team_cardholder": lambda g, seat: g.cardholders[team_of(seat)],
    "team_tickets": lambda g, seat: tuple(g.team_tickets[team_of(seat)]),
    "face_up": lambda g, seat: tuple(g.face_up),
    "draw_pile_size": lambda g, seat: len(g.draw_pile),
    "ticket_deck_size": lambda g, seat: len(g.ticket_deck),
    "claimed": lambda g, seat: dict(g.claimed),
    "trains": lambda g, seat: tuple(g.trains),
    "hand_sizes": lambda g, seat: tuple(len(h) for h in g.hands),
    "ticket_counts": lambda g, seat: tuple(len(t) for t in g.tickets),
    "team_ticket_counts": lambda g, seat: tuple(len(t) for t in g.team_tickets),
    "cardholder_sizes": lambda g, seat: tuple(len(h) for h in g.cardholders),
    "drawn_card": lambda g, seat: g.drawn if g.drawn is not None and g.to_move == seat else None,
    "ticket_offer": lambda g, seat: tuple(ticket_offer(g, seat)) if g.to_move == seat else (),
    "dealt_tickets": lambda g, seat: (tuple(g.offers[seat]) if g.phase is Phase.SETUP_TICKETS
                                      else ()),
    "setup_choice": lambda g, seat: g.setup_choices.get(seat),
    "tunnel": lambda g, seat: g.tunnel,
    "final_round": lambda g, seat: g.final_turns_left is not None,
    "events": lambda g, seat: tuple(g.events),
}
_LIGHT: dict[str, Callable[[GameState, int], Any]] = {
    **_BUILD,
    "discard": lambda g, seat: CardCounts.of(g.discard),
    "known_in_hands": _known_in_hands,
    "known_in_cardholders": _known_in_cardholders,
    "unseen": lambda g, seat: _unseen_of(g, seat, CardCounts.of(g.discard),
                                         _known_in_hands(g, seat), _known_in_cardholders(g, seat)),
}


class LightView(PlayerView):
    """A ``PlayerView`` that builds each field when it is first read (issue 24 item 2): a bot
    reads a few of the 31 fields, so ``bots.play`` hands the bots that ask for it
    (``light_view = True``) this one. Each field is built by the same function as in ``view``
    from the state as it is during the decision; ``close()`` (``play`` calls it before the
    action is applied) ends that window, and a field first read after it raises instead of
    showing a later state. Equal to the ``view`` of the same moment (``==`` compares fields)."""

    def __init__(self, g: GameState, seat: int):  # noqa: D107 - the fields come later
        object.__setattr__(self, "_state", g)
        object.__setattr__(self, "_seat", seat)

    def __getattr__(self, name: str) -> Any:
        build = _LIGHT.get(name)
        g = self.__dict__.get("_state")
        if build is None:
            raise AttributeError(name)
        if g is None:
            raise RuntimeError(f"LightView.{name} was first read after the decision it was "
                               "made for: build a view (Game.view) to keep")
        value = build(g, self.__dict__["_seat"])
        object.__setattr__(self, name, value)
        return value

    def close(self) -> None:
        """The decision is over: fields not read yet can no longer be built."""
        object.__setattr__(self, "_state", None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayerView):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _FIELD_NAMES)

    __hash__ = None  # type: ignore[assignment] # as PlayerView's: its dicts are unhashable


_FIELD_NAMES = tuple(f.name for f in dataclasses.fields(PlayerView))
assert set(_FIELD_NAMES) == set(_LIGHT), "every PlayerView field has one builder"


def deal_hidden(g: GameState, seat: int, rng: np.random.Generator) -> None:
    """Deal everything ``seat`` cannot see anew at random, in place (``g`` is a copy).

    The unseen cards (the draw pile and the unknown part of every other hand and of other
    teams' cardholders, rule I1) are shuffled together and dealt back: each hidden place keeps
    its size and its known cards, the draw pile gets the rest in a random order. The hidden
    tickets are dealt anew the same way (``_deal_hidden_tickets``). What ``view(g, seat)`` shows
    stays as it is."""
    team = team_of(seat)
    places: list[tuple[Place | None, int, CardCounts]] = []  # None: the drawn card
    pool: list[Color] = list(g.draw_pile)
    hidden_places = [(Place.HAND, s, g.hands, g.known_in_hands)
                     for s in range(g.players) if s != seat]
    hidden_places += [(Place.CARDHOLDER, t, g.cardholders, g.known_in_cardholders)
                      for t in range(g.teams) if t != team]
    for place, who, cards, known in hidden_places:
        hidden = cards[who] - known[who] if known[who] else cards[who]
        places.append((place, who, hidden))
        pool += hidden.elements()
    if g.drawn is not None and g.taken_slot is None and g.to_move != seat:
        places.append((None, 0, _ONE[g.drawn]))
        pool.append(g.drawn)
    shuffled = [pool[i] for i in rng.permutation(len(pool)).tolist()]
    at = 0
    for kind, who, hidden in places:
        n = len(hidden)
        if not n:
            continue
        dealt = CardCounts.of(shuffled[at:at + n])
        at += n
        if kind is Place.HAND:
            seen = g.known_in_hands[who]
            g.hands[who] = seen + dealt if seen else dealt
        elif kind is Place.CARDHOLDER:
            seen = g.known_in_cardholders[who]
            g.cardholders[who] = seen + dealt if seen else dealt
        else:
            g.drawn = shuffled[at - 1]
    g.draw_pile = shuffled[at:]
    _deal_hidden_tickets(g, seat, rng)


def _deal_hidden_tickets(g: GameState, seat: int, rng: np.random.Generator) -> None:
    """Deal every ticket ``seat`` cannot see anew, each hidden place keeping its size (I1): the
    private tickets of every other seat (the teammate's too), other teams' ticket cardholders,
    other seats' ticket offers and the ticket deck's order; another seat's pending setup choice
    (T1) keeps the same positions in its new offer."""
    team = team_of(seat)
    places = [g.tickets[s] for s in range(g.players) if s != seat]
    places += [g.team_tickets[t] for t in range(g.teams) if t != team]
    others = [s for s in range(g.players) if s != seat]
    old_offers = {s: list(g.offers[s]) for s in others}
    places += [g.offers[s] for s in others]
    places.append(g.ticket_deck)
    pool = [t for place in places for t in place]
    shuffled = [pool[i] for i in rng.permutation(len(pool)).tolist()]
    at = 0
    for place in places:  # the lists are refilled in place (they are the copy's own lists)
        place[:] = shuffled[at:at + len(place)]
        at += len(place)
    for s, choice in list(g.setup_choices.items()):
        if s == seat:
            continue
        # T1: the same choice by position: the tickets at the kept places are kept.
        new = dict(zip(old_offers[s], g.offers[s]))
        g.setup_choices[s] = act.KeepTickets([new[t] for t in choice.keep], new[choice.share])
