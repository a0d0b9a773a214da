"""End-of-game scoring (rules E2-E6): routes, tickets, Asian Express, Globetrotter, ranking.

Scores belong to teams: both teammates' routes count together for tickets and the longest path
(E3, E4), and every ticket a team member holds, private or shared, scores for the team (E3).

Policy (the rulebook is silent): the Asian Express goes to no one when no team has a route, and
the Globetrotter to no one when no team completed a ticket; a bonus rewards something done.
E4 policy: where teammates own two parallel tracks (Hong Kong - Canton with 4 players, any
double route with 6), both count in the longest path, as any two tracks do.
Tickets still on offer when the game ends (a pending choice) belong to no one and do not score.

>>> ROUTE_POINTS[3], ROUTE_POINTS[6]
(4, 15)
>>> longest_trail([("a", "b", 2), ("b", "c", 3), ("b", "d", 1)])
5
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ..board import Board

ROUTE_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}  # E2
ASIAN_EXPRESS = 10  # E4
GLOBETROTTER = 10  # E5


@dataclass(frozen=True)
class TicketResult:
    ticket: str
    cities: tuple[str, str]
    points: int
    completed: bool
    shared: bool

    @property
    def score(self) -> int:
        return self.points if self.completed else -self.points


@dataclass(frozen=True)
class TeamScore:
    """One team's score sheet. ``rank`` is 1 for the winner; tied teams share a rank (E6)."""

    team: int
    route_points: int
    tickets: tuple[TicketResult, ...]
    longest_path: int
    asian_express: int
    globetrotter: int
    total: int
    rank: int

    @property
    def ticket_points(self) -> int:
        return sum(t.score for t in self.tickets)

    @property
    def completed(self) -> int:
        return sum(t.completed for t in self.tickets)


def connected(edges: Iterable[tuple[str, str]], a: str, b: str) -> bool:
    """Do the given edges join cities ``a`` and ``b``? (E3)"""
    component = components(edges)
    return a in component and b in component and component[a] == component[b]


def components(edges: Iterable[tuple[str, str]]) -> dict[str, str]:
    """City -> a representative city of its connected part, for the cities the edges touch (E3).
    Built once per team, it answers every ticket of the team."""
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


# --- longest continuous path (E4) -------------------------------------------------------------
#
# A trail (each route once, cities may repeat) is exactly a connected set of routes in which at
# most two cities meet an odd number of them (Euler). So the longest trail of a connected piece is
# its total length when it has at most two odd cities, and otherwise the heaviest such subset:
# found exactly by a bounded search on small pieces and by an integer program on the rest.

Edge = tuple[str, str, int]

SEARCH_BUDGET = 20_000  # walk() calls before the bounded search gives up for the integer program
LOCAL_PARITY_MAX_DEGREE = 8  # list a city's 2**degree parity inequalities only up to this degree


def longest_trail(edges: Iterable[Edge]) -> int:
    """Length (sum of route lengths) of the longest continuous path (E4).

    Each route is used at most once; cities may be revisited (as in the base game). Policy: two
    parallel tracks between the same cities (teammates may own both, K3) are two routes, and the
    path may use both. Route lengths must be positive (the loader allows 1 to 8). Exact; computed
    once per set of routes (the team game asks on every render).
    """
    key = tuple(sorted((min(a, b), max(a, b), w) for a, b, w in edges))
    if any(w <= 0 for _, _, w in key):
        raise ValueError("route lengths must be positive")
    return _longest_trail(key)


@lru_cache(maxsize=4096)
def _longest_trail(edges: tuple[Edge, ...]) -> int:
    pieces: dict[str, list[Edge]] = {}
    component = components((a, b) for a, b, _ in edges)
    for edge in edges:
        pieces.setdefault(component[edge[0]], []).append(edge)
    return max((_piece_trail(piece) for piece in pieces.values()), default=0)


def _odd_cities(edges: list[Edge]) -> int:
    degree: dict[str, int] = {}
    for a, b, _ in edges:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    return sum(d % 2 for d in degree.values())


def _piece_trail(edges: list[Edge]) -> int:
    """Longest trail of one connected piece."""
    if _odd_cities(edges) <= 2:
        return sum(w for _, _, w in edges)  # an Euler trail walks every route
    edges = _suppress_degree_two(edges)
    found = _bounded_search(edges, SEARCH_BUDGET)
    return found if found is not None else _trail_program(edges)


