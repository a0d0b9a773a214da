"""Lesson 06 (play a team game): a bot game watched to its end, the score sheet recounted line by
line, save and resume, and the fixed positions of the exercises.

Every table here is built from the engine's own results (``Game.scores()``, the public log); the
recount in ``score_check_html`` applies rules E2-E5 again from the claimed routes and tickets.
"""

from __future__ import annotations

import html
import json

from ..actions import Claim
from ..bots import GreedyBot, decide, play
from ..cards import CardCounts
from ..display import Markup, table_html
from ..errors import SaveError
from ..events import FinalRound
from ..game import END_TRIGGER_TRAINS, Game
from ..rules.scoring import ROUTE_POINTS
from ..seats import seat_name, team_name, team_of, team_seats
from ..words import plural

__all__ = ["watched_game", "final_round_html", "score_check_html", "ranking_html",
           "resume_story", "route_points_html", "ticket_position", "last_turn_position",
           "LAST_TURN_ROUTE", "last_turn_claim", "last_turn_html"]


class _Watch:
    """Pass decisions to a bot, noting (seat, final round started?, trains per seat) each time."""

    def __init__(self, bot, notes: list):
        self.bot, self.notes = bot, notes

    def choose(self, view, legal):
        self.notes.append((view.seat, view.final_round, view.trains))
        return self.bot.choose(view, legal)


def watched_game(seed: int):
    """Four ``GreedyBot``s play a 4-player game to the end; returns (game, score sheets, notes)
    with one note per decision: (seat, final round started?, trains per seat)."""
    notes: list = []
    game = Game.new(players=4, seed=seed)
    bots = [_Watch(GreedyBot(seed=seed + 1 + seat), notes) for seat in range(game.players)]
    sheets = play(game, bots)
    return game, sheets, notes


def final_round_html(game: Game, notes: list) -> str:
    """Who triggered the final round (E1), the team's trains then, and the final turns in order."""
    trigger = next(e for e in game.events if isinstance(e, FinalRound))
    first = next(i for i, (_, final, _) in enumerate(notes) if final)
    trains = notes[first][2]
    seat = trigger.seat
    assert seat is not None  # E1: a seat's turn triggers the final round
    team = trigger.team
    mates = team_seats(team)
    final_turns: list[int] = []
    for s, _, _ in notes[first:]:
        if not final_turns or final_turns[-1] != s:  # a new turn starts when the seat changes
            final_turns.append(s)
    every = sorted(final_turns) == list(range(game.players)) and final_turns[-1] == seat
    return (
        f"<p>The game lasted {game.turns} turns. At the end of {seat_name(seat)}'s turn, "
        f"{team_name(team)} had {trains[mates[0]]} + {trains[mates[1]]} = "
        f"{plural(sum(trains[s] for s in mates), 'train')}, {END_TRIGGER_TRAINS} or fewer, so the "
        "final round began (E1).</p>"
        f"<p>The final turns, in order: <b>{' → '.join(seat_name(s) for s in final_turns)}</b>. "
        + ("Every player had exactly one final turn, and the player whose turn triggered the end "
           "played last." if every else "(This does not match rule E1!)") + "</p>")


def score_check_html(game: Game, sheets) -> str:
    """Each team's score recounted from the claimed routes and the tickets (E2-E5), beside the
    engine's total."""
    board = game.board
    rows = []
    for sheet in sheets:
        team = sheet.team
        routes = [board.route(r) for r, seat in game.claimed.items() if team_of(seat) == team]
        route_points = sum(ROUTE_POINTS[r.length] for r in routes)
        done = [t for t in sheet.tickets if t.completed]
        failed = [t for t in sheet.tickets if not t.completed]
        plus, minus = sum(t.points for t in done), sum(t.points for t in failed)
        total = route_points + plus - minus + sheet.asian_express + sheet.globetrotter
        same = (route_points, plus - minus, total) == (sheet.route_points, sheet.ticket_points,
                                                       sheet.total)
        tickets = (f"{len(done)} done: +{plus}<br>{len(failed)} failed: "
                   f"{f'−{minus}' if minus else 0}")
        rows.append((team_name(team), f"{plural(len(routes), 'route')}: {route_points}", Markup(tickets),
                     f"path of {sheet.longest_path}: {sheet.asian_express}",
                     f"{plural(sheet.completed, 'ticket')} done: {sheet.globetrotter}",
                     Markup(f"<b>{total}</b>"), "yes ✓" if same else "NO ✗"))
    return table_html(("team", "routes (E2)", "tickets (E3)", "Asian Express (E4)",
                       "Globetrotter (E5)", "total", "same as the sheet"), rows)


