"""Playouts: a determinized state played to the end by a fast policy, and its team results.

The policy is a ``GreedyBot`` with a preset ``Strategy`` at every seat (the strongest preset by
default). A playout runs on the ``GameState`` itself through the rules' dispatch (``Game`` is only a
thin wrapper around it), so it costs what a bot game costs from that point on.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .. import actions as act
from ..bots import GreedyBot, Strategy, decide
from ..game import Game
from ..seats import team_of
from ..state import GameState

#: the playout policy's strategy: the strongest preset of lesson 07 against greedy (it won
#: 127 of 200 games, Wilson interval 57% to 70%, measured for issue 34)
DEFAULT_POLICY = Strategy("careful tunneller", tunnel_threshold=0.75, odds_aware=True)
MAX_PLAYOUT_ACTIONS = 5_000  # a game of bots ends in a few hundred; this bounds a stuck one


@dataclass(frozen=True)
class Outcome:
    """One playout's result for one team: won (ranked first, E6) and its margin in points over
    the best other team."""

    won: bool
    margin: int


def policy_bots(players: int, seed: int, strategy: Strategy = DEFAULT_POLICY) -> list[GreedyBot]:
    return [GreedyBot(seed=[seed, s], strategy=strategy) for s in range(players)]


#: actions between two readings of the CPU clock when a playout has a deadline
DEADLINE_EVERY = 8


def play_out(state: GameState, team: int, bots: list[GreedyBot],
             first: act.Action | None = None, deadline: float | None = None
             ) -> Outcome | None:
    """Apply ``first`` (if given), then play ``state`` (changed in place) to the end. With a
    ``deadline`` (a ``time.process_time()`` value, read every ``DEADLINE_EVERY`` actions) a
    playout still running when it passes is abandoned: ``None``."""
    game = Game._around(state)
    if first is not None:
        game.apply(first)
    for n in range(MAX_PLAYOUT_ACTIONS):
        if game.is_over:
            break
        if deadline is not None and n % DEADLINE_EVERY == 0 and time.process_time() > deadline:
            return None
        game.apply(decide(game, bots[game.to_move]))
    return outcome(game, team)


def outcome(game: Game, team: int) -> Outcome:
    scores = game.scores()
    mine = next(s for s in scores if s.team == team)
    best_other = max(s.total for s in scores if s.team != team)
    return Outcome(mine.rank == 1, mine.total - best_other)


def mover_team(state: GameState) -> int:
    return team_of(state.to_move)
