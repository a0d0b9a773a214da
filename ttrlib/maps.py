"""The board map: an SVG drawn from the board (:func:`board_svg`), its text alternative for screen
readers (:func:`board_description`), and the map in a scrolling frame for a page (:func:`map_html`).

The SVG shows every track as its train spaces, one small rectangle per space, filled in the
track's colour and carrying the colour's letter (the card letters of :mod:`ttrlib.display`, so
colour is never shown by colour alone); gray tracks are gray and carry no letter ("any colour").
Tunnels (U1) have dashed spaces and a marker with the number of cards they reveal. Parallel tracks
(double and triple routes, K3) lie side by side. A claimed track is filled in its team's colour
and pattern and names the seat that claimed it (C2: seats A1, A2, B1 ...). The viewing seat's
tickets are ringed on the map and listed with whether the team's tracks connect them (E3).

The layout depends on the board only, never on the claims or tickets, so the map of a position
after a claim differs from the one before exactly in that track. Cities are pushed apart where
the train spaces of a short track would not fit (a nudge of the projection), and every label and
marker is put at the first of several candidate places that covers no track, city or other label.

>>> from ttrlib.board import teaching_board
>>> svg = board_svg(teaching_board(), {"delhi-lahore-1": 0})
>>> svg.startswith("<svg") and 'role="img"' in svg
True
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from .board import Board, Route, Ticket
from .cards import COLORS, Color
from .display.looks import CARD_LOOKS, GRAY_ROUTE
from .display.routes import tunnel_words
from .errors import BoardError
from .rules.network import connected
from .seats import TEAM_NAMES, seat_name, team_name, team_of

# Team looks: a fill no track uses, a pattern so that the team never shows by colour alone.
TEAM_FILLS = ("#00838f", "#c2185b", "#5d4037")
TEAM_PATTERNS = ("stripes", "dots", "crosses")


# --- geometry (user units of the SVG; about one pixel each at 980 px wide) ----------------------
SCALE = 18.0  # units per degree of latitude
SPACE_H = 13.0  # width of a train space across the track
SPACE_MIN, SPACE_MAX, SPACE_GAP = 19.0, 26.0, 3.0  # length of a space along the track, the gap
TRACK_GAP = 3.0  # between parallel tracks
CITY_R, RING_R = 5.0, 10.0  # a city dot; the ring round a ticket's city
END_GAP = RING_R + 3.0  # from a city's centre to its tracks' first space
CITY_FONT, SPACE_FONT, MARK_FONT = 14.0, 10.5, 13.0
PANEL_FONT, TITLE_FONT = 13.0, 15.0  # the key and the ticket list; the title
CHAR_W = 0.8  # width of a bold character, in font sizes (DejaVu Sans Bold is about 0.75)
MIN_CITY_GAP = 70.0  # between any two cities
FAN = 70.0  # tracks leaving a city lie apart this far from it
RELAX_STEPS = 600  # at most, to push the cities apart (it settles well before)
LABEL_ROUNDS = 6  # layouts tried, giving crowded cities more room each time
AMBIGUOUS = 1.3  # a name must be this many times nearer its own dot than any other
MARGIN, HEAD = 14.0, 34.0  # around the map; the band for the title
BACKGROUND = "#f3efe2"
TICKET_INK = "#6a1b9a"

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Poly = tuple[tuple[float, float], ...]


def text_box(x: float, y: float, text: str, size: float) -> Box:
    """The box a text centred at (x, y) covers (``text-anchor: middle``, central baseline)."""
    half = CHAR_W * size * len(text) / 2 + 1.5
    return (x - half, y - 0.64 * size, x + half, y + 0.64 * size)


def _corners(box: Box) -> Poly:
    x0, y0, x1, y1 = box
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def polygons_overlap(p: Poly, q: Poly) -> bool:
    """Do two convex polygons overlap (separating axis theorem; touching does not count)?"""
    for poly in (p, q):
        for i in range(len(poly)):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
            ax, ay = y1 - y2, x2 - x1
            a = [ax * x + ay * y for x, y in p]
            b = [ax * x + ay * y for x, y in q]
            if max(a) <= min(b) + 1e-9 or max(b) <= min(a) + 1e-9:
                return False
    return True


def _band(p: tuple[float, float], q: tuple[float, float], half: float) -> Poly:
    """The rectangle of half-width ``half`` round the segment p-q."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / n * half, dx / n * half
    return ((p[0] + nx, p[1] + ny), (q[0] + nx, q[1] + ny), (q[0] - nx, q[1] - ny),
            (p[0] - nx, p[1] - ny))


