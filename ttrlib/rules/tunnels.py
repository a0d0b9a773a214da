"""Tunnels (U1-U7): the cards revealed, the extra cost paid or the laid cards taken back.

A claim on a tunnel route lays its cards and turns up the route's tunnel count of cards from
the draw pile (U1; only what exists, U6); every revealed card of the claim's colour (U7) or
locomotive asks for one more card (U2; after a locomotives-only claim only locomotives, U5).
The player pays exactly that in the colour or locomotives (U2) or takes the cards back (U3);
either way the revealed cards are discarded (U4).
"""

from __future__ import annotations

from .. import actions as act
from ..cards import EMPTY, CardCounts, Color
from ..chance import cards_turned, extra_cost
from ..errors import IllegalTunnelPayment
from ..events import TunnelTried, Withdrew
from ..seats import team_of
from ..state import GameState, Phase, TunnelAttempt
from ..words import plural
from . import claims, deck, payments
from .ending import end_turn


def do_claim(state: GameState, a: act.Claim) -> None:
    """The effect of every checked ``Claim`` (``claims.check_claim``): K4 at once, or U1."""
    seat = state.to_move
    route = state.board.route(a.route)
    claims.take_from(state, seat, a.hand, a.cardholder)
    if not route.is_tunnel:
        claims.finish_claim(state, seat, route, a.hand, a.cardholder)
        return
    # U1: lay down the cards, then turn up the top cards of the draw pile.
    color = payments.claim_color(a.cards)
    assert color is not None  # check_claim refused cards of more than one colour (K2)
    # How many cards the reveal turns (U6: only what exists, the discard reshuffled in when the
    # pile runs out, C6) and what they cost (U2, U5) are written once, in ttrlib.chance, for the
    # engine, the odds, the simulation and the explorer alike.
    from_pile, from_discard = cards_turned(len(state.draw_pile), len(state.discard), route.reveals)
    revealed = [deck.pop_deck(state) for _ in range(from_pile + from_discard)]
    extra = extra_cost(revealed, color)
    state.tunnel = TunnelAttempt(route.id, seat, a.hand, a.cardholder, tuple(revealed), color,
                                 extra)
    deck.log(state, TunnelTried(seat=seat, route=route.id, a=route.a, b=route.b, cards=a.cards,
                                revealed=tuple(revealed), extra=extra, color=color))
    if extra == 0:
        _settle(state, EMPTY, EMPTY)
    else:
        state.phase = Phase.TUNNEL


def pending(state: GameState) -> TunnelAttempt:
    """The tunnel attempt waiting for payment (the TUNNEL phase always has one, U2, U3)."""
    t = state.tunnel
    assert t is not None, "no tunnel attempt is pending"
    return t


# --- U2, U5, U7: paying --------------------------------------------------------------------------
def check_pay(state: GameState, a: act.PayTunnel) -> None:
    t = pending(state)
    claims.check_cards_fields(a, IllegalTunnelPayment)
    claims.check_owned(state, t.seat, a.hand, a.cardholder, IllegalTunnelPayment)
    paid = a.cards
    if len(paid) != t.extra:
        raise IllegalTunnelPayment("U2", "the tunnel asks for exactly "
                                   f"{plural(t.extra, 'more card')}; you offered {len(paid)}")
    if payments.payable(paid, t.color) != len(paid):
        what = "locomotives only (U5)" if t.color is Color.LOCOMOTIVE else \
            f"{t.color.value} cards or locomotives"
        rule = "U5" if t.color is Color.LOCOMOTIVE else (
            "U7" if state.board.route(t.route).is_gray else "U2")
        raise IllegalTunnelPayment(rule, f"the extra cards must be {what}, not {paid.describe()}")


def legal_pay(state: GameState) -> list[act.PayTunnel]:
    """Every payment ``check_pay`` accepts: each split of the extra cards between the hand and
    the team cardholder (``payments.splits``)."""
    t = pending(state)
    hand, holder = state.hands[t.seat], state.cardholders[team_of(t.seat)]
    return [act.PayTunnel(h, g) for h, g in payments.splits(hand, holder, t.color, t.extra)]


def do_pay(state: GameState, a: act.PayTunnel) -> None:
    claims.take_from(state, pending(state).seat, a.hand, a.cardholder)
    _settle(state, a.hand, a.cardholder)


def _settle(state: GameState, hand: CardCounts, holder: CardCounts) -> None:
    t = pending(state)
    state.tunnel = None
    state.phase = Phase.TURN
    state.discard.extend(t.revealed)  # U4
    claims.finish_claim(state, t.seat, state.board.route(t.route), t.laid_hand + hand,
                        t.laid_holder + holder)


# --- U3, U4: taking the cards back ---------------------------------------------------------------
def check_withdraw(state: GameState, a: act.Withdraw) -> None:
    """Always allowed while a tunnel waits (U3)."""


_WITHDRAW = (act.Withdraw(),)


def legal_withdraw(state: GameState) -> tuple[act.Withdraw, ...]:
    return _WITHDRAW


def do_withdraw(state: GameState, a: act.Withdraw) -> None:
    t = pending(state)
    seat, team = t.seat, team_of(t.seat)
    state.hands[seat] += t.laid_hand  # U3: the laid cards go back where they came from
    state.cardholders[team] += t.laid_holder
    state.known_in_hands[seat] += t.laid_hand  # everyone saw them (I1)
    state.known_in_cardholders[team] += t.laid_holder
    state.discard.extend(t.revealed)  # U4
    state.tunnel = None
    route = state.board.route(t.route)
    deck.log(state, Withdrew(seat=seat, route=route.id, a=route.a, b=route.b))
    end_turn(state)
