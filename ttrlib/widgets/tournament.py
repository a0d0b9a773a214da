"""StrategyTournament: pick two strategies, play a seeded tournament between them with a
progress bar, and read the result in plain words (lesson 07).

The widget only shows what the tournament returns; the games are played by
:func:`ttrlib.experiments.tournament` (bots that decide from their own seat's view, rule I1).

A tournament is research, so its seed is a plain one, shown and replayable anywhere (the research
door of :mod:`ttrlib.deals`): nobody holds a hidden hand in its games. ``seed=None`` draws one.

A tournament takes a while (lesson 07's pair: about 20-30 ms of CPU a game, so 100 games are
2-3 CPU seconds), so the Run button plays it in a thread of the kernel and the kernel stays free
to hear the **Stop** button. ``run()`` itself plays in the caller's thread and returns the result
(what tests and scripts call).

In a class the results are shared (``cache=True``, :mod:`ttrlib.result_cache`): learners pressing
Run on the same strategies, games and seed (the class seed, ``?seed=7``) play the tournament
once between them; the others wait for it, its progress on their bar, and Stop still works. The
default sizes are chosen for that case. Measured on the classroom server with
``benchmarks/bench_lesson07.py`` (2 cores shared with other work, plain sessions clicking Run):
thirty learners pressing Run at once on the defaults and the class's tournament (number 1, the
lesson's default) all had the result within 6.4 s (one kernel plays, about 4-5 CPU s; the
others wait and read it), also while the class pool refills. With a seed of their own each
(``?seed=N`` per learner) they need thirty tournaments: about 100 s for thirty, 11 s for four.
"""

from __future__ import annotations

import html
import threading
from typing import Any

import ipywidgets as w

# The tables' intervals come from scipy.stats (ttrlib.experiments imports it on first use). It
# is imported here, with lesson 07's first cell: the classroom app runs that cell in its
# preheated kernels before any learner arrives, so pressing Run does not pay its import (about
# 0.6 CPU s a kernel, more than a small tournament, thirty times over in a class).
import scipy.stats  # noqa: F401, E402

from .. import display
from ..experiments import PRESETS, TournamentResult, tournament
from ..session import fresh_seed

_GAMES = (50, 100, 200, 500, 1000, 2000)
# Preselected sizes, small enough for a class on a 2-core server (issue 24; the figures come from
# benchmarks/bench_tournament.py): 100 games, the size of lesson 07's own exercise (58 of 100);
# the sweep plays five tournaments, 50 games each.
DEFAULT_GAMES = 100
DEFAULT_SWEEP_GAMES = 50
# Games a worker plays between two reports: the bar moves and Stop is heard only when a batch
# comes back. experiments' 16 (made for large runs) moved the bar once in 100 games and answered
# Stop 1.4-4.9 s late (benchmarks/bench_lesson07.py); a batch of 4 (~0.2 CPU s) costs one more
# message per 4 games.
CHUNK_GAMES = 4


class Stopped(Exception):
    """The learner pressed Stop: raised from the progress callback, it ends the tournament."""

    def __init__(self, done: int, total: int):
        super().__init__(f"stopped after {done} of {total}")
        self.done, self.total = done, total


class _Background:
    """Run a widget's ``run()`` in a thread, with a Stop button that the kernel can still hear
    (a click is a message the kernel handles only while no cell or click handler runs)."""

    def _init_background(self, run_button: w.Button) -> None:
        self.run_button = run_button
        self.stop_button = w.Button(description="Stop", tooltip="Stop the games now",
                                    layout=w.Layout(display="none"))
        self.stop_button.on_click(lambda _b: self.stop())
        self._stop = threading.Event()
        self.thread: threading.Thread | None = None

    def run(self) -> Any:
        """Play (in the caller's thread) and return the result: each widget says what."""
        raise NotImplementedError

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def start(self) -> None:
        """What the Run button does: ``run()`` in a thread, with Stop shown meanwhile."""
        if self.running:
            return
        self._stop.clear()
        self.run_button.disabled = True
        self.stop_button.layout.display = "inline-flex"
        self.stop_button.button_style = "warning"
        self.thread = threading.Thread(target=self._play, daemon=True, name="ttr-tournament")
        self.thread.start()

    def _play(self) -> None:
        try:
            self.run()
        finally:
            self.run_button.disabled = False
            self.stop_button.layout.display = "none"

    def stop(self) -> None:
        """What the Stop button does: the games stop after the one being played."""
        self._stop.set()

    def _check_stop(self, done: int, total: int) -> None:
        if self._stop.is_set():
            raise Stopped(done, total)

    def _stopped_text(self, exc: Stopped, what: str) -> str:
        return (f"Stopped after {exc.done:,} of {exc.total:,} {what}. A part of a tournament "
                "says nothing sure: press Run again, perhaps with fewer games.")


