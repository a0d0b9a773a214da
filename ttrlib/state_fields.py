"""The fields of a ``GameState`` as typed attributes of the object that holds it (``Game``),
and the readings of the state (``is_over``, ``teams``...) that the game passes on unchanged.

The lessons and the tests read and set a game's state by name (``game.hands``,
``game.draw_pile = [...]``). Each field is declared here with its type, so a type checker and
an editor see ``game.hands`` as the ``list[CardCounts]`` it is and go to its definition.
``tests/test_rule_families.py`` checks that every field of the state is declared.
"""

from __future__ import annotations

from typing import Generic, TypeVar, overload

import numpy as np

from . import actions as act
from .board import Board
from .cards import CardCounts, Color, Place
from .events import Event
from .state import GameState, Phase, TunnelAttempt

T = TypeVar("T")


class _Field(Generic[T]):
    """``state.<name>`` read and set as an attribute of the game, typed (``game.hands``)."""

    def __init__(self, attribute: str = "") -> None:
        self.name = attribute  # the state's attribute, when the game's name is an older one

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = self.name or name

    @overload
    def __get__(self, game: None, owner: type) -> _Field[T]: ...
    @overload
    def __get__(self, game: StateFields, owner: type) -> T: ...
    def __get__(self, game: StateFields | None, owner: type) -> T | _Field[T]:
        return self if game is None else getattr(game.state, self.name)

    def __set__(self, game: StateFields, value: T) -> None:
        setattr(game.state, self.name, value)


class StateFields:
    """``state.<field>`` as an attribute, for every field of ``GameState`` (``held`` aside: it is
    always empty between actions)."""

    state: GameState
    board = _Field[Board]()
    players = _Field[int]()
    rng = _Field[np.random.Generator]()
    draw_pile = _Field[list[Color]]()
    discard = _Field[list[Color]]()
    face_up = _Field[list[Color | None]]()
    hands = _Field[list[CardCounts]]()
    cardholders = _Field[list[CardCounts]]()
    known_in_hands = _Field[list[CardCounts]]()
    known_in_cardholders = _Field[list[CardCounts]]()
    trains = _Field[list[int]]()
    trains_per_player = _Field[int]()
    claimed = _Field[dict[str, int]]()
    ticket_deck = _Field[list[str]]()
    tickets = _Field[list[list[str]]]()
    team_tickets = _Field[list[list[str]]]()
    offers = _Field[list[list[str]]]()
    setup_choices = _Field[dict[int, act.KeepTickets]]()
    phase = _Field[Phase]()
    to_move = _Field[int]()
    drawn = _Field[Color | None]()
    taken_slot = _Field[int | None]()
    first_to = _Field[Place | None]()
    tunnel = _Field[TunnelAttempt | None]()
    final_turns_left = _Field[int | None]()
    passes_in_a_row = _Field[int]()
    turns = _Field[int]()

    # The names the lessons and older code use for four fields (the state, the save and the view
    # say the names above): the same attributes, kept for the notebooks.
    holders = _Field[list[CardCounts]]("cardholders")
    owners = _Field[dict[str, int]]("claimed")
    known_hand = _Field[list[CardCounts]]("known_in_hands")
    known_holder = _Field[list[CardCounts]]("known_in_cardholders")

    @property
    def events(self) -> list[Event]:
        """The public log (I1): typed events, oldest first (``ttrlib.narration`` words them)."""
        return self.state.events

    @events.setter
    def events(self, value: list[Event]) -> None:
        self.state.events = list(value)

    # --- what the state says, read through it ---
    @property
    def is_over(self) -> bool:
        return self.state.phase is Phase.OVER

    @property
    def teams(self) -> int:
        return self.state.teams

    @property
    def drawn_card(self) -> Color | None:
        return self.state.drawn

    def can_draw_from_deck(self) -> bool:
        return self.state.can_draw_from_deck()  # C6

    def total_cards(self) -> CardCounts:
        """Every train card, wherever it is (110 of them: an invariant)."""
        return self.state.total_cards()