@dataclass(frozen=True)
class Space:
    """One train space: centre, length along the track, angle of the track in degrees."""

    cx: float
    cy: float
    length: float
    angle: float

    def polygon(self) -> Poly:
        a = math.radians(self.angle)
        ux, uy = math.cos(a) * self.length / 2, math.sin(a) * self.length / 2
        nx, ny = -math.sin(a) * SPACE_H / 2, math.cos(a) * SPACE_H / 2
        c = (self.cx, self.cy)
        return ((c[0] - ux - nx, c[1] - uy - ny), (c[0] + ux - nx, c[1] + uy - ny),
                (c[0] + ux + nx, c[1] + uy + ny), (c[0] - ux + nx, c[1] - uy + ny))


@dataclass(frozen=True)
class Layout:
    """Where everything sits: computed once per board (cached), whatever the claims."""

    width: float
    height: float
    cities: dict  # city -> (x, y)
    spaces: dict  # route id -> tuple of Space
    labels: dict  # city -> (x, y) centre of its name
    markers: dict  # route id of a tunnel's first track -> (x, y) centre of its marker
    obstacles: _Obstacles  # everything drawn, for placing the panels


def _bands(board: Board) -> dict[frozenset, list[Route]]:
    """The tracks between each pair of cities, parallel ones together, in id order."""
    out: dict[frozenset, list[Route]] = {}
    for r in board.routes:
        out.setdefault(frozenset(r.cities), []).append(r)
    return {k: sorted(v, key=lambda t: t.id) for k, v in out.items()}


def _band_half(tracks: int) -> float:
    return (tracks * SPACE_H + (tracks - 1) * TRACK_GAP) / 2


def _project(board: Board) -> dict[str, list[float]]:
    lons = [x for x, _ in board.positions.values()]
    lats = [y for _, y in board.positions.values()]
    squeeze = math.cos(math.radians((min(lats) + max(lats)) / 2))
    return {c: [(lon - min(lons)) * SCALE * squeeze, (max(lats) - lat) * SCALE]
            for c, (lon, lat) in board.positions.items()}


def _apart(xy, push, a: str, b: str, want: float) -> float:
    """Add to ``push`` what moves cities a and b to ``want`` apart; returns the shortfall."""
    dx, dy = xy[b][0] - xy[a][0], xy[b][1] - xy[a][1]
    if dx == dy == 0:  # two cities at one place: part them east-west
        dx = 1e-3
    d = math.hypot(dx, dy)
    if d >= want:
        return 0.0
    f = (want - d) / 2 / d
    push[a][0] -= dx * f
    push[a][1] -= dy * f
    push[b][0] += dx * f
    push[b][1] += dy * f
    return want - d




def _spread(xy, push, c: str, ends: list[tuple[str, int]]) -> float:
    """Turn the far ends of tracks from city ``c`` apart where two leave at too small an
    angle for their spaces to lie side by side within ``FAN`` of the city."""
    worst = 0.0
    cx, cy = xy[c]
    for i, (p, n) in enumerate(ends):
        for q, m in ends[i + 1:]:
            ap = math.atan2(xy[p][1] - cy, xy[p][0] - cx)
            aq = math.atan2(xy[q][1] - cy, xy[q][0] - cx)
            gap = (aq - ap + math.pi) % (2 * math.pi) - math.pi  # from p to q, signed
            want = math.asin(min(1.0, (_band_half(n) + _band_half(m) + 3) / FAN))
            if abs(gap) >= want:
                continue
            turn = (want - abs(gap)) / 2 * (1 if gap >= 0 else -1)
            for city, sign in ((p, -1), (q, 1)):
                dx, dy = xy[city][0] - cx, xy[city][1] - cy
                a = sign * turn * 0.5
                push[city][0] += dx * math.cos(a) - dy * math.sin(a) - dx
                push[city][1] += dx * math.sin(a) + dy * math.cos(a) - dy
            worst = max(worst, (want - abs(gap)) * 50)
    return worst


