"""Configurable strategies and tournaments (ttrlib.bots.Strategy, ttrlib.experiments).

Expected values are counted by hand or computed by formulas written here, apart from the code.
"""

from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from fractions import Fraction

import pytest

from ttrlib import CardCounts, Game, Phase
from ttrlib import actions as act
from ttrlib.bots import GreedyBot, Strategy
from ttrlib.experiments import GameResult, _rows, tournament

ROW = ["white", "purple", "orange", "black", "yellow"]


@pytest.fixture(autouse=True)
def own_cache_folder(tmp_path, monkeypatch):
    """The widgets share their results through a cache folder: each test gets its own, so that
    no test reads another's result (or the user's)."""
    monkeypatch.setenv("TTR_CACHE_DIR", str(tmp_path / "cache"))


def _hands(mine: CardCounts) -> list[CardCounts]:
    return [mine, CardCounts(), CardCounts(), CardCounts()]


def _locomotive_drawn(strategy: Strategy):
    game = Game.from_position(hands=_hands(CardCounts(red=2)), face_up=ROW,
                              draw_pile=["locomotive", "red", "blue"], rest_to=3)
    game.apply(act.DrawCard("deck"))
    assert game.phase is Phase.PLACE_CARD
    view = game.view(0)
    return GreedyBot(seed=0, strategy=strategy).choose(view, game.legal_actions())


def test_locomotives_kept_or_shared():
    assert _locomotive_drawn(Strategy()) == act.PlaceCard("hand")  # the original GreedyBot
    assert _locomotive_drawn(Strategy(locomotives="share")) == act.PlaceCard("cardholder")


def test_first_card_always_to_one_place():
    game = Game.from_position(hands=_hands(CardCounts(red=2)), face_up=ROW,
                              draw_pile=["blue", "red", "green"], rest_to=3)
    game.apply(act.DrawCard("deck"))
    view, legal = game.view(0), game.legal_actions()
    for where in ("hand", "cardholder"):
        bot = GreedyBot(seed=0, strategy=Strategy(first_card=where))
        assert bot.choose(view, legal) == act.PlaceCard(where)


def test_tunnel_threshold_uses_the_exact_chance_to_pay():
    # A1 holds exactly 3 red for the red 3-length tunnel that reveals 5 (Kathmandu - Lhasa):
    # no spare card, so it can pay only if none of the 5 revealed cards match (U2). From A1's
    # seat the unseen cards are 110 - 3 (hand) - 5 (face-up, no red, no locomotive) = 102, of
    # which 12 - 3 = 9 red and 14 locomotives match: K = 23.
    game = Game.from_position(hands=_hands(CardCounts(red=3)), face_up=ROW,
                              draw_pile=["blue"] * 10, rest_to=3)
    view, legal = game.view(0), game.legal_actions()
    p = Fraction(math.comb(102 - 23, 5), math.comb(102, 5))
    tunnel = [c for c in legal if isinstance(c, act.Claim) and c.route == "kathmandu-lhasa-1"]
    assert tunnel, "the position must allow the tunnel claim"

    def kept(threshold):
        bot = GreedyBot(seed=0, strategy=Strategy(tunnel_threshold=threshold))
        return [c for c in bot._tunnel_filter(view, tunnel)]

    assert kept(float(p) - 1e-9) == tunnel
    assert kept(float(p) + 1e-9) == []
    assert kept(None) == tunnel


def test_bad_strategy_settings_are_refused():
    with pytest.raises(ValueError, match="first_card"):
        Strategy(first_card="pocket")
    with pytest.raises(ValueError, match="tunnel_threshold"):
        Strategy(tunnel_threshold=1.5)


def test_share_tickets_early():
    game = Game.from_position(hands=_hands(CardCounts(red=2)), face_up=ROW, draw_pile=["blue"] * 10,
                              rest_to=3, tickets=[["T01", "T02"], [], [], []],
                              team_tickets=[[], []])
    view, legal = game.view(0), game.legal_actions()
    board = game.board
    best = max(["T01", "T02"], key=lambda t: (board.ticket(t).points, t))
    bot = GreedyBot(seed=0, strategy=Strategy(share_tickets="early"))
    assert bot.choose(view, legal) == act.ShareTickets([best])
    assert not isinstance(GreedyBot(seed=0).choose(view, legal), act.ShareTickets)


