"""Monte Carlo of the physical tunnel reveal, to check the exact laws of ``ttrlib.odds``.

``simulate_extra_cost`` does not use the hypergeometric formula: it lays out the actual cards,
shuffles them (an exact, vectorised partial Fisher-Yates shuffle, one independent shuffle per
trial), turns cards from the top of the draw pile, reshuffles the discard pile when the draw pile
runs out (U6, C6) and counts the revealed cards that match the claim by the rules (U2, U5).
``compare`` then tests the simulated counts against an exact ``Distribution``: every value's
frequency against its own band, and all of them together by chi-square.

>>> from ttrlib.cards import standard_deck
>>> from ttrlib.odds import tunnel_extra_cost
>>> counts = simulate_extra_cost(standard_deck(), "red", 4, trials=200_000, seed=1)
>>> counts.shape, int(counts.sum())
((5,), 200000)
>>> compare(tunnel_extra_cost(standard_deck(), "red", 4), counts).agrees
True
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .cards import COLORS, CardCounts, Color
from .chance import (
    MATCHING_INDEXES,
    Distribution,
    TunnelReveal,
    cards_arg,
    count_arg,
    pile_size_arg,
)
from .events import TunnelTried
from .state import Phase

__all__ = ["simulate_extra_cost", "simulate_reveals", "simulate_claims", "compare", "Comparison",
           "CHUNK"]

#: Trials simulated together. The work arrays (1-4 bytes per trial each) stay in cache; 131072
#: measured ~10% faster than 65536 (fewer numpy calls) and no slower than 262144.
CHUNK = 131072
#: Above this many revealed cards a full per-trial shuffle (``Generator.permuted``, ~5 us for
#: 110 cards) is used instead of the partial Fisher-Yates shuffle, whose bookkeeping grows with
#: the square of the reveal (~0.2 us at 12 cards, ~3 us at 60).
_PARTIAL_LIMIT = 64

#: For each claim colour, ``table[code]`` says whether a card of colour code ``code`` (its place
#: in ``COLORS``) matches: the rule of ``ttrlib.chance`` (U2, U5) as a look-up table.
_MATCH_TABLE = {color: np.isin(np.arange(len(COLORS)), idx) for color, idx in MATCHING_INDEXES.items()}


def _cards(counts: CardCounts) -> np.ndarray:
    """The physical cards of ``counts`` as an array of colour codes (index in ``COLORS``)."""
    return np.repeat(np.arange(len(COLORS), dtype=np.uint8), counts.as_tuple())


def _matches(cards: np.ndarray, color: Color) -> np.ndarray:
    """Which cards demand an extra card for a claim paid in ``color``, card by card (U2, U5)."""
    return _MATCH_TABLE[color][cards]


class _Deck:
    """A pile of physical cards, shuffled anew for every trial of a chunk.

    A uniform shuffle does not depend on the order the cards start in, so the pile is laid out
    with the matching cards on top before shuffling: the card that ends up at a revealed place
    matches exactly when the slot it *started* in is one of the first ``K``. That turns the
    colour check into one vectorised comparison instead of a table look-up per revealed card.
    """

    def __init__(self, cards: np.ndarray, color: Color):
        match = _matches(cards, color)
        order = np.argsort(~match, kind="stable")
        self.color = color
        self.cards = cards[order]  # the pile, matching cards first
        self.size = int(cards.size)
        self.matching = int(match.sum())
        if self.size > 1 << 16:
            raise ValueError(f"simulation supports piles of at most 65536 cards, not {self.size}")
        assert _matches(self.cards[: self.matching], color).all()
        assert not _matches(self.cards[self.matching :], color).any()
        self.slot_dtype = np.uint8 if self.size <= 256 else np.uint16


def _uniform_below(
    raw16: np.ndarray,
    bound: int,
    out: np.ndarray,
    rng: np.random.Generator,
    work: np.ndarray,
    half: np.ndarray,
    low: np.ndarray,
) -> np.ndarray:
    """``out[i]`` uniform on ``0..bound-1``, exactly, from 16 random bits per entry (Lemire).

    ``x * bound >> 16`` is uniform once the few ``x`` whose low product half falls below
    ``2**16 % bound`` are rejected (here: drawn again); ``bound <= 2**16``.
    """
    np.multiply(raw16, np.uint32(bound), out=work, dtype=np.uint32)
    threshold = (1 << 16) % bound
    np.copyto(half, work, casting="unsafe")  # the low 16 bits of the product
    np.less(half, threshold, out=low)
    np.right_shift(work, 16, out=work)
    np.copyto(out, work, casting="unsafe")
    if threshold and low.any():
        idx = np.flatnonzero(low)
        while idx.size:
            x = rng.integers(0, 1 << 16, size=idx.size, dtype=np.uint32) * np.uint32(bound)
            ok = (x & 0xFFFF) >= threshold
            out[idx[ok]] = x[ok] >> 16
            idx = idx[~ok]
    return out


def _trace_slots(picks: np.ndarray, j: int, out: np.ndarray, eq: np.ndarray) -> np.ndarray:
    """The starting slot of the card that a partial Fisher-Yates shuffle puts at place ``j``.

    Step ``m`` of the shuffle swaps places ``m`` and ``picks[m]`` (``picks[m] >= m``); the card
    shown at place ``j`` is the one at ``picks[j]`` before step ``j``. Undo steps ``j-1 .. 0``: a
    card at ``picks[m]`` came from place ``m``. (A slot ``< j`` is never ``picks[j]``, so the
    other half of each swap never applies.)
    """
    np.copyto(out, picks[j])
    for m in range(j - 1, -1, -1):
        np.equal(out, picks[m], out=eq)
        np.copyto(out, m, where=eq, casting="unsafe")
    return out


class _Work:
    """Scratch arrays for one chunk of trials (reused chunk after chunk)."""

    def __init__(self, n: int, reveal: int):
        self.work32 = np.empty(n, np.uint32)
        self.half = np.empty(n, np.uint16)
        self.low = np.empty(n, bool)
        self.eq = np.empty(n, bool)
        self.total = np.empty(n, np.min_scalar_type(max(reveal, 1)))
        self.slot8 = np.empty(n, np.uint8)
        self.slot16 = np.empty(n, np.uint16)


def _reveal_into(deck: _Deck, r: int, n: int, rng: np.random.Generator, w: _Work) -> None:
    """Shuffle ``deck`` once per trial (``n`` trials), turn its top ``r`` cards, add the number
    of matching ones to ``w.total[:n]``."""
    if r == 0 or deck.size == 0:
        return
    total = w.total[:n]
    if r > _PARTIAL_LIMIT:
        # a full shuffle of the pile per trial (in slices that keep memory small); the revealed
        # cards are checked colour by colour (U2 / U5)
        step = max(1, (1 << 22) // deck.size)
        for a in range(0, n, step):
            b = min(n, a + step)
            piles = rng.permuted(np.broadcast_to(deck.cards, (b - a, deck.size)), axis=1)
            shown = _matches(piles[:, :r], deck.color)
            total[a:b] += shown.sum(axis=1, dtype=total.dtype)
        return
    # partial Fisher-Yates: step j swaps place j with a uniform place in j..size-1
    picks = np.empty((r, n), deck.slot_dtype)
    raw = rng.bit_generator.random_raw((r * n + 3) // 4).view(np.uint16)[: r * n].reshape(r, n)
    slot = (w.slot8 if deck.slot_dtype == np.uint8 else w.slot16)[:n]
    work, half, low, eq = w.work32[:n], w.half[:n], w.low[:n], w.eq[:n]
    K = deck.matching
    for j in range(r):
        _uniform_below(raw[j], deck.size - j, picks[j], rng, work, half, low)
        if j:
            np.add(picks[j], j, out=picks[j], casting="unsafe")
        _trace_slots(picks, j, slot, eq)
        # the revealed card started in `slot`; the matching cards started in slots 0..K-1
        np.less(slot, K, out=eq)
        np.add(total, eq.view(np.uint8), out=total, casting="unsafe")


def simulate_extra_cost(
    pool: Mapping | CardCounts,
    color: Color | str,
    reveal: int,
    *,
    trials: int,
    seed: Any,
    deck_size: int | None = None,
    discard: Mapping | CardCounts | None = None,
    progress: bool = False,
) -> np.ndarray:
    """Simulate ``trials`` tunnel reveals; ``counts[k]`` = number of trials with ``k`` extra cards.

    Arguments as for ``ttrlib.odds.tunnel_extra_cost``: the reveal simulated is the chance node
    ``TunnelReveal(pool, deck_size, discard, color, reveal)`` (see ``simulate_reveals``).
    ``progress=True`` shows a progress bar over chunks of ``CHUNK`` trials.

    >>> simulate_extra_cost({"red": 2}, "red", 1, trials=10, seed=0)  # every card matches
    array([ 0, 10])
    """
    pool = cards_arg(pool, "pool")
    tunnel = TunnelReveal._checked(pool, pile_size_arg(deck_size, len(pool), "deck_size"),
                                   cards_arg(discard, "discard"), Color.parse(color),
                                   count_arg(reveal, "reveal"))
    return simulate_reveals(tunnel, trials=trials, seed=seed, progress=progress)


def simulate_reveals(tunnel: TunnelReveal, *, trials: int, seed: Any,
                     progress: bool = False) -> np.ndarray:
    """Simulate the chance node ``tunnel`` ``trials`` times; ``counts[k]`` = trials with ``k``
    extra cards (``tunnel.reveal + 1`` entries, summing to ``trials``).

    Each trial shuffles the pool cards, keeps the first ``pile_size`` of them as the draw pile,
    turns its top ``tunnel.from_pile`` cards and, if the pile runs out, shuffles the discard pile
    into a new draw pile and turns ``tunnel.from_discard`` more (U6, C6). A turned card matches
    by U2 (the claim's colour or a locomotive) or, for a locomotives-only claim, U5 (locomotives
    only). All randomness comes from ``numpy.random.default_rng(seed)``. It does not use the
    hypergeometric formula, so it checks ``tunnel.law()``.
    """
    trials = count_arg(trials, "trials")
    reveal, color = tunnel.reveal, tunnel.color
    rng = np.random.default_rng(seed)

    # the draw pile: the first pile_size cards of a shuffled pool, so its top r1 cards are the
    # first r1 places of the shuffled pool; then r2 from the reshuffled discard (U6, C6)
    r1, r2 = tunnel.from_pile, tunnel.from_discard
    pool_deck = _Deck(_cards(tunnel.pool), color)
    discard_deck = _Deck(_cards(tunnel.discard), color)

    counts = np.zeros(reveal + 1, dtype=np.int64)
    starts = range(0, trials, CHUNK)
    if progress:
        from tqdm.auto import tqdm  # lazy: only when asked for

        starts = tqdm(starts, total=len(starts), desc="tunnel reveals", unit="chunk")
    w = _Work(min(CHUNK, max(trials, 1)), reveal)
    for start in starts:
        n = min(CHUNK, trials - start)
        total = w.total[:n]
        total[:] = 0
        _reveal_into(pool_deck, r1, n, rng, w)
        _reveal_into(discard_deck, r2, n, rng, w)
        if reveal <= 16:
            for k in range(reveal + 1):
                counts[k] += np.count_nonzero(total == k)
        else:
            counts += np.bincount(total, minlength=reveal + 1)
    return counts


# --- checking a simulation against an exact law -----------------------------------------------



@dataclass(frozen=True)
class Comparison:
    """The verdict of ``compare``: does a simulation show any sign of disagreeing with an exact law?

    Two tests, both run on every comparison:

    - **every cell**: for each value ``k`` the exact law allows (``0 < p_k < 1``), the simulated
      count is tested against its exact binomial law, two-sided, at the level
      ``cell_level = cells_alpha / cells`` (Bonferroni over the ``cells`` values); ``bands[k]``
      is the range of frequencies that passes, ``outside`` the values whose frequency falls out
      of its band;
    - **chi-square**: the goodness-of-fit p-value ``p_value`` (cells with expected count below 5
      pooled into their neighbours), which must be at least ``alpha``.

    A correct simulation is flagged by chance with probability at most ``false_alarm`` =
    ``alpha + cells_alpha`` (0.002 by default: about 1 correct simulation in 500). ``agrees``
    (read: "shows no sign of disagreement") is True when no value lies outside its band, the
    chi-square test passes and no value the exact law rules out was simulated.

    ``max_deviation`` is the largest ``|simulated frequency - exact probability|``, reached at
    ``worst_k``; ``band`` is the half-width of ``worst_k``'s band (the largest distance from
    its exact probability that still passes).
    """

    trials: int
    chi2: float
    dof: int
    p_value: float
    max_deviation: float
    worst_k: int
    band: float
    agrees: bool
    alpha: float = 0.001
    cells_alpha: float = 0.001
    cells: int = 0
    cell_level: float = 0.0
    outside: tuple[int, ...] = ()
    bands: tuple[tuple[float, float], ...] = ()
    impossible: tuple[int, ...] = ()

    @property
    def false_alarm(self) -> float:
        """An upper bound on the chance that a correct simulation is flagged (union bound)."""
        return self.alpha + self.cells_alpha

    def plain(self) -> str:
        """The verdict in plain words, without test statistics."""
        one_in = round(1 / self.false_alarm)
        if self.agrees:
            seen = (f"each of the {self.cells} possible values came up about as often as the "
                    "law says, within the noise expected of that many trials" if self.cells else
                    "every trial gave the one value the law allows")
            return (f"The simulation ({self.trials:,} trials) shows no sign of disagreement with "
                    f"the exact law: {seen}. (A correct simulation is flagged by chance in at "
                    f"most 1 experiment in {one_in:,}.)")
        reasons = []
        if self.impossible:
            reasons.append("it produced values the exact law rules out "
                           f"({_and(str(k) for k in self.impossible)} extra cards)")
        if self.outside:
            one = len(self.outside) == 1
            reasons.append(f"the frequenc{'y' if one else 'ies'} of "
                           + _and(f"k = {k}" for k in self.outside)
                           + f" lie{'s' if one else ''} outside the range the exact law allows "
                           "for that many trials")
        if self.p_value < self.alpha and not self.impossible:
            reasons.append("taken together, the frequencies are further from the law than "
                           "noise explains")
        return (f"The simulation ({self.trials:,} trials) disagrees with the exact law: "
                + "; ".join(reasons) + ".")

    def maths(self) -> str:
        """The tests behind the verdict: levels, bands, chi-square."""
        lo, hi = self.bands[self.worst_k] if self.bands else (0.0, 1.0)
        return (
            f"Every cell: each of the {self.cells} values k with 0 < P(k) < 1 is tested against "
            f"its exact binomial law at level {self.cell_level:.2g} (Bonferroni: "
            f"{self.cells_alpha:g} shared over {self.cells} cells); "
            + (f"outside their band: {', '.join(map(str, self.outside))}. " if self.outside
               else "all inside their bands. ")
            + f"The largest gap, {self.max_deviation:.5f} at k = {self.worst_k}, may be up to "
            f"{self.band:.5f} (band {lo:.5f} to {hi:.5f}). Chi-square {self.chi2:.2f} on "
            f"{self.dof} degrees of freedom, p-value {self.p_value:.3g} (needs >= {self.alpha:g}). "
            f"Overall false-alarm rate at most {self.false_alarm:g}."
        )

    def __str__(self) -> str:
        return f"{self.plain()} {self.maths()}"

    def _repr_html_(self) -> str:
        color = "#1a7f37" if self.agrees else "#b42318"
        word = "No sign of disagreement." if self.agrees else "Disagrees."
        return (
            f'<div style="border-left:4px solid {color};padding-left:8px">'
            f'<p><strong style="color:{color}">{word}</strong> {html.escape(self.plain())}</p>'
            "<details><summary>For the curious: the maths</summary>"
            f"<p>{html.escape(self.maths())}</p></details></div>"
        )


def _and(items) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _cell_band(n: int, p: float, level: float) -> tuple[int, int]:
    """The counts ``lo..hi`` that pass the two-sided exact binomial test of ``Bin(n, p)`` at
    ``level``: a count passes when neither tail beyond it holds at most ``level / 2``."""
    from scipy.stats import binom  # lazy

    half = level / 2
    lo = int(binom.ppf(half, n, p))  # the smallest count whose lower tail exceeds half ...
    while lo > 0 and binom.cdf(lo - 1, n, p) > half:
        lo -= 1
    while binom.cdf(lo, n, p) <= half:
        lo += 1
    hi = int(binom.isf(half, n, p))  # ... and the largest whose upper tail exceeds half
    while binom.sf(hi, n, p) > half:  # P(X >= hi + 1)
        hi += 1
    while hi > 0 and binom.sf(hi - 1, n, p) <= half:  # P(X >= hi)
        hi -= 1
    return lo, hi


def compare(exact: Distribution, counts: Any, *, alpha: float = 0.001,
            cells_alpha: float = 0.001) -> Comparison:
    """Test simulated ``counts`` (``counts[k]`` = trials with value ``k``) against ``exact``.

    Every value's count is tested against its own band (exact binomial, Bonferroni-shared level
    ``cells_alpha``), and the whole is tested by chi-square at ``alpha``: see ``Comparison``.
    A correct simulation is flagged with probability at most ``alpha + cells_alpha``.

    >>> from fractions import Fraction
    >>> law = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
    >>> compare(law, [5010, 4990]).agrees, compare(law, [6000, 4000]).agrees
    (True, False)
    """
    from scipy.stats import chisquare  # lazy

    if not isinstance(exact, Distribution):
        raise TypeError("exact must be a ttrlib.odds.Distribution")
    obs = np.asarray(counts, dtype=np.int64)
    if obs.ndim != 1 or (obs < 0).any():
        raise ValueError("counts must be a 1-d array of non-negative integers")
    n = int(obs.sum())
    if n == 0:
        raise ValueError("counts are empty: nothing to compare")
    top = max(len(obs), max(exact.support) + 1)
    obs = np.concatenate([obs, np.zeros(top - len(obs), np.int64)])
    probs = np.array([float(exact.prob(k)) for k in range(top)])
    freq = obs / n
    dev = np.abs(freq - probs)
    worst = int(np.argmax(dev))

    # every cell against its own band; a sure value (p = 1) or an impossible one (p = 0) has
    # no noise, so it is checked exactly instead
    tested = [k for k in range(top) if 0 < exact.prob(k) < 1]
    level = cells_alpha / max(len(tested), 1)
    bands = []
    outside = []
    lo: float
    hi: float
    for k in range(top):
        if k in tested:
            lo, hi = _cell_band(n, float(probs[k]), level)
        else:  # a sure or impossible value: its band is exact
            lo = hi = n if exact.prob(k) == 1 else 0
        bands.append((lo / n, hi / n))
        if not lo <= obs[k] <= hi and k in tested:
            outside.append(k)
    impossible = tuple(k for k in range(top) if probs[k] == 0 and obs[k] > 0)
    lo, hi = bands[worst]
    band = max(probs[worst] - lo, hi - probs[worst])

    # chi-square: pool neighbouring cells until each expected count is at least 5
    expected = probs * n
    bins_o: list[float] = []
    bins_e: list[float] = []
    acc_o = acc_e = 0.0
    for o, e in zip(obs, expected):
        acc_o += o
        acc_e += e
        if acc_e >= 5:
            bins_o.append(acc_o)
            bins_e.append(acc_e)
            acc_o = acc_e = 0.0
    if acc_e > 0 or acc_o > 0:
        if bins_o:
            bins_o[-1] += acc_o
            bins_e[-1] += acc_e
        else:
            bins_o.append(acc_o)
            bins_e.append(acc_e)
    if impossible:
        chi2, p_value = float("inf"), 0.0
    elif len(bins_o) < 2:
        chi2, p_value = 0.0, 1.0  # one cell: nothing to test
    else:
        res = chisquare(bins_o, bins_e)
        chi2, p_value = float(res.statistic), float(res.pvalue)
    agrees = bool(p_value >= alpha and not outside and not impossible)
    return Comparison(
        trials=n,
        chi2=chi2,
        dof=max(len(bins_o) - 1, 0),
        p_value=p_value,
        max_deviation=float(dev[worst]),
        worst_k=worst,
        band=float(band),
        agrees=agrees,
        alpha=alpha,
        cells_alpha=cells_alpha,
        cells=len(tested),
        cell_level=level,
        outside=tuple(outside),
        bands=tuple(bands),
        impossible=impossible,
    )


def simulate_claims(game: Any, payment: Any, trials: int, seed: int, *,
                    progress: bool = False) -> np.ndarray:
    """The extra cost of a claim, answered by the real engine: counts per number of extra cards.

    ``payment`` is the ``Claim`` the seat to move would make. Each trial deals everything that
    seat cannot see anew at random (``Game.resample_hidden``: the draw pile and the unknown cards
    in other hands), applies the claim to that copy and reads the extra cost the engine asks
    for. The original game is never changed. This is an end-to-end check of the rules code: its
    counts must show no sign of disagreement with ``odds.tunnel_odds(game.view(seat), ...)``.
    """
    seat = game.to_move
    route = game.board.route(payment.route)
    counts = np.zeros(route.reveals + 1, dtype=np.int64)
    rng = np.random.default_rng(seed)
    steps = range(trials)
    if progress:
        from tqdm.auto import tqdm

        steps = tqdm(steps, desc="claims", unit="claim")
    for _ in steps:
        g = game.resample_hidden(seat, rng)
        before = len(g.events)
        g.apply(payment)
        if g.phase is Phase.TUNNEL:
            counts[g.tunnel.extra] += 1
        else:  # claimed at once: nothing matched, or nothing was left to reveal (U6)
            tunnel = [e for e in g.events[before:] if isinstance(e, TunnelTried)]
            counts[tunnel[-1].extra if tunnel else 0] += 1
    return counts
