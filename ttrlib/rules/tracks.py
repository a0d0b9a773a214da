"""Which tracks of a double or triple route are open (rule K3).

* 4 players: once one track of a double route is claimed the other is closed, except the groups
  the board lists in ``open_groups`` (Hong Kong - Canton). On a triple route only 2 of the 3
  tracks may be claimed (the two may be teammates).
* 6 players: every track is open.
* Policy (base rule, all player counts): one player never claims two tracks between the same
  two cities.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..board import Board, Route


def closed_reason(board: Board, route: Route, owners: Mapping[str, int], seat: int, players: int) -> str | None:
    """Why ``seat`` may not claim ``route`` under K3 (``None`` when the track is open)."""
    if route.id in owners:
        return f"{route.a} - {route.b} ({route.id}) is already claimed"
    others = board.parallel(route)
    if not others:
        return None
    taken = [r for r in others if r.id in owners]
    if any(owners[r.id] == seat for r in taken):
        return "one player may not claim two tracks between the same two cities"
    if players >= 6 or route.group in board.open_groups or not taken:
        return None
    if len(others) == 1:
        return "with 4 players, once one track of a double route is claimed the other is closed"
    if len(taken) >= 2:
        return "with 4 players, only 2 of the 3 tracks of a triple route may be claimed"
    return None
