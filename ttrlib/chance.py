"""Chance in the rules: exact laws (``Distribution``) and the tunnel reveal as one chance node.

A tunnel claim turns cards the claimant cannot choose (U1). ``TunnelReveal`` is that chance
node, in the sense of OpenSpiel's chance nodes: built from what a seat can know (its unseen
cards, the size of the draw pile, the face-up discard pile), it gives the exact law of the extra
cost (``law``), draws one physical reveal (``sample``) and prices any revealed cards
(``extra``). The three rules it rests on are written here and nowhere else:

* U2 / U5: which revealed cards match is ``rules.payments.matches``, card by card; ``matching``
  counts them in a pile;
* U6 / C6: a reveal takes the top ``from_pile`` cards of the draw pile and, when the pile runs
  out, ``from_discard`` more from the reshuffled discard pile, as far as it goes.

``ttrlib.odds``, ``ttrlib.simulate`` and the odds explorer use the node. The engine, which
knows the real piles, asks the same two rules directly: ``cards_turned`` (how many cards to turn,
U6) and ``extra_cost`` (what they cost, U2, U5).

>>> from ttrlib.cards import CardCounts, Color, standard_deck
>>> fresh = TunnelReveal(standard_deck(), 110, CardCounts(), Color.RED, 4)
>>> fresh.law().prob(0)  # 26 of 110 cards match a red claim (U2)
Fraction(214389, 641465)
>>> short = TunnelReveal(CardCounts(red=1, blue=3), 2, CardCounts(locomotive=1, green=2),
...                      Color.RED, 4)
>>> short.from_pile, short.from_discard  # U6: both pile cards, then 2 of the 3 discards
(2, 2)
>>> short.extra([Color.BLUE, Color.RED, Color.LOCOMOTIVE, Color.GREEN])
2

This module sits low: it imports only ``cards`` and ``rules.payments`` (``Distribution``'s
``_repr_html_`` loads ``display`` when a notebook shows a law).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import lru_cache
from math import comb
from operator import itemgetter
from typing import Any

from .cards import COLORS, EMPTY, CardCounts, Color
from .rules.payments import claim_color, matches

__all__ = ["Distribution", "TunnelReveal", "matching", "extra_cost", "hypergeom_law"]


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
        self._mean: Fraction | None = None
        self._hash: int | None = None

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


# --- checking arguments (shared by odds and simulate, so every caller refuses alike) ----------


def cards_arg(cards: Any, what: str) -> CardCounts:
    if isinstance(cards, CardCounts):
        return cards
    if cards is None:
        return EMPTY
    if not isinstance(cards, Mapping):
        raise TypeError(f"{what} must be a CardCounts or a mapping colour -> count, not {cards!r}")
    try:
        return CardCounts(cards)
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None


def count_arg(value: Any, what: str) -> int:
    if type(value) is int and value >= 0:  # fast path
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what} must be an integer, not {value!r}")
    n = int(value)
    if n < 0:
        raise ValueError(f"{what} cannot be negative ({n})")
    return n


def pile_size_arg(pile_size: Any, pool_size: int, what: str = "pile_size") -> int:
    """The draw pile's size: the whole pool by default, never more than the pool."""
    if pile_size is None:
        return pool_size
    size = count_arg(pile_size, what)
    if size > pool_size:
        raise ValueError(f"{what} ({size}) cannot exceed the number of unseen cards in "
                         f"the pool ({pool_size})")
    return size


# --- U2, U5: which cards match ----------------------------------------------------------------

#: For each claim colour, the places in ``COLORS`` of the cards that match it, read off
#: ``payments.matches`` once (U2: the colour and locomotives; U5: locomotives only).
MATCHING_INDEXES: dict[Color, tuple[int, ...]] = {
    color: tuple(i for i, card in enumerate(COLORS) if matches(card, color)) for color in COLORS
}


