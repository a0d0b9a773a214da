"""Claiming a route (K1-K4): which routes are open and payable, the check and the effect.

A claim lays cards from the seat's own hand and its team's train cardholder (K1), exactly the
route's length in one colour plus locomotives (K2), on an open track (K3); the cards go to the
discard pile (K4). A tunnel route then reveals cards (U1, ``ttrlib.rules.tunnels``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol
from weakref import WeakKeyDictionary

from .. import actions as act
from ..board import Board, Route
from ..cards import CardCounts, Color
from ..errors import IllegalClaim, IllegalMove, shown
from ..events import Claimed
from ..seats import team_of
from ..state import GameState
from ..words import plural
from . import check_mode, deck, payments, tracks
from .ending import end_turn

#: ``(length, board index, route)``: a route in ``routes_by_colour``'s and ``open_routes``' lists.
Row = tuple[int, int, Route]
#: Route colour (``None``: gray) -> its rows, sorted by length.
ByColour = dict[Color | None, list[Row]]
#: A route colour's payment groups (``payments.way_groups``) and the two locomotive counts.
GroupKeys = tuple[tuple[tuple[int, int, int], ...], tuple[int, int]]


class PublicFacts(Protocol):
    """What the track rules read, all public (I1): a ``GameState``, or the same facts taken
    from a seat's view (``ttrlib.remote_session``)."""

    @property
    def board(self) -> Board: ...
    @property
    def claimed(self) -> dict[str, int]: ...
    @property
    def trains(self) -> list[int]: ...
    @property
    def players(self) -> int: ...


# --- which routes --------------------------------------------------------------------------------
def is_open(state: PublicFacts, route: Route, seat: int) -> bool:
    """Unclaimed, and K3 lets ``seat`` claim it."""
    return route.id not in state.claimed and (
        not route.group
        or tracks.closed_reason(state.board, route, state.claimed, seat, state.players) is None)


def open_routes(state: PublicFacts, seat: int) -> ByColour:
    """Route colour -> ``(length, board index, route)`` of the routes open to ``seat``, sorted
    by length (``Game`` keeps these per seat and brings them up to date)."""
    return {color: [row for row in rows if is_open(state, row[2], seat)]
            for color, rows in routes_by_colour(state.board).items()}


def claimable_in(table: ByColour, trains: int, reach: dict[Color | None, int]) -> list[Route]:
    """The routes of ``table`` (see ``open_routes``) that ``trains`` and cards with
    ``reach`` (``payments.longest_payable``) pay for (K1, K2), in board order."""
    found = []
    for color, by_length in table.items():
        limit = min(trains, reach[color])
        if not limit:
            continue
        for length, index, r in by_length:
            if length > limit:
                break  # sorted by length: no longer route of this colour is payable
            found.append((index, r))
    found.sort()
    return [r for _, r in found]


def claimable_routes(state: GameState, seat: int) -> list[Route]:
    """Routes ``seat`` could pay for now with its hand and team cardholder (K1-K3)."""
    reach = _reach(state.hands[seat], state.cardholders[team_of(seat)])
    return claimable_in(_open_now(state, seat), state.trains[seat], reach)


def legal_claims(state: GameState, seat: int | None = None) -> list[act.Claim]:
    """Every ``Claim`` that ``check_claim`` accepts from ``seat`` (default: the seat to move)
    in a TURN, each once, in board order and in ``payments.route_payments`` order per route."""
    seat = state.to_move if seat is None else seat
    hand, holder = state.hands[seat], state.cardholders[team_of(seat)]
    out: list[act.Claim] = []
    routes = claimable_routes(state, seat)
    if routes:
        groups: dict[Color | None, GroupKeys] = {}  # route colour -> its payment groups, the same for every route of it
        locos = (hand[Color.LOCOMOTIVE], holder[Color.LOCOMOTIVE])
        for route in routes:
            keys = groups.get(route.color)
            if keys is None:
                keys = groups[route.color] = (
                    tuple(payments.way_groups(hand, holder, route.color)), locos)
            out += _route_claims(route.id, route.length, keys)
    if check_mode.CHECK:
        check_mode.compare("legal_claims", out, rebuilt_claims(state, seat))
    return out


