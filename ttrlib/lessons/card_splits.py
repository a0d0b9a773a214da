"""Lesson 01 (Card splits): exact positions, the table seen from a seat, and what a seat may do
now, in words (D1-D4, C5, C6).

Every sentence about a position is computed from the engine's ``legal_actions`` and ``view``,
so the lesson states what the engine does, and the engine decides (the rules are never here).
"""

from __future__ import annotations

from .. import actions as act
from .. import display as pics
from .. import hints
from ..cards import CardCounts, Color, Place
from ..events import Reset
from ..game import FACE_UP, MAX_FACE_UP_RESETS, Game, Phase
from ..seats import seat_name
from ..words import article
from . import attempt, log_markdown, plural, position, say, show, words_list

__all__ = ["position", "table", "may_now", "log", "example", "stacked_reset_position",
           "no_reset_position", "reshuffle_position", "second_slots_position",
           "reset_exercise_position", "slot_words", "policies_table", "say", "attempt"]



def _card(color: Color | None) -> str:
    return "an empty slot" if color is None else f"{article(color.value)} card"


def slot_names(view, slots) -> list[str]:
    """``[0, 2]`` -> ``["slot 0 (red)", "slot 2 (blue)"]``."""
    return [f"slot {i} ({view.face_up[i].value})" for i in slots]


def slot_words(view, slots, last: str = "and") -> str:
    """``[0, 2]`` -> "slot 0 (red) and slot 2 (blue)"."""
    return words_list(slot_names(view, slots), last)


def _waits(game: Game) -> str:
    return hints.WAITS_FOR.get(game.phase) or game.phase.value


def table(game: Game, seat: int = 0) -> None:
    """What ``seat`` sees of the train cards: the face-up row, its hand, its team cardholder,
    and the piles in words."""
    view = game.view(seat)
    team = view.name[0]
    show(
        pics.card_row_html(list(view.face_up), title="Face-up cards",
                           labels=[f"slot {i}" for i in range(FACE_UP)]),
        pics.hand_html(view.hand, title=f"{view.name}'s hand"),
        pics.cardholder_html(view.team_cardholder, team),
    )
    say(f"*Draw pile: {plural(view.draw_pile_size, 'card')} · discard pile: "
        f"{plural(len(view.discard), 'card')} · {seat_name(view.to_move)} to move · the game waits "
        f"for {_waits(game)}.*")


def may_now(game: Game) -> str:
    """What the seat to move may do now, in words, from the engine's legal actions."""
    seat = game.to_move
    view = game.view(seat)
    name = view.name
    legal = game.legal_actions()
    if game.phase is Phase.PLACE_CARD:
        places = [a.to for a in legal if isinstance(a, act.PlaceCard)]
        where = words_list(["their hand" if p == Place.HAND else "the team cardholder"
                            for p in places], "or")
        return (f"{name} has drawn {_card(view.drawn_card)} and now **must** say where it goes: "
                f"{where} (D1). Nothing else is allowed until then.")
    draws = [a.source for a in legal if isinstance(a, act.DrawCard)]
    slots = [s for s in draws if s != "deck"]
    sources = (["the deck"] if "deck" in draws else []) + slot_names(view, slots)
    if game.phase is Phase.SECOND_CARD:
        other = "their hand" if game.first_to == Place.CARDHOLDER else "the team cardholder"
        refused = [i for i, c in enumerate(view.face_up)
                   if c is not None and i not in slots]
        no = (f" Not {slot_words(view, refused, 'or')}: a face-up locomotive may not be the second "
              "card (D3)." if refused else "")
        return (f"{name} may now take the second card from {words_list(sources, 'or')}; it will "
                f"go to {other} (D1).{no}")
    if game.phase is Phase.TURN and seat == view.seat:
        if not draws:
            return f"{name} may not draw a train card at all now: there is nothing to draw (D4)."
        return f"{name} may draw a first card from {words_list(sources, 'or')}."
    return f"The game waits for {_waits(game)}."


def log(game: Game, since: int = 0) -> None:
    """Show the engine's public log since event number ``since``."""
    say(log_markdown(game, since))


