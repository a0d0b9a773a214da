"""The one JSON codec of a pending tunnel attempt (``state.TunnelAttempt``), for a save's start
and for the class server's view alike (issue 31: its fields were listed by hand three times).

The codec walks ``dataclasses.fields(TunnelAttempt)`` and reads each field by its declared type
(``_BY_TYPE``), so a field added to ``TunnelAttempt`` is written, sent and read back with no
list to update; a field of a type it has no reader for stops the import, naming it. Each field
is written under its attribute's name but ``laid_holder``, which a save has always called
``laid_cardholder`` (the public name of the cardholders, ``state.PARTS``): saves of format 4
hold that key, so it stays, and the server's view says it the same way.

``tunnel_from_dict`` raises ``ValueError`` with a short phrase naming the field; the save says
it of ``start.tunnel`` (a ``SaveError``), the view of ``view.tunnel`` (a ``ViewError``). Whether
the attempt fits the game (U1-U7) is ``validity.check_state``'s question, not the codec's.

>>> from ttrlib.cards import CardCounts, Color
>>> t = TunnelAttempt("kabul-kashgar", 0, CardCounts(green=3), CardCounts(green=1),
...                   (Color.GREEN, Color.RED), Color.GREEN, 1)
>>> tunnel_to_dict(t)["laid_cardholder"]
{'green': 1}
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from typing import Any

from .board import MAX_TUNNEL, Board
from .cards import COLORS, CardCounts, Color
from .errors import shown
from .state import TunnelAttempt

#: attribute -> its key where it differs (the save's public name, kept by every save since format 4)
_SAVED_AS = {"laid_holder": "laid_cardholder"}
FIELDS = dataclasses.fields(TunnelAttempt)
#: attribute -> its key in the JSON form, in the dataclass's order
KEYS: dict[str, str] = {f.name: _SAVED_AS.get(f.name, f.name) for f in FIELDS}
_TYPES = typing.get_type_hints(TunnelAttempt)
_COLOR_VALUES = {c.value: c for c in COLORS}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _color(key: str, v: Any) -> Color:
    if not isinstance(v, str) or v not in _COLOR_VALUES:
        raise ValueError(f"{key!r}: {shown(v)} is not a card colour")
    return _COLOR_VALUES[v]


def _colors(key: str, v: Any) -> tuple[Color, ...]:
    if not isinstance(v, list) or len(v) > MAX_TUNNEL:
        raise ValueError(f"{key!r} must be a list of at most {MAX_TUNNEL} colours")
    return tuple(_color(key, c) for c in v)


def _counts(key: str, v: Any) -> CardCounts:
    try:
        return CardCounts.from_plain(v)
    except ValueError as exc:
        raise ValueError(f"{key!r}: {exc}") from None  # the phrase of CardCounts.from_plain


def _int(key: str, v: Any) -> int:
    if not _is_int(v):
        raise ValueError(f"{key!r} must be a whole number, not {shown(v)}")
    value: int = v
    return value


def _str(key: str, v: Any) -> str:
    if not isinstance(v, str):
        raise ValueError(f"{key!r} must be a name, not {shown(v)}")
    return v


#: declared type -> (its JSON form, its reader): every type a field of ``TunnelAttempt`` has
_BY_TYPE: dict[Any, tuple[Callable[[Any], Any], Callable[[str, Any], Any]]] = {
    str: (lambda v: v, _str),
    int: (lambda v: v, _int),
    CardCounts: (lambda v: v.to_dict(), _counts),
    Color: (lambda v: v.value, _color),
    tuple[Color, ...]: (lambda v: [c.value for c in v], _colors),
}
_MISSING = [f.name for f in FIELDS if _TYPES[f.name] not in _BY_TYPE]
if _MISSING:  # pragma: no cover - a new field's type needs its codec here first
    raise TypeError(f"tunnel_codec: no codec for TunnelAttempt's field(s) {_MISSING}")


def tunnel_to_dict(t: TunnelAttempt) -> dict[str, Any]:
    """``t`` as JSON-ready data, each field under its key (``KEYS``)."""
    return {KEYS[f.name]: _BY_TYPE[_TYPES[f.name]][0](getattr(t, f.name)) for f in FIELDS}


def _fits(t: TunnelAttempt, board: Board, players: int) -> None:
    """What the board and the table say of two fields: a tunnel of this board, a seat of it."""
    if not (board.has_route(t.route) and board.route(t.route).is_tunnel):
        raise ValueError(f"'route': {shown(t.route)} is not a tunnel of the board")
    if not 0 <= t.seat < players:
        raise ValueError(f"'seat': {t.seat} is not a seat 0-{players - 1}")


def tunnel_from_dict(data: Any, board: Board, players: int) -> TunnelAttempt:
    """The attempt ``tunnel_to_dict`` wrote, on ``board`` at a table of ``players``;
    ``ValueError`` names the first field that is missing, unknown or cannot be read."""
    if not isinstance(data, dict) or set(data) != set(KEYS.values()):
        raise ValueError(f"must be a table with {sorted(KEYS.values())}, not {shown(data)}")
    values = {f.name: _BY_TYPE[_TYPES[f.name]][1](KEYS[f.name], data[KEYS[f.name]])
              for f in FIELDS}
    attempt = TunnelAttempt(**values)
    _fits(attempt, board, players)
    return attempt