def _relax(board: Board, xy: dict[str, list[float]], need: dict[frozenset, float],
           room: dict[str, float]) -> None:
    """Push cities apart until every track has room for its spaces and passes clear of every
    other city (and of ``room`` more round a crowded city, for its name): the smallest nudge
    of the projection that makes each track and name readable."""
    bands = _bands(board)
    cities = list(xy)
    for _ in range(RELAX_STEPS):
        push = {c: [0.0, 0.0] for c in cities}
        worst = 0.0

        for key, want in need.items():
            a, b = sorted(key)
            worst = max(worst, _apart(xy, push, a, b, want))
        for i, a in enumerate(cities):
            for b in cities[i + 1:]:
                worst = max(worst, _apart(xy, push, a, b, MIN_CITY_GAP + room[a] + room[b]))
        for key, tracks in bands.items():
            a, b = sorted(key)
            base = _band_half(len(tracks)) + RING_R + 8
            (px, py), (qx, qy) = xy[a], xy[b]
            dx, dy = qx - px, qy - py
            n2 = dx * dx + dy * dy
            if n2 == 0:  # its cities sit at one place until the push above parts them
                continue
            for c in cities:
                if c in key:
                    continue
                clear = base + room[c]
                t = ((xy[c][0] - px) * dx + (xy[c][1] - py) * dy) / n2
                if not 0 < t < 1:
                    continue
                fx, fy = px + t * dx, py + t * dy
                ox, oy = xy[c][0] - fx, xy[c][1] - fy
                d = math.hypot(ox, oy) or 1e-6
                if d < clear:
                    worst = max(worst, clear - d)
                    f = (clear - d) / d
                    push[c][0] += ox * f * 0.6
                    push[c][1] += oy * f * 0.6
                    for end, share in ((a, 1 - t), (b, t)):
                        push[end][0] -= ox * f * 0.4 * share
                        push[end][1] -= oy * f * 0.4 * share
        for c in cities:  # tracks leaving one city need an angle between them to lie apart
            worst = max(worst, _spread(xy, push, c, [(sorted(k - {c})[0], len(t))
                                                     for k, t in bands.items() if c in k]))
        if worst < 0.5:
            return
        for c in cities:  # half of each push, at most a few units a step: it settles
            step = 0.5 * math.hypot(*push[c])
            k = 0.5 * min(1.0, 4.0 / step) if step else 0.0
            xy[c][0] += k * push[c][0]
            xy[c][1] += k * push[c][1]


def _lay_spaces(board: Board, xy, end_gaps) -> dict[str, tuple[Space, ...]]:
    spaces: dict[str, tuple[Space, ...]] = {}
    for key, tracks in _bands(board).items():
        a, b = sorted(key)
        (px, py), (qx, qy) = xy[a], xy[b]
        d = math.hypot(qx - px, qy - py)
        ux, uy = (qx - px) / d, (qy - py) / d
        angle = math.degrees(math.atan2(uy, ux))
        ga, gb = end_gaps[(key, a)], end_gaps[(key, b)]
        length = tracks[0].length
        pitch = (d - ga - gb) / length
        size = max(min(SPACE_MAX, pitch - SPACE_GAP), 1.0)
        for k, r in enumerate(tracks):
            off = (k - (len(tracks) - 1) / 2) * (SPACE_H + TRACK_GAP)
            ox, oy = -uy * off, ux * off
            spaces[r.id] = tuple(
                Space(px + ox + ux * (ga + pitch * (i + 0.5)), py + oy + uy * (ga + pitch * (i + 0.5)),
                      size, angle)
                for i in range(length))
    return spaces


def _needs(board: Board, end_gaps) -> dict[frozenset, float]:
    return {key: end_gaps[(key, sorted(key)[0])] + end_gaps[(key, sorted(key)[1])]
            + tracks[0].length * (SPACE_MIN + SPACE_GAP)
            for key, tracks in _bands(board).items()}


class _Obstacles:
    """Polygons already on the map, with their bounding boxes for a quick first test."""

    def __init__(self) -> None:
        self.polys: list[Poly] = []
        self.boxes: list[Box] = []

    def add(self, poly: Poly) -> None:
        self.polys.append(poly)
        xs, ys = [x for x, _ in poly], [y for _, y in poly]
        self.boxes.append((min(xs), min(ys), max(xs), max(ys)))

    def hits(self, box: Box) -> int:
        corners = _corners(box)
        return sum(b[0] < box[2] and box[0] < b[2] and b[1] < box[3] and box[1] < b[3]
                   and polygons_overlap(corners, p) for p, b in zip(self.polys, self.boxes))


def _gap(box: Box, x: float, y: float) -> tuple[float]:
    """Distance from a point to a box (0 inside): a name reads as the nearest dot's."""
    return (math.hypot(max(box[0] - x, 0, x - box[2]), max(box[1] - y, 0, y - box[3])),)


