"""The plain (JSON) form of actions and views: the one codec of the class server, its clients
and the golden playthroughs.

- card counts are ``{colour: n}`` (colours in C1's order, zero counts left out);
- sets are sorted lists, tuples are lists, enums are their value;
- a dataclass is ``{"type": ClassName, field: value, ...}``.

``to_plain`` writes any of these; ``action_from_plain`` reads an action back and refuses anything
else with an ``ActionError`` naming the field (a client's typo must never reach the rules as a
foreign exception). Whether the action is *legal* is the rules' question, not the codec's.
``view_from_plain``, ``event_from_plain`` and ``scores_from_plain`` read back what the class
server sends a seat (a ``ViewError`` names a field that cannot be read); ``public_to_plain`` is
the part of a view every seat sees alike (the teacher's board).

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
from collections.abc import Sequence
from enum import Enum
from typing import Any

from . import actions as act
from . import events as ev
from .board import Board
from .cards import CardCounts, Color
from .errors import ActionError, SaveError, ViewError, shown
from .game import PlayerView
from .rules.scoring import TeamScore, TicketResult
from .state import Phase, TunnelAttempt

#: Every action type a client may send, by the name ``to_plain`` writes.
ACTIONS: dict[str, type] = {cls.__name__: cls for cls in (
    act.KeepTickets, act.DrawCard, act.PlaceCard, act.Claim, act.PayTunnel, act.Withdraw,
    act.DrawTickets, act.ShareTickets, act.Pass)}
_CARD_FIELDS = {"hand", "cardholder", "teammate"}
_MAX_IDS = 16  # more ticket ids than any offer (T1: 5) is junk, refused before it is read
_MAX_NAME = 64  # a route or ticket id longer than this names nothing on any board


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
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"type": type(value).__name__,
                **{f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    if isinstance(value, Enum):
        return value.value
    return value


def view_to_plain(view: Any) -> dict:
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
        values[f.name] = _field(where, f.name, data[f.name])
    return cls(**values)


def _field(where: str, name: str, value: Any) -> Any:
    if name in _CARD_FIELDS:
        return _cards(where, value)
    if name in ("keep", "tickets"):
        if not isinstance(value, list) or len(value) > _MAX_IDS:
            raise ActionError(f"{where}: a list of at most {_MAX_IDS} ticket ids, "
                              f"not {shown(value)}")
        return frozenset(_name(where, v) for v in value)
    if name == "source":
        if value == "deck" or (type(value) is int and 0 <= value < 5):
            return value
        raise ActionError(f"{where}: 'deck' or a face-up slot 0-4, not {shown(value)}")
    if name == "to":
        if value in ("hand", "cardholder"):
            return value
        raise ActionError(f"{where}: 'hand' or 'cardholder', not {shown(value)}")
    return _name(where, value)  # route, share


def _name(where: str, value: Any) -> str:
    if isinstance(value, str) and 0 < len(value) <= _MAX_NAME:
        return value
    raise ActionError(f"{where}: an id of 1-{_MAX_NAME} characters, not {shown(value)}")


def _cards(where: str, value: Any) -> CardCounts:
    if not isinstance(value, dict) or len(value) > len(Color):
        raise ActionError(f"{where}: cards as {{colour: count}}, not {shown(value)}")
    counts = {}
    for colour, n in value.items():
        try:
            c = Color(colour)
        except (ValueError, TypeError):
            raise ActionError(f"{where}: {shown(colour)} is not a card colour") from None
        if type(n) is not int or not 0 <= n <= 200:
            raise ActionError(f"{where}.{c.value}: a count of 0-200 cards, not {shown(n)}")
        counts[c] = n
    return CardCounts(counts)


# --- reading back what the class server sends (its clients: RemoteSeatSession, the tests) ------
#: The fields of a ``PlayerView`` every seat sees alike: the public view (the teacher's board).
#: Anything one seat holds privately (its hand, tickets, team cardholder, offer, drawn card, what
#: it knows of others' hands) differs between seats and is left out (I1); a test checks that
#: each of these fields is the same in every seat's view at every step of whole games.
PUBLIC_FIELDS = ("players", "phase", "to_move", "face_up", "discard", "draw_pile_size",
                 "ticket_deck_size", "claimed", "trains", "hand_sizes", "ticket_counts",
                 "team_ticket_counts", "cardholder_sizes", "tunnel", "final_round")
_TUPLE_FIELDS = ("tickets", "team_tickets", "trains", "hand_sizes", "ticket_counts",
                 "team_ticket_counts", "cardholder_sizes", "ticket_offer", "dealt_tickets")
_COUNT_FIELDS = ("hand", "team_cardholder", "discard", "unseen")


def public_to_plain(view: Any) -> dict:
    """The public part of a seat's view (``PUBLIC_FIELDS``), in plain form."""
    return {name: to_plain(getattr(view, name)) for name in PUBLIC_FIELDS}


