"""The end of a turn and of the game (E1); passing is in ``passing`` (it needs every family).

* E1: once a team has 4 or fewer trains, every player, the triggering one included, gets one
  final turn; then the game is over.
* Policy: when every seat passes in a row the game ends.
"""

from __future__ import annotations

from ..events import FinalRound, Over
from ..seats import team_of
from ..state import END_TRIGGER_TRAINS, GameState, Phase
from . import deck


def end_turn(state: GameState, passed: bool = False) -> None:
    """The turn of the seat to move is over: E1's trigger, the end, the next seat. Only the
    mover's trains can have changed in this turn, so only its team can have just reached the
    E1 trigger; any team may be at it only after a position's first turn (a position may start
    with a team at the trigger, and its first turn announces the final round, ``validity``)."""
    if not passed:
        state.passes_in_a_row = 0
    if None in state.face_up:
        deck.refill_face_up(state)  # C5/C6 policy: a slot emptied for want of cards is refilled
    seat = state.to_move
    state.turns += 1
    state.phase = Phase.TURN
    state.drawn = None
    state.first_to = None
    if state.final_turns_left is not None:
        state.final_turns_left -= 1
    elif state.team_trains(team_of(seat)) <= END_TRIGGER_TRAINS or (
            state.turns == 1 and any(state.team_trains(t) <= END_TRIGGER_TRAINS
                                     for t in range(state.teams))):
        # E1: every player, this one included, gets one final turn.
        state.final_turns_left = state.players
        deck.log(state, FinalRound(seat=seat, team=team_of(seat)))
    if state.final_turns_left == 0 or state.passes_in_a_row >= state.players:
        state.phase = Phase.OVER
        deck.log(state, Over())
        return
    state.to_move = (seat + 1) % state.players
