"""The physical tunnel simulation (ttrlib.simulate) and the statistical check ``compare``.

Every statistical test uses a fixed seed, so the suite is deterministic.

Tolerance of ``compare(...).agrees`` ("shows no sign of disagreement"): every value k with
0 < P(k) < 1 must pass the two-sided exact binomial test of its count at level 0.001 / (number
of such values) (Bonferroni), and the chi-square goodness-of-fit p-value must be at least 0.001.
A correct simulation is therefore flagged by chance with probability at most 0.002 per case
(union bound); with the fixed seeds below every correct case passes, and the wrong laws are
rejected by margins of many standard errors (checked in the tests), so the verdicts do not hinge
on the seed."""

from __future__ import annotations

import dataclasses
import doctest
from fractions import Fraction
from itertools import permutations, product
from math import comb

import numpy as np
import pytest

from ttrlib import simulate
from ttrlib.cards import CardCounts, Color, standard_deck
from ttrlib.odds import Distribution, hypergeom_law, tunnel_extra_cost
from ttrlib.simulate import CHUNK, Comparison, compare, simulate_extra_cost

R, B, G, L = Color.RED, Color.BLUE, Color.GREEN, Color.LOCOMOTIVE


# --- the shuffle itself is exact ---------------------------------------------------------------


@pytest.mark.parametrize("size,r", [(1, 1), (4, 2), (5, 3), (6, 6), (7, 4)])
def test_partial_fisher_yates_reaches_every_ordered_draw_once(size, r):
    """Feed every possible sequence of swap choices (place j swaps with one of j..size-1): the
    cards shown at places 0..r-1 must run through every ordered choice of r distinct starting
    slots exactly once, so uniform choices give a uniform shuffle."""
    choices = list(product(*[range(j, size) for j in range(r)]))
    n = len(choices)
    picks = np.array(choices, dtype=np.uint8).T.copy()  # (r, n)
    slot = np.empty(n, np.uint8)
    eq = np.empty(n, bool)
    shown = np.empty((r, n), np.uint8)
    for j in range(r):
        shown[j] = simulate._trace_slots(picks, j, slot, eq)
    seen = sorted(map(tuple, shown.T.tolist()))
    assert seen == sorted(permutations(range(size), r))

    # and it is the same as swapping cards in a real list
    for c, col in zip(choices, shown.T):
        cards = list(range(size))
        for j, i in enumerate(c):
            cards[j], cards[i] = cards[i], cards[j]
        assert cards[:r] == col.tolist()