def event_from_plain(data: Any) -> ev.Event:
    """The event ``to_plain`` wrote (``{"type": "Claimed", ...}``); ``ViewError`` if it is not one."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ViewError(f"an event is an object with a 'type', not {shown(data)}")
    cls = _EVENTS.get(data["type"])
    if cls is None:
        raise ViewError(f"type: {shown(data['type'])} is not an event")
    fields = {k: v for k, v in data.items() if k != "type"}
    try:
        return ev.Event.from_dict({"kind": cls.kind, **fields})
    except SaveError as exc:  # the events module names the field; say it of a view
        raise ViewError(str(exc)) from None


def view_from_plain(data: Any, board: Board, events: Sequence[ev.Event] = ()) -> PlayerView:
    """The ``PlayerView`` that ``view_to_plain`` wrote, on ``board`` with ``events`` (both sent
    apart). ``ViewError`` names the first field that cannot be read back."""
    if not isinstance(data, dict):
        raise ViewError(f"a view is an object, not {shown(data)}")
    names = [f.name for f in dataclasses.fields(PlayerView) if f.name not in ("board", "events")]
    missing = [n for n in names if n not in data]
    if missing:
        raise ViewError(f"view.{missing[0]} is missing")
    values: dict[str, Any] = {"board": board, "events": tuple(events)}
    for name in names:
        try:
            values[name] = _view_field(name, data[name])
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise ViewError(f"view.{name}: {shown(data[name])} cannot be read ({exc})") from None
    return PlayerView(**values)


def _view_field(name: str, value: Any) -> Any:
    if name in _COUNT_FIELDS:
        return CardCounts(value)
    if name in _TUPLE_FIELDS:
        return tuple(value)
    if name == "phase":
        return Phase(value)
    if name == "face_up":
        return tuple(None if c is None else Color(c) for c in value)
    if name == "drawn_card":
        return None if value is None else Color(value)
    if name == "claimed":
        return {str(rid): int(seat) for rid, seat in value.items()}
    if name in ("known_in_hands", "known_in_cardholders"):
        return {int(k): CardCounts(v) for k, v in value.items()}
    if name == "setup_choice":
        return None if value is None else action_from_plain(value)
    if name == "tunnel":
        return None if value is None else _tunnel(value)
    return value  # seat, players, to_move, sizes, final_round: plain numbers and flags


def _tunnel(value: dict) -> TunnelAttempt:
    return TunnelAttempt(route=value["route"], seat=int(value["seat"]),
                         laid_hand=CardCounts(value["laid_hand"]),
                         laid_holder=CardCounts(value["laid_holder"]),
                         revealed=tuple(Color(c) for c in value["revealed"]),
                         color=Color(value["color"]), extra=int(value["extra"]))


def scores_from_plain(data: Any) -> list[TeamScore]:
    """The score sheets ``to_plain(game.scores())`` wrote."""
    try:
        return [TeamScore(
            team=s["team"], route_points=s["route_points"], longest_path=s["longest_path"],
            asian_express=s["asian_express"], globetrotter=s["globetrotter"], total=s["total"],
            rank=s["rank"], tickets=tuple(TicketResult(
                ticket=t["ticket"], cities=tuple(t["cities"]), points=t["points"],
                completed=t["completed"], shared=t["shared"]) for t in s["tickets"]))
            for s in data]
    except (TypeError, KeyError) as exc:
        raise ViewError(f"scores: {shown(data)} cannot be read ({exc})") from None


_EVENTS = {cls.__name__: cls for cls in ev.KINDS.values()}
