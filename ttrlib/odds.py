"""Exact tunnel odds: how many extra cards a tunnel will cost (rules U2, U5, U6, C6).

Seen from a player, the cards that could be revealed are the *unseen* ones (the ``pool``). The
draw pile is a uniformly random subset of them, so the number of matching cards among ``n``
revealed ones is hypergeometric::

    P(X = k) = C(K, k) C(N - K, n - k) / C(N, n)

with ``N`` unseen cards of which ``K`` match: the claim's colour plus locomotives (U2), or
locomotives only for a claim paid with locomotives only (U5). When the draw pile holds fewer than
``n`` cards it is revealed in full and the rest comes from the reshuffled discard pile (U6, C6),
whose content is known: the law is then the sum of two independent hypergeometric counts. These
rules are written once, in the chance node ``ttrlib.chance.TunnelReveal``; this module asks it.

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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from .cards import EMPTY, CardCounts, Color
from .chance import (
    Distribution,
    TunnelReveal,
    cards_arg,
    count_arg,
    hypergeom_law,
    matching,
    pile_size_arg,
    reveal_draws,
    two_draw_law,
)

__all__ = [
    "TunnelOdds",
    "tunnel_odds",
    "best_payment",
    "cheapest_first",
    "spend_key",
    "Distribution",
    "tunnel_extra_cost",
    "matching_count",
    "hypergeom_law",
    "p_no_extra_table",
    "hypergeom_table",
    "symbolic_law",
    "symbolic_pmf",
]


def matching_count(cards: Mapping | CardCounts, color: Color | str) -> int:
    """How many of ``cards`` would demand an extra card for a claim paid in ``color``.

    A colour claim is matched by that colour and by locomotives (U2); a claim paid with
    locomotives only (``color=Color.LOCOMOTIVE``) only by locomotives (U5). The rule itself is
    ``ttrlib.chance.matching``.

    >>> from ttrlib.cards import standard_deck
    >>> matching_count(standard_deck(), "red"), matching_count(standard_deck(), "locomotive")
    (26, 14)
    """
    return matching(cards_arg(cards, "cards"), Color.parse(color))


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
        pool = cards_arg(pool, "pool")
    if type(color) is not Color:
        color = Color.parse(color)
    if type(reveal) is not int or reveal < 0:
        reveal = count_arg(reveal, "reveal")
    if deck_size is not None and not (type(deck_size) is int and 0 <= deck_size <= len(pool)):
        deck_size = pile_size_arg(deck_size, len(pool), "deck_size")  # refuses it, or an int
    if discard is None:
        discard = EMPTY
    elif type(discard) is not CardCounts:
        discard = cards_arg(discard, "discard")
    return two_draw_law(*reveal_draws(pool, deck_size, discard, color, reveal))  # TunnelReveal(...).law()


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

    counts = list(matching) if isinstance(matching, Iterable) else [matching]
    K = np.asarray(counts, dtype=int)[:, None]
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
    from .rules.payments import payable

    route_obj = view.board.route(route) if isinstance(route, str) else route
    if not isinstance(payment, Claim):
        hand, holder = payment
        payment = Claim(route_obj.id, hand, holder)
    reveal = TunnelReveal.from_view(view, route_obj, payment)  # refuses a mixed payment (K2)
    left = (view.hand - payment.hand) + (view.team_cardholder - payment.cardholder)
    spare = payable(left, reveal.color)
    law = reveal.law()  # a route that is no tunnel reveals nothing: certain 0
    return TunnelOdds(payment, reveal.color, law, spare, law.at_most(spare))


def spend_key(payment: Any) -> tuple:
    """What a way to pay spends, as a sort key: the fewest locomotives first (they stand in for
    any colour and pay any tunnel's extra cards, U2: lesson 05 teaches keeping them), then the
    fewest cards taken from the team cardholder (they are the teammate's cards too, K1), then a
    fixed order, so that equal ways always come in the same order.

    ``payment`` is anything with ``hand`` and ``cardholder`` counts: a ``Claim`` or a
    ``PayTunnel``. The one ranking of the ways to pay: :func:`best_payment` breaks its ties
    with it and :func:`cheapest_first` sorts by it, and every widget offers its first way."""
    cards = payment.hand + payment.cardholder
    return (cards[Color.LOCOMOTIVE], len(payment.cardholder), str(payment))


def cheapest_first(payments: Iterable[Any]) -> list[Any]:
    """Ways to pay (``Claim`` or ``PayTunnel``) sorted by :func:`spend_key`: the way that keeps
    the most locomotives, then the most of the team's cards, comes first."""
    return sorted(payments, key=spend_key)


def best_payment(view: Any, route: Any) -> list[TunnelOdds]:
    """Every legal way to lay down the cards for ``route`` from ``view``'s hand and team
    cardholder, best first: the highest chance to pay the extra cost (a plain route: certain
    for every way), then the fewest locomotives spent, then the fewest cards taken from the
    shared cardholder (:func:`spend_key`)."""
    from .actions import Claim
    from .rules.payments import route_payments

    route_obj = view.board.route(route) if isinstance(route, str) else route

    ways = [tunnel_odds(view, route_obj, Claim(route_obj.id, h, g))
            for h, g in route_payments(view.hand, view.team_cardholder, route_obj.color,
                                       route_obj.length)]
    ways.sort(key=lambda o: (-o.p_can_pay, *spend_key(o.claim)))
    return ways