@pytest.mark.parametrize("bound", [1, 2, 3, 7, 105, 110, 256, 1000, 40000])
def test_uniform_below_is_exactly_uniform(bound):
    """Every 16-bit input that is not rejected maps to each of 0..bound-1 equally often."""
    raw = np.arange(1 << 16, dtype=np.uint16)
    n = raw.size
    out = np.empty(n, np.uint16)
    low = np.empty(n, bool)
    simulate._uniform_below(
        raw,
        bound,
        out,
        np.random.default_rng(0),
        np.empty(n, np.uint32),
        np.empty(n, np.uint16),
        low,
    )
    assert low.sum() == (1 << 16) % bound  # rejected (and drawn again)
    assert out.max() < bound
    hist = np.bincount(out[~low], minlength=bound)
    assert (hist == (1 << 16) // bound).all()
    assert np.bincount(out, minlength=bound).sum() == n


# --- the output --------------------------------------------------------------------------------


def test_counts_shape_total_and_reproducibility():
    deck = standard_deck()
    trials = 2 * CHUNK + 123  # two full chunks and a partial one
    a = simulate_extra_cost(deck, R, 4, trials=trials, seed=7)
    b = simulate_extra_cost(deck, R, 4, trials=trials, seed=7)
    c = simulate_extra_cost(deck, R, 4, trials=trials, seed=8)
    assert a.shape == (5,) and a.dtype == np.int64 and int(a.sum()) == trials
    assert (a == b).all() and not (a == c).all()
    assert (simulate_extra_cost(deck, R, 4, trials=0, seed=1) == 0).all()
    rng = np.random.default_rng(3)
    assert simulate_extra_cost(deck, R, 3, trials=10, seed=rng).sum() == 10  # a Generator works


def test_sure_outcomes():
    assert simulate_extra_cost({}, R, 4, trials=1000, seed=1).tolist() == [1000, 0, 0, 0, 0]
    assert simulate_extra_cost(standard_deck(), R, 0, trials=99, seed=1).tolist() == [99]
    assert simulate_extra_cost({"red": 5}, R, 3, trials=50, seed=1).tolist() == [0, 0, 0, 50]
    # U5: reds never match a locomotives-only claim
    assert simulate_extra_cost({"red": 5}, L, 3, trials=50, seed=1).tolist() == [50, 0, 0, 0]
    # U6: a pile of 1 and a discard of 1 can show at most 2 cards, both matching here
    assert simulate_extra_cost(
        {"red": 1}, R, 4, trials=20, seed=1, discard={"locomotive": 1}
    ).tolist() == [0, 0, 20, 0, 0]
    # nothing in the pile, nothing in the discard: no extra cost
    none_left = simulate_extra_cost({"red": 3}, R, 3, trials=20, seed=1, deck_size=0)
    assert none_left.tolist() == [20, 0, 0, 0]


def test_progress_bar(capsys):
    counts = simulate_extra_cost(standard_deck(), R, 4, trials=CHUNK + 1, seed=1, progress=True)
    assert counts.sum() == CHUNK + 1
    assert "tunnel reveals" in capsys.readouterr().err


@pytest.mark.parametrize(
    "kwargs,error,words",
    [
        (dict(trials=-1), ValueError, "trials cannot be negative"),
        (dict(trials=1.5), TypeError, "trials must be an integer"),
        (dict(reveal=-1), ValueError, "reveal"),
        (dict(deck_size=111), ValueError, "cannot exceed"),
        (dict(color="teal"), ValueError, "unknown card colour"),
        (dict(pool={"red": -3}), ValueError, "negative"),
    ],
)
def test_bad_input_is_refused(kwargs, error, words):
    args = dict(pool=standard_deck(), color=R, reveal=3, trials=10, seed=1) | kwargs
    with pytest.raises(error, match=words):
        simulate_extra_cost(args.pop("pool"), args.pop("color"), args.pop("reveal"), **args)


# --- the simulation agrees with the exact law ----------------------------------------------------

FRESH = standard_deck()
SIM_CASES = [
    # (pool, colour, reveal, deck_size, discard)
    (FRESH, R, 3, None, None),
    (FRESH, R, 4, None, None),
    (FRESH, B, 5, None, None),
    (FRESH, G, 6, None, None),
    (FRESH, L, 4, None, None),  # U5
    (FRESH, L, 6, None, None),  # U5
    (FRESH - CardCounts(red=9, locomotive=6), R, 6, 40, None),  # part of the pool is the pile
    (CardCounts(red=3, blue=4, locomotive=2), R, 5, 3, CardCounts(red=2, green=3, locomotive=1)),
    (CardCounts(red=3, blue=4, locomotive=2), L, 5, 3, CardCounts(red=2, green=3, locomotive=1)),
    (CardCounts(red=1, blue=2), R, 6, 2, CardCounts(locomotive=2, green=1, red=1)),  # both run out
    (CardCounts(red=4, blue=4), R, 3, 0, CardCounts(red=2, locomotive=2, blue=5)),  # empty pile
    (CardCounts(red=10, blue=12, locomotive=5), R, 30, None, CardCounts(red=4, blue=6)),  # big
    (CardCounts(red=100, blue=150, locomotive=60), R, 6, None, None),  # over 256 cards
    (CardCounts(red=100, blue=150, locomotive=60), L, 40, 35, CardCounts(blue=9, red=3)),
    (CardCounts(red=20, blue=50, locomotive=10), R, 70, None, None),  # a full shuffle per trial
    (CardCounts(red=2, green=6), G, 75, None, CardCounts(green=30, red=40)),  # same, discard
]


@pytest.mark.parametrize("case", range(len(SIM_CASES)))
def test_simulation_agrees_with_exact_law(case):
    pool, color, reveal, deck_size, discard = SIM_CASES[case]
    exact = tunnel_extra_cost(pool, color, reveal, deck_size=deck_size, discard=discard)
    trials = 300_000 if reveal <= simulate._PARTIAL_LIMIT else 60_000
    counts = simulate_extra_cost(
        pool, color, reveal, trials=trials, seed=1000 + case, deck_size=deck_size, discard=discard
    )
    assert counts.sum() == trials
    assert all(counts[k] == 0 for k in range(reveal + 1) if exact.prob(k) == 0)
    verdict = compare(exact, counts)
    assert verdict.agrees, str(verdict)


# --- ... and the check can fail -----------------------------------------------------------------


def binomial_law(n: int, p: Fraction) -> Distribution:
    """Drawing with replacement: the wrong law for a shuffled deck."""
    return Distribution({k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)})


