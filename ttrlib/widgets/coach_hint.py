"""CoachHint: "What would the coach do?" in the team game (lessons 06 and 08, issue 34).

One button and one line of text. The text names the coach's move, its estimated win share
against the move the learner is about to make (the route and payment chosen in the team game,
or the tunnel payment), and for a tunnel the exact chance to pay its extra cards. It is worked
out from the seat's own view and legal actions only (rule I1: a hint can never tell what the
seat may not know) with a fixed seed, so two games that differ only in what the seat cannot see
give the same hint. Few deals are played out, to answer within about 3 s: the words say it is an
estimate.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as w

from .. import actions as act
from ..coach import CoachBot, evaluate
from ..coach.words import action_words
from ..game import Phase, PlayerView
from ..odds import tunnel_odds
from .base import button

HINT_BUDGET = 5  # deals: at most about 2.5 s of CPU for the 4 moves compared (6 deals of 5 moves: 3.3 s)
EARLY_BUDGET = 4  # deals for a ticket keep


def hint_text(view: PlayerView, legal: list, intended: act.Action | None, *, seed: int = 0,
              budget: int = HINT_BUDGET) -> str:
    """The hint in words, from ``view`` and ``legal`` alone."""
    if not legal or not view.my_turn:
        return "The coach answers on your own move."
    coach = CoachBot(seed=seed)
    # a ticket keep is played out from the start of the game (a whole game a deal): fewer
    # keeps and deals, to answer within about 3 s
    early = view.phase in (Phase.SETUP_TICKETS, Phase.CHOOSE_TICKETS)
    candidates = coach.hint_candidates(view, legal, intended, most=3 if early else 4)
    budget = min(budget, EARLY_BUDGET) if early else budget
    board = view.board
    if len(candidates) == 1:
        return f"The coach would {action_words(board, candidates[0])}: it is the only move."
    ev = evaluate(view, candidates, seed=seed, budget=budget, policy=coach.strategy)
    best = ev.best
    text = (f"The coach would {action_words(board, best.action)}: about "
            f"{best.win_share:.0%} win share (95% interval {best.win_ci[0]:.0%} to "
            f"{best.win_ci[1]:.0%})")
    if intended is not None and intended in legal and intended != best.action:
        mine = ev.of(intended)
        text += (f", against about {mine.win_share:.0%} for your move "
                 f"({action_words(board, intended)}; 95% interval {mine.win_ci[0]:.0%} to "
                 f"{mine.win_ci[1]:.0%})")
    elif intended == best.action:
        text += ": the move you are about to make"
    text += "."
    for a in dict.fromkeys([best.action, intended]):
        if isinstance(a, act.Claim) and board.route(a.route).is_tunnel:
            r = board.route(a.route)
            p = tunnel_odds(view, r, a).p_can_pay
            text += (f" The exact chance to pay the extra cards of the tunnel {r.a} - {r.b} "
                     f"this way is {float(p):.0%}.")
    text += (f" An estimate from {budget} deals of the cards you cannot see, played out by "
             "bots: not a proof.")
    return text


class CoachHint(w.VBox):
    """The button and its answer. ``view``, ``legal`` and ``intended`` are callables of the
    screen it sits in (the seat's own view and legal actions, the move the learner has chosen);
    ``seed`` fixes the deals."""

    def __init__(self, view: Callable[[], PlayerView], legal: Callable[[], list],
                 intended: Callable[[], act.Action | None], *, seed: int = 0):
        self._view, self._legal, self._intended, self.seed = view, legal, intended, seed
        self.ask = button("What would the coach do?", self.answer, width="220px")
        self.text = w.HTML()
        super().__init__([self.ask, self.text])

    def answer(self) -> None:
        try:
            said = hint_text(self._view(), self._legal(), self._intended(), seed=self.seed)
        except Exception as exc:  # noqa: BLE001 - a learner never sees a traceback
            said = f"The coach could not answer this time ({type(exc).__name__})."
        self.text.value = f"<p class='ttr-coach-hint'>{html.escape(said)}</p>"

    def clear(self) -> None:
        self.text.value = ""
