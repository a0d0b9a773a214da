"""Seats and teams (rule C2), at the bottom of the library: every layer may name a seat.

Seats are numbered 0..n-1 and named A1, A2, B1, B2 (, C1, C2): seat ``s`` plays for team
``s // 2`` and its teammate is ``s ^ 1``.
"""

from __future__ import annotations

TEAM_NAMES = "ABC"
PLAYER_COUNTS = (4, 6)  # C2: Team Asia is played by 4 or 6 players, in teams of two


def seat_name(seat: int) -> str:
    """``0 -> "A1"``, ``1 -> "A2"``, ``2 -> "B1"`` ... (rule C2)."""
    return f"{TEAM_NAMES[seat // 2]}{seat % 2 + 1}"


def team_name(team: int) -> str:
    return f"Team {TEAM_NAMES[team]}"


def team_of(seat: int) -> int:
    return seat // 2


def teammate(seat: int) -> int:
    return seat ^ 1


def team_count(players: int) -> int:
    """How many teams ``players`` players make: 2 for 4, 3 for 6 (rule C2)."""
    return players // 2


def team_seats(team: int) -> tuple[int, int]:
    """The two seats of ``team``: ``0 -> (0, 1)`` (A1, A2), ``1 -> (2, 3)`` ... (rule C2)."""
    return (2 * team, 2 * team + 1)