def test_wrong_law_ignoring_u5_is_rejected():
    # a locomotives-only claim simulated by the rules, checked against a law that also counts
    # the claim's colour (26 matching cards instead of 14): it must be rejected.
    counts = simulate_extra_cost(FRESH, L, 4, trials=200_000, seed=11)
    right = compare(tunnel_extra_cost(FRESH, L, 4), counts)
    wrong = compare(hypergeom_law(110, 26, 4), counts)
    assert right.agrees
    assert not wrong.agrees and wrong.p_value < 1e-100
    assert wrong.max_deviation > 20 * wrong.band


@pytest.mark.parametrize(
    "pool,reveal,trials,margin",
    [
        (FRESH, 4, 1_000_000, 3),  # 4 of 110: replacement hardly matters, still seen
        (CardCounts(red=8, blue=12), 6, 200_000, 10),  # 6 of 20: replacement matters a lot
    ],
)
def test_wrong_law_with_replacement_is_rejected(pool, reveal, trials, margin):
    counts = simulate_extra_cost(pool, R, reveal, trials=trials, seed=12)
    K, N = pool[R] + pool[L], len(pool)
    right = compare(tunnel_extra_cost(pool, R, reveal), counts)
    wrong = compare(binomial_law(reveal, Fraction(K, N)), counts)
    assert right.agrees, str(right)
    assert not wrong.agrees, str(wrong)
    assert wrong.p_value < 1e-6 and wrong.max_deviation > margin * wrong.band


# --- compare -----------------------------------------------------------------------------------


def test_compare_reports():
    law = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
    ok = compare(law, [5010, 4990])
    assert isinstance(ok, Comparison) and ok.agrees and ok.trials == 10_000 and ok.dof == 1
    assert ok.max_deviation == pytest.approx(0.001)
    # each of the 2 cells at level 0.001 / 2: |z| up to 3.48 standard deviations of 0.005
    assert ok.cells == 2 and ok.cell_level == pytest.approx(0.0005)
    assert ok.band == pytest.approx(3.48 * 0.005, abs=2e-4) and ok.outside == ()
    assert ok.false_alarm == pytest.approx(0.002)
    assert "shows no sign of disagreement" in str(ok) and "agrees with" not in str(ok)
    assert "No sign of disagreement" in ok._repr_html_()
    assert "<details><summary>For the curious: the maths</summary>" in ok._repr_html_()
    bad = compare(law, [6000, 4000])
    assert not bad.agrees and bad.outside == (0, 1)
    assert "disagrees with the exact law" in str(bad) and "Disagrees" in bad._repr_html_()
    with pytest.raises(dataclasses.FrozenInstanceError):
        ok.trials = 3