def _suppress_degree_two(edges: list[Edge]) -> list[Edge]:
    """Join the two routes at each city met by exactly two (a loop may result).

    Exact: a best trail uses both or neither, since one alone would end there and could go on
    along the other. Loops stay as (city, city, length): a trail through the city takes them.
    """
    edges = list(edges)
    changed = True
    while changed:
        changed = False
        at: dict[str, list[int]] = {}
        for i, (a, b, _) in enumerate(edges):
            at.setdefault(a, []).append(i)
            if b != a:
                at.setdefault(b, []).append(i)
        for city, ids in at.items():
            if len(ids) == 2 and all(city in edges[i][:2] and edges[i][0] != edges[i][1]
                                     for i in ids):
                (a1, b1, w1), (a2, b2, w2) = edges[ids[0]], edges[ids[1]]
                u = b1 if a1 == city else a1
                v = b2 if a2 == city else a2
                edges = [e for i, e in enumerate(edges) if i not in ids]
                edges.append((min(u, v), max(u, v), w1 + w2))
                changed = True
                break
    return edges


def _bounded_search(edges: list[Edge], budget: int) -> int | None:
    """Depth-first search over trails, or None after ``budget`` steps.

    Parallel routes are taken heaviest first: a trail using k of the routes between two cities may
    as well use the k heaviest, so the search never tries them in another order.
    """
    tracks: dict[tuple[str, str], list[int]] = {}
    for a, b, w in edges:
        tracks.setdefault((a, b), []).append(w)
        if a != b:
            tracks.setdefault((b, a), []).append(w)
    for ws in tracks.values():
        ws.sort(reverse=True)
    used = {pair: 0 for pair in tracks}
    neighbours: dict[str, list[str]] = {}
    for a, b in tracks:
        neighbours.setdefault(a, []).append(b)
    best = 0
    steps = 0

    def walk(city: str, length: int) -> bool:
        nonlocal best, steps
        steps += 1
        if steps > budget:
            return False
        best = max(best, length)
        for nxt in neighbours[city]:
            pair = (city, nxt)
            k = used[pair]
            if k < len(tracks[pair]):
                used[pair] = used[(nxt, city)] = k + 1
                ok = walk(nxt, length + tracks[pair][k])
                used[pair] = used[(nxt, city)] = k
                if not ok:
                    return False
        return True

    return best if all(walk(city, 0) for city in neighbours) else None


