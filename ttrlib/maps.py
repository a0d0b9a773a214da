"""A picture of a board with matplotlib: cities at their ``positions``, every track in its colour
(gray tracks dashed), parallel tracks side by side, tunnels marked with the number of cards they
turn up (U1), and claimed tracks marked with the team that owns them.

``import ttrlib.maps`` imports matplotlib; ``import ttrlib`` does not.
"""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np

from .board import Board
from .display import CARD_LOOKS
from .game import TEAM_NAMES

GRAY = "#9e9e9e"
TEAM_INK = ("#263238", "#ffffff", "#6d4c41")  # badges of teams A, B, C
# Nudges (points) for labels that would sit on a track on the teaching board; other boards
# simply get the default offset.
_LABEL_NUDGE = {"Calcutta": (-16, -14), "Dacca": (5, 3), "Canton": (-14, 8),
                "Hong Kong": (5, -11), "Nanning": (-22, 7), "Hanoi": (-30, -13),
                "Kathmandu": (-34, -15), "Lahore": (-36, 2), "Rawalpindi": (6, -3),
                "Xi'an": (6, -2)}


def draw_board(board: Board, claimed: Mapping[str, int] | None = None, *, ax=None,
               title: str | None = None):
    """Draw ``board``; ``claimed`` maps route ids to the seat that owns them (seat // 2 is the
    team, rule C2). Returns the matplotlib axes. Needs the board file's ``positions``."""
    if not board.positions:
        raise ValueError(f"board {board.name!r} has no 'positions' table, so it cannot be drawn")
    claimed = dict(claimed or {})
    if ax is None:
        _, ax = plt.subplots(figsize=(11, 7.5))
    where = board.positions
    for r in board.routes:
        (x1, y1), (x2, y2) = where[r.a], where[r.b]
        tracks = sorted([r, *board.parallel(r)], key=lambda t: t.id)
        offset = tracks.index(r) - (len(tracks) - 1) / 2
        dx, dy = x2 - x1, y2 - y1
        norm = np.hypot(dx, dy)
        nx, ny = -dy / norm * 0.35 * offset, dx / norm * 0.35 * offset
        xs, ys = [x1 + nx, x2 + nx], [y1 + ny, y2 + ny]
        colour = GRAY if r.is_gray else CARD_LOOKS[r.color].fill
        owner = claimed.get(r.id)
        # On a game's map the open tracks fade, so that the claimed ones stand out.
        alpha = 1.0 if owner is not None or not claimed else 0.3
        width = 4.4 if owner is not None else 3.2
        if colour.lower() in ("#f8f8f4", "#f7d330"):  # white and yellow get a dark edge
            ax.plot(xs, ys, color="#444444", lw=width + 1.4, solid_capstyle="round", zorder=1,
                    alpha=alpha)
        ax.plot(xs, ys, color=colour, lw=width, ls="--" if r.is_gray else "-",
                solid_capstyle="round", zorder=2, alpha=alpha)
        if owner is not None:
            team = owner // 2
            ax.text((xs[0] + xs[1]) / 2, (ys[0] + ys[1]) / 2, TEAM_NAMES[team], fontsize=7.5,
                    ha="center", va="center", fontweight="bold", zorder=4,
                    color="#263238" if team == 1 else "white",
                    bbox=dict(boxstyle="circle,pad=0.2", fc=TEAM_INK[team], ec="#263238", lw=1))
        if r.is_tunnel and r is tracks[0]:  # one marker per tunnel, at 60% of the way
            ax.text(x1 + 0.6 * dx, y1 + 0.6 * dy, f"▲{r.tunnel}", ha="center", va="center",
                    fontsize=9, zorder=3,
                    bbox=dict(boxstyle="round,pad=0.15", fc="#efe3d3", ec="#795548", lw=0.8))
    for city, (x, y) in where.items():
        ax.scatter([x], [y], s=46, color="#c0392b", edgecolor="white", zorder=5)
        ax.annotate(city, (x, y), xytext=_LABEL_NUDGE.get(city, (4, 4)),
                    textcoords="offset points", fontsize=8.5, fontweight="bold", zorder=6)
    tunnels = sum(r.is_tunnel for r in board.routes)
    ax.set_title(title or f"{board.name}: {len(board.cities)} cities, {len(board.routes)} tracks, "
                 f"{tunnels} tunnels", fontsize=11)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax
