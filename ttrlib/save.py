"""Save and resume: a game as its start and its history (format 4), as a chess game is its score.

A save holds the board, the number of players, how the game began (``origin``: ``"new"``, a
deal of ``Game.new``, or ``"position"``, a position of ``Game.from_position``), that start in
full (cards, tickets, the random generator) and the steps taken since (``ttrlib.history``).
Nothing else of the state is saved: ``Game.from_json`` checks the start and replays every step
with the rules, so the state of a loaded game is what the rules made of its start, and no fact
of it (a seat to move, a route owned, a card held or known, a turn counter) can contradict its
log.

The start is written and read field by field as ``ttrlib.state`` declares the state: each saved
field under its public name (``cardholders``, ``claimed``, ...), by the codec of its kind
(``_WRITE``, ``_READ``). ``write`` builds the text and ``read`` reads it back; ``read`` refuses, with a ``SaveError`` that
names the field (``start.hands[2]``, ``history[31]``) in at most ``errors.MAX_MESSAGE``
characters:

* a text of more than ``MAX_TEXT`` (1,000,000) characters or bytes, unread: a whole 6-player
  game on the teaching board is about 35 KB (``benchmarks/bench_save.py``);
* a text that is not UTF-8 or JSON, nests deeper than ``MAX_DEPTH``, holds a number of more than
  40 digits or more than ``MAX_ITEMS`` values in all;
* a save of another format or of another ttrlib version, with a sentence (version 3 and older
  saved the state instead of the moves: they cannot be resumed);
* a board the board loader refuses (its bounds included: ``ttrlib.board``);
* a start field of the wrong type or holding more than a game can hold (110 cards, the board's
  tickets and routes), checked before anything is built from it;
* a history of more than ``MAX_HISTORY`` steps (the longest bot games take about 450), or a step
  that is no action or chance step.

Whether the start is a real deal or position, and whether each step is legal, is checked by
``Game.from_json`` (``validity.start_problem``, ``validity.check_state``, ``Game.apply``).

This module sits below ``ttrlib.game`` (it reads and writes a state and steps, never a ``Game``).

>>> from ttrlib import Game
>>> game = Game.new(players=4, seed=7)
>>> again = Game.from_json(game.to_json())
>>> again.to_json() == game.to_json()
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NamedTuple

from .actions import MOST_IDS, KeepTickets
from .board import (
    MAX_ROUTES,
    MAX_TICKETS,
    TEAM_ASIA_TUNNELS,
    Board,
    board_from_dict,
    data_problem,
)
from .cards import COLORS, CardCounts, Color, Place, standard_deck
from .errors import BoardError, SaveError, TTRError, shown
from .events import Event
from .history import Step, rng_from_state, rng_state, step_from_plain
from .seats import PLAYER_COUNTS, team_count
from .state import (
    FACE_UP,
    MAX_FACE_UP_RESETS,
    PARTS,
    TRAINS_PER_PLAYER,
    GameState,
    Phase,
    TunnelAttempt,
)
from .tunnel_codec import KEYS as TUNNEL_KEYS
from .tunnel_codec import tunnel_from_dict, tunnel_to_dict

FORMAT = "ttrlib-game"
# 2: "taken_slot" (D3 policy); 3: typed events; 4: the start and the history, not the state
VERSION = 4
ORIGINS = ("new", "position")  # Game.new's deal, Game.from_position's position
MAX_TEXT = 1_000_000  # characters (or bytes) of a save: refused unread beyond
MAX_HISTORY = 5_000  # steps: the longest seeded bot games take about 450 (6 players)
MAX_ITEMS = 200_000  # values in a save's JSON: a save at every bound holds about 60,000
MAX_DEPTH = 16  # a save nests 6 levels deep (start, tunnel, laid cards; board, positions, [x, y])
MAX_INT = 2**128  # the largest number a save holds is a PCG64 generator's 128-bit state
MOST_CARDS = len(standard_deck())  # C1: no pile holds more
MOST_START_EVENTS = MAX_FACE_UP_RESETS + 1  # a deal logs its C5 resets and the setup (C4, T1)
_TOP = ("format", "version", "board", "players", "origin", "start", "history")
#: the saved fields of a state (``ttrlib.state.PARTS``: the board and the player count are
#: top-level fields), in a save's start under their public names
_SAVED = tuple((attr, p) for attr, p in PARTS if p.saved)
_START = tuple(p.name for _, p in _SAVED)
#: start fields written only when they differ from the value every earlier save meant (C3's 27
#: trains): a standard game's save stays what format 4 always was, byte for byte, and a save
#: written before the short-game policy reads as a 27-train game
_UNLESS = {"trains_per_player": TRAINS_PER_PLAYER}


class Saved(NamedTuple):
    """A save as read: how the game began, its start, and the steps since (not yet replayed)."""

    origin: str
    start: GameState
    history: list[Step]


# ------------------------------------------------------------------------------------------------
# writing
# ------------------------------------------------------------------------------------------------
def board_to_dict(board: Board) -> dict[str, Any]:
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


def _same(v: Any) -> Any:
    return v


#: kind (``ttrlib.state.KINDS``) -> its value as JSON-ready data
_WRITE: dict[str, Callable[[Any], Any]] = {
    "rng": rng_state,
    "colours": lambda v: [c.value for c in v],
    "slots": lambda v: [None if c is None else c.value for c in v],
    "counts": lambda v: [_cards(c) for c in v],
    "trains": list,
    "claims": dict,
    "ids": list,
    "id_lists": lambda v: [list(x) for x in v],
    "choices": lambda v: {str(seat): {"keep": sorted(c.keep), "share": c.share}
                          for seat, c in sorted(v.items())},
    "phase": lambda v: v.value,
    "seat": _same, "count": _same, "slot?": _same,
    "place?": lambda v: None if v is None else v.value, "turns_left?": _same,
    "colour?": lambda v: None if v is None else v.value,
    "tunnel?": lambda v: None if v is None else tunnel_to_dict(v),
    "events": lambda v: [e.to_dict() for e in v],
}


def start_to_dict(s: GameState) -> dict[str, Any]:
    """Every saved field of a state (all but its board and player count), as JSON-ready data
    under its public name (``ttrlib.state.PARTS``)."""
    return {p.name: _WRITE[p.kind](getattr(s, attr)) for attr, p in _SAVED
            if p.name not in _UNLESS or getattr(s, attr) != _UNLESS[p.name]}


def state_data(s: GameState) -> dict[str, Any]:
    """Every fact of a state as JSON-ready data, board and player count included (what a save
    of format 3 held): for tools and tests that read a position whole. It is no save: a save
    is a start and a history (``write``)."""
    return {"board": board_to_dict(s.board), "players": s.players, **start_to_dict(s)}


def write(origin: str, start: GameState, history: list[dict[str, Any]], indent: int | None = None) -> str:
    """The save of a game that began with ``start`` (by ``origin``) and took the steps
    ``history`` (in plain form, ``history.step_to_plain``). ``SaveError`` if ``read`` would
    refuse it for its size: a save is never written that cannot be read back."""
    if len(history) > MAX_HISTORY:
        raise SaveError(f"cannot save this game: it has taken {len(history)} steps, and a save "
                        f"holds at most {MAX_HISTORY}")
    text = json.dumps({"format": FORMAT, "version": VERSION, "board": board_to_dict(start.board),
                       "players": start.players, "origin": origin, "start": start_to_dict(start),
                       "history": history}, indent=indent, sort_keys=True)
    if len(text) > MAX_TEXT:
        raise SaveError(f"cannot save this game: its save would take {len(text)} characters, and "
                        f"a save holds at most {MAX_TEXT}")
    return text


# ------------------------------------------------------------------------------------------------
# reading back
# ------------------------------------------------------------------------------------------------
def _err(field: str, message: str) -> SaveError:
    return SaveError(f"saved game: field {field!r}: {message}")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class _Oversized:
    """A JSON number too long to be a number of a save; ``data_problem`` reports where it is."""

    def __init__(self, digits: int):
        self.digits = digits

    def __repr__(self) -> str:
        return f"a number of {self.digits} digits"


def _parse_int(text: str) -> int | _Oversized:
    # Python refuses to convert more than 4300 digits (a ValueError that is no JSON error).
    return int(text) if len(text) <= 40 else _Oversized(len(text))


def read(text: Any) -> Saved:
    """The start and the steps of a save ``write`` wrote, every field read and type-checked;
    ``SaveError`` names whatever is wrong (see the module's docstring)."""
    if isinstance(text, (bytes, bytearray, str)) and len(text) > MAX_TEXT:
        raise SaveError(f"saved game: the text is longer than {MAX_TEXT} characters, the most a "
                        "save holds; it was not read")
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
    return from_data(data)


def from_data(data: Any) -> Saved:
    """``read`` of the parsed JSON data of a save."""
    if not isinstance(data, dict):
        raise SaveError("saved game: the top level must be a JSON object")
    if data.get("format") != FORMAT:
        raise _err("format", f"must be {FORMAT!r}, not {shown(data.get('format'))}")
    _check_version(data.get("version"))
    unknown = sorted(set(data) - set(_TOP))
    if unknown:
        raise SaveError(f"saved game: {shown(unknown[0])} is not a field of a saved game")
    for field in _TOP:
        if field not in data:
            raise _err(field, "is missing")
    history = data["history"]
    if not isinstance(history, list):
        raise _err("history", "must be a list of steps")
    if len(history) > MAX_HISTORY:  # the sizes first: before anything is walked or built
        raise _err("history", f"holds {len(history)} steps; a save holds at most {MAX_HISTORY}")
    _check_start_sizes(data["start"])
    if not isinstance(data["board"], dict):
        raise _err("board", f"must be a board table, not {shown(data['board'])}")
    try:  # the board loader checks its own sizes before it walks the board
        board = board_from_dict(data["board"], source="saved game board")
    except BoardError as exc:
        raise _err("board", str(exc)) from None
    problem = data_problem(data, max_depth=MAX_DEPTH, max_int=MAX_INT, max_items=MAX_ITEMS)
    if problem:
        raise _err(*problem)
    players = data["players"]
    if not (_is_int(players) and players in PLAYER_COUNTS):
        raise _err("players", f"must be 4 or 6, not {shown(players)}")
    if data["origin"] not in ORIGINS:
        raise _err("origin", f"must be one of {list(ORIGINS)}, not {shown(data['origin'])}")
    start = _start(data["start"], board, players)
    steps = []
    for i, plain in enumerate(history):
        try:
            steps.append(step_from_plain(plain))
        except TTRError as exc:
            raise _err(f"history[{i}]", str(exc)) from None
    return Saved(data["origin"], start, steps)


def _check_version(version: Any) -> None:
    if version == VERSION and _is_int(version):
        return
    if _is_int(version) and 0 < version < VERSION:
        raise _err("version", f"this game was saved by an older ttrlib (format {version}), which "
                   "saved the state of a game instead of its moves; it cannot be resumed: please "
                   "start a new game")
    if _is_int(version) and version > VERSION:
        raise _err("version", f"this game was saved by a newer ttrlib (format {shown(version)}); "
                   f"this one reads format {VERSION}: please update ttrlib")
    raise _err("version", f"must be {VERSION}, not {shown(version)}")


# --- the start, field by field ------------------------------------------------------------------
#: kind -> the most entries a value of it may hold (whatever the board: the board's own bounds);
#: a field with one entry per seat or team holds at most one per seat of the largest game
_MOST_ENTRIES = {"colours": MOST_CARDS, "ids": MAX_TICKETS, "claims": MAX_ROUTES,
                 "events": MOST_START_EVENTS, "choices": max(PLAYER_COUNTS)}
_START_SIZES = {p.name: max(PLAYER_COUNTS) if p.per else _MOST_ENTRIES[p.kind]
                for _, p in _SAVED if p.per or p.kind in _MOST_ENTRIES}
_TICKET_LISTS = tuple(p.name for _, p in _SAVED if p.kind == "id_lists")


def _check_start_sizes(start: Any) -> None:
    """The start's lists and tables are no longer than a game's, checked before anything of the
    save is walked (their entries are read field by field later)."""
    if not isinstance(start, dict):
        raise _err("start", "must be a table of the start's fields")
    for field, most in _START_SIZES.items():
        value = start.get(field)
        if isinstance(value, (list, dict)) and len(value) > most:
            raise _err(_where(field), f"holds {len(value)} entries; a game holds at most {most}")
        if field in _TICKET_LISTS and isinstance(value, list):
            for i, ids in enumerate(value):
                if isinstance(ids, list) and len(ids) > MAX_TICKETS:
                    raise _err(_where(f"{field}[{i}]"), f"holds {len(ids)} tickets; a board holds "
                               f"at most {MAX_TICKETS}")


def _where(field: str) -> str:
    return f"start.{field}"


def _need(value: Any, field: str, ok: bool, what: str) -> Any:
    if not ok:
        raise _err(_where(field), f"must be {what}, not {shown(value)}")
    return value


def _color(field: str, v: Any) -> Color:
    if not isinstance(v, str) or v not in _COLOR_VALUES:
        raise _err(_where(field), f"{shown(v)} is not a card colour")
    return Color(v)


def _color_or_none(field: str, v: Any) -> Color | None:
    return None if v is None else _color(field, v)


_COLOR_VALUES = {c.value for c in COLORS}


def _counts(field: str, v: Any) -> CardCounts:
    try:
        return CardCounts.from_plain(v)
    except ValueError as exc:
        raise _err(_where(field), f"must be {exc}") from None


def _ids(v: Any, most: int) -> bool:
    return isinstance(v, list) and len(v) <= most and all(isinstance(t, str) for t in v)


class _Game(NamedTuple):
    """What a field of the start is read against: the board, the players, and the entries of a
    field with one per seat or team."""

    board: Board
    players: int
    entries: int


def _read_rng(v: Any, field: str, g: _Game) -> Any:
    try:
        return rng_from_state(v)
    except ValueError as exc:
        raise _err(_where(field), f"must be {exc}") from None


def _read_colours(v: Any, field: str, g: _Game) -> list[Color]:
    _need(v, field, isinstance(v, list) and len(v) <= MOST_CARDS,
          f"a list of at most {MOST_CARDS} card colours")
    return [_color(field, c) for c in v]


def _read_slots(v: Any, field: str, g: _Game) -> list[Color | None]:
    _need(v, field, isinstance(v, list) and len(v) == FACE_UP, f"a list of {FACE_UP} slots")
    return [_color_or_none(field, c) for c in v]


def _read_counts(v: Any, field: str, g: _Game) -> list[CardCounts]:
    _need(v, field, isinstance(v, list) and len(v) == g.entries, f"a list of {g.entries} card counts")
    return [_counts(f"{field}[{i}]", c) for i, c in enumerate(v)]


def _read_trains(v: Any, field: str, g: _Game) -> list[int]:
    ok = isinstance(v, list) and len(v) == g.entries and all(
        _is_int(x) and 0 <= x <= TRAINS_PER_PLAYER for x in v)
    return list(_need(v, field, ok, f"a list of {g.entries} train counts 0-{TRAINS_PER_PLAYER}"))


def _read_claims(v: Any, field: str, g: _Game) -> dict[str, int]:
    _need(v, field, isinstance(v, dict) and len(v) <= len(g.board.routes), "a route -> seat table")
    for rid, seat in v.items():
        if not g.board.has_route(rid):
            raise _err(_where(field), f"{shown(rid)} is not a route of the board")
        if not (_is_int(seat) and 0 <= seat < g.players):
            raise _err(_where(field), f"{shown(rid)} is owned by {shown(seat)}, not a seat")
    return dict(v)


def _read_ids(v: Any, field: str, g: _Game) -> list[str]:
    most = len(g.board.tickets)
    return list(_need(v, field, _ids(v, most), f"a list of at most {most} ticket ids"))


def _read_id_lists(v: Any, field: str, g: _Game) -> list[list[str]]:
    most = len(g.board.tickets)
    ok = isinstance(v, list) and len(v) == g.entries and all(_ids(x, most) for x in v)
    _need(v, field, ok, f"a list of {g.entries} lists of at most {most} ticket ids")
    return [list(x) for x in v]


_PHASES = [p.value for p in Phase]


def _read_phase(v: Any, field: str, g: _Game) -> Phase:
    return Phase(_need(v, field, isinstance(v, str) and v in _PHASES, f"one of {_PHASES}"))


def _read_seat(v: Any, field: str, g: _Game) -> int:
    value: int = _need(v, field, _is_int(v) and 0 <= v < g.players, f"a seat 0-{g.players - 1}")
    return value


def _read_count(v: Any, field: str, g: _Game) -> int:
    value: int = _need(v, field, _is_int(v) and v >= 0, "a count")
    return value


def _read_slot(v: Any, field: str, g: _Game) -> int | None:
    value: int | None = _need(v, field, v is None or (_is_int(v) and 0 <= v < FACE_UP),
                              f"null or a face-up slot 0-{FACE_UP - 1}")
    return value


def _read_place(v: Any, field: str, g: _Game) -> Place | None:
    place = Place.read(v)
    _need(v, field, v is None or place is not None, "null, 'hand' or 'cardholder'")
    return place


def _read_turns_left(v: Any, field: str, g: _Game) -> int | None:
    value: int | None = _need(v, field, v is None or (_is_int(v) and 0 <= v <= g.players),
                              f"null or 0-{g.players}")
    return value


def _read_events(v: Any, field: str, g: _Game) -> list[Event]:
    _need(v, field, isinstance(v, list) and len(v) <= MOST_START_EVENTS,
          f"a list of at most {MOST_START_EVENTS} events")
    return _events(v)


def _read_tunnel(v: Any, field: str, g: _Game) -> TunnelAttempt | None:
    """The pending tunnel attempt, by the one codec of its fields (``ttrlib.tunnel_codec``);
    ``check_state`` checks it fits the game (U1-U7)."""
    keys = sorted(TUNNEL_KEYS.values())
    _need(v, field, v is None or (isinstance(v, dict) and set(v) == set(keys)),
          f"null or a table with {keys}")
    try:
        return None if v is None else tunnel_from_dict(v, g.board, g.players)
    except ValueError as exc:  # the codec's phrase names the attempt's field
        raise _err(_where(field), str(exc)) from None


#: kind (``ttrlib.state.KINDS``) -> reads a field of that kind (``_start``)
_READ: dict[str, Callable[[Any, str, _Game], Any]] = {
    "rng": _read_rng, "colours": _read_colours, "slots": _read_slots, "counts": _read_counts,
    "trains": _read_trains, "claims": _read_claims, "ids": _read_ids, "id_lists": _read_id_lists,
    "choices": lambda v, field, g: _setup_choices(v, g.players), "phase": _read_phase,
    "seat": _read_seat, "count": _read_count, "slot?": _read_slot, "place?": _read_place,
    "turns_left?": _read_turns_left, "events": _read_events, "tunnel?": _read_tunnel,
    "colour?": lambda v, field, g: _color_or_none(field, v),
}


def _start(data: Any, board: Board, players: int) -> GameState:
    """The start of a save, every saved field (``ttrlib.state.PARTS``) read and type-checked
    (``SaveError`` names a field ``start.<field>``); whether it is a real deal or position is
    ``Game.from_json``'s check."""
    if not isinstance(data, dict):
        raise _err("start", "must be a table of the start's fields")
    unknown = sorted(str(k) for k in set(data) - set(_START))
    if unknown:
        raise _err("start", f"{shown(unknown[0])} is not a field of a game's start")
    entries = {None: 0, "players": players, "teams": team_count(players)}
    values: dict[str, Any] = {"board": board, "players": players}
    for attr, p in _SAVED:
        if p.name not in data and p.name in _UNLESS:
            values[attr] = _UNLESS[p.name]
            continue
        if p.name not in data:
            raise _err(_where(p.name), "is missing")
        values[attr] = _READ[p.kind](data[p.name], p.name, _Game(board, players, entries[p.per]))
    return GameState(**values)


def _events(values: list[Any]) -> list[Event]:
    """The log of a start, event by event (``Event.from_dict`` names a bad field)."""
    events = []
    for i, table in enumerate(values):
        try:
            events.append(Event.from_dict(table))
        except SaveError as exc:
            raise _err(_where("events"), f"event {i}: {exc}") from None
    return events


def _setup_choices(choices: Any, players: int) -> dict[int, KeepTickets]:
    """T1: the hidden choices of seats whose teammate has not chosen yet, by seat."""
    _need(choices, "setup_choices", isinstance(choices, dict) and len(choices) <= players,
          "a seat -> choice table")
    seats = {str(s): s for s in range(players)}  # "0", "1", ...: no other spelling of a seat
    out = {}
    for key, c in choices.items():
        if not (key in seats and isinstance(c, dict) and set(c) == {"keep", "share"}
                and _ids(c["keep"], MOST_IDS) and isinstance(c["share"], str)):
            raise _err(_where("setup_choices"), f"entry {shown(key)} is not a seat's keep/share "
                       "choice of ticket ids")
        out[seats[key]] = KeepTickets(c["keep"], c["share"])
    return out