def policies_table() -> str:
    """Where the rulebook is silent, what ttrlib does (the policies of C5, C6, D3, D4)."""
    return "\n".join([
        "| situation | what `ttrlib` does | rule |",
        "|---|---|---|",
        "| a face-up card is taken as the first card | its slot stays empty until the card is "
        "placed; only then is the replacement turned up and three locomotives checked | D3 "
        "policy (timing) |",
        f"| three face-up locomotives again and again | at most {MAX_FACE_UP_RESETS} resets in a "
        "row; none when fewer than 3 cards that are not locomotives are left to turn up | C5 "
        "policy |",
        "| the draw pile is empty | the discard pile is shuffled into a new draw pile: that is "
        "the rule. *When*: only once a card is needed, so every card discarded until then is "
        "shuffled in too | C6 rule; its timing is a policy |",
        "| only one card can be drawn | take it, choose where it goes, the draw ends | D4 policy |",
        "| no card can be drawn | drawing is not a legal action | D4 policy |",
    ])


# --- the lesson's positions --------------------------------------------------------------------
EXAMPLE_ROW = ("red", "locomotive", "blue", "locomotive", "green")


def example(draw_pile=("yellow", "black", "white", "orange")) -> Game:
    """Examples 1-3: A1 holds two green cards, the Team A cardholder one blue."""
    return position(hands=[CardCounts(green=2)], cardholders=[CardCounts(blue=1)],
                    face_up=EXAMPLE_ROW, draw_pile=draw_pile)


def stacked_reset_position() -> Game:
    """C5 twice in a row: the red's replacement is a third locomotive, and the first new row
    holds three locomotives again."""
    return position(face_up=EXAMPLE_ROW,
                    draw_pile=["locomotive",  # replaces the red
                               "locomotive", "locomotive", "locomotive", "red", "blue",  # new row
                               "red", "blue", "green", "white", "yellow"])  # another new row


def no_reset_position() -> Game:
    """C5 policy: every coloured card is in a hand except the three in the row; the draw pile and
    the discard pile hold only locomotives."""
    return position(face_up=["locomotive", "locomotive", "red", "blue", "green"],
                    draw_pile=["locomotive"] * 3, discard=CardCounts(locomotive=9))


def reshuffle_position() -> Game:
    """C6: one red card in the draw pile, five cards in the discard pile."""
    return position(draw_pile=["red"], discard=CardCounts(blue=3, green=2), seed=1)


def second_slots_position() -> Game:
    """Exercise: one face-up locomotive, and a locomotive on top of the draw pile."""
    return position(face_up=["locomotive", "red", "blue", "white", "green"],
                    draw_pile=["locomotive", "yellow", "black", "orange"])


def reset_exercise_position() -> Game:
    """Exercise: two face-up locomotives, and a locomotive on top of the draw pile."""
    return position(face_up=["locomotive", "red", "locomotive", "blue", "green"],
                    draw_pile=["locomotive", "white", "yellow", "orange", "black", "purple"])


# --- C5 in words -------------------------------------------------------------------------------
def reset_words(game: Game, since: int, discard_before: int) -> None:
    """How many resets happened since event ``since`` and how many cards they discarded."""
    resets = sum(isinstance(e, Reset) for e in game.events[since:])
    gone = len(game.view(game.to_move).discard) - discard_before
    say(f"The row was reset **{resets} {'time' if resets == 1 else 'times'}** (C5), and "
        f"{plural(gone, 'card')} went to the discard pile: {resets} rows of {FACE_UP}.")


def no_reset_words(game: Game) -> None:
    """C5 policy: the locomotives face up, and the non-locomotives left to turn up."""
    view = game.view(game.to_move)
    row = [c for c in view.face_up if c is not None]
    # The referee may look at the draw pile; a player sees only the row and the discard.
    left = row + view.discard.elements() + list(game.draw_pile)
    others = sum(c is not Color.LOCOMOTIVE for c in left)
    locos = sum(c is Color.LOCOMOTIVE for c in row)
    say(f"Locomotives face up: **{locos}**. Cards that are not locomotives in the row, the draw "
        f"pile and the discard pile together: **{others}**, fewer than 3, so no new row could "
        f"ever hold fewer than 3 locomotives, and there is no reset (C5 policy).")