def ranking_html(sheets) -> str:
    """The ranking (E6): points, then completed tickets, then the longest path."""
    rows = [(s.rank, team_name(s.team), s.total, s.completed, s.longest_path)
            for s in sorted(sheets, key=lambda s: s.rank)]
    winners = [team_name(s.team) for s in sheets if s.rank == 1]
    verdict = (f"{winners[0]} wins." if len(winners) == 1
               else f"A tie between {' and '.join(winners)}.")
    return table_html(("rank", "team", "points", "completed tickets (first tie-break)",
                       "longest path (second tie-break)"), rows,
                      after=f"<p>{html.escape(verdict)}</p>")


def resume_story(seed: int | None, turns: int = 40) -> str:
    """Play ``turns`` turns, save with ``Game.to_json``, resume with ``Game.from_json``, finish
    both games with the same bots; then try to load a tampered copy. The result in words.

    The game is the learner's own: for a game number ``seed`` it is dealt through the
    installation's key (:mod:`ttrlib.deals`, label "resume story", so it is not the game the
    widgets deal for that number), for ``None`` from random bits; the bots are seeded from it."""
    from .. import deals

    root = deals.random_bits() if seed is None else deals.keyed_seed("resume story", 4, str(seed))
    return _resume_story(root, turns)


def resume_story_box(seed: int | None):
    """The resume story (``resume_story``) in a box the lesson can fill again: a classroom page
    shows a random game's story dealt ahead of time, and ``follow_the_address`` tells game N's
    if the learner's address asks for it."""
    import ipywidgets

    return ipywidgets.HTML(_story_page(resume_story(seed)))


def _story_page(markup: str) -> str:
    # in the page's own type: a widget's HTML is set smaller than the lesson's text around it
    return ('<div style="font-size:var(--jp-content-font-size1,14px);'
            f'line-height:var(--jp-content-line-height,1.6)">{markup}</div>')


def follow_the_address(story, team_game) -> None:
    """Lesson 06's last cell (``lessons.deal_from_the_address``): the resume story and
    ``team_game`` (a ``TeamGame``), dealt ahead at random, are dealt game N if the learner's
    address asks for ``?seed=N``."""
    from . import deal_from_the_address

    seed = deal_from_the_address(team_game)
    if seed is not None:
        story.value = _story_page(resume_story(seed))


#: moves each copy of the resume story plays after the save, at most: after turn 40 a bot game
#: ended within 270 moves in 298 of 300 sampled deals. A guard, not an expected end: bots once
#: looped for ever on a tunnel they could not pay (5 of 2,300 deals, CI of 7 Dec), which
#: ``GreedyBot`` now avoids by not retrying the tunnel it has just withdrawn from.
RESUME_MOVES = 1_000


def _resume_story(root: int, turns: int) -> str:
    def bots(base: int) -> list[GreedyBot]:
        return [GreedyBot(seed=[root, base, seat]) for seat in range(4)]

    original = Game.new(players=4, seed=root)
    halfway = bots(100)
    while original.turns < turns and not original.is_over:
        original.apply(decide(original, halfway[original.to_move]))
    text = original.to_json()
    resumed = Game.from_json(text)
    for game in (original, resumed):  # the same bots, the same number of moves
        players = bots(200)
        for _move in range(RESUME_MOVES):
            if game.is_over:
                break
            game.apply(decide(game, players[game.to_move]))
    same = original.to_json() == resumed.to_json()
    if not original.is_over:
        return (
            f"<p>A game was saved after {turns} turns and resumed from the saved text, and both "
            f"copies were played on by the same bots for {RESUME_MOVES:,} moves. Neither ended "
            "(the bots went round in circles). The two copies were "
            f"{'exactly the same, move for move' if same else 'DIFFERENT'} all the way.</p>"
            + _tamper_story(text))
    totals = ", ".join(f"{team_name(s.team)} {s.total}" for s in original.scores())
    return (
        f"<p>A game was saved after {turns} turns, resumed from the saved text, and both copies "
        f"were played to the end by the same bots. Final totals: {totals}. The two games ended "
        f"{'exactly the same, move for move' if same else 'DIFFERENTLY'}.</p>"
        + _tamper_story(text))