def _place(candidates, obstacles: _Obstacles, mine, others) -> tuple[Box, bool]:
    """The first candidate box that overlaps nothing and lies clearly nearer its own thing
    (``mine`` gives distances) than any other (``others``), and True; else the candidate that
    overlaps least, with the clearest margin, and False."""
    best, score = None, None
    for box in candidates:
        hits = obstacles.hits(box)
        near = mine(box)
        margin = min((o - AMBIGUOUS * m for other in others for m, o in zip(near, other(box))),
                     default=math.inf)
        if hits == 0 and margin > 4:
            return box, True
        if score is None or (hits, -margin) < score:
            best, score = box, (hits, -margin)
    assert best is not None, "no candidate place"
    return best, False


def _around(x: float, y: float, w: float, h: float, near: float):
    """Boxes of size w x h round (x, y), nearest first; east and west before north and south."""
    turns = [0, 180, 22.5, 157.5, -22.5, -157.5, 45, 135, -45, -135, 67.5, 112.5, -67.5, -112.5,
             90, -90]
    for dist in range(int(near), int(near) + 32, 4):
        for deg in turns:
            ux, uy = math.cos(math.radians(deg)), -math.sin(math.radians(deg))
            reach = dist + abs(ux) * w / 2 + abs(uy) * h / 2
            cx, cy = x + ux * reach, y + uy * reach
            yield (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def _seg_gap(box: Box, p, q) -> tuple[float]:
    """Distance from a box's centre to the segment p-q."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    dx, dy = q[0] - p[0], q[1] - p[1]
    t = max(0.0, min(1.0, ((cx - p[0]) * dx + (cy - p[1]) * dy) / (dx * dx + dy * dy)))
    return (math.hypot(cx - p[0] - t * dx, cy - p[1] - t * dy),)


def _geometry(board: Board, room: dict[str, float]):
    """City positions, the end gaps of each track and the train spaces, given extra room."""
    xy = _project(board)
    bands = _bands(board)
    end_gaps = {(key, c): END_GAP for key in bands for c in key}
    for _ in range(12):  # widen the end gaps where two tracks leave a city close together
        _relax(board, xy, _needs(board, end_gaps), room)
        spaces = _lay_spaces(board, xy, end_gaps)
        polys = {rid: [s.polygon() for s in sp] for rid, sp in spaces.items()}
        clashes = set()
        for k1, t1 in bands.items():
            for k2, t2 in bands.items():
                if k1 is k2 or not (k1 & k2) or id(k1) > id(k2):
                    continue
                hit = any(polygons_overlap(p, q) for r1 in t1 for r2 in t2
                          for p in polys[r1.id] for q in polys[r2.id])
                if hit:
                    (shared,) = k1 & k2
                    clashes |= {(k1, shared), (k2, shared)}
        if not clashes:
            break
        for end in clashes:
            end_gaps[end] += 4.0
    xs = [p[0] for p in xy.values()]
    ys = [p[1] for p in xy.values()]
    left, top = min(xs) - MARGIN - 90, min(ys) - MARGIN - 30 - HEAD
    moved = {c: (x - left, y - top) for c, (x, y) in xy.items()}
    spaces = _lay_spaces(board, {c: list(p) for c, p in moved.items()}, end_gaps)
    width = max(x for x, _ in moved.values()) + MARGIN + 90
    height = max(y for _, y in moved.values()) + MARGIN + 30
    return moved, spaces, width, height


@lru_cache(maxsize=16)
def _layout(board: Board, positions: tuple) -> Layout:
    """Lay the board out; where a city's name finds no clear place close by, give that city
    more room and lay it out again (a few rounds, then the best places found)."""
    room = {c: 0.0 for c in board.cities}
    best = None
    for _ in range(LABEL_ROUNDS):
        lay, crowded = _place_all(board, *_geometry(board, room))
        if best is None or len(crowded) < best[0]:
            best = (len(crowded), lay)
        if not crowded:
            break
        for c in crowded:
            room[c] += 20.0
    assert best is not None  # LABEL_ROUNDS >= 1
    return best[1]


def _place_all(board: Board, xy, spaces, width, height) -> tuple[Layout, list[str]]:
    """Place the tunnel markers and the city names; returns the layout and the cities whose
    names found no clear place near their dot."""
    bands = _bands(board)
    obstacles = _Obstacles()
    ends = {key: tuple(xy[c] for c in sorted(key)) for key in bands}
    for key, tracks in bands.items():  # from the first space to the last: the ends stay free
        (px, py), (qx, qy) = ends[key]
        d = math.hypot(qx - px, qy - py)
        along = [((x - px) * (qx - px) + (y - py) * (qy - py)) / d
                 for r in tracks for s in spaces[r.id] for x, y in s.polygon()]
        lo, hi = min(along) / d, max(along) / d
        obstacles.add(_band((px + (qx - px) * lo, py + (qy - py) * lo),
                            (px + (qx - px) * hi, py + (qy - py) * hi),
                            _band_half(len(tracks)) + 1.5))
    for x, y in xy.values():
        obstacles.add(_corners((x - RING_R - 2, y - RING_R - 2, x + RING_R + 2, y + RING_R + 2)))
    # Tunnel markers first (they must sit by their track), then the city names, busiest first.
    markers = {}
    for key, tracks in bands.items():
        if not tracks[0].is_tunnel:
            continue
        (px, py), (qx, qy) = ends[key]
        d = math.hypot(qx - px, qy - py)
        nx, ny = -(qy - py) / d, (qx - px) / d
        x0, y0, x1, y1 = text_box(0, 0, _mark_text(tracks[0]), MARK_FONT)
        w, h = x1 - x0 + 4, y1 - y0
        off = _band_half(len(tracks)) + 3 + max(w, h) / 2
        cands = []
        for extra in (0, 6, 12):
            for t in (0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78):
                for side in (1, -1):
                    cx = px + (qx - px) * t + nx * side * (off + extra)
                    cy = py + (qy - py) * t + ny * side * (off + extra)
                    cands.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
        others = [lambda b, e=e: _seg_gap(b, *e) for k, e in ends.items() if k != key]
        box, _ = _place(cands, obstacles, lambda b, e=ends[key]: _seg_gap(b, *e), others)
        obstacles.add(_corners(box))
        markers[tracks[0].id] = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    degree = {c: sum(c in key for key in bands) for c in xy}
    labels = {}
    crowded: list[str] = []
    for city in sorted(xy, key=lambda c: (-degree[c], c)):
        x0, y0, x1, y1 = text_box(0, 0, city, CITY_FONT)
        others = [lambda b, p=p: _gap(b, *p) for c, p in xy.items() if c != city]
        cx, cy = xy[city]
        box, clear = _place(_around(cx, cy, x1 - x0, y1 - y0, RING_R + 2), obstacles,
                            lambda b, p=xy[city]: _gap(b, *p), others)
        if not clear:
            crowded.append(city)
        obstacles.add(_corners(box))
        labels[city] = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    return Layout(width, height, xy, spaces, labels, markers, obstacles), crowded


def layout(board: Board) -> Layout:
    """The map's layout for ``board`` (cached); raises ``BoardError`` without positions."""
    if not board.positions:
        raise BoardError(f"board {board.name!r} has no 'positions' table (every city at [x, y]), "
                         "so it cannot be drawn")
    return _layout(board, tuple(sorted(board.positions.items())))


def _letter_key() -> tuple[str, str]:
    """The colour letters of the map's key, in two lines, read from the cards' looks."""
    words = [f"{CARD_LOOKS[c].symbol} {CARD_LOOKS[c].name}" for c in COLORS
             if c is not Color.LOCOMOTIVE]
    return ("Letters: " + ", ".join(words[:4]) + ",",
            ", ".join(words[4:]) + "; gray: any colour")


def _mark_text(route: Route) -> str:
    return f"\u25b2{route.reveals}"


def _tickets(board: Board, tickets: Iterable) -> list[Ticket]:
    return [t if isinstance(t, Ticket) else board.ticket(t) for t in tickets]


def _connected(board: Board, claimed: Mapping[str, int], seat: int | None, t: Ticket) -> bool:
    """E3: do the tracks of ``seat``'s team (both teammates') join the ticket's cities?"""
    if seat is None:
        return False
    edges = [board.route(rid).cities for rid, s in claimed.items() if team_of(s) == team_of(seat)]
    return connected(edges, t.a, t.b)


def _ticket_line(board, claimed, seat, t: Ticket, *, short: bool = False) -> str:
    """``Kabul - Delhi (5 points): connected by Team A's tracks`` (``short``: no "by ...")."""
    text = f"{t.a} - {t.b} ({t.points} points)"
    if seat is None:
        return text
    text += ": connected" if _connected(board, claimed, seat, t) else ": not connected yet"
    return text if short else f"{text} by {team_name(team_of(seat))}'s tracks"


def board_description(board: Board, claimed: Mapping[str, int] | None = None, *,
                      seat: int | None = None, tickets: Iterable = (),
                      ticket_label: str = "Your tickets") -> str:
    """What the map shows, in plain words (the SVG's ``<desc>``, a text alternative)."""
    claimed = dict(claimed or {})
    tunnels = sum(r.is_tunnel for r in board.routes)
    out = [f"Map of the {board.name}: {len(board.cities)} cities and {len(board.routes)} tracks, "
           f"{tunnels} of them tunnels."]
    if seat is not None:
        out.append(f"You are seat {seat_name(seat)} of {team_name(team_of(seat))}.")
    if not claimed:
        out.append("No track is claimed yet.")
    else:
        teams = sorted({team_of(s) for s in claimed.values()})
        parts = []
        for team in teams:
            seats = sorted(s for s in set(claimed.values()) if team_of(s) == team)
            per_seat = ", ".join(
                f"{seat_name(s)} {sum(v == s for v in claimed.values())}" for s in seats)
            n = sum(team_of(v) == team for v in claimed.values())
            parts.append(f"{team_name(team)} {n} ({per_seat})")
        out.append(f"{len(claimed)} of {len(board.routes)} tracks claimed: "
                   + "; ".join(parts) + ".")
        listed = [f"{board.route(rid).describe()}, by {seat_name(s)}"
                  for rid, s in sorted(claimed.items(), key=lambda kv: (kv[1], kv[0]))]
        out.append("Claimed tracks: " + "; ".join(listed) + ".")
    chosen = _tickets(board, tickets)
    if chosen:
        out.append(f"{ticket_label}, ringed on the map: "
                   + "; ".join(_ticket_line(board, claimed, seat, t) for t in chosen) + ".")
    return " ".join(out)


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs) -> ET.Element:
    el = ET.SubElement(parent, tag, {k.rstrip("_").replace("_", "-"): _fmt(v)
                                     for k, v in attrs.items()})
    if text is not None:
        el.text = text
    return el


