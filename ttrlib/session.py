"""SeatSession: one seat's window on a game, the only way a lesson widget reaches the game.

Everything a widget holds reaches the learner's browser, so a widget may hold only what its seat
may know (rule I1). A ``SeatSession`` gives it exactly that: the seat's ``view()``, its
``legal_actions()`` (only while it is this seat's move: they list the seat's own cards, but no
one else's), ``apply(action)``, the ``events()`` this seat may read and ``scores()`` that count
other seats' private tickets only once the game is over. The bots that play the other seats run
inside the session, each from its own seat's view.

>>> s = SeatSession.new(seed=7)
>>> s.view().phase.value, s.seat, s.seed, s.game_name
('setup_tickets', 0, 7, 'game 7')
>>> offer = s.view().ticket_offer
>>> from ttrlib import actions as act
>>> _ = s.apply(act.KeepTickets(offer[:3], share=offer[0]))
>>> s.legal_actions()  # A2 chooses now: nothing for this seat to do
[]

A session deals through the learner's door (:mod:`ttrlib.deals`): game 7 is dealt from a keyed
function of the number 7 (the same game on this installation, nobody can deal it offline), and
``SeatSession.new()`` without a number deals from 128 random bits. ``Game.new(seed=7)`` is the
other door, plain seeds for research and tests: it deals another game.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence

from . import actions as act
from . import deals
from .bots import GreedyBot, decide
from .errors import WrongPhase
from .events import Event
from .game import TRAINS_PER_PLAYER, Game, Phase, PlayerView
from .history import rng_state
from .rules import payments
from .rules.scoring import TeamScore, score
from .seats import check_seat, seat_name, team_count

#: Numbers drawn for a simulation or a tournament (the odds explorer, lesson 07): four digits
#: read well on screen. Not for deals: a deal without a number takes 128 random bits (deals).
SEED_RANGE = (1000, 9999)


def fresh_seed() -> int:
    """A four-digit number nobody can predict, for a simulation or a tournament (public: it
    deals no hidden cards)."""
    return random.SystemRandom().randint(*SEED_RANGE)


def new_game(seed: int, players: int = 4, trains: int = TRAINS_PER_PLAYER) -> Game:
    """The default deal from the deal's (secret) seed: a new game, ticket setup (T1) to come
    (``trains`` per player: fewer for a short game, C3 short-game policy)."""
    return Game.new(players=players, seed=seed, trains=trains)


def _bot_seed_of(game: Game) -> int:
    """The bots' root seed for a loaded game: 128 bits of a hash of its secret generator state
    (never shown), so every load of one save plays the same bots (issue 32.14)."""
    state = json.dumps(rng_state(game.state.rng), sort_keys=True).encode()
    return int.from_bytes(hashlib.sha256(b"ttrlib bots " + state).digest()[:16], "big")


def _deal_of(number: int | None, players: int) -> deals.Deal:
    """The deal of game ``number`` (``None``: a random deal); the argument is named ``seed``, as
    the callers of ``SeatSession.new`` and ``new_game`` call it."""
    if number is None:
        return deals.unnamed()
    return deals.named(deals.check_number(number, "seed"), players)


def view_claim_problem(view: PlayerView, route_id: str, claimable: set[str],
                       route_problem: Callable[[], tuple[str, str] | None]
                       ) -> tuple[str, str] | None:
    """Why the seat of ``view`` cannot claim ``route_id``, as ``(rule, reason)``; ``None`` if it
    can. ``claimable`` are the routes it could pay for now; ``route_problem()`` gives the engine's
    K3/K2 reason (public facts). The one wording for a local seat and a seat at a class table."""
    route = view.board.route(route_id)
    if route.id in view.claimed:
        return "K3", f"{route.a} - {route.b} is already claimed by {seat_name(view.claimed[route.id])}"
    if route.id in claimable:
        return None
    problem = route_problem()
    if problem:
        return problem
    have = payments.longest_payable(view.hand + view.team_cardholder)[route.color]
    what = (f"{route.color.value} cards or locomotives" if route.color is not None
            else "cards of one colour (plus locomotives)")
    short = route.length - have
    return "K1", (f"{route.a} - {route.b} costs {route.length} {what}; your hand and the "
                  f"team cardholder hold {have}, so {short} more "
                  f"{'is' if short == 1 else 'are'} missing (your teammate's hand cannot help)")


class SeatSession:
    """What seat ``seat`` may see of ``game`` and do in it; bots play the other seats.

    ``deal(seed) -> Game`` makes the game for ``new_game`` from the deal's secret seed (a keyed
    function of the game number, or 128 random bits). ``seed`` is the public game number
    shown to the learner ("game 4821"), ``None`` for a random deal (``game_name`` is then
    "random game 5c1e0a") or for a position given without one (``game_name`` is ``None``).
    The bots' seeds are secret too: keyed from the number, or random; only a set position
    given without a number (public: a lesson's example) has plain bots seeded 0, 1, 2, ...
    """

    def __init__(self, game: Game, seat: int = 0, *, bots: Sequence | None = None,
                 seed: int | None = None, deal: Callable[[int], Game] | None = None):
        seat = check_seat(seat, game.players)
        self._game = game
        self.seat = seat
        self._players = game.players
        self.deal = deal or (lambda s: new_game(s, game.players, game.trains_per_player))
        self._given_bots = bots
        self._named(None if seed is None else _deal_of(seed, game.players))

    @classmethod
    def new(cls, seed: int | None = None, seat: int = 0, *, players: int = 4,
            deal: Callable[[int], Game] | None = None, bots: Sequence | None = None
            ) -> "SeatSession":
        """Deal game ``seed`` (a public number), or a random game if ``seed`` is None."""
        players = deals.check_deal_players(players)
        check_seat(seat, players)  # before the deal: a wrong seat costs no game
        dealt = _deal_of(seed, players)
        deal = deal or (lambda s: new_game(s, players))
        session = cls(deal(dealt.seed), seat, bots=bots, deal=deal)
        session._players = players
        session._named(dealt)
        return session

    def _named(self, dealt: deals.Deal | None) -> None:
        """Take ``dealt``'s public name and bots (``None``: a set position without a number)."""
        self._deal = dealt
        self.seed = None if dealt is None else dealt.number
        self._bot_seed = None if dealt is None else dealt.bots
        self.bots = self._make_bots(self._given_bots)

    @property
    def game_name(self) -> str | None:
        """The game's public name on screen: "game 4821", "random game 5c1e0a", or ``None``
        for a position given without a number."""
        return None if self._deal is None else self._deal.name

    def _make_bots(self, bots: Sequence | None) -> list:
        if bots is not None:
            return list(bots)
        players = self._game.players
        if self._bot_seed is None:  # a set position without a number: public, reproducible
            return [GreedyBot(seed=s) for s in range(players)]
        # a numpy seed sequence (GreedyBot passes it to default_rng; its hint says an int)
        return [GreedyBot(seed=[self._bot_seed, s]) for s in range(players)]  # type: ignore[arg-type]

    def at_seat(self, seat: int) -> "SeatSession":
        """The same game and bots seen from another seat (a hot-seat screen passed on, T1)."""
        other = SeatSession(self._game, seat, bots=self.bots, deal=self.deal)
        other.seed, other._deal, other._players = self.seed, self._deal, self._players
        other._bot_seed = self._bot_seed
        other._given_bots = self._given_bots
        return other

    def new_game(self, seed: int | None = None) -> int | None:
        """Deal a new game: game ``seed`` (a public number), or a random deal; returns the
        number (``None`` for a random deal: ``game_name`` names it)."""
        dealt = _deal_of(seed, self._players)
        self._game = self.deal(dealt.seed)
        self._named(dealt)
        return self.seed

    @property
    def game(self) -> Game:
        """The whole game, for the library and tests. Widgets never touch it (rule I1)."""
        return self._game

    # --- what the seat may know --------------------------------------------------------------
    def view(self) -> PlayerView:
        return self._game.view(self.seat)

    def events(self) -> tuple[Event, ...]:
        """The public log as this seat may read it (``view().events``)."""
        return self.view().events

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def my_turn(self) -> bool:
        return not self._game.is_over and self._game.to_move == self.seat

    @property
    def turns(self) -> int:
        """Turns played so far (public: everybody counts them)."""
        return self._game.turns

    def legal_actions(self) -> list[act.Action]:
        """The legal actions when this seat is to move, else ``[]`` (another seat's legal moves
        would show that seat's cards)."""
        return self._game.legal_actions() if self.my_turn else []

    def scores(self) -> list[TeamScore]:
        """The score sheets. Before the end they count only the tickets this seat can read (its
        own and its team's shared ones) and claimed routes; other seats' private tickets, and
        other teams' shared ones, are scored only once the game is over (I1, E3)."""
        if self._game.is_over:
            return self._game.scores()
        view = self.view()
        tickets = [list(view.tickets) if s == self.seat else [] for s in range(view.players)]
        team_tickets = [list(view.team_tickets) if t == view.team else []
                        for t in range(team_count(view.players))]
        return score(view.board, view.players, view.claimed, tickets, team_tickets)

    def claim_problem(self, route_id: str) -> tuple[str, str] | None:
        """Why this seat cannot claim ``route_id`` now, as ``(rule, reason)``; ``None`` if it can.
        Worked out from the seat's view only (its cards, trains and the claimed routes)."""
        return view_claim_problem(self.view(), route_id, self.claimable_routes(),
                                  lambda: self._game.route_problem(self.seat, route_id))

    def claimable_routes(self) -> set[str]:
        """Ids of the routes this seat could pay for now (its own cards: K1-K3)."""
        return {r.id for r in self._game.claimable_routes(self.seat)}

    # --- acting ------------------------------------------------------------------------------
    def apply(self, action: act.Action) -> list[Event]:
        """Apply this seat's action; returns the events it caused (as this seat may read them).
        Another seat's turn raises ``WrongPhase`` (C2) and changes nothing."""
        if not self.my_turn:
            if self._game.is_over:
                raise WrongPhase("E1", "the game is over: nothing more can be played")
            raise WrongPhase("C2", f"it is {seat_name(self._game.to_move)}'s move, not yours")
        before = len(self.view().events)
        self._game.apply(action)
        return list(self.view().events[before:])

    def _bot_step(self) -> None:
        # a LightView to a bot that asks for one, closed before the action is applied
        self._game.apply(decide(self._game, self.bots[self._game.to_move]))

    def play_setup(self, humans: Sequence[int] | None = None) -> None:
        """Bots choose the setup tickets (T1) of every seat but ``humans`` (default: this seat),
        until a human seat must choose or the setup is over."""
        keep = {self.seat} if humans is None else set(humans)
        while self._game.phase is Phase.SETUP_TICKETS and self._game.to_move not in keep:
            self._bot_step()

    def play_others(self, limit: int = 2000) -> int:
        """Bots play until it is this seat's move again (or the game ends); returns the steps."""
        done = 0
        while not self._game.is_over and self._game.to_move != self.seat and done < limit:
            self._bot_step()
            done += 1
        return done

    def bot_plays_my_turn(self) -> None:
        """A bot plays this seat's whole turn (when a lesson offers no legal move, D4, T2)."""
        turns = self._game.turns
        while self.my_turn and self._game.turns == turns:
            self._bot_step()

    # --- saving (rule I1: the save never reaches the page) -----------------------------------
    def save(self, slot: str, folder=None, *, learner: str | None = None) -> str:
        """Save the game to a signed file on the server's side, in ``learner``'s own folder
        (``None``: the local user, ``folder`` itself); returns the slot name used. The game's
        public name goes with it."""
        from . import signed_save

        return signed_save.save(self._game, slot, folder, learner=learner,
                                game_name=self.game_name)

    def load(self, slot: str, folder=None, *, learner: str | None = None) -> None:
        """Resume a signed save of ``learner`` (``signed_save.SaveRefused`` says why one is
        refused; so is a save of another number of players or another board).

        The game goes on exactly as saved: the cards nobody has seen stay where they were and
        the generator is the saved one (the signed save holds them and never reaches the page,
        I1), and the bots' seeds come from that secret generator: loading the same save again
        gives the same game, so a reload is no free retry of a tunnel's reveal or a deck draw
        (issue 32.14). The public name comes back."""
        from . import signed_save

        saved = signed_save.open_save(slot, folder, learner=learner)
        game, here = saved.game, self._game
        if game.players != here.players:
            raise signed_save.SaveRefused(
                f"'{saved.slot}' is a {game.players}-player game; this one is played by "
                f"{here.players} players, so it cannot be loaded here")
        if game.board != here.board:
            raise signed_save.SaveRefused(
                f"'{saved.slot}' is played on the board {game.board.name!r:.60}, not on "
                f"{here.board.name!r:.60}, so it cannot be loaded here")
        self._game = game
        number, tag = signed_save.parse_game_name(saved.game_name)
        self._named(None if number is None and tag is None else deals.Deal(
            number, tag, deals.random_bits(), deals.random_bits()))
        self._bot_seed = _bot_seed_of(game)  # the same bots at every load of this save
        bots = self._given_bots
        self.bots = self._make_bots(bots if bots is not None and len(bots) == game.players
                                    else None)