@lru_cache(maxsize=65536)
def _route_claims(route_id: str, n: int, keys: GroupKeys) -> tuple[act.Claim, ...]:
    """The ``Claim`` actions of one route for payment groups ``keys`` (``payments.way_groups``
    and the two locomotive counts): one cache look-up per route. Claims are immutable, so the
    same objects serve every position with these counts."""
    groups, (hl, gl) = keys
    return tuple(act.Claim(route_id, h, g) for ci, hc, gc in groups
                 for h, g in payments.ways(ci, hc, gc, hl, gl, n))


@lru_cache(maxsize=16384)
def _reach(hand: CardCounts, holder: CardCounts) -> dict[Color | None, int]:
    """``payments.longest_payable`` of hand and cardholder together, cached: the same hands
    recur (CardCounts keep their hash, so the look-up costs less than adding them)."""
    return payments.longest_payable(hand + holder)


# --- the check mode (``check_mode``): the reference answers -----------------------------------
def rebuilt_claims(state: GameState, seat: int) -> list[act.Claim]:
    """``legal_claims`` from scratch, without this family's caches: the open routes anew, the
    payments from ``payments.route_payments`` (the check mode's reference)."""
    hand, holder = state.hands[seat], state.cardholders[team_of(seat)]
    reach = payments.longest_payable(hand + holder)
    return [act.Claim(r.id, h, g)
            for r in claimable_in(open_routes(state, seat), state.trains[seat], reach)
            for h, g in payments.route_payments(hand, holder, r.color, r.length)]


# The family's own cache, per state (a copy, or a loaded game, is a new state and starts
# afresh; a state that is dropped takes its entry with it): for each seat the routes still open
# to it (``open_routes``) and how many claims they account for.
_OPEN: WeakKeyDictionary[GameState, dict[object, Any]] = WeakKeyDictionary()


def closed_by(board: Board, new: list[str]) -> set[str]:
    """The routes whose K3 status the claims of ``new`` can change: each claimed route and its
    parallel tracks (a claim closes nothing else)."""
    affected = set(new)
    for rid in new:
        affected.update(tracks.parallel_ids(board, board.route(rid)))
    return affected


def _open_now(state: GameState, seat: int) -> ByColour:
    """``open_routes(state, seat)``, kept per state and seat and brought up to date from the
    routes claimed since: ``claimed`` only grows, in claim order, and a claim can close only the
    claimed route and its parallel tracks (K3, ``closed_by``)."""
    owners, board = state.claimed, state.board
    cache = _OPEN.get(state)
    if cache is None or cache["owners"] is not owners:  # a new state, or owners set anew
        cache = _OPEN[state] = {"owners": owners}
    entry = cache.get(seat)
    if entry is None:
        lists = open_routes(state, seat)
    else:
        known, lists = entry
        if known == len(owners):
            kept: ByColour = lists
            return kept
        affected = closed_by(board, list(owners)[known:])
        for color in {board.route(rid).color for rid in affected}:
            lists[color] = [row for row in lists[color]
                            if row[2].id not in affected or is_open(state, row[2], seat)]
        if check_mode.CHECK:
            check_mode.compare("open routes", lists, open_routes(state, seat))
    cache[seat] = (len(owners), lists)
    return lists


def route_problem(state: PublicFacts, seat: int, route_id: str) -> tuple[str, str] | None:
    """Why ``seat`` may not claim ``route_id`` whatever cards it lays, as ``(rule, reason)``:
    the track is closed (K3) or the seat lacks the trains (K2); ``None`` otherwise. Both
    depend only on public facts, so any seat may be told."""
    route = state.board.route(route_id)
    why = tracks.closed_reason(state.board, route, state.claimed, seat, state.players)
    if why:
        return "K3", why
    if state.trains[seat] < route.length:
        return "K2", (f"{route.a} - {route.b} needs {plural(route.length, 'train')} and you "
                      f"have {state.trains[seat]} left")
    return None


