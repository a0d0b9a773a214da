"""Reading back what the class server sends a seat: its view, its events, the score sheets.

The other half of ``ttrlib.plain`` (which writes them, and reads actions): these readers build the
game's own ``PlayerView``, ``Event`` and ``TeamScore`` objects, so they sit above the game. A
``ViewError`` names the first field that cannot be read back. Used by ``RemoteSeatSession`` and the
tests of the class server.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from . import events as ev
from .board import Board
from .cards import CardCounts, Color
from .errors import SaveError, ViewError, shown
from .game import PlayerView
from .plain import action_from_plain
from .rules.scoring import TeamScore, TicketResult
from .state import Phase
from .tunnel_codec import tunnel_from_dict

_TUPLE_FIELDS = ("tickets", "team_tickets", "trains", "hand_sizes", "ticket_counts",
                 "team_ticket_counts", "cardholder_sizes", "ticket_offer", "dealt_tickets")
_COUNT_FIELDS = ("hand", "team_cardholder", "discard", "unseen")


def event_from_plain(data: Any) -> ev.Event:
    """The event ``to_plain`` wrote: ``Event.to_dict``'s ``{"kind": "claim", ...}``, the form a
    save holds; ``ViewError`` (the events module's message, naming the field) if it is not one."""
    try:
        return ev.Event.from_dict(data)
    except SaveError as exc:  # the same words, said of what the class server sent
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
            values[name] = _view_field(name, data[name], board, data["players"])
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise ViewError(f"view.{name}: {shown(data[name])} cannot be read ({exc})") from None
    return PlayerView(**values)


def _view_field(name: str, value: Any, board: Board, players: Any) -> Any:
    if name in _COUNT_FIELDS:  # the one reader of card counts, with the deck's bound (C1)
        return CardCounts.from_plain(value)
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
        return {int(k): CardCounts.from_plain(v) for k, v in value.items()}
    if name == "setup_choice":
        return None if value is None else action_from_plain(value)
    if name == "tunnel":  # the one codec of its fields, as a save holds them
        return None if value is None else tunnel_from_dict(value, board, _players(players))
    return value  # seat, players, to_move, sizes, final_round: plain numbers and flags


def _players(players: Any) -> int:
    if type(players) is not int:  # a bool or a float is no count of players
        raise ValueError(f"'players' is {shown(players)}, not a number of players")
    return players


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

