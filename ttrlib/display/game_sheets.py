"""The sheets of a game in progress and at its end, as HTML tables: the players (public counts,
rule I1), the routes (claimed by whom, or open) and the score sheet (E2-E6). Each takes a seat's view (or
the sheets a seat may read) by its attributes, like every picture of this package."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from ..i18n import _, ngettext
from ..rules.scoring import TeamScore
from ..rules.tracks import closed_reason
from ..seats import seat_name, team_name, team_of, teammate
from ..state import TRAINS_PER_PLAYER
from ..words import count, plural
from .css import style
from .frames import layout_html
from .routes import route_html
from .tickets import tickets_html

_CSS = """
.ttr-table { border-collapse: collapse; margin: 2px 0; }
.ttr-table th, .ttr-table td { padding: 3px 10px; text-align: left; vertical-align: middle;
  border-bottom: 1px solid rgba(128,128,128,0.3); }
.ttr-table th { font-weight: 700; }
.ttr-table tr.ttr-me td { font-weight: 700; }
.ttr-table td.ttr-num { text-align: right; }
.ttr-table tr.ttr-section td { font-weight: 700; padding-top: 9px; border-bottom-width: 2px; }
.ttr-scroll { max-height: 380px; overflow-y: auto; padding-right: 6px; }
.ttr-win { font-size: 15px; font-weight: 800; margin: 4px 0; }
"""


def _fragment(body: str) -> str:
    """Markup of this module, in the display style (joins display fragments in layout_html)."""
    return f"<div class='ttr-root'>{style()}<style>{_CSS}</style>{body}</div>"


def _who(seat: int, me: int) -> str:
    tag = " (you)" if seat == me else (" (teammate)" if seat == teammate(me) else "")
    return f"{seat_name(seat)}{tag}"


def trains_each(view: Any) -> int:
    """The trains each player began with (C3, or fewer in a short game): a seat's trains left
    plus the length of its claimed tracks, both public, so any view can tell it."""
    lengths = {r.id: r.length for r in view.board.routes}
    return view.trains[0] + sum(lengths[rid] for rid, s in view.claimed.items() if s == 0)


def seat_line_html(view: Any, over: bool = False) -> str:
    """Whose screen this is, whose move, and what stays hidden from it (rule I1), in two short
    lines (a phone shows them above the game, issue 32.13). At the end the score sheet shows
    every ticket, so the line no longer says the teammate's tickets are hidden."""
    me, mate, team = seat_name(view.seat), seat_name(view.teammate), team_name(view.team)
    if over:
        turn = _("the game is over")
    else:
        turn = (_("your turn") if view.my_turn
                else _("{seat} to move").format(seat=seat_name(view.to_move)))
    hand = count(view.hand_sizes[view.teammate], "card")
    if over:
        hidden = _("{seat}'s hand ({cards}) stayed hidden (I1); the score sheet shows every "
                   "team's tickets.").format(seat=mate, cards=hand)
    else:
        hidden = ngettext("Hidden from you (I1): {seat}'s hand ({cards}), {n} private ticket.",
                          "Hidden from you (I1): {seat}'s hand ({cards}), {n} private tickets.",
                          view.ticket_counts[view.teammate]).format(
            seat=mate, cards=hand, n=view.ticket_counts[view.teammate])
    screen = html.escape(_("Screen of {seat}").format(seat=me))
    return (f"<div class='ttr-seat'><b>{screen}</b> ({html.escape(team)}) &middot; "
            f"{html.escape(turn)}<br><small>{html.escape(hidden)}</small></div>")


def draw_pile_html(size: int, discarded: int) -> str:
    """The draw pile's size, and how many cards are discarded (both public, C6)."""
    return _fragment(f"<div class='ttr-frame'><div class='ttr-head'>Draw pile</div>"
                     f"<div style='font-size:22px;font-weight:800'>{size}</div>"
                     f"<div class='ttr-sub'>cards; {discarded} discarded</div></div>")


def players_html(view: Any) -> str:
    """Public counts per seat: trains left, cards in hand, private tickets (rule I1)."""
    rows = "".join(
        f"<tr class='{'ttr-me' if s == view.seat else ''}'><td>{_who(s, view.seat)}</td>"
        f"<td>{team_name(team_of(s))}</td><td class='ttr-num'>{view.trains[s]}</td>"
        f"<td class='ttr-num'>{view.hand_sizes[s]}</td>"
        f"<td class='ttr-num'>{view.ticket_counts[s]}</td></tr>"
        for s in range(view.players))
    return _fragment(
        "<div class='ttr-frame'><div class='ttr-head'>Players</div><table class='ttr-table'>"
        f"<tr><th>Seat</th><th>Team</th><th>{_trains_head(view)}</th><th>Cards in hand</th>"
        f"<th>Private tickets</th></tr>{rows}</table></div>")


