"""Issue 24 item 1: the check mode of the legal-action caches (``ttrlib.rules.claims.CHECK``).

The open routes kept per seat are updated from each claim (K3: the claimed route and its
parallel tracks) rather than rebuilt. In the tests the check mode rebuilds every kept answer and
compares; these tests prove the mode is on and that a wrong update is caught, not passed on."""

from __future__ import annotations

import pytest

from ttrlib import Game, Phase
from ttrlib.bots import RandomBot, play
from ttrlib.rules import claims


def _play(seed: int, players: int = 4) -> Game:
    g = Game.new(players=players, seed=seed)
    play(g, [RandomBot(seed=seed * 10 + s) for s in range(players)])
    return g


def test_the_check_mode_is_on_in_the_tests():
    assert claims.CHECK is True


@pytest.mark.parametrize("players,seed", [(4, 3), (6, 4)])
def test_whole_games_pass_the_check_at_every_step(players, seed):
    g = _play(seed, players)
    assert g.is_over and len(g.state.claimed) > 10  # many claims, so many updates were checked


def test_K3_an_update_that_forgets_the_parallel_tracks_is_caught(monkeypatch):
    """Break the update on purpose: a claim closes only itself, not its sibling track (with 4
    players a double route closes once one track is taken, K3). The kept lists then still offer
    the sibling, and the check mode must say so."""
    monkeypatch.setattr(claims, "closed_by", lambda board, new: set(new))
    with pytest.raises(AssertionError, match="check mode: the kept open routes differ"):
        for seed in range(1, 6):  # a double route is claimed in each of these games
            _play(seed)


def test_a_wrong_kept_list_is_caught_by_the_legal_claims_comparison(monkeypatch):
    """Break the answer itself (one claim dropped from a cached route's list): the comparison
    with the rebuilt claims goes red at the first turn that offers that route."""
    real = claims._route_claims

    def drop_last(route_id, n, keys):
        return real(route_id, n, keys)[:-1]

    monkeypatch.setattr(claims, "_route_claims", drop_last)
    g = Game.new(players=4, seed=7)
    bots = [RandomBot(seed=70 + s) for s in range(4)]
    with pytest.raises(AssertionError, match="check mode: the kept legal_claims differ"):
        while not g.is_over:
            g.apply(bots[g.to_move].choose(None, g.legal_actions()))


def test_without_the_check_mode_the_answers_are_the_same(monkeypatch):
    """The check only compares: with it off, every turn lists the same claims."""
    seen = []
    for check in (True, False):
        monkeypatch.setattr(claims, "CHECK", check)
        g = Game.new(players=4, seed=9)
        bots = [RandomBot(seed=90 + s) for s in range(4)]
        lists = []
        while not g.is_over:
            if g.phase is Phase.TURN:
                lists.append(g.legal_claims())
            g.apply(bots[g.to_move].choose(None, g.legal_actions()))
        seen.append(lists)
    assert seen[0] == seen[1] and len(seen[0]) > 50
