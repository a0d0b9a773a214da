"""Lesson 00 (Start here): the game's numbers in words, the lessons' table, one seat's view as
pictures and prose, the teaching board in words, and the exercise position.

Every number the lesson states is computed here from the engine, the board or the lesson
catalogue, never typed in.
"""

from __future__ import annotations

from pathlib import Path

from .. import display as pics
from ..board import Board, teaching_board
from ..cards import EMPTY, TRAIN_COLORS, CardCounts, Color, standard_deck
from ..game import (
    FACE_UP,
    PLAYER_COUNTS,
    STARTING_HAND,
    TEAM_NAMES,
    TRAINS_PER_PLAYER,
    Game,
    seat_name,
)
from ..seats import team_count
from . import catalog, plural, say, show, words_list

__all__ = ["player_counts", "team_asia_words", "deck_words",
           "lessons_table", "seat_screen", "public_counts_table", "board_words", "board_map", "map_words",
           "tunnels", "first_look", "k1_position", "k1_pictures", "K1_HANDS", "K1_CARDHOLDER"]


# --- the game's numbers ------------------------------------------------------------------------
def player_counts() -> list[int]:
    """The numbers of players the engine accepts (C2)."""
    return list(PLAYER_COUNTS)


def team_asia_words() -> str:
    """C2 in words, with the player, team and seat counts computed."""
    counts = player_counts()
    games = words_list([f"{n} players in {team_count(n)} teams" for n in counts], "or")
    smallest, largest = counts[0], counts[-1]
    seats = ", ".join(seat_name(s) for s in range(smallest))
    more = ", ".join(seat_name(s) for s in range(smallest, largest))
    return (f"*Team Asia* is *Ticket to Ride* for **teams of two**: {games} (C2). Teammates sit "
            f"together and play one after the other, so the seats go {seats} (and {more} with "
            f"{largest} players). Each player has their own {TRAINS_PER_PLAYER} trains in the "
            f"team colour, {2 * TRAINS_PER_PLAYER} for the team (C3), and their own private hand "
            f"of train cards (C4).")


def deck_words() -> str:
    """C1, C3, C4, C5 in words, counted from the engine's deck and constants."""
    deck = standard_deck()
    per_colour = sorted({deck[c] for c in TRAIN_COLORS})
    each = (f"{per_colour[0]} of each of the {len(TRAIN_COLORS)} colours" if len(per_colour) == 1
            else f"{len(TRAIN_COLORS)} colours")
    return (f"The train deck has **{len(deck)} cards** (C1): {each} and "
            f"{deck[Color.LOCOMOTIVE]} locomotives, which are wild. Each player starts with "
            f"{STARTING_HAND} private train cards (C4); {FACE_UP} cards lie face up for everybody "
            f"to take (C5); the team's train cardholder starts empty (C4).")


def _lesson_href(file: str) -> str:
    """The link to a lesson from the kernel's folder: in a translated copy (notebooks/ru) a lesson
    not yet translated is the English one a folder up, not a dead link (issue 35)."""
    here, up = Path(file), Path("..") / file
    return f"../{file}" if not here.exists() and up.exists() else file


def lessons_table(current: str = "00") -> str:
    """The lessons with their rules and times, from the lesson catalogue (one set of times)."""
    rows = ["| lesson | what you learn first | rules | time |", "|---|---|---|---|"]
    for entry in catalog.lessons():
        name = f"**{entry.name}**" + (" (this one)" if entry.id == current else "")
        link = name if entry.id == current else f"[{entry.name}]({_lesson_href(entry.file)})"
        rows.append(f"| {link} | {entry.goals[0]} | {', '.join(entry.rules)} | "
                    f"{entry.minutes}\u00a0min |")
    total = catalog.total_minutes()
    hours, minutes = divmod(total, 60)
    rows.append("")
    rows.append(f"All {len(catalog.lessons())} lessons take about **{total} minutes** "
                f"({hours} h {minutes} min) for a learner alone; a class may split them.")
    return "\n".join(rows)


# --- one seat's view ---------------------------------------------------------------------------
def seat_screen(view) -> None:
    """What one seat sees, as pictures (its hand, the team cardholder, the teammate's hand face
    down, the face-up row, the tickets), with a sentence in words (I1)."""
    from ..display import ticket_table_html

    mate = seat_name(view.teammate)
    team = view.name[0]
    say(f"We are **{view.name}**, on Team {team} with {mate}; it is "
        f"{seat_name(view.to_move)}'s move. {view.name} holds "
        f"{plural(len(view.hand), 'card')} in hand and sees every one of them; the Team {team} train "
        f"cardholder holds {plural(len(view.team_cardholder), 'card')}, which both teammates see; "
        f"{mate} holds {plural(view.hand_sizes[view.teammate], 'card')} that {view.name} may not "
        f"see: the view holds only their number (I1).")
    show(pics.seat_cards_html(view, hand_title=f"{view.name}'s hand", mate_title=f"{mate}'s hand"))
    show(pics.card_row_html(list(view.face_up), title="Face-up cards (everybody sees them, C5)",
                            labels=[f"slot {i}" for i in range(FACE_UP)]))
    say(f"The same goes for destination tickets: {view.name} reads its own "
        f"{plural(len(view.tickets), 'private ticket')} and the "
        f"{plural(len(view.team_tickets), 'ticket')} in the Team {team} ticket cardholder, and "
        f"knows only that {mate} keeps {plural(view.ticket_counts[view.teammate], 'ticket')} "
        f"(I1).")
    show(ticket_table_html(view))
    claimed = len(view.claimed)
    say(f"The board as {view.name} sees it: {plural(claimed, 'track')} claimed so far, and "
        f"the cities of the tickets {view.name} may read ringed.")
    board_map(view.board, view.claimed, seat=view.seat,
              tickets=list(view.tickets) + list(view.team_tickets),
              ticket_label="Tickets this seat reads")


