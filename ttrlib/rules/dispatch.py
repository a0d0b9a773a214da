"""The rules' dispatch: for each phase and action type, the family's check, effect and legal list.

``check(state, action)`` may raise an ``IllegalMove`` naming the rule and changes nothing;
``effect(state, action)`` never raises; ``legal(state)`` lists every action the check accepts,
each once (the perft test compares them with an independent enumerator). ``Game.apply`` and
``Game.legal_actions`` are look-ups in this table, and so is ``validity.check_state``'s question
whether a game can go on. A family may keep a cache of its own for ``legal`` (``claims`` keeps
the routes open to each seat, ``draws`` the draw lists of the face-up row, per state), compared
with a rebuild in the check mode (``check_mode``, on in the tests).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .. import actions as act
from ..errors import WrongPhase, shown
from ..hints import ACTION_WORDS, FINISH_FIRST
from ..state import GameState, Phase
from . import claims, draws, passing, tickets, tunnels


class Rule(NamedTuple):
    check: Callable[[GameState, Any], None]
    effect: Callable[[GameState, Any], None]
    legal: Callable[[GameState], Sequence[act.Action]]


#: (phase, action type) -> the family's Rule. Within a phase, in the order ``legal_actions``
#: lists the actions (the bots' seeded choices depend on it).
RULES: dict[tuple[Phase, type], Rule] = {
    (Phase.SETUP_TICKETS, act.KeepTickets):
        Rule(tickets.check_setup_keep, tickets.do_setup_keep, tickets.legal_setup_keep),
    (Phase.TURN, act.DrawCard): Rule(draws.check_draw_first, draws.do_draw_first,
                                     draws.legal_draw_first),
    (Phase.TURN, act.Claim): Rule(claims.check_claim, tunnels.do_claim, claims.legal_claims),
    (Phase.TURN, act.DrawTickets):
        Rule(tickets.check_draw_tickets, tickets.do_draw_tickets, tickets.legal_draw_tickets),
    (Phase.TURN, act.ShareTickets):
        Rule(tickets.check_share, tickets.do_share, tickets.legal_share),
    (Phase.TURN, act.Pass): Rule(passing.check_pass, passing.do_pass, passing.legal_pass),
    (Phase.PLACE_CARD, act.PlaceCard): Rule(draws.check_place, draws.do_place, draws.legal_place),
    (Phase.SECOND_CARD, act.DrawCard):
        Rule(draws.check_draw_second, draws.do_draw_second, draws.legal_draw_second),
    (Phase.CHOOSE_TICKETS, act.KeepTickets):
        Rule(tickets.check_choose_keep, tickets.do_choose_keep, tickets.legal_choose_keep),
    (Phase.TUNNEL, act.PayTunnel): Rule(tunnels.check_pay, tunnels.do_pay, tunnels.legal_pay),
    (Phase.TUNNEL, act.Withdraw):
        Rule(tunnels.check_withdraw, tunnels.do_withdraw, tunnels.legal_withdraw),
}

# phase -> the legal lists of its rows, in table order, without passing: a pass is legal only
# when no other row lists anything (policy), which the list just made already says
_LEGAL = {phase: tuple(rule.legal for (p, kind), rule in RULES.items()
                       if p is phase and kind is not act.Pass) for phase in Phase}
_PASSES = {phase for phase, kind in RULES if kind is act.Pass}


def legal_actions(state: GameState, include_pass: bool = True) -> list[act.Action]:
    """Every action the checks accept now, each once (none once the game is over)."""
    out: list[act.Action] = []
    phase = state.phase
    for legal in _LEGAL[phase]:
        out += legal(state)
    if not out and include_pass and phase in _PASSES:
        out += passing.legal_pass(state)
    return out


_TURN_RULE = {act.PayTunnel: "U2", act.Withdraw: "U3", act.KeepTickets: "T2"}


def phase_error(state: GameState, action: Any) -> WrongPhase:
    """The refusal of an action that has no row for this phase: the rule that says what the
    game waits for (or, in a turn, what the action needs), and what it waits for."""
    phase = state.phase
    pending, waits = FINISH_FIRST[phase]
    # in a turn the action itself needs a phase (PlaceCard: D1, PayTunnel: U2 ...)
    rule = _TURN_RULE.get(type(action), "D1") if phase is Phase.TURN else pending
    if not isinstance(action, tuple(ACTION_WORDS)):
        return WrongPhase(rule, f"{shown(action)} is not a ttrlib action")
    if isinstance(action, act.Pass) and phase is Phase.TURN:
        return WrongPhase(rule, "you may pass only when you have no other legal action")
    return WrongPhase(rule, f"{ACTION_WORDS[type(action)]} is not possible now: {waits}")
