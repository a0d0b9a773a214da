"""Benchmark: the size of a saved game (format 4: its start and its history) and the time to save
and to load it, on the teaching board.

Run:  .venv/bin/python benchmarks/bench_save.py [--games N] [--seed S]

For N seeded four-``RandomBot`` games of 4 and of 6 players, played to the end:

1. the save's size in bytes (UTF-8) and its number of steps, median and largest, beside the
   bound a save is held to (``ttrlib.save.MAX_TEXT``);
2. ``Game.from_json`` of the whole game (read every field, check the start, replay every step
   with the rules, check the result), median and slowest, in ms;
3. ``to_json`` of a loaded game (its history was replayed when it was loaded: only the last
   comparison is paid) and of a game whose history was never replayed (a copy of a played game
   made without saving: ``to_json`` replays it all);
4. a baseline measured in the same run: ``Game.new`` (a fresh deal). Each time is printed with
   its ratio to it ("= X fresh deals"), which compares across machines better than ms.

The longest load a save within the bounds can ask for is about ``MAX_HISTORY`` steps; the last
line scales the measured time per step up to it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ttrlib import Game  # noqa: E402
from ttrlib.bots import RandomBot, play  # noqa: E402
from ttrlib.save import MAX_HISTORY, MAX_TEXT  # noqa: E402


def timed(f, repeat: int = 3) -> float:
    """The best of ``repeat`` runs of ``f()``, in seconds (the least disturbed by other work)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best


def first_save(players: int, seed: int, history) -> float:
    """Seconds of the first ``to_json`` of the game ``history`` makes (it replays it all)."""
    game = Game.new(players=players, seed=seed)
    for action in history:
        game.apply(action)
    start = time.perf_counter()
    game.to_json()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    deal = statistics.median(timed(lambda i=i: Game.new(players=6, seed=i), 5) for i in range(20))
    print(f"baseline: Game.new (6 players) {deal * 1e3:.3f} ms")
    per_step = []
    for players in (4, 6):
        sizes, steps, loads, saves, fresh = [], [], [], [], []
        for i in range(args.games):
            seed = args.seed + i
            game = Game.new(players=players, seed=seed)
            play(game, [RandomBot(seed=seed * 10 + s) for s in range(players)])
            text = game.to_json()
            sizes.append(len(text.encode("utf-8")))
            steps.append(len(game.history))
            loads.append(timed(lambda text=text: Game.from_json(text)))
            loaded = Game.from_json(text)
            saves.append(timed(loaded.to_json))
            fresh.append(min(first_save(players, seed, game.history) for _ in range(3)))
            per_step.append(loads[-1] / steps[-1])
        print(f"{players} players, {args.games} random games to the end:")
        print(f"  save size: median {statistics.median(sizes) / 1e3:.1f} KB, largest "
              f"{max(sizes) / 1e3:.1f} KB ({max(sizes) / MAX_TEXT:.1%} of MAX_TEXT); steps: "
              f"median {statistics.median(steps):.0f}, most {max(steps)}")
        for what, times in (("from_json (replay)", loads), ("to_json, loaded game", saves),
                            ("to_json, never replayed", fresh)):
            print(f"  {what}: median {statistics.median(times) * 1e3:.1f} ms "
                  f"(= {statistics.median(times) / deal:.0f} fresh deals), slowest "
                  f"{max(times) * 1e3:.1f} ms")
    worst = max(per_step) * MAX_HISTORY
    print(f"a save of MAX_HISTORY = {MAX_HISTORY} steps would load in about {worst:.2f} s "
          f"(the slowest time per step measured, {max(per_step) * 1e6:.0f} us, scaled up)")


if __name__ == "__main__":
    main()