def _wilson(k: int, n: int, z: float = 1.959963984540054):
    centre = (k + z * z / 2) / (n + z * z)
    half = z / (n + z * z) * math.sqrt(k * (n - k) / n + z * z / 4)
    return centre - half, centre + half


def test_table_counts_wins_points_margins_and_wilson_intervals():
    # Four hand-made games between strategies 0 and 1 (team totals; rank 1 = winner).
    results = [GameResult(0, (0, 1), (100, 80), (1, 2)),
               GameResult(1, (1, 0), (90, 95), (2, 1)),
               GameResult(2, (0, 1), (70, 70), (1, 1)),   # a shared first place
               GameResult(3, (1, 0), (120, 60), (1, 2))]
    rows = _rows([Strategy("a"), Strategy("b")], results)
    a, b = rows
    assert (a.games, a.wins, b.wins) == (4, 3, 2)
    assert a.mean_points == (100 + 95 + 70 + 60) / 4
    assert a.mean_margin == (20 + 5 + 0 - 60) / 4
    lo, hi = _wilson(3, 4)
    assert a.win_ci.low == pytest.approx(lo, abs=1e-9) and a.win_ci.high == pytest.approx(hi)


def test_lesson_07s_widgets_import_scipy_stats_when_the_lesson_starts():
    """The tables' intervals come from scipy.stats, whose import costs a kernel about 0.6 CPU s:
    the tournament widgets import it with the lesson's first cell, which the classroom app runs
    in its preheated kernels before any learner arrives, so that Run does not pay it."""
    import subprocess
    import sys

    code = ("import sys; import ttrlib.widgets.tournament; print('scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "True"


def test_seats_rotate_between_strategies():
    result = tournament([Strategy("a"), Strategy("b")], games=4, seed=3, executor="serial",
                        progress=False)
    assert [r.strategies for r in result.results] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    six = tournament([Strategy("a"), Strategy("b"), Strategy("c")], games=3, seed=3,
                     executor="serial", progress=False)
    assert [r.strategies for r in six.results] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert six.players == 6 and all(len(r.totals) == 3 for r in six.results)


def test_same_table_whatever_the_executor():
    teams = [Strategy("greedy"), Strategy("sharer", locomotives="share")]
    serial = tournament(teams, games=6, seed=11, executor="serial", progress=False)
    with ProcessPoolExecutor(max_workers=2) as pool:
        pooled = tournament(teams, games=6, seed=11, executor=pool, progress=False)
    with ThreadPoolExecutor(max_workers=2) as threads:
        threaded = tournament(teams, games=6, seed=11, executor=threads, progress=False)
    assert serial == pooled == threaded
    assert serial != tournament(teams, games=6, seed=12, executor="serial", progress=False)


def test_same_table_on_a_local_dask_cluster():
    distributed = pytest.importorskip("distributed")
    teams = [Strategy("greedy"), Strategy("odds", tunnel_threshold=0.5, odds_aware=True)]
    serial = tournament(teams, games=4, seed=5, executor="serial", progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, host="127.0.0.1") as cluster, \
            distributed.Client(cluster) as client:
        on_dask = tournament(teams, games=4, seed=5, executor=client.get_executor(),
                             progress=False)
    assert on_dask == serial


def test_tournament_widget_runs_and_reads_out_the_result():
    pytest.importorskip("ipywidgets")
    from ttrlib.widgets.tournament import StrategyTournament, ThresholdSweep

    box = StrategyTournament(seed=3, games=50, executor="serial")
    box.second.value = "greedy"
    assert box.run() is None and "different strategies" in box.message.value
    box.second.value = "team-first"
    result = box.run()
    assert result is not None and box.bar.value == 50
    assert f"of {result.rows[1].games:,} games" in box.message.value
    assert "<table>" in box.output.value
    box.close()
    sweep = ThresholdSweep(seed=3, games=50, executor="serial")
    sweep.THRESHOLDS = (None, 0.9)
    runs = sweep.run()
    assert len(runs) == 2 and "Best in this run" in sweep.message.value
    sweep.close()


def _wait(condition, what: str, limit_s: float = 600) -> None:
    """Poll ``condition`` (the games run in the widget's thread); a generous bound, not a
    speed check: it only keeps a broken stop from hanging the suite."""
    import time

    deadline = time.monotonic() + limit_s
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


@pytest.mark.parametrize("pool", ["serial", None])
def test_the_stop_button_stops_a_tournament_and_the_sweep(pool):
    """Run plays in a thread of the kernel, so that a click on Stop is heard; the games stop
    after the one being played (a process pool drops the games not yet started)."""
    pytest.importorskip("ipywidgets")
    from ttrlib.widgets.tournament import StrategyTournament, ThresholdSweep

    box = StrategyTournament(seed=3, games=2000, executor=pool)
    assert box.stop_button.layout.display == "none"
    box.run_button.click()
    _wait(lambda: box.bar.value > 0, "no game was played")
    assert box.running and box.run_button.disabled
    assert box.stop_button.layout.display != "none"
    box.stop_button.click()
    _wait(lambda: not box.running, "the tournament did not stop")
    assert box.result is None and "Stopped after" in box.message.value
    assert box.bar.value < 2000 and not box.run_button.disabled
    assert box.stop_button.layout.display == "none"
    box.close()

    sweep = ThresholdSweep(seed=3, games=2000, executor="serial")
    sweep.run_button.click()
    _wait(lambda: sweep.running, "the sweep did not start")
    sweep.stop_button.click()
    _wait(lambda: not sweep.running, "the sweep did not stop")
    assert sweep.results == [] and "Stopped after 0 of 5 tournaments" in sweep.message.value
    sweep.close()


@pytest.mark.parametrize("wins, verdict", [
    (40, "it did win more often"),      # 40 of 40: the whole interval is above one half
    (0, "it did lose more often"),      # 0 of 40: the whole interval is below one half
    (20, "do not show that either strategy is better"),  # 20 of 40: it contains one half
])
def test_summary_says_what_the_interval_shows(wins, verdict):
    from ttrlib.experiments import PRESETS, TournamentResult

    # game i: strategy 0 sits as team A in even games; it wins the first `wins` games
    results = tuple(GameResult(i, (i % 2, 1 - i % 2),
                               (100, 90) if (i < wins) == (i % 2 == 0) else (90, 100),
                               (1, 2) if (i < wins) == (i % 2 == 0) else (2, 1))
                    for i in range(40))
    rows = _rows([PRESETS["odds-aware"], PRESETS["greedy"]], results)
    words = TournamentResult(4, 0, results, tuple(rows)).summary(0)
    assert f"won {wins} of 40 games" in words and verdict in words
    assert "against greedy" in words


@pytest.mark.parametrize("wins, verdict", [
    (20, "it did lose more often"),  # 20 of 90 = 22%: the interval (14% to 32%) is below 1/3
    (30, "do not show that any strategy is better"),  # 30 of 90: the interval contains 33%
    (45, "it did win more often"),  # 45 of 90 = 50%: the interval (40% to 60%) is above 1/3
])
def test_summary_of_three_teams_judges_against_a_third_and_names_both_rivals(wins, verdict):
    """Issue 22, item 5: with three strategies the fair share is one third, and strategy 2 is
    set against strategies 0 and 1 (before, ``rows[1 - k]`` named strategy 2 against itself)."""
    from ttrlib.experiments import PRESETS, TournamentResult

    names = ["greedy", "odds-aware", "ticket-sharer"]
    # 90 six-player games, each strategy one team; strategy 2 wins the first `wins` games, the
    # others share the rest (hand-made: ranks and totals agree)
    results = []
    for i in range(90):
        winner = 2 if i < wins else i % 2
        totals = tuple(100 if t == winner else 80 for t in range(3))
        ranks = tuple(1 if t == winner else 2 for t in range(3))
        results.append(GameResult(i, (0, 1, 2), totals, ranks))
    rows = _rows([PRESETS[n] for n in names], results)
    words = TournamentResult(6, 0, tuple(results), tuple(rows)).summary(2)
    assert f"won {wins} of 90 games" in words
    assert "against greedy and odds-aware" in words and "against ticket-sharer" not in words
    assert verdict in words
    assert "1 in 3" in words or "33%" in words
