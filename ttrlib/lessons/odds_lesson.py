"""Lesson 05 (tunnel odds): its fixed positions, the few numbers it states, and its tables.

Every position here is fixed (``Game.from_position`` on the teaching board), so the numbers a
lesson shows from it are the same for the whole class, and ``tests/test_answer_key_05.py``
checks them against counts made by hand.
"""

from __future__ import annotations

import html
from fractions import Fraction

from .. import display
from ..actions import Claim
from ..cards import CardCounts, Color, standard_deck
from ..chance import TunnelReveal
from ..game import Game
from ..odds import Distribution, matching_count, tunnel_extra_cost, tunnel_odds
from ..words import article
from . import chance_words

__all__ = ["OTHER_TUNNELS", "tunnel_sizes", "opening_position", "OPENING_ROUTE",
           "opening_claim", "idealisation_rows", "law_table_html", "sizes_table_html",
           "free_more_often", "exercise_position", "EXERCISE_ROUTE", "exercise_claim",
           "RESHUFFLE_EXAMPLE", "RESHUFFLE_EXERCISE", "reshuffle_reveal", "reshuffle_law", "reshuffle_html",
           "ranking_position", "ranking_html", "simulation_table_html"]

#: U1 names tunnel sizes the teaching board does not have: stated once, read by the lesson.
OTHER_TUNNELS = {"classic Europe": 3}


def tunnel_sizes(board) -> list[int]:
    """How many cards the tunnels of ``board`` reveal (U1), smallest first."""
    return sorted({r.tunnel for r in board.routes if r.tunnel})


# --- the opening position: four red cards laid down on the first turn -----------------------

#: Kashgar - Rawalpindi: a gray tunnel of length 4 that reveals 4 cards; paid in red (U7).
OPENING_ROUTE = "kashgar-rawalpindi"


def opening_position() -> Game:
    """The very start of a 4-player game (C4: four cards in each hand, the cardholders empty,
    five face-up cards), A1 to move with four red cards."""
    return Game.from_position(
        hands=[CardCounts(red=4), CardCounts(blue=2, green=2), CardCounts(yellow=2, black=2),
               CardCounts(orange=2, purple=2)],
        face_up=["blue", "red", "green", "locomotive", "white"])


def opening_claim(game: Game) -> Claim:
    """A1 lays down the four red cards of the hand for the gray tunnel (K2, U7)."""
    return Claim(OPENING_ROUTE, game.view(0).hand, CardCounts())


def idealisation_rows(game: Game, claim: Claim) -> list[tuple[str, int, int, Distribution]]:
    """The law of the opening claim three ways: (what is counted, N, K, law).

    The full deck is the idealisation of the rules reference's check figures; taking out only
    the laid cards is closer; the seat's unseen cards (I1) are the right pool.
    """
    color = Color.RED
    reveal = game.board.route(claim.route).tunnel
    full = standard_deck()
    minus_laid = full - claim.cards
    unseen = game.view(0).unseen
    rows = []
    for label, pool in (("the full deck (every card could be revealed)", full),
                        ("the deck without the 4 laid cards", minus_laid),
                        ("the cards A1 cannot see (unseen from A1's seat)", unseen)):
        rows.append((label, len(pool), matching_count(pool, color),
                     tunnel_extra_cost(pool, color, reveal)))
    seat = tunnel_odds(game.view(0), claim.route, claim).law
    assert seat == rows[-1][3]  # the seat's odds are the law of its unseen cards
    return rows


def law_table_html(law: Distribution, caption: str = "") -> str:
    """One row per number of extra cards: the chance as a fraction, a percentage, 1 in N."""
    return display.table_html(("extra cards k", "chance"),
                              [(k, chance_words(p)) for k, p in law.pmf.items()],
                              caption=caption, left={1})


def sizes_table_html(pool: CardCounts, sizes: list[int]) -> str:
    """P(no extra card) for each tunnel size, for a colour claim and a locomotives-only one."""
    rows = [(name, matching_count(pool, color),
             *(_short(tunnel_extra_cost(pool, color, n).prob(0)) for n in sizes))
            for name, color in (("a red claim (U2)", Color.RED),
                                ("locomotives only (U5)", Color.LOCOMOTIVE))]
    return display.table_html(("chance of no extra card", "K",
                               *(f"reveals {n}" for n in sizes)), rows, left={0})


def _short(p: Fraction) -> str:
    """A chance in a table cell: percentage and "about 1 in N" (for a chance above one half,
    how rarely it does not happen), the fraction in small print."""
    words = chance_words(p)
    fraction, rest = words.split(" = ", 1) if " = " in words else (words, "")
    return f"{rest}<br><small>{fraction}</small>"


def free_more_often(pool: CardCounts, color: Color, sizes: list[int]) -> list[int]:
    """The tunnel sizes for which a claim in ``color`` costs nothing extra more often than not."""
    return [n for n in sizes if tunnel_extra_cost(pool, color, n).prob(0) > Fraction(1, 2)]


