"""Exact tunnel laws (ttrlib.odds) against an independent brute-force oracle, scipy and sympy.

Rules: U2 (colour + locomotives match), U5 (locomotives-only claims: only locomotives match),
U6 / C6 (a short draw pile is revealed in full, then the reshuffled discard pile).
"""

from __future__ import annotations

import doctest
import subprocess
import sys
import types
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from quick_profile import examples
from test_chance import brute_force_law as oracle  # the one brute-force oracle of the law

import ttrlib
from ttrlib import odds
from ttrlib.cards import COLORS, TRAIN_COLORS, CardCounts, Color, standard_deck
from ttrlib.odds import Distribution, hypergeom_law, tunnel_extra_cost

R, B, G, L = Color.RED, Color.BLUE, Color.GREEN, Color.LOCOMOTIVE


# --- an independent oracle: play out every ordering of the cards -------------------------------
# ``oracle(pool, colour, reveal, deck_size, discard)`` (test_chance.brute_force_law) enumerates
# every ordering of the labelled cards, turns them as U6 / C6 say and prices each reveal by a
# hand-written key (U2, U5).

ORACLE_CASES = [
    # (pool, colour, reveal, deck_size, discard)
    ([R, R, B, L, G, B], R, 3, 6, []),
    ([R, R, B, L, G, B], R, 3, 4, [R, L]),  # enough cards in the pile: discard unused
    ([R, R, B, L, G, B], G, 6, 6, []),
    ([R, B, L, G, B, L, R], R, 4, 5, []),
    ([R, R, B, L, G, B, G, L], B, 4, 5, []),  # 8 cards, a pile that is part of the pool
    ([R, R, B, L, G, B], R, 4, 2, [L, R, G, B]),  # U6/C6: reshuffle mid-reveal
    ([R, L, B, G, B], R, 5, 3, [L, G, R]),  # reshuffle, two more from the discard
    ([R, L, B, G, B, R], R, 6, 1, [L, G, R]),  # reshuffle, discard runs out too (U6)
    ([R, R, B, L, L, G], L, 3, 6, []),  # U5: locomotives-only claim
    ([R, R, B, L, L, G], L, 4, 2, [R, L, B]),  # U5 with a reshuffle
    ([R, R, B, L, L, G], R, 4, 2, [R, L, B]),  # same cards, a red claim (U2)
    ([R, B, L], R, 5, 3, [L, R]),  # reveal more than the pool (default deck_size)
    ([R, B, L, G], R, 4, 0, []),  # nothing to reveal: no extra cost (U6)
    ([], R, 4, 0, []),
    ([R, B, L, G], R, 2, 0, [R, G, L]),  # empty draw pile: all from the reshuffled discard
    ([R, B, L, G], R, 0, 4, [R]),  # reveal 0
    ([R, R, R], R, 2, 3, []),  # every card matches
    ([B, G, B], R, 3, 3, [L]),  # no card matches
]


@pytest.mark.parametrize("pool,color,reveal,deck_size,discard", ORACLE_CASES)
def test_exact_law_equals_brute_force(pool, color, reveal, deck_size, discard):
    expected = oracle(pool, color, reveal, deck_size, discard)
    got = tunnel_extra_cost(
        CardCounts.of(pool), color, reveal, deck_size=deck_size, discard=CardCounts.of(discard)
    )
    assert got == expected
    assert got.pmf == expected.pmf


def test_default_deck_size_is_the_whole_pool():
    pool = [R, B, L, G, B]
    assert tunnel_extra_cost(CardCounts.of(pool), R, 3) == oracle(pool, R, 3, len(pool), [])


def test_nothing_to_reveal_costs_nothing():  # U6
    sure0 = Distribution({0: Fraction(1)})
    assert tunnel_extra_cost(CardCounts(), R, 6) == sure0
    assert tunnel_extra_cost(standard_deck(), R, 4, deck_size=0) == sure0
    assert tunnel_extra_cost(standard_deck(), R, 0) == sure0
    assert tunnel_extra_cost(standard_deck(), R, 0, deck_size=0, discard=standard_deck()) == sure0
    assert tunnel_extra_cost(CardCounts(red=3), R, 3, deck_size=0, discard={}) == sure0