# --- the cards -----------------------------------------------------------------------------------
_CARDS = "train cards, e.g. CardCounts(red=2) or {'red': 2}"


def check_cards_fields(a: act.Claim | act.PayTunnel, error: type[IllegalMove]) -> None:
    """The card fields of a ``Claim`` or ``PayTunnel`` hold cards (junk is named, K1)."""
    for name in act.CARD_FIELDS[type(a)]:
        value = getattr(a, name)
        if value is not None and not isinstance(value, CardCounts):
            raise error("K1", f"{type(a).__name__}.{name}: {_CARDS}, not {shown(value)}")


def check_owned(state: GameState, seat: int, hand: CardCounts, holder: CardCounts,
                error: type[IllegalMove]) -> None:
    """K1: the cards must be in the seat's own hand and the team cardholder."""
    if not hand <= state.hands[seat]:
        # The message must not depend on the teammate's hand: that would leak it (I1).
        missing = hand.minus_available(state.hands[seat])
        raise error("K1", f"your hand lacks {missing.describe()}; you pay from your own hand "
                    "and the team cardholder, never your teammate's hand")
    if not holder <= state.cardholders[team_of(seat)]:
        missing = holder.minus_available(state.cardholders[team_of(seat)])
        raise error("K1", f"the team cardholder lacks {missing.describe()}")


def take_from(state: GameState, seat: int, hand: CardCounts, holder: CardCounts) -> None:
    """Cards visibly leave a hand and the cardholder (laid down or paid)."""
    team = team_of(seat)
    state.hands[seat] -= hand
    state.cardholders[team] -= holder
    # I1: a known card may have been among those played, so only the surplus stays known.
    state.known_in_hands[seat] = state.known_in_hands[seat].minus_available(hand)
    state.known_in_cardholders[team] = state.known_in_cardholders[team].minus_available(holder)


# --- K1-K3: the check; K4: the effect ------------------------------------------------------------
def check_claim(state: GameState, a: act.Claim) -> None:
    seat = state.to_move
    if not isinstance(a.route, str) or not state.board.has_route(a.route):
        raise IllegalClaim("K2", f"there is no route {shown(a.route)} on this board")
    check_cards_fields(a, IllegalClaim)
    route = state.board.route(a.route)
    if a.teammate:
        raise IllegalClaim("K1", "cards in your teammate's hand cannot pay for your route")
    problem = route_problem(state, seat, route.id)
    if problem:
        raise IllegalClaim(*problem)
    check_owned(state, seat, a.hand, a.cardholder, IllegalClaim)
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


def finish_claim(state: GameState, seat: int, route: Route, hand: CardCounts,
                 holder: CardCounts) -> None:
    """K4: the cards go to the discard pile, the route is the seat's, its trains are placed."""
    cards = hand + holder
    state.discard.extend(cards.elements())
    state.claimed[route.id] = seat
    state.trains[seat] -= route.length
    deck.log(state, Claimed(seat=seat, route=route.id, a=route.a, b=route.b, cards=cards))
    end_turn(state)


# board id -> (board, route colour -> [(length, board index, route)] sorted by length)
_BY_COLOUR: dict[int, tuple[Board, ByColour]] = {}


def routes_by_colour(board: Board) -> ByColour:
    entry = _BY_COLOUR.get(id(board))
    if entry is None or entry[0] is not board:
        if len(_BY_COLOUR) > 64:  # tests build many small boards
            _BY_COLOUR.clear()
        table: ByColour = {}
        for index, r in enumerate(board.routes):
            table.setdefault(r.color, []).append((r.length, index, r))
        for rows in table.values():
            rows.sort(key=lambda row: (row[0], row[1]))
        entry = _BY_COLOUR[id(board)] = (board, table)
    return entry[1]
