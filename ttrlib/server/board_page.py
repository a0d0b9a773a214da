"""The teacher's board: a table's public view as one HTML page to project (no kernel behind it).

It is drawn from the public view only: the fields every seat sees alike
(``ttrlib.plain.PUBLIC_FIELDS``, passed in as ``PublicView``: no other attribute exists to be
read), the public log and, once the game is over, the score sheets. So nothing a seat holds
privately can reach the page (I1). Big type for the back of a room at 1920x1080; a little script
long-polls the server for the next version (the board follows within a second of a move) and
steps back and forth through the log, one action a step, for a walk-through.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from .. import display, narration
from ..board import Board
from ..maps import board_description, board_svg
from ..seats import seat_name, team_count, team_name, team_of, team_seats
from ..state import Phase
from ..words import plural

#: what the table waits for, in words (the seat to move is named before it)
_WAITS = {
    Phase.SETUP_TICKETS: "chooses setup tickets (T1)",
    Phase.TURN: "takes a turn",
    Phase.PLACE_CARD: "places the card just drawn (D1)",
    Phase.SECOND_CARD: "draws a second card (D1)",
    Phase.CHOOSE_TICKETS: "chooses among drawn tickets (T2)",
    Phase.TUNNEL: "pays the tunnel's extra cards or takes the cards back (U2, U3)",
}
LOG_LINES = 10


@dataclass(frozen=True)
class PublicView:
    """The public fields of a view (``ttrlib.plain.PUBLIC_FIELDS``) and nothing else."""

    players: int
    phase: Phase
    to_move: int
    face_up: tuple
    discard: Any
    draw_pile_size: int
    ticket_deck_size: int
    claimed: dict
    trains: tuple
    hand_sizes: tuple
    ticket_counts: tuple
    team_ticket_counts: tuple
    cardholder_sizes: tuple
    tunnel: Any
    final_round: bool


def frame_html(board: Board, table: str, public: PublicView, events, new_from: int,
               scores, version: int, latest: int) -> str:
    """The board at one version: ``events`` is the public log, of which the events from
    ``new_from`` on came with the last action (shown as "just now")."""
    e = html.escape
    p = public
    if p.phase is Phase.OVER:
        winners = [team_name(s.team) for s in scores or [] if s.rank == 1]
        status = ("The game is over: " + (f"{winners[0]} wins!" if len(winners) == 1 else
                                          f"a tie between {' and '.join(winners)}!"))
    else:
        status = f"{seat_name(p.to_move)} ({team_name(team_of(p.to_move))}) {_WAITS[p.phase]}"
        if p.final_round:
            status += " · final round (E1)"
    when = "live" if version == latest else f"step {version} of {latest}"
    head = (f"<header class='tb-head'><div class='tb-status'>{e(status)}</div>"
            f"<div class='tb-when'>Table {e(table)} · {e(when)}</div></header>")
    svg = board_svg(board, p.claimed, title=f"{plural(len(p.claimed), 'track')} claimed")
    words = e(board_description(board, p.claimed))
    left = (f"<section class='tb-map'>{svg}<details><summary>The map in words</summary>"
            f"<p>{words}</p></details></section>")
    right = "".join([
        _scores_html(scores) if scores else "",
        _seats_html(p),
        _tunnel_html(board, p),
        "<div class='tb-table'>",
        display.card_row_html(list(p.face_up), title="Face-up cards",
                              labels=[f"slot {i}" for i in range(len(p.face_up))]),
        f"<div class='tb-piles'><span><b>{p.draw_pile_size}</b> in the draw pile</span>"
        f"<span><b>{len(p.discard)}</b> discarded</span>"
        f"<span><b>{p.ticket_deck_size}</b> tickets in the deck</span></div></div>",
        _log_html(events, new_from),
    ])
    return f"{head}<div class='tb-grid'>{left}<section class='tb-side'>{right}</section></div>"


def _seats_html(p: PublicView) -> str:
    rows = []
    for team in range(team_count(p.players)):
        rows.append(f"<tr class='tb-team'><th colspan='4'>{team_name(team)} · cardholder: "
                    f"{plural(p.cardholder_sizes[team], 'card')} · "
                    f"{plural(p.team_ticket_counts[team], 'shared ticket')}</th></tr>")
        for seat in team_seats(team):
            mark = " class='tb-move'" if seat == p.to_move and p.phase is not Phase.OVER else ""
            arrow = "▶ " if mark else ""
            rows.append(f"<tr{mark}><td>{arrow}{seat_name(seat)}</td>"
                        f"<td class='tb-num'>{p.hand_sizes[seat]}</td>"
                        f"<td class='tb-num'>{p.ticket_counts[seat]}</td>"
                        f"<td class='tb-num'>{p.trains[seat]}</td></tr>")
    return ("<table class='tb-seats'><tr><th>Seat</th><th>Cards</th><th>Tickets</th>"
            f"<th>Trains</th></tr>{''.join(rows)}</table>")


def _tunnel_html(board: Board, p: PublicView) -> str:
    t = p.tunnel
    if t is None:
        return ""
    route = board.route(t.route)
    return display.layout_html(
        display.cards_html(t.laid, title=f"{seat_name(t.seat)} lays down for the tunnel "
                                        f"{route.a} - {route.b}"),
        display.card_row_html(list(t.revealed), title="Revealed (U1)",
                              empty_text="nothing left to reveal (U6)"),
        direction="row")


def _log_html(events, new_from: int) -> str:
    start = max(0, len(events) - LOG_LINES)

    def line(event) -> str:  # a line of the list starts with a capital ("The game is over")
        text = narration.text(event)
        return html.escape(text[:1].upper() + text[1:])

    items = "".join(f"<li{' class=tb-new' if i >= new_from else ''}>{line(events[i])}</li>"
                    for i in range(start, len(events)))
    return f"<div class='tb-log'><h2>What happened</h2><ol start='{start + 1}'>{items}</ol></div>"


def _scores_html(sheets) -> str:
    e = html.escape
    head = "".join(f"<th>{team_name(s.team)}</th>" for s in sheets)

    def row(label, cells):
        return f"<tr><td>{label}</td>" + "".join(f"<td class='tb-num'>{c}</td>" for c in cells)

    def tickets(s):
        return "<span class='tb-tickets'>" + "<br>".join(
            f"{'✓' if t.completed else '✗'} {e(t.cities[0])} - {e(t.cities[1])} "
            f"({'+' if t.completed else '−'}{t.points})" for t in s.tickets) + "</span>"

    def signed(n: int) -> str:  # a real minus sign, as on the seats' score sheet
        return f"+{n}" if n > 0 else ("−" + str(-n) if n < 0 else "0")

    def detail(text: str) -> str:  # under the number, so a narrow column never breaks it
        return f"<span class='tb-detail'>{e(text)}</span>"

    return ("<div class='tb-scores'><h2>Score sheet</h2><table>"
            f"<tr><th></th>{head}</tr>"
            + row("Routes (E2)", [s.route_points for s in sheets])
            + row("Tickets (E3)", [signed(s.ticket_points) + detail(
                f"{s.completed} of {len(s.tickets)} done") for s in sheets])
            + row("Asian Express (E4)", [str(s.asian_express) + detail(
                f"longest path {s.longest_path}") for s in sheets])
            + row("Globetrotter (E5)", [s.globetrotter for s in sheets])
            + row("<b>Total</b>", [f"<b>{s.total}</b>" for s in sheets])
            + row("Rank (E6)", [s.rank for s in sheets])
            + row("Tickets", [tickets(s) for s in sheets]) + "</table></div>")


_CSS = """
html { font-family: system-ui, "DejaVu Sans", Arial, sans-serif; background: #fafaf7;
  color: #1b1b1b; font-size: clamp(15px, 1.1vw, 24px); }
body { margin: 0; padding: 0.6rem 1rem; }
.tb-head { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem;
  flex-wrap: wrap; }
.tb-status { font-size: 2rem; font-weight: 800; }
.tb-when { font-size: 1.2rem; opacity: 0.8; }
.tb-controls { display: flex; gap: 0.5rem; align-items: center; margin: 0.3rem 0; }
.tb-controls button { font-size: 1.1rem; padding: 0.2rem 0.9rem; }
.tb-grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem;
  align-items: start; }
