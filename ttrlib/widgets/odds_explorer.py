"""OddsExplorer: the exact law of a tunnel's extra cost, and an experiment that converges to it
(rules U1, U2, U5, U6, C6; the "Tunnel odds" paragraph of the rules reference).

Number boxes set the number of revealed cards ``n``, the unseen cards ``N`` and the matching cards
``K`` among them, the draw pile size and, for the reshuffle case (the draw pile holds fewer than
``n`` cards, U6), the discard pile and its matching cards. The settings make one chance node,
``ttrlib.chance.TunnelReveal``: the law panel shows its exact law and where its cards come from
(U6); **Simulate** turns real (virtual) cards with ``ttrlib.simulate.simulate_reveals`` chunk by
chunk, then shows the simulated frequencies
beside the exact probabilities, the verdict of ``ttrlib.simulate.compare`` and how the largest
gap shrinks as the trials add up.

Every number on the screen is computed; nothing is typed in. Only counts matter for the law, so
the explorer builds its pool from ``K`` red-or-locomotive cards (locomotives for a U5 claim) and
``N - K`` other cards.
"""

from __future__ import annotations

from fractions import Fraction
from math import sqrt

import ipywidgets as w
import numpy as np

from .. import display
from ..cards import DECK_SIZE, LOCOMOTIVES
from ..chance import Distribution, TunnelReveal
from ..lessons import chance_words
from ..session import fresh_seed
from ..simulate import Comparison, compare, simulate_reveals
from .base import Screen, safe
from .odds_settings import (
    COLOUR_MATCHING,
    LOCO_MATCHING,
    MAX_REVEAL,
    PER_COLOUR,
    TunnelSettings,
    matching_cap,
)

__all__ = ["OddsExplorer"]

TRIAL_CHOICES = (1_000, 3_000, 10_000, 30_000, 100_000, 300_000, 1_000_000)



def _band_factor(probs: np.ndarray) -> tuple[float, float]:
    """``(z, sigma)`` for a 99% band on the *largest* gap between simulated and exact
    probabilities: ``z`` is the Bonferroni normal quantile for the cells that can vary and
    ``sigma`` the largest ``sqrt(p (1 - p))``; after ``t`` trials the band is
    ``z * sigma / sqrt(t)``."""
    from statistics import NormalDist

    cells = int(((probs > 0) & (probs < 1)).sum())
    z = NormalDist().inv_cdf(1 - 0.01 / (2 * max(cells, 1)))
    sigma = float(np.sqrt((probs * (1 - probs)).max())) if probs.size else 0.0
    return z, sigma


def _verdict_words(cmp: Comparison) -> str:
    """The simulation's verdict in plain words first; the chi-square figures fold under it."""
    gap = f"{100 * cmp.max_deviation:.2f} percentage points"
    where = f"(at {display.plural(cmp.worst_k, 'extra card')})"
    if cmp.agrees:
        return (f"The simulation shows no sign of disagreement with the exact law: in "
                f"{cmp.trials:,} shuffled reveals "
                f"every simulated frequency is within {gap} of its exact chance {where}, no "
                "more than luck alone explains.")
    return (f"The simulation disagrees with the exact law: after {cmp.trials:,} reveals a "
            f"simulated frequency is {gap} away from its exact chance {where}, more than luck "
            "alone explains.")


def _checkpoints(trials: int, start: int = 100, per_decade: int = 8) -> list[int]:
    """Cumulative trial counts after each chunk: log-spaced, so the convergence picture has
    evenly spaced points on its logarithmic axis; the last one is ``trials``."""
    if trials <= start:
        return [trials]
    num = max(2, int(round(per_decade * np.log10(trials / start))) + 1)
    pts = sorted({int(round(x)) for x in np.geomspace(start, trials, num)})
    pts[-1] = trials
    return pts


