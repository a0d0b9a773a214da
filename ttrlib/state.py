"""The one declared game state: every fact of a Team Asia game, in one dataclass.

``GameState`` holds what a game is (cards, tickets, claimed routes, the decision pending, the
log); the rule families (``ttrlib.rules``) read and change it, ``ttrlib.game.Game`` wraps it.
Caches that can be rebuilt from it (the open routes, the legal-action tables) are not in it.
``ttrlib.validity.check_state`` is the one check of a state: positions built by hand, loaded
games and every action keep it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import numpy as np

from . import actions as act
from .board import Board
from .cards import EMPTY, CardCounts, Color
from .events import Event

TRAINS_PER_PLAYER = 27  # C3
STARTING_HAND = 4  # C4
FACE_UP = 5  # C5
MAX_FACE_UP_RESETS = 5  # C5 policy
SETUP_TICKETS_DEALT = 5  # T1
SETUP_TICKETS_KEEP = 3  # T1
DRAW_TICKETS = 4  # T2
END_TRIGGER_TRAINS = 4  # E1


class Phase(str, enum.Enum):
    """The decision the game waits for."""

    SETUP_TICKETS = "setup_tickets"  # T1: keep >= 3 of 5, share 1
    TURN = "turn"  # choose what to do this turn
    PLACE_CARD = "place_card"  # D1: the first drawn card goes to hand or cardholder
    SECOND_CARD = "second_card"  # D1, D3: draw the second card
    CHOOSE_TICKETS = "choose_tickets"  # T2: keep >= 1 of the drawn tickets, share 1
    TUNNEL = "tunnel"  # U2, U3: pay the extra cost or withdraw
    OVER = "over"


@dataclass(frozen=True)
class TunnelAttempt:
    """A tunnel claim waiting for payment: the cards laid, the cards revealed, what is owed."""

    route: str
    seat: int
    laid_hand: CardCounts
    laid_holder: CardCounts
    revealed: tuple[Color, ...]
    color: Color  # the colour used (U7); LOCOMOTIVE for a locomotives-only claim (U5)
    extra: int  # U2

    @property
    def laid(self) -> CardCounts:
        return self.laid_hand + self.laid_holder


@dataclass(eq=False)
class GameState:
    """Everything a game is. Lists are the state's own (``copy`` copies them)."""

    board: Board
    players: int
    rng: np.random.Generator
    draw_pile: list[Color] = field(default_factory=list)  # top of the pile is the END
    discard: list[Color] = field(default_factory=list)
    face_up: list[Color | None] = field(default_factory=lambda: [None] * FACE_UP)
    hands: list[CardCounts] = field(default_factory=list)
    holders: list[CardCounts] = field(default_factory=list)  # one train cardholder per team
    known_hand: list[CardCounts] = field(default_factory=list)  # I1: cards all have seen
    known_holder: list[CardCounts] = field(default_factory=list)
    trains: list[int] = field(default_factory=list)
    owners: dict[str, int] = field(default_factory=dict)  # route id -> seat, in claim order
    ticket_deck: list[str] = field(default_factory=list)  # top first; T3 returns at the end
    tickets: list[list[str]] = field(default_factory=list)
    team_tickets: list[list[str]] = field(default_factory=list)
    offers: list[list[str]] = field(default_factory=list)
    setup_choices: dict[int, act.KeepTickets] = field(default_factory=dict)
    phase: Phase = Phase.SETUP_TICKETS
    to_move: int = 0
    drawn: Color | None = None
    # D1, D3 policy: the face-up slot the pending first card came from; it stays empty (None)
    # until the card is placed, and only then is the replacement turned up and C5 checked.
    taken_slot: int | None = None
    first_to: str | None = None
    tunnel: TunnelAttempt | None = None
    final_turns_left: int | None = None
    passes_in_a_row: int = 0
    turns: int = 0
    events: list[Event] = field(default_factory=list)
    # A C6 reshuffle happens while a card is taken, before the step that caused it is logged;
    # its event waits here and is logged right after that one (or at the end of the action).
    # ``Game.apply`` logs what is still held at the end of the action: always empty between
    # actions, so it is not part of a saved game.
    held: list[Event] = field(default_factory=list, repr=False)

    @classmethod
    def empty(cls, board: Board, players: int, rng: np.random.Generator) -> "GameState":
        """No cards dealt, no tickets placed, 27 trains each (C3)."""
        teams = players // 2
        return cls(board, players, rng, hands=[EMPTY] * players, holders=[EMPTY] * teams,
                   known_hand=[EMPTY] * players, known_holder=[EMPTY] * teams,
                   trains=[TRAINS_PER_PLAYER] * players, tickets=[[] for _ in range(players)],
                   team_tickets=[[] for _ in range(teams)], offers=[[] for _ in range(players)])

    def copy(self, rng: np.random.Generator | None = None) -> "GameState":
        """An independent copy: with a copy of the random generator, or with ``rng``."""
        if rng is None:
            rng = np.random.Generator(type(self.rng.bit_generator)(0))
            rng.bit_generator.state = self.rng.bit_generator.state
        # positional, in field order (fast: games are copied for every simulated claim);
        # tests/test_rule_families.py checks that every field is copied and no list is shared
        return GameState(
            self.board, self.players, rng, list(self.draw_pile), list(self.discard),
            list(self.face_up), list(self.hands), list(self.holders), list(self.known_hand),
            list(self.known_holder), list(self.trains), dict(self.owners),
            list(self.ticket_deck), [list(t) for t in self.tickets],
            [list(t) for t in self.team_tickets], [list(t) for t in self.offers],
            dict(self.setup_choices), self.phase, self.to_move, self.drawn, self.taken_slot,
            self.first_to, self.tunnel, self.final_turns_left, self.passes_in_a_row,
            self.turns, list(self.events))

    # --- reading ---------------------------------------------------------------------------
    @property
    def teams(self) -> int:
        return self.players // 2

    def team_trains(self, team: int) -> int:
        return self.trains[2 * team] + self.trains[2 * team + 1]

    def can_draw_from_deck(self) -> bool:
        return bool(self.draw_pile) or bool(self.discard)  # C6

    def total_cards(self) -> CardCounts:
        """Every train card, wherever it is (110 of them: an invariant)."""
        total = CardCounts.of(self.draw_pile) + CardCounts.of(self.discard)
        total += CardCounts.of(c for c in self.face_up if c is not None)
        total += sum(self.hands, EMPTY) + sum(self.holders, EMPTY)
        if self.drawn is not None:
            total += CardCounts.of([self.drawn])
        if self.tunnel is not None:
            total += self.tunnel.laid + CardCounts.of(self.tunnel.revealed)
        return total
