"""Save and resume: a game as its start and its history (format 4), as a chess game is its score.

A save holds the board, the number of players, how the game began (``origin``: ``"new"``, a
deal of ``Game.new``, or ``"position"``, a position of ``Game.from_position``), that start in
full (cards, tickets, the random generator) and the steps taken since (``ttrlib.history``).
Nothing else of the state is saved: ``Game.from_json`` checks the start and replays every step
with the rules, so the state of a loaded game is what the rules made of its start, and no fact
of it (a seat to move, a route owned, a card held or known, a turn counter) can contradict its
log.

``write`` builds the text and ``read`` reads it back; ``read`` refuses, with a ``SaveError`` that
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
    MAX_TUNNEL,
    TEAM_ASIA_TUNNELS,
    Board,
    board_from_dict,
    data_problem,
)
from .cards import COLORS, CardCounts, Color, standard_deck
from .errors import BoardError, SaveError, TTRError, shown
from .events import Event
from .history import Step, rng_from_state, rng_state, step_from_plain
from .seats import PLAYER_COUNTS
from .state import FACE_UP, MAX_FACE_UP_RESETS, TRAINS_PER_PLAYER, GameState, Phase, TunnelAttempt

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
_START = (
    "rng", "phase", "to_move", "turns", "draw_pile", "discard", "face_up", "hands", "cardholders",
    "known_in_hands", "known_in_cardholders", "trains", "claimed", "ticket_deck", "tickets",
    "team_tickets", "offers", "setup_choices", "drawn", "taken_slot", "first_to", "tunnel",
    "final_turns_left", "passes_in_a_row", "events",
)


class Saved(NamedTuple):
    """A save as read: how the game began, its start, and the steps since (not yet replayed)."""

    origin: str
    start: GameState
    history: list[Step]


# ------------------------------------------------------------------------------------------------
# writing
# ------------------------------------------------------------------------------------------------
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


def start_to_dict(s: GameState) -> dict:
    """Every field of a state but its board and player count, as JSON-ready data."""
    t = s.tunnel
    return {
        "rng": rng_state(s.rng),
        "phase": s.phase.value,
        "to_move": s.to_move,
        "turns": s.turns,
        "draw_pile": [c.value for c in s.draw_pile],
        "discard": [c.value for c in s.discard],
        "face_up": [None if c is None else c.value for c in s.face_up],
        "hands": [_cards(h) for h in s.hands],
        "cardholders": [_cards(h) for h in s.holders],
        "known_in_hands": [_cards(h) for h in s.known_hand],
        "known_in_cardholders": [_cards(h) for h in s.known_holder],
        "trains": list(s.trains),
        "claimed": dict(s.owners),
        "ticket_deck": list(s.ticket_deck),
        "tickets": [list(t_) for t_ in s.tickets],
        "team_tickets": [list(t_) for t_ in s.team_tickets],
        "offers": [list(o) for o in s.offers],
        "setup_choices": {str(seat): {"keep": sorted(c.keep), "share": c.share}
                          for seat, c in sorted(s.setup_choices.items())},
        "drawn": None if s.drawn is None else s.drawn.value,
        "taken_slot": s.taken_slot,
        "first_to": s.first_to,
        "tunnel": None if t is None else {
            "route": t.route, "seat": t.seat, "laid_hand": _cards(t.laid_hand),
            "laid_cardholder": _cards(t.laid_holder), "revealed": [c.value for c in t.revealed],
            "color": t.color.value, "extra": t.extra,
        },
        "final_turns_left": s.final_turns_left,
        "passes_in_a_row": s.passes_in_a_row,
        "events": [e.to_dict() for e in s.events],
    }


def state_data(s: GameState) -> dict:
    """Every fact of a state as JSON-ready data, board and player count included (what a save
    of format 3 held): for tools and tests that read a position whole. It is no save: a save
    is a start and a history (``write``)."""
    return {"board": board_to_dict(s.board), "players": s.players, **start_to_dict(s)}


def write(origin: str, start: GameState, history: list[dict], indent: int | None = None) -> str:
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
#: start field -> the most entries it may hold (whatever the board: the board's own bounds)
_START_SIZES = {"draw_pile": MOST_CARDS, "discard": MOST_CARDS, "ticket_deck": MAX_TICKETS,
                "claimed": MAX_ROUTES, "events": MOST_START_EVENTS, "setup_choices": 6,
                **{f: 6 for f in ("hands", "cardholders", "known_in_hands", "known_in_cardholders",
                                  "trains", "tickets", "team_tickets", "offers")}}


def _check_start_sizes(start: Any) -> None:
    """The start's lists and tables are no longer than a game's, checked before anything of the
    save is walked (their entries are read field by field later)."""
    if not isinstance(start, dict):
        raise _err("start", "must be a table of the start's fields")
    for field, most in _START_SIZES.items():
        value = start.get(field)
        if isinstance(value, (list, dict)) and len(value) > most:
            raise _err(_where(field), f"holds {len(value)} entries; a game holds at most {most}")
        if field in ("tickets", "team_tickets", "offers") and isinstance(value, list):
            for i, ids in enumerate(value):
                if isinstance(ids, list) and len(ids) > MAX_TICKETS:
                    raise _err(_where(f"{field}[{i}]"), f"holds {len(ids)} tickets; a board holds "
                               f"at most {MAX_TICKETS}")


def _where(field: str) -> str:
    return f"start.{field}"


def _need(data: dict, field: str, check: Callable[[Any], bool], what: str) -> Any:
    if field not in data:
        raise _err(_where(field), "is missing")
    value = data[field]
    if not check(value):
        raise _err(_where(field), f"must be {what}, not {shown(value)}")
    return value


def _color(field: str, v: Any, *, allow_none: bool = False) -> Color | None:
    if v is None and allow_none:
        return None
    if not isinstance(v, str) or v not in _COLOR_VALUES:
        raise _err(_where(field), f"{shown(v)} is not a card colour")
    return Color(v)


_COLOR_VALUES = {c.value for c in COLORS}


def _color_list(data: dict, field: str) -> list[Color]:
    values = _need(data, field, lambda v: isinstance(v, list) and len(v) <= MOST_CARDS,
                   f"a list of at most {MOST_CARDS} card colours")
    return [_color(field, v) for v in values]


def _counts(field: str, v: Any) -> CardCounts:
    if not isinstance(v, dict) or len(v) > len(COLORS):
        raise _err(_where(field), f"must map colours to counts, not {shown(v)}")
    for k, n in v.items():
        _color(field, k)
        if not _is_int(n) or not 0 <= n <= MOST_CARDS:
            raise _err(_where(field), f"count of {shown(k)} must be a whole number 0-{MOST_CARDS}, "
                       f"not {shown(n)}")
    return CardCounts(v)


def _counts_list(data: dict, field: str, length: int) -> list[CardCounts]:
    values = _need(data, field, lambda v: isinstance(v, list) and len(v) == length,
                   f"a list of {length} card counts")
    return [_counts(f"{field}[{i}]", v) for i, v in enumerate(values)]


def _ids(v: Any, most: int) -> bool:
    return isinstance(v, list) and len(v) <= most and all(isinstance(t, str) for t in v)


def _id_lists(data: dict, field: str, length: int, most: int) -> list[list[str]]:
    values = _need(data, field, lambda v: isinstance(v, list) and len(v) == length
                   and all(_ids(x, most) for x in v),
                   f"a list of {length} lists of at most {most} ticket ids")
    return [list(x) for x in values]


def _start(data: Any, board: Board, players: int) -> GameState:
    """The start of a save, every field read and type-checked (``SaveError`` names a field
    ``start.<field>``); whether it is a real deal or position is ``Game.from_json``'s check."""
    if not isinstance(data, dict):
        raise _err("start", "must be a table of the start's fields")
    unknown = sorted(str(k) for k in set(data) - set(_START))
    if unknown:
        raise _err("start", f"{shown(unknown[0])} is not a field of a game's start")
    teams = players // 2
    tickets = len(board.tickets)
    try:
        rng = rng_from_state(_need(data, "rng", lambda v: True, "a random generator state"))
    except ValueError as exc:
        raise _err(_where("rng"), f"must be {exc}") from None
    game = GameState.empty(board, players, rng)
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
    claimed = _need(data, "claimed", lambda v: isinstance(v, dict) and len(v) <= len(board.routes),
                    "a route -> seat table")
    for rid, seat in claimed.items():
        if not board.has_route(rid):
            raise _err(_where("claimed"), f"{shown(rid)} is not a route of the board")
        if not (_is_int(seat) and 0 <= seat < players):
            raise _err(_where("claimed"), f"{shown(rid)} is owned by {shown(seat)}, not a seat")
    game.owners = dict(claimed)
    game.ticket_deck = list(_need(data, "ticket_deck", lambda v: _ids(v, tickets),
                                  f"a list of at most {tickets} ticket ids"))
    game.tickets = _id_lists(data, "tickets", players, tickets)
    game.team_tickets = _id_lists(data, "team_tickets", teams, tickets)
    game.offers = _id_lists(data, "offers", players, tickets)
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
    game.events = _events(_need(data, "events", lambda v: isinstance(v, list)
                                and len(v) <= MOST_START_EVENTS,
                                f"a list of at most {MOST_START_EVENTS} events"))
    keys = {"route", "seat", "laid_hand", "laid_cardholder", "revealed", "color", "extra"}
    t = _need(data, "tunnel", lambda v: v is None or (isinstance(v, dict) and set(v) == keys),
              f"null or a table with {sorted(keys)}")
    if t is not None:
        game.tunnel = _tunnel(board, players, t)
    return game


def _events(values: list) -> list[Event]:
    """The log of a start, event by event (``Event.from_dict`` names a bad field)."""
    events = []
    for i, table in enumerate(values):
        try:
            events.append(Event.from_dict(table))
        except SaveError as exc:
            raise _err(_where("events"), f"event {i}: {exc}") from None
    return events


def _setup_choices(data: dict, players: int) -> dict[int, KeepTickets]:
    """T1: the hidden choices of seats whose teammate has not chosen yet, by seat."""
    choices = _need(data, "setup_choices", lambda v: isinstance(v, dict) and len(v) <= players,
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


def _tunnel(board: Board, players: int, t: dict) -> TunnelAttempt:
    """The pending tunnel attempt, read field by field (``check_state`` checks it fits, U1-U7)."""
    where = _where("tunnel")
    if not isinstance(t["route"], str) or not board.has_route(t["route"]) \
            or not board.route(t["route"]).is_tunnel:
        raise _err(where, f"{shown(t['route'])} is not a tunnel of the board")
    if not (_is_int(t["seat"]) and 0 <= t["seat"] < players):
        raise _err(where, "its seat is not a seat")
    if not isinstance(t["revealed"], list) or len(t["revealed"]) > MAX_TUNNEL:
        raise _err(where, f"'revealed' must be a list of at most {MAX_TUNNEL} colours")
    revealed = tuple(_color("tunnel", c) for c in t["revealed"])
    hand, holder = _counts("tunnel", t["laid_hand"]), _counts("tunnel", t["laid_cardholder"])
    color = _color("tunnel", t["color"])
    if not _is_int(t["extra"]):
        raise _err(where, f"'extra' must be a whole number, not {shown(t['extra'])}")
    return TunnelAttempt(t["route"], t["seat"], hand, holder, revealed, color, t["extra"])
