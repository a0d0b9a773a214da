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


def longest_trail(edges: list[tuple[str, str, int]]) -> int:
    """Length (sum of route lengths) of the longest continuous path (E4).

    Each route is used at most once; cities may be revisited (as in the base game). Policy: two
    parallel tracks between the same cities (teammates may own both, K3) are two routes, and the
    path may use both. Exhaustive
    depth-first search over trails, which is fast for the few dozen routes a team owns.
    """
    adj: dict[str, list[tuple[str, int, int]]] = {}
    for i, (u, v, w) in enumerate(edges):
        adj.setdefault(u, []).append((v, w, i))
        adj.setdefault(v, []).append((u, w, i))
    used = [False] * len(edges)
    best = 0

    def walk(city: str, length: int) -> None:
        nonlocal best
        best = max(best, length)
        for nxt, w, i in adj[city]:
            if not used[i]:
                used[i] = True
                walk(nxt, length + w)
                used[i] = False

    for city in adj:
        walk(city, 0)
    return best


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