def _fmt(v) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def _patterns(defs: ET.Element) -> None:
    for team, (fill, kind) in enumerate(zip(TEAM_FILLS, TEAM_PATTERNS)):
        p = _sub(defs, "pattern", id=f"ttr-team-{TEAM_NAMES[team].lower()}",
                 patternUnits="userSpaceOnUse", width=6, height=6)
        _sub(p, "rect", width=6, height=6, fill=fill)
        if kind == "stripes":
            _sub(p, "path", d="M-1,5 L1,7 M0,0 L6,6 M5,-1 L7,1", stroke="#ffffff",
                 stroke_width=1.3, stroke_opacity=0.55)
        elif kind == "dots":
            _sub(p, "circle", cx=3, cy=3, r=1.3, fill="#ffffff", fill_opacity=0.6)
        else:
            _sub(p, "path", d="M0,3 L6,3 M3,0 L3,6", stroke="#ffffff", stroke_width=1.1,
                 stroke_opacity=0.55)


def _draw_route(g: ET.Element, route: Route, spaces, owner: int | None) -> None:
    if route.color is None:
        fill, ink, letter = GRAY_ROUTE, "#1d1d1d", ""
    else:
        look = CARD_LOOKS[route.color]
        fill, ink, letter = look.fill, look.ink, look.symbol
    edge = "#555555" if route.color in (None, Color.WHITE, Color.YELLOW) else "#2b2b2b"  # light
    words = route.describe() + ("" if owner is None else f", claimed by {seat_name(owner)}")
    rg = _sub(g, "g", class_="ttr-route", data_route=route.id, data_colour=letter or "gray",
              **({} if owner is None else {"data_seat": seat_name(owner)}))
    _sub(rg, "title", words)
    for s in spaces:
        x, y = s.cx - s.length / 2, s.cy - SPACE_H / 2
        attrs = dict(x=x, y=y, width=s.length, height=SPACE_H, rx=2.0,
                     transform=f"rotate({_fmt(s.angle)} {_fmt(s.cx)} {_fmt(s.cy)})")
        if owner is None:
            _sub(rg, "rect", fill=fill, stroke=edge, stroke_width=1.8 if route.is_tunnel else 0.9,
                 stroke_dasharray="3 1.6" if route.is_tunnel else "none", **attrs)
            if letter:
                _sub(rg, "text", letter, x=s.cx, y=s.cy, fill=ink, font_size=SPACE_FONT,
                     class_="ttr-map-letter")
        else:
            team = team_of(owner)
            _sub(rg, "rect", fill=f"url(#ttr-team-{TEAM_NAMES[team].lower()})",
                 stroke=fill, stroke_width=2.2,
                 stroke_dasharray="3 1.6" if route.is_tunnel else "none", **attrs)
            _sub(rg, "text", seat_name(owner), x=s.cx, y=s.cy, fill="#ffffff",
                 stroke=TEAM_FILLS[team], stroke_width=2.4, font_size=SPACE_FONT - 0.5,
                 class_="ttr-map-letter ttr-map-seat")


