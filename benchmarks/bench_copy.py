"""Benchmark: ``GameState.copy``, which is hot (a game is copied for every simulated claim).

Run:  .venv/bin/python benchmarks/bench_copy.py [--states N] [--seed S]

On N states of seeded four-``RandomBot`` games (4 and 6 players, every 25th decision of a game
played to the end):

1. ``state.copy()`` (with a copy of the random generator) and ``state.copy(rng)`` (with a
   generator given, as ``Game.copy(rng)`` does), median time per copy in microseconds;
2. a baseline measured in the same run: ``GameState.empty`` (a state built with no card dealt:
   the same constructor, the least a copy can cost). Each time is printed with its ratio to it,
   which compares across runs and machines better than microseconds; the machine is shared,
   so the best of several repeats is kept.

To compare two versions of ttrlib, run this script with each on ``PYTHONPATH``, one after the
other, several times.

Measured when the copy became one made from the state's declarations (issue 22, item 2), in one
process, alternating with the copy written out by hand before it (commit 6ba2704), 15 rounds
on these 40 states, load average about 9 on 2 cores: ``copy(rng)`` 2.66 us against 2.53 us
(best round; medians 2.77 and 2.67: one more function call), ``copy()`` 12.1 against 13.4 us
(best; medians 15.4 both: copying the generator is most of it). A first version that copied
``__dict__`` was as fast to copy but made every attribute read of the state 2.5 times slower
(5.7 to 17 ns), since the original's dict was then no longer Python's compact one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ttrlib import Game  # noqa: E402
from ttrlib.bots import RandomBot  # noqa: E402
from ttrlib.state import GameState  # noqa: E402


def states(count: int, seed: int) -> list:
    """``count`` states of seeded random games, every 25th decision."""
    found = []
    game_seed = seed
    while len(found) < count:
        players = 4 if game_seed % 2 else 6
        game = Game.new(players=players, seed=game_seed)
        bots = [RandomBot(seed=game_seed * 10 + s) for s in range(players)]
        step = 0
        while not game.is_over and len(found) < count:
            if step % 25 == 0:
                found.append(game.state)
            game.apply(bots[game.to_move].choose(game.view(game.to_move), game.legal_actions()))
            step += 1
        game_seed += 1
    return found


def per_call(f, state, number: int = 2000, repeat: int = 5) -> float:
    """The best of ``repeat`` runs of ``number`` calls ``f(state)``, in seconds per call."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            f(state)
        best = min(best, time.perf_counter() - start)
    return best / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    found = states(args.states, args.seed)
    rng = np.random.default_rng(0)
    runs = {"baseline GameState.empty": lambda s: GameState.empty(s.board, s.players, rng),
            "state.copy()": lambda s: s.copy(), "state.copy(rng)": lambda s: s.copy(rng)}
    medians = {what: statistics.median(per_call(f, s) for s in found) for what, f in runs.items()}
    base = medians["baseline GameState.empty"]
    print(f"GameState.copy on {len(found)} states of seeded random games (4 and 6 players)")
    for what, t in medians.items():
        print(f"  {what:27}: median {t * 1e6:6.2f} us  (= {t / base:5.2f} x the baseline)")


if __name__ == "__main__":
    main()
