"""Benchmark: the CPU of one "What would the coach do?" (issue 34: within 3 s).

Run:  .venv/bin/python benchmarks/bench_coach_hint.py

Four greedy-bot games of 4 players (seeds 0-3); A1 asks the hint at its setup keep and at every
seventh turn, with the bot's own move as the move it is about to make; CPU by
``time.process_time`` in this one process, by phase (median, max), with the load average.
Baseline, same run: one whole game of four greedy bots, and the hint's times as its multiples.

Measured 7 Dec 2026 (load 1.6-1.9, a CI run on the other core): with 6 deals of up to 5 moves,
a turn's hint median 1.85 s, max 3.26 s (over the 3 s goal); with 5 deals of up to 4 moves
(``HINT_BUDGET``, now): median 1.22 s, max 2.02 s; a setup keep (3 keeps, 4 deals) median
1.7 s, max 2.2-2.7 s.
"""

import os
import time

from ttrlib import Game
from ttrlib.bots import GreedyBot, decide
from ttrlib.game import Phase
from ttrlib.widgets.coach_hint import hint_text

t0 = time.process_time()
g = Game.new(players=4, seed=99)
gb = [GreedyBot(seed=s) for s in range(4)]
while not g.is_over:
    g.apply(decide(g, gb[g.to_move]))
baseline = time.process_time() - t0
print(f"baseline: one greedy 4-player game {baseline:.2f} s CPU")
times = {}
for seed in range(4):
    game = Game.new(players=4, seed=seed)
    bots = [GreedyBot(seed=s) for s in range(4)]
    asked = 0
    while not game.is_over and asked < 6:
        setup = game.phase is Phase.SETUP_TICKETS
        if game.to_move == 0 and (setup or (game.phase is Phase.TURN and game.turns % 7 == 0)):
            view, legal = game.view(0), game.legal_actions()
            intended = decide(game, bots[0])
            t = time.process_time()
            hint_text(view, legal, intended, seed=0)
            dt = time.process_time() - t
            times.setdefault(game.phase.value, []).append(dt)
            asked += 1
        game.apply(decide(game, bots[game.to_move]))
for k, v in times.items():
    v.sort()
    print(f"{k}: {len(v)} hints, median {v[len(v) // 2]:.2f} s ({v[len(v) // 2] / baseline:.1f}x "
          f"the baseline), max {v[-1]:.2f} s ({v[-1] / baseline:.1f}x)")
print("load", os.getloadavg())
