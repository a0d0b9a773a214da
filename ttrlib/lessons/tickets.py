"""Lesson 02 (Tickets and sharing): ticket pictures, one seat's screen, what a view holds in
words (I1), where returned tickets went (T3), and the exercise positions (T1-T4, C7, I1).

The sentences are computed from the engine's views; only the referee's look at the bottom of the
ticket deck (which no player can see) reads the game itself, and says so.
"""

from __future__ import annotations

from .. import display as pics
from ..game import Game, Phase
from ..seats import seat_name, team_name
from . import attempt, log_markdown, plural, say, show, words_list
from .start_here import board_map

__all__ = ["pictures", "screen", "setup_words", "choice_words", "screens_words", "bottom_words",
           "play_until_my_turn", "bots_for", "sees_position", "SEES", "t3_position", "T3_OFFER",
           "T3_KEEP", "say", "attempt", "log_markdown", "show"]


def pictures(game: Game, ids, title: str, **kw) -> str:
    """Pictures of the tickets with these ids."""
    return pics.tickets_html([game.board.ticket(t) for t in ids], title, **kw)


def ticket_words(game: Game, ids) -> str:
    return words_list([game.board.ticket(t).describe() for t in ids])


def screen(game: Game, seat: int) -> str:
    """One seat's screen: only what its view holds (I1)."""
    from ..display import hidden_tickets_html

    v = game.view(seat)
    mate = seat_name(v.teammate)
    team = v.name[0]
    counts = ", ".join(f"{team_name(t)}: {n}" for t, n in
                       enumerate(v.team_ticket_counts))
    return pics.layout_html(
        pics.message_html(f"Screen of {v.name} (Team {team})", "info"),
        pics.seat_cards_html(v, hand_title=f"{v.name}'s hand", mate_title=f"{mate}'s hand",
                             direction="column"),
        pictures(game, v.tickets, f"{v.name}'s private tickets"),
        pictures(game, v.team_tickets, f"Team {team} ticket cardholder (shared)"),
        hidden_tickets_html(v.ticket_counts[v.teammate], f"{mate}'s tickets"),
        pics.message_html(f"Tickets in each team's ticket cardholder (public): {counts}", "info"),
        direction="column",
    )


def bots_for(game: Game, seed: int):
    from ..bots import GreedyBot

    return [GreedyBot(seed=seed + seat) for seat in range(game.players)]


def play_until_my_turn(game: Game, bots, seat: int = 0) -> None:
    """Bots play every other seat until ``seat`` is to choose a turn (or the setup is done)."""
    from ..bots import decide

    while not game.is_over and (game.to_move != seat or game.phase is not Phase.TURN):
        game.apply(decide(game, bots[game.to_move]))


# --- the setup (T1, I1) ------------------------------------------------------------------------
def setup_words(game: Game) -> None:
    """At the deal: each seat sees its own five tickets, and none of anybody else's (I1)."""
    a1, a2 = game.view(0), game.view(1)
    seen_by_a1 = set(a1.dealt_tickets) | set(a1.ticket_offer) | set(a1.tickets)
    leaked = set(a2.dealt_tickets) & seen_by_a1
    say(f"Every player is dealt {len(a1.dealt_tickets)} tickets at the same moment (T1), and "
        f"every seat sees its own from the deal (I1): A1 sees its "
        f"{len(a1.dealt_tickets)}, and A2, who chooses next, already sees its own "
        f"{len(a2.dealt_tickets)} too. Of A2's tickets, A1's view holds "
        f"{'none' if not leaked else ticket_words(game, leaked)}.")
    show(pictures(game, a1.dealt_tickets, "A1's tickets from the deal (only A1 sees them)"),
         pictures(game, a2.dealt_tickets, "A2's tickets from the deal (only A2 sees them)"))
    say("A1's five on the map, their cities ringed, to choose with the cities in sight:")
    board_map(game.board, seat=0, tickets=a1.dealt_tickets, ticket_label="A1's tickets on offer")


