"""Strategy experiments: tournaments of :class:`~ttrlib.bots.Strategy` teams, run in parallel.

>>> from ttrlib.bots import Strategy
>>> result = tournament([Strategy("greedy"), Strategy("sharer", locomotives="share")],
...                     games=4, seed=1, executor="serial", progress=False)
>>> [row.games for row in result.rows]
[4, 4]

Every game is seeded from ``seed`` and its number alone, and the strategies take turns being
team A, B (and C): game ``i`` gives team ``t`` the strategy ``(t + i) % teams``, so moving first
favours no strategy. The results are collected in game order, so a tournament gives the same
table for a seed whatever the executor: serial, a process pool, or a cluster's executor
(``dask.distributed.Client(...).get_executor()``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import asdict, astuple, dataclass
from pathlib import Path

from .bots import GreedyBot, Strategy, play
from .game import PLAYER_COUNTS, Game
from .result_cache import code_digest, shared
from .seats import team_count, team_of

__all__ = ["PRESETS", "GameResult", "StrategyRow", "TournamentResult", "play_one", "tournament"]

# Named strategies for lessons: each changes one or two choices of the plain greedy player.
PRESETS = {s.name: s for s in (
    Strategy("greedy"),
    Strategy("team-first", first_card="cardholder", locomotives="share"),
    Strategy("ticket-sharer", share_tickets="early"),
    Strategy("careful tunneller", tunnel_threshold=0.75, odds_aware=True),
    Strategy("odds-aware", tunnel_threshold=0.5, odds_aware=True),
)}


@dataclass(frozen=True)
class GameResult:
    """One game: the strategy index of each team, each team's total and rank (E6)."""

    game: int
    strategies: tuple[int, ...]
    totals: tuple[int, ...]
    ranks: tuple[int, ...]


def _assignment(game: int, teams: int, strategies: int) -> tuple[int, ...]:
    return tuple((t + game) % strategies for t in range(teams))


def play_one(args: tuple[tuple[Strategy, ...], int, int, int]) -> GameResult:
    """Play game ``i`` of a tournament (a plain function of picklable arguments, so that any
    executor can run it)."""
    strategies, players, seed, i = args
    teams = team_count(players)
    order = _assignment(i, teams, len(strategies))
    game_seed = seed * 1_000_003 + i  # distinct and reproducible for every (seed, game)
    # a strategy with ``make_bot(seed)`` (the coach's) makes its own bot; the others are greedy
    bots = [getattr(st, "make_bot", lambda seed, st=st: GreedyBot(seed=seed, strategy=st))(
        game_seed * 8 + s) for s in range(players) for st in (strategies[order[team_of(s)]],)]
    scores = sorted(play(Game.new(players=players, seed=game_seed), bots), key=lambda s: s.team)
    return GameResult(i, order, tuple(s.total for s in scores), tuple(s.rank for s in scores))


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


@dataclass(frozen=True)
class StrategyRow:
    """A strategy's results over the teams it played. ``wins`` counts teams ranked first (a
    shared first place counts for each), ``win_rate`` has a 95% Wilson interval; ``margin`` is
    the team's total minus the best other team's total."""

    strategy: Strategy
    games: int
    wins: int
    win_rate: float
    win_ci: Interval
    mean_points: float
    points_ci: Interval
    mean_margin: float
    margin_ci: Interval


