"""Seeded bots and ``play``, which runs a game to the end.

A bot decides from what its seat may know: ``choose(view, legal)`` gets the seat's
``PlayerView`` (rule I1) and the list of legal actions, nothing else.

>>> from ttrlib import Game
>>> scores = play(Game.new(players=4, seed=3), [RandomBot(seed=s) for s in range(4)])
>>> [s.team for s in scores]
[0, 1]
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, get_args

import numpy as np

from . import actions as act
from .board import Board, Route
from .cards import COLORS, TRAIN_COLORS, Color, Place
from .game import Game, Phase, PlayerView
from .rules import tracks
from .rules.scoring import TeamScore
from .seats import team_of


class RandomBot:
    """Chooses uniformly among the legal actions, with its own seeded generator."""

    needs_view = False  # it never looks, so ``play`` need not build a view for it

    def __init__(self, seed: Seed = None):
        self.rng = np.random.default_rng(seed)

    def choose(self, view: PlayerView, legal: Sequence[act.Action]) -> act.Action:
        return legal[int(self.rng.integers(len(legal)))]


#: A bot's seed: what numpy's ``default_rng`` takes (a number, a list of numbers or None)
Seed = Any

#: The settings a ``Strategy`` chooses among (its ``__post_init__`` refuses any other value).
FirstCard = Literal["need", "hand", "cardholder"]
Locomotives = Literal["keep", "share"]
ShareTickets = Literal["never", "early"]


@dataclass(frozen=True)
class Strategy:
    """The choices a team argues about, as named settings a learner can read.

    - ``first_card``: where the first drawn card goes (D1): ``"need"`` (the hand if the plan
      needs its colour, else the team cardholder), ``"hand"`` or ``"cardholder"``;
    - ``locomotives``: a drawn locomotive placed by choice is ``"keep"`` (hand) or ``"share"``
      (team cardholder); it overrides ``first_card`` for locomotives;
    - ``share_tickets``: ``"never"`` spend a turn sharing tickets (T4), or ``"early"``: share the
      most valuable private ticket on the first turn that allows it, while the team ticket
      cardholder holds fewer than ``share_until`` tickets;
    - ``tunnel_threshold``: attempt a tunnel only when the exact chance of being able to pay
      its extra cost, seen from the bot's own seat (``tunnel_odds(...).p_can_pay``), is at least
      this (``None``: always attempt);
    - ``odds_aware``: lay down a tunnel's cards the way ``best_payment`` ranks first (the best
      chance to pay the extra cost) instead of the longest-route rule of thumb.

    ``Strategy()`` is the original ``GreedyBot``: its decisions are unchanged.
    """

    name: str = "greedy"
    first_card: FirstCard = "need"
    locomotives: Locomotives = "keep"
    share_tickets: ShareTickets = "never"
    share_until: int = 2
    tunnel_threshold: float | None = None
    odds_aware: bool = False

    def __post_init__(self):
        choices = {"first_card": get_args(FirstCard), "locomotives": get_args(Locomotives),
                   "share_tickets": get_args(ShareTickets)}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"Strategy.{name} must be one of {', '.join(allowed)}, "
                                 f"not {getattr(self, name)!r}")
        t = self.tunnel_threshold
        if t is not None and not 0 <= t <= 1:
            raise ValueError(f"Strategy.tunnel_threshold is a chance in [0, 1], not {t!r}")

    def describe(self) -> str:
        """The strategy in words, for a lesson."""
        where = {"need": "the first card to the hand if the plan needs its colour, else to "
                         "the team", "hand": "the first card to the hand",
                 "cardholder": "the first card to the team cardholder"}[self.first_card]
        loco = "locomotives kept in hand" if self.locomotives == "keep" else \
            "locomotives shared in the team cardholder"
        tickets = "never spends a turn sharing tickets" if self.share_tickets == "never" else \
            "shares its best ticket early"
        tunnel = ("tries every tunnel it can pay" if self.tunnel_threshold is None else
                  f"tries a tunnel only with at least a {self.tunnel_threshold:.0%} chance to "
                  "pay the extra cards")
        lay = "; lays down the cards that give the best chance" if self.odds_aware else ""
        return f"{self.name}: {where}; {loco}; {tickets}; {tunnel}{lay}."


class GreedyBot:
    """Works toward its own and its team's tickets, seeing only its seat's view.

    Each turn it plans the cheapest way (in trains) to join the cities of every unfinished ticket
    it can see (its own and the team's shared ones), over routes that are its team's or still
    open to it. It claims the longest planned route it can pay for; otherwise it draws cards of
    the colours the plan needs; with no plan left it draws tickets while the deck and its trains
    allow, and else claims the longest route it can. On the turn after it withdraws from a
    tunnel (U3) it does anything else legal before trying that tunnel again. Ties are broken by
    its seeded generator.
    A :class:`Strategy` changes the choices it names; the default is the behaviour above.
    """

    light_view = True  # reads a few fields of its view, during ``choose`` only (``play``)

    def __init__(self, seed: Seed = None, strategy: Strategy | None = None):
        self.rng = np.random.default_rng(seed)
        self.strategy = strategy or Strategy()
        self._net: _Network | None = None  # the routes open to this seat, as last seen
        self._plans: dict = {}  # tickets -> plan, for that network
        # The tunnel this bot withdrew from on its last turn: it tries something else first on
        # its next turn. Without it a deal can loop for ever (CI, 7 Dec): every seat retrying the
        # one tunnel it cannot pay, when the cards left to reveal are exactly the ones that cost.
        self._withdrew: str | None = None

    # --- decisions ----------------------------------------------------------------------------
    def choose(self, view: PlayerView, legal: Sequence[act.Action]) -> act.Action:
        phase = view.phase
        if phase is Phase.SETUP_TICKETS or phase is Phase.CHOOSE_TICKETS:
            return self._keep(view, legal)
        if phase is Phase.TUNNEL:
            pays = [a for a in legal if isinstance(a, act.PayTunnel)]
            if not pays:
                self._withdrew = view.tunnel.route if view.tunnel else None
                return act.Withdraw()
            # Pay from the team cardholder first: the hand is the private reserve.
            return max(pays, key=lambda a: len(a.cardholder))
        if phase is Phase.PLACE_CARD:
            return act.PlaceCard(self._place(view))
        if phase is Phase.SECOND_CARD:
            return self._draw(view, legal)
        return self._turn(view, legal)

    def _place(self, view: PlayerView) -> Place:
        st = self.strategy
        if view.drawn_card is Color.LOCOMOTIVE:
            return Place.HAND if st.locomotives == "keep" else Place.CARDHOLDER
        if st.first_card != "need":
            return Place(st.first_card)
        return Place.HAND if view.drawn_card in self._needed_colors(view) else Place.CARDHOLDER

    def _keep(self, view: PlayerView, legal: Sequence[act.Action]) -> act.Action:
        offer = list(view.ticket_offer)
        minimum = 3 if view.phase is Phase.SETUP_TICKETS else 1
        cost = {t: self._ticket_cost(view, t) for t in offer}
        ranked = sorted(offer, key=lambda t: (cost[t], t))
        keep = ranked[:minimum]
        share = max(keep, key=lambda t: (view.board.ticket(t).points, t))
        choice = act.KeepTickets(keep, share)
        return choice if choice in legal else legal[0]

    def _turn(self, view: PlayerView, legal: Sequence[act.Action]) -> act.Action:
        withdrew, self._withdrew = self._withdrew, None
        others = [a for a in legal if not (isinstance(a, act.Claim) and a.route == withdrew)]
        if others:  # not the tunnel just failed, while anything else is legal
            legal = others
        share = self._share(view, legal)
        if share is not None:
            return share
        claims = [a for a in legal if isinstance(a, act.Claim)]
        plan = self._plan(view)
        board = view.board
        # The tunnel filter judges each claim alone, so it is asked only about the claims this
        # decision reads: the planned ones first, the others only if no plan or draw decides.
        wanted = self._tunnel_filter(view, [c for c in claims if c.route in plan])
        if wanted:
            return self._best_claim(board, wanted)
        draws = [a for a in legal if isinstance(a, act.DrawCard)]
        if plan and draws:
            return self._draw(view, legal)
        trains = view.trains[view.seat]
        if not plan and view.ticket_deck_size and trains >= 12 and act.DrawTickets() in legal:
            return act.DrawTickets()
        claims = self._tunnel_filter(view, claims)
        if claims:
            return self._best_claim(board, claims)
        if draws:
            return self._draw(view, legal)
        return legal[int(self.rng.integers(len(legal)))]

    def _share(self, view: PlayerView, legal: Sequence[act.Action]) -> act.Action | None:
        """T4: share the most valuable private ticket early, if the strategy says so."""
        st = self.strategy
        if st.share_tickets != "early" or not view.tickets \
                or len(view.team_tickets) >= st.share_until:
            return None
        best = max(view.tickets, key=lambda t: (view.board.ticket(t).points, t))
        action = act.ShareTickets([best])
        return action if action in legal else None

    def _tunnel_filter(self, view: PlayerView, claims: list[act.Claim]) -> list[act.Claim]:
        """Drop tunnel claims below the strategy's threshold; with ``odds_aware`` keep, for each
        tunnel, only the way to lay down that ``best_payment`` ranks first."""
        st = self.strategy
        if st.tunnel_threshold is None and not st.odds_aware:
            return claims
        from .odds import best_payment, tunnel_odds

        board, out, best = view.board, [], {}
        for c in claims:
            route = board.route(c.route)
            if not route.tunnel:
                out.append(c)
                continue
            if st.odds_aware:
                if c.route not in best:
                    ranked = best_payment(view, route)
                    best[c.route] = ranked[0] if ranked else None
                top = best[c.route]
                if top is None or top.claim != c:
                    continue
                odds = top
            else:
                odds = tunnel_odds(view, route, c)
            if st.tunnel_threshold is None or odds.p_can_pay >= st.tunnel_threshold:
                out.append(c)
        return out

    def _best_claim(self, board: Board, claims: list[act.Claim]) -> act.Claim:
        # Longest route first, then spend the fewest locomotives, then prefer the cardholder.
        loco = Color.LOCOMOTIVE
        keys = [(board.route(c.route).length, -(c.hand[loco] + c.cardholder[loco]),
                 len(c.cardholder)) for c in claims]
        best = max(keys)
        top = [c for c, k in zip(claims, keys) if k == best]
        return top[int(self.rng.integers(len(top)))]

    def _draw(self, view: PlayerView, legal: Sequence[act.Action]) -> act.Action:
        draws = [a for a in legal if isinstance(a, act.DrawCard)]
        needed = self._needed_colors(view)
        for a in draws:
            if a.source != "deck" and view.face_up[a.source] in needed:
                return a
        if act.DrawCard("deck") in draws:
            return act.DrawCard("deck")
        return draws[int(self.rng.integers(len(draws)))]

    # --- planning -----------------------------------------------------------------------------
    def _needed_colors(self, view: PlayerView) -> set[Color]:
        plan = self._plan(view)
        route_colours = {view.board.route(r).color for r in plan}
        colours = {c for c in route_colours if c is not None}
        if None in route_colours:
            both = view.hand + view.team_cardholder
            # A gray route takes the colour held most.
            colours.add(max(TRAIN_COLORS, key=lambda c: (both[c], -COLORS.index(c))))
        return colours

    def _network(self, view: PlayerView) -> _Network:
        """The routes open to this seat. A claim changes only the claimed route and its parallel
        tracks (K3), so the network follows the board claim by claim; it is built afresh for
        another board, seat or game (claims that are not a growth of the last ones seen)."""
        net = self._net
        if net is not None and net.follows(view):
            if net.update(view.claimed):
                self._plans = {}
            return net
        self._net = _Network(view)
        self._plans = {}
        return self._net

    def _ticket_cost(self, view: PlayerView, ticket: str) -> int:
        t = view.board.ticket(ticket)
        cost, _ = self._network(view).path(t.a, t.b)
        return 1 << 20 if cost is None else cost

    def _plan(self, view: PlayerView) -> set[str]:
        """Open routes on the cheapest paths of the visible unfinished tickets."""
        net = self._network(view)
        key = (tuple(view.tickets), tuple(view.team_tickets))
        plan = self._plans.get(key)
        if plan is None:
            plan = set()
            cost_of = net.cost
            for tid in view.tickets + view.team_tickets:
                t = view.board.ticket(tid)
                cost, routes = net.path(t.a, t.b)
                if cost:  # None: impossible; 0: already joined
                    plan.update(r for r in routes if cost_of[r])  # 0: the team's already
            self._plans[key] = plan
        return set(plan)  # a copy: callers may not change the kept one


class _Network:
    """One seat's routes: cost in trains (0 if its team owns the route, its length if still open
    to the seat, absent if closed), their adjacency, and the cheapest paths asked for so far.

    A path is kept with what its search read: the cities it expanded (it read their routes and
    no others) and the routes that shortened a distance. A search from scratch would run
    exactly the same steps, ties included, unless a route got cheaper or opened at an expanded
    city, or a route that shortened a distance closed (a closed route that shortened nothing
    was a step without effect). A claim therefore drops only the paths it could change, and
    the plans stay exactly those of a search from scratch.
    """

    def __init__(self, view: PlayerView):
        self.board, self.seat, self.players = view.board, view.seat, view.players
        self.team = view.team
        self.claimed = dict(view.claimed)
        self.cost = {r.id: self._cost(r) for r in self.board.routes}  # None: closed
        # Before any claim every seat has the same network: its paths are shared by every bot
        # and game on the board (the tickets' searches at set-up are made once).
        self.paths: dict[tuple[str, str], _Path] = dict(_first_paths(self.board)) \
            if not self.claimed else {}
        # Each city's routes in board order: the searches' tie-breaks follow this order.
        self.incident: dict[str, list[tuple[str, Route]]] = {}
        for r in self.board.routes:
            self.incident.setdefault(r.a, []).append((r.b, r))
            self.incident.setdefault(r.b, []).append((r.a, r))
        self.adj: dict[str, list[tuple[str, int, str]]] = {city: [] for city in self.incident}
        for city in self.incident:
            self._link(city)

    def _cost(self, route: Route) -> int | None:
        owner = self.claimed.get(route.id)
        if owner is not None:
            return 0 if team_of(owner) == self.team else None
        if tracks.closed_reason(self.board, route, self.claimed, self.seat, self.players) is None:
            return route.length
        return None

    def _link(self, city: str) -> None:
        cost = self.cost
        self.adj[city] = [(other, c, r.id) for other, r in self.incident[city]
                          if (c := cost[r.id]) is not None]

    def follows(self, view: PlayerView) -> bool:
        """Whether ``view`` is this seat later in the same game: every claim seen is still there."""
        return view.board is self.board and view.seat == self.seat \
            and view.players == self.players and view.claimed.items() >= self.claimed.items()

    def update(self, claimed: dict[str, int]) -> bool:
        """Take in the new claims; whether any route's cost changed."""
        if len(claimed) == len(self.claimed):
            return False  # ``follows`` checked that the old claims are all still there
        added = [rid for rid in claimed if rid not in self.claimed]
        self.claimed = dict(claimed)
        board = self.board
        touched = set(added)
        for rid in added:
            touched.update(tracks.parallel_ids(board, board.route(rid)))
        near: set[str] = set()
        cheaper: set[str] = set()
        closed: set[str] = set()
        for rid in touched:
            route = board.route(rid)
            cost = self._cost(route)
            if cost != self.cost[rid]:
                self.cost[rid] = cost
                near.update((route.a, route.b))
                if cost is None:
                    closed.add(rid)
                else:  # opened, or now the team's (0 trains)
                    cheaper.update((route.a, route.b))
        if not near:
            return False
        for city in near:
            self._link(city)
        self.paths = {k: p for k, p in self.paths.items()
                      if cheaper.isdisjoint(p.expanded) and closed.isdisjoint(p.shortened)}
        return True

    def path(self, a: str, b: str) -> tuple[int | None, list[str]]:
        """The cheapest path from ``a`` to ``b``: (trains, route ids), or (None, [])."""
        found = self.paths.get((a, b))
        if found is None:
            found = self.paths[(a, b)] = _search(self.adj, a, b)
            if not self.claimed:
                _first_paths(self.board)[(a, b)] = found
        return found.cost, found.routes


