"""Passing (policy): a seat with no legal action passes its turn.

It sits above the other families: whether a seat may pass depends on what each of them allows.
"""

from __future__ import annotations

from .. import actions as act
from ..errors import WrongPhase
from ..events import Passed
from ..state import GameState
from . import deck
from .claims import claimable_routes
from .ending import end_turn


def has_other_action(state: GameState) -> bool:
    """Could the seat to move do anything but pass in this TURN (draw, claim, tickets)?"""
    seat = state.to_move
    return (state.can_draw_from_deck() or any(c is not None for c in state.face_up)
            or bool(state.ticket_deck) or bool(state.tickets[seat])
            or bool(claimable_routes(state, seat)))


def check_pass(state: GameState, a: act.Pass) -> None:
    if has_other_action(state):
        raise WrongPhase("D4", "you may pass only when you have no other legal action")


def do_pass(state: GameState, a: act.Pass) -> None:
    deck.log(state, Passed(seat=state.to_move))
    state.passes_in_a_row += 1
    end_turn(state, passed=True)
