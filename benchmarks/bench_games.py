"""Benchmark: full 4-player RandomBot and GreedyBot games per second on the teaching board.

Run:  .venv/bin/python benchmarks/bench_games.py [--games N] [--seed S]

What it measures, all in this one process (so on one core):

1. games/s: ``ttrlib.bots.play(Game.new(players=4, seed=...), [RandomBot x 4])`` for N games,
   set-up included, timed with ``time.perf_counter``. The issue's goal is >= 50 games/s.
2. the share of that time spent inside ``Game.legal_actions()``: a second run of the same games
   with ``Game.legal_actions`` wrapped by a perf_counter timer (only the outermost call is
   counted). The wrapped run is timed too, so the wrapper's overhead is visible.
   Wall-clock games/s is printed next to games per CPU second (``time.process_time``), which
   is what one core gives when the machine is busy with other work.
3. games/s of four ``GreedyBot`` s (``--greedy-games`` games), wall clock and CPU time.
4. a baseline measured in the same run: a plain loop that only builds a fresh game
   (``Game.new``: shuffle the 110 cards, deal 4 to each seat, turn up 5, shuffle and deal the
   tickets). The ratio "one full game = X fresh deals" is machine-independent enough to compare
   across runs and machines, unlike the raw games/s. Every figure is printed with its ratio to
   the baseline ("one game = X fresh deals") and to the issue's goals (issue 12: 300 random and
   100 greedy games/s on one core), and next to the same ratio measured before the legal-action
   caches (see ``BEFORE_RANDOM_IN_DEALS``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ttrlib import Game  # noqa: E402
from ttrlib.bots import GreedyBot, RandomBot, play  # noqa: E402

GOAL_GAMES_PER_SECOND = 300  # issue 12: random legal games on one core
GOAL_GREEDY_PER_SECOND = 100  # issue 12: four-GreedyBot games on one core
# Measured with this script on the engine before its legal-action caches (commit 0973652), load
# average 0.6: one random game = 260 fresh deals (118 games/s), one greedy game = 971 (32/s).
BEFORE_RANDOM_IN_DEALS = 260
BEFORE_GREEDY_IN_DEALS = 971


def run_games(n: int, seed: int) -> tuple[float, int, int]:
    """Play n games; returns (seconds, total actions, total turns)."""
    actions = turns = 0
    original_apply = Game.apply

    def counting_apply(self, action):
        nonlocal actions
        actions += 1
        return original_apply(self, action)

    Game.apply = counting_apply
    try:
        start = time.perf_counter()
        for i in range(n):
            game = Game.new(players=4, seed=seed + i)
            play(game, [RandomBot(seed=(seed + i) * 10 + s) for s in range(4)])
            turns += game.turns
        elapsed = time.perf_counter() - start
    finally:
        Game.apply = original_apply
    return elapsed, actions, turns


def run_games_plain(n: int, seed: int, cpu: list | None = None) -> float:
    start, cpu0 = time.perf_counter(), time.process_time()
    for i in range(n):
        game = Game.new(players=4, seed=seed + i)
        play(game, [RandomBot(seed=(seed + i) * 10 + s) for s in range(4)])
    if cpu is not None:
        cpu.append(time.process_time() - cpu0)
    return time.perf_counter() - start


def run_greedy(n: int, seed: int) -> tuple[float, float]:
    """n games of four GreedyBots; returns (wall seconds, CPU seconds)."""
    start, cpu0 = time.perf_counter(), time.process_time()
    for i in range(n):
        game = Game.new(players=4, seed=seed + i)
        play(game, [GreedyBot(seed=(seed + i) * 10 + s) for s in range(4)])
    return time.perf_counter() - start, time.process_time() - cpu0


def run_games_timing_legal(n: int, seed: int) -> tuple[float, float, int]:
    """The same games with legal_actions() timed; returns (total s, legal_actions s, calls)."""
    original = Game.legal_actions
    spent = 0.0
    calls = 0
    depth = 0

    def timed(self, *args, **kwargs):
        nonlocal spent, calls, depth
        if depth:
            return original(self, *args, **kwargs)
        depth += 1
        t0 = time.perf_counter()
        try:
            return original(self, *args, **kwargs)
        finally:
            spent += time.perf_counter() - t0
            calls += 1
            depth -= 1

    Game.legal_actions = timed
    try:
        total = run_games_plain(n, seed)
    finally:
        Game.legal_actions = original
    return total, spent, calls


def run_baseline(n: int, seed: int) -> float:
    """Only build fresh games: shuffle and deal (Game.new)."""
    start = time.perf_counter()
    for i in range(n):
        Game.new(players=4, seed=seed + i)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per measurement (100)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats; the best is kept (3)")
    parser.add_argument("--greedy-games", type=int, default=30, help="GreedyBot games (30)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (1)")
    args = parser.parse_args(argv)
    n = args.games

    run_games_plain(min(n, 5), args.seed + 10_000)  # warm-up (imports, caches)

    cpu: list[float] = []
    plain = [run_games_plain(n, args.seed, cpu) for _ in range(args.repeats)]
    best = min(plain)
    _, actions, turns = run_games(n, args.seed)
    wrapped_total, legal_s, legal_calls = min(
        (run_games_timing_legal(n, args.seed) for _ in range(args.repeats)), key=lambda r: r[0])
    base = min(run_baseline(n * 10, args.seed) for _ in range(args.repeats)) / 10
    run_greedy(2, args.seed + 10_000)  # warm-up
    greedy_wall, greedy_cpu = min(run_greedy(args.greedy_games, args.seed)
                                  for _ in range(args.repeats))

    games_per_s = n / best
    per_game_ms = 1000 * best / n
    setup_ms = 1000 * base / n
    print(f"ttrlib benchmark: {n} full 4-player RandomBot games on the teaching board, one core")
    if hasattr(os, "getloadavg"):
        print("  load average {:.2f} {:.2f} {:.2f} (other work makes wall-clock figures noisy; "
              "the ratios to the baseline are steadier)".format(*os.getloadavg()))
    print(f"  python {sys.version.split()[0]}; best of {args.repeats} runs "
          f"(spread {min(plain):.2f}-{max(plain):.2f} s, median {statistics.median(plain):.2f} s)")
    print()
    print(f"  games per second           : {games_per_s:8.1f}")
    print(f"  games per CPU second       : {n / min(cpu):8.1f}   (process_time, without time lost to "
          f"other processes; goal >= {GOAL_GAMES_PER_SECOND}: "
          f"{'MET' if n / min(cpu) >= GOAL_GAMES_PER_SECOND else 'NOT MET'})")
    print(f"  time per game              : {per_game_ms:8.2f} ms")
    print(f"  actions per game (mean)    : {actions / n:8.1f}   ({turns / n:.1f} turns)")
    print(f"  time per action            : {1e6 * best / actions:8.1f} us")
    print()
    share = legal_s / wrapped_total
    print(f"  legal_actions() share      : {100 * share:8.1f} %   ({legal_calls / n:.0f} calls/game, "
          f"{1e6 * legal_s / legal_calls:.0f} us/call; timed run {wrapped_total:.2f} s vs "
          f"{best:.2f} s untimed)")
    print()
    print("  baseline, same run: a loop that only builds a fresh game (Game.new: shuffle, deal)")
    print(f"  fresh games per second     : {n / base:8.1f}   ({setup_ms:.3f} ms each)")
    print(f"  one full game costs        : {base and best / base:8.1f} x a fresh deal   "
          f"(before the caches: {BEFORE_RANDOM_IN_DEALS}, so "
          f"{BEFORE_RANDOM_IN_DEALS * base / best:.2f} x faster)")
    print(f"  goal {GOAL_GAMES_PER_SECOND} games/s = a game in "
          f"{(n / GOAL_GAMES_PER_SECOND) / base:.1f} fresh deals at this machine's speed")
    print()
    m = args.greedy_games
    greedy_deals = (greedy_wall / m) / (base / n)
    print(f"  four-GreedyBot games       : {m / greedy_wall:8.1f} /s wall, {m / greedy_cpu:.1f} per CPU "
          f"second (goal >= {GOAL_GREEDY_PER_SECOND}: "
          f"{'MET' if m / greedy_cpu >= GOAL_GREEDY_PER_SECOND else 'NOT MET'})")
    print(f"  one greedy game costs      : {greedy_deals:8.1f} x a fresh deal   (before the caches: "
          f"{BEFORE_GREEDY_IN_DEALS}, so {BEFORE_GREEDY_IN_DEALS / greedy_deals:.2f} x faster; goal: "
          f"{(n / GOAL_GREEDY_PER_SECOND) / base:.1f})")


if __name__ == "__main__":
    main()