def test_compare_pools_small_cells_and_catches_impossible_values():
    law = hypergeom_law(110, 26, 6)  # P(6) ~ 1e-4: expected count < 5 with 10_000 trials
    counts = np.round(10_000 * np.array([float(law.prob(k)) for k in range(7)])).astype(int)
    counts[0] += 10_000 - counts.sum()
    verdict = compare(law, counts)
    assert verdict.agrees and verdict.dof < 6
    # a value the exact law rules out (3 extra cards from a 2-card reveal)
    assert not compare(hypergeom_law(10, 5, 2), [25, 50, 24, 1]).agrees
    assert compare(Distribution.certain(0), [100]).agrees  # one cell: nothing to test but no gap
    with pytest.raises(ValueError):
        compare(law, [])
    with pytest.raises(ValueError):
        compare(law, [-1, 2])
    with pytest.raises(TypeError):
        compare({0: 1}, [1])


def test_every_value_has_its_own_exact_band():
    """A cell's band is the set of counts whose two binomial tails both exceed level / 2,
    found here by summing exact binomial probabilities (Fractions) count by count."""
    n, p = 200, Fraction(1, 20)
    law = Distribution({0: 1 - p, 1: p})
    verdict = compare(law, [190, 10])
    level = Fraction(1, 1000) / 2  # two cells
    pmf = [comb(n, c) * p**c * (1 - p) ** (n - c) for c in range(n + 1)]
    passing = [c for c in range(n + 1)
               if sum(pmf[: c + 1]) > level / 2 and sum(pmf[c:]) > level / 2]
    assert passing == list(range(passing[0], passing[-1] + 1))  # an interval
    lo, hi = verdict.bands[1]
    assert (round(lo * n), round(hi * n)) == (passing[0], passing[-1])
    for c in (passing[0] - 1, passing[0], passing[-1], passing[-1] + 1):
        assert (compare(law, [n - c, c]).outside == ()) == (c in passing), c


def doubled(law: Distribution, k: int) -> Distribution:
    """``law`` with P(k) doubled and every other probability scaled down to keep the sum 1."""
    q = law.prob(k)
    return Distribution({j: 2 * p if j == k else p * (1 - 2 * q) / (1 - q)
                         for j, p in law.pmf.items()})


def test_a_law_wrong_for_one_rare_value_is_caught():
    """A red 6-card tunnel on a full deck: P(6 extra) = 1/9,300 or so. A law that doubles it is
    wrong for that one value only. The largest gap between simulated and exact frequencies is
    at a common value (their noise is bigger than the whole error), and within the 99% band
    that the former ``compare`` checked; the every-cell test finds k = 6 (about 5 standard
    errors off with 500,000 trials)."""
    trials = 500_000
    counts = simulate_extra_cost(FRESH, R, 6, trials=trials, seed=31)
    right_law = tunnel_extra_cost(FRESH, R, 6)
    wrong_law = doubled(right_law, 6)
    right, wrong = compare(right_law, counts), compare(wrong_law, counts)
    assert right.agrees and right.outside == (), str(right)
    assert not wrong.agrees and wrong.outside == (6,), str(wrong)
    expected = trials * float(wrong_law.prob(6))
    assert (expected - counts[6]) / expected**0.5 > 4  # the stated margin
    # the former check: only the largest gap, against its 99% normal band
    gaps = [abs(counts[k] / trials - float(wrong_law.prob(k))) for k in range(7)]
    worst = max(range(7), key=gaps.__getitem__)
    p = float(wrong_law.prob(worst))
    assert worst != 6 and gaps[worst] <= 2.5758 * (p * (1 - p) / trials) ** 0.5


def test_docstring_examples_run():
    result = doctest.testmod(simulate)
    assert result.failed == 0 and result.attempted >= 5