def _tuple_getter(places: tuple[int, ...]) -> itemgetter[Any]:
    """A getter of ``counts[i] for i in places`` that always returns a tuple: ``itemgetter`` of a
    single place returns the item itself, so one place is read as a one-item slice. Summing what
    it returns runs in C, which keeps a cached tunnel law as fast as a dictionary look-up."""
    if len(places) == 1:
        return itemgetter(slice(places[0], places[0] + 1))
    return itemgetter(*places)


_MATCHING_GETTERS = {color: _tuple_getter(places) for color, places in MATCHING_INDEXES.items()}


def matching(cards: CardCounts, color: Color) -> int:
    """How many of ``cards`` would each demand an extra card from a tunnel claimed in ``color``
    (U2; ``Color.LOCOMOTIVE`` for a claim paid with locomotives only, U5).

    >>> from ttrlib.cards import standard_deck
    >>> matching(standard_deck(), Color.RED), matching(standard_deck(), Color.LOCOMOTIVE)
    (26, 14)
    """
    return sum(_MATCHING_GETTERS[color](cards.as_tuple()))


def extra_cost(revealed: Iterable[Color | str] | CardCounts, color: Color) -> int:
    """The extra cards owed for ``revealed`` by a tunnel claimed in ``color``: one per revealed
    card that matches (U2; U5 for ``Color.LOCOMOTIVE``, a locomotives-only claim).

    >>> extra_cost([Color.RED, Color.BLUE, Color.LOCOMOTIVE], Color.RED)
    2
    """
    if isinstance(revealed, CardCounts):
        return matching(revealed, color)
    return sum(matches(Color.parse(card), color) for card in revealed)


# --- U6, C6: where the revealed cards come from -----------------------------------------------


def cards_turned(pile_size: int, discard_size: int, reveal: int) -> tuple[int, int]:
    """Where a tunnel's ``reveal`` cards come from, ``(from the draw pile, from the discard)``:
    the top ``reveal`` cards of the draw pile (U1); a pile that holds fewer is turned in full and
    the discard, reshuffled into a new pile, gives the rest as far as it goes (U6, C6).

    >>> cards_turned(30, 5, 4), cards_turned(2, 5, 4), cards_turned(1, 1, 6), cards_turned(0, 0, 4)
    ((4, 0), (2, 2), (1, 1), (0, 0))
    """
    from_pile = min(reveal, pile_size)
    return from_pile, min(reveal - from_pile, discard_size)


def reveal_draws(pool: CardCounts, pile_size: int | None, discard: CardCounts, color: Color,
           reveal: int) -> tuple[int, int, int, int, int, int]:
    """The reveal as two independent draws, ``(N, K, n, M, KM, r)``: ``n`` cards from the ``N``
    of the pool (``K`` of them matching, U2 / U5), then ``r`` from the ``M`` of the reshuffled
    discard (``KM`` matching), as ``cards_turned`` splits them. ``pile_size=None``: the whole
    pool. One plain function on checked arguments, since ``odds`` asks it for thousands of laws,
    most of them cached."""
    t = pool.as_tuple()
    N = sum(t)
    matching_in = _MATCHING_GETTERS[color]  # once: hashing a Color runs Python code
    if pile_size is None:
        pile_size = N
    d = discard.as_tuple() if reveal > pile_size else ()
    n, r = cards_turned(pile_size, sum(d), reveal)
    if not r:
        return N, sum(matching_in(t)), n, 0, 0, 0
    return N, sum(matching_in(t)), n, sum(d), sum(matching_in(d)), r


# --- the hypergeometric laws ------------------------------------------------------------------


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
    N, K, n = (count_arg(v, what) for v, what in ((N, "N"), (K, "K"), (n, "n")))
    if K > N or n > N:
        raise ValueError(f"need K <= N and n <= N (got N={N}, K={K}, n={n})")
    return two_draw_law(N, K, n, 0, 0, 0)