def _trail_program(edges: list[Edge]) -> int:
    """The heaviest connected set of routes with at most two odd cities, as an integer program
    (HiGHS through scipy): binary x (route taken), z (city touched), o (city odd), integer y with
    degree(x) = 2y + o and sum(o) <= 2; connectivity by cuts added while the optimum falls apart
    (a piece S holding touched city u, another touched city t outside: x(cut of S) >= z_u + z_t - 1).
    """
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_array

    cities = sorted({c for a, b, _ in edges for c in (a, b)})
    index = {c: i for i, c in enumerate(cities)}
    m, n = len(edges), len(cities)
    X, Z, ODD, Y = 0, m, m + n, m + 2 * n  # variable blocks
    size = m + 3 * n
    rows: list[dict[int, float]] = []
    low: list[float] = []
    high: list[float] = []

    def add(row: dict[int, float], lo: float, hi: float) -> None:
        rows.append(row)
        low.append(lo)
        high.append(hi)

    at: list[list[int]] = [[] for _ in cities]  # non-loop routes at each city
    degree = [0] * n
    for e, (a, b, _) in enumerate(edges):
        for c in {a, b}:
            add({X + e: 1, Z + index[c]: -1}, -np.inf, 0)  # a taken route touches its cities
        if a == b:
            degree[index[a]] += 2
        else:
            at[index[a]].append(e)
            at[index[b]].append(e)
            degree[index[a]] += 1
            degree[index[b]] += 1
    for v in range(n):
        row: dict[int, float] = {Y + v: -2, ODD + v: -1}
        for e, (a, b, _) in enumerate(edges):
            if index[a] == v or index[b] == v:
                row[X + e] = row.get(X + e, 0) + (2 if a == b else 1)
        add(row, 0, 0)  # degree parity
        add({**{X + e: 1 for e in at[v]}, Z + v: -1}, 0, np.inf)  # touched means a route here
        bits = [X + e for e in at[v]] + [ODD + v]
        if len(at[v]) <= LOCAL_PARITY_MAX_DEGREE:
            # The parity of this city's bits in full (their convex hull): for every odd subset F,
            # x(F) - x(rest) <= |F| - 1. It makes the relaxation far tighter than 2y + o alone.
            for mask in range(1 << len(bits)):
                if bin(mask).count("1") % 2:
                    add({b: (1 if mask >> k & 1 else -1) for k, b in enumerate(bits)},
                        -np.inf, bin(mask).count("1") - 1)
    add({ODD + v: 1 for v in range(n)}, -np.inf, 2)
    by_pair: dict[tuple[str, str], list[int]] = {}
    for e, (a, b, _) in enumerate(edges):
        by_pair.setdefault((a, b), []).append(e)
    for ids in by_pair.values():  # parallel routes: the heavier first (they are interchangeable)
        ids.sort(key=lambda e: -edges[e][2])
        for heavier, lighter in zip(ids, ids[1:]):
            add({X + heavier: 1, X + lighter: -1}, 0, np.inf)

    cost = np.zeros(size)
    cost[:m] = [-w for _, _, w in edges]
    upper = np.array([1] * (m + 2 * n) + [d // 2 for d in degree], dtype=float)
    integrality = np.ones(size)
    while True:
        r, c, v = [], [], []
        for i, row in enumerate(rows):
            for j, a in row.items():
                r.append(i)
                c.append(j)
                v.append(a)
        matrix = coo_array((v, (r, c)), shape=(len(rows), size)).tocsr()
        result = milp(cost, constraints=LinearConstraint(matrix, low, high),
                      integrality=integrality, bounds=Bounds(np.zeros(size), upper))
        if result.x is None:
            raise RuntimeError(f"longest path program failed: {result.message}")
        taken = [edges[e] for e in range(m) if result.x[X + e] > 0.5]
        part = components((a, b) for a, b, _ in taken)
        groups: dict[str, list[str]] = {}
        for city, root in part.items():
            groups.setdefault(root, []).append(city)
        if len(groups) <= 1:
            return sum(w for _, _, w in taken)
        pieces = list(groups.values())
        for s, piece in enumerate(pieces):
            inside = {index[c] for c in piece}
            cut = {X + e: 1 for e, (a, b, _) in enumerate(edges)
                   if (index[a] in inside) != (index[b] in inside)}
            u = index[piece[0]]
            for other in pieces[:s] + pieces[s + 1:]:
                t = index[other[0]]
                add({**cut, Z + u: -1, Z + t: -1}, -1, np.inf)


def score(
    board: Board,
    players: int,
    owners: dict[str, int],
    tickets: list[list[str]],
    team_tickets: list[list[str]],
) -> list[TeamScore]:
    """Score every team (E2-E6) from who owns which route and who holds which ticket."""
    teams = players // 2
    rows = []
    for team in range(teams):
        routes = [board.route(r) for r, s in owners.items() if s // 2 == team]
        route_points = sum(ROUTE_POINTS[r.length] for r in routes)
        component = components((r.a, r.b) for r in routes)
        results = []
        held = [(t, False) for s in (2 * team, 2 * team + 1) for t in tickets[s]]
        held += [(t, True) for t in team_tickets[team]]
        for tid, shared in held:
            t = board.ticket(tid)
            done = t.a in component and t.b in component and component[t.a] == component[t.b]
            results.append(TicketResult(tid, (t.a, t.b), t.points, done, shared))
        path = longest_trail([(r.a, r.b, r.length) for r in routes])
        rows.append((team, route_points, tuple(results), path))
    best_path = max(r[3] for r in rows)
    best_done = max(sum(t.completed for t in r[2]) for r in rows)
    sheets = []
    for team, route_points, results, path in rows:
        done = sum(t.completed for t in results)
        express = ASIAN_EXPRESS if path == best_path and best_path > 0 else 0  # E4: ties all score
        globe = GLOBETROTTER if done == best_done and best_done > 0 else 0  # E5: ties all score
        total = route_points + sum(t.score for t in results) + express + globe
        sheets.append((team, route_points, results, path, express, globe, total, done))
    # E6: points, then completed tickets, then the longest path.
    key = {s[0]: (s[6], s[7], s[3]) for s in sheets}
    return [
        TeamScore(team, rp, res, path, ex, gl, total,
                  rank=1 + sum(key[o] > key[team] for o in key))
        for team, rp, res, path, ex, gl, total, _ in sheets
    ]
