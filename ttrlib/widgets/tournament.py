"""StrategyTournament: pick two strategies, play a seeded tournament between them with a
progress bar, and read the result in plain words (lesson 07).

The widget only shows what the tournament returns; the games are played by
:func:`ttrlib.experiments.tournament` (bots that decide from their own seat's view, rule I1).

A tournament is research, so its seed is a plain one, shown and replayable anywhere (the research
door of :mod:`ttrlib.deals`): nobody holds a hidden hand in its games. ``seed=None`` draws one.
"""

from __future__ import annotations

import html

import ipywidgets as w

from .. import display
from ..experiments import PRESETS, TournamentResult, tournament
from ..session import fresh_seed

_GAMES = (50, 100, 200, 500, 1000, 2000)


class StrategyTournament(w.VBox):
    """Two strategy pickers, a number of games, a Run button, a progress bar and the result."""

    def __init__(self, *, seed: int | None = 1, first: str = "greedy",
                 second: str = "odds-aware", games: int = 200, executor=None):
        super().__init__(layout=w.Layout(width="100%", max_width="980px"))
        self.add_class("ttr-widget")
        self.seed = fresh_seed() if seed is None else seed
        self.executor = executor
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
        self.run_button.on_click(lambda _b: self.run())
        self.new_seed.on_click(lambda _b: self._reseed())
        self.children = [w.HBox([self.first, self.second, self.games]), self.about,
                         w.HBox([self.run_button, self.new_seed, self.seed_label]), self.bar,
                         self.message, self.output]
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

        try:
            self.result = tournament([a, b], games=n, seed=self.seed, executor=self.executor,
                                     progress=tick)
        except Exception as exc:  # noqa: BLE001 - a learner never sees a traceback
            self.message.value = display.message_html(
                f"The tournament could not be played ({type(exc).__name__}).", "warning")
            return None
        self.message.value = display.message_html(self.result.summary(1), "success")
        self.output.value = self.result._repr_html_()
        return self.result


class ThresholdSweep(w.VBox):
    """Does the tunnel threshold matter? One tournament per threshold against the plain greedy
    team, run on demand, read out in words."""

    THRESHOLDS = (None, 0.25, 0.5, 0.75, 0.9)

    def __init__(self, *, seed: int | None = 1, games: int = 200, executor=None):
        super().__init__(layout=w.Layout(width="100%", max_width="980px"))
        self.add_class("ttr-widget")
        seed = fresh_seed() if seed is None else seed
        self.seed, self.executor = seed, executor
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
        self.run_button.on_click(lambda _b: self.run())
        self.children = [w.HBox([self.games, self.run_button,
                                 w.HTML(f"<span>seed {seed}</span>")]),
                         self.bar, self.message, self.output]

    def run(self) -> list[tuple[float | None, TournamentResult]]:
        from dataclasses import replace

        base = PRESETS["odds-aware"]
        n = self.games.value
        self.bar.max, self.bar.value = len(self.THRESHOLDS), 0
        self.bar.layout.visibility = "visible"
        self.results = []
        for t in self.THRESHOLDS:
            name = "always tries" if t is None else f"threshold {t:.0%}"
            mine = replace(base, name=name, tunnel_threshold=t)
            self.results.append((t, tournament([PRESETS["greedy"], mine], games=n,
                                               seed=self.seed, executor=self.executor,
                                               progress=False)))
            self.bar.value += 1
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