@lru_cache(maxsize=4096)
def two_draw_law(N: int, K: int, n: int, M: int, KM: int, r: int) -> Distribution:
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
    both: dict[int, int] = {}
    for i, a in w1.items():
        for j, b in w2.items():
            both[i + j] = both.get(i + j, 0) + a * b
    return Distribution._from_weights(dict(sorted(both.items())), comb(N, n) * comb(M, r))


# --- the chance node --------------------------------------------------------------------------


class TunnelReveal:
    """One tunnel reveal, as a chance node: what can come up, with which law (U1, U2, U5, U6).

    ``pool``
        the cards the draw pile is made of, as far as the one who asks knows: for a seat, its
        unseen cards (``PlayerView.unseen``); for the engine, the draw pile itself.
    ``pile_size``
        how many of them are in the draw pile: a uniformly random part of the pool (``None``:
        all of it).
    ``discard``
        the face-up discard pile, shuffled into a new draw pile if the pile runs out mid-reveal
        (U6, C6). The cards just laid down for the claim are not in it yet (U3, U4).
    ``color``
        the colour the claim was paid in (U7 for gray routes); ``Color.LOCOMOTIVE`` for a claim
        paid with locomotives only (U5).
    ``reveal``
        the tunnel's number: how many cards it turns (U1).

    Immutable and hashable; two reveals with the same five fields are equal.

    >>> from ttrlib.cards import CardCounts, Color
    >>> t = TunnelReveal(CardCounts(red=1, blue=3), 2, CardCounts(locomotive=1, green=2), "red", 4)
    >>> t
    TunnelReveal(CardCounts(blue=3, red=1), 2, CardCounts(green=2, locomotive=1), Color.RED, 4)
    >>> t.law().pmf
    {0: Fraction(1, 6), 1: Fraction(1, 2), 2: Fraction(1, 3)}
    """

    __slots__ = ("pool", "pile_size", "discard", "color", "reveal")

    pool: CardCounts
    pile_size: int
    discard: CardCounts
    color: Color
    reveal: int

    def __init__(self, pool: Mapping[Any, Any] | CardCounts, pile_size: int | None,
                 discard: Mapping[Any, Any] | CardCounts | None, color: Color | str, reveal: int):
        pool = cards_arg(pool, "pool")
        set_ = object.__setattr__
        set_(self, "pool", pool)
        set_(self, "pile_size", pile_size_arg(pile_size, len(pool)))
        set_(self, "discard", cards_arg(discard, "discard"))
        set_(self, "color", Color.parse(color))
        set_(self, "reveal", count_arg(reveal, "reveal"))

    @classmethod
    def _checked(cls, pool: CardCounts, pile_size: int, discard: CardCounts, color: Color,
                 reveal: int) -> TunnelReveal:
        """A reveal from arguments its caller has already checked (``from_view``, ``simulate``)."""
        obj = object.__new__(cls)
        set_ = object.__setattr__
        set_(obj, "pool", pool)
        set_(obj, "pile_size", pile_size)
        set_(obj, "discard", discard)
        set_(obj, "color", color)
        set_(obj, "reveal", reveal)
        return obj

    @classmethod
    def from_view(cls, view: Any, route: Any, payment: Any) -> TunnelReveal:
        """The reveal ``view``'s seat faces if it lays down ``payment`` for ``route`` (I1).

        Reads only what the seat may know: its unseen cards, the draw pile's size and the
        face-up discard pile, so every deal of the hidden cards consistent with the view gives
        the same reveal. ``route`` is a route id or a ``Route`` (a route that is no tunnel
        reveals nothing); ``payment`` a ``Claim`` or a ``(hand, cardholder)`` pair of the cards
        laid down, whose colour is the claim's (U5, U7).
        """
        route = view.board.route(route) if isinstance(route, str) else route
        if isinstance(payment, tuple):
            hand, holder = payment
            cards = cards_arg(hand, "hand") + cards_arg(holder, "cardholder")
        else:
            cards = payment.cards
        color = claim_color(cards)
        if color is None:
            raise ValueError("a claim is paid in one colour plus locomotives, not "
                             f"{cards.describe()}")
        return cls._checked(view.unseen, view.draw_pile_size, view.discard, color, route.reveals)

    # --- U6, C6: where the revealed cards come from --------------------------------------------
    @property
    def from_pile(self) -> int:
        """Cards turned from the draw pile: the top ``reveal`` of it, or all of it (U1, U6)."""
        return reveal_draws(self.pool, self.pile_size, self.discard, self.color, self.reveal)[2]

    @property
    def from_discard(self) -> int:
        """Cards turned from the reshuffled discard pile once the draw pile runs out, as far as
        the discard goes (U6, C6)."""
        return reveal_draws(self.pool, self.pile_size, self.discard, self.color, self.reveal)[5]

    @property
    def shown(self) -> int:
        """How many cards the reveal turns in all: fewer than ``reveal`` when too few exist
        (U6; none at all means the tunnel is claimed with no extra cost)."""
        return self.from_pile + self.from_discard

    # --- the law, a sample, the price ----------------------------------------------------------
    def law(self) -> Distribution:
        """The exact law of the extra cost (U2, U5, U6, C6).

        The ``from_pile`` cards are a uniformly random part of the pool: a hypergeometric count
        of its matching cards. The ``from_discard`` cards are a random part of the known
        discard, independent of the first: a second hypergeometric count. The law is the sum.
        """
        return two_draw_law(*reveal_draws(self.pool, self.pile_size, self.discard, self.color, self.reveal))

    def sample(self, rng: Any) -> tuple[Color, ...]:
        """One physical reveal, in the order the cards are turned: ``rng`` (a
        ``numpy.random.Generator``) deals the draw pile as a random ``pile_size`` of the pool
        in random order and the top ``from_pile`` cards are turned; if the pile runs out the
        discard pile is shuffled into a new one and ``from_discard`` more are turned (U6, C6).

        >>> import numpy as np
        >>> from ttrlib.cards import CardCounts
        >>> t = TunnelReveal(CardCounts(red=1), 1, CardCounts(blue=2), Color.RED, 3)
        >>> t.sample(np.random.default_rng(0))
        (Color.RED, Color.BLUE, Color.BLUE)
        """
        cards = self.pool.elements()
        pile = rng.permutation(len(cards))[: self.pile_size].tolist()  # top first
        shown = [cards[i] for i in pile[: self.from_pile]]
        if self.from_discard:
            discards = self.discard.elements()
            reshuffled = rng.permutation(len(discards)).tolist()
            shown += [discards[i] for i in reshuffled[: self.from_discard]]
        return tuple(shown)

    def extra(self, revealed: Iterable[Color | str] | CardCounts) -> int:
        """The extra cards owed for ``revealed`` (``extra_cost`` with this claim's colour),
        refusing more cards than this reveal turns (U1, U6).

        >>> from ttrlib.cards import CardCounts
        >>> t = TunnelReveal(CardCounts(red=5, locomotive=2), 7, None, Color.LOCOMOTIVE, 4)
        >>> t.extra(["red", "locomotive", "red"])  # U5: only the locomotive matches
        1
        """
        cards = revealed if isinstance(revealed, CardCounts) else [Color.parse(c) for c in revealed]
        if len(cards) > self.shown:
            raise ValueError(f"this reveal turns {self.shown} cards, not {len(cards)} (U1, U6)")
        return extra_cost(cards, self.color)

    # --- value semantics -----------------------------------------------------------------------
    def _key(self) -> tuple[CardCounts, int, CardCounts, Color, int]:
        return (self.pool, self.pile_size, self.discard, self.color, self.reveal)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TunnelReveal):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a TunnelReveal cannot be changed; build a new one")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a TunnelReveal cannot be changed; build a new one")

    def __repr__(self) -> str:
        return (f"TunnelReveal({self.pool!r}, {self.pile_size}, {self.discard!r}, "
                f"{self.color!r}, {self.reveal})")
