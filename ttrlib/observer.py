"""The observer (rule I1): what one seat may know of a game, and the games it cannot tell apart.

``view(state, seat)`` is the seat's information set as a ``PlayerView``; ``deal_hidden(state,
seat, rng)`` deals everything the seat cannot see anew, so that the state is a random member
of that information set (OpenSpiel calls these an observer and ``resample_from_infostate``).
Both read a ``GameState``; ``Game.view`` and ``Game.resample_hidden`` check the arguments and
keep the game's history.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import actions as act
from .board import Board
from .cards import CardCounts, Color, standard_deck
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
    team = team_of(seat)
    face_up = CardCounts.of(c for c in g.face_up if c is not None)
    discard = CardCounts.of(g.discard)
    known_hands = {s: g.known_hand[s] for s in range(g.players) if s != seat}
    known_holders = {t: g.known_holder[t] for t in range(g.teams) if t != team}
    seen = [g.hands[seat], g.holders[team], face_up, discard, *known_hands.values(),
            *known_holders.values()]
    if g.tunnel is not None:
        seen += [g.tunnel.laid, CardCounts.of(g.tunnel.revealed)]
    drawn = None
    if g.drawn is not None and g.to_move == seat:
        drawn = g.drawn
        seen.append(_ONE[g.drawn])
    elif g.drawn is not None and g.taken_slot is not None:
        seen.append(_ONE[g.drawn])
    # one sum over all the parts (a view is built for every bot decision)
    unseen = standard_deck() - CardCounts._raw(tuple(map(sum, zip(*(c.as_tuple() for c in seen)))))
    offer = tuple(ticket_offer(g, seat)) if g.to_move == seat else ()
    return PlayerView(
        seat=seat,
        board=g.board,
        players=g.players,
        phase=g.phase,
        to_move=g.to_move,
        hand=g.hands[seat],
        tickets=tuple(g.tickets[seat]),
        team_cardholder=g.holders[team],
        team_tickets=tuple(g.team_tickets[team]),
        face_up=tuple(g.face_up),
        discard=discard,
        draw_pile_size=len(g.draw_pile),
        ticket_deck_size=len(g.ticket_deck),
        claimed=dict(g.owners),
        trains=tuple(g.trains),
        hand_sizes=tuple(len(h) for h in g.hands),
        ticket_counts=tuple(len(t) for t in g.tickets),
        team_ticket_counts=tuple(len(t) for t in g.team_tickets),
        cardholder_sizes=tuple(len(h) for h in g.holders),
        known_in_hands=known_hands,
        known_in_cardholders=known_holders,
        unseen=unseen,
        drawn_card=drawn,
        ticket_offer=offer,
        dealt_tickets=tuple(g.offers[seat]) if g.phase is Phase.SETUP_TICKETS else (),
        setup_choice=g.setup_choices.get(seat),
        tunnel=g.tunnel,
        final_round=g.final_turns_left is not None,
        events=tuple(g.events),
    )


def deal_hidden(g: GameState, seat: int, rng: np.random.Generator) -> None:
    """Deal everything ``seat`` cannot see anew at random, in place (``g`` is a copy).

    The unseen cards (the draw pile and the unknown part of every other hand and of other
    teams' cardholders, rule I1) are shuffled together and dealt back: each hidden place keeps
    its size and its known cards, the draw pile gets the rest in a random order. The hidden
    tickets are dealt anew the same way (``_deal_hidden_tickets``). What ``view(g, seat)`` shows
    stays as it is."""
    team = team_of(seat)
    places: list[tuple[str, int, CardCounts]] = []
    pool: list[Color] = list(g.draw_pile)
    hidden_places = [("hand", s, g.hands, g.known_hand) for s in range(g.players) if s != seat]
    hidden_places += [("holder", t, g.holders, g.known_holder)
                      for t in range(g.teams) if t != team]
    for kind, who, cards, known in hidden_places:
        hidden = cards[who] - known[who] if known[who] else cards[who]
        places.append((kind, who, hidden))
        pool += hidden.elements()
    if g.drawn is not None and g.taken_slot is None and g.to_move != seat:
        places.append(("drawn", 0, _ONE[g.drawn]))
        pool.append(g.drawn)
    shuffled = [pool[i] for i in rng.permutation(len(pool)).tolist()]
    at = 0
    for kind, who, hidden in places:
        n = len(hidden)
        if not n:
            continue
        dealt = CardCounts.of(shuffled[at:at + n])
        at += n
        if kind == "hand":
            seen = g.known_hand[who]
            g.hands[who] = seen + dealt if seen else dealt
        elif kind == "holder":
            seen = g.known_holder[who]
            g.holders[who] = seen + dealt if seen else dealt
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
