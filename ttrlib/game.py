"""The Team Asia game: a thin facade over one ``GameState`` and the rules' dispatch.

One entry point changes the game: ``game.apply(action)``. It applies a legal action or raises an
``IllegalMove`` naming the rule and the reason, and a rejected action leaves the game exactly as
it was: ``apply`` looks up the rule family's check (may raise, changes nothing) and effect
(never raises) in ``ttrlib.rules.dispatch``, and ``legal_actions`` the family's legal list. What
a seat sees is ``ttrlib.observer``; an exact position is built by ``ttrlib.positions``. The log
holds typed events (``ttrlib.events``); ``ttrlib.narration`` words them. The policies where the
rulebook is silent are listed in ``ttrlib.rules``.

A game keeps its start (the deal of ``new``, the position of ``from_position``) and its history,
every step since (``ttrlib.history``). ``to_json`` saves those two, ``from_json`` replays them,
so a loaded state is always what the rules made of its start (``ttrlib.save``).

>>> from ttrlib import Game, actions as act
>>> game = Game.new(players=4, seed=1)
>>> game.phase, game.to_move
(<Phase.SETUP_TICKETS: 'setup_tickets'>, 0)
>>> offer = game.ticket_offer()
>>> game.apply(act.KeepTickets(offer[:3], share=offer[0]))
>>> game.to_move
1
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import actions as act
from . import observer, positions, save
from .board import Board, Route
from .errors import ArgumentError, SaveError, TTRError, shown
from .events import Setup
from .history import (
    Resample,
    Reseed,
    Step,
    first_difference,
    rng_from_state,
    rng_state,
    step_from_plain,
    step_to_plain,
)
from .observer import PlayerView
from .positions import MAX_SEED
from .rules import claims, deck, dispatch, tickets
from .seats import PLAYER_COUNTS, TEAM_NAMES, check_seat, check_team, seat_name, team_name
from .state import (
    DRAW_TICKETS,
    END_TRIGGER_TRAINS,
    FACE_UP,
    MAX_FACE_UP_RESETS,
    SETUP_TICKETS_DEALT,
    SETUP_TICKETS_KEEP,
    STARTING_HAND,
    TRAINS_PER_PLAYER,
    GameState,
    Phase,
    TunnelAttempt,
)
from .state_fields import StateFields
from .validity import check_state, start_problem

if TYPE_CHECKING:
    from .rules.scoring import TeamScore

# The facade, and names the lessons and notebooks import from here (from observer, positions,
# seats and state): the exports `mypy --strict` takes from this module.
__all__ = ["Game", "PlayerView", "MAX_SEED", "PLAYER_COUNTS", "TEAM_NAMES", "check_seat",
           "check_team", "seat_name", "team_name", "DRAW_TICKETS", "END_TRIGGER_TRAINS", "FACE_UP",
           "MAX_FACE_UP_RESETS", "SETUP_TICKETS_DEALT", "SETUP_TICKETS_KEEP", "STARTING_HAND",
           "TRAINS_PER_PLAYER", "GameState", "Phase", "TunnelAttempt"]


class Game(StateFields):
    """A Team Asia game. Build one with ``Game.new`` or ``Game.from_position``. The fields of
    its ``state`` (``ttrlib.state.GameState``) read and set as attributes of the game
    (``ttrlib.state_fields``)."""

    def __init__(self, board: Board, players: int, rng: np.random.Generator):
        """An empty game with no record (it cannot be saved): use ``new`` or ``from_position``."""
        positions.check_players(players)
        self._wrap(GameState.empty(board, players, rng), None)

    def _wrap(self, state: GameState, origin: str | None) -> None:
        """Around ``state``; with an ``origin`` (``"new"``, ``"position"``) it is the start."""
        self.state, self._origin = state, origin
        self._history: list[Step] = []
        self._start = None if origin is None else state.copy()  # never changed: copied to replay
        # the last state to_json replayed the history to, as (steps, state) (never changed)
        self._replayed = None if self._start is None else (0, self._start)

    @classmethod
    def _around(cls, state: GameState, origin: str | None = None) -> Game:
        game = object.__new__(cls)
        game._wrap(state, origin)
        return game

    @classmethod
    def new(cls, players: int = 4, seed: int | None = None, board: Board | None = None, *,
            trains: int = TRAINS_PER_PLAYER) -> Game:
        """A new game: shuffled deck, 4 cards each (C4), 5 face up (C5), 5 tickets each (T1).
        ``seed``: ``None`` (fresh randomness) or a whole number 0 to ``MAX_SEED`` - 1; ``board``:
        a ``Board`` (``load_board``), by default the teaching board; ``trains`` per player: 27
        (C3) or fewer (its short-game policy). A bad argument is a ``SetupError`` naming it."""
        the_board, rng = positions.setup_args(players, seed, board, trains)
        s = GameState.empty(the_board, players, rng, trains)
        deck.deal_cards(s)
        tickets.deal_tickets(s)
        deck.log(s, Setup(players=players))
        return cls._around(s, "new")

    @classmethod
    def from_position(cls, **position: Any) -> Game:
        """An exact position in the TURN phase, for tests and lessons (setup already done): the
        arguments, all by name, are those of ``ttrlib.positions.position``, which documents them;
        a malformed position is refused with a ``SetupError`` that says where."""
        return cls._around(positions.position(**position), "position")

    def copy(self, rng: np.random.Generator | None = None) -> Game:
        """An independent copy: with a copy of the random generator, or with ``rng`` (the copy's
        history then records it: a ``history.Reseed`` step). A copy keeps the start and the
        history, so it saves as the same game."""
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise ArgumentError(f"rng: a numpy random Generator or None, not {shown(rng)}")
        return self._copy(rng, None if rng is None else Reseed(rng_state(rng)))

    def _copy(self, rng: np.random.Generator | None, step: Step | None) -> Game:
        new = Game._around(self.state.copy(rng))
        new._origin, new._start, new._replayed = self._origin, self._start, self._replayed
        new._history = list(self._history) + ([step] if step is not None else [])
        return new

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> Game:
        """A copy in which everything ``seat`` cannot see is dealt anew at random
        (``observer.deal_hidden``): every such copy is equally likely given what ``seat`` knows.

        The copy's history records the new deal (a ``history.Resample`` step with the state of
        ``rng`` before it), so a save of the copy replays it exactly. The copy plays on with
        ``rng`` itself: drawn from elsewhere afterwards, it no longer is what the copy's history
        says, and ``to_json`` of the copy refuses (give each copy a generator of its own)."""
        seat = self._seat(seat)
        if not isinstance(rng, np.random.Generator):
            raise ArgumentError(f"rng: a numpy random Generator, not {shown(rng)}")
        g = self._copy(rng, Resample(seat, rng_state(rng)))
        observer.deal_hidden(g.state, seat, rng)
        return g

    # --- reading the state -----------------------------------------------------------------
    def team_trains(self, team: int) -> int:
        return self.state.team_trains(check_team(team, self.players))

    def _seat(self, seat: Any) -> int:
        """``seat`` if it is a seat of this game (``None``: the seat to move)."""
        return self.state.to_move if seat is None else check_seat(seat, self.players)

    def ticket_offer(self, seat: int | None = None) -> list[str]:
        """The tickets ``seat`` (default: the seat to move) must choose from now."""
        return observer.ticket_offer(self.state, self._seat(seat))

    def view(self, seat: int) -> PlayerView:
        """The information set of ``seat`` (rule I1, ``ttrlib.observer.view``)."""
        if seat is None:  # a view is always one seat's (I1): no default
            raise ArgumentError(f"seat: whose view? a seat 0-{self.players - 1}, not None")
        return observer.view(self.state, self._seat(seat))

    def light_view(self, seat: int) -> observer.LightView:
        """``view(seat)`` built field by field as read, for one decision (``LightView``)."""
        return observer.LightView(self.state, self._seat(seat))

    def _check_invariants(self) -> None:
        """The one validity check (``ttrlib.validity``); the tests run it after every action."""
        check_state(self.state, AssertionError)

    # --- the one entry point, and what it accepts -------------------------------------------
    def apply(self, action: act.Action) -> None:
        """Apply a legal action, or raise ``IllegalMove`` and change nothing. The checks name
        every malformed field; anything else a check raises is a bug and propagates as such."""
        state = self.state
        rule = dispatch.RULES.get((state.phase, type(action)))
        if rule is None:
            raise dispatch.phase_error(state, action)
        rule.check(state, action)  # may raise; changes nothing
        rule.effect(state, action)  # never raises
        if state.held:  # a C6 reshuffle's event still waiting (rare)
            deck.release(state)
        self._history.append(action)

    def legal_actions(self, include_pass: bool = True) -> list[act.Action]:
        """Every action ``apply`` accepts now, each once (``ttrlib.rules.dispatch``)."""
        return dispatch.legal_actions(self.state, include_pass)

    def legal_claims(self, seat: int | None = None) -> list[act.Claim]:
        """Every legal ``Claim`` for ``seat`` (default: the seat to move) in the TURN phase."""
        return claims.legal_claims(self.state, self._seat(seat))

    def claimable_routes(self, seat: int | None = None) -> list[Route]:
        """Routes ``seat`` could pay for now with its hand and team cardholder (K1-K3)."""
        return claims.claimable_routes(self.state, self._seat(seat))

    def route_problem(self, seat: int, route_id: str) -> tuple[str, str] | None:
        """Why ``seat`` may not claim ``route_id`` whatever cards it lays, as ``(rule, reason)``:
        the track is closed (K3) or the seat lacks the trains (K2); ``None`` otherwise. Both
        depend only on public facts, so any seat may be told."""
        seat = self._seat(seat)
        if not (isinstance(route_id, str) and self.board.has_route(route_id)):
            raise ArgumentError(f"route_id: no route {shown(route_id)} on the board")
        return claims.route_problem(self.state, seat, route_id)

    # --- end of game, saving ----------------------------------------------------------------
    def scores(self) -> list[TeamScore]:
        """Each team's score sheet (E2-E6); final once ``is_over``."""
        from .rules.scoring import score

        return score(self.board, self.players, self.claimed, self.tickets, self.team_tickets)

    @property
    def history(self) -> tuple[Step, ...]:
        """Every step since the start, oldest first: the actions ``apply`` accepted and the
        chance steps of ``copy(rng)`` and ``resample_hidden`` (``ttrlib.history``)."""
        return tuple(self._history)

    def to_json(self, indent: int | None = None) -> str:
        """The game as JSON: its start and its history (``ttrlib.save``), from which
        ``from_json`` replays it. The history is first replayed (from where the last ``to_json``
        left it) and compared with the state: a state changed other than by ``apply`` is refused
        with a ``SaveError`` naming the first field that differs, as is a game too long for a
        save (``save.MAX_HISTORY``)."""
        if self._start is None or self._origin is None:
            raise SaveError("cannot save this game: it was not made by Game.new or "
                            "Game.from_position, so it has no start to replay from")
        if indent is not None and not (type(indent) is int and 0 <= indent <= 8):
            raise ArgumentError(f"indent: None or 0-8 spaces, not {shown(indent)}")
        plain = [step_to_plain(step) for step in self._history]
        self._check_replay(plain)
        return save.write(self._origin, self._start, plain, indent)

    def _check_replay(self, plain: list[dict[str, Any]]) -> None:
        """``SaveError`` unless the history, read back from ``plain`` as ``from_json`` reads
        it, replays from the start to this game's state."""
        assert self._replayed is not None  # a game with a start has replayed to it
        done, replayed = self._replayed
        if done < len(plain):
            game = Game._around(replayed.copy())
            for i in range(done, len(plain)):
                try:
                    game = game._step(step_from_plain(plain[i]))
                except TTRError as exc:
                    raise SaveError(f"cannot save this game: step {i} of its history "
                                    f"({shown(plain[i])}) is refused when replayed from its "
                                    f"start ({exc}): the game was changed other than by "
                                    "Game.apply") from None
            self._replayed = done, replayed = len(plain), game.state
        differs = first_difference(self.state, replayed)
        if differs:
            raise SaveError(f"cannot save this game: its {differs!r} is not what its history "
                            "gives (the state was changed other than by Game.apply; a position "
                            "built by hand is made with Game.from_position)")

    def _step(self, step: Step) -> Game:
        """Take one step of a history; the game it leaves (a chance step makes a copy)."""
        if isinstance(step, Resample):
            return self.resample_hidden(step.seat, rng_from_state(step.rng))
        if isinstance(step, Reseed):
            return self.copy(rng_from_state(step.rng))
        self.apply(step)
        return self

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Resume a game saved with ``to_json``; ``SaveError`` names what is wrong. The start
        must be a valid position (``validity.check_state``) made as its origin makes one
        (``validity.start_problem``); then every step of the history is replayed with the rules
        (each must be legal). Nothing else of the state is read from the text."""
        saved = save.read(text)
        position = saved.origin == "position"  # E1: as from_position allows (validity)
        problem = check_state(saved.start, position=position) or start_problem(saved.start,
                                                                                saved.origin)
        if problem:
            raise SaveError(f"saved game: field 'start.{problem[0]}': {problem[1]}")
        game = cls._around(saved.start, saved.origin)
        for i, step in enumerate(saved.history):
            try:
                game = game._step(step)
            except TTRError as exc:
                raise SaveError(f"saved game: field 'history[{i}]': step {i} cannot be taken: "
                                f"{exc}") from None
        problem = check_state(game.state, position=position)
        if problem:  # the rules keep every state valid: this would be a bug of the engine
            raise SaveError(f"saved game: field 'history': it replays to a broken game: "
                            f"{problem[0]!r}: {problem[1]}")
        game._replayed = (len(game._history), game.state.copy())
        return game

    def __repr__(self) -> str:
        return (f"<Game {self.players} players, {self.phase.value}, {seat_name(self.to_move)} to "
                f"move, turn {self.turns}>")

