"""In-kernel tests of the OddsExplorer widget: sliders drive the exact law (rules U1, U2, U5,
U6, C6), impossible settings give a friendly message, and Simulate converges to the formula.

Every expected number is computed here from ``math.comb``, independently of ``ttrlib.odds``.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from ttrlib.widgets.base import _plain  # noqa: E402
from ttrlib.widgets.odds_explorer import OddsExplorer  # noqa: E402


def hyper(N: int, K: int, n: int) -> dict[int, Fraction]:
    """P(k matching among n drawn from N of which K match), from the textbook formula."""
    return {k: Fraction(comb(K, k) * comb(N - K, n - k), comb(N, n)) for k in range(n + 1)
            if comb(K, k) * comb(N - K, n - k)}


def convolve(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for i, p in a.items():
        for j, q in b.items():
            out[i + j] = out.get(i + j, Fraction(0)) + p * q
    return out


def text(widget_html) -> str:
    return " ".join(_plain(widget_html.value).split())


def set_values(ox: OddsExplorer, **values) -> None:
    """Move sliders in the given order, as a learner would."""
    for name, value in values.items():
        getattr(ox, name).value = value


# --- the exact law ----------------------------------------------------------------------------
def test_fresh_deck_law_is_shown_exactly():  # rules U1, U2
    ox = OddsExplorer()
    p0 = Fraction(comb(84, 4), comb(110, 4))
    assert ox.exact().pmf == hyper(110, 26, 4)
    panel = text(ox.law_panel)
    # a chance in words (issue 9): fraction, percentage, "about 1 in N" (641465/214389 = 2.99)
    assert f"P(no extra card) = {p0} = 33.4%, about 1 in 3" in panel
    assert "C(84,4)/C(110,4)" in panel
    assert str(Fraction(4 * 26, 110)) in panel  # the mean, n K / N = 52/55
    for p in hyper(110, 26, 4).values():  # every bar carries its exact fraction
        assert f"{p.numerator}" in ox.law_panel.value and f"{p.denominator}" in ox.law_panel.value
    assert ox.message.value == "" and ox.last_error is None


@pytest.mark.parametrize("n, check, words", [
    (3, 0.4415, "44.1%, about 1 in 2.3"), (4, 0.3342, "33.4%, about 1 in 3"),
    (5, 0.2522, "25.2%, about 1 in 4"), (6, 0.1898, "19.0%, about 1 in 5")])
def test_reveal_slider_changes_the_law(n, check, words):  # U1: Team Asia 4-6, Europe 3
    ox = OddsExplorer()
    ox.reveal.value = n
    p0 = Fraction(comb(84, n), comb(110, n))
    assert round(float(p0), 4) == check  # the rules reference's check figures
    assert ox.exact().prob(0) == p0
    assert f"P(no extra card) = {p0} = {words}" in text(ox.law_panel)
    assert f"{n}-card tunnel" in text(ox.law_panel)


def test_other_unseen_and_matching_counts():
    ox = OddsExplorer()
    set_values(ox, unseen=57, matching=9, reveal=5)
    assert ox.draw_pile.value == 57  # a full draw pile follows N
    assert ox.exact().pmf == hyper(57, 9, 5)
    p0 = Fraction(comb(48, 5), comb(57, 5))
    assert f"P(no extra card) = {p0}" in text(ox.law_panel)
    assert ox.message.value == ""


def test_locomotives_only_claim_relabels_k_and_uses_the_locomotive_count():  # rule U5
    ox = OddsExplorer()
    ox.locomotives_only.value = True
    assert ox.matching.value == 14 and ox.matching.max == 14
    assert "locomotives" in ox.matching.description.lower()
    assert "U5" in ox.message_text
    p0 = Fraction(comb(96, 4), comb(110, 4))
    assert round(float(p0), 4) == 0.5754
    assert ox.exact().pmf == hyper(110, 14, 4)
    # above one half a chance is read by how often it fails: 1 / 0.4246 = 2.36
    assert f"P(no extra card) = {p0} = 57.5%: all but about 1 in 2.4 times" in text(ox.law_panel)
    # back to a colour claim (issue 9 slip): K at the fresh-deck count follows it back to
    # 12 red + 14 locomotives = 26, and the message line says so
    ox.locomotives_only.value = False
    assert ox.matching.max == 26 and ox.matching.value == 26
    assert "K is now 26" in ox.message_text and "U2" in ox.message_text
    assert ox.exact().pmf == hyper(110, 26, 4)
    # a K the learner set by hand is kept when the kind of claim changes back
    ox.matching.value = 10
    ox.locomotives_only.value = True
    ox.locomotives_only.value = False
    assert ox.matching.value == 10


def test_locomotives_only_from_the_constructor():  # rule U5
    ox = OddsExplorer(locomotives_only=True, reveal=6)
    assert ox.matching.value == 14 and ox.message.value == ""
    p0 = Fraction(comb(96, 6), comb(110, 6))
    assert round(float(p0), 4) == 0.4328
    assert f"P(no extra card) = {p0}" in text(ox.law_panel)


def test_reshuffle_case_changes_the_law():  # rules U6, C6
    ox = OddsExplorer()
    set_values(ox, unseen=20, matching=5, discard=30, discard_matching=8)
    full = ox.exact()
    assert full.pmf == hyper(20, 5, 4)  # draw pile of 20: the discard pile plays no part
    ox.draw_pile.value = 2
    law = ox.exact()
    expected = convolve(hyper(20, 5, 2), hyper(30, 8, 2))
    assert law.pmf == expected and law != full
    p0 = Fraction(comb(15, 2), comb(20, 2)) * Fraction(comb(22, 2), comb(30, 2))
    assert expected[0] == p0
    panel = text(ox.law_panel)
    assert f"P(no extra card) = {p0} = 29.3%, about 1 in 3" in panel  # 1617/5510
    assert "C(15,2)/C(20,2) · C(22,2)/C(30,2)" in panel
    assert "U6" in panel and "shuffled" in panel
    mean = Fraction(2 * 5, 20) + Fraction(2 * 8, 30)
    assert law.mean == mean and str(mean) in panel


def test_reshuffle_with_a_short_discard_reveals_only_what_exists():  # rule U6
    ox = OddsExplorer()
    set_values(ox, unseen=10, matching=4, draw_pile=1, discard=2, discard_matching=1, reveal=6)
    # 1 card from the pile, then both discarded cards: 3 cards revealed in all, not 6
    assert ox.exact().pmf == convolve(hyper(10, 4, 1), hyper(2, 1, 2))
    assert "Only 3 of the 6 cards exist" in text(ox.law_panel)
    set_values(ox, draw_pile=0, discard_matching=0, discard=0)
    assert ox.exact().pmf == {0: 1}  # nothing to reveal: no extra cost
    assert "nothing can be revealed" in text(ox.law_panel)


# --- impossible settings ----------------------------------------------------------------------
def test_matching_more_than_unseen_is_clamped_with_a_message():
    ox = OddsExplorer()
    set_values(ox, unseen=10, matching=20)
    assert ox.matching.value == 10
    assert "K is at most N = 10" in ox.message_text
    assert "ttr-msg-warning" in ox.message.value and ox.last_error is None
    assert ox.exact().pmf == hyper(10, 10, 4)
    ox.reveal.value = 3  # a valid move clears the message
    assert ox.message.value == ""


def test_draw_pile_more_than_unseen_is_clamped_with_a_message():
    ox = OddsExplorer()
    set_values(ox, unseen=50, draw_pile=30)
    assert ox.message.value == ""
    ox.draw_pile.value = 80
    assert ox.draw_pile.value == 50
    assert "at most N = 50" in ox.message_text
    ox.draw_pile.value = 30
    ox.unseen.value = 20  # lowering N below the pile drags the pile along
    assert ox.draw_pile.value == 20 and "draw pile" in ox.message_text


def test_discard_matching_more_than_discard_is_clamped_with_a_message():
    ox = OddsExplorer()
    set_values(ox, unseen=60, matching=10, discard=5, discard_matching=8)
    assert ox.discard_matching.value == 5
    assert "at most 5 of them can match" in ox.message_text
    ox.discard.value = 3  # shrinking the discard pile shrinks its matching cards
    assert ox.discard_matching.value == 3 and ox.message_text


def test_deck_limits_are_explained():  # rule C1
    ox = OddsExplorer()
    ox.discard.value = 30  # 110 unseen: no card can be in the discard pile
    assert ox.discard.value == 0 and "Lower the unseen cards N first" in ox.message_text
    set_values(ox, unseen=70, discard=30, matching=20, discard_matching=10)
    assert ox.discard_matching.value == 6  # 26 red-or-locomotive cards in the whole deck
    assert "26" in ox.message_text
    ox.unseen.value = 100
    assert ox.unseen.value == 80 and "at most 80 cards can be unseen" in ox.message_text


def test_bad_constructor_arguments_give_a_message_not_an_exception():
    ox = OddsExplorer(reveal=12, unseen=10, matching=200, draw_pile=50, discard=-3,
                      discard_matching=1)
    assert (ox.reveal.value, ox.unseen.value, ox.matching.value, ox.draw_pile.value,
            ox.discard.value, ox.discard_matching.value) == (8, 10, 10, 10, 0, 0)
    msg = ox.message_text
    assert "reveal=12" in msg and "matching=200" in msg and "discard=-3" in msg
    ox = OddsExplorer(reveal="four")
    assert ox.reveal.value == 4 and "not a whole number" in ox.message_text


def test_unexpected_error_is_a_message_not_a_traceback(monkeypatch):
    import ttrlib.widgets.odds_explorer as mod

    ox = OddsExplorer()

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(mod.TunnelReveal, "law", broken)  # the explorer's one source of laws
    ox.reveal.value = 5  # must not raise
    assert "Something went wrong" in ox.message_text and "boom" in ox.message_text
    ox.simulate.click()  # neither must this
    assert isinstance(ox.last_error, RuntimeError)
    assert not ox.simulate.disabled


# --- the experiment ---------------------------------------------------------------------------
def test_simulate_fills_the_progress_bar_and_agrees():
    ox = OddsExplorer(seed=0)
    ox.trials.value = 10_000
    assert ox.progress.value == 0
    ox.simulate.click()
    assert ox.last_error is None
    assert ox.progress.max > 1 and ox.progress.value == ox.progress.max
    assert int(ox.counts.sum()) == 10_000 and len(ox.counts) == 5
    assert ox.comparison.agrees
    sim = text(ox.sim_panel)
    assert "shows no sign of disagreement with the exact law: in 10,000 shuffled reveals" in sim
    # the verdict in plain words first (issue 9), the chi-square folded under "for the curious"
    law = hyper(110, 26, 4)
    gaps = [abs(int(ox.counts[k]) / 10_000 - float(law[k])) for k in range(5)]
    assert (f"in 10,000 shuffled reveals every simulated frequency is within "
            f"{100 * max(gaps):.2f} percentage points of its exact chance") in sim
    assert sim.index("luck alone") < sim.index("For the curious") < sim.index("Chi-square")
    p0 = Fraction(comb(84, 4), comb(110, 4))
    assert str(p0) in sim and f"{int(ox.counts[0]):,}" in sim  # simulated beside exact
    assert "data:image/png;base64," in ox.sim_panel.value  # the convergence picture
    trials = [t for t, _, _ in ox.history]
    assert trials == sorted(trials) and trials[-1] == 10_000 and trials[0] < 1_000
    gaps = [g for _, g, _ in ox.history]
    bands = [b for _, _, b in ox.history]
    assert bands == sorted(bands, reverse=True)  # the 99% band narrows like 1/sqrt(trials)
    assert gaps[-1] <= bands[-1]


def test_simulation_is_reproducible_and_runs_differ():
    a, b = OddsExplorer(seed=7), OddsExplorer(seed=7)
    for ox in (a, b):
        ox.trials.value = 1_000
        ox.simulate.click()
    assert np.array_equal(a.counts, b.counts)
    first = a.counts.copy()
    a.simulate.click()  # run 2 draws fresh seeds from the same SeedSequence root
    assert not np.array_equal(first, a.counts)
    assert "run 2" in text(a.sim_panel)


def test_simulate_reshuffle_case_agrees_and_a_slider_clears_it():  # U6, C6
    ox = OddsExplorer(seed=3)
    set_values(ox, unseen=20, matching=5, draw_pile=2, discard=30, discard_matching=8)
    ox.trials.value = 10_000
    ox.simulate.click()
    assert ox.comparison.agrees and ox.progress.value == ox.progress.max
    ox.reveal.value = 5
    assert ox.comparison is None and ox.progress.value == 0
    assert "Press Simulate" in text(ox.sim_panel)


def test_simulate_a_certain_law():
    ox = OddsExplorer()
    ox.reveal.value = 0
    ox.trials.value = 1_000
    ox.simulate.click()
    assert ox.last_error is None and ox.comparison.agrees
    assert list(ox.counts) == [1_000]
    assert "no gap to shrink" in text(ox.sim_panel)


def test_the_discard_slider_says_why_it_cannot_move():  # rule C1, issue 9 slip
    """With all 110 cards unseen the discard pile must stay empty: moving its slider snaps it
    back to 0, and both the message line and the note beside the slider say why."""
    ox = OddsExplorer()
    assert "110 − N = 0" in text(ox.discard_note) and "lower N" in text(ox.discard_note)
    ox.discard.value = 10
    assert ox.discard.value == 0
    assert "can hold at most 0" in ox.message_text and "Lower the unseen cards N" in ox.message_text
    ox.unseen.value = 90
    assert "110 − N = 20" in text(ox.discard_note) and "lower N" not in text(ox.discard_note)
    ox.discard.value = 15
    assert ox.discard.value == 15 and ox.message_text == ""


def test_the_seed_is_shown_and_new_game_clears_the_simulation():
    ox = OddsExplorer(seed=1234, reveal=3)
    assert "game 1234" in text(ox.game_label)
    ox.trials.value = 1_000
    ox.run_simulation()
    first = ox.counts.copy()
    ox.new_game(99)
    assert ox.counts is None and ox.runs == 0 and "game 99" in text(ox.game_label)
    ox.run_simulation()
    assert "seed 99, run 1" in text(ox.sim_panel) and ox.counts.sum() == first.sum() == 1_000
