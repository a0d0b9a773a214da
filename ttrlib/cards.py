"""Train cards: the colours, an immutable multiset of cards, and the standard deck (rule C1).

>>> deck = standard_deck()
>>> len(deck), deck[Color.RED], deck[Color.LOCOMOTIVE]
(110, 12, 14)
>>> hand = CardCounts(red=2, locomotive=1)
>>> hand + CardCounts(red=1)
CardCounts(red=3, locomotive=1)
>>> CardCounts(red=1) <= hand
True
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Iterable, Mapping

from .errors import shown
from .i18n import _
from .words import colour_count


class Color(str, enum.Enum):
    """The eight train colours and the wild locomotive (rule C1)."""

    PURPLE = "purple"
    WHITE = "white"
    BLUE = "blue"
    YELLOW = "yellow"
    ORANGE = "orange"
    BLACK = "black"
    RED = "red"
    GREEN = "green"
    LOCOMOTIVE = "locomotive"

    def __repr__(self) -> str:
        return f"Color.{self.name}"

    __str__ = enum.Enum.__str__  # "Color.RED" rather than the str mixin's value

    @classmethod
    def parse(cls, value: "Color | str") -> "Color":
        """A colour from a ``Color`` or its name (``"red"``, ``"RED"``, ``"loco"``)."""
        if isinstance(value, Color):
            return value
        if isinstance(value, str):
            key = value.strip().lower()
            if key in ("loco", "locomotives", "wild"):
                key = "locomotive"
            try:
                return cls(key)
            except ValueError:
                pass
        names = ", ".join(c.value for c in cls)
        raise ValueError(f"unknown card colour {value!r} (expected one of: {names})")


class Place(str, enum.Enum):
    """Where a drawn train card goes (D1): the seat's own hand or its team's train cardholder.
    The one word for the place in actions, events, states and saves. A ``str`` enum whose value
    is the word of the wire forms (saves, the class server's JSON), which stay as they were."""

    HAND = "hand"
    CARDHOLDER = "cardholder"

    def __repr__(self) -> str:
        return f"Place.{self.name}"

    def __str__(self) -> str:  # the word ("hand"): it reads in a sentence and a message
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    @property
    def other(self) -> Place:
        """The other place: where the second card of a draw goes (D1)."""
        return Place.CARDHOLDER if self is Place.HAND else Place.HAND

    @classmethod
    def read(cls, value: object) -> Place | None:
        """``value`` as a place if it is one (a ``Place`` or its word), else ``None``."""
        if isinstance(value, Place):
            return value
        return _PLACES.get(value) if isinstance(value, str) else None


_PLACES = {p.value: p for p in Place}

COLORS: tuple[Color, ...] = tuple(Color)
#: The eight colours a route can have, locomotives excluded.
TRAIN_COLORS: tuple[Color, ...] = COLORS[:-1]
_INDEX: dict[Color | str, int] = {c: i for i, c in enumerate(COLORS)}
_ZEROS = (0,) * len(COLORS)  # the floor of ``minus_available``, one per colour

CARDS_PER_COLOR = 12  # rule C1
LOCOMOTIVES = 14  # rule C1
DECK_SIZE = CARDS_PER_COLOR * len(TRAIN_COLORS) + LOCOMOTIVES  # 110


class CardCounts:
    """An immutable, hashable multiset of train cards.

    Build it from keywords, a mapping or an iterable of colours::

        CardCounts(red=2, locomotive=1)
        CardCounts({Color.RED: 2})
        CardCounts.of([Color.RED, Color.RED, Color.LOCOMOTIVE])

    ``a + b`` adds, ``a - b`` removes (``ValueError`` if ``b`` is not part of ``a``), ``a <= b``
    means "every card of ``a`` is in ``b``", ``len(a)`` is the number of cards.
    """

    __slots__ = ("_c", "_hash")
    _c: tuple[int, ...]
    _hash: int | None

    def __init__(self, counts: "Mapping[Color | str, int] | CardCounts | None" = None, /, **kw: int):
        c = [0] * len(COLORS)
        items: list[tuple[Color | str, int]] = []
        if isinstance(counts, CardCounts):
            c = list(counts._c)
        elif counts is not None:
            if not isinstance(counts, Mapping):
                raise TypeError("CardCounts takes a mapping of colour -> count; use CardCounts.of()")
            items.extend(counts.items())
        items.extend(kw.items())
        for key, n in items:
            color = Color.parse(key)
            if isinstance(n, bool) or not isinstance(n, int) and not hasattr(n, "__index__"):
                raise TypeError(f"count of {color.value} must be an integer, not {n!r}")
            n = int(n)
            if n < 0:
                raise ValueError(f"count of {color.value} cannot be negative ({n})")
            c[_INDEX[color]] += n
        self._c = tuple(c)
        self._hash = None

    @classmethod
    def of(cls, cards: Iterable["Color | str"]) -> "CardCounts":
        """Count a sequence of cards."""
        c = [0] * len(COLORS)
        index = _INDEX.get
        for card in cards:
            i = index(card)
            c[_INDEX[Color.parse(card)] if i is None else i] += 1
        return cls._raw(tuple(c))

    @classmethod
    def _raw(cls, counts: tuple[int, ...]) -> "CardCounts":
        obj = object.__new__(cls)
        obj._c = counts
        obj._hash = None
        return obj

    # --- reading -------------------------------------------------------------------------------
    def __getitem__(self, color: "Color | str") -> int:
        i = _INDEX.get(color)
        return self._c[_INDEX[Color.parse(color)] if i is None else i]

    def get(self, color: "Color | str", default: int = 0) -> int:
        return self[color]

    def __len__(self) -> int:
        return sum(self._c)

    @property
    def total(self) -> int:
        return sum(self._c)

    def __bool__(self) -> bool:
        return any(self._c)

    def items(self) -> list[tuple[Color, int]]:
        """``(colour, count)`` for the colours present, in deck order."""
        return [(col, n) for col, n in zip(COLORS, self._c) if n]

    def colors(self) -> list[Color]:
        return [col for col, n in zip(COLORS, self._c) if n]

    def elements(self) -> list[Color]:
        """Every card once, in deck order."""
        out: list[Color] = []
        for col, n in zip(COLORS, self._c):
            if n:
                out += [col] * n
        return out

    def as_tuple(self) -> tuple[int, ...]:
        """Counts in the order of ``COLORS``."""
        return self._c

    def to_dict(self) -> dict[str, int]:
        """A JSON-ready mapping of colour names to non-zero counts (the card-count JSON form,
        read back by ``from_plain``)."""
        return {col.value: n for col, n in self.items()}

    @classmethod
    def from_plain(cls, value: object) -> CardCounts:
        """The card-count JSON form read back: a table of colour names (each at most once) to
        whole counts 0-``MOST_CARDS`` (no colour holds more cards than the deck, C1). The one
        reader of that form: actions, events, saves and positions call it and wrap its
        ``ValueError`` (a phrase, without the field) in their own error naming the field.

        >>> CardCounts.from_plain({"red": 2, "locomotive": 1})
        CardCounts(red=2, locomotive=1)
        """
        if not isinstance(value, dict) or len(value) > len(COLORS):
            raise ValueError(f"cards as {{colour: count}}, not {shown(value)}")
        counts = [0] * len(COLORS)
        for name, n in value.items():
            i = _INDEX.get(name) if isinstance(name, str) else None
            if i is None:
                raise ValueError(f"{shown(name)} is not a card colour")
            if type(n) is not int or not 0 <= n <= MOST_CARDS:
                raise ValueError(f"the count of {name} is a whole number 0-{MOST_CARDS}, "
                                 f"not {shown(n)}")
            counts[i] = n
        return cls._raw(tuple(counts))

    # --- arithmetic ----------------------------------------------------------------------------
    def __add__(self, other: "CardCounts") -> "CardCounts":
        if not isinstance(other, CardCounts):
            return NotImplemented
        return CardCounts._raw(tuple(map(operator.add, self._c, other._c)))

    def __sub__(self, other: "CardCounts") -> "CardCounts":
        if not isinstance(other, CardCounts):
            return NotImplemented
        diff = tuple(map(operator.sub, self._c, other._c))
        if min(diff) < 0:
            missing = CardCounts._raw(tuple(max(0, -d) for d in diff))
            raise ValueError(f"cannot remove cards that are not there: missing {missing.describe()}")
        return CardCounts._raw(diff)

    def minus_available(self, other: "CardCounts") -> "CardCounts":
        """``self - other`` with each count floored at zero (multiset difference)."""
        if not any(self._c) or not any(other._c):  # common (nothing known, nothing paid)
            return self  # immutable, so the same object serves
        return CardCounts._raw(tuple(map(max, map(operator.sub, self._c, other._c), _ZEROS)))

    def intersection(self, other: "CardCounts") -> "CardCounts":
        return CardCounts._raw(tuple(min(a, b) for a, b in zip(self._c, other._c)))

    # --- comparison ----------------------------------------------------------------------------
    def __le__(self, other: "CardCounts") -> bool:
        if not isinstance(other, CardCounts):
            return NotImplemented
        return all(map(operator.le, self._c, other._c))

    def __ge__(self, other: "CardCounts") -> bool:
        if not isinstance(other, CardCounts):
            return NotImplemented
        return other <= self

    def __lt__(self, other: "CardCounts") -> bool:
        if not isinstance(other, CardCounts):
            return NotImplemented
        return self <= other and self._c != other._c

    def __gt__(self, other: "CardCounts") -> bool:
        if not isinstance(other, CardCounts):
            return NotImplemented
        return other < self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CardCounts):
            return NotImplemented
        return self._c == other._c

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._c)
        return self._hash

    # --- showing -------------------------------------------------------------------------------
    def __repr__(self) -> str:
        inner = ", ".join(f"{col.value}={n}" for col, n in self.items())
        return f"CardCounts({inner})"

    def describe(self) -> str:
        """Plain words: ``"2 red, 1 locomotive"``, ``"3 locomotives"`` (``"no cards"`` when
        empty). A colour word stands for "red cards" and stays as it is ("1 red", "3 red");
        "locomotive" is a noun and takes the plural."""
        if not self:
            return _("no cards")
        return ", ".join(colour_count(n, col.value) for col, n in self.items())

    def _repr_html_(self) -> str:
        from . import display

        return display.cards_html(self)


EMPTY = CardCounts()
#: The most cards of one colour a card-count table may name: the whole deck (C1).
MOST_CARDS = CARDS_PER_COLOR * len(TRAIN_COLORS) + LOCOMOTIVES


_DECK = CardCounts({c: CARDS_PER_COLOR for c in TRAIN_COLORS}, locomotive=LOCOMOTIVES)


def standard_deck() -> CardCounts:
    """The 110 train cards of rule C1: 12 of each of 8 colours and 14 locomotives."""
    return _DECK  # immutable, so one shared value serves every caller
