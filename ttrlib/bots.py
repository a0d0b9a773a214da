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

import numpy as np

from . import actions as act
from .board import Board
from .cards import COLORS, TRAIN_COLORS, Color
from .game import Game, Phase, PlayerView
from .rules import tracks
from .rules.scoring import TeamScore


class RandomBot:
    """Chooses uniformly among the legal actions, with its own seeded generator."""

    needs_view = False  # it never looks, so ``play`` need not build a view for it

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def choose(self, view: PlayerView, legal: Sequence[act.Action]) -> act.Action:
        return legal[int(self.rng.integers(len(legal)))]


class GreedyBot:
    """Works toward its own and its team's tickets, seeing only its seat's view.

    Each turn it plans the cheapest way (in trains) to join the cities of every unfinished ticket
    it can see (its own and the team's shared ones), over routes that are its team's or still
    open to it. It claims the longest planned route it can pay for; otherwise it draws cards of
    the colours the plan needs; with no plan left it draws tickets while the deck and its trains
    allow, and else claims the longest route it can. Ties are broken by its seeded generator.
    """

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    # --- decisions ----------------------------------------------------------------------------
    def choose(self, view: PlayerView, legal: Sequence[act.Action]) -> act.Action:
        phase = view.phase
        if phase is Phase.SETUP_TICKETS or phase is Phase.CHOOSE_TICKETS:
            return self._keep(view, legal)
        if phase is Phase.TUNNEL:
            pays = [a for a in legal if isinstance(a, act.PayTunnel)]
            # Pay from the team cardholder first: the hand is the private reserve.
            return max(pays, key=lambda a: len(a.cardholder)) if pays else act.Withdraw()
        if phase is Phase.PLACE_CARD:
            needed = self._needed_colors(view)
            keep = view.drawn_card is Color.LOCOMOTIVE or view.drawn_card in needed
            return act.PlaceCard("hand" if keep else "cardholder")
        if phase is Phase.SECOND_CARD:
            return self._draw(view, legal)
        return self._turn(view, legal)

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
        claims = [a for a in legal if isinstance(a, act.Claim)]
        plan = self._plan(view)
        board = view.board
        wanted = [c for c in claims if c.route in plan]
        if wanted:
            return self._best_claim(board, wanted)
        draws = [a for a in legal if isinstance(a, act.DrawCard)]
        if plan and draws:
            return self._draw(view, legal)
        trains = view.trains[view.seat]
        if not plan and view.ticket_deck_size and trains >= 12 and act.DrawTickets() in legal:
            return act.DrawTickets()
        if claims:
            return self._best_claim(board, claims)
        if draws:
            return self._draw(view, legal)
        return legal[int(self.rng.integers(len(legal)))]

    def _best_claim(self, board: Board, claims: list[act.Claim]) -> act.Claim:
        # Longest route first, then spend the fewest locomotives, then prefer the cardholder.
        def key(c: act.Claim):
            return (board.route(c.route).length, -c.cards[Color.LOCOMOTIVE], len(c.cardholder))
        best = max(key(c) for c in claims)
        top = [c for c in claims if key(c) == best]
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
        colours = {view.board.route(r).color for r in plan}
        if None in colours:
            colours.discard(None)
            both = view.hand + view.team_cardholder
            # A gray route takes the colour held most.
            colours.add(max(TRAIN_COLORS, key=lambda c: (both[c], -COLORS.index(c))))
        return colours

    def _usable(self, view: PlayerView):
        """Route -> cost in trains: 0 if the team owns it, its length if still open to us."""
        board, team = view.board, view.team
        out = {}
        for r in board.routes:
            owner = view.claimed.get(r.id)
            if owner is not None:
                if owner // 2 == team:
                    out[r.id] = 0
            elif tracks.closed_reason(board, r, view.claimed, view.seat, view.players) is None:
                out[r.id] = r.length
        return out

    def _path(self, view: PlayerView, a: str, b: str, usable: dict[str, int]):
        adj: dict[str, list[tuple[str, int, str]]] = {}
        for rid, w in usable.items():
            r = view.board.route(rid)
            adj.setdefault(r.a, []).append((r.b, w, rid))
            adj.setdefault(r.b, []).append((r.a, w, rid))
        dist, prev = {a: 0}, {}
        heap = [(0, a)]
        while heap:
            d, city = heapq.heappop(heap)
            if city == b:
                break
            if d > dist[city]:
                continue
            for nxt, w, rid in adj.get(city, []):
                if d + w < dist.get(nxt, 1 << 30):
                    dist[nxt] = d + w
                    prev[nxt] = (city, rid)
                    heapq.heappush(heap, (d + w, nxt))
        if b not in dist:
            return None, []
        routes, city = [], b
        while city != a:
            city, rid = prev[city]
            routes.append(rid)
        return dist[b], routes

    def _ticket_cost(self, view: PlayerView, ticket: str) -> int:
        t = view.board.ticket(ticket)
        cost, _ = self._path(view, t.a, t.b, self._usable(view))
        return 1 << 20 if cost is None else cost

    def _plan(self, view: PlayerView) -> set[str]:
        """Open routes on the cheapest paths of the visible unfinished tickets."""
        usable = self._usable(view)
        plan: set[str] = set()
        for tid in view.tickets + view.team_tickets:
            t = view.board.ticket(tid)
            cost, routes = self._path(view, t.a, t.b, usable)
            if cost:  # None: impossible; 0: already joined
                plan.update(r for r in routes if usable[r] > 0)
        return plan


def play(game: Game, bots: Sequence, max_actions: int = 100_000) -> list[TeamScore]:
    """Run ``game`` to the end, seat ``s`` played by ``bots[s]``; returns ``game.scores()``."""
    if len(bots) != game.players:
        raise ValueError(f"{game.players} seats need {game.players} bots, got {len(bots)}")
    for _ in range(max_actions):
        if game.is_over:
            return game.scores()
        seat = game.to_move
        legal = game.legal_actions()
        bot = bots[seat]
        view = game.view(seat) if getattr(bot, "needs_view", True) else None
        game.apply(bot.choose(view, legal))
    raise RuntimeError(f"the game did not end within {max_actions} actions")
