"""Destination tickets: the setup choice (T1), drawing and keeping (T2, T3), sharing (T4).

Each action has a check, which may raise ``IllegalTickets`` and changes nothing, an effect,
which never raises, and the list of the actions the check accepts (``legal_*``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from .. import actions as act
from ..errors import IllegalTickets, SetupError, clip, shown
from ..events import TicketsDrawn, TicketsKept, TicketsPlaced, TicketsShared
from ..seats import team_of, teammate
from ..state import (
    CHOOSE_TICKETS_KEEP,
    DRAW_TICKETS,
    SETUP_TICKETS_DEALT,
    SETUP_TICKETS_KEEP,
    SHARE_MOST,
    GameState,
    Phase,
)
from ..words import plural
from . import check_mode, deck
from .ending import end_turn

_IDS = "tickets are named by their ids (strings such as 'T07')"


def _check_ids(rule: str, a: act.KeepTickets | act.ShareTickets, field: str) -> frozenset[str]:
    ids: frozenset[str] = getattr(a, field)
    if not isinstance(ids, frozenset) or not all(isinstance(t, str) for t in ids):
        raise IllegalTickets(rule, f"{type(a).__name__}.{field}: {_IDS}, not {shown(ids)}")
    return ids


def _check_keep(a: act.KeepTickets, offer: list[str], minimum: int, rule: str) -> None:
    keep = _check_ids(rule, a, "keep")
    unknown = sorted(keep - set(offer))
    if unknown:
        raise IllegalTickets(rule, f"you were not offered {clip(', '.join(unknown))}")
    need = _least(minimum, offer)
    if len(keep) < need:
        raise IllegalTickets(rule, f"keep at least {need} of the {plural(len(offer), 'ticket')} offered")
    if not isinstance(a.share, str):
        raise IllegalTickets(rule, f"KeepTickets.share: {_IDS}, not {shown(a.share)}")
    if a.share not in keep:
        raise IllegalTickets(rule, "the shared ticket must be one of the tickets you keep")


def _least(minimum: int, offer: Sequence[str]) -> int:
    """T1, T2: how many of ``offer`` must be kept (all of a smaller offer)."""
    return min(minimum, len(offer))


@lru_cache(maxsize=4096)
def keep_choices(offer: tuple[str, ...], minimum: int) -> tuple[act.KeepTickets, ...]:
    """The choices ``_check_keep`` accepts: keep at least ``minimum`` of the offer (every subset
    once), share one of them (T1, T2)."""
    out = []
    for k in range(_least(minimum, offer), len(offer) + 1):
        for keep in combinations(offer, k):
            kept = frozenset(keep)
            out += [act.KeepTickets(kept, share) for share in keep]
    return tuple(out)


@lru_cache(maxsize=4096)
def share_choices(mine: tuple[str, ...]) -> tuple[act.ShareTickets, ...]:
    """The shares ``check_share`` accepts: one or two of ``mine`` (T4)."""
    return (tuple(act.ShareTickets([t]) for t in mine)
            + tuple(act.ShareTickets(pair) for pair in combinations(mine, SHARE_MOST)))


def _keep_tickets(state: GameState, seat: int, offer: list[str], a: act.KeepTickets) -> None:
    state.tickets[seat].extend(t for t in offer if t in a.keep and t != a.share)
    state.team_tickets[team_of(seat)].append(a.share)
    # T3 policy: to the bottom, in the order they were offered.
    state.ticket_deck.extend(t for t in offer if t not in a.keep)


# --- T1 ----------------------------------------------------------------------------------------
def deal_tickets(state: GameState) -> None:
    """T1: the tickets shuffled, ``SETUP_TICKETS_DEALT`` dealt to each seat to choose from."""
    ids = [t.id for t in state.board.tickets]
    state.ticket_deck = [ids[i] for i in state.rng.permutation(len(ids))]
    need = state.players * SETUP_TICKETS_DEALT
    if len(ids) < need:
        raise SetupError(f"rule T1: the board has {len(ids)} tickets; {state.players} players "
                         f"need {need}")
    for seat in range(state.players):
        state.offers[seat] = state.ticket_deck[:SETUP_TICKETS_DEALT]
        del state.ticket_deck[:SETUP_TICKETS_DEALT]


def check_setup_keep(state: GameState, a: act.KeepTickets) -> None:
    _check_keep(a, state.offers[state.to_move], SETUP_TICKETS_KEEP, "T1")


def legal_setup_keep(state: GameState) -> tuple[act.KeepTickets, ...]:
    return check_mode.cached("keep choices", keep_choices, tuple(state.offers[state.to_move]),
                             SETUP_TICKETS_KEEP)


def do_setup_keep(state: GameState, a: act.KeepTickets) -> None:
    seat = state.to_move
    state.setup_choices[seat] = a
    mate = teammate(seat)
    if mate in state.setup_choices:
        # T1: both teammates reveal their shared ticket at the same moment.
        for s in sorted((seat, mate)):
            _keep_tickets(state, s, state.offers[s], state.setup_choices[s])
            state.offers[s] = []
            del state.setup_choices[s]
        deck.log(state, TicketsPlaced(team=team_of(seat)))
    if seat + 1 < state.players:
        state.to_move = seat + 1
    else:  # every pair has revealed by now, so no setup choice is left pending
        state.to_move = 0
        state.phase = Phase.TURN


# --- T2, T3 ------------------------------------------------------------------------------------
def check_draw_tickets(state: GameState, a: act.DrawTickets) -> None:
    if not state.ticket_deck:
        raise IllegalTickets("T2", "the ticket deck is empty")


_DRAW_TICKETS = (act.DrawTickets(),)


def legal_draw_tickets(state: GameState) -> tuple[act.DrawTickets, ...]:
    return _DRAW_TICKETS if state.ticket_deck else ()


def do_draw_tickets(state: GameState, a: act.DrawTickets) -> None:
    seat = state.to_move
    state.offers[seat] = state.ticket_deck[:DRAW_TICKETS]
    del state.ticket_deck[:DRAW_TICKETS]
    state.phase = Phase.CHOOSE_TICKETS
    deck.log(state, TicketsDrawn(seat=seat, count=len(state.offers[seat])))


def check_choose_keep(state: GameState, a: act.KeepTickets) -> None:
    _check_keep(a, state.offers[state.to_move], CHOOSE_TICKETS_KEEP, "T2")


def legal_choose_keep(state: GameState) -> tuple[act.KeepTickets, ...]:
    return check_mode.cached("keep choices", keep_choices, tuple(state.offers[state.to_move]),
                             CHOOSE_TICKETS_KEEP)


def do_choose_keep(state: GameState, a: act.KeepTickets) -> None:
    seat = state.to_move
    offer = state.offers[seat]
    _keep_tickets(state, seat, offer, a)
    state.offers[seat] = []
    deck.log(state, TicketsKept(seat=seat, kept=len(a.keep), returned=len(offer) - len(a.keep)))
    end_turn(state)


# --- T4 ----------------------------------------------------------------------------------------
def check_share(state: GameState, a: act.ShareTickets) -> None:
    tickets = _check_ids("T4", a, "tickets")
    if not 1 <= len(tickets) <= SHARE_MOST:
        raise IllegalTickets("T4", f"share 1 or {SHARE_MOST} tickets in one turn")
    missing = sorted(t for t in tickets if t not in state.tickets[state.to_move])
    if missing:
        raise IllegalTickets("T4", f"{clip(', '.join(missing))} is not among your private "
                             "tickets")


def legal_share(state: GameState) -> tuple[act.ShareTickets, ...]:
    mine = state.tickets[state.to_move]
    if not mine:
        return ()
    # kept per tuple of tickets (all the list reads)
    return check_mode.cached("share choices", share_choices, tuple(mine))


def do_share(state: GameState, a: act.ShareTickets) -> None:
    seat = state.to_move
    for t in sorted(a.tickets):
        state.tickets[seat].remove(t)
        state.team_tickets[team_of(seat)].append(t)
    deck.log(state, TicketsShared(seat=seat, count=len(a.tickets)))
    end_turn(state)
