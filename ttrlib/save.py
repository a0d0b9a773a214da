"""Save and resume: a game's state as JSON, checked field by field when it is read back.

``to_json(game)`` writes every part of the state: the board itself, pending decisions and the
random generator, so a resumed game continues exactly as the original would.
``state_from_json(text)`` reads it back into a ``GameState`` or raises a ``SaveError`` that names
the field that is wrong (in a message of at most ``errors.MAX_MESSAGE`` characters): first the
text (UTF-8, JSON, nesting, number sizes), then every field's type. ``Game.from_json`` then
checks the whole state with ``validity.check_state``, the check every position of the rules
passes (card totals, trains, K3, tickets, offers, pending decisions, C5, E1, events, a legal
action to go on), so no half-built or broken game is ever returned.

This module sits below ``ttrlib.game`` (it reads and writes a state, never a ``Game``).

>>> from ttrlib import Game
>>> game = Game.new(players=4, seed=7)
>>> again = Game.from_json(to_json(game))
>>> to_json(again) == to_json(game)
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np

from .actions import KeepTickets
from .board import TEAM_ASIA_TUNNELS, Board, board_from_dict, data_problem
from .cards import CardCounts, Color
from .errors import BoardError, SaveError, shown
from .events import Event
from .seats import PLAYER_COUNTS
from .state import FACE_UP, TRAINS_PER_PLAYER, GameState, Phase, TunnelAttempt

FORMAT = "ttrlib-game"
VERSION = 3  # 2: "taken_slot" (D3 policy); 3: typed events (kind and fields, no English text)


def board_to_dict(board: Board) -> dict:
    data: dict[str, Any] = {"name": board.name, "cities": list(board.cities)}
    if board.open_groups:
        data["open_groups"] = sorted(board.open_groups)
    if board.tunnel_reveals != TEAM_ASIA_TUNNELS:
        data["tunnel_reveals"] = list(board.tunnel_reveals)
    if board.positions:
        data["positions"] = {c: list(xy) for c, xy in board.positions.items()}
    data["routes"] = []
    for r in board.routes:
        entry = {"id": r.id, "a": r.a, "b": r.b, "length": r.length,
                 "color": "gray" if r.color is None else r.color.value}
        if r.tunnel:
            entry["tunnel"] = r.tunnel
        if r.group:
            entry["group"] = r.group
        data["routes"].append(entry)
    data["tickets"] = [{"id": t.id, "a": t.a, "b": t.b, "points": t.points} for t in board.tickets]
    return data


def _cards(c: CardCounts) -> dict[str, int]:
    return c.to_dict()


def to_dict(game: Any) -> dict:
    """The state of ``game`` (a ``Game`` or a ``GameState``) as JSON-ready data."""
    t = game.tunnel
    return {
        "format": FORMAT,
        "version": VERSION,
        "board": board_to_dict(game.board),
        "players": game.players,
        "rng": game.rng.bit_generator.state,
        "phase": game.phase.value,
        "to_move": game.to_move,
        "turns": game.turns,
        "draw_pile": [c.value for c in game.draw_pile],
        "discard": [c.value for c in game.discard],
        "face_up": [None if c is None else c.value for c in game.face_up],
        "hands": [_cards(h) for h in game.hands],
        "cardholders": [_cards(h) for h in game.holders],
        "known_in_hands": [_cards(h) for h in game.known_hand],
        "known_in_cardholders": [_cards(h) for h in game.known_holder],
        "trains": list(game.trains),
        "claimed": dict(game.owners),
        "ticket_deck": list(game.ticket_deck),
        "tickets": [list(t_) for t_ in game.tickets],
        "team_tickets": [list(t_) for t_ in game.team_tickets],
        "offers": [list(o) for o in game.offers],
        "setup_choices": {str(s): {"keep": sorted(c.keep), "share": c.share}
                          for s, c in sorted(game.setup_choices.items())},
        "drawn": None if game.drawn is None else game.drawn.value,
        "taken_slot": game.taken_slot,
        "first_to": game.first_to,
        "tunnel": None if t is None else {
            "route": t.route, "seat": t.seat, "laid_hand": _cards(t.laid_hand),
            "laid_cardholder": _cards(t.laid_holder), "revealed": [c.value for c in t.revealed],
            "color": t.color.value, "extra": t.extra,
        },
        "final_turns_left": game.final_turns_left,
        "passes_in_a_row": game.passes_in_a_row,
        "events": events_to_json(game.events),
    }


def events_to_json(events: list[Event]) -> list:
    """The event log as JSON data (``events_from_json`` reads it back)."""
    return [e.to_dict() for e in events]


def events_from_json(value: Any) -> list[Event]:
    """The event log of a save, event by event (``Event.from_dict`` names a bad field)."""
    if not isinstance(value, list):
        raise _err("events", "must be a list of events")
    events = []
    for i, table in enumerate(value):
        try:
            events.append(Event.from_dict(table))
        except SaveError as exc:
            raise _err("events", f"event {i}: {exc}") from None
    return events


def to_json(game: Any, indent: int | None = None) -> str:
    """The whole game as a JSON text (see ``from_json``)."""
    return json.dumps(to_dict(game), indent=indent, sort_keys=True)


# ------------------------------------------------------------------------------------------------
# reading back
# ------------------------------------------------------------------------------------------------
_FIELDS = {
    "format", "version", "board", "players", "rng", "phase", "to_move", "turns", "draw_pile",
    "discard", "face_up", "hands", "cardholders", "known_in_hands", "known_in_cardholders",
    "trains", "claimed", "ticket_deck", "tickets", "team_tickets", "offers", "setup_choices",
    "drawn", "taken_slot", "first_to", "tunnel", "final_turns_left", "passes_in_a_row", "events",
}
MAX_DEPTH = 16  # a save nests 6 levels deep (board, positions, a city, [x, y]; events)
MAX_INT = 2**128  # the largest number a save holds is a PCG64 generator's 128-bit state
_BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")


def _err(field: str, message: str) -> SaveError:
    return SaveError(f"saved game: field {field!r}: {message}")


def _need(data: dict, field: str, check: Callable[[Any], bool], what: str) -> Any:
    if field not in data:
        raise _err(field, "is missing")
    value = data[field]
    if not check(value):
        raise _err(field, f"must be {what}, not {shown(value)}")
    return value


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _color(field: str, v: Any, *, allow_none: bool = False) -> Color | None:
    if v is None and allow_none:
        return None
    if not isinstance(v, str):
        raise _err(field, f"{shown(v)} is not a card colour")
    try:
        return Color(v)
    except ValueError:
        raise _err(field, f"{shown(v)} is not a card colour") from None


def _color_list(data: dict, field: str) -> list[Color]:
    values = _need(data, field, lambda v: isinstance(v, list), "a list of card colours")
    return [_color(field, v) for v in values]


def _counts(field: str, v: Any) -> CardCounts:
    if not isinstance(v, dict):
        raise _err(field, f"must map colours to counts, not {shown(v)}")
    for k, n in v.items():
        _color(field, k)
        if not _is_int(n) or n < 0:
            raise _err(field, f"count of {shown(k)} must be a whole number >= 0, not {shown(n)}")
    return CardCounts(v)


def _counts_list(data: dict, field: str, length: int) -> list[CardCounts]:
    values = _need(data, field, lambda v: isinstance(v, list) and len(v) == length,
                   f"a list of {length} card counts")
    return [_counts(f"{field}[{i}]", v) for i, v in enumerate(values)]


def _ids(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(t, str) for t in v)


def _id_lists(data: dict, field: str, length: int) -> list[list[str]]:
    values = _need(data, field, lambda v: isinstance(v, list) and len(v) == length
                   and all(_ids(x) for x in v), f"a list of {length} lists of ticket ids")
    return [list(x) for x in values]


class _Oversized:
    """A JSON number too long to be a number of a save; ``data_problem`` reports where it is."""

    def __init__(self, digits: int):
        self.digits = digits

    def __repr__(self) -> str:
        return f"a number of {self.digits} digits"


def _parse_int(text: str) -> int | _Oversized:
    # Python refuses to convert more than 4300 digits (a ValueError that is no JSON error).
    return int(text) if len(text) <= 40 else _Oversized(len(text))


def state_from_json(text: str | bytes) -> GameState:
    """The state saved by ``to_json``, every field read and type-checked; ``SaveError`` names
    whatever is wrong. (``Game.from_json`` wraps it and checks the whole state.)"""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SaveError(f"saved game: the text is not UTF-8 ({exc.reason} at byte "
                            f"{exc.start})") from None
    if not isinstance(text, str):
        raise SaveError(f"saved game: a save is a JSON text, not {shown(text)}")
    try:
        data = json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        raise SaveError(f"saved game: the text is not valid JSON ({shown(str(exc))})") from None
    except RecursionError:
        raise SaveError(f"saved game: the text is not valid JSON for a save: it nests deeper "
                        f"than {MAX_DEPTH} levels") from None
    return state_from_dict(data)


def state_from_dict(data: Any) -> GameState:
    """The state from the parsed JSON data of a save (see ``state_from_json``)."""
    if not isinstance(data, dict):
        raise SaveError("saved game: the top level must be a JSON object")
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise SaveError(f"saved game: {shown(unknown[0])} is not a field of a saved game")
    problem = data_problem(data, max_depth=MAX_DEPTH, max_int=MAX_INT)
    if problem:
        raise _err(*problem)
    if data.get("format") != FORMAT:
        raise _err("format", f"must be {FORMAT!r}")
    if data.get("version") != VERSION:
        raise _err("version", f"version {shown(data.get('version'))} is not supported "
                   f"(expected {VERSION})")
    try:
        board = board_from_dict(_need(data, "board", lambda v: isinstance(v, dict), "a board table"),
                                source="saved game board")
    except BoardError as exc:
        raise _err("board", str(exc)) from None
    players = _need(data, "players", lambda v: _is_int(v) and v in PLAYER_COUNTS, "4 or 6")
    teams = players // 2
    game = GameState.empty(board, players, _rng(data))
    phases = [p.value for p in Phase]
    game.phase = Phase(_need(data, "phase", lambda v: isinstance(v, str) and v in phases,
                             f"one of {phases}"))
    game.to_move = _need(data, "to_move", lambda v: _is_int(v) and 0 <= v < players,
                         f"a seat 0-{players - 1}")
    game.turns = _need(data, "turns", lambda v: _is_int(v) and v >= 0, "a count")
    game.draw_pile = _color_list(data, "draw_pile")
    game.discard = _color_list(data, "discard")
    row = _need(data, "face_up", lambda v: isinstance(v, list) and len(v) == FACE_UP,
                f"a list of {FACE_UP} slots")
    game.face_up = [_color("face_up", c, allow_none=True) for c in row]
    game.hands = _counts_list(data, "hands", players)
    game.holders = _counts_list(data, "cardholders", teams)
    game.known_hand = _counts_list(data, "known_in_hands", players)
    game.known_holder = _counts_list(data, "known_in_cardholders", teams)
    game.trains = _need(data, "trains", lambda v: isinstance(v, list) and len(v) == players
                        and all(_is_int(x) and 0 <= x <= TRAINS_PER_PLAYER for x in v),
                        f"a list of {players} train counts 0-{TRAINS_PER_PLAYER}")
    claimed = _need(data, "claimed", lambda v: isinstance(v, dict), "a route -> seat table")
    for rid, seat in claimed.items():
        if not board.has_route(rid):
            raise _err("claimed", f"{shown(rid)} is not a route of the board")
        if not (_is_int(seat) and 0 <= seat < players):
            raise _err("claimed", f"{shown(rid)} is owned by {shown(seat)}, not a seat")
    game.owners = dict(claimed)
    game.ticket_deck = list(_need(data, "ticket_deck", _ids, "a list of ticket ids"))
    game.tickets = _id_lists(data, "tickets", players)
    game.team_tickets = _id_lists(data, "team_tickets", teams)
    game.offers = _id_lists(data, "offers", players)
    game.setup_choices = _setup_choices(data, players)
    game.drawn = _color("drawn", _need(data, "drawn", lambda v: True, "null or a colour"),
                        allow_none=True)
    game.taken_slot = _need(data, "taken_slot", lambda v: v is None or (_is_int(v) and 0 <= v < FACE_UP),
                            f"null or a face-up slot 0-{FACE_UP - 1}")
    game.first_to = _need(data, "first_to", lambda v: v in (None, "hand", "cardholder"),
                          "null, 'hand' or 'cardholder'")
    game.final_turns_left = _need(data, "final_turns_left",
                                  lambda v: v is None or (_is_int(v) and 0 <= v <= players),
                                  f"null or 0-{players}")
    game.passes_in_a_row = _need(data, "passes_in_a_row", lambda v: _is_int(v) and v >= 0, "a count")
    game.events = events_from_json(_need(data, "events", lambda v: True, "a list of events"))
    keys = {"route", "seat", "laid_hand", "laid_cardholder", "revealed", "color", "extra"}
    t = _need(data, "tunnel", lambda v: v is None or (isinstance(v, dict) and set(v) == keys),
              f"null or a table with {sorted(keys)}")
    if t is not None:
        game.tunnel = _tunnel(board, players, t)
    return game


def _rng(data: dict) -> np.random.Generator:
    state = _need(data, "rng", lambda v: isinstance(v, dict) and v.get("bit_generator")
                  in _BIT_GENERATORS, f"a random generator state of {', '.join(_BIT_GENERATORS)}")
    try:
        rng = np.random.Generator(getattr(np.random, state["bit_generator"])())
        rng.bit_generator.state = state
    except Exception:  # numpy raises several kinds here; any of them means a bad state
        raise _err("rng", "is not a valid numpy bit generator state") from None
    return rng


def _setup_choices(data: dict, players: int) -> dict[int, KeepTickets]:
    """T1: the hidden choices of seats whose teammate has not chosen yet, by seat."""
    choices = _need(data, "setup_choices", lambda v: isinstance(v, dict), "a seat -> choice table")
    seats = {str(s): s for s in range(players)}  # "0", "1", ...: no other spelling of a seat
    out = {}
    for key, c in choices.items():
        if not (key in seats and isinstance(c, dict) and set(c) == {"keep", "share"}
                and _ids(c["keep"]) and isinstance(c["share"], str)):
            raise _err("setup_choices", f"entry {shown(key)} is not a seat's keep/share choice "
                       "of ticket ids")
        out[seats[key]] = KeepTickets(c["keep"], c["share"])
    return out


def _tunnel(board: Board, players: int, t: dict) -> TunnelAttempt:
    """The pending tunnel attempt, read field by field (``check_state`` checks it fits, U1-U7)."""
    if not isinstance(t["route"], str) or not board.has_route(t["route"]) \
            or not board.route(t["route"]).is_tunnel:
        raise _err("tunnel", f"{shown(t['route'])} is not a tunnel of the board")
    if not (_is_int(t["seat"]) and 0 <= t["seat"] < players):
        raise _err("tunnel", "its seat is not a seat")
    if not isinstance(t["revealed"], list):
        raise _err("tunnel", "'revealed' must be a list of colours")
    revealed = tuple(_color("tunnel", c) for c in t["revealed"])
    hand, holder = _counts("tunnel", t["laid_hand"]), _counts("tunnel", t["laid_cardholder"])
    color = _color("tunnel", t["color"])
    if not _is_int(t["extra"]):
        raise _err("tunnel", f"'extra' must be a whole number, not {shown(t['extra'])}")
    return TunnelAttempt(t["route"], t["seat"], hand, holder, revealed, color, t["extra"])
