"""CoachBot and the game review (issue 34) on a last turn whose answer is known exactly.

The position is ``test_coach``'s: both teams at E1's trigger, seat 0 to make the game's last
action. With 4 green cards and none to spare the tunnel Kabul - Kashgar wins exactly when its
five revealed cards hold no green and no locomotive (a hypergeometric chance counted here with
``math.comb``); the claim Harbin - Peking wins outright (the scores of a copy say so).
"""

from __future__ import annotations

import math

import pytest
from test_coach import TUNNEL, _final_turn, _unseen

from ttrlib import Game
from ttrlib import actions as act
from ttrlib.bots import GreedyBot, decide
from ttrlib.cards import CardCounts, Color
from ttrlib.coach import CoachBot, CoachStrategy, evaluate, review
from ttrlib.coach.bot import FAST_PLAYOUTS
from ttrlib.coach.evaluate import playouts_per_deal
from ttrlib.coach.playout import DEFAULT_POLICY
from ttrlib.experiments import PRESETS, tournament

CLAIM = act.Claim(TUNNEL, hand=CardCounts(green=4))
SURE = act.Claim("harbin-peking-2", hand=CardCounts(green=4))


def _exact_free_chance(view) -> float:
    unseen = _unseen(view)
    n, k = len(unseen), unseen[Color.GREEN] + unseen[Color.LOCOMOTIVE]
    return math.comb(n - k, 5) / math.comb(n, 5)  # no matching card among the five (U2)


def test_coach_tries_the_tunnel_the_preset_declines_when_drawing_loses():
    game = _final_turn(CardCounts(green=4))
    view, legal = game.view(0), [act.DrawCard("deck"), CLAIM]
    p = _exact_free_chance(view)
    assert 0 < p < DEFAULT_POLICY.tunnel_threshold  # the careful tunneller will not try it
    assert GreedyBot(seed=0, strategy=DEFAULT_POLICY).choose(view, legal) == act.DrawCard("deck")
    bot = CoachBot(seed=1)
    assert bot.choose(view, legal) == CLAIM
    assert bot.stats.overruled == 1 and bot.stats.decisions == {"endgame": 1}


def test_review_prices_a_tunnel_tried_against_a_sure_claim():
    game = _final_turn(CardCounts(green=4))
    view = game.view(0)
    p = _exact_free_chance(view)
    copy = game.copy()
    copy.apply(SURE)
    scores = {s.team: s for s in copy.scores()}
    assert scores[0].total > scores[1].total  # the sure claim wins
    game.apply(CLAIM)
    bots = [GreedyBot(seed=s) for s in range(4)]
    while not game.is_over:
        game.apply(decide(game, bots[game.to_move]))
    actions = [s for s in game.history if isinstance(s, (act.Claim, act.Withdraw, act.PayTunnel,
                                                         act.DrawCard, act.PlaceCard))]
    calls = []
    r = review(game, seed=3, budget=2, progress=lambda done, total: calls.append((done, total)))
    assert len(r.entries) == len(actions) == len(game.history)
    assert calls[-1] == (len(actions), len(actions)) and len(calls) == len(actions)
    tried = r.entries[12]
    assert tried.action == CLAIM and tried.seat == 0 and tried.judged
    assert tried.best == SURE
    assert abs(tried.cost - (1 - p)) < 1e-9
    assert abs(float(tried.p_can_pay) - p) < 1e-12 and tried.spare == 0
    assert f"exact chance to pay was {p:.0%}" in tried.words
    assert "Kabul - Kashgar" in tried.words and "no card to spare" in tried.words
    assert r.walkthrough(0)[0] == tried.words
    again = review(game, seed=3, budget=2)
    assert again.entries == r.entries  # reproducible for a seed


def test_tournament_takes_the_coach():
    result = tournament([CoachStrategy(budget=1, endgame_budget=1), PRESETS["careful tunneller"]],
                        games=2, seed=4, executor="serial", progress=False)
    assert [row.games for row in result.rows] == [2, 2]
    assert result.rows[0].strategy.name == "coach"