# board id -> (board, the paths of the network before any claim); the board is kept so that its
# id is never reused while the entry exists (as in ``tracks.parallel_ids``).
_FIRST_PATHS: dict[int, tuple[Board, dict[tuple[str, str], _Path]]] = {}


def _first_paths(board: Board) -> dict:
    entry = _FIRST_PATHS.get(id(board))
    if entry is None or entry[0] is not board:
        if len(_FIRST_PATHS) > 64:  # tests build many small boards
            _FIRST_PATHS.clear()
        entry = _FIRST_PATHS[id(board)] = (board, {})
    return entry[1]


class _Path(NamedTuple):
    cost: int | None  # trains; None: no path
    routes: list[str]
    expanded: set[str]  # the cities whose routes the search read
    shortened: set[str]  # the routes that shortened a distance during the search


def _search(adj, a: str, b: str) -> _Path:
    """Dijkstra from ``a`` until ``b`` is reached, with what it read (see ``_Network``)."""
    dist, prev, expanded, shortened = {a: 0}, {}, set(), set()
    heap = [(0, a)]
    push, pop, far = heapq.heappush, heapq.heappop, 1 << 30  # locals: the loop runs often
    while heap:
        d, city = pop(heap)
        if city == b:
            break
        if d > dist[city]:
            continue
        expanded.add(city)
        for nxt, w, rid in adj.get(city, ()):
            nd = d + w
            if nd < dist.get(nxt, far):
                dist[nxt] = nd
                prev[nxt] = (city, rid)
                shortened.add(rid)
                push(heap, (nd, nxt))
    if b not in dist:
        return _Path(None, [], expanded, shortened)
    routes, city = [], b
    while city != a:
        city, rid = prev[city]
        routes.append(rid)
    return _Path(dist[b], routes, expanded, shortened)


