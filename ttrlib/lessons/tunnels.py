"""What lesson 04 (tunnel claims, rules U1-U7) shows: the board's tunnels, a reveal with its
matching cards ringed, the ways to pay the extra cards, the log in words, and the fixed positions
of the exercises and of the practice widget.

Positions are built with :func:`ttrlib.lessons.claims.position`; numbers on the page (how many cards
a tunnel reveals, how many extra cards are owed) are read from the board and the engine.
"""

from __future__ import annotations

from fractions import Fraction

from .. import actions as act
from .. import display as pics
from ..cards import CardCounts, Color
from ..events import TunnelTried
from ..game import Game
from ..odds import cheapest_first, matching_count
from ..rules.payments import matches
from ..seats import seat_name
from ..words import article, plural
from . import chance_words
from .claims import cards_words, payment_words, position, table_html, ways_html


# --- the board's tunnels ------------------------------------------------------------------------
def tunnels(board) -> list:
    return [r for r in board.routes if r.is_tunnel]


def reveal_range(board) -> tuple[int, int]:
    """The fewest and the most cards a tunnel of ``board`` reveals (U1)."""
    sizes = [r.tunnel for r in tunnels(board)]
    return min(sizes), max(sizes)


def tunnels_table_html(board) -> str:
    """Every tunnel of the board: colour, length and how many cards it reveals (U1)."""
    rows = [(f"{r.a} – {r.b}", r.color.value if r.color else "gray", r.length, r.tunnel)
            for r in sorted(tunnels(board), key=lambda r: (r.tunnel, r.id))]
    return table_html(("tunnel", "colour", "length", "cards it reveals (U1)"), rows)


# --- one attempt --------------------------------------------------------------------------------
def last_attempt(game: Game) -> TunnelTried:
    """The public record of the last tunnel attempt (the revealed cards are public, U1)."""
    return [e for e in game.events if isinstance(e, TunnelTried)][-1]


def paid_words(color: str) -> str:
    return "with locomotives only" if color == "locomotive" else f"in {color}"


def reveal_html(game: Game) -> str:
    """The cards turned up by the last tunnel attempt, the matching ones ringed (U2, U5)."""
    event = last_attempt(game)
    cards = [c.value for c in event.revealed]
    hits = [i for i, c in enumerate(event.revealed) if matches(c, event.color)]
    return pics.card_row_html(
        cards, title=f"Paid {paid_words(event.color.value)}: {len(cards)} revealed, "
                     f"{event.extra} extra owed", highlight=hits,
        labels=["match" if i in hits else "" for i in range(len(cards))],
        empty_text="nothing to reveal")


def reveals_html(*games: Game) -> str:
    return pics.layout_html(*[reveal_html(g) for g in games], direction="row")


def attempt_words(game: Game) -> str:
    """What the last attempt turned up and what it costs, in a sentence (U1, U2, U5, U6)."""
    event = last_attempt(game)
    route = game.board.route(event.route)
    n, extra = len(event.revealed), event.extra
    short = "" if n == route.tunnel else (f" (it reveals {route.tunnel}, but only {plural(n, 'card')} "
                                          "existed, U6)")
    color = event.color.value
    match = "revealed locomotive" if color == "locomotive" else \
        f"revealed {color} card or locomotive"
    owed = ("nothing more: the tunnel is claimed" if extra == 0 else
            f"**{extra} extra card{'s' if extra != 1 else ''}**, or the cards go back")
    return (f"{route.a} – {route.b} turned up {n} card{'s' if n != 1 else ''}{short}. Paid "
            f"{paid_words(color)}, each {match} asks for one more card: {owed}.")


def payments_html(game: Game) -> str:
    """The ways the engine accepts to pay the extra cards now, as pictures (U2, U5, U7), the
    cheapest first (``odds.cheapest_first``, as the widgets offer them)."""
    pays = cheapest_first(a for a in game.legal_actions() if isinstance(a, act.PayTunnel))
    if not pays:
        return pics.message_html("No way to pay: not enough matching cards are left in the hand "
                                 "and the cardholder.", "info", rule="U3")
    return ways_html(pays)


def choices_words(game: Game) -> str:
    """What the seat to move may do now, in words (from the engine's legal actions)."""
    legal = game.legal_actions()
    pays = [a for a in legal if isinstance(a, act.PayTunnel)]
    parts = [f"pay the extra cards ({len(pays)} way{'s' if len(pays) != 1 else ''})"] if pays \
        else []
    if act.Withdraw() in legal:
        parts.append("take the laid cards back (U3)")
    return f"{seat_name(game.to_move)} may now: " + " or ".join(parts) + "."


def after_withdraw_words(game: Game, seat: int = 0) -> str:
    """After U3: whose turn it is, where the revealed cards went, what the others now know."""
    view = game.view(seat)
    other = game.view((seat + 2) % game.players)  # an opponent's view
    known = other.known_in_hands[seat]
    return (f"{seat_name(seat)}'s turn is over: {seat_name(game.to_move)} is to move. The laid "
            f"cards are back where they came from (U3); the discard pile holds "
            f"{cards_words(view.discard)}: the revealed cards (U4). Everyone saw the laid cards, "
            f"so {seat_name(other.seat)} now knows that {seat_name(seat)}'s hand holds "
            f"{cards_words(known)} (I1).")


def seat_html(game: Game, seat: int = 0) -> str:
    view = game.view(seat)
    return pics.layout_html(pics.hand_html(view.hand, title=f"{view.name}'s hand"),
                            pics.cardholder_html(view.team_cardholder, view.name[0]),
                            direction="row")


def pile_html(cards, title: str = "The top of the draw pile") -> str:
    ordinal = ["1st", "2nd", "3rd"] + [f"{i}th" for i in range(4, 11)]
    return pics.card_row_html(list(cards), title=title, labels=ordinal[:len(cards)])


