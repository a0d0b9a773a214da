"""Tunnel odds benchmarks: exact laws, the physical simulation, (later) engine-level claims.

Run with ``.venv/bin/python benchmarks/bench_odds.py`` (or ``make bench``). Every figure is a
ratio against a baseline measured in the same run, so the goals hold on any machine:

1. exact law (``ttrlib.odds.tunnel_extra_cost``) vs a plain ``math.comb`` + ``Fraction``
   computation of the same law: goal, at most 2x the time per call;
2. physical simulation (``ttrlib.simulate.simulate_extra_cost``) vs numpy's own
   ``Generator.hypergeometric`` sampler (plus ``bincount``, to give the same histogram) on the
   same parameters: goal, at least 2x the revealed tunnels per second;
3. engine-level simulated claims per second: a placeholder until the game engine is wired in.

Timings use ``time.perf_counter``; each is the best of several repeats, and the two sides of a
ratio are measured alternately so background load hits both alike.
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction
from functools import partial
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from ttrlib import chance, odds  # noqa: E402
from ttrlib.cards import CardCounts, Color, standard_deck  # noqa: E402
from ttrlib.simulate import simulate_extra_cost  # noqa: E402

REPEATS = 7


def best_pair(fa, fb, number: int, repeats: int = REPEATS) -> tuple[float, float]:
    """Best seconds per call of ``fa`` and ``fb``, timed alternately."""
    ta = tb = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(number):
            fa()
        ta = min(ta, (time.perf_counter() - t) / number)
        t = time.perf_counter()
        for _ in range(number):
            fb()
        tb = min(tb, (time.perf_counter() - t) / number)
    return ta, tb


# --- (1) exact law ---------------------------------------------------------------------------


def plain_law(N: int, K: int, n: int, M: int = 0, KM: int = 0, r: int = 0) -> dict[int, Fraction]:
    """The same law written out directly with math.comb and Fraction (the baseline)."""
    if r == 0:
        total = comb(N, n)
        law = {}
        for k in range(n + 1):
            w = comb(K, k) * comb(N - K, n - k)
            if w:
                law[k] = Fraction(w, total)
        return law
    total = comb(N, n) * comb(M, r)
    out: dict[int, int] = {}
    for i in range(n + 1):
        a = comb(K, i) * comb(N - K, n - i)
        for j in range(r + 1):
            w = a * comb(KM, j) * comb(M - KM, r - j)
            if w:
                out[i + j] = out.get(i + j, 0) + w
    return {k: Fraction(w, total) for k, w in out.items()}


def uncached_law(pool, color, reveal, **kw):
    chance.two_draw_law.cache_clear()  # force the computation (the one law cache, in ttrlib.chance)
    return odds.tunnel_extra_cost(pool, color, reveal, **kw)


def bench_exact() -> None:
    deck = standard_deck()
    small = CardCounts(red=5, blue=9, locomotive=3, green=4)
    cases = [
        ("fresh deck, red, n=3", dict(pool=deck, color=Color.RED, reveal=3), (110, 26, 3)),
        ("fresh deck, red, n=4", dict(pool=deck, color=Color.RED, reveal=4), (110, 26, 4)),
        ("fresh deck, red, n=6", dict(pool=deck, color=Color.RED, reveal=6), (110, 26, 6)),
        (
            "fresh deck, loco only, n=5",
            dict(pool=deck, color=Color.LOCOMOTIVE, reveal=5),
            (110, 14, 5),
        ),
        (
            "pile 2 of 21 + reshuffle 4 of 9",
            dict(
                pool=small,
                color=Color.RED,
                reveal=6,
                deck_size=2,
                discard=CardCounts(red=2, locomotive=1, blue=6),
            ),
            (21, 8, 2, 9, 3, 4),
        ),
    ]
    print("(1) exact law: microseconds per call (best of %d), ratio to plain math.comb" % REPEATS)
    print(f"    {'case':34s} {'plain':>8s} {'cold':>8s} {'ratio':>6s} {'cached':>8s} {'ratio':>6s}")
    worst_cold = 0.0
    for name, kw, args in cases:
        assert odds.tunnel_extra_cost(**kw).pmf == plain_law(*args)
        cold = partial(uncached_law, kw.pop("pool"), kw.pop("color"), kw.pop("reveal"), **kw)
        warm = partial(odds.tunnel_extra_cost, *cold.args, **kw)
        base = partial(plain_law, *args)
        t_cold, t_base = best_pair(cold, base, 3000)
        t_warm, t_base2 = best_pair(warm, base, 3000)
        t_base = min(t_base, t_base2)
        worst_cold = max(worst_cold, t_cold / t_base)
        print(
            f"    {name:34s} {t_base * 1e6:8.2f} {t_cold * 1e6:8.2f} {t_cold / t_base:6.2f}"
            f" {t_warm * 1e6:8.2f} {t_warm / t_base:6.2f}"
        )
    verdict = "met" if worst_cold <= 2 else "NOT met"
    print(
        f"    goal <= 2x plain: {verdict} (worst uncached ratio {worst_cold:.2f};"
        " cached calls are a dictionary look-up)"
    )


# --- (2) physical simulation -----------------------------------------------------------------


def numpy_histogram(rng, good, bad, n, trials):
    return np.bincount(rng.hypergeometric(good, bad, n, size=trials), minlength=n + 1)


def bench_simulation(trials: int = 1 << 21) -> None:
    deck = standard_deck()
    print(
        f"\n(2) simulation: revealed tunnels per second ({trials:,} per run, best of "
        f"{REPEATS}), ratio to numpy Generator.hypergeometric + bincount"
    )
    print(f"    {'case':28s} {'numpy':>12s} {'ttrlib':>12s} {'ratio':>6s}")
    worst = float("inf")
    cases = [("fresh deck, red", Color.RED, 26, n) for n in (3, 4, 5, 6)]
    cases += [("fresh deck, loco only", Color.LOCOMOTIVE, 14, n) for n in (4, 6)]
    for name, color, K, n in cases:
        ours = partial(simulate_extra_cost, deck, color, n, trials=trials, seed=2)
        numpy_sampler = partial(numpy_histogram, np.random.default_rng(1), K, 110 - K, n, trials)
        t_ours, t_np = best_pair(ours, numpy_sampler, 1)
        ratio = t_np / t_ours
        worst = min(worst, ratio)
        print(
            f"    {name + f', n={n}':28s} {trials / t_np:12,.0f} {trials / t_ours:12,.0f}"
            f" {ratio:6.2f}"
        )
    verdict = "met" if worst >= 2 else "NOT met"
    print(f"    goal >= 2x numpy: {verdict} (worst ratio {worst:.2f})")


# --- (3) engine-level claims: PLACEHOLDER ----------------------------------------------------


def bench_engine_claims() -> float | None:
    """Simulated tunnel claims per second through the game engine (``simulate_claims``): each
    claim deals the hidden cards anew on a copy of a real position and applies the claim."""
    from ttrlib.lessons.tunnels import practice_position
    from ttrlib.simulate import simulate_claims

    game = practice_position(0)
    claim = odds.best_payment(game.view(0), "kathmandu-lhasa-1")[0].claim
    trials = 2000
    best = float("inf")
    for rep in range(3):
        t = time.perf_counter()
        simulate_claims(game, claim, trials, seed=rep)
        best = min(best, time.perf_counter() - t)
    return trials / best


def main() -> None:
    print(f"numpy {np.__version__}, python {sys.version.split()[0]}")
    bench_exact()
    bench_simulation()
    rate = bench_engine_claims()
    print("\n(3) engine claims: " + ("not measured yet" if rate is None else f"{rate:,.0f} / s"))


if __name__ == "__main__":
    main()