def decide(game: Game, bot: Any, legal: Sequence[act.Action] | None = None) -> act.Action:
    """``bot``'s choice for the seat to move of ``game`` among ``legal`` (default: the legal
    actions), handed the view it asks for: a ``LightView`` to a bot with ``light_view = True``
    (closed before the action is applied), none to one with ``needs_view = False``, else the
    full ``view``. ``play``, the sessions and the class server ask their bots through this."""
    seat = game.to_move
    if legal is None:
        legal = game.legal_actions()
    if getattr(bot, "light_view", False):  # builds only the fields the bot reads
        view = game.light_view(seat)
        try:
            return bot.choose(view, legal)
        finally:
            view.close()
    return bot.choose(game.view(seat) if getattr(bot, "needs_view", True) else None, legal)


def play(game: Game, bots: Sequence, max_actions: int = 100_000) -> list[TeamScore]:
    """Run ``game`` to the end, seat ``s`` played by ``bots[s]``; returns ``game.scores()``."""
    if len(bots) != game.players:
        raise ValueError(f"{game.players} seats need {game.players} bots, got {len(bots)}")
    for _ in range(max_actions):
        if game.is_over:
            return game.scores()
        game.apply(decide(game, bots[game.to_move]))
    raise RuntimeError(f"the game did not end within {max_actions} actions")