def _panel(svg: ET.Element, lay: Layout, lines: list[tuple[str, str]], where: str,
           height_extra: list[float], taken: list[Box]) -> None:
    """A box of text lines (text, colour) in a free corner of the map (else below it); a
    corner is free when it covers nothing drawn and no panel placed before (``taken``)."""
    size = PANEL_FONT
    w = max(CHAR_W * size * len(t) for t, _ in lines) * 0.92 + 16
    h = len(lines) * size * 1.45 + 10
    corners = {"top-left": (MARGIN, HEAD), "bottom-left": (MARGIN, lay.height - MARGIN - h),
               "bottom-right": (lay.width - MARGIN - w, lay.height - MARGIN - h),
               "top-right": (lay.width - MARGIN - w, HEAD)}
    order = [where] + [k for k in corners if k != where]
    box = None
    for k in order:
        x, y = corners[k]
        cand = (x, y, x + w, y + h)
        if not lay.obstacles.hits(cand) and not any(
                c[0] < b[2] and b[0] < c[2] and c[1] < b[3] and b[1] < c[3]
                for c in [cand] for b in taken):
            box = cand
            break
    if box is None:  # no free corner: below the map, which then grows
        y = lay.height + height_extra[0]
        box = (MARGIN, y, MARGIN + w, y + h)
        height_extra[0] += h + 6
    taken.append(box)
    g = _sub(svg, "g", class_="ttr-map-panel")
    _sub(g, "rect", x=box[0], y=box[1], width=w, height=h, rx=6.0, fill="#ffffff",
         fill_opacity=0.85, stroke="#9e9e9e")
    for i, (text, colour) in enumerate(lines):
        _sub(g, "text", text, x=box[0] + 8, y=box[1] + 5 + size * 1.45 * (i + 0.5),
             fill=colour, font_size=size, font_weight=700 if i == 0 else 400,
             dominant_baseline="central")