def test_reshuffle_only_uses_what_exists():  # U6: pile of 1, discard of 1, tunnel of 4
    d = tunnel_extra_cost(CardCounts(red=1, blue=1), R, 4, deck_size=1, discard=CardCounts(green=1))
    assert d.pmf == {0: Fraction(1, 2), 1: Fraction(1, 2)}


def test_locomotives_only_claim_counts_only_locomotives():  # U5
    pool = CardCounts(red=5, locomotive=2, blue=3)
    loco = tunnel_extra_cost(pool, Color.LOCOMOTIVE, 3)
    assert loco == hypergeom_law(10, 2, 3)
    assert tunnel_extra_cost(pool, R, 3) == hypergeom_law(10, 7, 3)
    assert tunnel_extra_cost(pool, "loco", 3) == loco  # colour names are parsed


# --- the check figures of the rules document ---------------------------------------------------


@pytest.mark.parametrize(
    "n,p_colour,p_loco",
    [(3, 0.4415, 0.6620), (4, 0.3342, 0.5754), (5, 0.2522, 0.4994), (6, 0.1898, 0.4328)],
)
def test_fresh_deck_check_figures(n, p_colour, p_loco):
    deck = standard_deck()  # N = 110
    for colour in TRAIN_COLORS:  # K = 12 + 14 = 26 for every colour (U2)
        assert round(float(tunnel_extra_cost(deck, colour, n).prob(0)), 4) == p_colour
    assert round(float(tunnel_extra_cost(deck, Color.LOCOMOTIVE, n).prob(0)), 4) == p_loco  # K=14
    assert tunnel_extra_cost(deck, R, n).prob(0) == Fraction(comb(84, n), comb(110, n))


def test_fresh_deck_table_from_scipy_matches_check_figures():
    table = odds.p_no_extra_table(110, [26, 14], range(3, 7))
    assert [round(float(x), 4) for x in table[0]] == [0.4415, 0.3342, 0.2522, 0.1898]
    assert [round(float(x), 4) for x in table[1]] == [0.6620, 0.5754, 0.4994, 0.4328]


# --- scipy, sympy and the Fractions agree -----------------------------------------------------

