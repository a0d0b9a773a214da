"""Which cards pay for a route (K2) or a tunnel's extra cost (U2, U5, U7).

Cards always come from two places, the player's own hand and the team's train cardholder (K1);
these functions work on the two ``CardCounts`` and never see a teammate's hand.

>>> from ttrlib.cards import CardCounts, Color
>>> claim_color(CardCounts(red=2, locomotive=1))
Color.RED
>>> claim_color(CardCounts(locomotive=3))
Color.LOCOMOTIVE
>>> len(list(splits(CardCounts(red=1), CardCounts(red=1, locomotive=1), Color.RED, 2)))
3
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from ..cards import COLORS, TRAIN_COLORS, CardCounts, Color

_LOCO = COLORS.index(Color.LOCOMOTIVE)

#: Ways to pay: each a pair (cards from the hand, cards from the team's cardholder).
Ways = tuple[tuple[CardCounts, CardCounts], ...]


def claim_color(cards: CardCounts) -> Color | None:
    """The colour a set of laid cards is "of" (U7), ``LOCOMOTIVE`` for locomotives only (U5),
    or ``None`` when the cards mix two colours (illegal under K2)."""
    colours = [c for c in cards.colors() if c is not Color.LOCOMOTIVE]
    if len(colours) > 1:
        return None
    return colours[0] if colours else Color.LOCOMOTIVE


def matches(card: Color, color: Color) -> bool:
    """Does a revealed card demand an extra card from a tunnel claimed with ``color``?
    Locomotives always match (U2); with a locomotives-only claim nothing else does (U5).

    The one statement of U2 / U5: the tunnel's chance node (``ttrlib.chance.TunnelReveal``)
    counts and prices revealed cards with it."""
    return card is Color.LOCOMOTIVE or card is color


def payable(cards: CardCounts, color: Color) -> int:
    """How many cards of ``cards`` can stand for ``color`` (the colour itself plus locomotives;
    locomotives only when ``color`` is ``LOCOMOTIVE``)."""
    if color is Color.LOCOMOTIVE:
        return cards[Color.LOCOMOTIVE]
    return cards[color] + cards[Color.LOCOMOTIVE]


def splits(
    hand: CardCounts, holder: CardCounts, color: Color, n: int
) -> Iterator[tuple[CardCounts, CardCounts]]:
    """Every way to take exactly ``n`` cards of ``color`` or locomotives from hand and holder.

    With ``color=LOCOMOTIVE`` only locomotives are taken. Yields ``(from_hand, from_holder)``.
    Ways that use no coloured card at all (locomotives only) are yielded too, so a caller that
    loops over colours should skip them and add them once (see ``route_payments``).
    """
    ci = COLORS.index(color)
    h, g = hand.as_tuple(), holder.as_tuple()
    if color is Color.LOCOMOTIVE:
        return iter(_splits(0, 0, h[_LOCO], g[_LOCO], ci, n))
    return iter(_splits(h[ci], g[ci], h[_LOCO], g[_LOCO], ci, n))


@lru_cache(maxsize=16384)
def _splits(hc: int, gc: int, hl: int, gl: int, ci: int, n: int) -> Ways:
    # Depends on a few small counts only, so the cache answers almost every call.
    out = []
    zero = [0] * len(COLORS)
    for a in range(min(hc, n) + 1):
        for b in range(min(gc, n - a) + 1):
            rest = n - a - b
            for x in range(max(0, rest - gl), min(hl, rest) + 1):
                h = zero.copy()
                g = zero.copy()
                h[ci] += a
                g[ci] += b
                h[_LOCO] += x
                g[_LOCO] += rest - x
                out.append((CardCounts._raw(tuple(h)), CardCounts._raw(tuple(g))))
    return tuple(out)


def route_payments(
    hand: CardCounts, holder: CardCounts, route_color: Color | None, length: int
) -> Ways:
    """Every legal way to lay down cards for a route of ``length`` (K2): one colour (the route's,
    or any for gray) plus locomotives, from hand and team cardholder (K1). Each way once.

    Cached: many routes share a colour and a length, and a hand changes slowly."""
    return _route_payments(hand, holder, route_color, length)


@lru_cache(maxsize=8192)
def _route_payments(
    hand: CardCounts, holder: CardCounts, route_color: Color | None, length: int
) -> Ways:
    return tuple(_route_payment_ways(hand, holder, route_color, length))


def _route_payment_ways(
    hand: CardCounts, holder: CardCounts, route_color: Color | None, length: int
) -> Iterator[tuple[CardCounts, CardCounts]]:
    hl, gl = hand.as_tuple()[_LOCO], holder.as_tuple()[_LOCO]
    for ci, hc, gc in way_groups(hand, holder, route_color):
        yield from ways(ci, hc, gc, hl, gl, length)


_TRAIN_INDEXES = tuple(range(len(TRAIN_COLORS)))
_INDEX = {c: i for i, c in enumerate(COLORS)}


def way_groups(
    hand: CardCounts, holder: CardCounts, route_color: Color | None
) -> list[tuple[int, int, int]]:
    """The colours a route may be paid in with these cards (K2), in order, as keys of ``ways``:
    ``(colour index, cards of it in hand, in the cardholder)`` for each colour the cards hold
    (the route's own, or any for gray), then the locomotives-only group. A route's payments are
    ``ways(*key, hand locomotives, cardholder locomotives, length)`` for each key in turn; the
    keys hold only small counts, so callers can cache what they build per key."""
    h, g = hand.as_tuple(), holder.as_tuple()
    colours = _TRAIN_INDEXES if route_color is None else (_INDEX[route_color],)
    keys = [(ci, h[ci], g[ci]) for ci in colours if h[ci] + g[ci]]
    keys.append((_LOCO, 0, 0))
    return keys


@lru_cache(maxsize=16384)
def ways(ci: int, hc: int, gc: int, hl: int, gl: int, n: int) -> Ways:
    """Every way to lay ``n`` cards of colour index ``ci`` (``hc`` in hand, ``gc`` in the
    cardholder) and locomotives (``hl``, ``gl``), using at least one card of the colour (K2: it
    is the claim's colour); for ``ci`` the locomotive, the locomotives-only ways (U5)."""
    out = _splits(hc, gc, hl, gl, ci, n)
    if ci == _LOCO:
        return out
    return tuple(w for w in out if w[0].as_tuple()[ci] + w[1].as_tuple()[ci] > 0)



def longest_payable(cards: CardCounts) -> dict[Color | None, int]:
    """For each route colour (``None`` = gray), the longest route ``cards`` can pay for (K2)."""
    counts = cards.as_tuple()
    loco = counts[_LOCO]
    out: dict[Color | None, int] = {c: counts[i] + loco for i, c in enumerate(TRAIN_COLORS)}
    out[None] = max(out.values())
    return out
