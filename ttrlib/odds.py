"""Exact tunnel odds: how many extra cards a tunnel will cost (rules U2, U5, U6, C6).

Seen from a player, the cards that could be revealed are the *unseen* ones (the ``pool``). The
draw pile is a uniformly random subset of them, so the number of matching cards among ``n``
revealed ones is hypergeometric::

    P(X = k) = C(K, k) C(N - K, n - k) / C(N, n)

with ``N`` unseen cards of which ``K`` match: the claim's colour plus locomotives (U2), or
locomotives only for a claim paid with locomotives only (U5). When the draw pile holds fewer than
``n`` cards it is revealed in full and the rest comes from the reshuffled discard pile (U6, C6),
whose content is known: the law is then the sum of two independent hypergeometric counts.

Everything here is exact (``fractions.Fraction``). On a fresh deck (``N = 110``, ``K = 26``) the
chance of paying nothing extra for a 4-card tunnel is

>>> from ttrlib.cards import Color, standard_deck
>>> law = tunnel_extra_cost(standard_deck(), Color.RED, 4)
>>> law.prob(0)
Fraction(214389, 641465)
>>> round(float(law.prob(0)), 4), round(float(law.mean), 4)
(0.3342, 0.9455)

``scipy`` (float tables), ``sympy`` (the formula as a symbolic expression) and ``matplotlib``
(``Distribution.plot``) are imported only inside the functions that use them, so
``import ttrlib.odds`` stays light.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any

from .cards import COLORS, CardCounts, Color

__all__ = [
    "TunnelOdds",
    "tunnel_odds",
    "best_payment",
    "Distribution",
    "tunnel_extra_cost",
    "matching_count",
    "hypergeom_law",
    "p_no_extra_table",
    "hypergeom_table",
    "symbolic_law",
    "symbolic_pmf",
]

_IDX = {c: i for i, c in enumerate(COLORS)}
_LOCO = _IDX[Color.LOCOMOTIVE]


class Distribution:
    """The exact law of a non-negative integer count (e.g. extra cards for a tunnel).

    ``pmf`` maps each value to its probability as a ``Fraction``; the probabilities must sum to
    exactly 1 (checked here). Values with probability 0 are dropped, so two laws with the same
    non-zero probabilities are equal. A ``Distribution`` is immutable and hashable.

    >>> d = Distribution({0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)})
    >>> d.mean, d.variance
    (Fraction(1, 1), Fraction(1, 2))
    >>> d.at_most(1), d.at_least(1), d.prob(5)
    (Fraction(3, 4), Fraction(3, 4), Fraction(0, 1))
    >>> d.support
    (0, 1, 2)
    >>> d.floats()
    {0: 0.25, 1: 0.5, 2: 0.25}
    >>> Distribution({0: Fraction(1, 2)})
    Traceback (most recent call last):
    ...
    ValueError: probabilities must sum to exactly 1, not 1/2
    """

    __slots__ = ("_pmf", "_mean", "_hash")

    def __init__(self, pmf: Mapping[int, Fraction | int]):
        if not isinstance(pmf, Mapping):
            raise TypeError(f"pmf must be a mapping of value -> Fraction, not {type(pmf).__name__}")
        clean: dict[int, Fraction] = {}
        total = Fraction(0)
        for k, p in pmf.items():
            if isinstance(k, bool) or not isinstance(k, numbers.Integral):
                raise TypeError(f"values of a Distribution must be integers, not {k!r}")
            if k < 0:
                raise ValueError(f"values of a Distribution cannot be negative ({k})")
            if isinstance(p, bool) or not isinstance(p, numbers.Rational):
                raise TypeError(
                    f"probability of {k} must be an exact Fraction or int, not {p!r} "
                    "(use fractions.Fraction for exact laws)"
                )
            p = Fraction(p)
            if p < 0:
                raise ValueError(f"probability of {k} cannot be negative ({p})")
            if p:
                k = int(k)
                clean[k] = clean.get(k, Fraction(0)) + p
                total += p
        if total != 1:
            raise ValueError(f"probabilities must sum to exactly 1, not {total}")
        self._pmf = dict(sorted(clean.items()))
        self._mean = None
        self._hash = None

    @classmethod
    def _from_weights(cls, weights: dict[int, int], total: int) -> Distribution:
        """The law ``P(X = k) = weights[k] / total`` (weights >= 0, increasing k): checked with
        one integer sum instead of a sum of Fractions (the fast path of the tunnel laws)."""
        if sum(weights.values()) != total:
            raise AssertionError("weights do not sum to the total")  # pragma: no cover
        obj = object.__new__(cls)
        obj._pmf = {k: Fraction(w, total) for k, w in weights.items() if w}
        obj._mean = None
        obj._hash = None
        return obj

    @classmethod
    def _trusted(cls, pmf: dict[int, Fraction]) -> Distribution:
        """Wrap a pmf already known to be valid (positive Fractions summing to 1, sorted)."""
        obj = object.__new__(cls)
        obj._pmf = pmf
        obj._mean = None
        obj._hash = None
        return obj

    @classmethod
    def certain(cls, value: int = 0) -> Distribution:
        """The law of a count that is ``value`` for sure.

        >>> Distribution.certain(0).pmf
        {0: Fraction(1, 1)}
        """
        return cls({value: Fraction(1)})

    # --- reading -------------------------------------------------------------------------------
    @property
    def pmf(self) -> dict[int, Fraction]:
        """``{value: probability}`` for every value of non-zero probability, in increasing order.

        A fresh dict on every call: changing it does not change the ``Distribution``."""
        return dict(self._pmf)

    @property
    def support(self) -> tuple[int, ...]:
        """The values of non-zero probability, in increasing order."""
        return tuple(self._pmf)

    def prob(self, k: int) -> Fraction:
        """``P(X = k)``."""
        return self._pmf.get(k, Fraction(0))

    def at_most(self, k: int) -> Fraction:
        """``P(X <= k)``."""
        return sum((p for j, p in self._pmf.items() if j <= k), Fraction(0))

    def at_least(self, k: int) -> Fraction:
        """``P(X >= k)``."""
        return sum((p for j, p in self._pmf.items() if j >= k), Fraction(0))

    @property
    def mean(self) -> Fraction:
        """``E[X]``, exactly."""
        if self._mean is None:
            self._mean = sum((k * p for k, p in self._pmf.items()), Fraction(0))
        return self._mean

    @property
    def variance(self) -> Fraction:
        """``Var[X] = E[X^2] - E[X]^2``, exactly."""
        second = sum((k * k * p for k, p in self._pmf.items()), Fraction(0))
        return second - self.mean**2

    def floats(self) -> dict[int, float]:
        """The probabilities as floats (for plotting and tables)."""
        return {k: float(p) for k, p in self._pmf.items()}

    def convolve(self, other: Distribution) -> Distribution:
        """The law of ``X + Y`` for *independent* ``X ~ self`` and ``Y ~ other``.

        >>> coin = Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)})
        >>> coin.convolve(coin).pmf
        {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
        """
        if not isinstance(other, Distribution):
            raise TypeError("can only convolve with another Distribution")
        out: dict[int, Fraction] = {}
        for i, p in self._pmf.items():
            for j, q in other._pmf.items():
                out[i + j] = out.get(i + j, Fraction(0)) + p * q
        return Distribution(out)

    # --- comparing and showing -----------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return self._pmf == other._pmf

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self._pmf.items()))
        return self._hash

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}: {p!r}" for k, p in self._pmf.items())
        return f"Distribution({{{inner}}})"

    def _repr_html_(self) -> str:
        from . import display

        return display.distribution_html(self)

    def plot(self, ax: Any = None, **bar_kwargs: Any) -> Any:
        """Draw the law as a matplotlib bar chart on ``ax`` (a new figure if ``None``).

        Returns the axes. Extra keyword arguments go to ``ax.bar``.
        """
        import matplotlib.pyplot as plt  # lazy: keeps ``import ttrlib.odds`` light

        if ax is None:
            _, ax = plt.subplots(figsize=(4.5, 2.8))
        top = max(self._pmf, default=0)
        ks = list(range(top + 1))
        ax.bar(ks, [float(self.prob(k)) for k in ks], **{"color": "#3b6ea8", **bar_kwargs})
        ax.set_xticks(ks)
        ax.set_xlabel("extra cards")
        ax.set_ylabel("probability")
        ax.set_ylim(0, 1.05 * max(1e-12, max(self.floats().values())))
        return ax


# --- the tunnel law ----------------------------------------------------------------------------


def _as_counts(cards: Any, what: str) -> CardCounts:
    if isinstance(cards, CardCounts):
        return cards
    if cards is None:
        return CardCounts()
    if not isinstance(cards, Mapping):
        raise TypeError(f"{what} must be a CardCounts or a mapping colour -> count, not {cards!r}")
    try:
        return CardCounts(cards)
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None


def _count_arg(value: Any, what: str) -> int:
    if type(value) is int and value >= 0:  # fast path
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what} must be an integer, not {value!r}")
    value = int(value)
    if value < 0:
        raise ValueError(f"{what} cannot be negative ({value})")
    return value


def _deck_size_arg(deck_size: Any, pool_size: int) -> int:
    """The draw pile's size: the whole pool by default, never more than the pool."""
    if deck_size is None:
        return pool_size
    deck_size = _count_arg(deck_size, "deck_size")
    if deck_size > pool_size:
        raise ValueError(f"deck_size ({deck_size}) cannot exceed the number of unseen cards in "
                         f"the pool ({pool_size})")
    return deck_size


def matching_count(cards: Mapping | CardCounts, color: Color | str) -> int:
    """How many of ``cards`` would demand an extra card for a claim paid in ``color``.

    A colour claim is matched by that colour and by locomotives (U2); a claim paid with
    locomotives only (``color=Color.LOCOMOTIVE``) only by locomotives (U5).

    >>> from ttrlib.cards import standard_deck
    >>> matching_count(standard_deck(), "red"), matching_count(standard_deck(), "locomotive")
    (26, 14)
    """
    counts = _as_counts(cards, "cards").as_tuple()
    color = Color.parse(color)
    if color is Color.LOCOMOTIVE:
        return counts[_LOCO]
    return counts[_IDX[color]] + counts[_LOCO]


def _hypergeom_weights(N: int, K: int, n: int) -> dict[int, int]:
    """``{k: C(K, k) C(N-K, n-k)}`` over the possible k; the weights sum to ``C(N, n)``."""
    NK = N - K
    return {k: comb(K, k) * comb(NK, n - k) for k in range(max(0, n - NK), min(n, K) + 1)}


@lru_cache(maxsize=4096)
def hypergeom_law(N: int, K: int, n: int) -> Distribution:
    """The hypergeometric law: matching cards among ``n`` drawn from ``N`` of which ``K`` match.

    >>> hypergeom_law(110, 14, 4).prob(0)  # U5: a locomotives-only 4-card tunnel, fresh deck
    Fraction(221464, 384879)
    """
    N, K, n = (_count_arg(v, what) for v, what in ((N, "N"), (K, "K"), (n, "n")))
    if K > N or n > N:
        raise ValueError(f"need K <= N and n <= N (got N={N}, K={K}, n={n})")
    return _law(N, K, n, 0, 0, 0)


@lru_cache(maxsize=4096)
def _law(N: int, K: int, n: int, M: int, KM: int, r: int) -> Distribution:
    """``n`` cards from ``N`` (``K`` matching) plus, independently, ``r`` from ``M`` (``KM``)."""
    if r == 0:  # the common case, in one loop
        total = comb(N, n)
        NK = N - K
        pmf = {}
        check = 0
        for k in range(max(0, n - NK), min(n, K) + 1):
            w = comb(K, k) * comb(NK, n - k)
            check += w
            pmf[k] = Fraction(w, total)
        if check != total:
            raise AssertionError("weights do not sum to C(N, n)")  # pragma: no cover
        return Distribution._trusted(pmf)
    w1 = _hypergeom_weights(N, K, n)
    w2 = _hypergeom_weights(M, KM, r)
    w: dict[int, int] = {}
    for i, a in w1.items():
        for j, b in w2.items():
            w[i + j] = w.get(i + j, 0) + a * b
    return Distribution._from_weights(dict(sorted(w.items())), comb(N, n) * comb(M, r))


def tunnel_extra_cost(
    pool: Mapping | CardCounts,
    color: Color | str,
    reveal: int,
    *,
    deck_size: int | None = None,
    discard: Mapping | CardCounts | None = None,
) -> Distribution:
    """The exact law of the number of extra cards a tunnel claim will demand (U1, U2, U5, U6).

    ``pool``
        the unseen cards (a ``CardCounts`` or a mapping colour -> count), the discard pile not
        included: it is seen. The draw pile is a uniformly random subset of the pool of size
        ``deck_size`` (default: the whole pool).
    ``color``
        the colour used for the claim. A colour is matched by that colour and by locomotives
        (U2); ``Color.LOCOMOTIVE`` means a claim paid with locomotives only, matched only by
        locomotives (U5). For a gray tunnel pass the colour actually paid with (U7).
    ``reveal``
        how many cards the tunnel turns (its number, U1).
    ``discard``
        the known discard pile. When the draw pile runs out mid-reveal it is shuffled into a new
        draw pile and the reveal goes on from there (U6, C6). Pass exactly the cards that would be
        reshuffled: the cards just laid down for the claim are not yet discarded (U3, U4).

    If ``deck_size >= reveal`` the count is hypergeometric over the pool. Otherwise the whole
    draw pile is revealed (a hypergeometric count of ``deck_size`` cards from the pool) and then
    ``min(reveal - deck_size, len(discard))`` cards of the reshuffled discard pile (a second,
    independent hypergeometric count); the law is the convolution of the two. With nothing to
    reveal the tunnel costs nothing extra (U6).

    >>> from ttrlib.cards import Color, CardCounts, standard_deck
    >>> [round(float(tunnel_extra_cost(standard_deck(), "red", n).prob(0)), 4) for n in (3, 4, 5, 6)]
    [0.4415, 0.3342, 0.2522, 0.1898]
    >>> loco = [tunnel_extra_cost(standard_deck(), Color.LOCOMOTIVE, n) for n in (3, 4, 5, 6)]
    >>> [round(float(d.prob(0)), 4) for d in loco]  # U5: only locomotives match
    [0.662, 0.5754, 0.4994, 0.4328]

    Two cards left in the draw pile, a 4-card tunnel: both are turned, then 2 of the 3 discarded
    cards (U6, C6):

    >>> pool = CardCounts(red=1, blue=3)
    >>> d = tunnel_extra_cost(pool, "red", 4, deck_size=2, discard=CardCounts(locomotive=1, green=2))
    >>> d.pmf
    {0: Fraction(1, 6), 1: Fraction(1, 2), 2: Fraction(1, 3)}
    >>> tunnel_extra_cost(CardCounts(), "red", 4)  # nothing left to reveal: no extra cost (U6)
    Distribution({0: Fraction(1, 1)})
    """
    if type(pool) is not CardCounts:
        pool = _as_counts(pool, "pool")
    if type(color) is not Color:
        color = Color.parse(color)
    if type(reveal) is not int or reveal < 0:
        reveal = _count_arg(reveal, "reveal")
    t = pool.as_tuple()
    N = sum(t)
    K = t[_LOCO] if color is Color.LOCOMOTIVE else t[_IDX[color]] + t[_LOCO]
    deck_size = _deck_size_arg(deck_size, N)
    if deck_size >= reveal:
        return _law(N, K, reveal, 0, 0, 0)
    # U6/C6: the whole draw pile is revealed, then the rest from the reshuffled discard pile
    disc = _as_counts(discard, "discard").as_tuple()
    M = sum(disc)
    KM = disc[_LOCO] if color is Color.LOCOMOTIVE else disc[_IDX[color]] + disc[_LOCO]
    return _law(N, K, deck_size, M, KM, min(reveal - deck_size, M))


# --- float tables (scipy) and the formula (sympy) ----------------------------------------------


def p_no_extra_table(
    unseen: int = 110, matching: Iterable[int] = range(0, 27), reveals: Iterable[int] = range(3, 7)
) -> Any:
    """``P(no extra card)`` as a float array: one row per matching count, one column per reveal.

    Uses ``scipy.stats.hypergeom`` (vectorised); handy for curves and heat maps.

    >>> table = p_no_extra_table(110, [14, 26], [3, 4, 5, 6])
    >>> table.shape
    (2, 4)
    >>> [round(float(x), 4) for x in table[1]]
    [0.4415, 0.3342, 0.2522, 0.1898]
    """
    import numpy as np
    from scipy.stats import hypergeom

    K = np.asarray(list(matching), dtype=int)[:, None]
    n = np.asarray(list(reveals), dtype=int)[None, :]
    return hypergeom.pmf(0, unseen, K, n)


def hypergeom_table(unseen: int, matching: int | Iterable[int], reveal: int) -> Any:
    """``P(k extra cards)`` for k = 0..reveal as floats, one row per matching count.

    >>> row = hypergeom_table(110, 26, 4)[0]
    >>> [round(float(x), 4) for x in row]
    [0.3342, 0.4291, 0.1962, 0.0378, 0.0026]
    """
    import numpy as np
    from scipy.stats import hypergeom

    if isinstance(matching, numbers.Integral):
        matching = [matching]
    K = np.asarray(list(matching), dtype=int)[:, None]
    k = np.arange(reveal + 1)[None, :]
    return hypergeom.pmf(k, unseen, K, reveal)


@lru_cache(maxsize=1)
def symbolic_law() -> Any:
    """The hypergeometric formula as a sympy expression in ``N, K, n, k``.

    >>> symbolic_law()
    binomial(K, k)*binomial(-K + N, -k + n)/binomial(N, n)
    """
    import sympy

    N, K, n, k = sympy.symbols("N K n k", integer=True, nonnegative=True)
    return sympy.binomial(K, k) * sympy.binomial(N - K, n - k) / sympy.binomial(N, n)


def symbolic_pmf(N: int, K: int, n: int, k: int, *, evaluate: bool = True) -> Any:
    """``C(K,k) C(N-K,n-k) / C(N,n)`` with numbers put in: an exact ``sympy.Rational``.

    With ``evaluate=False`` the unevaluated product of binomials is returned (for display);
    ``.doit()`` evaluates it.

    >>> symbolic_pmf(110, 26, 3, 0)
    23821/53955
    >>> symbolic_pmf(110, 26, 3, 0, evaluate=False)
    binomial(26, 0)*binomial(84, 3)/binomial(110, 3)
    """
    import sympy

    values = {
        sympy.Symbol(s, integer=True, nonnegative=True): v for s, v in zip("NKnk", (N, K, n, k))
    }
    if evaluate:
        return sympy.Rational(symbolic_law().subs(values))
    b = sympy.binomial
    return sympy.Mul(
        b(K, k, evaluate=False),
        b(N - K, n - k, evaluate=False),
        sympy.Pow(b(N, n, evaluate=False), -1, evaluate=False),
        evaluate=False,
    )


# ------------------------------------------------------------------------------------------------
# odds from a seat
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TunnelOdds:
    """The odds of one way to lay down the cards for a route, seen from a seat.

    ``law`` is the exact law of the extra cost (U2, U5, U6); ``spare`` is how many extra cards
    the player could still pay after laying down ``claim`` (hand plus team cardholder, K1);
    ``p_can_pay`` is the exact probability that the extra cost is at most ``spare``.
    """

    claim: Any  # ttrlib.actions.Claim
    color: Color
    law: Distribution
    spare: int
    p_can_pay: Fraction

    @property
    def p_free(self) -> Fraction:
        """Probability that the tunnel costs nothing extra."""
        return self.law.prob(0)


def tunnel_odds(view: Any, route: Any, payment: Any) -> TunnelOdds:
    """Exact odds of a claim seen from ``view`` (a ``PlayerView``, rule I1).

    ``route`` is a route id or ``Route``; ``payment`` a ``Claim`` (or a ``(hand, cardholder)``
    pair) of the cards laid down. The pool is the seat's unseen cards, the draw pile is a random
    ``view.draw_pile_size`` of them, and the known discard is reshuffled in if the pile runs out
    (U6). A route that is not a tunnel costs nothing extra.
    """
    from .actions import Claim
    from .rules.payments import claim_color, payable

    route_obj = view.board.route(route) if isinstance(route, str) else route
    if not isinstance(payment, Claim):
        hand, holder = payment
        payment = Claim(route_obj.id, hand, holder)
    color = claim_color(payment.cards)
    if color is None:
        raise ValueError(f"a claim is paid in one colour plus locomotives, not {payment.cards.describe()}")
    left = (view.hand - payment.hand) + (view.team_cardholder - payment.cardholder)
    spare = payable(left, color)
    if route_obj.tunnel:
        law = tunnel_extra_cost(view.unseen, color, route_obj.tunnel,
                                deck_size=view.draw_pile_size, discard=view.discard)
    else:
        law = Distribution.certain(0)
    return TunnelOdds(payment, color, law, spare, law.at_most(spare))


def best_payment(view: Any, route: Any) -> list[TunnelOdds]:
    """Every legal way to lay down the cards for ``route`` from ``view``'s hand and team
    cardholder, best first: the highest chance to pay the extra cost, then the fewest
    locomotives spent, then the fewest cards taken from the shared cardholder."""
    from .actions import Claim
    from .rules.payments import route_payments

    route_obj = view.board.route(route) if isinstance(route, str) else route

    ways = [tunnel_odds(view, route_obj, Claim(route_obj.id, h, g))
            for h, g in route_payments(view.hand, view.team_cardholder, route_obj.color,
                                       route_obj.length)]
    ways.sort(key=lambda o: (-o.p_can_pay, o.claim.cards[Color.LOCOMOTIVE],
                             len(o.claim.cardholder), str(o.claim)))
    return ways