# --- the exercise position -----------------------------------------------------------------

#: Kathmandu - Lhasa, the blue track: 3 long, reveals 5 (U1).
EXERCISE_ROUTE = "kathmandu-lhasa-2"


def exercise_position() -> Game:
    """The start of a 4-player game: A1 holds 3 blue cards and a locomotive, and the face-up row
    shows two blue cards and a locomotive."""
    return Game.from_position(
        hands=[CardCounts(blue=3, locomotive=1), CardCounts(red=2, green=2),
               CardCounts(yellow=2, black=2), CardCounts(orange=2, purple=2)],
        face_up=["blue", "locomotive", "white", "blue", "red"])


def exercise_claim(game: Game) -> Claim:
    """A1 lays down the three blue cards and keeps the locomotive to pay extra with."""
    return Claim(EXERCISE_ROUTE, CardCounts(blue=3), CardCounts())


# --- the draw pile runs out (U6, C6) ---------------------------------------------------------

#: The lesson's worked example: what A1 cannot see, the draw pile's size, the known discard.
RESHUFFLE_EXAMPLE = dict(unseen=CardCounts(red=2, locomotive=3, blue=8, green=7), draw_pile=2,
                         discard=CardCounts(red=3, locomotive=1, yellow=8), reveal=5)
#: The exercise: one card left in the draw pile, three known cards in the discard pile.
RESHUFFLE_EXERCISE = dict(unseen=CardCounts(red=1, locomotive=1, blue=8), draw_pile=1,
                          discard=CardCounts(locomotive=1, green=2), reveal=4)


def reshuffle_reveal(case: dict, color: Color = Color.RED) -> TunnelReveal:
    """The case's reveal as one chance node: its split between the piles and its law (U6)."""
    return TunnelReveal(case["unseen"], case["draw_pile"], case["discard"], color, case["reveal"])


def reshuffle_law(case: dict, color: Color = Color.RED) -> Distribution:
    return reshuffle_reveal(case, color).law()


def reshuffle_html(case: dict, color: Color = Color.RED, *, explain: bool = True) -> str:
    """The cards of a reshuffle case as pictures, with the counts in words (and, with
    ``explain``, how many revealed cards come from each pile)."""
    from .. import display as pics

    unseen, discard = case["unseen"], case["discard"]
    reveal = reshuffle_reveal(case, color)
    from_pile, from_discard = reveal.from_pile, reveal.from_discard
    words = (f"A1 claims {article(color.value)} tunnel that reveals {case['reveal']}. The draw pile "
             f"holds {case['draw_pile']} of the {len(unseen)} cards A1 cannot see; the discard "
             f"pile holds {len(discard)} known cards.")
    if explain:
        words += (f" So of the revealed cards, {from_pile} come from the draw pile and "
                  f"{from_discard} "
                  "from the reshuffled discard pile (U6, C6).")
    return pics.layout_html(
        pics.layout_html(pics.cards_html(unseen, title="Unseen from A1's seat"),
                         pics.cards_html(discard, title="Discard pile (face up, known)"),
                         direction="row"),
        f"<p>{words}</p>", direction="column")


# --- which cards to lay down -----------------------------------------------------------------

def ranking_position() -> Game:
    """A1 holds four blue, four red cards and a locomotive, the team cardholder one red card."""
    return Game.from_position(
        hands=[CardCounts(blue=4, red=4, locomotive=1), CardCounts(), CardCounts(), CardCounts()],
        cardholders=[CardCounts(red=1), CardCounts()],
        face_up=["green", "purple", "white", "orange", "black"])


def ranking_html(view, route_id: str) -> str:
    """Every legal way to lay down the cards for ``route_id``, best first (``best_payment``)."""
    from ..odds import best_payment

    rows = []
    for rank, o in enumerate(best_payment(view, route_id), start=1):
        cards = o.claim.hand.elements() + o.claim.cardholder.elements()
        labels = ["hand"] * len(o.claim.hand) + ["holder"] * len(o.claim.cardholder)
        colour = "locomotives only" if o.color is Color.LOCOMOTIVE else o.color.value
        rows.append((rank, display.Markup(display.card_row_html(cards, labels=labels)), colour,
                     matching_count(view.unseen, o.color), o.spare, _short(o.p_free),
                     display.Markup(f"<b>{html.escape(_short(o.p_can_pay))}</b>")))
    return display.table_html(
        ("rank", "lay down", "colour used", "K unseen matching", "extra cards you could still pay",
         "chance of no extra card", "chance you can pay"), rows, left={1})


def simulation_table_html(law: Distribution, counts) -> str:
    """The exact chance and the simulated share of each number of extra cards, side by side."""
    from . import percent

    total = int(sum(counts))
    rows = [(k, chance_words(law.prob(k)), f"{int(counts[k]):,}",
             percent(Fraction(int(counts[k]), total))) for k in range(len(counts))]
    return display.table_html(("extra cards k", "exact chance", "simulated trials",
                               "simulated share"), rows, left={1})
