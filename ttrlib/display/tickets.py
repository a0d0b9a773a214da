"""Destination tickets: one ticket, a row of them, a teammate's hidden ones, and the tickets one
seat may see (rule I1)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..board import Ticket
from ..seats import seat_name, team_name
from ..words import plural
from .frames import escape, frame, layout_html, root

_STATUSES = {None, "completed", "failed"}


def _ticket(ticket: Ticket, status: str | None) -> str:
    if status not in _STATUSES:
        raise ValueError(f"status must be 'completed', 'failed' or None, not {status!r}")
    pts = ticket.points
    if status == "completed":
        badge = (
            f'<span class="ttr-points ttr-points-done">+{pts}'
            f'<span class="ttr-status">\u2713 done</span></span>'
        )
    elif status == "failed":
        badge = (
            f'<span class="ttr-points ttr-points-fail">\u2212{pts}'
            f'<span class="ttr-status">\u2717 failed</span></span>'
        )
    else:
        badge = f'<span class="ttr-points">{pts}</span>'
    tip = ticket.describe() + (f" \u2013 {status}" if status else "")
    return (
        f'<span class="ttr-ticket" title="{escape(tip)}" data-status="{escape(status or "open")}">'
        f'<span class="ttr-ticket-cities"><span class="ttr-city">{escape(ticket.a)}</span>'
        f'<span class="ttr-ticket-line"></span><span class="ttr-city">{escape(ticket.b)}</span></span>'
        f'<span class="ttr-ticket-side">{badge}<span class="ttr-ticket-id">{escape(ticket.id)}</span>'
        '</span></span>'
    )


def ticket_html(ticket: Ticket, *, status: str | None = None) -> str:
    """A destination ticket: its two cities and its points.

    ``status="completed"`` shows ``+points`` in green, ``"failed"`` shows ``−points`` in red
    (rule E3), ``None`` (still open) shows the plain value.
    """
    return root(_ticket(ticket, status), inline=True)


def tickets_html(
    tickets: Iterable[Ticket],
    title: str | None = None,
    *,
    statuses: Mapping[str, str | None] | None = None,
    empty_text: str = "no tickets",
) -> str:
    """Several tickets in a row; ``statuses`` maps ticket ids to ``"completed"`` / ``"failed"``."""
    tickets = list(tickets)
    statuses = statuses or {}
    if tickets:
        body = (
            '<div class="ttr-wrap">'
            + "".join(_ticket(t, statuses.get(t.id)) for t in tickets)
            + "</div>"
        )
    else:
        body = f'<div class="ttr-empty-text">{escape(empty_text)}</div>'
    if title is None:
        return root(body)
    return root(frame(body, title, sub=f"({plural(len(tickets), 'ticket')})"))


def hidden_tickets_html(count: int, title: str) -> str:
    """Tickets you may not read (a teammate's private ones): only their number (rule I1)."""
    backs = "".join(
        '<span class="ttr-ticket" style="width:46px;min-height:62px;background:#6d4c2f;'
        'color:#f6ead0;justify-content:center;align-items:center;font-weight:800">?</span>'
        for _ in range(min(count, 8))
    )
    more = f'<span class="ttr-label">+{count - 8} more</span>' if count > 8 else ""
    body = (f'<div class="ttr-row">{backs}{more}</div>' if count else
            '<div class="ttr-empty-text">no private tickets</div>')
    note = ('<div class="ttr-note">Only the number is public: your teammate\'s private tickets '
            "stay secret until the end (rule I1).</div>")
    return root(frame(body + note, title, pill=("lock", "off-limits"),
                        sub=f"({count} hidden)"))


def _ticket_deck_html(size: int) -> str:
    body = (f'<div style="font-size:22px;font-weight:800">{size}</div>'
            f'<div class="ttr-sub">{"ticket" if size == 1 else "tickets"} face down</div>')
    return root(frame(body, "Ticket deck"))


def ticket_table_html(view: Any, statuses: Mapping[str, str | None] | None = None) -> str:
    """The tickets one seat sees (a ``PlayerView``, rule I1): its own, the team's shared ones,
    the teammate's count, the ticket deck size. ``statuses`` as for :func:`tickets_html`."""

    board = view.board
    team = team_name(view.team)
    return layout_html(
        tickets_html([board.ticket(t) for t in view.tickets],
                     f"Your private tickets ({seat_name(view.seat)})", statuses=statuses,
                     empty_text="no private tickets"),
        tickets_html([board.ticket(t) for t in view.team_tickets],
                     f"{team} ticket cardholder (shared)", statuses=statuses, empty_text="empty"),
        hidden_tickets_html(view.ticket_counts[view.teammate],
                            f"Teammate {seat_name(view.teammate)}'s tickets"),
        _ticket_deck_html(view.ticket_deck_size),
        direction="row",
    )