# --- the work of a decision is bounded (issue 34: at most 2 s of CPU a decision) ---------------
# counted in playouts, not timed: a setup keep plays whole games out (0.12-0.25 s of CPU each),
# a later keep or an end-game move only the rest of the game (benchmarks/bench_coach.py times
# them). Raising a cap past these numbers makes this test fail: time the bench again first.
CAPS = {"setup_tickets": 30, "choose_tickets": 30, "turn": 64}  # the default coach's
FAST = {"setup_tickets": 6, "choose_tickets": 30, "turn": 48}  # the coach held to 2 s


def _counting(monkeypatch) -> list:
    """Every playout of the coach counted (and faked: a tie, so the preset's move stands and
    a whole game of decisions costs little)."""
    import importlib

    from ttrlib.coach.playout import Outcome

    calls: list = []
    module = importlib.import_module("ttrlib.coach.evaluate")  # the package's name is the function
    monkeypatch.setattr(module, "play_out", lambda *a, **k: calls.append(1) or Outcome(False, 0))
    return calls


@pytest.mark.parametrize("fast", [False, True])
def test_no_decision_plays_out_more_than_its_cap(monkeypatch, fast):
    calls = _counting(monkeypatch)
    caps = FAST if fast else CAPS
    for seed in (34, 35):
        game = Game.new(players=4, seed=seed)
        bots = [CoachBot(seed=[seed, s], max_playouts=FAST_PLAYOUTS if fast else None)
                for s in range(4)]
        seen: dict = {}
        while not game.is_over:
            bot = bots[game.to_move]
            phase = game.view(game.to_move).phase.value
            before = len(calls)
            game.apply(decide(game, bot))
            n = len(calls) - before
            assert n <= caps.get(phase, 0), (phase, n)
            seen[phase] = max(seen.get(phase, 0), n)
        assert seen["setup_tickets"] == caps["setup_tickets"]  # 5 x 6 or 2 x 3
        assert seen["turn"] > 0  # the end game was played out
        counted = [n for b in bots for n in b.stats.playout_counts]
        assert sum(counted) == len(calls)  # what the bench reports is what was played
        calls.clear()


def test_the_cpu_deadline_stops_sampling_between_playouts(monkeypatch):
    """A fake clock (each reading 0.1 s later) stands for a slow machine: the deadline stops
    the sampling at a deal's end, every action keeps the same deals, and ``stats`` says so."""
    import time as _time

    calls = _counting(monkeypatch)
    clock = iter(0.1 * i for i in range(10_000))
    monkeypatch.setattr(_time, "process_time", lambda: next(clock))
    game = Game.new(players=4, seed=34)
    bot = CoachBot(seed=1, max_playouts=FAST_PLAYOUTS, cpu_limit=2.0)
    bot.choose(game.view(game.to_move), game.legal_actions())
    assert bot.stats.stopped == 1 and bot.stats.playout_counts == [len(calls)]
    assert 2 <= len(calls) < FAST["setup_tickets"]  # a deal or more, not all three


def test_a_deadline_not_reached_changes_nothing():
    game = _final_turn(CardCounts(green=4))
    view, legal = game.view(0), [act.DrawCard("deck"), CLAIM, SURE]
    plain = evaluate(view, legal, seed=5, budget=3)
    timed = evaluate(view, legal, seed=5, budget=3, deadline=float("inf"))
    assert timed.estimates == plain.estimates and not timed.stopped
    assert timed.deals == 3 and timed.playouts == plain.playouts
    capped = evaluate(view, legal, seed=5, budget=3, max_playouts=playouts_per_deal(view, legal))
    assert capped.deals == 1


def test_a_playout_past_its_deadline_is_abandoned():
    from ttrlib.coach.playout import play_out, policy_bots

    game = Game.new(players=4, seed=34)
    for _ in range(4):  # past the setup keeps
        game.apply(decide(game, GreedyBot(seed=0)))
    state = game.state.copy()
    assert play_out(state, 0, policy_bots(4, 1), deadline=-1.0) is None  # long passed
    assert state.phase.value == "turn"  # stopped at once, not played on
