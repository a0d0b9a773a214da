"""Benchmark: bot games and lesson 07's tournaments, for one learner and for a class (issue 24).

Run:  .venv/bin/python benchmarks/bench_tournament.py [--quick] [--big 2000] [--class-sizes 1,4,30]

Every figure is printed with its ratio to a baseline measured in the same run (a fresh deal,
``Game.new``), so runs on busy and idle machines can be compared. What it measures:

1. games per CPU second (``time.process_time``, one core) of four RandomBots, four GreedyBots,
   and lesson 07's default pair (greedy against odds-aware), each also "in fresh deals"; the
   greedy and lesson games are also played by the bots of commit ``BEFORE`` (read with
   ``git show``, run on today's engine), so the bots' own gain is a ratio in the same run;
2. a ``--big``-game tournament (default 2,000) on a process pool over all cores, wall clock;
3. a class: 1, 4 and 30 learners (separate processes, each like a kernel: its own process pool,
   as the widget's Run button) pressing Run at the same moment, with the lesson's default
   number of games, (a) each with its own seed (the lesson's default: ``session_seed()``) and
   (b) all on the class's seed (``?seed=7``), sharing one computation through the result cache.
   Printed: the wall time until the last learner has a result, the CPU seconds of all learners
   together, and that CPU time divided by the cores (the wall time on an otherwise idle server).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ttrlib import Game, bots  # noqa: E402
from ttrlib.experiments import PRESETS, tournament  # noqa: E402
from ttrlib.widgets.tournament import DEFAULT_GAMES, DEFAULT_SWEEP_GAMES  # noqa: E402

BEFORE = "6ba2704"  # the bots before issue 24 (a network rebuilt and every path searched again)
LESSON = (PRESETS["greedy"], PRESETS["odds-aware"])  # the widget's default pickers
GOAL_RANDOM, GOAL_GREEDY = 300, 100  # issue 24: games per CPU second, one core
CLASS_GOAL_S = 10  # issue 24: every learner of a class of 30 has a result within 10 s


def old_bots() -> types.ModuleType | None:
    """``ttrlib/bots.py`` of commit BEFORE, as a module of today's package (None without git)."""
    try:
        source = subprocess.run(["git", "show", f"{BEFORE}:ttrlib/bots.py"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    module = types.ModuleType("ttrlib.bots_before")
    module.__package__ = "ttrlib"
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(source, f"{BEFORE}:ttrlib/bots.py", "exec"), module.__dict__)
    return module


def cpu(fn, *args) -> float:
    start = time.process_time()
    fn(*args)
    return time.process_time() - start


def deals(n: int) -> None:
    for i in range(n):
        Game.new(players=4, seed=i)


def random_games(n: int, module=bots) -> None:
    for i in range(n):
        module.play(Game.new(players=4, seed=i), [module.RandomBot(seed=i * 8 + s)
                                                  for s in range(4)])


def greedy_games(n: int, module=bots, pair=None) -> None:
    for i in range(n):
        team = [None, None] if pair is None else pair
        module.play(Game.new(players=4, seed=i), [module.GreedyBot(seed=i * 8 + s,
                                                                   strategy=team[s // 2])
                                                  for s in range(4)])


def best(fn, *args, repeats: int) -> float:
    return min(cpu(fn, *args) for _ in range(repeats))


# --- a class of learners ---------------------------------------------------------------------
def _learner(start, seed: int, games: int, folder: str, out) -> None:
    start.wait()
    tournament(list(LESSON), games=games, seed=seed, progress=False, cache=folder)
    out.put(time.time())


def classroom(learners: int, games: int, shared_seed: bool) -> tuple[float, float, float]:
    """(wall seconds to the last result, median wall seconds, CPU seconds of all learners)."""
    ctx = multiprocessing.get_context("fork")
    start, out = ctx.Event(), ctx.Queue()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as folder:
        procs = [ctx.Process(target=_learner, args=(start, 7 if shared_seed else 1000 + k,
                                                    games, folder, out))
                 for k in range(learners)]
        for p in procs:
            p.start()
        time.sleep(0.5)  # every learner is waiting at the Run button
        t0 = time.time()
        start.set()
        ends = sorted(out.get() - t0 for _ in procs)
        for p in procs:
            p.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return ends[-1], ends[len(ends) // 2], used


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per speed figure (30)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats, the best kept (3)")
    parser.add_argument("--big", type=int, default=2000, help="the big tournament (2000; 0: none)")
    parser.add_argument("--class-sizes", default="1,4,30", help="learners at once (1,4,30)")
    parser.add_argument("--lesson-games", type=int, default=DEFAULT_GAMES,
                        help=f"games per learner's tournament (the widget's {DEFAULT_GAMES})")
    parser.add_argument("--quick", action="store_true", help="fewer games, one repeat")
    args = parser.parse_args(argv)
    n, r = (10, 1) if args.quick else (args.games, args.repeats)
    cores = os.cpu_count() or 1

    greedy_games(2)  # warm-up: imports, the board, the shared first paths
    base = best(deals, 50 * n, repeats=r) / (50 * n)  # CPU seconds of one fresh deal
    print(f"bench_tournament: python {sys.version.split()[0]}, {cores} cores, load average "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"  baseline: a fresh deal takes {1e3 * base:.3f} ms CPU ({1 / base:,.0f} per CPU s)")

    def line(what: str, seconds: float, goal: float | None = None) -> float:
        per_s = n / seconds
        met = "" if goal is None else \
            f"; goal {goal}/s = {1 / (goal * base):,.0f} deals: {'MET' if per_s >= goal else 'NOT MET'}"
        print(f"  {what:<42}: {per_s:7.1f} games per CPU s = {seconds / n / base:7.0f} fresh "
              f"deals a game{met}")
        return seconds
    line("four RandomBots", best(random_games, n, repeats=r), GOAL_RANDOM)
    old = old_bots()
    if old is not None:
        greedy_games(2, old)
    # Today's bots and those of BEFORE take turns, so that both meet the same load.
    runs: dict[str, list[float]] = {}
    for _ in range(r):
        for name, module, pair in (("now", bots, None), ("lesson", bots, [*LESSON]),
                                   ("then", old, None), ("then lesson", old, [*LESSON])):
            if module is not None:
                runs.setdefault(name, []).append(cpu(greedy_games, n, module, pair))
    now = line("four GreedyBots", min(runs["now"]), GOAL_GREEDY)
    lesson = line("lesson 07 pair (greedy v odds-aware)", min(runs["lesson"]))
    if old is None:
        print(f"  (no git: the bots of {BEFORE} were not measured)")
    else:
        then = line(f"four GreedyBots, bots of {BEFORE}", min(runs["then"]))
        then_lesson = line(f"lesson 07 pair, bots of {BEFORE}", min(runs["then lesson"]))
        print(f"  the bots' gain, same run: greedy games {then / now:.2f} x faster, lesson 07 "
              f"games {then_lesson / lesson:.2f} x faster")

    if args.big:
        t0 = time.perf_counter()
        tournament(list(LESSON), games=args.big, seed=1, progress=False)
        wall = time.perf_counter() - t0
        print(f"  a {args.big:,}-game tournament on {cores} cores: {wall:.1f} s wall "
              f"({args.big / wall:.1f} games/s; {wall / args.big / base:,.0f} fresh deals a "
              f"game of wall time)")

    g = args.lesson_games
    print(f"\n  lesson 07 for a class: {g} games a tournament (sweep: {DEFAULT_SWEEP_GAMES} "
          f"x 5), every learner pressing Run at once; goal: all within {CLASS_GOAL_S} s")
    print(f"  {'learners':>8} {'seeds':<10} {'last (s)':>9} {'median':>7} {'CPU s':>7} "
          f"{'CPU s/cores':>11}  {'in deals':>9}")
    for learners in (int(x) for x in args.class_sizes.split(",")):
        for shared_seed in (False, True):
            last, median, used = classroom(learners, g, shared_seed)
            print(f"  {learners:>8} {'class' if shared_seed else 'own':<10} {last:9.1f} "
                  f"{median:7.1f} {used:7.1f} {used / cores:11.1f}  {used / base:9,.0f}")
    print(f"  (own: each learner's seed, the lesson's default; class: ?seed=7, one computation "
          f"shared through the cache. 'CPU s/cores' is the wall time on an idle {cores}-core "
          "server; the wall times here include the other work on this machine)")


if __name__ == "__main__":
    main()