def board_svg(board: Board, claimed: Mapping[str, int] | None = None, *,
              seat: int | None = None, tickets: Iterable = (), title: str | None = None,
              ticket_label: str = "Your tickets") -> str:
    """The board as a self-contained ``<svg>`` that scales to the width of its container.

    ``claimed`` maps route ids to the seat that claimed them (``PlayerView.claimed``); ``seat``
    is the viewing seat and ``tickets`` its tickets (ids or ``Ticket``), ringed and listed under
    ``ticket_label`` (e.g. "Tickets on offer" beside a ticket choice).
    Raises ``BoardError`` (a ``ValueError``) when the board file has no positions.
    """
    lay = layout(board)
    claimed = dict(claimed or {})
    for rid in claimed:
        board.route(rid)  # a KeyError naming the route beats a silently missing track
    chosen = _tickets(board, tickets)
    heading = title or board.name
    desc = board_description(board, claimed, seat=seat, tickets=chosen, ticket_label=ticket_label)
    svg = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg", "viewBox": "", "width": "100%",
        "preserveAspectRatio": "xMidYMid meet", "role": "img", "aria-label": heading,
        "class": "ttr-map", "font-family": 'system-ui, "DejaVu Sans", Arial, sans-serif',
        "style": "max-width: 100%; height: auto; display: block;"})
    _sub(svg, "title", heading)
    _sub(svg, "desc", desc)
    defs = _sub(svg, "defs")
    _patterns(defs)
    _sub(defs, "style", ".ttr-map text { font-weight: 700; text-anchor: middle; "
         "dominant-baseline: central; } .ttr-map .ttr-map-seat { paint-order: stroke; } "
         ".ttr-map .ttr-map-panel text { text-anchor: start; }")
    bg = _sub(svg, "rect", x=0, y=0, width=lay.width, height=lay.height, fill=BACKGROUND)
    _sub(svg, "text", heading, x=MARGIN, y=HEAD / 2, fill="#263238", font_size=TITLE_FONT,
         style="text-anchor: start")
    tracks = _sub(svg, "g", class_="ttr-map-tracks")
    for r in board.routes:
        _draw_route(tracks, r, lay.spaces[r.id], claimed.get(r.id))
    marks = _sub(svg, "g", class_="ttr-map-tunnels")
    for rid, (x, y) in lay.markers.items():
        r = board.route(rid)
        x0, y0, x1, y1 = text_box(x, y, _mark_text(r), MARK_FONT)
        m = _sub(marks, "g", class_="ttr-tunnel-mark", data_route=rid, data_reveals=r.reveals)
        _sub(m, "title", f"{r.a} - {r.b}, {tunnel_words(r)}")
        _sub(m, "rect", x=x0 - 2, y=y0, width=x1 - x0 + 4, height=y1 - y0, rx=3.0,
             fill="#efe3d3", stroke="#795548", stroke_width=1.0)
        _sub(m, "text", _mark_text(r), x=x, y=y, fill="#4e342e", font_size=MARK_FONT)
    ringed = {c for t in chosen for c in (t.a, t.b)}
    cities = _sub(svg, "g", class_="ttr-map-cities")
    for city, (x, y) in lay.cities.items():
        if city in ringed:
            _sub(cities, "circle", cx=x, cy=y, r=RING_R - 1.5, fill="none", stroke=TICKET_INK,
                 stroke_width=3.0, class_="ttr-ticket-ring", data_city=city)
        _sub(cities, "circle", cx=x, cy=y, r=CITY_R, fill="#b71c1c", stroke="#ffffff",
             stroke_width=1.5, class_="ttr-city", data_city=city)
    labels = _sub(svg, "g", class_="ttr-map-labels", stroke=BACKGROUND, stroke_width=3.0,
                  style="paint-order: stroke")
    for city, (x, y) in lay.labels.items():
        _sub(labels, "text", city, x=x, y=y, fill=TICKET_INK if city in ringed else "#212121",
             font_size=CITY_FONT, class_="ttr-city-label", data_city=city)
    extra = [0.0]
    key = [("Key", "#212121"), *((line, "#212121") for line in _letter_key()),
           ("\u25b2n tunnel: n cards revealed (U1)", "#4e342e")]
    if claimed:
        key.append(("Claimed: " + ", ".join(
            f"{team_name(t)} {p}" for t, p in enumerate(TEAM_PATTERNS)
            if any(team_of(s) == t for s in claimed.values())), "#212121"))
    taken: list[Box] = []
    _panel(svg, lay, key, "top-left", extra, taken)
    if chosen:
        head = ticket_label if seat is None else f"{ticket_label} ({seat_name(seat)})"
        lines = [(head + ", ringed", TICKET_INK)] + [
            (("\u2713 " if _connected(board, claimed, seat, t) else "\u2022 ")
             + _ticket_line(board, claimed, seat, t, short=True), TICKET_INK) for t in chosen]
        _panel(svg, lay, lines, "bottom-right", extra, taken)
    height = lay.height + extra[0]
    bg.set("height", _fmt(height))
    svg.set("viewBox", f"0 0 {_fmt(lay.width)} {_fmt(height)}")
    return ET.tostring(svg, encoding="unicode")


