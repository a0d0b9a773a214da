"""What happened in a game: small frozen events produced by the rules (``ttrlib.rules``).

An event holds facts, never English: ``kind`` (a short name), ``seat`` (who acted; ``None`` for
the table) and typed fields. ``ttrlib.narration.text(event, seat)`` words it for a reader, so
hiding a detail from a seat is a narration choice. The log is public (I1): an event never holds
what some seat may not know (a card drawn from the deck has ``card=None``).

>>> e = Claimed(seat=0, route="kab-del", a="Kabul", b="Delhi", cards=CardCounts(red=2))
>>> e.kind, e.to_dict()
('claim', {'kind': 'claim', 'seat': 0, 'route': 'kab-del', 'a': 'Kabul', 'b': 'Delhi', \
'cards': {'red': 2}})
>>> Event.from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any, ClassVar

from .board import MAX_NAME
from .cards import EMPTY, CardCounts, Color, Place
from .errors import SaveError


@dataclass(frozen=True)
class Event:
    """The common base: ``kind`` names the subclass, ``seat`` the seat that acted (or ``None``)."""

    kind: ClassVar[str] = ""
    seat: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready table (for saving): ``kind``, ``seat`` and each field."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out

    @staticmethod
    def from_dict(data: Any) -> "Event":
        """The event ``to_dict`` wrote; ``SaveError`` names what is wrong with a bad table."""
        if not isinstance(data, dict):
            raise SaveError(f"event: must be a table, not {type(data).__name__}")
        kind = data.get("kind")
        cls = KINDS.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise SaveError(f"event: 'kind' must be one of {sorted(KINDS)}")
        names = {f.name for f in dataclasses.fields(cls)}
        extra = sorted(str(k)[:40] for k in set(data) - names - {"kind"})
        if extra:
            raise SaveError(f"event {cls.kind!r}: unknown fields {extra[:5]}")
        values = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                raise SaveError(f"event {cls.kind!r}: field {f.name!r} is missing")
            values[f.name] = _read(cls.kind, f.name, _TYPES[f.name], data[f.name])
        return cls(**values)


# ------------------------------------------------------------------------------------------------
# the kinds (one class per kind)
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Setup(Event):
    """A new game is dealt (C4, C5, T1)."""

    kind: ClassVar[str] = "setup"
    players: int = 4


@dataclass(frozen=True)
class Reshuffle(Event):
    """C6: the discard pile (``count`` cards) became the new draw pile."""

    kind: ClassVar[str] = "reshuffle"
    count: int = 0


@dataclass(frozen=True)
class Reset(Event):
    """C5: three face-up locomotives; the row was discarded and turned up anew."""

    kind: ClassVar[str] = "reset"


@dataclass(frozen=True)
class NoReset(Event):
    """C5 policy: three face-up locomotives stay, as no reset could ever help."""

    kind: ClassVar[str] = "no_reset"


class DrawStep(str, enum.Enum):
    """Which part of a draw an event tells (D1-D4); its value is the word saves hold."""

    FIRST = "first"
    SECOND = "second"
    LOCOMOTIVE = "locomotive"  # a face-up locomotive taken first: the whole draw (D2)
    NONE = "none"  # no second card can be drawn (D4)

    def __repr__(self) -> str:
        return f"DrawStep.{self.name}"

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


@dataclass(frozen=True)
class Draw(Event):
    """A train card drawn (D1-D4), at ``step`` (``DrawStep``). ``slot`` is the face-up slot
    (``None``: the deck); ``card`` is known only for a face-up card; ``to`` is where a second
    card went."""

    kind: ClassVar[str] = "draw"
    step: DrawStep = DrawStep.FIRST
    slot: int | None = None
    card: Color | None = None
    to: Place | None = None


@dataclass(frozen=True)
class Placed(Event):
    """D1: the first drawn card went to ``to``."""

    kind: ClassVar[str] = "place"
    to: Place = Place.HAND


@dataclass(frozen=True)
class TicketsPlaced(Event):
    """T1: a team's two shared setup tickets are placed (revealed together)."""

    kind: ClassVar[str] = "tickets"
    team: int = 0


@dataclass(frozen=True)
class TicketsDrawn(Event):
    """T2: ``count`` tickets drawn."""

    kind: ClassVar[str] = "draw_tickets"
    count: int = 0


@dataclass(frozen=True)
class TicketsKept(Event):
    """T2, T3: ``kept`` tickets kept (one of them shared), ``returned`` to the deck."""

    kind: ClassVar[str] = "keep_tickets"
    kept: int = 0
    returned: int = 0


