"""An exact position built by hand (``Game.from_position``), and the checked set-up arguments.

``position(...)`` reads every argument with its name and within what a game holds (an iterable
is read up to one item beyond, never to its end) and returns the ``GameState`` of a TURN with
the setup done, checked by ``validity.check_state``; a malformed position is refused with a
``SetupError`` that says where. ``setup_args`` checks what ``Game.new`` and a position share.
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Literal, Union

import numpy as np

from .board import Board, teaching_board
from .cards import COLORS, EMPTY, CardCounts, Color, standard_deck
from .errors import SetupError, shown
from .seats import PLAYER_COUNTS
from .state import FACE_UP, SHORT_GAME_TRAINS, TRAINS_PER_PLAYER, GameState, Phase
from .validity import check_state

MAX_SEED = 2**256  # a seed is a whole number below this (a SHA-256 digest fits)
REST_PLACES = ("auto", "draw_pile", "discard")  # where the cards not placed go (or a seat)
RestTo = Union[Literal["auto", "draw_pile", "discard"], int]


def check_players(players: Any) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYER_COUNTS:
        counts = " or ".join(str(n) for n in PLAYER_COUNTS)
        raise SetupError(f"rule C2: Team Asia is played by {counts} players, not {shown(players)}")


def setup_args(players: Any, seed: Any, board: Any,
               trains: Any = TRAINS_PER_PLAYER) -> tuple[Board, np.random.Generator]:
    """The board and the generator of ``Game.new`` and a position; a ``SetupError`` names a
    bad argument (``trains``: per player, C3 or its short-game policy)."""
    check_players(players)
    fewest, most = SHORT_GAME_TRAINS
    if isinstance(trains, bool) or not isinstance(trains, int) or not fewest <= trains <= most:
        raise SetupError(f"trains: trains per player, a whole number from {fewest} to {most} "
                         f"(C3 and its short-game policy), not {shown(trains)}")
    if board is not None and not isinstance(board, Board):
        raise SetupError(f"board: a Board (ttrlib.load_board, teaching_board), not {shown(board)}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                             or not 0 <= seed < MAX_SEED):
        raise SetupError(f"seed: None or a whole number from 0 to 2**256 - 1, not {shown(seed)}")
    return board or teaching_board(), np.random.default_rng(None if seed is None else int(seed))


def position(
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
    rest_to: RestTo = "auto",
) -> GameState:
    """The state of an exact position in the TURN phase (the arguments of
    ``Game.from_position``, which documents them)."""
    the_board, rng = setup_args(players, seed, board)
    s = GameState.empty(the_board, players, rng)
    _place_cards(s, hands, cardholders, face_up, draw_pile, discard, rest_to)
    _place_tickets(s, tickets, team_tickets, ticket_deck)
    _place_claims(s, claimed, trains)
    if isinstance(to_move, bool) or not isinstance(to_move, int) or not 0 <= to_move < players:
        raise SetupError(f"to_move: no seat {shown(to_move)} in a {players}-player game")
    s.phase = Phase.TURN
    s.to_move = to_move
    check_state(s, SetupError, position=True)
    return s


def _listed(values: Any, what: str, count: int | None = None,
            most: int | None = None) -> list[Any] | None:
    """``values`` as a list of ``count`` entries (or at most ``most``); ``None`` stays ``None``."""
    if values is None:
        return None
    if isinstance(values, (str, bytes, dict)) or not hasattr(values, "__iter__"):
        raise SetupError(f"{what}: a list, not {shown(values)}")
    bound = count if count is not None else most
    assert bound is not None
    try:
        items = list(islice(iter(values), bound + 1))
    except Exception as exc:  # an iterable that fails when read is no list of entries
        raise SetupError(f"{what}: a list that cannot be read ({shown(exc)})") from None
    if count is not None and len(items) != count:
        got = "more" if len(items) > count else len(items)
        raise SetupError(f"{what}: expected {count} entries, got {got}")
    if len(items) > bound:
        raise SetupError(f"{what}: more than {bound} entries, more than a game holds")
    return items


def _cards_arg(value: Any, what: str) -> CardCounts:
    """Cards given to a position (``CardCounts`` or a colour -> count table)."""
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
    """A card colour given to a position (a ``Color`` or its name)."""
    try:
        if isinstance(value, str):  # Color.parse quotes a bad value whole: a string only
            return Color.parse(value)
    except ValueError:
        pass
    raise SetupError(f"{what}: {shown(value)} is not a train card colour")


def _place_cards(s: GameState, hands: Any, cardholders: Any, face_up: Any, draw_pile: Any,
                 discard: Any, rest_to: Any) -> None:
    """C1: the 110 cards: the hands, cardholders, row, pile and discard given, and the rest
    where ``rest_to`` says."""
    players, teams = s.players, s.teams
    s.hands = [_cards_arg(v, f"hands[{i}]") for i, v in
               enumerate(_listed(hands, "hands", players) or [EMPTY] * players)]
    s.cardholders = [_cards_arg(v, f"cardholders[{i}]") for i, v in
                 enumerate(_listed(cardholders, "cardholders", teams) or [EMPTY] * teams)]
    row = _listed(face_up, "face_up", FACE_UP) or [None] * FACE_UP
    s.face_up = [None if c is None else _colour_arg(c, f"face_up[{i}]") for i, c in enumerate(row)]
    placed = sum(s.hands, EMPTY) + sum(s.cardholders, EMPTY)
    placed += CardCounts.of(c for c in s.face_up if c is not None)
    pile = [_colour_arg(c, f"draw_pile[{i}]") for i, c in
            enumerate(_listed(draw_pile, "draw_pile", most=len(standard_deck())) or [])]
    placed += CardCounts.of(pile)
    disc = _cards_arg(discard, "discard") if discard is not None else EMPTY
    placed += disc
    if not placed <= standard_deck():
        extra = placed.minus_available(standard_deck())
        raise SetupError(f"rule C1: the position uses more cards than the deck has: {extra.describe()}")
    rest = standard_deck() - placed
    if isinstance(rest_to, int) and not isinstance(rest_to, bool):
        if not 0 <= rest_to < players:
            raise SetupError(f"rest_to: no seat {shown(rest_to)} in a {players}-player game")
        s.hands[rest_to] += rest
        rest = EMPTY
        rest_to = "draw_pile"
    elif rest_to not in REST_PLACES:
        raise SetupError(f"rest_to: 'auto', 'draw_pile', 'discard' or a seat, not {shown(rest_to)}")
    if rest_to == "auto":
        if draw_pile is not None and discard is not None and rest:
            raise SetupError(f"rule C1: {rest.describe()} are not placed anywhere")
        rest_to = "discard" if draw_pile is not None and discard is None else "draw_pile"
    if rest_to == "discard":
        disc += rest
        rest = EMPTY
    rest_cards = rest.elements()
    beneath = [rest_cards[i] for i in s.rng.permutation(len(rest_cards))]
    s.draw_pile = beneath + pile[::-1]
    s.discard = disc.elements()


def _place_tickets(s: GameState, tickets: Any, team_tickets: Any, ticket_deck: Any) -> None:
    """Every ticket in exactly one place: the seats', the teams', the ticket deck."""
    players, teams, board = s.players, s.teams, s.board
    known_ids: set[str] = set()
    most_tickets = len(board.tickets)
    seat_lists = _listed(tickets, "tickets", players)
    team_lists = _listed(team_tickets, "team_tickets", teams)
    for what, lists in (("tickets", seat_lists or []), ("team_tickets", team_lists or [])):
        for i, seat_list in enumerate(lists):
            lists[i] = _listed(seat_list, f"{what}[{i}]", most=most_tickets)
            for tid in lists[i]:
                if not (isinstance(tid, str) and board.has_ticket(tid)):
                    raise SetupError(f"{what}[{i}]: no ticket {shown(tid)} on the board")
                if tid in known_ids:
                    raise SetupError(f"{what}[{i}]: {shown(tid)} is placed twice")
                known_ids.add(tid)
    s.tickets = [list(t) for t in (seat_lists or [[] for _ in range(players)])]
    s.team_tickets = [list(t) for t in (team_lists or [[] for _ in range(teams)])]
    if ticket_deck is None:
        s.ticket_deck = [t.id for t in board.tickets if t.id not in known_ids]
        return
    deck = _listed(ticket_deck, "ticket_deck", most=most_tickets) or []
    if not all(isinstance(t, str) and board.has_ticket(t) for t in deck):
        raise SetupError("ticket_deck: every entry must be a ticket id of the board")
    placed_ids = known_ids | set(deck)
    if len(placed_ids) != len(known_ids) + len(deck):
        raise SetupError("ticket_deck: a ticket is placed twice")
    missing = [t.id for t in board.tickets if t.id not in placed_ids]
    if missing or len(placed_ids) != len(board.tickets):
        raise SetupError(f"ticket_deck: tickets not placed anywhere: {missing}")
    s.ticket_deck = deck


def _place_claims(s: GameState, claimed: Any, trains: Any) -> None:
    """C3, K4: the routes claimed, and the trains left (taken from the claiming seat's supply
    unless ``trains`` is given)."""
    players, board = s.players, s.board
    given = _listed(trains, "trains", players)
    if given is not None and not all(isinstance(t, int) and not isinstance(t, bool)
                                     and 0 <= t <= TRAINS_PER_PLAYER for t in given):
        raise SetupError(f"trains: {players} whole numbers 0-{TRAINS_PER_PLAYER} (C3), not "
                         f"{shown(given)}")
    s.trains = list(given) if given is not None else [TRAINS_PER_PLAYER] * players
    if claimed is not None and not isinstance(claimed, dict):
        raise SetupError(f"claimed: a route id -> seat table, not {shown(claimed)}")
    if claimed is not None and len(claimed) > len(board.routes):
        raise SetupError(f"claimed: {len(claimed)} routes; the board has {len(board.routes)}")
    for rid, seat in (claimed or {}).items():
        if not (isinstance(rid, str) and board.has_route(rid)):
            raise SetupError(f"claimed: no route {shown(rid)} on the board")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise SetupError(f"claimed: {rid} is owned by {shown(seat)}, not a seat 0-"
                             f"{players - 1}")
        s.claimed[rid] = seat
        if given is None:
            s.trains[seat] -= board.route(rid).length
    if min(s.trains) < 0:
        raise SetupError(f"claimed: a seat has claimed more than its {TRAINS_PER_PLAYER} trains "
                         "(C3)")