#: No text of the map is drawn smaller than this (CSS pixels) on any screen: the city names,
#: the tunnel numbers, the key, the ticket list and the title (at 400 px the map once shrank
#: to 370 px and its names to 5 px). The letters inside the train spaces and the seats
#: on claimed tracks repeat what the fill colour and the team pattern show; they stay smaller.
READABLE_PX = 11.0


def readable_width(board: Board) -> int:
    """The narrowest width (CSS px) at which every label of ``board``'s map is at least
    ``READABLE_PX`` high: below it the map keeps this width and scrolls inside the page."""
    smallest = min(CITY_FONT, MARK_FONT, PANEL_FONT, TITLE_FONT)
    return math.ceil(layout(board).width * READABLE_PX / smallest)


def map_html(board: Board, claimed: Mapping[str, int] | None = None, **svg_args) -> str:
    """:func:`board_svg` in a frame for a page: as wide as the page allows but never narrower
    than :func:`readable_width`; on a narrower screen (or zoomed in) the frame scrolls, so that
    the map is never cut at an edge. The frame takes the keyboard focus (arrow keys scroll it)
    and is named for screen readers. ``svg_args`` go to :func:`board_svg`."""
    svg = board_svg(board, claimed, **svg_args)
    return (f'<div class="ttr-map-frame" role="region" tabindex="0" aria-label="The board map '
            f'(scrolls sideways on a narrow screen)" style="max-width: 100%; overflow-x: auto; '
            f'overflow-y: hidden; -webkit-overflow-scrolling: touch;">'
            f'<div style="min-width: {readable_width(board)}px">{svg}</div></div>')

