"""One validity check of a game's state: is it a position the rules can reach, and can it go on?

``check_state(state)`` reads the state's fields by name (``draw_pile``, ``discard``,
``face_up``, ``hands``, ``cardholders``, ``known_in_hands``, ``known_in_cardholders``, ``trains``, ``claimed``,
``ticket_deck``, ``tickets``, ``team_tickets``, ``offers``, ``setup_choices``, ``phase``,
``to_move``, ``drawn``, ``taken_slot``, ``first_to``, ``tunnel``, ``final_turns_left``,
``passes_in_a_row``, ``turns``, ``events``, ``board``, ``players``) and returns the first problem
as ``(field, reason)``, or ``None``; given an error class it raises that instead, so
``Game.from_position`` (``SetupError``), the check after every action (tests) and loading a save
(``SaveError``) share it. Fields are named as in a saved game and in ``from_position``
(``cardholders``, ``claimed``, ``known_in_hands``); ``cards`` is the 110 train cards together.

What it checks, in this order (so that no later check meets a shape it cannot read):
shapes and types; C1 (the 110 cards, and known cards inside their hand or cardholder); C3 (27
trains per seat, on the board or in supply); K3 (no set of owners the claim rules could not have
produced); tickets in exactly one place; T1 and T2 (offers, setup choices and kept tickets per
phase); the fields of a pending decision (D1-D3 ``drawn``/``taken_slot``/``first_to``, U1-U7
``tunnel``); C5 (no row of 3 face-up locomotives unless the C5 policy keeps it: too few other
cards now or at the last check, or the bounded resets ran out, as the log shows); E1 (the final round, passes, a game that is over); the event log; and
last that a game not over has a legal action (the families' ``legal_*``, ``rules.dispatch``).

``start_problem(game, origin)`` checks more of the start of a saved game: that it is a deal as
``Game.new`` makes one or a position as ``Game.from_position`` makes one, holding nothing a step
of the game would have made (a saved game is its start and its history, ``ttrlib.save``).

>>> from ttrlib import Game
>>> game = Game.new(players=4, seed=3)
>>> check_state(game) is None
True
>>> game.trains[0] -= 1
>>> check_state(game)
('trains', 'seat 0 has 26 trains left and 0 on the board, not 27 in all (C3)')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import permutations
from typing import Any

import numpy as np

from .actions import KeepTickets
from .board import Board
from .cards import CardCounts, Color, Place, standard_deck
from .chance import extra_cost
from .errors import shown
from .events import Draw, Event, NoReset, Over, Reset, Reshuffle, Setup, TicketsPlaced
from .rules import deck, dispatch, payments, tracks
from .seats import PLAYER_COUNTS, team_count, team_seats, teammate
from .state import (
    DRAW_TICKETS,
    END_TRIGGER_TRAINS,
    FACE_UP,
    MAX_FACE_UP_RESETS,
    PARTS,
    SETUP_TICKETS_DEALT,
    SETUP_TICKETS_KEEP,
    SHORT_GAME_TRAINS,
    STARTING_HAND,
    Phase,
    TunnelAttempt,
)

Problem = tuple[str, str]


def check_state(game: Any, error: type[Exception] | None = None, *,
                position: bool = False) -> Problem | None:
    """The first problem of ``game`` (a ``GameState``, or a ``Game``'s state) as ``(field, reason)``, or ``None`` if it is
    valid. With ``error``, raise ``error("field 'F': reason")`` instead of returning a problem.

    The one check of a state: ``Game.from_position`` (``position=True``), ``Game.from_json`` and
    the tests' check after every action use it. ``position``: an exact position built by hand may
    have a team at or below the E1 trigger before its final round was announced: the engine
    announces it at the end of the turn being played."""
    state = getattr(game, "state", game)  # a Game is checked through its GameState
    for found in _problems(state, position):
        if error is not None:
            raise error(f"field {found[0]!r}: {found[1]}")
        return found
    return None


def _problems(game: Any, position: bool) -> Iterator[Problem]:
    # Each family stops at its first problem; the later ones assume the earlier ones passed.
    families = (_shapes, _cards, _trains_and_routes, _tickets, _pending, _face_up)
    for family in families:
        found = next(family(game), None)
        if found:
            yield found
            return
    found = next(_ending(game, position), None) or event_problem(game.events, game.players)
    if found:
        yield found
        return
    if game.phase is not Phase.OVER and not dispatch.legal_actions(game):
        yield "phase", (f"the game is not over, yet seat {game.to_move} has no legal action in "
                        f"the {game.phase.value!r} phase")


def start_problem(game: Any, origin: str) -> Problem | None:
    """Is ``game`` (a valid state, by ``check_state``) a start as ``origin`` makes one: a deal of
    ``Game.new`` (``"new"``) or a position of ``Game.from_position`` (``"position"``)? A saved
    game is its start and its history (``ttrlib.save``): a start must hold nothing that a step
    would have made, so the state a history replays to is explained by its log.

    A deal: setup, seat A1 to choose first (T1), no choice made, the cards dealt (C4) and the
    row turned up (C5), and a log that is the deal itself: its C5 resets, each of which
    discarded a full row, then the setup. A position: a turn to play (it may be any seat's),
    with an empty log, no turn played, no pending decision and no card known to other seats
    (I1: nobody has seen any)."""
    g = game
    if origin == "new":
        resets = len(g.events) - 1
        expected = [Reset()] * resets + [Setup(players=g.players)]
        if not 0 <= resets <= MAX_FACE_UP_RESETS or g.events != expected:
            return "events", ("the log of a deal is its C5 resets and then the setup (C4, C5, "
                              "T1), nothing else")
        if g.phase is not Phase.SETUP_TICKETS or g.to_move != 0 or g.setup_choices:
            return "phase", "a deal waits for seat A1's ticket choice, the first of the setup (T1)"
        if None in g.face_up:
            return "face_up", f"a deal turns up {FACE_UP} cards (C5)"
        if len(g.discard) != FACE_UP * resets:
            return "discard", (f"a deal discards only the rows of its {resets} C5 resets, "
                               f"{FACE_UP * resets} cards, not {len(g.discard)}")
        return None
    if origin == "position":
        fresh = (("events", not g.events, "a position has no log yet"),
                 ("phase", g.phase is Phase.TURN, "a position waits for a turn to be played"),
                 ("turns", g.turns == 0, "a position has no turn played yet"),
                 ("known_in_hands", not any(g.known_in_hands), "no card of a position is known (I1)"),
                 ("known_in_cardholders", not any(g.known_in_cardholders),
                  "no card of a position is known (I1)"),
                 ("passes_in_a_row", g.passes_in_a_row == 0, "nobody has passed in a position"),
                 ("final_turns_left", g.final_turns_left is None,
                  "the final round of a position is announced by its first turn (E1)"))
        return next(((field, why) for field, ok, why in fresh if not ok), None)
    return "origin", f"a game begins as a deal ('new') or a position, not {shown(origin)}"


# Events told by nobody in particular; every other kind names the seat that acted.
_TABLE_EVENTS = (Setup, Reshuffle, Reset, NoReset, TicketsPlaced, Over)


def event_problem(events: Any, players: int) -> Problem | None:
    """The event log: a list of typed events (``ttrlib.events``) whose seats, teams and face-up
    slots exist in this game, so every later reader (the log, the widgets, ``narration``) can
    tell every event."""
    if not isinstance(events, list):
        return "events", "must be a list of events"
    for i, e in enumerate(events):
        if not isinstance(e, Event):
            return "events", f"event {i} is {shown(e)}, not an event"
        if not (e.seat is None and isinstance(e, _TABLE_EVENTS) or _seat(e.seat, players)):
            return "events", f"event {i} ({e.kind}): 'seat' must be a seat 0-{players - 1}"
        team = getattr(e, "team", None)
        if team is not None and not 0 <= team < team_count(players):
            return "events", f"event {i} ({e.kind}): 'team' must be a team 0-{team_count(players) - 1}"
        slot = getattr(e, "slot", None)
        if slot is not None and not 0 <= slot < FACE_UP:
            return "events", f"event {i} ({e.kind}): 'slot' must be a face-up slot 0-{FACE_UP - 1}"
    return None


def row_kept_by_policy(events: list[Event], taking: bool) -> bool:
    """C5 policy: did the last check of the face-up row keep 3 locomotives (``no_reset``: the
    cards left then could not help; or ``MAX_FACE_UP_RESETS`` resets ran out)? Read from the
    log: the last events that changed the row (a reset, a kept row, a face-up card taken).
    ``taking``: the last one is a face-up card still waiting to be placed (D3), whose C5 check
    comes later. Every completed face-up take is followed by a C5 check, and nothing else
    changes the row, so a row of 3 locomotives the policy did not keep is followed by a reset."""
    kinds = [e.kind for e in events if isinstance(e, (Reset, NoReset))
             or (isinstance(e, Draw) and e.card is not None)]
    if taking and kinds and kinds[-1] == "draw":
        kinds.pop()
    tail = kinds[-MAX_FACE_UP_RESETS:]
    return kinds[-1:] == ["no_reset"] or (len(tail) == MAX_FACE_UP_RESETS
                                          and all(k == "reset" for k in tail))


# --------------------------------------------------------------------------------------------
# the families of checks
# --------------------------------------------------------------------------------------------
def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _seat(v: Any, players: int) -> bool:
    return _is_int(v) and 0 <= v < players


def _ids(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(t, str) for t in v)


def _choice(seat: Any, c: Any, n: int) -> bool:
    return (_seat(seat, n) and isinstance(c, KeepTickets)
            and all(isinstance(t, str) for t in c.keep) and isinstance(c.share, str))


#: kind (``ttrlib.state.KINDS``) -> (is a value of the state (``g``) of that shape, with ``k``
#: entries for a field with one per seat or team; what it must be). The messages format ``n``
#: (the players), ``k`` and ``v`` (the value, shown).
_SHAPES: dict[str, tuple[Callable[[Any, Any, int], bool], str]] = {
    "board": (lambda v, g, k: isinstance(v, Board), "must be a board"),
    "rng": (lambda v, g, k: isinstance(v, np.random.Generator), "must be a random generator"),
    "colours": (lambda v, g, k: isinstance(v, list) and all(isinstance(c, Color) for c in v),
                "must be a list of card colours"),
    "slots": (lambda v, g, k: isinstance(v, list) and len(v) == FACE_UP
              and all(c is None or isinstance(c, Color) for c in v),
              f"must be {FACE_UP} slots, each a card colour or empty"),
    "counts": (lambda v, g, k: isinstance(v, list) and len(v) == k
               and all(isinstance(c, CardCounts) for c in v), "must be a list of {k} card counts"),
    "trains": (lambda v, g, k: isinstance(v, list) and len(v) == k and all(map(_is_int, v)),
               "must be a list of {k} train counts"),
    "claims": (lambda v, g, k: isinstance(v, dict) and all(
        isinstance(r, str) and g.board.has_route(r) and _seat(s, g.players) for r, s in v.items()),
        "must map routes of the board to seats 0-{last}"),
    "ids": (lambda v, g, k: _ids(v), "must be a list of ticket ids"),
    "id_lists": (lambda v, g, k: isinstance(v, list) and len(v) == k and all(map(_ids, v)),
                 "must be {k} lists of ticket ids"),
    "choices": (lambda v, g, k: isinstance(v, dict) and all(
        _choice(s, c, g.players) for s, c in v.items()),
        "must map seats to keep/share choices of ticket ids"),
    "phase": (lambda v, g, k: isinstance(v, Phase), f"must be one of {[p.value for p in Phase]}"),
    "seat": (lambda v, g, k: _seat(v, g.players), "must be a seat 0-{last}, not {v}"),
    "count": (lambda v, g, k: _is_int(v) and v >= 0, "must be a whole number >= 0, not {v}"),
    "colour?": (lambda v, g, k: v is None or isinstance(v, Color), "must be a card colour or null"),
    "slot?": (lambda v, g, k: v is None or (_is_int(v) and 0 <= v < FACE_UP),
              f"must be a face-up slot 0-{FACE_UP - 1} or null"),
    "place?": (lambda v, g, k: v is None or isinstance(v, Place),
               "must be null, 'hand' or 'cardholder'"),
    "tunnel?": (lambda v, g, k: v is None or isinstance(v, TunnelAttempt),
                "must be a tunnel attempt or null"),
    "turns_left?": (lambda v, g, k: v is None or (_is_int(v) and 0 <= v <= g.players),
                    "must be null or 0-{n}, not {v}"),
    "events": (lambda v, g, k: isinstance(v, list), "must be a list of events"),
}


def _shapes(g: Any) -> Iterator[Problem]:
    """Every field of the state (``ttrlib.state.PARTS``) has the type and the length of its
    kind, named by its public name; the player count first, since the lengths follow from it."""
    n = g.players
    if not _is_int(n) or n not in PLAYER_COUNTS:
        yield "players", f"must be one of {list(PLAYER_COUNTS)} (C2), not {shown(n)}"
        return
    entries = {None: 0, "players": n, "teams": n // 2}
    for attr, p in _CHECKED:
        k, (ok, must) = entries[p.per], _SHAPES[p.kind]
        value = getattr(g, attr)
        if not ok(value, g, k):
            yield p.name, must.format(n=n, k=k, last=n - 1, v=shown(value))


# the player count is checked first; ``held`` is empty between actions (and no ``Game``
# attribute): the check reads a game, between its actions
_CHECKED = tuple((attr, p) for attr, p in PARTS if p.saved or p.kind == "board")


def _cards(g: Any) -> Iterator[Problem]:
    # C1: every one of the 110 cards is in exactly one place.
    t = g.tunnel
    if t is not None and not (isinstance(t.laid_hand, CardCounts)
                              and isinstance(t.laid_holder, CardCounts)
                              and all(isinstance(c, Color) for c in t.revealed)):
        yield "tunnel", "the laid cards must be card counts and the revealed ones colours"
        return
    total = g.total_cards()
    deck = standard_deck()
    if total != deck:
        over, under = total.minus_available(deck), deck.minus_available(total)
        yield "cards", ("the 110 train cards do not add up (C1): "
                        f"{over.describe() if over else 'none'} too many, "
                        f"{under.describe() if under else 'none'} missing")
    for seat in range(g.players):
        if not g.known_in_hands[seat] <= g.hands[seat]:
            yield "known_in_hands", f"seat {seat}: the cards known to be in its hand are not all there"
    for team in range(team_count(g.players)):
        if not g.known_in_cardholders[team] <= g.cardholders[team]:
            yield "known_in_cardholders", f"team {team}: the known cards are not all in its cardholder"


def _trains_and_routes(g: Any) -> Iterator[Problem]:
    board = g.board
    fewest, most = SHORT_GAME_TRAINS
    if not fewest <= g.trains_per_player <= most:
        yield "trains_per_player", (f"{g.trains_per_player} trains per player: a game has "
                                    f"{fewest} to {most} (C3 and its short-game policy)")
        return
    for seat in range(g.players):
        on_board = sum(board.route(r).length for r, s in g.claimed.items() if s == seat)
        if g.trains[seat] < 0 or g.trains[seat] + on_board != g.trains_per_player:
            yield "trains", (f"seat {seat} has {g.trains[seat]} trains left and {on_board} on the "
                             f"board, not {g.trains_per_player} in all (C3)")
    # K3: the owned tracks of a double or triple route must have been claimable in some order.
    groups: dict[str, list[str]] = {}
    for rid in g.claimed:
        route = board.route(rid)
        if route.group:
            groups.setdefault(route.group, []).append(rid)
    for group, owned in groups.items():
        if len(owned) > 1 and not any(_claimable_in_order(g, order) for order in permutations(owned)):
            owners = ", ".join(f"{r} by seat {g.claimed[r]}" for r in sorted(owned))
            yield "claimed", (f"tracks of {group!r} claimed as no {g.players}-player game allows "
                              f"(K3): {owners}")


def _claimable_in_order(g: Any, order: tuple[str, ...]) -> bool:
    owners: dict[str, int] = {}
    for rid in order:
        seat = g.claimed[rid]
        if tracks.closed_reason(g.board, g.board.route(rid), owners, seat, g.players):
            return False
        owners[rid] = seat
    return True


def _tickets(g: Any) -> Iterator[Problem]:
    places: dict[str, str] = {}
    lists = [("ticket_deck", g.ticket_deck)]
    lists += [(f"tickets[{i}]", x) for i, x in enumerate(g.tickets)]
    lists += [(f"team_tickets[{i}]", x) for i, x in enumerate(g.team_tickets)]
    lists += [(f"offers[{i}]", x) for i, x in enumerate(g.offers)]
    for where, ids in lists:
        for tid in ids:
            if not g.board.has_ticket(tid):
                yield where, f"{shown(tid)} is not a ticket of the board"
            if tid in places:
                yield where, f"ticket {shown(tid)} is also in {places[tid]}"
            places[tid] = where
    missing = [t.id for t in g.board.tickets if t.id not in places]
    if missing:
        yield "tickets", f"tickets are missing: {shown(missing)}"
    phase = g.phase
    if phase is Phase.SETUP_TICKETS:
        yield from _setup_tickets(g)
        return
    if g.setup_choices:
        yield "setup_choices", "choices are pending only during setup (T1)"
    for seat, offer in enumerate(g.offers):
        if offer and not (phase is Phase.CHOOSE_TICKETS and seat == g.to_move):
            yield "offers", f"seat {seat} has tickets on offer outside a ticket choice (T1, T2)"
    if phase is Phase.CHOOSE_TICKETS:
        size = len(g.offers[g.to_move])
        if not 1 <= size <= DRAW_TICKETS or (size < DRAW_TICKETS and g.ticket_deck):
            yield "offers", (f"seat {g.to_move} draws {DRAW_TICKETS} tickets, fewer only when the "
                             f"ticket deck runs out (T2), not {size}")


def _setup_tickets(g: Any) -> Iterator[Problem]:
    """T1: seats choose in order; a choice stays hidden until the teammate has chosen, then both
    teammates place their tickets at once (and each team has 2 shared tickets)."""
    n, to_move = g.players, g.to_move
    for seat in range(n):
        chosen, revealed = seat < to_move, seat < to_move and teammate(seat) < to_move
        offer = g.offers[seat]
        if revealed:
            if offer or seat in g.setup_choices:
                yield "offers", f"seat {seat} has placed its setup tickets; nothing is on offer"
            if not SETUP_TICKETS_KEEP - 1 <= len(g.tickets[seat]) <= SETUP_TICKETS_DEALT - 1:
                yield "tickets", (f"seat {seat} keeps {SETUP_TICKETS_KEEP}-{SETUP_TICKETS_DEALT} of "
                                  "its setup tickets and shares 1 (T1)")
            continue
        if len(offer) != SETUP_TICKETS_DEALT:
            yield "offers", f"seat {seat} is dealt {SETUP_TICKETS_DEALT} tickets at setup (T1)"
        if g.tickets[seat]:
            yield "tickets", f"seat {seat} keeps no ticket before its team has chosen (T1)"
        choice = g.setup_choices.get(seat)
        if chosen != (choice is not None):
            yield "setup_choices", (f"seat {seat} {'has' if chosen else 'has not'} chosen, so its "
                                    f"choice is {'pending' if chosen else 'not there yet'} (T1)")
        if choice is not None and not (choice.keep <= set(offer) and choice.share in choice.keep
                                       and len(choice.keep) >= SETUP_TICKETS_KEEP):
            yield "setup_choices", (f"seat {seat}: keep at least {SETUP_TICKETS_KEEP} offered "
                                    "tickets and share one of them (T1)")
    for team, shared in enumerate(g.team_tickets):
        done = max(team_seats(team)) < to_move
        if len(shared) != (2 if done else 0):
            yield "team_tickets", (f"team {team} holds {len(shared)} shared tickets; at setup it "
                                   "holds 2 once both teammates have chosen, none before (T1)")
    fresh = (("turns", g.turns == 0), ("claimed", not g.claimed),
             ("trains", all(t == g.trains_per_player for t in g.trains)),
             ("hands", all(len(h) == STARTING_HAND for h in g.hands)),
             ("cardholders", not any(g.cardholders)), ("known_in_hands", not any(g.known_in_hands)),
             ("known_in_cardholders", not any(g.known_in_cardholders)))
    for field, ok in fresh:
        if not ok:
            yield field, "nothing but ticket choices happens during setup (C3, C4, T1)"


def _pending(g: Any) -> Iterator[Problem]:
    """The fields of a pending decision are set exactly in its phase (D1-D3, U1-U7)."""
    phase = g.phase
    if (g.drawn is not None) != (phase is Phase.PLACE_CARD):
        yield "drawn", f"a drawn card is pending exactly in the {Phase.PLACE_CARD.value!r} phase"
    slot = g.taken_slot
    if slot is not None:
        if not _is_int(slot) or not 0 <= slot < FACE_UP:
            yield "taken_slot", f"must be a face-up slot 0-{FACE_UP - 1} or null"
        elif phase is not Phase.PLACE_CARD or g.face_up[slot] is not None:
            # D3 policy: a face-up card drawn first leaves its slot empty until it is placed.
            yield "taken_slot", ("names the empty face-up slot of a card waiting to be placed "
                                 f"(the {Phase.PLACE_CARD.value!r} phase) and nothing else")
        elif g.drawn is Color.LOCOMOTIVE:
            yield "taken_slot", "a face-up locomotive taken first is never placed by choice (D2)"
    if (g.first_to is not None) != (phase is Phase.SECOND_CARD) or \
            not (g.first_to is None or isinstance(g.first_to, Place)):
        yield "first_to", f"is 'hand' or 'cardholder' exactly in the {Phase.SECOND_CARD.value!r} phase"
    if (g.tunnel is not None) != (phase is Phase.TUNNEL):
        yield "tunnel", f"a tunnel attempt is pending exactly in the {Phase.TUNNEL.value!r} phase"
    if g.tunnel is not None:
        yield from _tunnel(g)


def _tunnel(g: Any) -> Iterator[Problem]:
    t, board = g.tunnel, g.board
    if not (isinstance(t.route, str) and board.has_route(t.route) and board.route(t.route).is_tunnel):
        yield "tunnel", f"{shown(t.route)} is not a tunnel of the board"
        return
    route = board.route(t.route)
    if t.seat != g.to_move or not _seat(t.seat, g.players):
        yield "tunnel", "the tunnel attempt belongs to the seat to move"
    why = tracks.closed_reason(board, route, g.claimed, t.seat, g.players)
    if why or g.trains[t.seat] < route.length:
        yield "tunnel", f"seat {t.seat} could not have claimed {route.id} ({why or 'too few trains'})"
    laid = t.laid_hand + t.laid_holder
    if len(laid) != route.length or payments.claim_color(laid) != t.color or (
            route.color is not None and t.color not in (route.color, Color.LOCOMOTIVE)):
        yield "tunnel", (f"the laid cards ({laid.describe()}) are not a {route.length}-card claim "
                         f"of {route.id} in {shown(getattr(t.color, 'value', t.color))} (K2, U7)")
    revealed = len(t.revealed)
    if revealed > route.tunnel or (revealed < route.tunnel and (g.draw_pile or g.discard)):
        yield "tunnel", (f"{route.id} reveals {route.tunnel} cards, fewer only when no card is "
                         f"left (U1, U6), not {revealed}")
    owed = extra_cost(t.revealed, t.color)  # U2, U5
    if t.extra != owed or owed == 0:
        yield "tunnel", (f"'extra' must be {owed}, the revealed cards that match (U2, U5), and a "
                         "tunnel that asks for nothing is claimed at once")


def _face_up(g: Any) -> Iterator[Problem]:
    row = [c for c in g.face_up if c is not None]
    locomotives = sum(c is Color.LOCOMOTIVE for c in row)
    if locomotives >= 3:
        # C5 policy: the row stays when no reset could ever help (now, or at the last check),
        # or after the bounded resets.
        if deck.reset_can_help(g) and not row_kept_by_policy(g.events, g.taken_slot is not None):
            yield "face_up", (f"{locomotives} face-up locomotives: the row is discarded and five "
                              "new cards are turned up (C5)")
    # An empty slot is no problem: the end of the turn refills it (C5/C6 policy), and
    # from_position takes a row with empty slots as given.


def _ending(g: Any, position: bool = False) -> Iterator[Problem]:
    n, left, over = g.players, g.final_turns_left, g.phase is Phase.OVER
    if left is not None and not (_is_int(left) and 0 <= left <= n):
        yield "final_turns_left", f"must be null or 0-{n}, not {shown(left)}"
        return
    low = [t for t in range(team_count(n))
           if sum(g.trains[s] for s in team_seats(t)) <= END_TRIGGER_TRAINS]
    if g.phase is Phase.SETUP_TICKETS and (left is not None or g.passes_in_a_row):
        yield "final_turns_left", "the game has not begun during setup"
    if left is None and low and not position:
        yield "final_turns_left", (f"team {low[0]} has {END_TRIGGER_TRAINS} or fewer trains, so the "
                                   "final round has begun (E1)")
    if left is not None and not low:
        yield "final_turns_left", (f"the final round begins only once a team has "
                                   f"{END_TRIGGER_TRAINS} or fewer trains (E1)")
    if not over and (left == 0 or g.passes_in_a_row >= n):
        yield "phase", "the final turn has been played, or every seat passed: the game is over (E1)"
    if over and left != 0 and g.passes_in_a_row < n:
        yield "phase", "a game is over after the final round (E1) or when every seat passes"
    if g.passes_in_a_row > n:
        yield "passes_in_a_row", f"the game ends once all {n} seats pass in a row"
