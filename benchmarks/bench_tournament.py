"""Benchmark: GreedyBot games per second on one core, and a 2,000-game tournament on all cores.

Run:  .venv/bin/python benchmarks/bench_tournament.py [--games N]

Printed as ratios to a baseline measured in the same run (a fresh ``Game.new``), so figures can be
compared across machines: "one GreedyBot game = X fresh deals". The issue's goals: four-GreedyBot
games >= 100 games/s on one core; a 2,000-game tournament of two strategies <= 30 s on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ttrlib import Game  # noqa: E402
from ttrlib.bots import GreedyBot, Strategy, play  # noqa: E402
from ttrlib.experiments import tournament  # noqa: E402


def deals_per_second(n: int = 2000) -> float:
    start = time.process_time()
    for i in range(n):
        Game.new(players=4, seed=i)
    return n / (time.process_time() - start)


def greedy_games_per_second(n: int) -> float:
    start = time.process_time()
    for i in range(n):
        play(Game.new(players=4, seed=i), [GreedyBot(seed=i * 8 + s) for s in range(4)])
    return n / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--greedy", type=int, default=40)
    args = parser.parse_args()
    deals = deals_per_second()
    greedy = greedy_games_per_second(args.greedy)
    print(f"baseline: {deals:,.0f} fresh deals per CPU second")
    print(f"four-GreedyBot games: {greedy:.1f} per CPU second (one GreedyBot game = "
          f"{deals / greedy:,.0f} fresh deals; goal >= 100 games/s)")
    teams = [Strategy("greedy"), Strategy("odds-aware", tunnel_threshold=0.5, odds_aware=True)]
    start = time.perf_counter()
    result = tournament(teams, games=args.games, seed=1, progress=False)
    wall = time.perf_counter() - start
    print(f"tournament of {args.games:,} games on {os.cpu_count()} cores: {wall:.1f} s "
          f"({args.games / wall:.1f} games/s; goal <= 30 s for 2,000)")
    print(result.summary(1))


if __name__ == "__main__":
    main()