def _tamper_story(text: str) -> str:
    """What happens to a copy of the save ``text`` with one field changed (5 players)."""
    data = json.loads(text)
    data["players"] = 5
    try:
        Game.from_json(json.dumps(data))
        refused = "was accepted (this should not happen)"
    except SaveError as err:
        refused = f"was refused with the message “{html.escape(str(err))}”"
    return (f"<p>A copy of the save with one field changed (5 players instead of 4) {refused}, "
            "and no half-built game came out of it.</p>")


def route_points_html() -> str:
    """Rule E2 as a table: route length and its points."""
    head = "".join(f"<th>{length}</th>" for length in ROUTE_POINTS)
    cells = "".join(f"<td>{points}</td>" for points in ROUTE_POINTS.values())
    return (f"<table><tr><th>route length</th>{head}</tr><tr><th>points (E2)</th>{cells}</tr>"
            "</table>")


# --- the exercises' fixed positions ----------------------------------------------------------

def ticket_position() -> Game:
    """A small end position: A1 owns Mandalay - Rangoon and Hanoi - Kunming, A2 owns Kunming -
    Mandalay; A1 holds ticket T12 privately, A2 holds T07, and Team A's ticket cardholder T21."""
    return Game.from_position(claimed={"mandalay-rangoon-1": 0, "hanoi-kunming": 0,
                                       "kunming-mandalay": 1},
                              tickets=[["T12"], ["T07"], [], []], team_tickets=[["T21"], []])


#: The route B1 claims in the last-turn exercise: 2 spaces, yellow.
LAST_TURN_ROUTE = "mandalay-rangoon-1"


#: Late in a game: routes already claimed (route -> seat), so that A1 has 20 trains left, A2 18,
#: B1 and B2 3 each (C3: 27 each at the start).
_LATE_CLAIMS = {"kashgar-lanchow": 2, "lanchow-lhasa": 2, "harbin-ulanbator": 2,
                "karachi-lahore": 2, "kabul-karachi": 3, "calcutta-delhi-1": 3,
                "calcutta-madras": 3, "hankow-peking-1": 3, "bombay-karachi": 3,
                "lanchow-ulanbator": 0, "kabul-rawalpindi": 0, "peking-shanghai-1": 1,
                "bombay-delhi-1": 1}


def last_turn_position() -> Game:
    """B1 to move with 3 trains and 2 yellow cards; B2 has 3 trains, A1 and A2 plenty."""
    return Game.from_position(
        hands=[CardCounts(red=2), CardCounts(blue=2), CardCounts(yellow=2), CardCounts(green=2)],
        claimed=_LATE_CLAIMS, to_move=2)


def last_turn_claim() -> Claim:
    return Claim(LAST_TURN_ROUTE, CardCounts(yellow=2), CardCounts())


def last_turn_html(game: Game) -> str:
    """The last-turn case: trains per seat in turn order (C2) and B1's claim."""
    route = game.board.route(LAST_TURN_ROUTE)
    trains = game.view(0).trains
    cells = "".join(f"<td>{trains[s]}</td>" for s in range(game.players))
    head = "".join(f"<th>{seat_name(s)}</th>" for s in range(game.players))
    return (f"<table><tr><th>seat (turn order, C2)</th>{head}</tr><tr><th>trains left</th>"
            f"{cells}</tr></table><p>{seat_name(game.to_move)} is to move and claims "
            f"{route.a} – {route.b} ({route.length} spaces), which takes {route.length} of "
            f"{seat_name(game.to_move)}'s trains.</p>")
