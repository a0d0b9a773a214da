"""The Team Asia game: state, ``apply(action)``, ``legal_actions()`` and ``view(seat)``.

One entry point changes the game: ``game.apply(action)``. It applies a legal action or raises an
``IllegalMove`` naming the rule and the reason, and a rejected action leaves the game exactly as
it was. ``Game`` is a thin facade: the state is one ``ttrlib.state.GameState``, and ``apply``
looks up the rule family's pair (a check that may raise and changes nothing, then an effect
that never raises) for the phase and the action type, so a refused action changes nothing by
construction. The log holds typed events (``ttrlib.events``); ``ttrlib.narration`` words them.

A game keeps its start (the deal of ``new``, the position of ``from_position``) and its history,
every step since (``ttrlib.history``): the actions ``apply`` accepted and the chance steps of
``copy(rng)`` and ``resample_hidden``. ``to_json`` saves those two, ``from_json`` replays them,
so a loaded state is always what the rules made of its start (``ttrlib.save``).

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

from dataclasses import dataclass, fields
from functools import lru_cache
from itertools import combinations, islice
from typing import TYPE_CHECKING, Any

import numpy as np

from . import actions as act
from . import save
from .board import Board, Route, teaching_board
from .cards import COLORS, EMPTY, CardCounts, Color, standard_deck
from .errors import ArgumentError, IllegalMove, SaveError, SetupError, TTRError, WrongPhase, shown
from .events import Event, Setup
from .history import (
    Resample,
    Reseed,
    Step,
    rng_from_state,
    rng_state,
    step_from_plain,
    step_to_plain,
)
from .rules import claims, deck, draws, passing, payments, tickets, tracks, tunnels
from .seats import PLAYER_COUNTS, TEAM_NAMES, seat_name, team_name  # noqa: F401 (re-exported)
from .state import (  # noqa: F401 (re-exported: lessons and tests import them from here)
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
from .validity import check_state, start_problem

if TYPE_CHECKING:
    from .rules.scoring import TeamScore

#: The state's fields, read and set on a ``Game`` by name (the lessons and the tests do);
#: ``events`` has its own property, and the held events never leave an action.
STATE_FIELDS = tuple(f.name for f in fields(GameState) if f.name not in ("events", "held"))
MAX_SEED = 2**256  # a seed is a whole number below this (a SHA-256 digest fits)


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
    events: tuple[Event, ...]

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
    """A Team Asia game. Build one with ``Game.new`` or ``Game.from_position``.

    Every field of its ``state`` (``ttrlib.state.GameState``) reads and sets as an attribute
    of the game (``game.hands``, ``game.draw_pile = [...]``)."""

    # ------------------------------------------------------------------------------------------
    # construction
    # ------------------------------------------------------------------------------------------
    def __init__(self, board: Board, players: int, rng: np.random.Generator):
        _check_players(players)
        self._wrap(GameState.empty(board, players, rng))
        self._record(None, None)

    def _wrap(self, state: GameState) -> None:
        self.state = state
        self._open_cache: dict = {}  # see _open_routes

    def _record(self, origin: str | None, start: GameState | None) -> None:
        """The game's record (``ttrlib.history``): how it began, its start (never changed: it is
        copied before any replay), the steps since, and the last state ``to_json`` replayed
        the history to, as ``(steps, state)`` (also never changed)."""
        self._origin, self._start = origin, start
        self._history: list[Step] = []
        self._replayed = None if start is None else (0, start)

    def _begin(self, origin: str) -> "Game":
        """The state as it is now is the start of this game's record."""
        self._record(origin, self.state.copy())
        return self

    @classmethod
    def new(cls, players: int = 4, seed: int | None = None, board: Board | None = None) -> "Game":
        """A new game: shuffled deck, 4 cards each (C4), 5 face up (C5), 5 tickets each (T1).

        ``seed``: ``None`` (fresh randomness) or a whole number 0 to ``MAX_SEED`` - 1; ``board``:
        a ``Board`` (``load_board``), by default the teaching board. A bad argument is refused
        with a ``SetupError`` naming it."""
        board, rng = _setup_args(players, seed, board)
        game = cls(board, players, rng)
        s = game.state
        cards = standard_deck().elements()
        s.draw_pile = [cards[i] for i in s.rng.permutation(len(cards))]
        for seat in range(players):
            s.hands[seat] = CardCounts.of(deck.pop_deck(s) for _ in range(STARTING_HAND))
        deck.refill_face_up(s)
        ids = [t.id for t in s.board.tickets]
        s.ticket_deck = [ids[i] for i in s.rng.permutation(len(ids))]
        need = players * SETUP_TICKETS_DEALT
        if len(ids) < need:
            raise SetupError(f"rule T1: the board has {len(ids)} tickets; {players} players need {need}")
        for seat in range(players):
            s.offers[seat] = s.ticket_deck[:SETUP_TICKETS_DEALT]
            del s.ticket_deck[:SETUP_TICKETS_DEALT]
        deck.log(s, Setup(players=players))
        return game._begin("new")

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

        Every argument is read with its name and within what a game holds (an iterable is read
        up to one item beyond, never to its end), so a malformed position is refused with a
        ``SetupError`` that says where.
        """
        board, rng = _setup_args(players, seed, board)
        game = cls(board, players, rng)
        teams = players // 2
        deck_size = len(standard_deck())
        cards, colour = _cards_arg, _colour_arg

        def listed(values, what, count=None, most=None):
            if values is None:
                return None
            if isinstance(values, (str, bytes, dict)) or not hasattr(values, "__iter__"):
                raise SetupError(f"{what}: a list, not {shown(values)}")
            bound = count if count is not None else most
            try:
                values = list(islice(iter(values), bound + 1))
            except Exception as exc:  # an iterable that fails when read is no list of entries
                raise SetupError(f"{what}: a list that cannot be read ({shown(exc)})") from None
            if count is not None and len(values) != count:
                got = "more" if len(values) > count else len(values)
                raise SetupError(f"{what}: expected {count} entries, got {got}")
            if len(values) > bound:
                raise SetupError(f"{what}: more than {bound} entries, more than a game holds")
            return values

        game.hands = [cards(v, f"hands[{i}]") for i, v in
                      enumerate(listed(hands, "hands", players) or [EMPTY] * players)]
        game.holders = [cards(v, f"cardholders[{i}]") for i, v in
                        enumerate(listed(cardholders, "cardholders", teams) or [EMPTY] * teams)]
        row = listed(face_up, "face_up", FACE_UP) or [None] * FACE_UP
        game.face_up = [None if c is None else colour(c, f"face_up[{i}]") for i, c in enumerate(row)]
        placed = sum(game.hands, EMPTY) + sum(game.holders, EMPTY)
        placed += CardCounts.of(c for c in game.face_up if c is not None)
        pile = [colour(c, f"draw_pile[{i}]") for i, c in
                enumerate(listed(draw_pile, "draw_pile", most=deck_size) or [])]
        placed += CardCounts.of(pile)
        disc = cards(discard, "discard") if discard is not None else EMPTY
        placed += disc
        if not placed <= standard_deck():
            extra = placed.minus_available(standard_deck())
            raise SetupError(f"rule C1: the position uses more cards than the deck has: {extra.describe()}")
        rest = standard_deck() - placed
        if isinstance(rest_to, int) and not isinstance(rest_to, bool):
            if not 0 <= rest_to < players:
                raise SetupError(f"rest_to: no seat {shown(rest_to)} in a {players}-player game")
            game.hands[rest_to] += rest
            rest = EMPTY
            rest_to = "draw_pile"
        elif rest_to not in ("auto", "draw_pile", "discard"):
            raise SetupError(f"rest_to: 'auto', 'draw_pile', 'discard' or a seat, not {shown(rest_to)}")
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
        most_tickets = len(game.board.tickets)
        tickets = listed(tickets, "tickets", players)
        team_tickets = listed(team_tickets, "team_tickets", teams)
        for what, lists in (("tickets", tickets or []), ("team_tickets", team_tickets or [])):
            for i, seat_list in enumerate(lists):
                lists[i] = listed(seat_list, f"{what}[{i}]", most=most_tickets)
                for tid in lists[i]:
                    if not (isinstance(tid, str) and game.board.has_ticket(tid)):
                        raise SetupError(f"{what}[{i}]: no ticket {shown(tid)} on the board")
                    if tid in known_ids:
                        raise SetupError(f"{what}[{i}]: {shown(tid)} is placed twice")
                    known_ids.add(tid)
        game.tickets = [list(t) for t in (tickets or [[] for _ in range(players)])]
        game.team_tickets = [list(t) for t in (team_tickets or [[] for _ in range(teams)])]
        if len(game.tickets) != players or len(game.team_tickets) != teams:
            raise SetupError("tickets: one list per seat and team_tickets: one list per team")
        if ticket_deck is not None:
            game.ticket_deck = listed(ticket_deck, "ticket_deck", most=most_tickets)
            if not all(isinstance(t, str) and game.board.has_ticket(t) for t in game.ticket_deck):
                raise SetupError("ticket_deck: every entry must be a ticket id of the board")
            placed_ids = known_ids | set(game.ticket_deck)
            if len(placed_ids) != len(known_ids) + len(game.ticket_deck):
                raise SetupError("ticket_deck: a ticket is placed twice")
            missing = [t.id for t in game.board.tickets if t.id not in placed_ids]
            if missing or len(placed_ids) != len(game.board.tickets):
                raise SetupError(f"ticket_deck: tickets not placed anywhere: {missing}")
        else:
            game.ticket_deck = [t.id for t in game.board.tickets if t.id not in known_ids]

        trains = listed(trains, "trains", players)
        if trains is not None and not all(isinstance(t, int) and not isinstance(t, bool)
                                          and 0 <= t <= TRAINS_PER_PLAYER for t in trains):
            raise SetupError(f"trains: {players} whole numbers 0-{TRAINS_PER_PLAYER} (C3), not "
                             f"{shown(trains)}")
        game.trains = list(trains) if trains is not None else [TRAINS_PER_PLAYER] * players
        if claimed is not None and not isinstance(claimed, dict):
            raise SetupError(f"claimed: a route id -> seat table, not {shown(claimed)}")
        if claimed is not None and len(claimed) > len(game.board.routes):
            raise SetupError(f"claimed: {len(claimed)} routes; the board has {len(game.board.routes)}")
        for rid, seat in (claimed or {}).items():
            if not (isinstance(rid, str) and game.board.has_route(rid)):
                raise SetupError(f"claimed: no route {shown(rid)} on the board")
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
                raise SetupError(f"claimed: {rid} is owned by {shown(seat)}, not a seat 0-"
                                 f"{players - 1}")
            game.owners[rid] = seat
            if trains is None:
                game.trains[seat] -= game.board.route(rid).length
        if min(game.trains) < 0:
            raise SetupError("claimed: a seat has claimed more than its 27 trains (C3)")
        if isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move < players:
            raise SetupError(f"to_move: no seat {shown(to_move)} in a {players}-player game")
        game.phase = Phase.TURN
        game.to_move = to_move
        check_state(game, SetupError, position=True)
        return game._begin("position")

    def copy(self, rng: np.random.Generator | None = None) -> "Game":
        """An independent copy: with a copy of the random generator, or with ``rng`` (the copy's
        history then records it: a ``history.Reseed`` step). A copy keeps the start and the
        history, so it saves as the same game."""
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise ArgumentError(f"rng: a numpy random Generator or None, not {shown(rng)}")
        new = self._copy(rng)
        if rng is not None:
            new._history.append(Reseed(rng_state(rng)))
        return new

    def _copy(self, rng: np.random.Generator | None) -> "Game":
        new = object.__new__(Game)
        new._wrap(self.state.copy(rng))
        new._origin, new._start, new._replayed = self._origin, self._start, self._replayed
        new._history = list(self._history)
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

        The copy's history records the new deal (a ``history.Resample`` step with the state of
        ``rng`` before it), so a save of the copy replays it exactly. The copy plays on with
        ``rng`` itself: drawn from elsewhere afterwards, it no longer is what the copy's history
        says, and ``to_json`` of the copy refuses (give each copy a generator of its own to
        save it).
        """
        seat = self._seat(seat)
        if not isinstance(rng, np.random.Generator):
            raise ArgumentError(f"rng: a numpy random Generator, not {shown(rng)}")
        step = Resample(seat, rng_state(rng))
        g = self._copy(rng)
        g._history.append(step)
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
        return self.state.teams

    def team_trains(self, team: int) -> int:
        if isinstance(team, bool) or not isinstance(team, (int, np.integer)) \
                or not 0 <= team < self.teams:
            raise ArgumentError(f"team: no team {shown(team)} in a {self.players}-player game "
                                f"(teams are 0-{self.teams - 1})")
        return self.state.team_trains(int(team))

    def _seat(self, seat: Any, what: str = "seat") -> int:
        """``seat`` if it is a seat of this game (``None``: the seat to move); else an
        ``ArgumentError`` naming the argument ``what``."""
        if seat is None:
            return self.state.to_move
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) \
                or not 0 <= seat < self.players:
            raise ArgumentError(f"{what}: no seat {shown(seat)} in a {self.players}-player game "
                                f"(seats are 0-{self.players - 1})")
        return int(seat)

    def ticket_offer(self, seat: int | None = None) -> list[str]:
        """The tickets ``seat`` (default: the seat to move) must choose from now."""
        seat = self._seat(seat)
        if self.phase is Phase.SETUP_TICKETS:
            return list(self.offers[seat]) if seat not in self.setup_choices else []
        if self.phase is Phase.CHOOSE_TICKETS and seat == self.to_move:
            return list(self.offers[seat])
        return []

    @property
    def drawn_card(self) -> Color | None:
        return self.drawn

    def can_draw_from_deck(self) -> bool:
        return self.state.can_draw_from_deck()  # C6

    def total_cards(self) -> CardCounts:
        """Every train card, wherever it is (110 of them: an invariant)."""
        return self.state.total_cards()

    @property
    def events(self) -> list[Event]:
        """The public log (I1): typed events, oldest first (``ttrlib.narration`` words them)."""
        return self.state.events

    @events.setter
    def events(self, value) -> None:
        self.state.events = list(value)

    def _check_invariants(self) -> None:
        """The one validity check (``ttrlib.validity``); the tests run it after every action."""
        check_state(self, AssertionError)

    # ------------------------------------------------------------------------------------------
    # the one entry point
    # ------------------------------------------------------------------------------------------
    def apply(self, action: act.Action) -> None:
        """Apply a legal action, or raise ``IllegalMove`` and change nothing."""
        state = self.state
        pair = _RULES.get((state.phase, type(action)))
        if pair is None:
            raise WrongPhase(self._phase_rule(action), self._phase_reason(action))
        check, effect = pair
        try:
            check(state, action)  # may raise; changes nothing
        except TTRError:
            raise
        except Exception as exc:  # junk no check foresaw still gets the library's own error
            raise IllegalMove(self._phase_rule(action), f"{type(action).__name__} is malformed: "
                              f"{shown(exc)}") from None
        effect(state, action)  # never raises
        deck.release(state)
        self._history.append(action)

    def _phase_rule(self, action: Any) -> str:
        """The rule that says what the game waits for (or, in a turn, what the action needs)."""
        if self.phase is not Phase.TURN:
            return {Phase.SETUP_TICKETS: "T1", Phase.PLACE_CARD: "D1", Phase.SECOND_CARD: "D1",
                    Phase.CHOOSE_TICKETS: "T2", Phase.TUNNEL: "U3", Phase.OVER: "E1"}[self.phase]
        return {act.PayTunnel: "U2", act.Withdraw: "U3", act.KeepTickets: "T2"}.get(type(action), "D1")

    def _phase_reason(self, action: Any) -> str:
        name = _ACTION_WORDS.get(type(action), type(action).__name__)
        if not isinstance(action, _ACTION_TYPES):
            return f"{shown(action)} is not a ttrlib action"
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

    def route_problem(self, seat: int, route_id: str) -> tuple[str, str] | None:
        """Why ``seat`` may not claim ``route_id`` whatever cards it lays, as ``(rule, reason)``:
        the track is closed (K3) or the seat lacks the trains (K2); ``None`` otherwise. Both
        depend only on public facts, so any seat may be told."""
        seat = self._seat(seat)
        if not (isinstance(route_id, str) and self.board.has_route(route_id)):
            raise ArgumentError(f"route_id: no route {shown(route_id)} on the board")
        return claims.route_problem(self.state, seat, route_id)

    # ------------------------------------------------------------------------------------------
    # legal actions
    # ------------------------------------------------------------------------------------------
    def legal_actions(self, include_pass: bool = True) -> list[act.Action]:
        """Every action ``apply`` accepts now, each once."""
        s = self.state
        phase, seat = s.phase, s.to_move
        if phase is Phase.SETUP_TICKETS:
            return list(_keep_choices(tuple(s.offers[seat]), SETUP_TICKETS_KEEP))
        if phase is Phase.CHOOSE_TICKETS:
            return list(_keep_choices(tuple(s.offers[seat]), 1))
        if phase is Phase.PLACE_CARD:
            return [_PLACE["hand"], _PLACE["cardholder"]]
        if phase is Phase.SECOND_CARD:
            return [_DRAW[source] for source in draws.second_sources(s)]
        if phase is Phase.TUNNEL:
            t = s.tunnel
            hand, holder = s.hands[t.seat], s.holders[t.seat // 2]
            pays = [act.PayTunnel(h, g) for h, g in payments.splits(hand, holder, t.color, t.extra)]
            return pays + [act.Withdraw()]
        if phase is Phase.OVER:
            return []
        out: list[act.Action] = []
        if s.draw_pile or s.discard:  # C6
            out.append(_DRAW["deck"])
        out += [_DRAW[i] for i, c in enumerate(s.face_up) if c is not None]
        out += self.legal_claims(seat)
        if s.ticket_deck:
            out.append(act.DrawTickets())
        mine = s.tickets[seat]
        if mine:
            out += _share_choices(tuple(mine))
        if not out and include_pass:
            out.append(act.Pass())
        return out

    def legal_claims(self, seat: int | None = None) -> list[act.Claim]:
        """Every legal ``Claim`` for ``seat`` (default: the seat to move) in the TURN phase."""
        s = self.state
        seat = self._seat(seat)
        hand, holder = s.hands[seat], s.holders[seat // 2]
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
        s = self.state
        seat = self._seat(seat)
        reach = _reach(s.hands[seat] + s.holders[seat // 2])
        return claims.claimable_in(self._open_routes(seat), s.trains[seat], reach)

    def _open_routes(self, seat: int) -> dict:
        """Route colour -> ``(length, board index, route)`` of the routes still open to ``seat``
        (unclaimed, and K3 allows it), sorted by length. Kept per seat and brought up to date
        from the routes claimed since: ``owners`` only grows, in claim order, and a claim can
        close only the claimed route and its parallel tracks (K3)."""
        state = self.state
        owners, board = state.owners, state.board
        cache = self._open_cache
        if cache.get("owners") is not owners:  # a copy, or a loaded game, has its own dict
            cache.clear()
            cache["owners"] = owners
        entry = cache.get(seat)
        if entry is None:
            lists = claims.open_routes(state, seat)
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
                                if row[2].id not in affected or claims.is_open(state, row[2], seat)]
        cache[seat] = (len(owners), lists)
        return lists

    # ------------------------------------------------------------------------------------------
    # what a seat sees (I1)
    # ------------------------------------------------------------------------------------------
    def view(self, seat: int) -> PlayerView:
        """The information set of ``seat`` (rule I1): its own hand and tickets (during setup its
        five dealt tickets and its own pending choice), its team's cardholders, and what is
        public, the number of tickets in every team's ticket cardholder included."""
        g = self.state
        if seat is None:  # a view is always one seat's (I1): no default
            raise ArgumentError(f"seat: whose view? a seat 0-{g.players - 1}, not None")
        seat = self._seat(seat)
        team = seat // 2
        face_up = CardCounts.of(c for c in g.face_up if c is not None)
        discard = CardCounts.of(g.discard)
        known_hands = {s: g.known_hand[s] for s in range(g.players) if s != seat}
        known_holders = {t: g.known_holder[t] for t in range(g.teams) if t != team}
        seen = [g.hands[seat], g.holders[team], face_up, discard, *known_hands.values(),
                *known_holders.values()]
        if g.tunnel is not None:
            seen += [g.tunnel.laid, CardCounts.of(g.tunnel.revealed)]
        drawn = None
        if g.drawn is not None and g.to_move == seat:
            drawn = g.drawn
            seen.append(_ONE[g.drawn])
        elif g.drawn is not None and g.taken_slot is not None:
            seen.append(_ONE[g.drawn])
        # one sum over all the parts (a view is built for every bot decision)
        unseen = standard_deck() - CardCounts._raw(tuple(map(sum, zip(*(c.as_tuple() for c in seen)))))
        offer = tuple(self.ticket_offer(seat)) if g.to_move == seat else ()
        return PlayerView(
            seat=seat,
            board=g.board,
            players=g.players,
            phase=g.phase,
            to_move=g.to_move,
            hand=g.hands[seat],
            tickets=tuple(g.tickets[seat]),
            team_cardholder=g.holders[team],
            team_tickets=tuple(g.team_tickets[team]),
            face_up=tuple(g.face_up),
            discard=discard,
            draw_pile_size=len(g.draw_pile),
            ticket_deck_size=len(g.ticket_deck),
            claimed=dict(g.owners),
            trains=tuple(g.trains),
            hand_sizes=tuple(len(h) for h in g.hands),
            ticket_counts=tuple(len(t) for t in g.tickets),
            team_ticket_counts=tuple(len(t) for t in g.team_tickets),
            cardholder_sizes=tuple(len(h) for h in g.holders),
            known_in_hands=known_hands,
            known_in_cardholders=known_holders,
            unseen=unseen,
            drawn_card=drawn,
            ticket_offer=offer,
            dealt_tickets=tuple(g.offers[seat]) if g.phase is Phase.SETUP_TICKETS else (),
            setup_choice=g.setup_choices.get(seat),
            tunnel=g.tunnel,
            final_round=g.final_turns_left is not None,
            events=tuple(g.events),
        )

    # ------------------------------------------------------------------------------------------
    # end of game, saving
    # ------------------------------------------------------------------------------------------
    def scores(self) -> "list[TeamScore]":
        """Each team's score sheet (E2-E6); final once ``is_over``."""
        from .rules.scoring import score

        return score(self.board, self.players, self.owners, self.tickets, self.team_tickets)

    @property
    def history(self) -> tuple[Step, ...]:
        """Every step since the start, oldest first: the actions ``apply`` accepted and the
        chance steps of ``copy(rng)`` and ``resample_hidden`` (``ttrlib.history``)."""
        return tuple(self._history)

    def to_json(self, indent: int | None = None) -> str:
        """The game as JSON: its start and its history (``ttrlib.save``), from which
        ``from_json`` replays it.

        A save must load into this very game, so the history is first replayed from the start
        (from where the last ``to_json`` left it) and the result compared with the state:
        a state changed other than by ``apply`` (set by hand: a position is built with
        ``from_position``) is refused with a ``SaveError`` that names the first field that
        differs, as is a game too long for a save (``save.MAX_HISTORY``)."""
        if self._start is None:
            raise SaveError("cannot save this game: it was not made by Game.new or "
                            "Game.from_position, so it has no start to replay from")
        if indent is not None and not (type(indent) is int and 0 <= indent <= 8):
            raise ArgumentError(f"indent: None or 0-8 spaces, not {shown(indent)}")
        plain = [step_to_plain(step) for step in self._history]
        self._check_replay(plain)
        return save.write(self._origin, self._start, plain, indent)

    def _check_replay(self, plain: list[dict]) -> None:
        """``SaveError`` unless the history, read back from ``plain`` as ``from_json`` reads
        it, replays from the start to this game's state."""
        done, replayed = self._replayed
        if done < len(plain):
            game = Game._bare(replayed.copy())
            for i in range(done, len(plain)):
                try:
                    game = game._step(step_from_plain(plain[i]))
                except TTRError as exc:
                    raise SaveError(f"cannot save this game: step {i} of its history "
                                    f"({shown(plain[i])}) is refused when replayed from its "
                                    f"start ({exc}): the game was changed other than by "
                                    "Game.apply") from None
            self._replayed = done, replayed = len(plain), game.state
        differs = _first_difference(self.state, replayed)
        if differs:
            raise SaveError(f"cannot save this game: its {differs!r} is not what its history "
                            "gives (the state was changed other than by Game.apply; a position "
                            "built by hand is made with Game.from_position)")

    @classmethod
    def _bare(cls, state: GameState) -> "Game":
        """A game around ``state`` with no record (a replay's scratch game)."""
        game = object.__new__(cls)
        game._wrap(state)
        game._record(None, None)
        return game

    def _step(self, step: Step) -> "Game":
        """Take one step of a history (``ttrlib.history``); the game it leaves (a chance step
        makes a copy)."""
        if isinstance(step, Resample):
            return self.resample_hidden(step.seat, rng_from_state(step.rng))
        if isinstance(step, Reseed):
            return self.copy(rng_from_state(step.rng))
        self.apply(step)
        return self

    @classmethod
    def from_json(cls, text: str | bytes) -> "Game":
        """Resume a game saved with ``to_json``; ``SaveError`` names what is wrong.

        Every field is read and type-checked (``ttrlib.save``); the start must be a valid
        position (``validity.check_state``, the check of every position) made as its origin
        makes one (``validity.start_problem``); then every step of the history is replayed
        with the rules (``apply``: each must be legal). The game is what the replay gives:
        nothing else of its state is read from the text."""
        saved = save.read(text)
        game = cls._bare(saved.start)
        position = saved.origin == "position"  # E1: as from_position allows (validity)
        problem = check_state(game, position=position) or start_problem(game, saved.origin)
        if problem:
            raise SaveError(f"saved game: field 'start.{problem[0]}': {problem[1]}")
        game._begin(saved.origin)
        for i, step in enumerate(saved.history):
            try:
                game = game._step(step)
            except TTRError as exc:
                raise SaveError(f"saved game: field 'history[{i}]': step {i} cannot be taken: "
                                f"{exc}") from None
        problem = check_state(game, position=position)
        if problem:  # the rules keep every state valid: this would be a bug of the engine
            raise SaveError(f"saved game: field 'history': it replays to a broken game: "
                            f"{problem[0]!r}: {problem[1]}")
        game._replayed = (len(game._history), game.state.copy())
        return game

    def __repr__(self) -> str:
        return (f"<Game {self.players} players, {self.phase.value}, {seat_name(self.to_move)} to "
                f"move, turn {self.turns}>")


def _check_players(players: Any) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYER_COUNTS:
        counts = " or ".join(str(n) for n in PLAYER_COUNTS)
        raise SetupError(f"rule C2: Team Asia is played by {counts} players, not {shown(players)}")


def _setup_args(players: Any, seed: Any, board: Any) -> tuple[Board, np.random.Generator]:
    """The board and the generator of ``Game.new`` and ``from_position``; a ``SetupError``
    names a bad argument."""
    _check_players(players)
    if board is not None and not isinstance(board, Board):
        raise SetupError(f"board: a Board (ttrlib.load_board, teaching_board), not {shown(board)}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                             or not 0 <= seed < MAX_SEED):
        raise SetupError(f"seed: None or a whole number from 0 to 2**256 - 1, not {shown(seed)}")
    return board or teaching_board(), np.random.default_rng(None if seed is None else int(seed))


def _cards_arg(value: Any, what: str) -> CardCounts:
    """Cards given to ``from_position`` (``CardCounts`` or a colour -> count table)."""
    if isinstance(value, CardCounts):
        return value
    # the types first: CardCounts quotes a bad value whole (a deeply nested one cannot be shown)
    if not (isinstance(value, dict) and len(value) <= len(COLORS) and all(
            isinstance(k, str) and isinstance(n, int) for k, n in value.items())):
        raise SetupError(f"{what}: {shown(value)} is not a set of train cards, e.g. {{'red': 2}}")
    try:
        return CardCounts(value)
    except (TypeError, ValueError):
        raise SetupError(f"{what}: {shown(value)} is not a set of train cards") from None


def _colour_arg(value: Any, what: str) -> Color:
    """A card colour given to ``from_position`` (a ``Color`` or its name)."""
    try:
        if isinstance(value, str):  # Color.parse quotes a bad value whole: a string only
            return Color.parse(value)
    except ValueError:
        pass
    raise SetupError(f"{what}: {shown(value)} is not a train card colour")


def _first_difference(state: GameState, other: GameState) -> str | None:
    """The first field in which two states differ (generators by their state), or ``None``."""
    for f in fields(GameState):
        if f.name == "held":
            continue
        mine, theirs = getattr(state, f.name), getattr(other, f.name)
        if f.name == "rng":
            if rng_state(mine) != rng_state(theirs):
                return f.name
        elif mine is not theirs and mine != theirs:
            return f.name
    return None


def _state_field(name: str) -> property:
    return property(lambda self: getattr(self.state, name),
                    lambda self, value: setattr(self.state, name, value),
                    doc=f"``state.{name}`` (see ``ttrlib.state.GameState``)")


for _name in STATE_FIELDS:
    setattr(Game, _name, _state_field(_name))
del _name

#: (phase, action type) -> (check, effect): the rule family that decides each action.
_RULES = {
    (Phase.SETUP_TICKETS, act.KeepTickets): (tickets.check_setup_keep, tickets.do_setup_keep),
    (Phase.TURN, act.DrawCard): (draws.check_draw_first, draws.do_draw_first),
    (Phase.TURN, act.Claim): (claims.check_claim, tunnels.do_claim),
    (Phase.TURN, act.DrawTickets): (tickets.check_draw_tickets, tickets.do_draw_tickets),
    (Phase.TURN, act.ShareTickets): (tickets.check_share, tickets.do_share),
    (Phase.TURN, act.Pass): (passing.check_pass, passing.do_pass),
    (Phase.PLACE_CARD, act.PlaceCard): (draws.check_place, draws.do_place),
    (Phase.SECOND_CARD, act.DrawCard): (draws.check_draw_second, draws.do_draw_second),
    (Phase.CHOOSE_TICKETS, act.KeepTickets): (tickets.check_choose_keep, tickets.do_choose_keep),
    (Phase.TUNNEL, act.PayTunnel): (tunnels.check_pay, tunnels.do_pay),
    (Phase.TUNNEL, act.Withdraw): (tunnels.check_withdraw, tunnels.do_withdraw),
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
_PLACE = {to: act.PlaceCard(to) for to in ("hand", "cardholder")}


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


_ONE = deck.ONE
_ACTION_WORDS = {
    act.KeepTickets: "Keeping tickets", act.DrawCard: "Drawing a train card",
    act.PlaceCard: "Placing a drawn card", act.Claim: "Claiming a route",
    act.PayTunnel: "Paying a tunnel's extra cards", act.Withdraw: "Taking tunnel cards back",
    act.DrawTickets: "Drawing tickets", act.ShareTickets: "Sharing tickets", act.Pass: "Passing",
}
_ACTION_TYPES = (act.KeepTickets, act.DrawCard, act.PlaceCard, act.Claim, act.PayTunnel,
                 act.Withdraw, act.DrawTickets, act.ShareTickets, act.Pass)

