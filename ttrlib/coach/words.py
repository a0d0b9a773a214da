"""The coach's actions and estimates in words a board-game player reads (no Python on the page).

Every figure is an estimate from samples but the chance to pay a tunnel, which is exact
(``ttrlib.odds``): the words say "about" for the first and "exact" for the second.
"""

from __future__ import annotations

from fractions import Fraction

from .. import actions as act
from ..board import Board
from ..cards import CardCounts, Place


def _cards(cards: CardCounts) -> str:
    return cards.describe() if cards else "no cards"


def action_words(board: Board, a: act.Action) -> str:
    """One action in a few words: "claim Kabul - Kashgar with 4 green", "draw from the deck"."""
    if isinstance(a, act.Claim):
        r = board.route(a.route)
        what = "try the tunnel" if r.is_tunnel else "claim"
        if a.hand and a.cardholder:
            src = f"{_cards(a.hand)} from the hand and {_cards(a.cardholder)} from the team"
        else:
            src = _cards(a.hand) if a.hand else f"{_cards(a.cardholder)} from the team"
        return f"{what} {r.a} - {r.b} with {src}"
    if isinstance(a, act.DrawCard):
        # the slot as the board and the log number it (from 0)
        return "draw from the deck" if a.source == "deck" else f"take the face-up card in slot {a.source}"
    if isinstance(a, act.PlaceCard):
        return "put the drawn card in the hand" if a.to == Place.HAND else \
            "put the drawn card in the team cardholder"
    if isinstance(a, act.KeepTickets):
        kept = ", ".join(board.ticket(t).describe() for t in sorted(a.keep))
        return f"keep {len(a.keep)} tickets ({kept}), sharing {board.ticket(a.share).describe()}"
    if isinstance(a, act.DrawTickets):
        return "draw new tickets"
    if isinstance(a, act.ShareTickets):
        return "share " + ", ".join(board.ticket(t).describe() for t in sorted(a.tickets))
    if isinstance(a, act.PayTunnel):
        return f"pay the tunnel's extra cards ({_cards(a.hand + a.cardholder)})"
    if isinstance(a, act.Withdraw):
        return "take the tunnel's cards back"
    return "pass"


def cost_words(board: Board, a: act.Action, cost: float, p_can_pay: Fraction | None,
               spare: int | None, better: act.Action) -> str:
    """A costly move for the teacher's walkthrough: "-12% win share: the tunnel Lhasa -
    Kathmandu tried with 2 cards to spare when the exact chance to pay was 41% (the coach would
    draw from the deck)"."""
    head = f"about {-cost:+.0%} win share"
    if isinstance(a, act.Claim) and board.route(a.route).is_tunnel and p_can_pay is not None:
        r = board.route(a.route)
        spare_words = "no card" if not spare else ("1 card" if spare == 1 else f"{spare} cards")
        what = (f"the tunnel {r.a} - {r.b} tried with {spare_words} to spare when the exact "
                f"chance to pay was {float(p_can_pay):.0%}")
    else:
        what = action_words(board, a)
    return f"{head}: {what} (the coach would {action_words(board, better)})"
