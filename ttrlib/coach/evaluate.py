"""``evaluate``: each legal action scored from one seat's view by determinized playouts.

For each of ``budget`` deals of the hidden part (``world``: ``observer.deal_hidden`` on a state
built from the view alone, I1) every action is applied to a copy of the same deal and the game is
played out by the playout policy with the same seeds (common random numbers: two actions are
compared on the same deals, so their difference is far less noisy than either estimate).

A tunnel claim is not left to the sampled deck: its extra cost follows the exact law of
``ttrlib.odds.tunnel_odds`` seen from the view (U1, U2, U5). The deal's top cards are arranged
to give each extra cost ``k`` in turn (``k`` above what the seat can pay taken as one case) and
the playouts of each case are weighted by its exact probability. The reveal's risk is thus exact;
what follows it is sampled. With fewer cards in the draw pile than the tunnel turns (U6) the
reveal is sampled as dealt.

The win share is the share of playouts the seat's team ranked first (E6, a shared first place
counts), with a Wilson interval (or, for a tunnel's weighted cases, a normal one); the points are
the team's margin over the best other team, with a t interval. Both are estimates from samples.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .. import actions as act
from ..bots import GreedyBot, Strategy
from ..cards import Color
from ..chance import matching
from ..observer import LightView, PlayerView
from ..rules.tickets import keep_choices
from ..state import SETUP_TICKETS_KEEP, GameState
from .playout import DEFAULT_POLICY, Outcome, play_out, policy_bots
from .world import world

MAX_BUDGET = 2_000  # deals per evaluation: a bound on the work one call may ask for
MAX_ACTIONS = 200  # actions per evaluation (a turn offers fewer than this on the boards)


@dataclass(frozen=True)
class Estimate:
    """One action's estimate from ``playouts`` playouts. ``win_share`` in [0, 1] with its 95%
    interval ``win_ci``; ``points``: the team's mean margin over the best other team, with its
    95% interval ``points_ci``; for a tunnel claim ``p_can_pay`` is the exact chance (seen from
    the seat) that the extra cost is at most what the seat could still pay."""

    action: act.Action
    win_share: float
    win_ci: tuple[float, float]
    points: float
    points_ci: tuple[float, float]
    playouts: int
    p_can_pay: Fraction | None = None


@dataclass(frozen=True)
class Evaluation:
    """The estimates of an ``evaluate`` call, best first, with the seed and budget that made
    them (the same view, actions, seed and budget give the same evaluation)."""

    seat: int
    seed: int
    budget: int
    estimates: tuple[Estimate, ...]
    #: per action: its playouts' (weight, won, margin), deal by deal (for paired comparisons)
    samples: dict
    #: deals played out (``budget``, fewer under ``max_playouts``, or fewer when ``deadline``
    #: stopped the sampling: then ``stopped``) and the playouts they took
    deals: int = 0
    playouts: int = 0
    stopped: bool = False

    @property
    def best(self) -> Estimate:
        return self.estimates[0]

    def of(self, action: act.Action) -> Estimate:
        for e in self.estimates:
            if e.action == action:
                return e
        raise KeyError(f"{action!r} was not evaluated")

    def gain(self, better: act.Action, than: act.Action) -> tuple[float, float]:
        """Win share of ``better`` minus that of ``than`` on the same deals, with the half
        width of its 95% interval (paired: the deals are common to both)."""
        a, b = self.samples[better], self.samples[than]
        diffs = [sum(w * x for w, x, _ in da) - sum(w * x for w, x, _ in db)
                 for da, db in zip(a, b)]
        n = len(diffs)
        if not n:  # no deal played out (a deadline stopped the first): nothing is known
            return 0.0, math.inf
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else math.inf
        return mean, 1.96 * sd / math.sqrt(n)


def playouts_per_deal(view: PlayerView, actions: Sequence[act.Action]) -> int:
    """The playouts one deal costs for ``actions``: one an action, one per extra cost for a
    tunnel claim (its exact law's cases)."""
    return sum(len(_cases(view, a)) for a in dict.fromkeys(actions))


def evaluate(view: PlayerView, legal: Sequence[act.Action], *, seed: int, budget: int = 16,
             policy: Strategy = DEFAULT_POLICY, max_playouts: int | None = None,
             deadline: float | None = None) -> Evaluation:
    """Each action of ``legal`` (the seat to move's legal actions, or a part of them) with its
    estimate from ``budget`` deals of what ``view``'s seat cannot see, best first (win share,
    then points). Reads only ``view`` and ``legal`` (I1).

    Bounds on the work: ``max_playouts`` caps the deals at the whole deals that many playouts
    allow (a fixed cap: the result stays a function of the arguments; it must allow one deal).
    ``deadline``, a ``time.process_time()`` value, is checked before every deal and playout
    (none is started that the dearest one so far would carry past it) and every few actions
    of a playout (one still running past it is abandoned); the deal stopped is dropped for
    every action (the deals stay common to all), and the evaluation says ``stopped``.
    A deadline that is not reached changes nothing; one that is makes the result depend on the
    machine's speed."""
    if not isinstance(view, PlayerView):
        raise TypeError(f"view: a PlayerView (Game.view(seat)), not {type(view).__name__}")
    if type(budget) is not int or not 1 <= budget <= MAX_BUDGET:
        raise ValueError(f"budget: a whole number of deals from 1 to {MAX_BUDGET}, not {budget!r}")
    if type(seed) is not int or seed < 0:
        raise ValueError(f"seed: a whole number >= 0, not {seed!r}")
    actions = list(dict.fromkeys(legal))
    if not 1 <= len(actions) <= MAX_ACTIONS:
        raise ValueError(f"legal: 1 to {MAX_ACTIONS} actions to compare, not {len(actions)}")
    if isinstance(view, LightView):  # a light view is read now, field by field: make it whole
        view = PlayerView(**{f: getattr(view, f) for f in PlayerView.__dataclass_fields__})
    team = view.team
    cases = {a: _cases(view, a) for a in actions}
    deals = budget
    if max_playouts is not None:
        per = sum(len(c) for c in cases.values())
        if type(max_playouts) is not int or max_playouts < per:
            raise ValueError(f"max_playouts: at least one deal's {per} playouts, "
                             f"not {max_playouts!r}")
        deals = min(budget, max_playouts // per)
    samples: dict = {a: [] for a in actions}
    chooser = _setup_chooser(policy)
    played = dealt = 0
    dearest = 0.0  # CPU seconds of the dearest playout so far (the deadline's forecast)
    dearest_deal = 0.0  # and of the dearest deal made so far
    stopped = False
    for i in range(deals):
        if deadline is not None:
            t0 = time.process_time()
            if t0 + dearest_deal + dearest > deadline:
                stopped = True
                break
        base = world(view, np.random.default_rng([seed, i]), chooser)
        if deadline is not None:
            dearest_deal = max(dearest_deal, time.process_time() - t0)
        deal: dict = {}
        for a in actions:
            per_deal = []
            for weight, k, color, reveals in cases[a]:
                if deadline is not None and time.process_time() + dearest > deadline:
                    stopped = True
                    break
                state = base.copy()
                if k is not None and not _arrange_reveal(state, color, reveals, k):
                    continue  # this deal cannot give k (its pile lacks the cards): skipped
                t0 = time.process_time() if deadline is not None else 0.0
                out: Outcome | None = play_out(
                    state, team, policy_bots(view.players, seed * 7919 + i, policy), first=a,
                    deadline=deadline)
                if out is None:  # the deadline passed during the playout: abandoned
                    stopped = True
                    break
                if deadline is not None:
                    dearest = max(dearest, time.process_time() - t0)
                played += 1
                per_deal.append((weight, float(out.won), float(out.margin)))
            if stopped:
                break
            total = sum(w for w, _, _ in per_deal)
            # the cases a deal could not give: the others' weights are scaled to sum to one
            deal[a] = [(w / total, x, m) for w, x, m in per_deal] if total else []
        if stopped:  # an unfinished deal is dropped for every action
            break
        for a in actions:
            samples[a].append(deal[a])
        dealt += 1
    estimates = [_estimate(a, samples[a], cases[a], view) for a in actions]
    estimates.sort(key=lambda e: (-e.win_share, -e.points))
    return Evaluation(view.seat, seed, budget, tuple(estimates), samples, dealt, played, stopped)


Case = tuple[float, "int | None", "Color | None", int]  # weight, extra cost, colour, reveals


def _cases(view: PlayerView, a: act.Action) -> list[Case]:
    """(weight, extra cost to arrange or None, colour, reveals) for the playouts of ``a``."""
    if not isinstance(a, act.Claim):
        return [(1.0, None, None, 0)]
    route = view.board.route(a.route)
    if not route.is_tunnel or view.draw_pile_size < route.reveals:
        return [(1.0, None, None, 0)]
    from ..odds import tunnel_odds

    odds = tunnel_odds(view, route, a)
    pmf = odds.law.pmf
    out: list[Case] = []
    for k in range(odds.spare + 1):
        if pmf.get(k, 0):
            out.append((float(pmf[k]), k, odds.color, route.reveals))
    short = 1 - odds.p_can_pay  # every cost above the spare cards is one case: withdraw (U3)
    if short:
        k = min(j for j in pmf if j > odds.spare)
        out.append((float(short), k, odds.color, route.reveals))
    return out


def _arrange_reveal(state: GameState, color, reveals: int, k: int) -> bool:
    """Put ``k`` cards matching ``color`` (U2, U5) among the ``reveals`` top cards of the draw
    pile (its end), the rest of them not matching, each group in the deal's random order."""
    from ..cards import CardCounts

    pile = state.draw_pile
    match = [i for i, c in enumerate(pile) if matching(CardCounts.of([c]), color)]
    other = [i for i, c in enumerate(pile) if not matching(CardCounts.of([c]), color)]
    if len(match) < k or len(other) < reveals - k:
        return False
    top = sorted(match[-k:] if k else []) + sorted(other[-(reveals - k):] if reveals > k else [])
    top.sort()
    chosen = [pile[i] for i in top]
    rest = [c for i, c in enumerate(pile) if i not in set(top)]
    state.draw_pile = rest + chosen  # the top (end) holds exactly k matching cards
    return True


def _setup_chooser(policy: Strategy):
    def choose(g: GameState, s: int) -> act.KeepTickets:
        pending = g.setup_choices.pop(s)
        mover = g.to_move
        g.to_move = s
        try:
            legal = keep_choices(tuple(g.offers[s]), SETUP_TICKETS_KEEP)
            choice = GreedyBot(seed=0, strategy=policy).choose(LightView(g, s), legal)
        finally:
            g.to_move = mover
        return choice if isinstance(choice, act.KeepTickets) else pending
    return choose


def _estimate(a: act.Action, per_deal: list, cases: list, view: PlayerView) -> Estimate:
    from scipy import stats

    deals = [d for d in per_deal if d]
    n = len(deals)
    if not n:
        return Estimate(a, math.nan, (math.nan, math.nan), math.nan, (math.nan, math.nan), 0)
    wins = [sum(w * x for w, x, _ in d) for d in deals]
    margins = [sum(w * m for w, _, m in d) for d in deals]
    share = sum(wins) / n
    points = sum(margins) / n
    t = float(stats.t.ppf(0.975, n - 1)) if n > 1 else math.inf
    if len(cases) == 1:
        won = round(sum(wins))
        ci = stats.binomtest(won, n).proportion_ci(0.95, method="wilson")
        win_ci = (float(ci.low), float(ci.high))
    else:
        win_ci = _normal_ci(wins, t)
    p_can_pay = None
    if isinstance(a, act.Claim) and view.board.route(a.route).is_tunnel:
        from ..odds import tunnel_odds

        p_can_pay = tunnel_odds(view, a.route, a).p_can_pay
    sd = _sd(margins)
    half = t * sd / math.sqrt(n) if n > 1 else math.inf
    return Estimate(a, share, win_ci, points, (points - half, points + half), n * len(cases),
                    p_can_pay)


def _sd(values: list[float]) -> float:
    n = len(values)
    if n < 2:
        return math.inf
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))


def _normal_ci(values: list[float], t: float) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    half = t * _sd(values) / math.sqrt(n) if n > 1 else math.inf
    return max(0.0, mean - half), min(1.0, mean + half)
