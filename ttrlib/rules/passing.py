"""Passing (policy): a seat with no legal action passes its turn.

It sits above the other families: whether a seat may pass depends on what each of them allows,
so it asks them (their ``legal_*``) rather than restating their rules.
"""

from __future__ import annotations

from .. import actions as act
from ..errors import WrongPhase
from ..events import Passed
from ..state import GameState
from . import claims, deck, draws, tickets
from .ending import end_turn

_PASS = (act.Pass(),)


def has_other_action(state: GameState) -> bool:
    """Could the seat to move do anything but pass in this TURN (draw, tickets, claim)? The
    cheap families are asked first."""
    return bool(draws.legal_draw_first(state) or tickets.legal_draw_tickets(state)
                or tickets.legal_share(state) or claims.claimable_routes(state, state.to_move))


def check_pass(state: GameState, a: act.Pass) -> None:
    if has_other_action(state):
        raise WrongPhase("D4", "you may pass only when you have no other legal action")


def legal_pass(state: GameState) -> tuple[act.Pass, ...]:
    return () if has_other_action(state) else _PASS


def do_pass(state: GameState, a: act.Pass) -> None:
    deck.log(state, Passed(seat=state.to_move))
    state.passes_in_a_row += 1
    end_turn(state, passed=True)
