"""How long a short game lasts (issue 32, item 4; the C3 short-game policy): turns and actions
of whole bot games for each number of trains per player, and the minutes they would take a
class at 15-30 s a turn (what issue 32 measured with four learners: 128 turns in 32-64 min).

    .venv/bin/python benchmarks/bench_short_game.py [games per row]

The bots are the class server's table bots (GreedyBot); seeds 0..n-1 (plain seeds: research).
"""

from __future__ import annotations

import statistics
import sys

from ttrlib import Game
from ttrlib.bots import GreedyBot

SECONDS_PER_TURN = (15, 30)  # issue 32: a turn of a learner at a table


def play(players: int, seed: int, trains: int) -> Game:
    game = Game.new(players=players, seed=seed, trains=trains)
    bots = [GreedyBot(seed=[seed, s]) for s in range(players)]
    while not game.is_over:
        game.apply(bots[game.to_move].choose(game.view(game.to_move), game.legal_actions()))
    return game


def main(n: int = 20) -> None:
    print("players trains  turns(median, min-max)  actions(median)  minutes at 15-30 s a turn")
    for players in (4, 6):
        for trains in (27, 20, 17, 15, 13, 12, 10):
            games = [play(players, seed, trains) for seed in range(n)]
            turns = sorted(g.turns for g in games)
            med = statistics.median(turns)
            acts = statistics.median(len(g.history) for g in games)
            lo, hi = (med * s / 60 for s in SECONDS_PER_TURN)
            print(f"{players:7} {trains:6}  {med:5.0f} ({turns[0]}-{turns[-1]}){'':10}"
                  f"{acts:8.0f}          {lo:4.0f}-{hi:.0f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
