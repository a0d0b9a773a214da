"""The teacher's board: a table's public view as one HTML page to project (no kernel behind it).

It is drawn from the public view only: the fields every seat sees alike
(``ttrlib.plain.PUBLIC_FIELDS``, passed in as ``PublicView``: no other attribute exists to be
read), the public log and, once the game is over, the score sheets. So nothing a seat holds
privately can reach the page (I1). Big type for the back of a room at 1920x1080; a little script
long-polls the server for the next version (the board follows within a second of a move) and
steps back and forth through the log, one action a step, for a walk-through.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

import tornado.template

from .. import display, narration
from ..board import Board
from ..hints import DOING
from ..maps import board_description, board_svg
from ..seats import seat_name, team_count, team_name, team_of, team_seats
from ..state import TRAINS_PER_PLAYER, Phase
from ..words import plural
from .auth import TEMPLATES

LOG_LINES = 8


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


_FRAMES = tornado.template.Loader(str(TEMPLATES))  # autoescaped: every name and city


def frame_html(board: Board, table: str, public: PublicView, events, marks: list[int],
               scores, version: int, latest: int, bots: tuple = ()) -> str:
    """The board at version ``version`` (the template ``board_frame.html``): ``events`` is the
    public log and ``marks[k]`` the number of its events once ``k`` actions were played
    (``marks[0]``: the deal's), so event ``i`` came with step ``bisect_right(marks, i)``; the
    last step's are highlighted. ``bots``: the preset playing each seat (None for a learner)."""
    p = public
    if p.phase is Phase.OVER:
        winners = [team_name(s.team) for s in scores or [] if s.rank == 1]
        status = ("The game is over: " + (f"{winners[0]} wins!" if len(winners) == 1 else
                                          f"a tie between {' and '.join(winners)}!"))
    else:
        status = f"{seat_name(p.to_move)} ({team_name(team_of(p.to_move))}) {DOING[p.phase]}"
        if p.final_round:
            status += " · final round (E1)"
    context = {
        "status": status, "table": table, "short": _short_game(board, p),
        "when": "live" if version == latest else f"step {version} of {latest}",
        # the library's own pictures (SVG, cards), escaped where they are made
        "svg": board_svg(board, p.claimed, title=f"{plural(len(p.claimed), 'track')} claimed"),
        "words": board_description(board, p.claimed),
        "teams": _teams(p, bots), "log": _log(events, marks),
        "sheets": None, "rows": [], "tunnel": "", "face_up": "",
        "draw_pile": p.draw_pile_size, "discarded": len(p.discard),
        "ticket_deck": p.ticket_deck_size}
    if scores:
        context.update(_score_sheet(scores))
    else:
        context["tunnel"] = _tunnel_html(board, p)
        context["face_up"] = display.card_row_html(
            list(p.face_up), title="Face-up cards",
            labels=[f"slot {i}" for i in range(len(p.face_up))])
    return _FRAMES.load("board_frame.html").generate(**context).decode()


def _short_game(board: Board, p: PublicView) -> str:
    """"a short game, N trains each" for a table dealt fewer than 27 trains a player (C3's
    short-game policy, issue 32), else "". The public view has no field for the trains dealt,
    but it needs none: a player's trains only ever leave for the routes they claim (C3), so
    the trains left plus the lengths of the routes claimed are the trains dealt."""
    laid = [0] * p.players
    for route, seat in p.claimed.items():
        laid[seat] += board.route(route).length
    dealt = max(left + used for left, used in zip(p.trains, laid))
    return f"a short game, {dealt} trains each" if dealt < TRAINS_PER_PLAYER else ""


def _teams(p: PublicView, bots: tuple) -> list[dict]:
    return [{"name": team_name(team),
             "cardholder": plural(p.cardholder_sizes[team], "card"),
             "tickets": plural(p.team_ticket_counts[team], "shared ticket"),
             "seats": [{"name": seat_name(seat), "bot": bots[seat] if seat < len(bots) else None,
                        "to_move": seat == p.to_move and p.phase is not Phase.OVER,
                        "cards": p.hand_sizes[seat], "tickets": p.ticket_counts[seat],
                        "trains": p.trains[seat]} for seat in team_seats(team)]}
            for team in range(team_count(p.players))]


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


def _log(events, marks: list[int]) -> list[dict]:
    """The last lines of the log, each numbered by the step (action) it came with."""
    last = len(marks) - 1
    lines = []
    for i in range(max(0, len(events) - LOG_LINES), len(events)):
        text = narration.text(events[i])  # a line starts with a capital ("The game is over")
        step = bisect_right(marks, i)
        lines.append({"step": step, "new": step == last and last > 0,
                      "text": text[:1].upper() + text[1:]})
    return lines


def _score_sheet(sheets) -> dict:
    def signed(n: int) -> str:  # a real minus sign, as on the seats' score sheet
        return f"+{n}" if n > 0 else ("−" + str(-n) if n < 0 else "0")

    # (label, [(number, the detail under it)], bold); the detail keeps a narrow column whole
    rows = [("Routes (E2)", [(s.route_points, "") for s in sheets], False),
            ("Tickets (E3)", [(signed(s.ticket_points), f"{s.completed} of {len(s.tickets)} "
                               "done") for s in sheets], False),
            ("Asian Express (E4)", [(s.asian_express, f"longest path {s.longest_path}")
                                    for s in sheets], False),
            ("Globetrotter (E5)", [(s.globetrotter, "") for s in sheets], False),
            ("Total", [(s.total, "") for s in sheets], True),
            ("Rank (E6)", [(s.rank, "") for s in sheets], False)]
    return {"rows": rows, "sheets": [
        {"team": team_name(s.team),
         "tickets": [f"{'✓' if t.completed else '✗'} {t.cities[0]} - {t.cities[1]} "
                     f"({'+' if t.completed else '−'}{t.points})" for t in s.tickets]}
        for s in sheets]}


def page_context(table: str, frame: str, version: int) -> dict:
    """What ``board.html`` shows around the first frame (the script follows from there; the
    coach's review panel of a finished game, ``review_api``, comes with each step)."""
    return {"table": table, "frame": frame, "version": version, "css": _CSS}


_CSS = """
html { font-family: system-ui, "DejaVu Sans", Arial, sans-serif; background: #fafaf7;
  color: #1b1b1b; font-size: clamp(14px, 1.05vw, 24px); }
body { margin: 0; padding: 0.4rem 0.8rem; }
.tb-head { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem;
  flex-wrap: wrap; }
.tb-status { font-size: 1.8rem; font-weight: 800; }
.tb-when { font-size: 1.2rem; opacity: 0.8; }
.tb-controls { display: flex; gap: 0.5rem; align-items: center; margin: 0.2rem 0; }
.tb-controls button { font-size: 1.1rem; padding: 0.2rem 0.9rem; }
/* the projector's layout: the map two thirds of the width, the seats and the log beside it */
.tb-grid { display: grid; grid-template-columns: minmax(0, 68fr) minmax(0, 32fr); gap: 0.8rem;
  align-items: start; }
/* city names at least 24 px at 1920x1080: 22 map units on a map 1132 wide, drawn ~1270 px */
.tb-map .ttr-city-label { font-size: calc(22px * var(--label-grow, 1)); }
@media (max-width: 1000px) { .tb-grid { grid-template-columns: minmax(0, 1fr); }
  .tb-map .ttr-city-label { font-size: 16px; } }
@media (max-width: 600px) { th, td { padding: 0.1rem 0.3rem; } table { font-size: 0.95rem; }
  .tb-status { font-size: 1.4rem; } }
.tb-side { display: flex; flex-direction: column; gap: 0.5rem; }
.tb-table { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
.tb-piles { display: flex; flex-direction: column; gap: 0.2rem; font-size: 1.1rem; }
.tb-piles b { font-size: 1.4rem; }
.tb-tickets { font-size: 0.8rem; text-align: left; display: inline-block; }
.tb-detail { display: block; font-size: 0.8rem; opacity: 0.8; white-space: nowrap; }
table { border-collapse: collapse; font-size: 1.1rem; }
th, td { padding: 0.1rem 0.6rem; text-align: left; border-bottom: 1px solid #ccc; }
.tb-num { text-align: right; font-variant-numeric: tabular-nums; }
.tb-team th { background: #eceff1; font-weight: 700; }
.tb-move td { font-weight: 800; background: #fff3c4; }
.tb-bot { font-size: 0.85rem; font-weight: 700; color: #6b4f00; background: #f3e6c0;
  border-radius: 4px; padding: 0 0.3rem; white-space: nowrap; }
.tb-log h2, .tb-scores h2 { font-size: 1.2rem; margin: 0.1rem 0; }
.tb-hint { font-size: 0.8rem; font-weight: 400; opacity: 0.75; }
.tb-log ol { margin: 0; padding-left: 3.2rem; font-size: 1rem; }
.tb-log li.tb-new { font-weight: 800; background: #fff3c4; }
.tb-total td { font-weight: 800; }
.tb-scores { border: 3px solid #2e7d32; border-radius: 10px; padding: 0.3rem 0.5rem; }
.tb-scores { overflow-x: auto; }
.tb-scores table { font-size: 1rem; width: 100%; }
.tb-scores th, .tb-scores td { padding: 0.1rem 0.3rem; }
.tb-scores .tb-detail { white-space: normal; }
details { font-size: 0.9rem; }
/* the coach's review of a finished game: three lines of 24 px at 1920x1080 (1.2rem), read from
   the back of the room; the map gives up a little width for them (its city names stay 24 px:
   23 map units on a map ~1220 px wide), so the page still fits the projector's height */
.tb-review { border: 3px solid #1565c0; border-radius: 10px; padding: 0.1rem 0.5rem;
  margin: 0 0 0.3rem; background: #f3f8ff; }
.tb-rline { font-size: 1.2rem; margin: 0.1rem 0; line-height: 1.25; }
.tb-coach { font-weight: 700; color: #0d3c78; }
.tb-ask { font-weight: 800; }
.tb-review button { font-size: 1.2rem; padding: 0 0.4rem; margin: 0.05rem 0; }
@media (min-width: 1001px) {
  /* a long status and the table's line share one row: the table's line wraps in itself
     rather than taking a second row of the screen's height */
  .tb-head { flex-wrap: nowrap; } .tb-when { text-align: right; }
  .tb-reviewing .tb-grid { grid-template-columns: minmax(0, 65fr) minmax(0, 35fr); }
  .tb-reviewing .tb-map .ttr-city-label { font-size: calc(23px * var(--label-grow, 1)); }
  .tb-reviewing .tb-status { font-size: 1.5rem; } }
#pause[aria-pressed="true"] { background: #1565c0; color: #fff; }
.tb-short { font-weight: 700; }
"""

SCRIPT = """
const box = document.getElementById('frame'), at = document.getElementById('at');
const base = box.dataset.frame;
let shown = +box.dataset.version, latest = shown, step = null;
// The projector's page fits its screen: when the lines above the map take more rows (a long
// status, a review line that wraps) the map is drawn a little smaller rather than cut at the
// bottom, and its city names grow back (up to 15%) to the size the layout gave them.
function fitMap() {
  const svg = box.querySelector('.tb-map svg');
  if (!svg) return;
  svg.style.maxHeight = ''; svg.style.removeProperty('--label-grow');
  if (innerWidth <= 1000) return;  // one column: the page scrolls, the map keeps its width
  const full = svg.getBoundingClientRect(), room = innerHeight - full.top - scrollY - 4;
  if (full.bottom + scrollY <= innerHeight || room <= 0) return;
  svg.style.maxHeight = `${room}px`;
  svg.style.setProperty('--label-grow', Math.min(full.height / room, 1.15).toFixed(3));
}
addEventListener('resize', fitMap);
function paint(d) { box.innerHTML = d.html; box.dataset.version = shown = d.version;
  latest = d.latest; fitMap();
  at.textContent = step === null ? 'live' : `step ${d.version} of ${d.latest}`;
  review(d.version, pausing); }
// The coach's review panel (a finished game only: the server sends nothing while it goes on).
// In pause mode the server leaves the coach's moves out until the teacher reveals them.
const panel = document.getElementById('review'), pauseButton = document.getElementById('pause');
let pausing = false, reviewTimer = null;
async function review(n, hide) {
  clearTimeout(reviewTimer);
  try {
    const r = await fetch(`${panel.dataset.review}?at=${n}${hide ? '&pause=1' : ''}`);
    if (!r.ok || n !== shown) return;
    const d = await r.json();
    panel.hidden = pauseButton.hidden = d.state === 'playing';
    document.body.classList.toggle('tb-reviewing', !panel.hidden);
    panel.innerHTML = d.html;
    fitMap();
    if (d.state === 'waiting' || d.state === 'running')  // its progress, until it is ready
      reviewTimer = setTimeout(() => review(n, hide), 2000);
  } catch (e) { reviewTimer = setTimeout(() => review(n, hide), 5000); }
}
pauseButton.onclick = () => { pausing = !pausing;
  pauseButton.setAttribute('aria-pressed', pausing); review(shown, pausing); };
panel.addEventListener('click', ev => {
  if (ev.target.id === 'reveal') review(shown, false);
  const to = ev.target.closest('.tb-goto');
  if (to) go(+to.dataset.step);
});
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
fitMap(); review(shown, pausing);
document.addEventListener('keydown', ev => {
  if (ev.key === 'ArrowLeft') document.getElementById('back').click();
  if (ev.key === 'ArrowRight') document.getElementById('next').click();
});
follow();
"""
