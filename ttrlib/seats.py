"""Seats and teams (rule C2), at the bottom of the library: every layer may name a seat.

Seats are numbered 0..n-1 and named A1, A2, B1, B2 (, C1, C2): seat ``s`` plays for team
``s // 2`` and its teammate is ``s ^ 1``.
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

from .errors import ArgumentError, shown
from .i18n import _

TEAM_NAMES = "ABC"
PLAYER_COUNTS = (4, 6)  # C2: Team Asia is played by 4 or 6 players, in teams of two


def seat_name(seat: int) -> str:
    """``0 -> "A1"``, ``1 -> "A2"``, ``2 -> "B1"`` ... (rule C2)."""
    return f"{TEAM_NAMES[seat // 2]}{seat % 2 + 1}"


def team_name(team: int) -> str:
    """``0 -> "Team A"``, in the reader's language («Команда A»)."""
    return _("Team {letter}").format(letter=TEAM_NAMES[team])


def team_of(seat: int) -> int:
    return seat // 2


def teammate(seat: int) -> int:
    return seat ^ 1


def team_seats(team: int) -> tuple[int, int]:
    """The two seats of ``team`` (C2)."""
    return 2 * team, 2 * team + 1


def _whole(value: Any) -> bool:
    """A whole number (a numpy integer too), not a bool; a plain int first, fast (a view is
    built for every bot decision)."""
    return type(value) is int or (isinstance(value, Integral) and not isinstance(value, bool))


def check_seat(seat: Any, players: int, what: str = "seat") -> int:
    """``seat`` as an int if it is a seat of a ``players``-player game; else an
    ``ArgumentError`` naming the argument ``what``."""
    if not _whole(seat) or not 0 <= seat < players:
        raise ArgumentError(f"{what}: no seat {shown(seat)} in a {players}-player game "
                            f"(seats are 0-{players - 1})")
    return int(seat)


def check_team(team: Any, players: int) -> int:
    """``team`` as an int if it is a team of a ``players``-player game (else ``ArgumentError``)."""
    teams = team_count(players)
    if not _whole(team) or not 0 <= team < teams:
        raise ArgumentError(f"team: no team {shown(team)} in a {players}-player game "
                            f"(teams are 0-{teams - 1})")
    return int(team)


def team_count(players: int) -> int:
    """How many teams ``players`` players make: 2 for 4, 3 for 6 (rule C2)."""
    return players // 2