# --- chances, before lesson 05 explains them ----------------------------------------------------
def first_card_chance(game: Game, color: Color, seat: int = 0) -> tuple[int, int, Fraction]:
    """Seen from ``seat``: (unseen cards, matching ones, the chance that the first revealed card
    matches a claim in ``color``). The top of the draw pile is any of the unseen cards alike."""
    view = game.view(seat)
    unseen, match = len(view.unseen), matching_count(view.unseen, color)
    return unseen, match, Fraction(match, unseen)


def chance_story(game: Game, color: Color = Color.RED, seat: int = 0) -> str:
    """The first-card chance of ``game`` told in plain words, as Markdown."""
    unseen, match, p = first_card_chance(game, color, seat)
    who = seat_name(seat)
    return (f"{who} cannot see **{unseen} cards** (the draw pile and the other players' hands). "
            f"Any of them could be the top card of the pile, all alike. **{match}** of them are "
            f"{color.value} or locomotives. So the chance that the first card turned up matches "
            f"{article(color.value)} claim is {match} out of {unseen}: **{chance_words(p)}**. In words: "
            f"if {who} tried this again and again, the first card would match in about "
            f"{match} tries out of {unseen}.")


def can_pay_story(game: Game, route_id: str, seat: int = 0) -> str:
    """What the practice widget's "chance you can pay the extra" means, for the way it lists
    first on ``route_id``, in plain words (Markdown)."""
    from ..odds import best_payment

    view = game.view(seat)
    best = best_payment(view, route_id)[0]
    route = view.board.route(route_id)
    p = best.p_can_pay
    return (f"The widget below also shows a chance beside each way to lay down the cards. For "
            f"the {route.color.value if route.color else 'gray'} {route.a} – {route.b} in the practice "
            f"position, the first way it lists is "
            f"{payment_words(best.claim.hand, best.claim.cardholder)}; afterwards A1 could still "
            f"pay up to {best.spare} extra cards, and the chance that the {route.tunnel} "
            f"revealed cards ask for no more than that is **{chance_words(p)}**. Turned round: "
            f"the chance that A1 cannot pay and must take the cards back is "
            f"**{chance_words(1 - p)}**. Read it the same way: out of many such tries, about "
            "that share end with the cards taken back. Lesson 05 shows how such chances are "
            "counted exactly.")


# --- fixed positions ----------------------------------------------------------------------------
#: The top of the draw pile in exercises "extra-coloured", "extra-locomotives", "can-pay" and
#: "taken-back" (top first).
EXERCISE_PILE = ("red", "locomotive", "blue", "red", "green", "white")
EXERCISE_TUNNEL = "kathmandu-lhasa-1"


def practice_position(seed: int = 0) -> Game:
    """The lesson's practice position: A1 holds red cards, a blue one and a locomotive, the Team
    A cardholder some more, the other seats four cards each, every tunnel open; the rest of the
    cards form the draw pile, shuffled by ``seed`` (a game per learner)."""
    return Game.from_position(
        seed=seed,
        hands=[CardCounts(red=3, blue=1, locomotive=1), CardCounts(green=2, white=2),
               CardCounts(black=2, yellow=2), CardCounts(orange=3, purple=1)],
        cardholders=[CardCounts(red=1, blue=2, locomotive=1), CardCounts(white=2)],
        face_up=["green", "purple", "white", "orange", "black"], rest_to="draw_pile")


def exercise_position(name: str) -> Game:
    """The fixed position of lesson 04's exercise ``name``, before A1 lays down any card."""
    pile = list(EXERCISE_PILE)
    if name == "first-card-chance":
        return practice_position(0)
    if name in ("extra-coloured", "extra-locomotives"):
        return position(hands=[CardCounts(red=3, locomotive=4)], draw_pile=pile)
    if name == "can-pay":
        return position(hands=[CardCounts(red=3, locomotive=1, blue=2)],
                        cardholders=[CardCounts(red=1, green=1)], draw_pile=pile)
    if name == "taken-back":
        return position(hands=[CardCounts(red=1, locomotive=1, blue=2)],
                        cardholders=[CardCounts(red=2)], draw_pile=pile)
    if name == "revealed-count":
        return position(hands=[CardCounts(green=4, locomotive=2)], draw_pile=pile[:1],
                        discard=CardCounts(blue=1, yellow=1))
    raise KeyError(f"lesson 04 has no exercise position {name!r}")


#: What A1 lays down in each exercise (the route and the cards), before the reveal.
EXERCISE_CLAIMS = {
    "extra-coloured": act.Claim(EXERCISE_TUNNEL, hand=CardCounts(red=3)),
    "extra-locomotives": act.Claim(EXERCISE_TUNNEL, hand=CardCounts(locomotive=3)),
    "can-pay": act.Claim(EXERCISE_TUNNEL, hand=CardCounts(red=3)),
    "taken-back": act.Claim(EXERCISE_TUNNEL, hand=CardCounts(red=1, locomotive=1),
                            cardholder=CardCounts(red=1)),
    "revealed-count": act.Claim("kashgar-rawalpindi", hand=CardCounts(green=4)),
}


def claim_words(claim: act.Claim, board) -> str:
    """``A1 lays down 3 red from the hand on the red tunnel Kathmandu – Lhasa (it reveals 5)``:
    the number revealed is read from the board (U1)."""
    route = board.route(claim.route)
    colour = route.color.value if route.color else "gray"
    return (f"A1 lays down {payment_words(claim.hand, claim.cardholder)} on the {colour} tunnel "
            f"{route.a} – {route.b}, which reveals {route.tunnel} cards (U1).")