class StrategyTournament(_Background, w.VBox):
    """Two strategy pickers, a number of games, a Run button (``start``; ``run`` plays in the
    caller's thread), a Stop button, a progress bar and the result."""

    def __init__(self, *, seed: int | None = 1, first: str = "greedy",
                 second: str = "odds-aware", games: int = DEFAULT_GAMES, executor=None,
                 cache=True):
        super().__init__(layout=w.Layout(width="100%", max_width="980px"))
        self.add_class("ttr-widget")
        self.seed = fresh_seed() if seed is None else seed
        self.executor, self.cache = executor, cache
        names = list(PRESETS)
        self.first = w.Dropdown(options=names, value=first, description="Team 1:",
                                layout=w.Layout(width="320px"))
        self.second = w.Dropdown(options=names, value=second, description="Team 2:",
                                 layout=w.Layout(width="320px"))
        self.games = w.Dropdown(options=[g for g in _GAMES], value=games, description="Games:",
                                layout=w.Layout(width="200px"))
        self.about = w.HTML()
        self.run_button = w.Button(description="Run the tournament", button_style="primary",
                                   tooltip="Play the games and count the wins")
        self.new_seed = w.Button(description="New seed", tooltip="Other games, same strategies")
        self.seed_label = w.HTML()
        self.bar = w.IntProgress(value=0, min=0, max=1, description="Games played:",
                                 layout=w.Layout(width="420px", visibility="hidden"),
                                 style={"description_width": "initial"})
        self.message = w.HTML()
        self.result: TournamentResult | None = None
        self.output = w.HTML()
        for d in (self.first, self.second):
            d.observe(lambda _c: self._describe(), names="value")
        self._init_background(self.run_button)
        self.run_button.on_click(lambda _b: self.start())
        self.new_seed.on_click(lambda _b: self._reseed())
        self.children = [w.HBox([self.first, self.second, self.games]), self.about,
                         w.HBox([self.run_button, self.stop_button, self.new_seed,
                                 self.seed_label]), self.bar, self.message, self.output]
        self._describe()

    def _describe(self) -> None:
        items = "".join(f"<li>{html.escape(PRESETS[d.value].describe())}</li>"
                        for d in (self.first, self.second))
        self.about.value = f"<ul>{items}</ul>"
        self.seed_label.value = f"<span>tournament seed {self.seed}</span>"
        self.output.value = ""

    def _reseed(self) -> None:
        self.seed = fresh_seed()
        self._describe()

    def run(self) -> TournamentResult | None:
        a, b = PRESETS[self.first.value], PRESETS[self.second.value]
        if a == b:
            self.message.value = display.message_html(
                "Pick two different strategies: a strategy against itself wins half its games "
                "by symmetry.", "info")
            return None
        n = self.games.value
        self.bar.max, self.bar.value = n, 0
        self.bar.layout.visibility = "visible"
        self.message.value = display.message_html(f"Playing {n:,} games...", "info")

        def tick(done: int, total: int) -> None:
            if done == total or done % max(1, total // 50) == 0:
                self.bar.value = done
            self._check_stop(done, total)

        try:
            self._check_stop(0, n)
            self.result = tournament([a, b], games=n, seed=self.seed, executor=self.executor,
                                     progress=tick, cache=self.cache, chunksize=CHUNK_GAMES)
        except Stopped as exc:
            self.message.value = display.message_html(self._stopped_text(exc, "games"), "info")
            return None
        except Exception as exc:  # noqa: BLE001 - a learner never sees a traceback
            self.message.value = display.message_html(
                f"The tournament could not be played ({type(exc).__name__}).", "warning")
            return None
        self.message.value = display.message_html(self.result.summary(1), "success")
        self.output.value = self.result._repr_html_()
        return self.result


class ThresholdSweep(_Background, w.VBox):
    """Does the tunnel threshold matter? One tournament per threshold against the plain greedy
    team, run on demand (``start``, with a Stop button; ``run`` in the caller's thread), read
    out in words."""

    THRESHOLDS = (None, 0.25, 0.5, 0.75, 0.9)

    def __init__(self, *, seed: int | None = 1, games: int = DEFAULT_SWEEP_GAMES, executor=None,
                 cache=True):
        super().__init__(layout=w.Layout(width="100%", max_width="980px"))
        self.add_class("ttr-widget")
        seed = fresh_seed() if seed is None else seed
        self.seed, self.executor, self.cache = seed, executor, cache
        self.games = w.Dropdown(options=list(_GAMES), value=games,
                                description="Games per threshold:",
                                style={"description_width": "initial"},
                                layout=w.Layout(width="260px"))
        self.run_button = w.Button(description="Run the sweep", button_style="primary",
                                   tooltip="One tournament per threshold against greedy")
        self.bar = w.IntProgress(value=0, min=0, max=1, description="Tournaments:",
                                 layout=w.Layout(width="420px", visibility="hidden"),
                                 style={"description_width": "initial"})
        self.message = w.HTML()
        self.output = w.HTML()
        self.results: list[tuple[float | None, TournamentResult]] = []
        self._init_background(self.run_button)
        self.run_button.on_click(lambda _b: self.start())
        self.children = [w.HBox([self.games, self.run_button, self.stop_button,
                                 w.HTML(f"<span>seed {seed}</span>")]),
                         self.bar, self.message, self.output]

    def run(self) -> list[tuple[float | None, TournamentResult]]:
        from dataclasses import replace

        base = PRESETS["odds-aware"]
        n = self.games.value
        self.bar.max, self.bar.value = len(self.THRESHOLDS), 0
        self.bar.layout.visibility = "visible"
        self.results = []
        self.message.value = ""
        try:
            for t in self.THRESHOLDS:
                name = "always tries" if t is None else f"threshold {t:.0%}"
                mine = replace(base, name=name, tunnel_threshold=t)
                self._check_stop(len(self.results), len(self.THRESHOLDS))
                self.results.append((t, tournament(
                    [PRESETS["greedy"], mine], games=n, seed=self.seed, executor=self.executor,
                    progress=lambda _d, _t: self._check_stop(len(self.results),
                                                             len(self.THRESHOLDS)),
                    cache=self.cache, chunksize=CHUNK_GAMES)))
                self.bar.value += 1
        except Stopped as exc:
            self.results = []
            self.message.value = display.message_html(
                self._stopped_text(exc, "tournaments"), "info")
            return self.results
        self.message.value = display.message_html(sweep_words(self.results), "success")
        rows = "".join(
            f"<tr><td>{html.escape(r.rows[1].strategy.name)}</td><td>{r.rows[1].wins:,} of "
            f"{r.rows[1].games:,}</td><td>{r.rows[1].win_rate:.0%}</td><td>"
            f"{r.rows[1].win_ci.low:.0%} to {r.rows[1].win_ci.high:.0%}</td></tr>"
            for _, r in self.results)
        self.output.value = ("<table class='ttr-table'><thead><tr><th>odds-aware team</th>"
                             "<th>games won</th><th>win rate</th><th>95% interval</th></tr>"
                             f"</thead><tbody>{rows}</tbody></table>")
        return self.results


def sweep_words(results: list[tuple[float | None, TournamentResult]]) -> str:
    """Which threshold did best, and whether the games can tell the thresholds apart."""
    rows = [(t, r.rows[1]) for t, r in results]
    best_t, best = max(rows, key=lambda tr: tr[1].win_rate)
    name = "always trying" if best_t is None else f"a threshold of {best_t:.0%}"
    apart = [t for t, r in rows if r.win_ci.high < best.win_ci.low]
    if apart:
        told = ", ".join("always trying" if t is None else f"{t:.0%}" for t in apart)
        reading = (f"its interval lies above that of {told}: those thresholds did worse in "
                   "these games")
    else:
        reading = ("but every interval overlaps the best one, so these games cannot tell the "
                   "thresholds apart; more games per threshold could")
    return (f"Best in this run: {name}, winning {best.win_rate:.0%} of {best.games:,} games "
            f"(95% interval {best.win_ci.low:.0%} to {best.win_ci.high:.0%}); {reading}.")
