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
    if not route.group:
        return None
    others = parallel_ids(board, route)
    taken = [owners[r] for r in others if r in owners]  # the seats that own the other tracks
    if not taken:
        return None
    if seat in taken:
        return "one player may not claim two tracks between the same two cities"
    if players >= 6 or route.group in board.open_groups:
        return None
    if len(others) == 1:
        return "with 4 players, once one track of a double route is claimed the other is closed"
    if len(taken) >= 2:
        return "with 4 players, only 2 of the 3 tracks of a triple route may be claimed"
    return None


# board id -> (board, route id -> ids of its parallel tracks); the board is kept so that its id
# is never reused while the entry exists. K3 is checked for every legal-action list, so the
# parallel tracks are looked up once per board.
_PARALLEL: dict[int, tuple[Board, dict[str, tuple[str, ...]]]] = {}


def parallel_ids(board: Board, route: Route) -> tuple[str, ...]:
    """The ids of the other tracks of ``route``'s double or triple route (K3)."""
    entry = _PARALLEL.get(id(board))
    if entry is None or entry[0] is not board:
        if len(_PARALLEL) > 64:  # tests build many small boards
            _PARALLEL.clear()
        table = {r.id: tuple(p.id for p in board.parallel(r)) for r in board.routes}
        entry = _PARALLEL[id(board)] = (board, table)
    return entry[1][route.id]