@dataclass(frozen=True)
class TicketsShared(Event):
    """T4: ``count`` private tickets placed in the team's ticket cardholder."""

    kind: ClassVar[str] = "share_tickets"
    count: int = 0


@dataclass(frozen=True)
class TunnelTried(Event):
    """U1, U2: ``cards`` laid on the tunnel ``route`` (``a`` - ``b``), ``revealed`` turned up,
    ``extra`` cards owed; ``color`` is the claim's colour (U7; locomotive: U5)."""

    kind: ClassVar[str] = "tunnel"
    route: str = ""
    a: str = ""
    b: str = ""
    cards: CardCounts = EMPTY
    revealed: tuple[Color, ...] = ()
    extra: int = 0
    color: Color = Color.LOCOMOTIVE


@dataclass(frozen=True)
class Claimed(Event):
    """K1-K4: ``route`` (``a`` - ``b``) claimed with ``cards``."""

    kind: ClassVar[str] = "claim"
    route: str = ""
    a: str = ""
    b: str = ""
    cards: CardCounts = EMPTY


@dataclass(frozen=True)
class Withdrew(Event):
    """U3, U4: the cards laid on the tunnel ``route`` taken back."""

    kind: ClassVar[str] = "withdraw"
    route: str = ""
    a: str = ""
    b: str = ""


@dataclass(frozen=True)
class Passed(Event):
    """Policy: a seat with no legal action passed."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class FinalRound(Event):
    """E1: ``team`` reached the trigger; every player gets one final turn."""

    kind: ClassVar[str] = "final_round"
    team: int = 0


@dataclass(frozen=True)
class Over(Event):
    """E1: the game is over."""

    kind: ClassVar[str] = "over"


KINDS: dict[str, type[Event]] = {cls.kind: cls for cls in (
    Setup, Reshuffle, Reset, NoReset, Draw, Placed, TicketsPlaced, TicketsDrawn, TicketsKept,
    TicketsShared, TunnelTried, Claimed, Withdrew, Passed, FinalRound, Over)}


# ------------------------------------------------------------------------------------------------
# to and from plain tables
# ------------------------------------------------------------------------------------------------
def _plain(value: Any) -> Any:
    if isinstance(value, CardCounts):
        return value.to_dict()
    if isinstance(value, enum.Enum):  # Color, Place, DrawStep: their words
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and -10**6 < v < 10**6


def _color(v: Any) -> Color | None:
    return Color(v) if isinstance(v, str) and v in _COLOR_VALUES else None


_COLOR_VALUES = {c.value for c in Color}
_STEPS = {s.value: s for s in DrawStep}


def _read(kind: str, name: str, what: str, v: Any) -> Any:
    """Field ``name`` of a saved event, of type ``what``; ``SaveError`` if it is not one."""
    ok, out = True, v
    if what == "seat":
        ok = v is None or (_is_int(v) and 0 <= v < 6)
    elif what == "int":
        ok = _is_int(v) and v >= 0
    elif what == "slot":
        ok = v is None or (_is_int(v) and v >= 0)
    elif what == "str":
        ok = isinstance(v, str) and len(v) <= MAX_NAME  # the loader's limit: every board's names fit
    elif what == "place":
        out = Place.read(v)
        ok = v is None or out is not None
    elif what == "step":
        out = _STEPS.get(v) if isinstance(v, str) else None
        ok = out is not None
    elif what == "card":
        out = None if v is None else _color(v)
        ok = v is None or out is not None
    elif what == "color":
        out = _color(v)
        ok = out is not None
    elif what == "colors":
        ok = isinstance(v, list) and len(v) <= 20 and all(_color(c) is not None for c in v)
        out = tuple(_color(c) for c in v) if ok else None
    elif what == "cards":
        try:
            out = CardCounts.from_plain(v)
        except ValueError as exc:
            raise SaveError(f"event {kind!r}: field {name!r}: {exc}") from None
    if not ok:
        raise SaveError(f"event {kind!r}: field {name!r} is not {_WHAT[what]}")
    return out


#: field name -> how it is read back (every field of every kind)
_TYPES = {"seat": "seat", "players": "int", "cards": "cards", "step": "step", "slot": "slot",
          "card": "card", "to": "place", "team": "int", "count": "int", "kept": "int",
          "returned": "int", "route": "str", "a": "str", "b": "str", "revealed": "colors",
          "extra": "int", "color": "color"}
_WHAT = {"seat": "null or a seat", "int": "a count", "slot": "null or a slot",
         "str": f"a name of at most {MAX_NAME} characters", "place": "null, 'hand' or 'cardholder'",
         "step": " or ".join(repr(s.value) for s in DrawStep), "card": "null or a colour",
         "color": "a colour", "colors": "a list of colours", "cards": "a colour -> count table"}