def choice_words(game: Game) -> None:
    """After A1's setup choice and before A2's: what each of them sees of it (T1, I1)."""
    a1, a2 = game.view(0), game.view(1)
    choice = a1.setup_choice
    assert choice is not None, "A1 has chosen (T1)"
    private = [t for t in a1.dealt_tickets if t in choice.keep and t != choice.share]
    show(pictures(game, private, "A1 keeps privately"),
         pictures(game, [choice.share], "A1 will share"))
    say(f"A1's own view holds its choice (above): keep {plural(len(choice.keep), 'ticket')}, "
        f"share {game.board.ticket(choice.share).describe()}. A2's view holds none of it: the "
        f"Team A ticket cardholder holds {plural(len(a2.team_tickets), 'ticket')} on A2's "
        f"screen, A1's private tickets count {a2.ticket_counts[0]}, and the public count of "
        f"tickets in the team cardholders is still "
        f"{words_list([str(n) for n in a2.team_ticket_counts])}. It is "
        f"{seat_name(game.to_move)}'s turn to choose.")


def screens_words(game: Game) -> None:
    """Check the two screens against each other, in words (A2's tickets from A2's own view)."""
    v1, v2 = game.view(0), game.view(1)
    hidden = set(v2.tickets)  # A2's private tickets, from A2's own view
    found = hidden & (set(v1.tickets) | set(v1.team_tickets) | set(v1.ticket_offer)
                      | set(v1.dealt_tickets))
    same_tickets = "the same" if v1.team_tickets == v2.team_tickets else "DIFFERENT"
    same_cards = "the same" if v1.team_cardholder == v2.team_cardholder else "DIFFERENT"
    say(f"- A2 holds {plural(len(hidden), 'private ticket')}; of them, A1's view holds "
        f"{'none' if not found else ticket_words(game, found)} (I1).\n"
        f"- The two screens show {same_tickets} ticket cardholder and {same_cards} train "
        f"cardholder (C7).\n"
        f"- Each screen shows its own hand: A1 sees {plural(len(v1.hand), 'card')}, A2 "
        f"{plural(len(v2.hand), 'card')}, and each sees only the number of the other's.")


def bottom_words(game: Game, offered, rejected) -> None:
    """T3: where the returned tickets went (the referee may look at the bottom of the deck)."""
    bottom = list(game.ticket_deck[-len(rejected):]) if rejected else []
    in_order = bottom == [t for t in offered if t in rejected]
    show(pictures(game, bottom, "The bottom of the ticket deck, last one at the very bottom"))
    say(f"The {plural(len(rejected), 'returned ticket')} went to the bottom of the ticket "
        f"deck (T3){', in the order they were offered (T3 policy)' if in_order else ''}. No "
        f"player can see this: the ticket deck is face down, and only the referee (here, the "
        f"lesson) may look at its bottom.")


# --- the exercise positions --------------------------------------------------------------------
SEES = {  # who holds which ticket in the I1 exercise
    "A1's private tickets": ("T01", "T02"),
    "A2's private tickets": ("T03", "T04"),
    "B1's private tickets": ("T08",),
    "Team A ticket cardholder": ("T05", "T06"),
    "Team B ticket cardholder": ("T07",),
}


def sees_position() -> Game:
    """Mid-game: tickets placed as in ``SEES``; the rest form the ticket deck."""
    return Game.from_position(
        players=4,
        tickets=[list(SEES["A1's private tickets"]), list(SEES["A2's private tickets"]),
                 list(SEES["B1's private tickets"]), []],
        team_tickets=[list(SEES["Team A ticket cardholder"]),
                      list(SEES["Team B ticket cardholder"])])


def sees_pictures() -> None:
    """The I1 exercise position as the referee sees it: who holds which ticket."""
    game = sees_position()
    show(*[pictures(game, ids, where) for where, ids in SEES.items()])


T3_OFFER = ("T09", "T10", "T11", "T12")  # the top of the ticket deck, in this order
T3_KEEP = ("T10", "T12")  # kept; the first is shared


def t3_position() -> Game:
    """A1 to move; the ticket deck starts with ``T3_OFFER`` (the other tickets beneath)."""
    board = sees_position().board
    rest = [t.id for t in board.tickets if t.id not in T3_OFFER]
    return Game.from_position(players=4, ticket_deck=list(T3_OFFER) + rest)


def t3_pictures() -> None:
    game = t3_position()
    show(pictures(game, T3_OFFER, "A1 draws these 4 tickets, in this order"),
         pictures(game, T3_KEEP, "A1 keeps these two (and shares the first)"))
