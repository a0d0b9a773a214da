"""A whole seat's view (a ``PlayerView``, read by its attributes only: display never imports the
engine above the rules)."""

from __future__ import annotations

from typing import Any

from ..i18n import _
from ..seats import TEAM_NAMES, seat_name, team_name
from ..words import plural
from .cards import card_row_html, cardholder_html, hand_html, offlimits_html
from .frames import escape, layout_html, root
from .tickets import tickets_html


def view_html(view: Any) -> str:
    """What one seat may know (a ``PlayerView``, rule I1), as pictures: the seat, the face-up
    row, its own hand and tickets, the team's cardholders, the teammate's hand face down, and
    the public counts."""
    team = team_name(view.team)
    board = view.board
    intro = (f'<div class="ttr-head"><span>Seat {escape(seat_name(view.seat))} ({escape(team)})</span>'
             f'<span class="ttr-sub">phase: {escape(view.phase.value)}; '
             f'{escape(seat_name(view.to_move))} to move</span></div>')
    table = (f"draw pile {plural(view.draw_pile_size, 'card')} · discard {len(view.discard)} · "
             f"unseen from this seat {len(view.unseen)} · ticket deck {view.ticket_deck_size} · "
             f"routes claimed {len(view.claimed)}")
    parts = [
        root(f'<div class="ttr-frame">{intro}<div class="ttr-sub">{escape(table)}</div></div>'),
        card_row_html(list(view.face_up), title="Face-up cards",
                      labels=[f"slot {i}" for i in range(len(view.face_up))]),
        seat_cards_html(view),
        layout_html(
            tickets_html([board.ticket(t) for t in view.tickets], "Your private tickets"),
            tickets_html([board.ticket(t) for t in view.team_tickets],
                         f"{team} ticket cardholder (shared)"),
            direction="row",
        ),
    ]
    if view.ticket_offer:
        parts.append(tickets_html([board.ticket(t) for t in view.ticket_offer],
                                  "Tickets on offer to you"))
    return layout_html(*parts)


def seat_cards_html(view: Any, *, hand_title: str | None = None, mate_title: str | None = None,
                    direction: str = "row") -> str:
    """What a seat may pay with, its hand and its team's cardholder, beside its teammate's hand
    face down (K1: never the teammate's cards; I1: only their number is known)."""
    mate = seat_name(view.teammate)
    return layout_html(
        hand_html(view.hand, title=hand_title),
        cardholder_html(view.team_cardholder, TEAM_NAMES[view.team]),
        offlimits_html(view.hand_sizes[view.teammate],
                       mate_title or _("Teammate {seat}'s hand").format(seat=mate)),
        direction=direction,
    )