@media (max-width: 1000px) { .tb-grid { grid-template-columns: 1fr; } }
.tb-side { display: flex; flex-direction: column; gap: 0.6rem; }
.tb-table { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
.tb-side .ttr-root { zoom: 1.2; }
.tb-piles { display: flex; flex-direction: column; gap: 0.2rem; font-size: 1.2rem; }
.tb-piles b { font-size: 1.6rem; }
.tb-tickets { font-size: 0.85rem; text-align: left; display: inline-block; }
.tb-detail { display: block; font-size: 0.8rem; opacity: 0.8; white-space: nowrap; }
table { border-collapse: collapse; font-size: 1.2rem; }
th, td { padding: 0.15rem 0.7rem; text-align: left; border-bottom: 1px solid #ccc; }
.tb-num { text-align: right; font-variant-numeric: tabular-nums; }
.tb-team th { background: #eceff1; font-weight: 700; }
.tb-move td { font-weight: 800; background: #fff3c4; }
.tb-log h2, .tb-scores h2 { font-size: 1.3rem; margin: 0.2rem 0; }
.tb-log ol { margin: 0; padding-left: 2.6rem; font-size: 1.1rem; }
.tb-log li.tb-new { font-weight: 800; background: #fff3c4; }
.tb-scores { border: 3px solid #2e7d32; border-radius: 10px; padding: 0.4rem 0.6rem; }
details { font-size: 0.9rem; }
"""

_SCRIPT = """
const box = document.getElementById('frame'), at = document.getElementById('at');
const base = location.pathname.replace(/\\/board$/, '/board/frame');
let shown = +box.dataset.version, latest = shown, step = null;
function paint(d) { box.innerHTML = d.html; box.dataset.version = shown = d.version;
  latest = d.latest;
  at.textContent = step === null ? 'live' : `step ${d.version} of ${d.latest}`; }
async function follow() {
  for (;;) {
    try {
      const r = await fetch(`${base}?after=${step === null ? shown : latest}`);
      if (!r.ok) throw new Error(r.status);
      const d = await r.json();
      if (step === null) paint(d); else latest = d.latest;
    } catch (e) { await new Promise(ok => setTimeout(ok, 2000)); }
  }
}
async function go(n) {
  if (n === null || n >= latest) { step = null; n = latest; } else { step = Math.max(0, n); n = step; }
  const r = await fetch(`${base}?at=${n}`);
  if (r.ok) paint(await r.json());
}
document.getElementById('back').onclick = () => go((step === null ? latest : step) - 1);
document.getElementById('next').onclick = () => go(step === null ? null : step + 1);
document.getElementById('live').onclick = () => go(null);
document.addEventListener('keydown', ev => {
  if (ev.key === 'ArrowLeft') document.getElementById('back').click();
  if (ev.key === 'ArrowRight') document.getElementById('next').click();
});
follow();
"""


def page_html(table: str, frame: str, version: int) -> str:
    """The whole page, showing ``frame`` until the script has the next version."""
    e = html.escape
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>Table {e(table)}: the board</title><style>{_CSS}</style></head><body>"
            "<nav class='tb-controls' aria-label='Step through the game'>"
            "<button id='back' title='One action back (left arrow)'>◀ Back</button>"
            "<button id='next' title='One action forward (right arrow)'>Forward ▶</button>"
            "<button id='live'>Live</button><span id='at'>live</span></nav>"
            f"<main id='frame' data-version='{version}'>{frame}</main>"
            f"<script>{_SCRIPT}</script></body></html>")