def public_counts_table(view) -> str:
    """The public counts one seat's view holds about everybody (I1), as a table."""
    rows = ["| seat | cards in hand | private tickets | trains left |", "|---|---|---|---|"]
    for s in range(view.players):
        who = seat_name(s) + (" (us)" if s == view.seat else "")
        rows.append(f"| {who} | {view.hand_sizes[s]} | {view.ticket_counts[s]} | "
                    f"{view.trains[s]} |")
    rows += ["", "| team | train cardholder | ticket cardholder |", "|---|---|---|"]
    for t in range(team_count(view.players)):
        rows.append(f"| Team {TEAM_NAMES[t]} | {plural(view.cardholder_sizes[t], 'card')} | "
                    f"{plural(view.team_ticket_counts[t], 'ticket')} |")
    return "\n".join(rows)


def first_look(seed: int, turns: int = 12) -> Game:
    """A 4-player game in which bots have chosen their tickets and played ``turns`` turns."""
    from ..bots import GreedyBot, decide

    game = Game.new(players=4, seed=seed)
    bots = [GreedyBot(seed=seed + seat) for seat in range(game.players)]
    while game.turns < turns and not game.is_over:
        game.apply(decide(game, bots[game.to_move]))
    return game


# --- the teaching board ------------------------------------------------------------------------
def tunnels(board: Board | None = None):
    board = board or teaching_board()
    return [r for r in board.routes if r.is_tunnel]


def board_words(board: Board | None = None) -> str:
    """What the teaching board holds, counted, and a text description of its map."""
    board = board or teaching_board()
    routes = board.routes
    tun = tunnels(board)
    groups = {r.group for r in routes if r.group}
    reveal = sorted({r.tunnel for r in tun})
    return (f"It has **{len(board.cities)} cities**, **{len(routes)} tracks** (routes), of which "
            f"**{len(tun)} are tunnels** (each reveals {reveal[0]} to {reveal[-1]} cards when "
            f"claimed, U1), "
            f"{len(groups)} double or triple routes, and **{len(board.tickets)} destination "
            f"tickets**.")


def board_map(board: Board | None = None, claimed=None, *, seat: int | None = None,
              tickets=(), ticket_label: str = "Your tickets") -> None:
    """The board map (SVG, with its text alternative inside) on the page, in a frame that
    scrolls on a narrow screen rather than shrink its names (``maps.map_html``)."""
    from IPython.display import HTML, display

    from ..maps import map_html

    board = board or teaching_board()
    display(HTML(map_html(board, claimed, seat=seat, tickets=tickets,
                          ticket_label=ticket_label)))


def map_words(board: Board | None = None) -> str:
    """A text description of the map, for those who cannot see the picture."""
    board = board or teaching_board()
    west = min(board.positions, key=lambda c: board.positions[c][0])
    east = max(board.positions, key=lambda c: board.positions[c][0])
    hub = max(board.cities, key=lambda c: sum(c in (r.a, r.b) for r in tunnels(board)))
    n_hub = sum(hub in (r.a, r.b) for r in tunnels(board))
    return (f"*What the map shows:* the cities at their real longitude and latitude, from "
            f"{west} in the west to {east} in the east. The tunnels climb the Himalaya: "
            f"{n_hub} of the {len(tunnels(board))} tunnels end in {hub}.")


# --- the exercise position (K1) ----------------------------------------------------------------
K1_HANDS = (CardCounts(red=3, blue=1), CardCounts(green=2, yellow=2, white=1))
K1_CARDHOLDER = CardCounts(green=1, locomotive=1)


def k1_position() -> Game:
    """A1 to move: its hand, the Team A cardholder and A2's hand as in ``K1_*`` (the rest of the
    cards are in B2's hand, out of the way)."""
    return Game.from_position(players=4, hands=list(K1_HANDS) + [EMPTY, EMPTY],
                              cardholders=[K1_CARDHOLDER, EMPTY], face_up=[
                                  "white", "purple", "orange", "black", "yellow"],
                              draw_pile=[], discard=EMPTY, rest_to=3)


def k1_pictures() -> None:
    """The K1 exercise position from A1's seat."""
    view = k1_position().view(0)
    show(pics.seat_cards_html(view, hand_title="A1's hand", mate_title="A2's hand"))