def _mean_ci(values: Sequence[float]) -> tuple[float, Interval]:
    from scipy import stats  # on first use: a worker process that only plays never pays it

    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, Interval(math.nan, math.nan)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = float(stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
    return mean, Interval(mean - half, mean + half)


def _rows(strategies: Sequence[Strategy], results: Sequence[GameResult]) -> list[StrategyRow]:
    from scipy import stats

    rows = []
    for k, strategy in enumerate(strategies):
        won, points, margins = 0, [], []
        for r in results:
            for team, s in enumerate(r.strategies):
                if s != k:
                    continue
                won += r.ranks[team] == 1
                points.append(r.totals[team])
                margins.append(r.totals[team] - max(t for j, t in enumerate(r.totals)
                                                    if j != team))
        n = len(points)
        ci = stats.binomtest(won, n).proportion_ci(0.95, method="wilson") if n else None
        mean_p, p_ci = _mean_ci(points) if n else (math.nan, Interval(math.nan, math.nan))
        mean_m, m_ci = _mean_ci(margins) if n else (math.nan, Interval(math.nan, math.nan))
        rows.append(StrategyRow(strategy, n, won, won / n if n else math.nan,
                                Interval(ci.low, ci.high) if ci else Interval(math.nan, math.nan),
                                mean_p, p_ci, mean_m, m_ci))
    return rows


@dataclass(frozen=True)
class TournamentResult:
    """The table of a tournament; ``results`` holds every game in order."""

    players: int
    seed: int
    results: tuple[GameResult, ...]
    rows: tuple[StrategyRow, ...]

    def summary(self, k: int = 0) -> str:
        """Strategy ``k`` against the others, in plain words a board-game player reads: its wins
        with their 95% interval and what the interval shows against a fair share (one win in as
        many games as a game has teams: one half with two teams, one third with three), then its
        points and margin."""
        me = self.rows[k]
        others = [r.strategy.name for i, r in enumerate(self.rows) if i != k]
        teams = team_count(self.players)
        fair = 1 / teams
        lo, hi = me.win_ci.low, me.win_ci.high
        if teams == 2:
            share, nobody = "half", "either strategy"
        else:
            share, nobody = f"1 in {teams} (a fair share with {teams} teams)", "any strategy"
        if lo > fair:
            verdict = (f"that is more than {share} even at the low end of the interval: it did "
                       "win more often")
        elif hi < fair:
            verdict = (f"that is less than {share} even at the high end of the interval: it did "
                       "lose more often")
        else:
            verdict = (f"the interval contains {fair:.0%}, so these games do not show that "
                       f"{nobody} is better: more games could")
        rival = "the other team" if teams == 2 else "the best other team"
        return (f"The {me.strategy.name} team won {me.wins:,} of {me.games:,} games "
                f"({me.win_rate:.0%}; 95% interval {lo:.0%} to {hi:.0%}) against "
                f"{' and '.join(others)}; {verdict}. It scored {me.mean_points:.1f} points a "
                f"game on average, {me.mean_margin:+.1f} against {rival}.")

    def _repr_html_(self) -> str:
        import html

        def ci(i: Interval, fmt: str) -> str:
            return f"{format(i.low, fmt)} to {format(i.high, fmt)}"

        body = "".join(
            f"<tr><td>{html.escape(r.strategy.name)}</td><td>{r.games:,}</td><td>{r.wins:,}</td>"
            f"<td>{r.win_rate:.1%} ({ci(r.win_ci, '.1%')})</td>"
            f"<td>{r.mean_points:.1f} ({ci(r.points_ci, '.1f')})</td>"
            f"<td>{r.mean_margin:+.1f} ({ci(r.margin_ci, '+.1f')})</td></tr>" for r in self.rows)
        return ("<table><thead><tr><th>strategy</th><th>games</th><th>wins</th>"
                "<th>win rate (95% interval)</th><th>mean points (95%)</th>"
                "<th>mean margin (95%)</th></tr></thead>"
                f"<tbody>{body}</tbody></table>")

    def plot(self, ax=None):
        """Win rates with their 95% intervals (matplotlib)."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 0.6 + 0.5 * len(self.rows)))
        names = [r.strategy.name for r in self.rows]
        rates = [r.win_rate for r in self.rows]
        err = [[r.win_rate - r.win_ci.low for r in self.rows],
               [r.win_ci.high - r.win_rate for r in self.rows]]
        ax.barh(names, rates, xerr=err, capsize=4, color="#4c78a8")
        ax.set_xlim(0, 1)
        ax.set_xlabel("share of games won (bars: 95% interval)")
        return ax


def tournament(teams: Sequence[Strategy], games: int, seed: int = 0, *,
               players: int | None = None, executor: Executor | str | None = None,
               progress=True, chunksize: int = 16, cache: bool | str | os.PathLike = False
               ) -> TournamentResult:
    """Play ``games`` seeded games between the strategies ``teams`` and tabulate them.

    ``players`` is 4 (two teams) or 6 (three teams); by default 4 for two strategies and 6 for
    three. ``executor`` is any ``concurrent.futures.Executor``; ``None`` makes a process pool
    over the machine's cores, ``"serial"`` plays in this process. ``progress`` is ``True`` for
    a tqdm bar, ``False`` for none, or a function called as ``progress(done, total)`` after each
    game (a widget's progress bar); an exception it raises stops the tournament (a Stop button)
    and goes to the caller.

    ``cache``: ``True`` (the default folder of :mod:`ttrlib.result_cache`) or a folder shares the
    result between processes: the same tournament (strategies, players, games, seed, and the
    library's code and board) is played once, by the first to ask; the others wait, their
    ``progress`` called with the games played so far (it can stop the waiting), and read it. A
    stopped tournament stores nothing.
    """
    strategies = tuple(teams)
    if not 2 <= len(strategies) <= 3 or not all(isinstance(s, Strategy) for s in strategies):
        raise ValueError("a tournament takes 2 or 3 Strategy objects")
    players = players or 2 * max(2, len(strategies))
    if players not in PLAYER_COUNTS or len(strategies) > team_count(players):
        raise ValueError(f"{len(strategies)} strategies cannot play a {players}-player game")
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive whole number, not {games!r}")
    jobs = [(strategies, players, seed, i) for i in range(games)]

    def play_all(report=None) -> tuple[GameResult, ...]:
        tell = progress
        if report is not None:
            tell = report if not callable(progress) else \
                (lambda done, total: (report(done, total), progress(done, total)))
        return _play_all(jobs, executor, tell, chunksize)

    if not cache:
        results = play_all()
    else:
        key = {"kind": "tournament", "strategies": [asdict(s) for s in strategies],
               "players": players, "games": games, "seed": seed, "code": code_digest()}
        results = shared(key, lambda report: [astuple(r) for r in play_all(report)],
                         decode=lambda value: _decoded(value, jobs),
                         wait=progress if callable(progress) else None,
                         folder=None if cache is True else Path(cache))
    return TournamentResult(players, seed, results, tuple(_rows(strategies, results)))


def _play_all(jobs: list, executor, progress, chunksize: int) -> tuple[GameResult, ...]:
    games = len(jobs)
    own = executor is None
    if own:
        executor = ProcessPoolExecutor(max_workers=os.cpu_count() or 1)
    try:
        it: Iterator[GameResult]
        if executor == "serial":
            it = map(play_one, jobs)
        else:
            it = executor.map(play_one, jobs, chunksize=chunksize) \
                if isinstance(executor, ProcessPoolExecutor) else executor.map(play_one, jobs)
        if callable(progress):
            results = []
            for r in it:  # map keeps the games' order, whatever finished first
                results.append(r)
                progress(len(results), games)
            return tuple(results)
        if progress:
            from tqdm.auto import tqdm

            it = tqdm(it, total=games, desc="games", leave=False)
        return tuple(it)
    finally:
        if own:  # after a stop (progress raised), the games not yet started are dropped
            executor.shutdown(cancel_futures=True)


def _decoded(value, jobs: list) -> tuple[GameResult, ...]:
    """Stored games back as ``GameResult`` s; anything but the games of ``jobs`` is refused
    (``ValueError``), so the cache plays them again."""
    strategies, players = jobs[0][0], jobs[0][1]
    teams = team_count(players)
    results = tuple(GameResult(int(g), tuple(map(int, s)), tuple(map(int, t)),
                               tuple(map(int, r))) for g, s, t, r in value)
    if len(results) != len(jobs) or any(
            r.game != i or r.strategies != _assignment(i, teams, len(strategies))
            or len(r.totals) != teams or len(r.ranks) != teams for i, r in enumerate(results)):
        raise ValueError("stored games of another tournament")
    return results
