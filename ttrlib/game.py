"""The Team Asia game: state, ``apply(action)``, ``legal_actions()`` and ``view(seat)``.

One entry point changes the game: ``game.apply(action)``. It applies a legal action or raises an
``IllegalMove`` naming the rule and the reason, and a rejected action leaves the game exactly as
it was (every handler checks everything before it changes anything).

Seats are numbered 0..n-1 and named A1, A2, B1, B2 (, C1, C2): seat ``s`` plays for team
``s // 2`` and its teammate is ``s ^ 1`` (rule C2).

>>> from ttrlib import Game, actions as act
>>> game = Game.new(players=4, seed=1)
>>> game.phase, game.to_move
(<Phase.SETUP_TICKETS: 'setup_tickets'>, 0)
>>> offer = game.ticket_offer()
>>> game.apply(act.KeepTickets(offer[:3], share=offer[0]))
>>> game.to_move
1

Policies where the rulebook is silent (documented in the lessons and tested):

* C5: at most ``MAX_FACE_UP_RESETS`` resets in a row, and none when the row, draw pile and
  discard together hold fewer than 3 non-locomotives, so a reset could never help. A face-up
  slot left empty because no card was left is refilled at the end of a turn once cards exist.
* D3: the replacement of a face-up card taken first is turned up, and C5 checked, only once the
  card has been placed (``PlaceCard``), so the player decides before seeing anything new (D1:
  "immediately"); until then the slot is empty (``None``) in every view. The second pick sees
  the new row. A face-up card taken second, or a face-up locomotive taken first (D2), is
  replaced at once.
* D2 before D4: a face-up locomotive taken first always goes to the cardholder, even when it is
  the only card that can be drawn.
* C6 reshuffles lazily: the discard becomes the draw pile when a card is needed and the pile is
  empty, so cards discarded meanwhile are shuffled in too.
* D4: when only one card can be drawn the player takes it, chooses its place, and the turn ends.
* I1: a team's train cardholder is seen by both teammates only; face-up cards taken, and tunnel
  cards laid and taken back, are known to all until visibly played.
* T3: rejected tickets go to the bottom of the ticket deck in the order they were offered (at
  setup, when the team reveals: the first teammate's, then the second's).
* A seat with no legal action passes; when every seat passes in a row the game ends.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from . import actions as act
from .board import Board, Route, teaching_board
from .cards import COLORS, EMPTY, CardCounts, Color, standard_deck
from .errors import (
    IllegalClaim,
    IllegalDraw,
    IllegalTickets,
    IllegalTunnelPayment,
    SetupError,
    WrongPhase,
)
from .rules import payments, tracks
from .seats import PLAYER_COUNTS, TEAM_NAMES, seat_name, team_name  # noqa: F401 (re-exported)
from .words import plural

if TYPE_CHECKING:
    from .rules.scoring import TeamScore

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


@dataclass(frozen=True)
class PlayerView:
    """What one seat may know (rule I1). Never holds the teammate's hand or private tickets.

    A seat always sees its own tickets (I1): during setup ``dealt_tickets`` holds the five it was
    dealt (all seats are dealt at once, T1) and ``setup_choice`` its own keep/share choice once
    made, which the others (the teammate too) see only when both teammates have chosen; from then
    on they are in ``tickets`` and ``team_tickets``. ``team_ticket_counts`` (public) is the number
    of tickets in every team's ticket cardholder. While a face-up card drawn first waits to be
    placed, its slot in ``face_up`` is ``None`` (D3 policy).

    ``unseen`` is every card this seat cannot place: the draw pile plus the unknown part of other
    hands and other teams' cardholders. The draw pile (``draw_pile_size`` cards) is a uniformly
    random part of it; this is the pool the tunnel odds work from.
    """

    seat: int
    board: Board
    players: int
    phase: Phase
    to_move: int
    hand: CardCounts
    tickets: tuple[str, ...]
    team_cardholder: CardCounts
    team_tickets: tuple[str, ...]
    face_up: tuple[Color | None, ...]
    discard: CardCounts
    draw_pile_size: int
    ticket_deck_size: int
    claimed: dict[str, int]
    trains: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    ticket_counts: tuple[int, ...]
    team_ticket_counts: tuple[int, ...]  # I1: tickets in each team's ticket cardholder (public)
    cardholder_sizes: tuple[int, ...]
    known_in_hands: dict[int, CardCounts]
    known_in_cardholders: dict[int, CardCounts]
    unseen: CardCounts
    drawn_card: Color | None  # the card this seat must place (PLACE_CARD)
    ticket_offer: tuple[str, ...]  # tickets this seat must choose from
    dealt_tickets: tuple[str, ...]  # T1, I1: this seat's five dealt tickets, during setup
    setup_choice: act.KeepTickets | None  # T1, I1: this seat's own choice, until it is revealed
    tunnel: TunnelAttempt | None
    final_round: bool
    events: tuple[dict, ...]

    @property
    def team(self) -> int:
        return self.seat // 2

    @property
    def teammate(self) -> int:
        return self.seat ^ 1

    @property
    def name(self) -> str:
        return seat_name(self.seat)

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat

    def _repr_html_(self) -> str:
        from . import display

        return display.view_html(self)


class Game:
    """A Team Asia game. Build one with ``Game.new`` or ``Game.from_position``."""

    # ------------------------------------------------------------------------------------------
    # construction
    # ------------------------------------------------------------------------------------------
    def __init__(self, board: Board, players: int, rng: np.random.Generator):
        if players not in PLAYER_COUNTS:
            counts = " or ".join(str(n) for n in PLAYER_COUNTS)
            raise SetupError(f"rule C2: Team Asia is played by {counts} players, not {players}")
        self.board = board
        self.players = players
        self.rng = rng
        teams = players // 2
        self.draw_pile: list[Color] = []  # top of the pile is the END of the list
        self.discard: list[Color] = []
        self.face_up: list[Color | None] = [None] * FACE_UP
        self.hands: list[CardCounts] = [EMPTY] * players
        self.holders: list[CardCounts] = [EMPTY] * teams
        self.known_hand: list[CardCounts] = [EMPTY] * players
        self.known_holder: list[CardCounts] = [EMPTY] * teams
        self.trains: list[int] = [TRAINS_PER_PLAYER] * players
        self.owners: dict[str, int] = {}
        self.ticket_deck: list[str] = []  # top first; rejected tickets go to the end (T3)
        self.tickets: list[list[str]] = [[] for _ in range(players)]
        self.team_tickets: list[list[str]] = [[] for _ in range(teams)]
        self.offers: list[list[str]] = [[] for _ in range(players)]
        self.setup_choices: dict[int, act.KeepTickets] = {}
        self.phase = Phase.SETUP_TICKETS
        self.to_move = 0
        self.drawn: Color | None = None
        # D1, D3 policy: the face-up slot the pending first card came from; it stays empty (None)
        # until the card is placed, and only then is the replacement turned up and C5 checked.
        self.taken_slot: int | None = None
        self.first_to: str | None = None
        self.tunnel: TunnelAttempt | None = None
        self.final_turns_left: int | None = None
        self.passes_in_a_row = 0
        self.turns = 0
        self.events: list[dict] = []
        # A C6 reshuffle happens while a card is taken, before the pick or claim that caused it
        # is logged; its event waits here and is logged right after that one (or at the end of
        # the action). Always empty between actions, so it is not part of a saved game.
        self._held_events: list[dict] = []
        self._open_cache: dict = {}  # see _open_routes

    @classmethod
    def new(cls, players: int = 4, seed: int | None = None, board: Board | None = None) -> "Game":
        """A new game: shuffled deck, 4 cards each (C4), 5 face up (C5), 5 tickets each (T1)."""
        game = cls(board or teaching_board(), players, np.random.default_rng(seed))
        deck = standard_deck().elements()
        game.draw_pile = [deck[i] for i in game.rng.permutation(len(deck))]
        for seat in range(players):
            game.hands[seat] = CardCounts.of(game._pop_deck() for _ in range(STARTING_HAND))
        game._refill_face_up()
        ids = [t.id for t in game.board.tickets]
        game.ticket_deck = [ids[i] for i in game.rng.permutation(len(ids))]
        need = players * SETUP_TICKETS_DEALT
        if len(ids) < need:
            raise SetupError(f"rule T1: the board has {len(ids)} tickets; {players} players need {need}")
        for seat in range(players):
            game.offers[seat] = game.ticket_deck[:SETUP_TICKETS_DEALT]
            del game.ticket_deck[:SETUP_TICKETS_DEALT]
        game._log(None, "setup", f"{players} players; each is dealt 4 train cards and 5 tickets")
        return game

    @classmethod
    def from_position(
        cls,
        *,
        players: int = 4,
        board: Board | None = None,
        seed: int = 0,
        hands: "list[CardCounts] | None" = None,
        cardholders: "list[CardCounts] | None" = None,
        face_up: "list[Color | str | None] | None" = None,
        draw_pile: "list[Color | str] | None" = None,
        discard: "CardCounts | None" = None,
        tickets: "list[list[str]] | None" = None,
        team_tickets: "list[list[str]] | None" = None,
        ticket_deck: "list[str] | None" = None,
        claimed: "dict[str, int] | None" = None,
        trains: "list[int] | None" = None,
        to_move: int = 0,
        rest_to: "str | int" = "auto",
    ) -> "Game":
        """An exact position in the TURN phase, for tests and lessons (setup already done).

        ``draw_pile`` lists the pile from the TOP down. Where the cards of the 110 that are not
        placed anywhere go is ``rest_to``: ``"draw_pile"`` (beneath the given top cards, in a
        seeded shuffle), ``"discard"``, a seat number (into that seat's hand, so that the draw
        pile and discard are exactly as given), or ``"auto"``: the discard when only
        ``draw_pile`` is given, the draw pile otherwise, and nowhere when both ``draw_pile`` and
        ``discard`` are given (they must then account for every card). Tickets not placed form the ticket deck in board
        order (or ``ticket_deck`` gives it, top first, and then every ticket must be placed).
        Claimed routes take their trains from the claiming seat's supply unless ``trains`` is
        given. The face-up row is taken as given (C5 is not re-checked).
        """
        game = cls(board or teaching_board(), players, np.random.default_rng(seed))
        teams = players // 2

        def cards_list(values, count, what):
            values = list(values) if values is not None else [EMPTY] * count
            if len(values) != count:
                raise SetupError(f"{what}: expected {count} entries, got {len(values)}")
            return [v if isinstance(v, CardCounts) else CardCounts(v) for v in values]

        game.hands = cards_list(hands, players, "hands")
        game.holders = cards_list(cardholders, teams, "cardholders")
        row = list(face_up) if face_up is not None else [None] * FACE_UP
        if len(row) != FACE_UP:
            raise SetupError(f"face_up: expected {FACE_UP} slots, got {len(row)}")
        game.face_up = [None if c is None else Color.parse(c) for c in row]
        placed = sum(game.hands, EMPTY) + sum(game.holders, EMPTY)
        placed += CardCounts.of(c for c in game.face_up if c is not None)
        pile = [Color.parse(c) for c in (draw_pile or [])]
        placed += CardCounts.of(pile)
        disc = discard if discard is not None else EMPTY
        placed += disc
        if not placed <= standard_deck():
            extra = placed.minus_available(standard_deck())
            raise SetupError(f"rule C1: the position uses more cards than the deck has: {extra.describe()}")
        rest = standard_deck() - placed
        if isinstance(rest_to, int) and not isinstance(rest_to, bool):
            if not 0 <= rest_to < players:
                raise SetupError(f"rest_to: no seat {rest_to} in a {players}-player game")
            game.hands[rest_to] += rest
            rest = EMPTY
            rest_to = "draw_pile"
        elif rest_to not in ("auto", "draw_pile", "discard"):
            raise SetupError(f"rest_to: 'auto', 'draw_pile', 'discard' or a seat, not {rest_to!r}")
        if rest_to == "auto":
            if draw_pile is not None and discard is not None and rest:
                raise SetupError(f"rule C1: {rest.describe()} are not placed anywhere")
            rest_to = "discard" if draw_pile is not None and discard is None else "draw_pile"
        if rest_to == "discard":
            disc += rest
            rest = EMPTY
        rest_cards = rest.elements()
        beneath = [rest_cards[i] for i in game.rng.permutation(len(rest_cards))]
        game.draw_pile = beneath + pile[::-1]
        game.discard = disc.elements()

        known_ids = set()
        for seat_list in (tickets or []) + (team_tickets or []):
            for tid in seat_list:
                if not game.board.has_ticket(tid):
                    raise SetupError(f"tickets: no ticket {tid!r} on the board")
                if tid in known_ids:
                    raise SetupError(f"tickets: {tid!r} is placed twice")
                known_ids.add(tid)
        game.tickets = [list(t) for t in (tickets or [[] for _ in range(players)])]
        game.team_tickets = [list(t) for t in (team_tickets or [[] for _ in range(teams)])]
        if len(game.tickets) != players or len(game.team_tickets) != teams:
            raise SetupError("tickets: one list per seat and team_tickets: one list per team")
        if ticket_deck is not None:
            game.ticket_deck = list(ticket_deck)
            placed_ids = known_ids | set(game.ticket_deck)
            if len(placed_ids) != len(known_ids) + len(game.ticket_deck):
                raise SetupError("ticket_deck: a ticket is placed twice")
            missing = [t.id for t in game.board.tickets if t.id not in placed_ids]
            if missing or len(placed_ids) != len(game.board.tickets):
                raise SetupError(f"ticket_deck: tickets not placed anywhere: {missing}")
        else:
            game.ticket_deck = [t.id for t in game.board.tickets if t.id not in known_ids]

        game.trains = list(trains) if trains is not None else [TRAINS_PER_PLAYER] * players
        for rid, seat in (claimed or {}).items():
            if not game.board.has_route(rid):
                raise SetupError(f"claimed: no route {rid!r} on the board")
            game.owners[rid] = seat
            if trains is None:
                game.trains[seat] -= game.board.route(rid).length
        if min(game.trains) < 0:
            raise SetupError("claimed: a seat has claimed more than its 27 trains (C3)")
        game.phase = Phase.TURN
        game.to_move = to_move
        game._check_invariants()
        return game

    def copy(self, rng: np.random.Generator | None = None) -> "Game":
        """An independent copy: with a copy of the random generator, or with ``rng``."""
        new = object.__new__(Game)
        new.__dict__.update(self.__dict__)
        for name in ("draw_pile", "discard", "face_up", "hands", "holders", "known_hand",
                     "known_holder", "trains", "ticket_deck", "events"):
            setattr(new, name, list(getattr(self, name)))
        new.owners = dict(self.owners)
        new.tickets = [list(t) for t in self.tickets]
        new.team_tickets = [list(t) for t in self.team_tickets]
        new.offers = [list(t) for t in self.offers]
        new.setup_choices = dict(self.setup_choices)
        new._held_events = []
        new._open_cache = {}
        if rng is None:
            rng = np.random.Generator(type(self.rng.bit_generator)(0))
            rng.bit_generator.state = self.rng.bit_generator.state
        new.rng = rng
        return new

    def resample_hidden(self, seat: int, rng: np.random.Generator) -> "Game":
        """A copy in which everything ``seat`` cannot see is dealt anew at random.

        The unseen cards (the draw pile and the unknown part of every other hand and of other
        teams' cardholders, rule I1) are shuffled together and dealt back: each hidden place keeps
        its size and its known cards, the draw pile gets the rest in a random order. Every such
        copy is equally likely given what ``seat`` knows, so replaying a claim on many of them
        samples the same law that ``ttrlib.odds`` computes from ``view(seat)``. The copy draws
        its later randomness (a reshuffle) from ``rng`` too.

        The hidden tickets are dealt anew the same way (I1): the private tickets of every other
        seat (the teammate's too), other teams' ticket cardholders, other seats' ticket offers and
        the ticket deck's order, each place keeping its size; another seat's pending setup choice
        (T1) keeps the same positions in its new offer. What ``view(seat)`` shows stays as it is.
        """
        g = self.copy(rng)
        team = seat // 2
        places: list[tuple[str, int, CardCounts]] = []
        pool: list[Color] = list(g.draw_pile)
        hidden_places = [("hand", s, g.hands, g.known_hand) for s in range(g.players) if s != seat]
        hidden_places += [("holder", t, g.holders, g.known_holder)
                          for t in range(g.teams) if t != team]
        for kind, who, cards, known in hidden_places:
            hidden = cards[who] - known[who] if known[who] else cards[who]
            places.append((kind, who, hidden))
            pool += hidden.elements()
        if g.drawn is not None and g.taken_slot is None and g.to_move != seat:
            places.append(("drawn", 0, _ONE[g.drawn]))
            pool.append(g.drawn)
        shuffled = [pool[i] for i in rng.permutation(len(pool)).tolist()]
        at = 0
        for kind, who, hidden in places:
            n = len(hidden)
            if not n:
                continue
            dealt = CardCounts.of(shuffled[at:at + n])
            at += n
            if kind == "hand":
                known = g.known_hand[who]
                g.hands[who] = known + dealt if known else dealt
            elif kind == "holder":
                known = g.known_holder[who]
                g.holders[who] = known + dealt if known else dealt
            else:
                g.drawn = shuffled[at - 1]
        g.draw_pile = shuffled[at:]
        g._resample_tickets(seat, rng)
        return g

    def _resample_tickets(self, seat: int, rng: np.random.Generator) -> None:
        """Deal every ticket ``seat`` cannot see anew, each hidden place keeping its size (I1)."""
        team = seat // 2
        places = [self.tickets[s] for s in range(self.players) if s != seat]
        places += [self.team_tickets[t] for t in range(self.teams) if t != team]
        others = [s for s in range(self.players) if s != seat]
        old_offers = {s: list(self.offers[s]) for s in others}
        places += [self.offers[s] for s in others]
        places.append(self.ticket_deck)
        pool = [t for place in places for t in place]
        shuffled = [pool[i] for i in rng.permutation(len(pool)).tolist()]
        at = 0
        for place in places:  # the lists are refilled in place (they are the copy's own lists)
            place[:] = shuffled[at:at + len(place)]
            at += len(place)
        for s, choice in list(self.setup_choices.items()):
            if s == seat:
                continue
            # T1: the same choice by position: the tickets at the kept places are kept.
            new = dict(zip(old_offers[s], self.offers[s]))
            self.setup_choices[s] = act.KeepTickets([new[t] for t in choice.keep], new[choice.share])

    # ------------------------------------------------------------------------------------------
    # reading the state
    # ------------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def teams(self) -> int:
        return self.players // 2

    def team_trains(self, team: int) -> int:
        return self.trains[2 * team] + self.trains[2 * team + 1]

    def ticket_offer(self, seat: int | None = None) -> list[str]:
        """The tickets ``seat`` (default: the seat to move) must choose from now."""
        seat = self.to_move if seat is None else seat
        if self.phase is Phase.SETUP_TICKETS:
            return list(self.offers[seat]) if seat not in self.setup_choices else []
        if self.phase is Phase.CHOOSE_TICKETS and seat == self.to_move:
            return list(self.offers[seat])
        return []

    @property
    def drawn_card(self) -> Color | None:
        return self.drawn

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

    def _check_invariants(self) -> None:
        total = self.total_cards()
        if total != standard_deck():
            raise AssertionError(f"card total broken: {total!r}")
        for seat in range(self.players):
            on_board = sum(self.board.route(r).length for r, s in self.owners.items() if s == seat)
            if self.trains[seat] + on_board != TRAINS_PER_PLAYER:
                raise AssertionError(f"trains of seat {seat} do not add up to 27")
        ids = list(self.ticket_deck) + [t for ts in self.tickets for t in ts]
        ids += [t for ts in self.team_tickets for t in ts]
        ids += [t for ts in self.offers for t in ts]
        if sorted(ids) != sorted(t.id for t in self.board.tickets):
            raise AssertionError("every ticket must be in exactly one place")

    # ------------------------------------------------------------------------------------------
    # the one entry point
    # ------------------------------------------------------------------------------------------
    def apply(self, action: act.Action) -> None:
        """Apply a legal action, or raise ``IllegalMove`` and change nothing."""
        handler = self._HANDLERS.get((self.phase, type(action)))
        if handler is None:
            raise WrongPhase(self._phase_rule(action), self._phase_reason(action))
        try:
            handler(self, action)
        finally:
            self._release_held_events()

    def _phase_rule(self, action: Any) -> str:
        """The rule that says what the game waits for (or, in a turn, what the action needs)."""
        if self.phase is not Phase.TURN:
            return {Phase.SETUP_TICKETS: "T1", Phase.PLACE_CARD: "D1", Phase.SECOND_CARD: "D1",
                    Phase.CHOOSE_TICKETS: "T2", Phase.TUNNEL: "U3", Phase.OVER: "E1"}[self.phase]
        return {act.PayTunnel: "U2", act.Withdraw: "U3", act.KeepTickets: "T2"}.get(type(action), "D1")

    def _phase_reason(self, action: Any) -> str:
        name = _ACTION_WORDS.get(type(action), type(action).__name__)
        if not isinstance(action, _ACTION_TYPES):
            return f"{action!r} is not a ttrlib action"
        waits = {
            Phase.SETUP_TICKETS: "each player first keeps at least 3 of 5 tickets and shares 1",
            Phase.TURN: "choose a turn: draw cards, claim a route, draw tickets or share tickets",
            Phase.PLACE_CARD: "first say where the card you drew goes: your hand or the team cardholder",
            Phase.SECOND_CARD: "draw your second card now; it goes to the other place",
            Phase.CHOOSE_TICKETS: "choose which of the drawn tickets to keep and which to share",
            Phase.TUNNEL: "pay the tunnel's extra cards or take your cards back",
            Phase.OVER: "the game is over",
        }[self.phase]
        if isinstance(action, act.Pass) and self.phase is Phase.TURN:
            return "you may pass only when you have no other legal action"
        return f"{name} is not possible now: {waits}"

    # --- T1 ------------------------------------------------------------------------------------
    def _setup_keep(self, a: act.KeepTickets) -> None:
        seat = self.to_move
        offer = self.offers[seat]
        self._check_keep(a, offer, SETUP_TICKETS_KEEP, "T1")
        self.setup_choices[seat] = a
        mate = seat ^ 1
        if mate in self.setup_choices:
            # T1: both teammates reveal their shared ticket at the same moment.
            for s in sorted((seat, mate)):
                choice = self.setup_choices[s]
                self._keep_tickets(s, self.offers[s], choice)
                self.offers[s] = []
                del self.setup_choices[s]
            self._log(None, "tickets", f"{team_name(seat // 2)} places its 2 shared tickets (T1)")
        if seat + 1 < self.players:
            self.to_move = seat + 1
        else:
            self.setup_choices = {}
            self.to_move = 0
            self.phase = Phase.TURN

    def _check_keep(self, a: act.KeepTickets, offer: list[str], minimum: int, rule: str) -> None:
        if not all(isinstance(t, str) for t in a.keep):
            raise IllegalTickets(rule, "tickets are named by their ids (strings such as 'T07')")
        unknown = sorted(set(a.keep) - set(offer))
        if unknown:
            raise IllegalTickets(rule, f"you were not offered {', '.join(unknown)}")
        need = min(minimum, len(offer))
        if len(a.keep) < need:
            raise IllegalTickets(rule, f"keep at least {need} of the {plural(len(offer), 'ticket')} offered")
        if a.share not in a.keep:
            raise IllegalTickets(rule, "the shared ticket must be one of the tickets you keep")

    def _keep_tickets(self, seat: int, offer: list[str], a: act.KeepTickets) -> None:
        self.tickets[seat].extend(t for t in offer if t in a.keep and t != a.share)
        self.team_tickets[seat // 2].append(a.share)
        # T3 policy: to the bottom, in the order they were offered.
        self.ticket_deck.extend(t for t in offer if t not in a.keep)

    # --- T2 ------------------------------------------------------------------------------------
    def _draw_tickets(self, a: act.DrawTickets) -> None:
        if not self.ticket_deck:
            raise IllegalTickets("T2", "the ticket deck is empty")
        seat = self.to_move
        self.offers[seat] = self.ticket_deck[:DRAW_TICKETS]
        del self.ticket_deck[:DRAW_TICKETS]
        self.phase = Phase.CHOOSE_TICKETS
        drawn = plural(len(self.offers[seat]), "ticket")
        self._log(seat, "draw_tickets", f"{seat_name(seat)} draws {drawn}")

    def _choose_keep(self, a: act.KeepTickets) -> None:
        seat = self.to_move
        offer = self.offers[seat]
        self._check_keep(a, offer, 1, "T2")
        self._keep_tickets(seat, offer, a)
        self.offers[seat] = []
        back = len(offer) - len(a.keep)
        self._log(seat, "keep_tickets",
                  f"{seat_name(seat)} keeps {plural(len(a.keep), 'ticket')}, shares 1, returns {back} "
                  "(T2, T3)")
        self._end_turn()

    # --- T4 ------------------------------------------------------------------------------------
    def _share_tickets(self, a: act.ShareTickets) -> None:
        seat = self.to_move
        if not all(isinstance(t, str) for t in a.tickets):
            raise IllegalTickets("T4", "tickets are named by their ids (strings such as 'T07')")
        if not 1 <= len(a.tickets) <= 2:
            raise IllegalTickets("T4", "share 1 or 2 tickets in one turn")
        missing = sorted(t for t in a.tickets if t not in self.tickets[seat])
        if missing:
            raise IllegalTickets("T4", f"{', '.join(missing)} is not among your private tickets")
        for t in sorted(a.tickets):
            self.tickets[seat].remove(t)
            self.team_tickets[seat // 2].append(t)
        shared = plural(len(a.tickets), "ticket")
        self._log(seat, "share_tickets", f"{seat_name(seat)} shares {shared} (T4)")
        self._end_turn()

    # --- D1-D4 ---------------------------------------------------------------------------------
    def _draw_first(self, a: act.DrawCard) -> None:
        seat = self.to_move
        card, slot = self._take(a.source, second=False)
        if slot is not None and card is Color.LOCOMOTIVE:
            # D2: a face-up locomotive as first card is the whole draw, and goes to the cardholder.
            self.holders[seat // 2] += _ONE[card]
            self.known_holder[seat // 2] += _ONE[card]
            self._log(seat, "draw", f"{seat_name(seat)} takes the face-up locomotive; it goes to "
                      "the team cardholder and ends the draw (D2)", card=card.value)
            self._replace(slot)
            self._end_turn()
            return
        self.drawn = card
        self.taken_slot = slot  # D3 policy: the slot stays empty until the card is placed
        self.phase = Phase.PLACE_CARD
        where = "the deck" if slot is None else f"face-up slot {slot}"
        self._log(seat, "draw", f"{seat_name(seat)} draws a card from {where}",
                  card=card.value if slot is not None else None)

    def _take(self, source, *, second: bool) -> tuple[Color, int | None]:
        """Check and take a card from the deck or a face-up slot (D1, D3); a face-up slot is left
        empty: the caller turns up its replacement (``_replace``) when the rules say so."""
        if source == "deck":
            if not self.can_draw_from_deck():
                raise IllegalDraw("C6", "the draw pile and the discard pile are both empty")
            return self._pop_deck(), None
        if isinstance(source, bool) or not isinstance(source, int) or not 0 <= source < FACE_UP:
            raise IllegalDraw("D1", f"draw from 'deck' or a face-up slot 0-4, not {source!r}")
        card = self.face_up[source]
        if card is None:
            raise IllegalDraw("D1", f"face-up slot {source} is empty")
        if second and card is Color.LOCOMOTIVE:
            raise IllegalDraw("D3", "a face-up locomotive may not be taken as the second card")
        self.face_up[source] = None
        return card, source

    def _replace(self, slot: int) -> None:
        """D3: a taken face-up card is replaced from the deck (C6), then C5 is checked."""
        if self.can_draw_from_deck():
            self.face_up[slot] = self._pop_deck()
        self._check_three_locomotives()

    def _place(self, a: act.PlaceCard) -> None:
        if a.to not in ("hand", "cardholder"):
            raise IllegalDraw("D1", f"the card goes to 'hand' or 'cardholder', not {a.to!r}")
        seat = self.to_move
        slot = self.taken_slot
        self._put(seat, self.drawn, a.to, known=slot is not None)
        self.first_to = a.to
        self.drawn = None
        self.taken_slot = None
        self._log(seat, "place", f"{seat_name(seat)} puts the first card in "
                  f"{'their hand' if a.to == 'hand' else 'the team cardholder'} (D1)")
        if slot is not None:
            # D3 policy: only now, with the first card placed, is the replacement turned up and
            # C5 checked; the second pick (and D4) sees the new row.
            self._replace(slot)
        if self._second_sources():
            self.phase = Phase.SECOND_CARD
        else:
            self._log(seat, "draw", "no second card can be drawn, so the draw ends (D4)")
            self._end_turn()

    def _draw_second(self, a: act.DrawCard) -> None:
        seat = self.to_move
        card, slot = self._take(a.source, second=True)
        to = "cardholder" if self.first_to == "hand" else "hand"
        self._put(seat, card, to, known=slot is not None)
        where = "the deck" if slot is None else f"face-up slot {slot}"
        self._log(seat, "draw", f"{seat_name(seat)} draws the second card from {where}; it goes to "
                  f"{'their hand' if to == 'hand' else 'the team cardholder'} (D1)",
                  card=card.value if slot is not None else None)
        if slot is not None:
            self._replace(slot)  # D3, C5
        self._end_turn()

    def _put(self, seat: int, card: Color, to: str, *, known: bool) -> None:
        one = _ONE[card]
        if to == "hand":
            self.hands[seat] += one
            if known:
                self.known_hand[seat] += one
        else:
            self.holders[seat // 2] += one
            if known:
                self.known_holder[seat // 2] += one

    def _second_sources(self) -> list:
        sources: list = ["deck"] if self.can_draw_from_deck() else []
        sources += [i for i, c in enumerate(self.face_up) if c is not None and c is not Color.LOCOMOTIVE]
        return sources

    # --- K1-K4, U1 -----------------------------------------------------------------------------
    def _claim(self, a: act.Claim) -> None:
        seat = self.to_move
        route = self._check_claim(seat, a)
        self._take_from(seat, a.hand, a.cardholder)
        if not route.is_tunnel:
            self._finish_claim(seat, route, a.hand, a.cardholder)
            return
        # U1: lay down the cards, then turn up the top cards of the draw pile.
        color = payments.claim_color(a.cards)
        revealed = []
        for _ in range(route.tunnel):
            if not self.can_draw_from_deck():
                break  # U6: reveal only what exists
            revealed.append(self._pop_deck())
        extra = sum(payments.matches(c, color) for c in revealed)  # U2, U5
        self.tunnel = TunnelAttempt(route.id, seat, a.hand, a.cardholder, tuple(revealed), color, extra)
        shown = ", ".join(c.value for c in revealed) or "nothing (no cards left, U6)"
        self._log(seat, "tunnel", f"{seat_name(seat)} tries the tunnel {route.a} - {route.b}: "
                  f"revealed {shown}; {plural(extra, 'extra card')} owed (U1, U2)",
                  route=route.id, revealed=[c.value for c in revealed], extra=extra,
                  color=color.value)
        if extra == 0:
            self._settle_tunnel(EMPTY, EMPTY)
        else:
            self.phase = Phase.TUNNEL

    def route_problem(self, seat: int, route_id: str) -> tuple[str, str] | None:
        """Why ``seat`` may not claim ``route_id`` whatever cards it lays, as ``(rule, reason)``:
        the track is closed (K3) or the seat lacks the trains (K2); ``None`` otherwise. Both
        depend only on public facts, so any seat may be told."""
        route = self.board.route(route_id)
        why = tracks.closed_reason(self.board, route, self.owners, seat, self.players)
        if why:
            return "K3", why
        if self.trains[seat] < route.length:
            return "K2", (f"{route.a} - {route.b} needs {plural(route.length, 'train')} and you "
                          f"have {self.trains[seat]} left")
        return None

    def _check_claim(self, seat: int, a: act.Claim) -> Route:
        if not isinstance(a.route, str) or not self.board.has_route(a.route):
            raise IllegalClaim("K2", f"there is no route {a.route!r} on this board")
        route = self.board.route(a.route)
        if a.teammate:
            raise IllegalClaim("K1", "cards in your teammate's hand cannot pay for your route")
        problem = self.route_problem(seat, route.id)
        if problem:
            raise IllegalClaim(*problem)
        self._check_owned(seat, a.hand, a.cardholder, IllegalClaim)
        cards = a.cards
        if len(cards) != route.length:
            raise IllegalClaim("K2", f"{route.a} - {route.b} costs exactly {plural(route.length, 'card')}; "
                               f"you laid {len(cards)}")
        color = payments.claim_color(cards)
        if color is None:
            raise IllegalClaim("K2", "a route is paid in one colour (plus locomotives), not "
                               f"{cards.describe()}")
        if route.color is not None and color not in (route.color, Color.LOCOMOTIVE):
            raise IllegalClaim("K2", f"{route.a} - {route.b} is {route.color.value}: pay it in "
                               f"{route.color.value} or locomotives, not {color.value}")
        return route

    def _check_owned(self, seat: int, hand: CardCounts, holder: CardCounts, error: type) -> None:
        """K1: the cards must be in the seat's own hand and the team cardholder."""
        if not hand <= self.hands[seat]:
            # The message must not depend on the teammate's hand: that would leak it (I1).
            missing = hand.minus_available(self.hands[seat])
            raise error("K1", f"your hand lacks {missing.describe()}; you pay from your own hand "
                        "and the team cardholder, never your teammate's hand")
        if not holder <= self.holders[seat // 2]:
            missing = holder.minus_available(self.holders[seat // 2])
            raise error("K1", f"the team cardholder lacks {missing.describe()}")

    def _take_from(self, seat: int, hand: CardCounts, holder: CardCounts) -> None:
        """Cards visibly leave a hand and the cardholder (laid down or paid)."""
        team = seat // 2
        self.hands[seat] -= hand
        self.holders[team] -= holder
        # I1: a known card may have been among those played, so only the surplus stays known.
        self.known_hand[seat] = self.known_hand[seat].minus_available(hand)
        self.known_holder[team] = self.known_holder[team].minus_available(holder)

    def _finish_claim(self, seat: int, route: Route, hand: CardCounts, holder: CardCounts) -> None:
        cards = hand + holder
        self.discard.extend(cards.elements())  # K4
        self.owners[route.id] = seat
        self.trains[seat] -= route.length
        self._log(seat, "claim", f"{seat_name(seat)} claims {route.a} - {route.b} with "
                  f"{cards.describe()}", route=route.id, cards=cards.to_dict())
        self._end_turn()

    # --- U2-U7 ---------------------------------------------------------------------------------
    def _pay_tunnel(self, a: act.PayTunnel) -> None:
        t = self.tunnel
        seat = t.seat
        self._check_owned(seat, a.hand, a.cardholder, IllegalTunnelPayment)
        paid = a.cards
        if len(paid) != t.extra:
            raise IllegalTunnelPayment("U2", "the tunnel asks for exactly "
                                       f"{plural(t.extra, 'more card')}; you offered {len(paid)}")
        if payments.payable(paid, t.color) != len(paid):
            what = "locomotives only (U5)" if t.color is Color.LOCOMOTIVE else \
                f"{t.color.value} cards or locomotives"
            rule = "U5" if t.color is Color.LOCOMOTIVE else ("U7" if self.board.route(t.route).is_gray else "U2")
            raise IllegalTunnelPayment(rule, f"the extra cards must be {what}, not {paid.describe()}")
        self._take_from(seat, a.hand, a.cardholder)
        self._settle_tunnel(a.hand, a.cardholder)

    def _settle_tunnel(self, hand: CardCounts, holder: CardCounts) -> None:
        t = self.tunnel
        self.tunnel = None
        self.phase = Phase.TURN
        self.discard.extend(t.revealed)  # U4
        self._finish_claim(t.seat, self.board.route(t.route), t.laid_hand + hand, t.laid_holder + holder)

    def _withdraw(self, a: act.Withdraw) -> None:
        t = self.tunnel
        seat, team = t.seat, t.seat // 2
        self.hands[seat] += t.laid_hand  # U3: the laid cards go back where they came from
        self.holders[team] += t.laid_holder
        self.known_hand[seat] += t.laid_hand  # everyone saw them (I1)
        self.known_holder[team] += t.laid_holder
        self.discard.extend(t.revealed)  # U4
        self.tunnel = None
        route = self.board.route(t.route)
        self._log(seat, "withdraw", f"{seat_name(seat)} takes the cards back from {route.a} - "
                  f"{route.b}; the revealed cards are discarded (U3, U4)")
        self._end_turn()

    def _pass(self, a: act.Pass) -> None:
        if self.legal_actions(include_pass=False):
            raise WrongPhase("D4", "you may pass only when you have no other legal action")
        seat = self.to_move
        self._log(seat, "pass", f"{seat_name(seat)} has no legal action and passes")
        self.passes_in_a_row += 1
        self._end_turn(passed=True)

    # --- turns and E1 --------------------------------------------------------------------------
    def _end_turn(self, passed: bool = False) -> None:
        if not passed:
            self.passes_in_a_row = 0
        if None in self.face_up:
            self._refill_face_up()  # C5/C6 policy: a slot emptied for want of cards is refilled
        seat = self.to_move
        self.turns += 1
        self.phase = Phase.TURN
        self.drawn = None
        self.first_to = None
        if self.final_turns_left is not None:
            self.final_turns_left -= 1
        elif any(self.team_trains(t) <= END_TRIGGER_TRAINS for t in range(self.teams)):
            # E1: every player, this one included, gets one final turn.
            self.final_turns_left = self.players
            self._log(seat, "final_round", f"{team_name(seat // 2)} has {END_TRIGGER_TRAINS} or fewer "
                      "trains: every player gets one final turn (E1)")
        if self.final_turns_left == 0 or self.passes_in_a_row >= self.players:
            self.phase = Phase.OVER
            self._log(None, "over", "the game is over")
            return
        self.to_move = (seat + 1) % self.players

    # ------------------------------------------------------------------------------------------
    # cards moving
    # ------------------------------------------------------------------------------------------
    def _pop_deck(self) -> Color:
        if not self.draw_pile:
            # C6: the discard pile is shuffled into a new draw pile.
            pile = self.discard
            self.discard = []
            self.draw_pile = [pile[i] for i in self.rng.permutation(len(pile)).tolist()]
            self._log_after(None, "reshuffle", f"the draw pile is empty: {plural(len(pile), 'discarded card')} "
                      "shuffled into a new draw pile (C6)")
        return self.draw_pile.pop()

    def _refill_face_up(self) -> None:
        for i in range(FACE_UP):
            if self.face_up[i] is None and self.can_draw_from_deck():
                self.face_up[i] = self._pop_deck()
        self._check_three_locomotives()

    def _check_three_locomotives(self) -> None:
        """C5: three face-up locomotives -> discard all five and turn five new ones (bounded)."""
        for _ in range(MAX_FACE_UP_RESETS):
            if sum(c is Color.LOCOMOTIVE for c in self.face_up) < 3:
                return
            row = [c for c in self.face_up if c is not None]
            others = sum(c is not Color.LOCOMOTIVE for c in self.draw_pile + self.discard + row)
            if others < 3:
                self._log(None, "no_reset", "three face-up locomotives stay: the cards left could never "
                          "make a row with fewer, so there is no reset (C5 policy)")
                return
            self.discard.extend(row)
            self.face_up = [None] * FACE_UP
            for i in range(FACE_UP):
                if self.can_draw_from_deck():
                    self.face_up[i] = self._pop_deck()
            self._log(None, "reset", "three face-up locomotives: the row is discarded and five new "
                      "cards are turned up (C5)")

    def _log(self, seat: int | None, kind: str, text: str, **data: Any) -> None:
        self.events.append({"seat": seat, "kind": kind, "text": text, **data})
        self._release_held_events()

    def _log_after(self, seat: int | None, kind: str, text: str, **data: Any) -> None:
        """Log an event caused by the step being logged next (a C6 reshuffle during a draw)."""
        self._held_events.append({"seat": seat, "kind": kind, "text": text, **data})

    def _release_held_events(self) -> None:
        if self._held_events:
            self.events += self._held_events
            self._held_events = []

    # ------------------------------------------------------------------------------------------
    # legal actions
    # ------------------------------------------------------------------------------------------
    def legal_actions(self, include_pass: bool = True) -> list[act.Action]:
        """Every action ``apply`` accepts now, each once."""
        phase, seat = self.phase, self.to_move
        if phase is Phase.SETUP_TICKETS:
            return list(_keep_choices(tuple(self.offers[seat]), SETUP_TICKETS_KEEP))
        if phase is Phase.CHOOSE_TICKETS:
            return list(_keep_choices(tuple(self.offers[seat]), 1))
        if phase is Phase.PLACE_CARD:
            return [act.PlaceCard("hand"), act.PlaceCard("cardholder")]
        if phase is Phase.SECOND_CARD:
            return [_DRAW[s] for s in self._second_sources()]
        if phase is Phase.TUNNEL:
            t = self.tunnel
            hand, holder = self.hands[t.seat], self.holders[t.seat // 2]
            pays = [act.PayTunnel(h, g) for h, g in payments.splits(hand, holder, t.color, t.extra)]
            return pays + [act.Withdraw()]
        if phase is Phase.OVER:
            return []
        out: list[act.Action] = []
        if self.can_draw_from_deck():
            out.append(_DRAW["deck"])
        out += [_DRAW[i] for i, c in enumerate(self.face_up) if c is not None]
        out += self.legal_claims(seat)
        if self.ticket_deck:
            out.append(act.DrawTickets())
        mine = self.tickets[seat]
        if mine:
            out += _share_choices(tuple(mine))
        if not out and include_pass:
            out.append(act.Pass())
        return out

    def legal_claims(self, seat: int | None = None) -> list[act.Claim]:
        """Every legal ``Claim`` for ``seat`` (default: the seat to move) in the TURN phase."""
        seat = self.to_move if seat is None else seat
        hand, holder = self.hands[seat], self.holders[seat // 2]
        hl, gl = hand[Color.LOCOMOTIVE], holder[Color.LOCOMOTIVE]
        out: list[act.Claim] = []
        groups: dict = {}  # route colour -> payments.way_groups, the same for every route of it
        for route in self.claimable_routes(seat):
            keys = groups.get(route.color)
            if keys is None:
                keys = groups[route.color] = payments.way_groups(hand, holder, route.color)
            # the claims of payments.route_payments, in its order, built once per small key
            for ci, hc, gc in keys:
                out += _claims(route.id, ci, hc, gc, hl, gl, route.length)
        return out

    def claimable_routes(self, seat: int | None = None) -> list[Route]:
        """Routes ``seat`` could pay for now with its hand and team cardholder (K1-K3)."""
        seat = self.to_move if seat is None else seat
        reach = _reach(self.hands[seat] + self.holders[seat // 2])
        trains = self.trains[seat]
        found = []
        for color, by_length in self._open_routes(seat).items():
            limit = min(trains, reach[color])
            if not limit:
                continue
            for length, index, r in by_length:
                if length > limit:
                    break  # sorted by length: no longer route of this colour is payable
                found.append((index, r))
        found.sort()
        return [r for _, r in found]  # in board order

    def _open_routes(self, seat: int) -> dict:
        """Route colour -> ``(length, board index, route)`` of the routes still open to ``seat``
        (unclaimed, and K3 allows it), sorted by length. Kept per seat and brought up to date
        from the routes claimed since: ``owners`` only grows, in claim order, and a claim can
        close only the claimed route and its parallel tracks (K3)."""
        owners, board = self.owners, self.board
        cache = self._open_cache
        if cache.get("owners") is not owners:  # a copy, or a loaded game, has its own dict
            cache.clear()
            cache["owners"] = owners
        entry = cache.get(seat)
        if entry is None:
            lists = {color: [row for row in rows if self._is_open(row[2], seat)]
                     for color, rows in _routes_by_colour(board).items()}
        else:
            known, lists = entry
            if known == len(owners):
                return lists
            new = list(owners)[known:]
            affected = set(new)
            for rid in new:
                affected.update(tracks.parallel_ids(board, board.route(rid)))
            for color in {board.route(rid).color for rid in affected}:
                lists[color] = [row for row in lists[color]
                                if row[2].id not in affected or self._is_open(row[2], seat)]
        cache[seat] = (len(owners), lists)
        return lists

    def _is_open(self, route: Route, seat: int) -> bool:
        return route.id not in self.owners and (
            not route.group
            or tracks.closed_reason(self.board, route, self.owners, seat, self.players) is None)

    # ------------------------------------------------------------------------------------------
    # what a seat sees (I1)
    # ------------------------------------------------------------------------------------------
    def view(self, seat: int) -> PlayerView:
        """The information set of ``seat`` (rule I1): its own hand and tickets (during setup its
        five dealt tickets and its own pending choice), its team's cardholders, and what is
        public, the number of tickets in every team's ticket cardholder included."""
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a {self.players}-player game")
        team = seat // 2
        face_up = CardCounts.of(c for c in self.face_up if c is not None)
        discard = CardCounts.of(self.discard)
        known_hands = {s: self.known_hand[s] for s in range(self.players) if s != seat}
        known_holders = {t: self.known_holder[t] for t in range(self.teams) if t != team}
        seen = [self.hands[seat], self.holders[team], face_up, discard, *known_hands.values(),
                *known_holders.values()]
        if self.tunnel is not None:
            seen += [self.tunnel.laid, CardCounts.of(self.tunnel.revealed)]
        drawn = None
        if self.drawn is not None and self.to_move == seat:
            drawn = self.drawn
            seen.append(_ONE[self.drawn])
        elif self.drawn is not None and self.taken_slot is not None:
            seen.append(_ONE[self.drawn])
        # one sum over all the parts (a view is built for every bot decision)
        unseen = standard_deck() - CardCounts._raw(tuple(map(sum, zip(*(c.as_tuple() for c in seen)))))
        offer = tuple(self.ticket_offer(seat)) if self.to_move == seat else ()
        return PlayerView(
            seat=seat,
            board=self.board,
            players=self.players,
            phase=self.phase,
            to_move=self.to_move,
            hand=self.hands[seat],
            tickets=tuple(self.tickets[seat]),
            team_cardholder=self.holders[team],
            team_tickets=tuple(self.team_tickets[team]),
            face_up=tuple(self.face_up),
            discard=discard,
            draw_pile_size=len(self.draw_pile),
            ticket_deck_size=len(self.ticket_deck),
            claimed=dict(self.owners),
            trains=tuple(self.trains),
            hand_sizes=tuple(len(h) for h in self.hands),
            ticket_counts=tuple(len(t) for t in self.tickets),
            team_ticket_counts=tuple(len(t) for t in self.team_tickets),
            cardholder_sizes=tuple(len(h) for h in self.holders),
            known_in_hands=known_hands,
            known_in_cardholders=known_holders,
            unseen=unseen,
            drawn_card=drawn,
            ticket_offer=offer,
            dealt_tickets=tuple(self.offers[seat]) if self.phase is Phase.SETUP_TICKETS else (),
            setup_choice=self.setup_choices.get(seat),
            tunnel=self.tunnel,
            final_round=self.final_turns_left is not None,
            events=tuple(self.events),
        )

    # ------------------------------------------------------------------------------------------
    # end of game, saving
    # ------------------------------------------------------------------------------------------
    def scores(self) -> "list[TeamScore]":
        """Each team's score sheet (E2-E6); final once ``is_over``."""
        from .rules.scoring import score

        return score(self.board, self.players, self.owners, self.tickets, self.team_tickets)

    def to_json(self, indent: int | None = None) -> str:
        """The whole state as JSON, random generator included (see ``ttrlib.save``)."""
        from .save import to_json

        return to_json(self, indent=indent)

    @classmethod
    def from_json(cls, text: str) -> "Game":
        """Resume a game saved with ``to_json``; ``SaveError`` names what is wrong."""
        from .save import from_json

        return from_json(text)

    def __repr__(self) -> str:
        return (f"<Game {self.players} players, {self.phase.value}, {seat_name(self.to_move)} to "
                f"move, turn {self.turns}>")

    _HANDLERS = {
        (Phase.SETUP_TICKETS, act.KeepTickets): _setup_keep,
        (Phase.TURN, act.DrawCard): _draw_first,
        (Phase.TURN, act.Claim): _claim,
        (Phase.TURN, act.DrawTickets): _draw_tickets,
        (Phase.TURN, act.ShareTickets): _share_tickets,
        (Phase.TURN, act.Pass): _pass,
        (Phase.PLACE_CARD, act.PlaceCard): _place,
        (Phase.SECOND_CARD, act.DrawCard): _draw_second,
        (Phase.CHOOSE_TICKETS, act.KeepTickets): _choose_keep,
        (Phase.TUNNEL, act.PayTunnel): _pay_tunnel,
        (Phase.TUNNEL, act.Withdraw): _withdraw,
    }


@lru_cache(maxsize=65536)
def _claims(route_id: str, ci: int, hc: int, gc: int, hl: int, gl: int, n: int) -> tuple:
    """The ``Claim`` actions of one group of ``payments.ways`` (Claims are immutable, so the
    same objects serve every position with these counts)."""
    return tuple(act.Claim(route_id, h, g) for h, g in payments.ways(ci, hc, gc, hl, gl, n))


@lru_cache(maxsize=16384)
def _reach(cards: CardCounts) -> dict:
    """``payments.longest_payable``, cached: the same hand-and-cardholder totals recur."""
    return payments.longest_payable(cards)


# Actions are immutable, so the same objects serve every position that offers them.
_DRAW = {source: act.DrawCard(source) for source in ("deck", *range(FACE_UP))}


@lru_cache(maxsize=4096)
def _keep_choices(offer: tuple[str, ...], minimum: int) -> tuple[act.KeepTickets, ...]:
    """T1, T2: keep at least ``minimum`` of the offer (every subset once), share one of them."""
    out = []
    for k in range(min(minimum, len(offer)), len(offer) + 1):
        for keep in combinations(offer, k):
            kept = frozenset(keep)
            out += [act.KeepTickets(kept, share) for share in keep]
    return tuple(out)


@lru_cache(maxsize=4096)
def _share_choices(mine: tuple[str, ...]) -> tuple[act.ShareTickets, ...]:
    """T4: share one or two private tickets."""
    return (tuple(act.ShareTickets([t]) for t in mine)
            + tuple(act.ShareTickets(pair) for pair in combinations(mine, 2)))


# board id -> (board, route colour -> [(length, board index, route)] sorted by length)
_BY_COLOUR: dict[int, tuple[Board, dict]] = {}


def _routes_by_colour(board: Board) -> dict:
    entry = _BY_COLOUR.get(id(board))
    if entry is None or entry[0] is not board:
        if len(_BY_COLOUR) > 64:  # tests build many small boards
            _BY_COLOUR.clear()
        table: dict = {}
        for index, r in enumerate(board.routes):
            table.setdefault(r.color, []).append((r.length, index, r))
        for rows in table.values():
            rows.sort(key=lambda row: (row[0], row[1]))
        entry = _BY_COLOUR[id(board)] = (board, table)
    return entry[1]


_ONE = {c: CardCounts._raw(tuple(int(c is d) for d in COLORS)) for c in COLORS}
_ACTION_WORDS = {
    act.KeepTickets: "Keeping tickets", act.DrawCard: "Drawing a train card",
    act.PlaceCard: "Placing a drawn card", act.Claim: "Claiming a route",
    act.PayTunnel: "Paying a tunnel's extra cards", act.Withdraw: "Taking tunnel cards back",
    act.DrawTickets: "Drawing tickets", act.ShareTickets: "Sharing tickets", act.Pass: "Passing",
}
_ACTION_TYPES = (act.KeepTickets, act.DrawCard, act.PlaceCard, act.Claim, act.PayTunnel,
                 act.Withdraw, act.DrawTickets, act.ShareTickets, act.Pass)
