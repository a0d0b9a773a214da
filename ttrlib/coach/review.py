"""``review``: a finished game, each action judged from its seat's view at the time (I1).

The game is replayed from its save (its start and its history, ``ttrlib.save``). At every action
the seat's view and legal list of that moment are handed to the coach: the strongest preset's
choice is the reference; an action that differs from it, or that is one of the decisions that
matter (a ticket keep, a tunnel, the end game), is compared by playouts with the preset's choice
and the coach's other candidates (``CoachBot``'s), and its cost is the win share the best of
them had over it on the same deals. An action the preset would have made, elsewhere, costs
nothing and is not played out. A class server can run ``review`` in the background and show
``progress(done, total)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from .. import actions as act
from ..game import Game
from ..history import Step
from ..odds import tunnel_odds
from ..save import read
from ..seats import team_of
from .bot import CoachBot
from .evaluate import evaluate
from .words import cost_words

REVIEW_BUDGET = 6  # deals per judged action: a whole 4-player game within a minute of CPU


@dataclass(frozen=True)
class ReviewEntry:
    """One action of the game: ``index`` in its history, the ``seat`` that made it, the coach's
    ``best`` action from that seat's view, the estimated ``cost`` in win share (best minus
    played, on the same deals; 0 when not played out), ``judged`` (played out or not), the
    played action's ``win_share`` estimate (``None`` if not judged), and for a tunnel claim the
    exact chance to pay and the spare cards."""

    index: int
    seat: int
    action: act.Action
    best: act.Action
    cost: float
    judged: bool
    win_share: float | None = None
    p_can_pay: Fraction | None = None
    spare: int | None = None
    words: str = ""


@dataclass(frozen=True)
class Review:
    entries: tuple[ReviewEntry, ...]
    seed: int
    budget: int

    def costliest(self, team: int, k: int = 3) -> list[ReviewEntry]:
        """The ``k`` costliest moves of ``team`` (cost above zero), costliest first."""
        mine = [e for e in self.entries if team_of(e.seat) == team and e.cost > 0]
        return sorted(mine, key=lambda e: (-e.cost, e.index))[:k]

    def walkthrough(self, team: int) -> list[str]:
        """The three costliest moves of ``team`` in words, for the teacher."""
        return [e.words for e in self.costliest(team)]


def review(game: Game, *, seed: int, budget: int = REVIEW_BUDGET,
           progress: Callable[[int, int], object] | None = None) -> Review:
    """One ``ReviewEntry`` per action of ``game`` (a finished game; a game still going is
    reviewed up to now). ``progress(done, total)`` is called after each action."""
    if not isinstance(game, Game):
        raise TypeError(f"game: a ttrlib Game, not {type(game).__name__}")
    saved = read(game.to_json())
    g = Game._around(saved.start.copy(), saved.origin)
    coaches = [CoachBot(seed=[seed, s], budget=budget, endgame_budget=budget)
               for s in range(g.players)]
    steps: list[Step] = list(saved.history)
    total = sum(1 for s in steps if _is_action(s))
    entries: list[ReviewEntry] = []
    for i, step in enumerate(steps):
        if not _is_action(step):
            g = g._step(step)
            continue
        action: act.Action = step  # type: ignore[assignment] # _is_action said so
        entries.append(_judge(g, action, i, coaches[g.to_move], seed, budget))
        g.apply(action)
        if progress is not None:
            progress(len(entries), total)
    return Review(tuple(entries), seed, budget)


def _is_action(step: Step) -> bool:
    return type(step).__module__.endswith("actions")


def _judge(g: Game, played: act.Action, index: int, coach: CoachBot, seed: int,
           budget: int) -> ReviewEntry:
    seat = g.to_move
    view = g.view(seat)
    legal = g.legal_actions()
    default = coach.preset.choose(view, legal)
    kind, candidates, _ = coach._candidates(view, legal, default)
    tunnel = isinstance(played, act.Claim) and g.board.route(played.route).is_tunnel
    if played == default and kind == "preset" and not tunnel:
        return ReviewEntry(index, seat, played, default, 0.0, False)
    candidates = list(dict.fromkeys([played, *candidates]))[:4]
    if tunnel and act.DrawCard("deck") in legal and act.DrawCard("deck") not in candidates:
        candidates.append(act.DrawCard("deck"))  # a tunnel tried is weighed against a draw
    if len(candidates) == 1:
        return ReviewEntry(index, seat, played, played, 0.0, False)
    ev = evaluate(view, candidates, seed=seed * 100_003 + index, budget=budget,
                  policy=coach.strategy)
    best = ev.best.action
    cost = 0.0 if best == played else max(0.0, ev.gain(best, played)[0])
    p = spare = None
    if tunnel:
        odds = tunnel_odds(view, played.route, played)  # type: ignore[union-attr]
        p, spare = odds.p_can_pay, odds.spare
    words = cost_words(g.board, played, cost, p, spare, best) if cost > 0 else ""
    return ReviewEntry(index, seat, played, best, cost, True, ev.of(played).win_share, p, spare,
                       words)