GRID = [
    (N, K, n)
    for N in (1, 7, 20, 110)
    for K in sorted({0, 1, N // 3, N})
    for n in sorted({0, 1, 3, 6, N})
    if n <= N
]


def test_scipy_agrees_with_fractions_on_a_grid():
    for N, K, n in GRID:
        exact = hypergeom_law(N, K, n)
        row = odds.hypergeom_table(N, K, n)[0]
        assert row.shape == (n + 1,)
        for k in range(n + 1):
            assert row[k] == pytest.approx(float(exact.prob(k)), rel=1e-9, abs=1e-15), (N, K, n, k)
    table = odds.p_no_extra_table(110, range(0, 27), range(0, 8))
    assert table.shape == (27, 8)
    for K in range(27):
        for n in range(8):
            assert table[K, n] == pytest.approx(float(hypergeom_law(110, K, n).prob(0)), rel=1e-9)


def test_sympy_formula_agrees_with_fractions_on_a_grid():
    import sympy

    expr = odds.symbolic_law()
    assert {str(s) for s in expr.free_symbols} == {"N", "K", "n", "k"}
    for N, K, n in GRID[::3] + [(110, 26, 4), (110, 14, 6)]:
        exact = hypergeom_law(N, K, n)
        for k in range(n + 1):
            value = odds.symbolic_pmf(N, K, n, k)
            assert isinstance(value, sympy.Rational)
            assert Fraction(int(value.p), int(value.q)) == exact.prob(k), (N, K, n, k)
    shown = odds.symbolic_pmf(110, 26, 4, 1, evaluate=False)
    assert "binomial(110, 4)" in str(shown)
    assert shown.doit() == odds.symbolic_pmf(110, 26, 4, 1)


# --- hypothesis: laws of arbitrary small positions --------------------------------------------

counts = st.dictionaries(st.sampled_from(COLORS), st.integers(0, 8), max_size=5).map(CardCounts)


@st.composite
def positions(draw):
    pool = draw(counts)
    deck_size = draw(st.integers(0, len(pool)))
    discard = draw(counts)
    color = draw(st.sampled_from(COLORS))
    reveal = draw(st.integers(0, 9))
    return pool, color, reveal, deck_size, discard


@settings(max_examples=examples(300), deadline=None)
@given(positions())
def test_law_is_a_probability_law(position):
    pool, color, reveal, deck_size, discard = position
    d = tunnel_extra_cost(pool, color, reveal, deck_size=deck_size, discard=discard)
    pmf = d.pmf
    assert sum(pmf.values(), Fraction(0)) == 1  # exactly
    assert all(isinstance(p, Fraction) and p > 0 for p in pmf.values())
    assert d.mean == sum(k * p for k, p in pmf.items())
    assert d.variance == sum(k * k * p for k, p in pmf.items()) - d.mean**2 >= 0
    assert set(d.support) <= set(range(reveal + 1))
    can_show = min(reveal, deck_size + (len(discard) if reveal > deck_size else 0))
    assert max(d.support) <= can_show
    assert d.at_most(reveal) == 1 and d.at_least(0) == 1
    for k in range(reveal + 2):
        assert d.at_most(k) + d.at_least(k + 1) == 1
        assert d.prob(k) == pmf.get(k, 0)


def _more_matching(cards: CardCounts, color: Color) -> CardCounts | None:
    """``cards`` with one non-matching card replaced by a matching one (None if impossible)."""
    loose = [c for c in COLORS if cards[c] and c is not L and (color is L or c is not color)]
    if not loose:
        return None
    return cards - CardCounts({loose[0]: 1}) + CardCounts({L: 1})


@settings(max_examples=examples(300), deadline=None)
@given(positions())
def test_more_matching_cards_never_raise_the_chance_of_no_extra(position):
    pool, color, reveal, deck_size, discard = position
    before = tunnel_extra_cost(pool, color, reveal, deck_size=deck_size, discard=discard).prob(0)
    richer_pool = _more_matching(pool, color)
    if richer_pool is not None:
        after = tunnel_extra_cost(richer_pool, color, reveal, deck_size=deck_size, discard=discard)
        assert after.prob(0) <= before
    richer_discard = _more_matching(discard, color)
    if richer_discard is not None:
        after = tunnel_extra_cost(pool, color, reveal, deck_size=deck_size, discard=richer_discard)
        assert after.prob(0) <= before


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 40), st.data())
def test_hypergeometric_mean_is_n_times_K_over_N(N, data):
    K = data.draw(st.integers(0, N))
    n = data.draw(st.integers(0, N))
    d = hypergeom_law(N, K, n)
    if N:
        assert d.mean == Fraction(n * K, N)


# --- input validation --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs,error,words",
    [
        (dict(pool={"red": -1}), ValueError, "negative"),
        (dict(pool={"purple-ish": 1}), ValueError, "unknown card colour"),
        (dict(discard={"red": -2}, deck_size=0), ValueError, "discard"),
        (dict(color="mauve"), ValueError, "unknown card colour"),
        (dict(color=3), ValueError, "unknown card colour"),
        (dict(reveal=-1), ValueError, "reveal cannot be negative"),
        (dict(reveal=2.0), TypeError, "reveal must be an integer"),
        (dict(deck_size=200), ValueError, "cannot exceed"),
        (dict(deck_size=-1), ValueError, "deck_size cannot be negative"),
        (dict(pool=[R, B]), TypeError, "mapping"),
    ],
)
def test_bad_input_is_refused_clearly(kwargs, error, words):
    args = dict(pool=standard_deck(), color=R, reveal=3) | kwargs
    with pytest.raises(error, match=words):
        tunnel_extra_cost(args.pop("pool"), args.pop("color"), args.pop("reveal"), **args)


