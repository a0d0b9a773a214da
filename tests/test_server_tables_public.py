"""The board shows nothing any seat holds privately (issue 19, item 4; rule I1).

- The public fields (``ttrlib.plain.PUBLIC_FIELDS``) are the same in every seat's view at every
  step of whole games: nothing in them belongs to one seat. Every other field of a view differs
  between seats somewhere in those games (so the list leaves out only what is private).
- The board page and the public API body stay the same, at many steps of a game (until the
  end, when the score sheets show every ticket, E3), when
  everything some seat cannot see is dealt anew (``Game.resample_hidden`` from two seats of two
  teams: every hand, cardholder, ticket and the draw pile's order changes), while the seats'
  own bodies do change (the check has teeth).
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from ttrlib import Game, PlayerView
from ttrlib.bots import GreedyBot, RandomBot
from ttrlib.plain import PUBLIC_FIELDS, public_to_plain, view_to_plain
from ttrlib.server.board_page import PublicView
from ttrlib.server.table_pages import board_frame
from ttrlib.server.table_store import Table, public_snapshot, seat_body


def games():
    """(name, players, seed, bots): a greedy and a random game of 4, a greedy game of 6."""
    yield "greedy4", 4, 3, [GreedyBot(seed=s) for s in range(4)]
    yield "random4", 4, 1, [RandomBot(seed=s) for s in range(4)]
    yield "greedy6", 6, 4, [GreedyBot(seed=s) for s in range(6)]


def steps(players, seed, bots):
    game = Game.new(players=players, seed=seed)
    yield game
    while not game.is_over:
        s = game.to_move
        game.apply(bots[s].choose(game.view(s), game.legal_actions()))
        yield game


def test_the_public_view_is_exactly_the_public_fields():
    assert tuple(f.name for f in dataclasses.fields(PublicView)) == PUBLIC_FIELDS


@pytest.mark.parametrize("name, players, seed, bots", list(games()), ids=lambda v: v if isinstance(v, str) else (str(v) if isinstance(v, int) else "bots"))
def test_public_fields_are_alike_in_every_seats_view_and_the_others_are_not(name, players,
                                                                            seed, bots):
    private = {f.name for f in dataclasses.fields(PlayerView)} - set(PUBLIC_FIELDS) - {
        "board", "events", "seat"}
    differed = set()
    for game in steps(players, seed, bots):
        views = [view_to_plain(game.view(s)) for s in range(players)]
        public = [public_to_plain(game.view(s)) for s in range(players)]
        assert all(p == public[0] for p in public), f"a public field differs at turn {game.turns}"
        differed |= {f for f in private if any(v[f] != views[0][f] for v in views)}
    if name == "greedy6":  # one long game shows every private field differing somewhere
        assert differed == private


def _table(game: Game) -> Table:
    return Table("t", game.players, 0, game, ["k"] * game.players, [None] * game.players)


def test_the_board_and_the_public_body_depend_only_on_the_public_view():
    bots = [GreedyBot(seed=s) for s in range(4)]
    rng = np.random.default_rng(0)
    checked = seats_changed = 0
    for i, game in enumerate(steps(4, 5, bots)):
        if game.is_over:  # the score sheets show every ticket: the game is over (E3)
            break
        if i % 7 and game.tunnel is None:
            continue  # every 7th step and every tunnel
        real = _table(game)
        page, body = board_frame(real)["html"], json.dumps(public_snapshot(real))
        for seat in (0, 2):  # hidden from A1: the others' hands...; from B1: A1's too
            other = _table(game.resample_hidden(seat, rng))
            assert board_frame(other)["html"] == page, f"the board changed at step {i}"
            assert json.dumps(public_snapshot(other)) == body, f"the public body changed at {i}"
            hidden = 1 if seat == 0 else 0
            seats_changed += seat_body(other, hidden) != seat_body(real, hidden)
        checked += 1
    assert checked > 20 and seats_changed > checked  # the deals really differed for the seats
