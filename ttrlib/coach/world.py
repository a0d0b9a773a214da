"""A game state built from one seat's view: the seat's information set made concrete (I1).

``world(view, rng)`` returns a ``GameState`` that ``view`` cannot tell apart from the real one,
with everything hidden (other hands and other teams' cardholders less their known cards, the
draw pile's order, other seats' tickets and offers, the ticket deck) dealt at random by
``observer.deal_hidden``: each call is a uniformly random member of the information set.
It reads the view alone, never a game, so the coach can know nothing its seat does not.

What a view does not carry is rebuilt from its public events: how many final turns are left
(E1, from the last ``FinalRound``), the passes in a row, the slot a face-up first card came from
(D3) and where the first card went (D1). A seat's pending setup choice (T1) that the view
cannot see is made for it by ``choose_setup`` (the playout policy's choice on its new offer).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import actions as act
from ..cards import EMPTY, CardCounts, Place
from ..events import Draw, DrawStep, FinalRound, Passed, Placed, TicketsPlaced
from ..observer import PlayerView, deal_hidden
from ..seats import team_of
from ..state import END_TRIGGER_TRAINS, SETUP_TICKETS_DEALT, GameState, Phase

#: makes the hidden setup choice of ``seat`` in ``state`` (its offer is dealt already)
SetupChooser = Callable[[GameState, int], act.KeepTickets]


def world(view: PlayerView, rng: np.random.Generator,
          choose_setup: SetupChooser | None = None) -> GameState:
    """A random state consistent with ``view`` (the seat to move's own view)."""
    if view.to_move != view.seat:
        raise ValueError(f"the coach judges the seat to move ({view.to_move}), from its own "
                         f"view; this is seat {view.seat}'s")
    g = _skeleton(view, rng)
    deal_hidden(g, view.seat, rng)
    if choose_setup is not None:
        for s in list(g.setup_choices):
            if s != view.seat:
                g.setup_choices[s] = choose_setup(g, s)
    return g


def _skeleton(view: PlayerView, rng: np.random.Generator) -> GameState:
    """The view's facts in a state, the hidden places filled in any order (``deal_hidden``
    deals them anew)."""
    seat, players, team = view.seat, view.players, view.team
    g = GameState.empty(view.board, players, rng)
    teams = g.teams
    unseen = view.unseen.elements()
    at = 0

    def take(n: int) -> CardCounts:
        nonlocal at
        if n < 0 or at + n > len(unseen):
            raise ValueError("the view's card counts do not add up")
        cards = CardCounts.of(unseen[at:at + n])
        at += n
        return cards

    for s in range(players):
        if s == seat:
            g.hands[s] = view.hand
            continue
        known = view.known_in_hands.get(s, EMPTY)
        g.known_in_hands[s] = known
        g.hands[s] = known + take(view.hand_sizes[s] - len(known))
    for t in range(teams):
        if t == team:
            g.cardholders[t] = view.team_cardholder
            # what the others know of this seat's own places is not in its view: left empty
            continue
        known = view.known_in_cardholders.get(t, EMPTY)
        g.known_in_cardholders[t] = known
        g.cardholders[t] = known + take(view.cardholder_sizes[t] - len(known))
    g.draw_pile = list(unseen[at:])
    if len(g.draw_pile) != view.draw_pile_size:
        raise ValueError("the view's card counts do not add up")
    g.discard = view.discard.elements()
    g.face_up = list(view.face_up)
    g.trains = list(view.trains)
    g.claimed = dict(view.claimed)
    g.phase, g.to_move = view.phase, view.to_move
    g.drawn = view.drawn_card
    g.tunnel = view.tunnel
    g.events = list(view.events)
    _place_tickets(view, g)
    _rebuild_turn_facts(view, g)
    return g


def _place_tickets(view: PlayerView, g: GameState) -> None:
    seat, team = view.seat, view.team
    seen = set(view.tickets) | set(view.team_tickets) | set(view.ticket_offer) | \
        set(view.dealt_tickets)
    pool = [t.id for t in view.board.tickets if t.id not in seen]
    at = 0

    def take(n: int) -> list[str]:
        nonlocal at
        out = pool[at:at + n]
        if len(out) != n:
            raise ValueError("the view's ticket counts do not add up")
        at += n
        return out

    placed = {e.team for e in view.events if isinstance(e, TicketsPlaced)}
    for s in range(view.players):
        g.tickets[s] = list(view.tickets) if s == seat else take(view.ticket_counts[s])
    for t in range(g.teams):
        g.team_tickets[t] = list(view.team_tickets) if t == team else \
            take(view.team_ticket_counts[t])
    if view.phase is Phase.SETUP_TICKETS:
        for s in range(view.players):
            if team_of(s) in placed:
                continue
            if s == seat:
                g.offers[s] = list(view.dealt_tickets)
                if view.setup_choice is not None:
                    g.setup_choices[s] = view.setup_choice
                continue
            g.offers[s] = take(SETUP_TICKETS_DEALT)
            if s < view.to_move:  # chose already (T1: in seat order), hidden until both have
                offer = g.offers[s]
                g.setup_choices[s] = act.KeepTickets(offer[:3], offer[0])  # dealt anew later
    elif view.phase is Phase.CHOOSE_TICKETS:
        g.offers[seat] = list(view.ticket_offer)
    g.ticket_deck = pool[at:]
    if len(g.ticket_deck) != view.ticket_deck_size:
        raise ValueError("the view's ticket counts do not add up")


def _rebuild_turn_facts(view: PlayerView, g: GameState) -> None:
    """E1's final turns, the passes in a row, D1/D3's pending draw: from the public events."""
    events = view.events
    last_final = next((e for e in reversed(events) if isinstance(e, FinalRound)), None)
    if last_final is not None and last_final.seat is not None:
        # the trigger's own turn does not count; each seat after it takes one final turn
        done = (view.to_move - last_final.seat - 1) % view.players
        g.final_turns_left = view.players - done
    passes = 0
    for e in reversed(events):
        if not isinstance(e, Passed):
            break
        passes += 1
    g.passes_in_a_row = passes
    if view.phase is Phase.SETUP_TICKETS:
        g.turns = 0
    elif last_final is None and any(g.team_trains(t) <= END_TRIGGER_TRAINS
                                    for t in range(g.teams)):
        g.turns = 0  # a position's first turn: it announces the final round (E1, ending)
    else:
        g.turns = 2  # read only to tell a position's first turn (E1): any later turn will do
    if view.phase in (Phase.PLACE_CARD, Phase.SECOND_CARD):
        first = next((e for e in reversed(events) if isinstance(e, Draw) and e.step is DrawStep.FIRST),
                     None)
        if view.phase is Phase.PLACE_CARD:
            g.taken_slot = first.slot if first is not None else None
        else:
            placed = next((e for e in reversed(events) if isinstance(e, Placed)), None)
            g.first_to = placed.to if placed is not None else Place.HAND