class OddsExplorer(Screen):
    """Explore the exact tunnel law and test it by simulation.

    Controls (public, so tests and notebooks can drive them): ``reveal`` (n), ``unseen`` (N),
    ``matching`` (K), ``locomotives_only`` (U5 claim), ``draw_pile``, ``discard``,
    ``discard_matching`` (number boxes / checkbox), ``trials`` (dropdown), ``simulate`` (button).
    Output: ``law_panel``, ``sim_panel``, ``progress`` (one step per chunk), ``message``.
    ``exact()`` is the current law; after a simulation ``counts`` holds the simulated counts,
    ``comparison`` the verdict and ``history`` the (trials, largest gap, 99% band) checkpoints.

    ``matching=None`` (the default) means the fresh-deck count: 26 for a colour claim, 14 for
    a locomotives-only claim (``locomotives_only=True``). ``draw_pile=None`` means all ``unseen``
    cards. ``seed`` seeds the simulations (see ``run_simulation``); ``seed=None`` (the default)
    draws one nobody can predict. The seed shows as "game N"; ``new_game_button`` draws another
    one and clears the simulation.

    Impossible settings are clamped back to the nearest possible value and explained in the
    message line: K <= N, draw pile <= N, matching in the discard <= discard, unseen + discard
    <= 110 and K + matching in the discard <= 26 (14 for a U5 claim) (rule C1).
    """

    apology = "Nothing was changed; change a number or press Simulate again."

    def __init__(self, *, reveal: int = 4, unseen: int = DECK_SIZE, matching: int | None = None,
                 draw_pile: int | None = None, discard: int = 0, discard_matching: int = 0,
                 seed: int | None = None, locomotives_only: bool = False):
        super().__init__()
        self.seed = fresh_seed() if seed is None else seed
        self.runs = 0  # Simulate presses: run r uses SeedSequence(seed, spawn_key=(r,))
        self.counts: np.ndarray | None = None
        self.comparison: Comparison | None = None
        self.history: list[tuple[int, float, float]] = []
        notes: list[str] = []

        cap = matching_cap(bool(locomotives_only))
        reveal = self._arg(reveal, "reveal", 0, MAX_REVEAL, 4, notes)
        unseen = self._arg(unseen, "unseen", 0, DECK_SIZE, DECK_SIZE, notes)
        # matching=None: the fresh-deck count, 26 (14 for a U5 claim), as far as N allows
        matching = min(cap, unseen) if matching is None else self._arg(
            matching, "matching", 0, cap, min(cap, unseen), notes)
        draw_pile = unseen if draw_pile is None else self._arg(draw_pile, "draw_pile", 0,
                                                               DECK_SIZE, unseen, notes)
        discard = self._arg(discard, "discard", 0, DECK_SIZE, 0, notes)
        discard_matching = self._arg(discard_matching, "discard_matching", 0, cap, 0, notes)
        # The settings are the explorer's model (kernel-side traits, ttrlib.widgets.odds_settings):
        # the kind of claim first (it sets the fresh-deck K), then the numbers in the order in
        # which each one bounds the next.
        self.settings = TunnelSettings(locomotives_only=bool(locomotives_only))
        self.settings.notes = []  # the fresh-deck K of the kind of claim asked for: no news
        for name, value in (("reveal", reveal), ("unseen", unseen), ("discard", discard),
                            ("draw_pile", draw_pile), ("matching", matching),
                            ("discard_matching", discard_matching)):
            setattr(self.settings, name, value)
        notes += self.settings.notes

        style = {"description_width": "200px"}

        def number_box(value: int, lo: int, hi: int, text: str, tip: str) -> w.BoundedIntText:
            # A number box rather than a slider: ipywidgets' slider handle has no accessible
            # name (axe-core: aria-input-field-name); a labelled box with arrows works with the
            # keyboard and with a screen reader.
            return w.BoundedIntText(value=value, min=lo, max=hi, description=text, tooltip=tip,
                                    continuous_update=False, style=style,
                                    layout=w.Layout(width="320px"))

        self.reveal = number_box(reveal, 0, MAX_REVEAL, "Cards revealed n",
                             "How many cards the tunnel turns over (its number, rule U1)")
        self.locomotives_only = w.Checkbox(value=bool(locomotives_only),
                                           description="locomotives-only claim (U5)",
                                           indent=False, layout=w.Layout(width="260px"))
        self.unseen = number_box(unseen, 0, DECK_SIZE, "Unseen cards N",
                             "Cards you cannot see: the draw pile and the other players' hidden "
                             "cards")
        self.matching = number_box(matching, 0, cap, "", "")
        self.draw_pile = number_box(draw_pile, 0, DECK_SIZE, "Draw pile size",
                                "The draw pile is a random part of the unseen cards")
        self.discard = number_box(discard, 0, DECK_SIZE, "Discard pile size",
                              "Used only when the draw pile holds fewer than n cards (U6, C6)")
        self.discard_matching = number_box(discard_matching, 0, cap, "Matching cards in discard",
                                       "Matching cards in the discard pile (it is face up, so "
                                       "you know them)")
        self.reveal_note = w.HTML(display.sub_html("Team Asia tunnels: 4&ndash;6 &middot; "
                                                   "Europe: 3 (U1)"))
        self.k_note = w.HTML()
        self.pile_note = w.HTML(display.sub_html("&le; N; below n the discard pile is "
                                                 "reshuffled (U6)"))
        self.discard_note = w.HTML()
        self.game_label = w.HTML()
        self.new_game_button = w.Button(description="New game", layout=w.Layout(width="auto"),
                                        tooltip="A new random seed for the simulations")
        self.new_game_button.on_click(lambda _b: self.new_game())
        self.law_panel = w.HTML()

        self.trials = w.Dropdown(options=[(f"{t:,} trials", t) for t in TRIAL_CHOICES],
                                 value=100_000, description="Trials",
                                 layout=w.Layout(width="210px"),
                                 style={"description_width": "50px"})
        self.simulate = w.Button(description="Simulate", icon="play", button_style="primary",
                                 tooltip="Turn cards from a shuffled pile, many times",
                                 layout=w.Layout(width="130px"))
        self.progress = w.IntProgress(value=0, min=0, max=1, description="Progress",
                                      style={"description_width": "70px"},
                                      layout=w.Layout(width="320px"))
        self.progress_text = w.HTML()
        self.sim_panel = w.HTML()

        for name in ("reveal", "unseen", "matching", "draw_pile", "discard", "discard_matching",
                     "locomotives_only"):
            getattr(self, name).observe(self._on_control, names="value")
        self.simulate.on_click(lambda _b: self.run_simulation())

        self.children = [
            w.HTML(display.style() + display.EXPLORER_CSS + "<div class='ttr-root'><b style='font-size:15px'>"
                   "Tunnel odds explorer</b> &middot; how many extra cards will a tunnel cost? "
                   "(U1, U2, U5, U6)</div>"),
            w.HBox([self.game_label, self.new_game_button]),
            w.HBox([self.reveal, self.reveal_note]),
            w.HBox([self.unseen, self.locomotives_only]),
            w.HBox([self.matching, self.k_note]),
            w.HBox([self.draw_pile, self.pile_note]),
            w.HBox([self.discard, self.discard_note]), self.discard_matching,
            self.message, self.law_panel,
            w.HBox([self.trials, self.simulate, self.progress, self.progress_text]),
            self.sim_panel,
        ]
        self._show_settings()
        self._update(notes)

    # --- arguments and constraints -----------------------------------------------------------
    @staticmethod
    def _arg(value, name: str, lo: int, hi: int, default: int, notes: list[str]) -> int:
        try:
            if isinstance(value, bool):
                raise TypeError
            v = int(value.__index__())
        except (AttributeError, TypeError):
            notes.append(f"{name}={value!r} is not a whole number: using {default}.")
            return default
        if not lo <= v <= hi:
            c = min(max(v, lo), hi)
            notes.append(f"{name}={v} is outside {lo}..{hi}: using {c}.")
            return c
        return v

    # --- the controls and the model --------------------------------------------------------------
    @safe
    def _on_control(self, change) -> None:
        """A learner's number (or the kind of claim) goes to the model, which clamps what is
        impossible and says why; the controls then show the model. A control set from the
        model already holds the model's value, so nothing happens a second time."""
        name = next(n for n in ("reveal", "unseen", "matching", "draw_pile", "discard",
                                "discard_matching", "locomotives_only")
                    if getattr(self, n) is change["owner"])
        if getattr(self.settings, name) == change["new"]:
            return
        self.settings.notes = []
        setattr(self.settings, name, change["new"])
        self._show_settings()
        self._update(self.settings.notes)

    def _show_settings(self) -> None:
        """Every control shows the model's value; a bound is widened before and narrowed after
        the value is set, so a control never clamps a value of the model by itself."""
        st = self.settings
        for name in ("reveal", "unseen", "draw_pile", "discard"):
            getattr(self, name).value = getattr(st, name)
        for box in (self.matching, self.discard_matching):
            box.max = max(box.max, st.cap)
        self.matching.value, self.discard_matching.value = st.matching, st.discard_matching
        self.matching.max = self.discard_matching.max = st.cap
        self.locomotives_only.value = st.locomotives_only
        self._relabel()

    @safe
    def new_game(self, seed: int | None = None) -> None:
        """A new seed for the simulations (the numbers stay); the old results are cleared."""
        self.seed = fresh_seed() if seed is None else seed
        self.runs = 0
        self._clear_simulation()
        self._show_seed()
        self.say(f"New game {self.seed}: the next simulation turns other cards.", "success")

    def _show_seed(self) -> None:
        self.game_label.value = (f"<span class='ttr-game-no' title='Seed of the simulations: the "
                                 f"same number gives the same results'>game {self.seed}</span>")

    @safe
    def _update(self, notes: list[str]) -> None:
        if notes:
            self.say(" ".join(notes), "warning")
        else:
            self.message.value = ""
        room = DECK_SIZE - self.settings.unseen
        self.discard_note.value = display.sub_html(
            f"&le; {DECK_SIZE} &minus; N = {room}: face-up cards are not unseen (C1)"
            + ("; lower N to make room" if room == 0 else ""))
        self._show_seed()
        self._show_law()
        self._clear_simulation()

    def _relabel(self) -> None:
        if self.settings.locomotives_only:
            self.matching.description = "Matching K (locomotives)"
            self.matching.tooltip = "Unseen locomotives: the only cards that match a U5 claim"
            self.k_note.value = display.sub_html("Locomotives-only claim: only locomotives "
                                                 f"match (U5); fresh deck K = {LOCO_MATCHING}")
        else:
            self.matching.description = "Matching K (colour + locos)"
            self.matching.tooltip = "Unseen cards of the claim's colour plus unseen locomotives"
            self.k_note.value = display.sub_html(
                "Colour claim: that colour and locomotives match (U2); fresh deck K = "
                f"{PER_COLOUR} + {LOCOMOTIVES} = {COLOUR_MATCHING}")

    def tunnel(self) -> TunnelReveal:
        """The reveal the settings describe (``TunnelSettings.tunnel``)."""
        return self.settings.tunnel()

    def exact(self) -> Distribution:
        """The exact law of the extra cards for the current settings (``tunnel().law()``)."""
        return self.tunnel().law()

    def _show_law(self) -> None:
        tunnel = self.tunnel()
        law = tunnel.law()
        st = self.settings
        n, N, K = st.reveal, st.unseen, st.matching
        d, D, KD = st.draw_pile, st.discard, st.discard_matching
        what = "locomotives" if st.locomotives_only else "red cards or locomotives"
        p0 = law.prob(0)
        # the two independent parts of the reveal: r1 cards from the draw pile (out of the N
        # unseen, K matching), then r2 from the reshuffled discard pile (D cards, KD matching)
        r1, r2 = tunnel.from_pile, tunnel.from_discard
        parts = [(r1, N, K), (r2, D, KD)] if r2 else [(r1, N, K)]
        parts = [(r, M, KM) for r, M, KM in parts if r] or [(0, N, K)]
        formula = "P(k = 0) = " + " &middot; ".join(
            f"C({M - KM},{r})/C({M},{r})" for r, M, KM in parts)
        mean_formula = " + ".join(f"{r}&middot;{KM}/{M}" for r, M, KM in parts if M)
        mean_check = sum((Fraction(r * KM, M) for r, M, KM in parts if M), Fraction(0))
        if n == 0:
            story = "A tunnel that reveals no card (n = 0) never costs an extra card."
        elif r1 == n:  # every card from the draw pile
            story = (f"The tunnel turns the top <b>{n}</b> cards of the draw pile. They are a random "
                     f"{n} of the <b>{N}</b> unseen cards, of which <b>{K}</b> match ({what}): "
                     "the number that match is hypergeometric (U1, U2).")
            mean_formula = f"n&middot;K/N = {mean_formula}"
        elif tunnel.shown == 0:
            story = ("Neither the draw pile nor the discard pile holds a card: nothing can be "
                     "revealed, so the tunnel costs no extra card (U6).")
        else:
            if d == 0:
                first = "The draw pile is empty"
            else:
                turned = "it is" if d == 1 else ("both are" if d == 2 else f"all {d} are")
                first = (f"The draw pile holds only <b>{d}</b> of the {n} cards to reveal: "
                         f"{turned} turned ({d} of the {N} unseen cards, {K} matching)")
            more = "" if d == 0 else " more"
            story = first + (
                f", {'so' if d == 0 else 'then'} the discard pile ({D} cards, {KD} matching) is "
                f"shuffled into a new draw pile and <b>{r2}</b>{more} "
                f"{'card is' if r2 == 1 else 'cards are'} turned (U6, C6)."
                if r2 else ", and the discard pile is empty (U6).")
            if r1 and r2:
                story += " The law is the sum of the two independent hypergeometric counts."
            if tunnel.shown < n:
                story += f" Only {tunnel.shown} of the {n} cards exist to be revealed."
        mean = law.mean
        if mean_check != mean:  # pragma: no cover - the engine and the textbook formula disagree
            mean_formula = "&sum; k&middot;P(k)"
        if not mean_formula:
            mean_formula = "0"
        facts = display.law_facts_html(story, chance_words(p0), formula, p0, mean, mean_formula,
                                       chance_words(law.at_least(2)))
        chart = display.distribution_html(
            law, f"Exact law: extra cards k for a {n}-card tunnel", xlabel="k")
        self.law_panel.value = display.layout_html(chart, facts, direction="row")

    # --- the experiment ----------------------------------------------------------------------
    def _clear_simulation(self) -> None:
        self.counts = None
        self.comparison = None
        self.history = []
        self.progress.value = 0
        self.progress_text.value = ""
        self.sim_panel.value = display.message_html(
            "Press Simulate to turn cards from a shuffled pile many times and compare the "
            "frequencies with the exact law above.", "info")

    @safe
    def run_simulation(self) -> None:
        """Simulate the reveal ``trials.value`` times, chunk by chunk (one progress step each).

        Run ``r`` (counted from 0 per widget) draws its chunk seeds from
        ``numpy.random.SeedSequence(seed, spawn_key=(r,)).spawn(chunks)``, so a given seed and
        run number always give the same counts.
        """
        tunnel = self.tunnel()
        law = tunnel.law()
        n = tunnel.reveal
        total = int(self.trials.value)
        stops = _checkpoints(total)
        seeds = np.random.SeedSequence(self.seed, spawn_key=(self.runs,)).spawn(len(stops))
        run = self.runs
        self.runs += 1
        probs = np.array([float(law.prob(k)) for k in range(n + 1)])
        z, widest = _band_factor(probs)
        counts = np.zeros(n + 1, dtype=np.int64)
        history: list[tuple[int, float, float]] = []
        self.progress.max = len(stops)
        self.progress.value = 0
        self.simulate.disabled = True
        try:
            done = 0
            for i, (stop, ss) in enumerate(zip(stops, seeds)):
                counts += simulate_reveals(tunnel, trials=stop - done, seed=ss)
                done = stop
                gap = float(np.abs(counts / done - probs).max())
                history.append((done, gap, z * widest / sqrt(done)))
                self.progress.value = i + 1
                self.progress_text.value = display.sub_html(f"{done:,} / {total:,} trials")
        finally:
            self.simulate.disabled = False
        self.counts, self.history = counts, history
        self.comparison = compare(law, counts)
        self.sim_panel.value = self._sim_html(law, counts, self.comparison, history, run, z)

    def _sim_html(self, law: Distribution, counts: np.ndarray, cmp: Comparison,
                  history: list[tuple[int, float, float]], run: int, z: float) -> str:
        probs = [law.prob(k) for k in range(len(counts))]
        verdict = display.message_html(_verdict_words(cmp), "success" if cmp.agrees else "error")
        cells = sum(0 < p < 1 for p in probs)
        return display.simulation_html(
            verdict, cmp.maths(), display.simulation_table_html(probs, list(counts), self.seed, run),
            display.convergence_html(display.convergence_png(history), cells, z))