def _trains_head(view: Any) -> str:
    """'Trains left (of 27)', and a short game says so (C3 short-game policy)."""
    each = trains_each(view)
    short = "" if each == TRAINS_PER_PLAYER else ", a short game"
    return f"Trains left (of {each}{short})"


def routes_html(view: Any, payable: set[str]) -> str:
    """Every route: claimed (by whom) or open, grouped; tunnels show their reveal number."""
    board, me = view.board, view.seat
    groups: dict[str, list] = {}
    for r in sorted(board.routes, key=lambda r: (r.a, r.b, r.id)):
        owner = view.claimed.get(r.id)
        if owner is None:
            key = "Open routes (✓ = you can pay for it now)"
            closed = closed_reason(board, r, view.claimed, me, view.players)
            status = ("✓ you can pay now" if r.id in payable else
                      "closed to you (K3)" if closed else "open")
        else:
            key = f"{team_name(team_of(owner))}'s routes"
            status = f"claimed by {_who(owner, me)}"
        parallel = len(board.parallel(r)) + 1
        if parallel > 1:
            status += f" · {'double' if parallel == 2 else 'triple'} route"
        groups.setdefault(key, []).append(
            f"<tr><td>{route_html(r)}</td><td>{html.escape(status)}</td></tr>")
    mine = f"{team_name(view.team)}'s routes"
    order = sorted(groups, key=lambda k: (k != mine, k.startswith("Open"), k))
    rows = "".join(
        f"<tr class='ttr-section'><td colspan='2'>{html.escape(k)} ({plural(len(groups[k]), 'route')})</td></tr>"
        + "".join(groups[k]) for k in order)
    return _fragment(
        # A scrolled region must be reachable by keyboard (tabindex) and named (axe-core).
        "<div class='ttr-frame'><div class='ttr-head'>Routes</div>"
        "<div class='ttr-scroll' tabindex='0' role='region' aria-label='Routes'>"
        f"<table class='ttr-table'>{rows}</table></div></div>")


def score_sheet_html(board: Any, sheets: Sequence[TeamScore]) -> str:
    """The end-of-game score sheet per team (E2-E6), from sheets a seat may read, and each
    team's tickets, completed or failed, on ``board``."""
    head = "".join(f"<th>{team_name(s.team)}</th>" for s in sheets)

    def row(label: str, cells) -> str:
        return f"<tr><td>{label}</td>" + "".join(
            f"<td class='ttr-num'>{c}</td>" for c in cells) + "</tr>"

    def signed(n: int) -> str:
        return f"+{n}" if n > 0 else ("−" + str(-n) if n < 0 else "0")

    rows = [
        row("Route points (E2)", [s.route_points for s in sheets]),
        row("Tickets: completed − failed (E3)",
            [f"{signed(s.ticket_points)} ({s.completed} done, {len(s.tickets) - s.completed} "
             "failed)" for s in sheets]),
        row("Asian Express, longest path (E4)",
            [f"{s.asian_express} (path {s.longest_path})" for s in sheets]),
        row("Globetrotter, most tickets (E5)",
            [f"{s.globetrotter} ({plural(s.completed, 'ticket')})" for s in sheets]),
        row("<b>Total</b>", [f"<b>{s.total}</b>" for s in sheets]),
        row("Rank (ties: E6)", [f"{s.rank}" for s in sheets]),
    ]
    winners = [team_name(s.team) for s in sheets if s.rank == 1]
    verdict = (f"{winners[0]} wins!" if len(winners) == 1 else
               f"A tie between {' and '.join(winners)}!")
    table = _fragment(
        "<div class='ttr-frame'><div class='ttr-head'>Score sheet</div>"
        f"<div class='ttr-win'>{html.escape(verdict)}</div><table class='ttr-table'>"
        f"<tr><th></th>{head}</tr>{''.join(rows)}</table></div>")
    parts = [table]
    for s in sheets:
        status = {t.ticket: "completed" if t.completed else "failed" for t in s.tickets}
        for shared, label in ((True, "shared"), (False, "private")):
            ids = [t.ticket for t in s.tickets if t.shared is shared]
            parts.append(tickets_html(
                [board.ticket(t) for t in ids], f"{team_name(s.team)}: {label} tickets",
                statuses=status))
    return layout_html(*parts)
