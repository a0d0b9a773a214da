"""Boards: cities, routes and destination tickets, loaded from a validated TOML file.

The file format (see ``ttrlib/boards/teaching.toml`` for a full example)::

    name = "My board"
    cities = ["Delhi", "Lahore", ...]
    open_groups = ["canton-hongkong"]   # K3: parallel tracks that all stay open with 4 players
    tunnel_reveals = [4, 5, 6]          # U1: the numbers a tunnel may carry. Optional: Team Asia's
                                        # 4-6 by default; [3] for classic Europe tunnels

    [positions]                         # optional, for maps: every city at [x, y]
    "Delhi" = [77.2, 28.6]              # (the teaching board uses longitude, latitude)

    [[routes]]
    id = "delhi-lahore-1"        # unique
    a = "Delhi"                  # endpoints: names listed in `cities`
    b = "Lahore"
    length = 3                   # 1..8 (E2 scores lengths 1-8)
    color = "gray"               # "gray" or one of the 8 train colours
    tunnel = 0                   # cards revealed when claimed (U1): 0 = not a tunnel, else one
                                 # of `tunnel_reveals`. Optional.
    group = "delhi-lahore"       # parallel tracks share a group (double / triple routes). Optional.

    [[tickets]]
    id = "T01"
    a = "Kabul"
    b = "Calcutta"
    points = 13

``load_board(path)`` raises ``BoardError`` naming the file, the entry and the field that is wrong
(a value is quoted in at most ``errors.MAX_SHOWN`` characters): also for a file that is not UTF-8
or not TOML, nesting deeper than ``MAX_DEPTH``, an integer beyond ``MAX_BOARD_INT``, a position
that is not a finite number, and a ticket whose two cities no chain of routes joins.

Bounds, checked before anything is built (the largest published maps have about 50 cities, 100
routes and 70 tickets; the teaching board's file is 16 KB):

* a board file is at most ``MAX_BOARD_TEXT`` (512,000) bytes, refused unread beyond that, so no
  TOML parser ever sees a bigger one;
* at most ``MAX_CITIES`` (150) cities, ``MAX_ROUTES`` (250) routes and ``MAX_TICKETS`` (250)
  tickets;
* every name (the board's, a city, a route or ticket id, a group) has 1 to ``MAX_NAME`` (64)
  characters: the one limit of names in ttrlib, shared by the event reader (``ttrlib.events``)
  and the plain codec of actions (``ttrlib.plain``), so that every board that loads can also be
  played, logged and saved.

>>> board = teaching_board()
>>> board.route("canton-hongkong-1").group in board.open_groups
True
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .cards import TRAIN_COLORS, Color
from .errors import BoardError, shown

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

GRAY = "gray"
MAX_ROUTE_LENGTH = 8
MAX_TUNNEL = 6  # U1: Team Asia reveals 4-6, Europe 3 (the most a saved reveal may hold)
TEAM_ASIA_TUNNELS = (4, 5, 6)  # U1: "a tunnel route carries a number from 4 to 6"
EUROPE_TUNNEL = 3  # U1: "classic Europe tunnels reveal 3"
MAX_DEPTH = 8  # a board file nests 4 levels deep (positions: table, city, [x, y])
MAX_BOARD_INT = 10**9  # every number of a board is small; this keeps huge ones out
MAX_BOARD_TEXT = 512_000  # bytes of a board file: a board at every bound below fits in 300 KB
MAX_CITIES, MAX_ROUTES, MAX_TICKETS = 150, 250, 250  # the biggest published maps: 50, 100, 70
MAX_NAME = 64  # characters of any name or id (ttrlib.plain reads ids of at most 64 too)


@dataclass(frozen=True)
class Route:
    """One track between two cities. ``color`` is a train ``Color`` or ``None`` for gray."""

    id: str
    a: str
    b: str
    length: int
    color: Color | None
    reveals: int = 0  # U1: the cards a tunnel turns up; 0: not a tunnel
    group: str = ""

    def __init__(self, id: str, a: str, b: str, length: int, color: Color | None,
                 reveals: int = 0, group: str = "", *, tunnel: int | None = None):
        """``tunnel=`` is the older name of ``reveals`` (notebooks and callers use it)."""
        for name, value in (("id", id), ("a", a), ("b", b), ("length", length), ("color", color),
                            ("reveals", reveals if tunnel is None else tunnel), ("group", group)):
            object.__setattr__(self, name, value)

    @property
    def tunnel(self) -> int:
        """The older name of ``reveals``, kept for notebooks."""
        return self.reveals

    @property
    def is_tunnel(self) -> bool:
        return self.reveals > 0

    @property
    def is_gray(self) -> bool:
        return self.color is None

    @property
    def cities(self) -> tuple[str, str]:
        return (self.a, self.b)

    def describe(self) -> str:
        colour = "gray" if self.color is None else self.color.value
        kind = f" tunnel (reveals {self.reveals})" if self.reveals else ""
        return f"{self.a} - {self.b}, {self.length} {colour}{kind}"


@dataclass(frozen=True)
class Ticket:
    """A destination ticket: connect ``a`` and ``b`` for ``points`` (or lose them, E3)."""

    id: str
    a: str
    b: str
    points: int

    def describe(self) -> str:
        return f"{self.a} - {self.b} ({self.points})"


@dataclass(frozen=True)
class Board:
    """A validated board. Routes and tickets keep the order of the file."""

    name: str
    cities: tuple[str, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    open_groups: frozenset[str] = frozenset()
    tunnel_reveals: tuple[int, ...] = TEAM_ASIA_TUNNELS  # U1: the numbers a tunnel may carry
    positions: dict[str, tuple[float, float]] = field(default_factory=dict, compare=False)  # city -> (x, y), for maps
    source: str = field(default="<memory>", compare=False)
    _routes: dict[str, Route] = field(default_factory=dict, repr=False, compare=False)
    _tickets: dict[str, Ticket] = field(default_factory=dict, repr=False, compare=False)
    _groups: dict[str, list[Route]] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Fresh tables, never the ones passed in: ``dataclasses.replace`` passes the original's,
        # and filling those would change the original (each parallel track listed twice, K3).
        groups: dict[str, list[Route]] = {}
        for r in self.routes:
            if r.group:
                groups.setdefault(r.group, []).append(r)
        object.__setattr__(self, "_routes", {r.id: r for r in self.routes})
        object.__setattr__(self, "_tickets", {t.id: t for t in self.tickets})
        object.__setattr__(self, "_groups", groups)

    def route(self, route_id: str) -> Route:
        try:
            return self._routes[route_id]
        except KeyError:
            raise KeyError(f"no route {route_id!r} on board {self.name!r}") from None

    def ticket(self, ticket_id: str) -> Ticket:
        try:
            return self._tickets[ticket_id]
        except KeyError:
            raise KeyError(f"no ticket {ticket_id!r} on board {self.name!r}") from None

    def has_route(self, route_id: str) -> bool:
        return route_id in self._routes

    def has_ticket(self, ticket_id: str) -> bool:
        return ticket_id in self._tickets

    def parallel(self, route: Route) -> list[Route]:
        """The other tracks of the same double or triple route (empty for a single track)."""
        if not route.group:
            return []
        return [r for r in self._groups[route.group] if r.id != route.id]

    def __repr__(self) -> str:
        return (
            f"<Board {self.name!r}: {len(self.cities)} cities, {len(self.routes)} routes, "
            f"{len(self.tickets)} tickets>"
        )


def _fail(source: str, where: str, message: str) -> BoardError:
    return BoardError(f"{source}: {where}: {message}")


def data_problem(value: Any, *, max_depth: int, max_int: int,
                 max_items: int = 1_000_000) -> tuple[str, str] | None:
    """The first thing in parsed JSON or TOML data that no loader should have to handle, as
    ``(path, reason)``: nesting deeper than ``max_depth``, an integer beyond ``max_int`` either
    way, a float that is not finite, a key that is not a string, text that is not valid
    Unicode (a lone surrogate), anything else than tables, lists, text, numbers and booleans,
    or more than ``max_items`` values in all (the walk stops there, so its time is bounded).
    ``None`` when there is none. The walk uses no recursion, so any depth is safe; the path
    starts with the top-level field (``routes[3].length``)."""
    stack: list[tuple[Any, int, str]] = [(value, 0, "")]
    seen = 0
    while stack:
        v, depth, path = stack.pop()
        where = path or "top level"
        seen += 1
        if seen > max_items:
            return where, f"is too big: the data holds more than {max_items} values"
        if isinstance(v, dict):
            if depth >= max_depth:
                return where, f"nests deeper than {max_depth} levels"
            for k, item in v.items():
                if not isinstance(k, str):
                    return where, f"has a key {shown(k)} that is not a string"
                if not k.isascii() and not _is_unicode(k):
                    return where, "has a key that is not valid Unicode text"
                stack.append((item, depth + 1, f"{path}.{k[:40]}" if path else k[:40]))
        elif isinstance(v, list):
            if depth >= max_depth:
                return where, f"nests deeper than {max_depth} levels"
            stack.extend((item, depth + 1, f"{path}[{i}]") for i, item in enumerate(v))
        elif isinstance(v, bool) or v is None:
            continue
        elif isinstance(v, int):
            if abs(v) > max_int:
                return where, f"holds an integer beyond +-{max_int}"
        elif isinstance(v, float):
            if not math.isfinite(v):
                return where, f"holds {v!r}, not a finite number"
        elif isinstance(v, str):
            if not v.isascii() and not _is_unicode(v):
                return where, "holds text that is not valid Unicode"
        else:
            return where, f"holds {shown(v)}, which is not JSON or TOML data"
    return None


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, e.g. from a JSON escape "\\udc80"
        return False
    return True


def _field(entry: dict[str, Any], key: str, kind: type, source: str, where: str, default: Any = ...) -> Any:
    if key not in entry:
        if default is ...:
            raise _fail(source, where, f"field {key!r} is missing")
        return default
    value = entry[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise _fail(source, where, f"field {key!r} must be an integer, not {shown(value)}")
    if kind is str and not _is_name(value):
        raise _fail(source, where, f"field {key!r} must be a name of 1-{MAX_NAME} characters, "
                    f"not {shown(value)}")
    return value


def _is_name(value: Any) -> bool:
    """A name or id: text of 1 to ``MAX_NAME`` characters, not only blanks."""
    return isinstance(value, str) and 0 < len(value) <= MAX_NAME and bool(value.strip())


#: top-level field -> the most entries a board holds (checked before the data is walked)
_MOST = {"cities": MAX_CITIES, "positions": MAX_CITIES, "routes": MAX_ROUTES,
         "open_groups": MAX_ROUTES, "tickets": MAX_TICKETS, "tunnel_reveals": 4}


def board_from_dict(data: dict[str, Any], source: str = "<memory>") -> Board:
    """Validate parsed board data (the TOML layout) and build a ``Board``."""
    if not isinstance(data, dict):
        raise _fail(source, "top level", "a board is a table with name, cities, routes, tickets")
    known_top = {"name", "cities", "routes", "tickets", "open_groups", "positions",
                 "tunnel_reveals"}
    for key in data:
        if key not in known_top:
            raise _fail(source, "top level", f"unknown field {shown(key)}")
    for key, most in _MOST.items():  # before anything is walked or built
        value = data.get(key)
        if isinstance(value, (list, dict)) and len(value) > most:
            raise _fail(source, "top level", f"field {key!r} holds {len(value)} entries; a board "
                        f"holds at most {most}")
    problem = data_problem(data, max_depth=MAX_DEPTH, max_int=MAX_BOARD_INT)
    if problem:
        raise _fail(source, *problem)
    name = _field(data, "name", str, source, "top level")
    cities = data.get("cities")
    if not isinstance(cities, list) or not cities:
        raise _fail(source, "top level", "field 'cities' must be a non-empty list of names")
    seen: set[str] = set()
    for i, city in enumerate(cities):
        if not _is_name(city):
            raise _fail(source, f"cities[{i}]", f"a city is a name of 1-{MAX_NAME} characters, "
                        f"not {shown(city)}")
        if city in seen:
            raise _fail(source, f"cities[{i}]", f"city {shown(city)} is listed twice")
        seen.add(city)

    reveals = _tunnel_reveals(data, source)
    routes: list[Route] = []
    for where, entry, (rid, a, b) in _entries(data, "routes", _ROUTE_FIELDS, seen, source):
        length = _field(entry, "length", int, source, where)
        if not 1 <= length <= MAX_ROUTE_LENGTH:
            raise _fail(source, where, f"field 'length' must be 1 to {MAX_ROUTE_LENGTH}, not {length}")
        colour_name = _field(entry, "color", str, source, where)
        if colour_name == GRAY:
            color = None
        else:
            allowed = [c.value for c in TRAIN_COLORS]
            if colour_name not in allowed:
                raise _fail(source, where, f"field 'color' must be 'gray' or one of {allowed}, "
                            f"not {shown(colour_name)}")
            color = Color(colour_name)
        tunnel = _field(entry, "tunnel", int, source, where, default=0)
        if tunnel != 0 and tunnel not in reveals:
            numbers = ", ".join(str(n) for n in reveals)
            raise _fail(source, where, f"field 'tunnel' must be 0 (no tunnel) or {numbers} (U1: "
                        f"the numbers this board's tunnels carry), not {tunnel}")
        group = entry.get("group", "")
        if not isinstance(group, str) or len(group) > MAX_NAME:
            raise _fail(source, where, f"field 'group' must be a name of at most {MAX_NAME} "
                        f"characters, not {shown(group)}")
        routes.append(Route(rid, a, b, length, color, tunnel, group))

    by_group: dict[str, list[Route]] = {}
    for r in routes:
        if r.group:
            by_group.setdefault(r.group, []).append(r)
    for g, members in by_group.items():
        ends = {frozenset(r.cities) for r in members}
        if len(ends) != 1:
            raise _fail(source, f"routes (group {g!r})", "field 'group' joins tracks with different cities")
        if not 2 <= len(members) <= 3:
            raise _fail(source, f"routes (group {g!r})", "a group has 2 or 3 parallel tracks")
        if len({(r.length, r.reveals) for r in members}) != 1:
            raise _fail(source, f"routes (group {g!r})",
                        "fields 'length' and 'tunnel' must be the same on parallel tracks")
    pairs: dict[frozenset[str], str] = {}
    for r in routes:
        pair = frozenset(r.cities)
        if pair in pairs and (pairs[pair] != r.group or not r.group):
            raise _fail(source, f"routes (id {r.id!r})", "field 'group' must join every track "
                        f"between {r.a} and {r.b} (K3 needs to know they are parallel)")
        pairs[pair] = r.group

    open_groups = data.get("open_groups", [])
    if not isinstance(open_groups, list):
        raise _fail(source, "top level", "field 'open_groups' must be a list of group names")
    for i, g in enumerate(open_groups):
        if not isinstance(g, str) or g not in by_group:
            raise _fail(source, f"open_groups[{i}]", f"{shown(g)} is not the group of any route")

    part = components((r.a, r.b) for r in routes)  # E3: a ticket's cities must be joined by some chain of routes
    tickets: list[Ticket] = []
    for where, entry, (tid, a, b) in _entries(data, "tickets", _TICKET_FIELDS, seen, source):
        points = _field(entry, "points", int, source, where)
        if points <= 0:
            raise _fail(source, where, f"field 'points' must be positive, not {points}")
        if part.get(a, a) != part.get(b, b):
            raise _fail(source, where, f"fields 'a' and 'b': no chain of routes joins {shown(a)} "
                        f"and {shown(b)}, so the ticket could never be completed (E3)")
        tickets.append(Ticket(tid, a, b, points))

    positions = data.get("positions", {})
    if not isinstance(positions, dict):
        raise _fail(source, "top level", "field 'positions' must be a table of city = [x, y]")
    for city, xy in positions.items():
        if city not in seen:
            raise _fail(source, f"positions ({shown(city)})", f"{shown(city)} is not in 'cities'")
        if not (isinstance(xy, list) and len(xy) == 2 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                for v in xy)):
            raise _fail(source, f"positions ({shown(city)})",
                        f"must be [x, y] finite numbers, not {shown(xy)}")
    if positions and len(positions) != len(cities):
        missing = [c for c in cities if c not in positions]
        raise _fail(source, "positions",
                    f"give every city a position or none; missing {shown(missing)}")

    return Board(
        name=name,
        cities=tuple(cities),
        routes=tuple(routes),
        tickets=tuple(tickets),
        open_groups=frozenset(open_groups),
        tunnel_reveals=reveals,
        positions={c: (float(x), float(y)) for c, (x, y) in positions.items()},
        source=source,
    )


#: the fields of an entry of ``routes`` and of ``tickets``
_ROUTE_FIELDS = {"id", "a", "b", "length", "color", "tunnel", "group"}
_TICKET_FIELDS = {"id", "a", "b", "points"}
_ONE = {"routes": "route", "tickets": "ticket"}


def _entries(data: dict[str, Any], key: str, fields: set[str], cities: set[str],
             source: str) -> Iterator[tuple[str, dict[str, Any], tuple[str, str, str]]]:
    """Each entry of ``routes`` or ``tickets`` as ``(where, entry, (id, a, b))``, read once:
    what a route and a ticket share (a table of known fields, an id no earlier entry has, two
    different cities of the board) is checked here, for both, so the two readers cannot drift
    apart; the caller reads the fields of its own kind from ``entry``."""
    one = _ONE[key]
    raw = data.get(key)
    if not isinstance(raw, list) or not raw:
        raise _fail(source, "top level", f"field {key!r} must be a non-empty list of tables")
    ids: set[str] = set()
    for i, entry in enumerate(raw):
        where = f"{key}[{i}]"
        if not isinstance(entry, dict):
            raise _fail(source, where, f"a {one} is a table")
        eid = _field(entry, "id", str, source, where)
        where = f"{key}[{i}] (id {shown(eid)})"
        for name in entry:
            if name not in fields:
                raise _fail(source, where, f"unknown field {shown(name)}")
        if eid in ids:
            raise _fail(source, where, f"field 'id' repeats an earlier {one}'s id")
        ids.add(eid)
        a = _field(entry, "a", str, source, where)
        b = _field(entry, "b", str, source, where)
        for name, city in (("a", a), ("b", b)):
            if city not in cities:
                raise _fail(source, where, f"field {name!r}: {shown(city)} is not in 'cities'")
        if a == b:
            raise _fail(source, where, "fields 'a' and 'b' name the same city")
        yield where, entry, (eid, a, b)


def _tunnel_reveals(data: dict[str, Any], source: str) -> tuple[int, ...]:
    """U1: the numbers this board's tunnels may carry: Team Asia's 4-6 unless the board states
    others (3 for classic Europe tunnels)."""
    stated = data.get("tunnel_reveals", list(TEAM_ASIA_TUNNELS))
    allowed = (EUROPE_TUNNEL, *TEAM_ASIA_TUNNELS)
    if not (isinstance(stated, list) and stated and all(
            type(n) is int and n in allowed for n in stated) and len(set(stated)) == len(stated)):
        raise _fail(source, "top level", "field 'tunnel_reveals' must list different numbers "
                    f"among {list(allowed)} (U1), not {shown(stated)}")
    return tuple(sorted(stated))


def components(edges: Iterable[tuple[str, str]]) -> dict[str, str]:
    """City -> a representative city of its connected part, for the cities the edges touch
    (union-find). The loader uses it for tickets (E3: some chain of routes must join a
    ticket's cities), scoring for a team's routes (``ttrlib.rules.network``)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for u, v in edges:
        parent[find(u)] = find(v)
    return {city: find(city) for city in list(parent)}


def load_board(path: "str | os.PathLike[str]") -> Board:
    """Read and validate a board file (TOML). Errors name the file, the entry and the field."""
    if not isinstance(path, (str, os.PathLike)):
        raise BoardError(f"load_board: the board file is named by a path, not {shown(path)}")
    path = Path(path)
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_BOARD_TEXT + 1)  # never more: a huge file is refused unread
    except OSError as exc:
        raise BoardError(f"{path}: cannot read the board file ({exc.strerror or exc})") from None
    except ValueError:  # the path holds a NUL byte: no file is named so (open refuses it)
        raise BoardError(f"load_board: the path {shown(str(path))} holds a NUL byte, which no "
                         "file name can hold") from None
    if len(raw) > MAX_BOARD_TEXT:
        raise BoardError(f"{path}: the board file is bigger than {MAX_BOARD_TEXT} bytes, the "
                         "most a board file may hold")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BoardError(f"{path}: the board file is not UTF-8 text ({exc.reason} at byte "
                         f"{exc.start})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BoardError(f"{path}: not valid TOML ({shown(str(exc))})") from None
    except RecursionError:
        raise BoardError(f"{path}: not valid TOML: it nests deeper than Python can read") from None
    except ValueError:  # an integer of more than 4300 digits (Python's int conversion limit)
        raise BoardError(f"{path}: not valid TOML: it holds a number too long to read") from None
    return board_from_dict(data, source=str(path))


TEACHING_BOARD_PATH = Path(__file__).with_name("boards") / "teaching.toml"


@cache
def teaching_board() -> Board:
    """The bundled teaching board (not the published map; see README)."""
    return load_board(TEACHING_BOARD_PATH)
