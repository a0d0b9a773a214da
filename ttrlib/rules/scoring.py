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

from dataclasses import dataclass

from ..board import Board, components
from ..seats import team_count, team_of, team_seats
from .network import connected as connected  # kept importable from here (E3's test of a ticket)
from .network import longest_trail

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


def score(
    board: Board,
    players: int,
    owners: dict[str, int],
    tickets: list[list[str]],
    team_tickets: list[list[str]],
) -> list[TeamScore]:
    """Score every team (E2-E6) from who owns which route and who holds which ticket."""
    teams = team_count(players)
    rows = []
    for team in range(teams):
        routes = [board.route(r) for r, s in owners.items() if team_of(s) == team]
        route_points = sum(ROUTE_POINTS[r.length] for r in routes)
        component = components((r.a, r.b) for r in routes)
        results = []
        held = [(t, False) for s in team_seats(team) for t in tickets[s]]
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
    for team, route_points, team_results, path in rows:
        completed = sum(t.completed for t in team_results)
        express = ASIAN_EXPRESS if path == best_path and best_path > 0 else 0  # E4: ties all score
        globe = GLOBETROTTER if completed == best_done and best_done > 0 else 0  # E5: ties all score
        total = route_points + sum(t.score for t in team_results) + express + globe
        sheets.append((team, route_points, team_results, path, express, globe, total, completed))
    # E6: points, then completed tickets, then the longest path.
    key = {s[0]: (s[6], s[7], s[3]) for s in sheets}
    return [
        TeamScore(team, rp, res, path, ex, gl, total,
                  rank=1 + sum(key[o] > key[team] for o in key))
        for team, rp, res, path, ex, gl, total, _ in sheets
    ]
