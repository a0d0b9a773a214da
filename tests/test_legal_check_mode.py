"""Issue 24 item 1: the check mode of the legal-action caches (``ttrlib.rules.check_mode``).

The open routes kept per seat are updated from each claim (K3: the claimed route and its
parallel tracks) rather than rebuilt. In the tests the check mode rebuilds every kept answer and
compares; these tests prove the mode is on and that a wrong update is caught, not passed on.
The draw lists are kept per face-up row and the ticket choices per offer and per tickets held;
the same mode compares them, and breaking their keys on purpose goes red too."""

from __future__ import annotations

from functools import lru_cache

import pytest

from ttrlib import Game, Phase
from ttrlib.bots import RandomBot, play
from ttrlib.rules import check_mode, claims, draws, tickets


def _play(seed: int, players: int = 4) -> Game:
    g = Game.new(players=players, seed=seed)
    play(g, [RandomBot(seed=seed * 10 + s) for s in range(players)])
    return g


def test_the_check_mode_is_on_in_the_tests():
    assert check_mode.CHECK is True


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
        monkeypatch.setattr(check_mode, "CHECK", check)
        g = Game.new(players=4, seed=9)
        bots = [RandomBot(seed=90 + s) for s in range(4)]
        lists = []
        while not g.is_over:
            if g.phase is Phase.TURN:
                lists.append(g.legal_claims())
            g.apply(bots[g.to_move].choose(None, g.legal_actions()))
        seen.append(lists)
    assert seen[0] == seen[1] and len(seen[0]) > 50


def test_D1_D3_draw_lists_kept_for_a_stale_row_are_caught(monkeypatch):
    """Break the kept draw lists on purpose: an entry is taken as still valid whatever the row
    became (a face-up card taken, a refill, a C5 reset). The comparison with the lists rebuilt
    from the row must go red in the first game whose row changes between two draw lists."""
    monkeypatch.setattr(draws, "unchanged", lambda entry, state: True)
    with pytest.raises(AssertionError, match="check mode: the kept draw lists differ"):
        _play(1)


def test_D3_the_kept_second_draws_leave_out_a_face_up_locomotive():
    """By hand: a row with a locomotive in slot 2 and a deck to draw from offers the deck and
    all five slots first, then the deck and the four other slots second (D3)."""
    from ttrlib import actions as act
    from ttrlib.cards import Color

    g = Game.new(players=4, seed=2)
    s = g.state
    s.face_up = [Color.RED, Color.BLUE, Color.LOCOMOTIVE, Color.RED, Color.GREEN]
    assert s.draw_pile
    assert draws.legal_draw_first(s) == (act.DrawCard("deck"), *(act.DrawCard(i) for i in range(5)))
    assert draws.legal_draw_second(s) == (act.DrawCard("deck"), act.DrawCard(0), act.DrawCard(1),
                                          act.DrawCard(3), act.DrawCard(4))
    s.face_up[1] = None  # changed in place: the kept entry must not be served
    assert draws.legal_draw_first(s) == (act.DrawCard("deck"), act.DrawCard(0), act.DrawCard(2),
                                         act.DrawCard(3), act.DrawCard(4))


def test_T4_share_choices_kept_under_a_wrong_key_are_caught(monkeypatch):
    """Break the ticket cache on purpose: share choices kept per number of tickets (not per
    tickets) answer a seat with the choices of another seat's tickets; the check mode must say
    so within a few random games."""
    real = tickets.share_choices
    by_count: dict = {}

    @lru_cache(maxsize=None)
    def wrong(mine):
        return by_count.setdefault(len(mine), real(mine))

    wrong.__wrapped__ = real.__wrapped__  # the rebuild still uses the true enumeration
    monkeypatch.setattr(tickets, "share_choices", wrong)
    with pytest.raises(AssertionError, match="check mode: the kept share choices differ"):
        for seed in range(1, 6):
            _play(seed)
