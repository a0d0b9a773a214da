"""The plain (JSON) form of actions and views: the one codec of the class server, its clients
and the golden playthroughs.

- card counts are ``{colour: n}`` (colours in C1's order, zero counts left out);
- sets are sorted lists, tuples are lists, enums are their value;
- a dataclass is ``{"type": ClassName, field: value, ...}`` (actions: the action codec);
- an event is ``Event.to_dict``'s ``{"kind": "claim", field: value, ...}``, the form a save
  holds: one wire name per event (issue 31), read back by ``plain_views.event_from_plain``;
- a pending tunnel attempt is its save's form too (``ttrlib.tunnel_codec``, the one codec of
  its fields), read back by ``plain_views.view_from_plain``.

``to_plain`` writes any of these; ``action_from_plain`` reads an action back and refuses anything
else with an ``ActionError`` naming the field (a client's typo must never reach the rules as a
foreign exception). Whether the action is *legal* is the rules' question, not the codec's.
``public_to_plain`` is the part of a view every seat sees alike (the teacher's board).
Reading a view, an event or a score sheet back is ``ttrlib.plain_views`` (above the game, whose
``PlayerView`` it builds); this module stays below the state, so that saves can use it.

>>> from ttrlib import actions as act
>>> to_plain(act.Claim("R01", hand={"red": 2}))
{'type': 'Claim', 'route': 'R01', 'hand': {'red': 2}, 'cardholder': {}, 'teammate': {}}
>>> action_from_plain({"type": "DrawCard", "source": "deck"})
DrawCard(source='deck')
>>> action_from_plain({"type": "Claim", "route": "R01", "hand": {"mauve": 1}})
Traceback (most recent call last):
...
ttrlib.errors.ActionError: Claim.hand: 'mauve' is not a card colour
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from . import actions as act
from .board import MAX_NAME as _MAX_NAME  # one bound for every id (the loader's)
from .cards import CardCounts, Place
from .errors import ActionError, shown
from .events import Event
from .state import FACE_UP, TunnelAttempt
from .tunnel_codec import tunnel_to_dict

#: Every action type a client may send, by the name ``to_plain`` writes.
ACTIONS: dict[str, type] = {cls.__name__: cls for cls in (
    act.KeepTickets, act.DrawCard, act.PlaceCard, act.Claim, act.PayTunnel, act.Withdraw,
    act.DrawTickets, act.ShareTickets, act.Pass)}
_MAX_IDS = 16  # more ticket ids than any offer (T1: 5) is junk, refused before it is read


def to_plain(value: Any) -> Any:
    """A JSON-ready, deterministic form of an action, a view, a view's field or an event."""
    if isinstance(value, CardCounts):
        return value.to_dict()
    if isinstance(value, (frozenset, set)):
        return sorted(to_plain(v) for v in value)
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, Event):  # before the dataclasses: an event's wire form is its save's
        return value.to_dict()
    if isinstance(value, TunnelAttempt):  # the save's form, by the one codec of its fields
        return tunnel_to_dict(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"type": type(value).__name__,
                **{f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    if isinstance(value, Enum):
        return value.value
    return value


def view_to_plain(view: Any) -> dict[str, Any]:
    """A seat's ``PlayerView`` without its board (sent once, it never changes) and its events
    (narrated apart, for the reader): what a client of the class server receives."""
    return {f.name: to_plain(getattr(view, f.name)) for f in dataclasses.fields(view)
            if f.name not in ("board", "events")}


def action_from_plain(data: Any) -> act.Action:
    """The action ``data`` describes; ``ActionError`` names the first field that is wrong."""
    if not isinstance(data, dict):
        raise ActionError(f"an action is an object with a 'type', not {shown(data)}")
    name = data.get("type")
    cls = ACTIONS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ActionError(f"type: {shown(name)} is not an action "
                          f"(one of {', '.join(ACTIONS)})")
    names = {f.name for f in dataclasses.fields(cls)}
    extra = sorted(str(k) for k in data if k != "type" and k not in names)
    if extra:
        raise ActionError(f"{name}: no field {shown(extra[0])}")
    values = {}
    for f in dataclasses.fields(cls):
        where = f"{name}.{f.name}"
        if f.name not in data:
            if f.default is dataclasses.MISSING:
                raise ActionError(f"{where} is missing")
            continue
        values[f.name] = _field(where, f.name, data[f.name], f.name in act.CARD_FIELDS[cls])
    action: act.Action = cls(**values)
    return action


def _field(where: str, name: str, value: Any, cards: bool) -> Any:
    if cards:
        return _cards(where, value)
    if name in ("keep", "tickets"):
        if not isinstance(value, list) or len(value) > _MAX_IDS:
            raise ActionError(f"{where}: a list of at most {_MAX_IDS} ticket ids, "
                              f"not {shown(value)}")
        return frozenset(_name(where, v) for v in value)
    if name == "source":
        if value == "deck" or (type(value) is int and 0 <= value < FACE_UP):
            return value
        raise ActionError(f"{where}: 'deck' or a face-up slot 0-{FACE_UP - 1}, not {shown(value)}")
    if name == "to":
        place = Place.read(value)
        if place is None:
            raise ActionError(f"{where}: 'hand' or 'cardholder', not {shown(value)}")
        return place
    return _name(where, value)  # route, share


def _name(where: str, value: Any) -> str:
    if isinstance(value, str) and 0 < len(value) <= _MAX_NAME:
        return value
    raise ActionError(f"{where}: an id of 1-{_MAX_NAME} characters, not {shown(value)}")


def _cards(where: str, value: Any) -> CardCounts:
    try:
        return CardCounts.from_plain(value)
    except ValueError as exc:
        raise ActionError(f"{where}: {exc}") from None


#: The fields of a ``PlayerView`` every seat sees alike: the public view (the teacher's board).
#: Anything one seat holds privately (its hand, tickets, team cardholder, offer, drawn card, what
#: it knows of others' hands) differs between seats and is left out (I1); a test checks that
#: each of these fields is the same in every seat's view at every step of whole games.
PUBLIC_FIELDS = ("players", "phase", "to_move", "face_up", "discard", "draw_pile_size",
                 "ticket_deck_size", "claimed", "trains", "hand_sizes", "ticket_counts",
                 "team_ticket_counts", "cardholder_sizes", "tunnel", "final_round")


def public_to_plain(view: Any) -> dict[str, Any]:
    """The public part of a seat's view (``PUBLIC_FIELDS``), in plain form."""
    return {name: to_plain(getattr(view, name)) for name in PUBLIC_FIELDS}