def test_distribution_validation():
    with pytest.raises(ValueError, match="exactly 1"):
        Distribution({0: Fraction(1, 3), 1: Fraction(1, 3)})
    with pytest.raises(ValueError, match="negative"):
        Distribution({0: Fraction(3, 2), 1: Fraction(-1, 2)})
    with pytest.raises(ValueError, match="negative"):
        Distribution({-1: Fraction(1)})
    with pytest.raises(TypeError, match="Fraction"):
        Distribution({0: 0.5, 1: 0.5})
    with pytest.raises(TypeError, match="integers"):
        Distribution({0.0: Fraction(1)})
    with pytest.raises(TypeError):
        Distribution([Fraction(1)])
    with pytest.raises(ValueError, match="K <= N"):
        hypergeom_law(3, 4, 1)


# --- the Distribution object -------------------------------------------------------------------


def test_distribution_reading_and_equality():
    d = Distribution({2: Fraction(1, 4), 0: Fraction(1, 2), 1: Fraction(1, 4), 5: 0})
    assert d.support == (0, 1, 2)
    assert list(d.pmf) == [0, 1, 2]  # sorted, zero dropped
    assert d.mean == Fraction(3, 4) and d.variance == Fraction(11, 16)
    assert d.at_most(0) == Fraction(1, 2) and d.at_least(2) == Fraction(1, 4)
    assert d.prob(7) == 0 and d.floats() == {0: 0.5, 1: 0.25, 2: 0.25}
    same = Distribution({0: Fraction(2, 4), 1: Fraction(1, 4), 2: Fraction(1, 4)})
    assert d == same and hash(d) == hash(same) and d != Distribution.certain(0)
    assert d != {0: Fraction(1, 2)}
    d.pmf[0] = Fraction(0)  # a copy: the law does not change
    assert d.prob(0) == Fraction(1, 2)
    assert eval(repr(d), {"Distribution": Distribution, "Fraction": Fraction}) == d
    assert Distribution({0: 1}) == Distribution.certain(0)


def test_convolution_is_the_law_of_a_sum():
    a = hypergeom_law(10, 3, 2)
    b = hypergeom_law(5, 2, 2)
    assert a.convolve(b).mean == a.mean + b.mean
    assert a.convolve(b).variance == a.variance + b.variance
    assert tunnel_extra_cost(
        CardCounts(red=3, blue=7), R, 5, deck_size=2, discard=CardCounts(locomotive=2, green=3)
    ) == hypergeom_law(10, 3, 2).convolve(hypergeom_law(5, 2, 3))


def test_cached_laws_are_shared_and_safe():
    a = tunnel_extra_cost(standard_deck(), R, 4)
    b = tunnel_extra_cost(dict(standard_deck().items()), "red", 4)
    assert a is b  # lru_cache: same (immutable) object
    a.pmf.clear()
    assert sum(b.pmf.values()) == 1


def test_plot_draws_bars():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    d = tunnel_extra_cost(standard_deck(), R, 4)
    ax = d.plot()
    assert len(ax.patches) == 5
    assert ax.patches[0].get_height() == pytest.approx(float(d.prob(0)))
    fig, ax2 = plt.subplots()
    assert d.plot(ax=ax2) is ax2
    plt.close("all")


def test_html_repr_goes_through_display(monkeypatch):
    seen = []
    fake = types.ModuleType("ttrlib.display")
    fake.distribution_html = lambda dist, title=None: seen.append(dist) or "<div>law</div>"
    monkeypatch.setitem(sys.modules, "ttrlib.display", fake)
    monkeypatch.setattr(ttrlib, "display", fake, raising=False)
    d = Distribution.certain(1)
    assert d._repr_html_() == "<div>law</div>" and seen == [d]


# --- light import and runnable docstrings ------------------------------------------------------


def test_import_does_not_load_heavy_libraries():
    code = (
        "import sys, ttrlib.odds, ttrlib.simulate\n"
        "heavy = [m for m in ('scipy', 'sympy', 'matplotlib', 'tqdm') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_docstring_examples_run():
    result = doctest.testmod(odds, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 10
