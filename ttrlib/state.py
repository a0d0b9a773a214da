"""The one declared game state: every fact of a Team Asia game, in one dataclass.

``GameState`` holds what a game is (cards, tickets, claimed routes, the decision pending, the
log); the rule families (``ttrlib.rules``) read and change it, ``ttrlib.game.Game`` wraps it.
Caches that can be rebuilt from it (the open routes, the legal-action tables) are not in it.
``ttrlib.validity.check_state`` is the one check of a state: positions built by hand, loaded
games and every action keep it.

The state is declared once: each field with ``part(kind, name=..., copy=..., per=..., seen=...)``
(``Part``), read back by ``parts()``/``PARTS``. ``GameState.copy`` copies each field as declared,
``ttrlib.save`` writes and reads each saved field by its kind under its public ``name``,
``ttrlib.validity`` checks its type and length (one entry per seat or team) by the same kind,
and ``seen_by`` tells which fields a seat or team may know (rule I1). The public names are
those of a save, of ``Game.from_position``'s arguments and of ``check_state``'s problems
(``PUBLIC_NAMES``; each field's attribute is its public name, so the state, the save and the
view say ``cardholders``, ``claimed``, ``known_in_hands`` and ``known_in_cardholders`` alike).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any

import numpy as np

from . import actions as act
from .board import Board
from .cards import EMPTY, CardCounts, Color, Place
from .events import Event
from .seats import team_count, team_seats

TRAINS_PER_PLAYER = 27  # C3
SHORT_GAME_TRAINS = (10, TRAINS_PER_PLAYER)  # C3 short-game policy: fewest and most per player
#: C3 short-game policy: trains per player of a lesson's table by its players (lesson 08), for a
#: game of about 25 minutes (benchmarks/bench_short_game.py: 45 and 56 median turns)
LESSON_TRAINS = {4: 12, 6: 10}
STARTING_HAND = 4  # C4
FACE_UP = 5  # C5
MAX_FACE_UP_RESETS = 5  # C5 policy
SETUP_TICKETS_DEALT = 5  # T1
SETUP_TICKETS_KEEP = 3  # T1
DRAW_TICKETS = 4  # T2
CHOOSE_TICKETS_KEEP = 1  # T2: keep at least one of the tickets drawn
SHARE_MOST = 2  # T4: share one or two private tickets in a turn
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


# --- the schema: how each field of the state is copied, saved, shaped and seen -------------------
# Every field of ``GameState`` is declared with ``part(...)``: ``copy`` copies it by this
# declaration, ``ttrlib.save`` saves and reads it by its ``kind`` under its ``name``, and
# ``ttrlib.validity`` checks its shape by the same ``kind`` and ``per``. A field declared without
# it stops the import (``parts``), so none is forgotten by the copy, the save or the check.

#: who may know a field's value (rule I1): everybody, the seat (or team) it belongs to, nobody
SEEN_BY = ("all", "seat", "team", "nobody")
#: what a value is: each kind has one save codec (``ttrlib.save``) and one shape check
#: (``ttrlib.validity``); a ``?`` kind may also be ``None``
KINDS = ("board", "players", "rng", "colours", "slots", "counts", "trains", "claims", "ids",
         "id_lists", "choices", "phase", "seat", "count", "colour?", "slot?", "place?",
         "tunnel?", "turns_left?", "events")


def _copy_generator(rng: np.random.Generator) -> np.random.Generator:
    twin = np.random.Generator(type(rng.bit_generator)(0))
    twin.bit_generator.state = rng.bit_generator.state
    return twin


def _copy_lists(lists: list[list[str]]) -> list[list[str]]:
    return [list(x) for x in lists]


def _fresh_list(_: list[Any]) -> list[Any]:
    return []


@dataclass(frozen=True)
class Part:
    """The declaration of one field of the state (``fields(GameState)[i].metadata["part"]``).

    ``kind``: what its value is (``KINDS``). ``name``: its one public name, in a save's start,
    in ``check_state``'s problems and in ``Game.from_position``'s arguments (the attribute's own
    name unless given). ``copy``: makes a copy's value from the original's; ``None`` shares it
    (an immutable value). ``per``: ``"players"`` or ``"teams"`` for a list with one entry per
    seat or team. ``seen``: who may know it (``SEEN_BY``, rule I1). ``saved``: in a save's start
    (the board and the player count are the save's own top-level fields; ``held`` is always
    empty between actions)."""

    kind: str
    name: str = ""
    copy: Callable[[Any], Any] | None = None
    per: str | None = None
    seen: str = "all"
    saved: bool = True


def part(kind: str, *, name: str = "", copy: Callable[[Any], Any] | None = None,
         per: str | None = None, seen: str = "all", saved: bool = True,
         default: Any = MISSING, default_factory: Any = MISSING, repr: bool = True) -> Any:
    """A field of ``GameState`` with its declaration (``Part``) as its metadata."""
    if kind not in KINDS or seen not in SEEN_BY or per not in (None, "players", "teams"):
        raise TypeError(f"part({kind!r}, per={per!r}, seen={seen!r}): not a kind, per or seen")
    meta = {"part": Part(kind, name, copy, per, seen, saved)}
    return field(default=default, default_factory=default_factory, repr=repr, metadata=meta)


@dataclass(eq=False)
class GameState:
    """Everything a game is. Lists are the state's own (``copy`` copies them).

    Each field is declared once, with ``part``: see ``parts()``."""

    board: Board = part("board", saved=False)
    players: int = part("players", saved=False)
    rng: np.random.Generator = part("rng", copy=_copy_generator, seen="nobody")
    # top of the pile is the END; its order is nobody's to know (its size is public)
    draw_pile: list[Color] = part("colours", copy=list, seen="nobody", default_factory=list)
    discard: list[Color] = part("colours", copy=list, default_factory=list)
    face_up: list[Color | None] = part("slots", copy=list, default_factory=lambda: [None] * FACE_UP)
    hands: list[CardCounts] = part("counts", copy=list, per="players", seen="seat",
                                   default_factory=list)
    # one train cardholder per team
    cardholders: list[CardCounts] = part("counts", copy=list, per="teams", seen="team",
                                         default_factory=list)
    # I1: the cards of a hand or cardholder that all have seen
    known_in_hands: list[CardCounts] = part("counts", copy=list, per="players",
                                            default_factory=list)
    known_in_cardholders: list[CardCounts] = part("counts", copy=list, per="teams",
                                                  default_factory=list)
    trains: list[int] = part("trains", copy=list, per="players", default_factory=list)
    # C3 short-game policy: the trains each player began with (27 but in a short game)
    trains_per_player: int = part("count", default=TRAINS_PER_PLAYER)
    # route id -> seat, in claim order
    claimed: dict[str, int] = part("claims", copy=dict, default_factory=dict)
    # top first; T3 returns at the end
    ticket_deck: list[str] = part("ids", copy=list, seen="nobody", default_factory=list)
    tickets: list[list[str]] = part("id_lists", copy=_copy_lists, per="players", seen="seat",
                                    default_factory=list)
    team_tickets: list[list[str]] = part("id_lists", copy=_copy_lists, per="teams", seen="team",
                                         default_factory=list)
    offers: list[list[str]] = part("id_lists", copy=_copy_lists, per="players", seen="seat",
                                   default_factory=list)
    # T1: a choice stays the seat's own until its teammate has chosen too
    setup_choices: dict[int, act.KeepTickets] = part("choices", copy=dict, seen="seat",
                                                     default_factory=dict)
    phase: Phase = part("phase", default=Phase.SETUP_TICKETS)
    to_move: int = part("seat", default=0)
    # the seat to move sees the card it drew; all see it when it came from the face-up row
    drawn: Color | None = part("colour?", seen="seat", default=None)
    # D1, D3 policy: the face-up slot the pending first card came from; it stays empty (None)
    # until the card is placed, and only then is the replacement turned up and C5 checked.
    taken_slot: int | None = part("slot?", default=None)
    first_to: Place | None = part("place?", default=None)
    tunnel: TunnelAttempt | None = part("tunnel?", default=None)
    final_turns_left: int | None = part("turns_left?", default=None)
    passes_in_a_row: int = part("count", default=0)
    turns: int = part("count", default=0)
    events: list[Event] = part("events", copy=list, default_factory=list)
    # A C6 reshuffle happens while a card is taken, before the step that caused it is logged;
    # its event waits here and is logged right after that one (or at the end of the action).
    # ``Game.apply`` logs what is still held at the end of the action: always empty between
    # actions, so it is not part of a saved game, and a copy starts with none.
    held: list[Event] = part("events", copy=_fresh_list, seen="nobody", saved=False,
                             default_factory=list, repr=False)

    @classmethod
    def empty(cls, board: Board, players: int, rng: np.random.Generator,
              trains: int = TRAINS_PER_PLAYER) -> "GameState":
        """No cards dealt, no tickets placed, 27 trains each (C3; ``trains`` in a short game)."""
        teams = team_count(players)
        return cls(board, players, rng, hands=[EMPTY] * players,
                   cardholders=[EMPTY] * teams, known_in_hands=[EMPTY] * players,
                   known_in_cardholders=[EMPTY] * teams,
                   trains=[trains] * players, trains_per_player=trains, tickets=[[] for _ in range(players)],
                   team_tickets=[[] for _ in range(teams)], offers=[[] for _ in range(players)])

    def copy(self, rng: np.random.Generator | None = None) -> "GameState":
        """An independent copy: with a copy of the random generator, or with ``rng``. Each
        field is copied as its declaration says (``part(copy=...)``)."""
        return _copy(self, _copy_generator(self.rng) if rng is None else rng)

    # --- reading ---------------------------------------------------------------------------
    @property
    def teams(self) -> int:
        return team_count(self.players)

    def team_trains(self, team: int) -> int:
        a, b = team_seats(team)  # C2: two seats a team
        return self.trains[a] + self.trains[b]

    def can_draw_from_deck(self) -> bool:
        return bool(self.draw_pile) or bool(self.discard)  # C6

    def total_cards(self) -> CardCounts:
        """Every train card, wherever it is (110 of them: an invariant)."""
        total = CardCounts.of(self.draw_pile) + CardCounts.of(self.discard)
        total += CardCounts.of(c for c in self.face_up if c is not None)
        total += sum(self.hands, EMPTY) + sum(self.cardholders, EMPTY)
        if self.drawn is not None:
            total += CardCounts.of([self.drawn])
        if self.tunnel is not None:
            total += self.tunnel.laid + CardCounts.of(self.tunnel.revealed)
        return total


def parts(cls: type = GameState) -> tuple[tuple[str, Part], ...]:
    """``(attribute, Part)`` of every field of the state, in order, each with its public name.
    ``TypeError`` if a field was declared without ``part``: the copy, the save and the shape
    check are made from these declarations, and would miss it."""
    found = []
    for f in fields(cls):
        declared = f.metadata.get("part")
        if not isinstance(declared, Part):
            raise TypeError(f"{cls.__name__}.{f.name} is declared without ttrlib.state.part(...): "
                            "say how it is copied, saved, shaped and seen")
        found.append((f.name, replace(declared, name=declared.name or f.name)))
    return tuple(found)


PARTS = parts()
#: attribute -> its one public name (in a save, in check_state's problems), and back
PUBLIC_NAMES = {name: p.name for name, p in PARTS}
ATTRIBUTES = {p.name: name for name, p in PARTS}


def _copy_function() -> Callable[[GameState, np.random.Generator], GameState]:
    """The body of ``GameState.copy``, written from the declarations as one positional call of
    ``GameState``: copy is hot (games are copied for every simulated claim), and this is as fast
    as a copy written out by hand (``benchmarks/bench_copy.py``); a copy made by ``__init__``
    also keeps Python's fast attribute access, which copying ``__dict__`` loses."""
    scope: dict[str, Any] = {"GameState": GameState}
    args = []
    for name, p in PARTS:
        if name == "rng":
            args.append("rng")  # copied (or given) by ``copy``
        elif p.copy is None:
            args.append(f"state.{name}")
        else:
            scope[f"copy_{name}"] = p.copy
            args.append(f"copy_{name}(state.{name})")
    exec(f"def copy(state, rng):\n    return GameState({', '.join(args)})", scope)
    copy: Callable[[GameState, np.random.Generator], GameState] = scope["copy"]
    return copy


_copy = _copy_function()


def seen_by(who: str) -> tuple[str, ...]:
    """The attributes a view may show to ``who`` (``SEEN_BY``): ``"all"`` gives the public
    fields, ``"team"`` adds what a team's seats share, ``"seat"`` what is a seat's own (I1)."""
    allowed = {"all": ("all",), "team": ("all", "team"), "seat": ("all", "team", "seat")}[who]
    return tuple(name for name, p in PARTS if p.seen in allowed)
