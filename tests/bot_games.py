"""Seeded bot games for the tests (issue 31): the loop that many test files wrote out for
themselves, once. A test that needs a whole game as its input (to narrate, save, refuse moves
in) takes ``finished_bot_game``: played once per test process and copied for each caller, so
several tests of a file (or of a worker) do not play the same game again."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache

from ttrlib.bots import RandomBot
from ttrlib.game import Game


def bot_steps(players: int, seed: int, *, bot: type = RandomBot,
              bot_seeds: Sequence[int] | None = None) -> Iterator[Game]:
    """The game before each move of a seeded bot game, and once more when it is over. Seat
    ``s`` plays ``bot(seed=seed * 10 + s)`` unless ``bot_seeds`` are given."""
    game = Game.new(players=players, seed=seed)
    seeds = [seed * 10 + s for s in range(players)] if bot_seeds is None else bot_seeds
    bots = [bot(seed=s) for s in seeds]
    while not game.is_over:
        yield game
        seat = game.to_move
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    yield game


def play_bot_game(players: int, seed: int, until: int | Callable[[Game], bool] | None = None,
                  *, bot: type = RandomBot, bot_seeds: Sequence[int] | None = None) -> Game:
    """A seeded bot game played to its end, or until ``until`` moves (an ``int``) or until
    ``until(game)`` holds, whichever comes first."""
    for moves, game in enumerate(bot_steps(players, seed, bot=bot, bot_seeds=bot_seeds)):
        if until is not None and (moves >= until if isinstance(until, int) else until(game)):
            break
    return game


@lru_cache(maxsize=None)
def _finished(players: int, seed: int, bot: type, bot_seeds: tuple[int, ...] | None) -> Game:
    return play_bot_game(players, seed, bot=bot, bot_seeds=bot_seeds)


def finished_bot_game(players: int, seed: int, *, bot: type = RandomBot,
                      bot_seeds: Sequence[int] | None = None) -> Game:
    """``play_bot_game`` to the end, played once per process: each caller gets its own copy."""
    seeds = None if bot_seeds is None else tuple(bot_seeds)
    return _finished(players, seed, bot, seeds).copy()
