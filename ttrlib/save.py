"""Save and resume: a game as JSON, checked field by field when it is read back.

``to_json(game)`` writes every part of the state: the board itself, pending decisions and the
random generator, so a resumed game continues exactly as the original would. ``from_json(text)``
rejects a malformed or tampered file with a ``SaveError`` that names what is wrong, and never
returns a half-built game.

>>> from ttrlib import Game
>>> game = Game.new(players=4, seed=7)
>>> again = from_json(to_json(game))
>>> to_json(again) == to_json(game)
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np

from .actions import KeepTickets
from .board import TEAM_ASIA_TUNNELS, Board, board_from_dict
from .cards import CardCounts, Color, standard_deck
from .errors import BoardError, SaveError
from .game import FACE_UP, PLAYER_COUNTS, TRAINS_PER_PLAYER, Game, Phase, TunnelAttempt
from .rules import payments

FORMAT = "ttrlib-game"
VERSION = 2  # 2: "taken_slot" (D3 policy: the slot of a face-up card waiting to be placed)


def board_to_dict(board: Board) -> dict:
    data: dict[str, Any] = {"name": board.name, "cities": list(board.cities)}
    if board.open_groups:
        data["open_groups"] = sorted(board.open_groups)
    if board.tunnel_reveals != TEAM_ASIA_TUNNELS:
        data["tunnel_reveals"] = list(board.tunnel_reveals)
    if board.positions:
        data["positions"] = {c: list(xy) for c, xy in board.positions.items()}
    data["routes"] = []
    for r in board.routes:
        entry = {"id": r.id, "a": r.a, "b": r.b, "length": r.length,
                 "color": "gray" if r.color is None else r.color.value}
        if r.tunnel:
            entry["tunnel"] = r.tunnel
        if r.group:
            entry["group"] = r.group
        data["routes"].append(entry)
    data["tickets"] = [{"id": t.id, "a": t.a, "b": t.b, "points": t.points} for t in board.tickets]
    return data


def _cards(c: CardCounts) -> dict[str, int]:
    return c.to_dict()


def to_dict(game: Game) -> dict:
    t = game.tunnel
    return {
        "format": FORMAT,
        "version": VERSION,
        "board": board_to_dict(game.board),
        "players": game.players,
        "rng": game.rng.bit_generator.state,
        "phase": game.phase.value,
        "to_move": game.to_move,
        "turns": game.turns,
        "draw_pile": [c.value for c in game.draw_pile],
        "discard": [c.value for c in game.discard],
        "face_up": [None if c is None else c.value for c in game.face_up],
        "hands": [_cards(h) for h in game.hands],
        "cardholders": [_cards(h) for h in game.holders],
        "known_in_hands": [_cards(h) for h in game.known_hand],
        "known_in_cardholders": [_cards(h) for h in game.known_holder],
        "trains": list(game.trains),
        "claimed": dict(game.owners),
        "ticket_deck": list(game.ticket_deck),
        "tickets": [list(t_) for t_ in game.tickets],
        "team_tickets": [list(t_) for t_ in game.team_tickets],
        "offers": [list(o) for o in game.offers],
        "setup_choices": {str(s): {"keep": sorted(c.keep), "share": c.share}
                          for s, c in sorted(game.setup_choices.items())},
        "drawn": None if game.drawn is None else game.drawn.value,
        "taken_slot": game.taken_slot,
        "first_to": game.first_to,
        "tunnel": None if t is None else {
            "route": t.route, "seat": t.seat, "laid_hand": _cards(t.laid_hand),
            "laid_cardholder": _cards(t.laid_holder), "revealed": [c.value for c in t.revealed],
            "color": t.color.value, "extra": t.extra,
        },
        "final_turns_left": game.final_turns_left,
        "passes_in_a_row": game.passes_in_a_row,
        "events": list(game.events),
    }


def to_json(game: Game, indent: int | None = None) -> str:
    """The whole game as a JSON text (see ``from_json``)."""
    return json.dumps(to_dict(game), indent=indent, sort_keys=True)


# ------------------------------------------------------------------------------------------------
# reading back
# ------------------------------------------------------------------------------------------------
_FIELDS = {
    "format", "version", "board", "players", "rng", "phase", "to_move", "turns", "draw_pile",
    "discard", "face_up", "hands", "cardholders", "known_in_hands", "known_in_cardholders",
    "trains", "claimed", "ticket_deck", "tickets", "team_tickets", "offers", "setup_choices",
    "drawn", "taken_slot", "first_to", "tunnel", "final_turns_left", "passes_in_a_row", "events",
}


def _err(field: str, message: str) -> SaveError:
    return SaveError(f"saved game: field {field!r}: {message}")


def _need(data: dict, field: str, check: Callable[[Any], bool], what: str) -> Any:
    if field not in data:
        raise _err(field, "is missing")
    value = data[field]
    if not check(value):
        raise _err(field, f"must be {what}, not {value!r:.80}")
    return value


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _color(field: str, v: Any, *, allow_none: bool = False) -> Color | None:
    if v is None and allow_none:
        return None
    try:
        return Color(v)
    except (ValueError, TypeError):
        raise _err(field, f"{v!r:.40} is not a card colour") from None


def _color_list(data: dict, field: str) -> list[Color]:
    values = _need(data, field, lambda v: isinstance(v, list), "a list of card colours")
    return [_color(field, v) for v in values]


def _counts(field: str, v: Any) -> CardCounts:
    if not isinstance(v, dict):
        raise _err(field, f"must map colours to counts, not {v!r:.60}")
    for k, n in v.items():
        _color(field, k)
        if not _is_int(n) or n < 0:
            raise _err(field, f"count of {k} must be a whole number >= 0, not {n!r}")
    return CardCounts(v)


def _counts_list(data: dict, field: str, length: int) -> list[CardCounts]:
    values = _need(data, field, lambda v: isinstance(v, list) and len(v) == length,
                   f"a list of {length} card counts")
    return [_counts(f"{field}[{i}]", v) for i, v in enumerate(values)]


def _id_lists(data: dict, field: str, length: int) -> list[list[str]]:
    values = _need(data, field, lambda v: isinstance(v, list) and len(v) == length
                   and all(isinstance(x, list) and all(isinstance(t, str) for t in x) for x in v),
                   f"a list of {length} lists of ticket ids")
    return [list(x) for x in values]


def from_json(text: str) -> Game:
    """Rebuild a game saved by ``to_json``; ``SaveError`` names whatever is wrong."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise SaveError(f"saved game: not valid JSON ({exc})") from None
    return from_dict(data)


def from_dict(data: Any) -> Game:
    if not isinstance(data, dict):
        raise SaveError("saved game: the top level must be a JSON object")
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise _err(unknown[0], "is not a field of a saved game")
    if data.get("format") != FORMAT:
        raise _err("format", f"must be {FORMAT!r}")
    if data.get("version") != VERSION:
        raise _err("version", f"version {data.get('version')!r} is not supported (expected {VERSION})")
    try:
        board = board_from_dict(_need(data, "board", lambda v: isinstance(v, dict), "a board table"),
                                source="saved game board")
    except BoardError as exc:
        raise _err("board", str(exc)) from None
    players = _need(data, "players", lambda v: _is_int(v) and v in PLAYER_COUNTS, "4 or 6")
    teams = players // 2
    rng = np.random.default_rng()
    state = _need(data, "rng", lambda v: isinstance(v, dict), "a random generator state")
    try:
        rng = np.random.Generator(getattr(np.random, state["bit_generator"])())
        rng.bit_generator.state = state
    except Exception:  # numpy raises several kinds here; any of them means a bad state
        raise _err("rng", "is not a valid numpy bit generator state") from None

    game = Game(board, players, rng)
    phases = [p.value for p in Phase]
    game.phase = Phase(_need(data, "phase", lambda v: v in phases, f"one of {phases}"))
    game.to_move = _need(data, "to_move", lambda v: _is_int(v) and 0 <= v < players,
                         f"a seat 0-{players - 1}")
    game.turns = _need(data, "turns", lambda v: _is_int(v) and v >= 0, "a count")
    game.draw_pile = _color_list(data, "draw_pile")
    game.discard = _color_list(data, "discard")
    row = _need(data, "face_up", lambda v: isinstance(v, list) and len(v) == FACE_UP,
                f"a list of {FACE_UP} slots")
    game.face_up = [_color("face_up", c, allow_none=True) for c in row]
    game.hands = _counts_list(data, "hands", players)
    game.holders = _counts_list(data, "cardholders", teams)
    game.known_hand = _counts_list(data, "known_in_hands", players)
    game.known_holder = _counts_list(data, "known_in_cardholders", teams)
    for i in range(players):
        if not game.known_hand[i] <= game.hands[i]:
            raise _err("known_in_hands", f"seat {i}: known cards are not all in that hand")
    for i in range(teams):
        if not game.known_holder[i] <= game.holders[i]:
            raise _err("known_in_cardholders", f"team {i}: known cards are not all in that cardholder")
    game.trains = _need(data, "trains", lambda v: isinstance(v, list) and len(v) == players
                        and all(_is_int(x) and 0 <= x <= TRAINS_PER_PLAYER for x in v),
                        f"a list of {players} train counts 0-{TRAINS_PER_PLAYER}")
    claimed = _need(data, "claimed", lambda v: isinstance(v, dict), "a route -> seat table")
    for rid, seat in claimed.items():
        if not board.has_route(rid):
            raise _err("claimed", f"{rid!r} is not a route of the board")
        if not (_is_int(seat) and 0 <= seat < players):
            raise _err("claimed", f"{rid!r} is owned by {seat!r}, not a seat")
    game.owners = dict(claimed)
    game.ticket_deck = _need(data, "ticket_deck", lambda v: isinstance(v, list)
                             and all(isinstance(t, str) for t in v), "a list of ticket ids")
    game.tickets = _id_lists(data, "tickets", players)
    game.team_tickets = _id_lists(data, "team_tickets", teams)
    game.offers = _id_lists(data, "offers", players)
    choices = _need(data, "setup_choices", lambda v: isinstance(v, dict), "a seat -> choice table")
    for key, c in choices.items():
        if not (key.isdigit() and int(key) < players and isinstance(c, dict)
                and set(c) == {"keep", "share"} and isinstance(c["keep"], list)
                and isinstance(c["share"], str)):
            raise _err("setup_choices", f"entry {key!r} is not a seat's keep/share choice")
        game.setup_choices[int(key)] = KeepTickets(c["keep"], c["share"])
    game.drawn = _color("drawn", _need(data, "drawn", lambda v: True, "null or a colour"),
                        allow_none=True)
    game.taken_slot = _need(data, "taken_slot", lambda v: v is None or (_is_int(v) and 0 <= v < FACE_UP),
                            f"null or a face-up slot 0-{FACE_UP - 1}")
    game.first_to = _need(data, "first_to", lambda v: v in (None, "hand", "cardholder"),
                          "null, 'hand' or 'cardholder'")
    game.final_turns_left = _need(data, "final_turns_left",
                                  lambda v: v is None or (_is_int(v) and 0 <= v <= players),
                                  f"null or 0-{players}")
    game.passes_in_a_row = _need(data, "passes_in_a_row", lambda v: _is_int(v) and v >= 0, "a count")
    game.events = _need(data, "events", lambda v: isinstance(v, list)
                        and all(isinstance(e, dict) for e in v), "a list of event tables")
    keys = {"route", "seat", "laid_hand", "laid_cardholder", "revealed", "color", "extra"}
    t = _need(data, "tunnel", lambda v: v is None or (isinstance(v, dict) and set(v) == keys),
              f"null or a table with {sorted(keys)}")
    if t is not None:
        game.tunnel = _tunnel(board, players, t)
    _check_consistency(game)
    return game


def _tunnel(board: Board, players: int, t: dict) -> TunnelAttempt:
    if not isinstance(t["route"], str) or not board.has_route(t["route"]) \
            or not board.route(t["route"]).is_tunnel:
        raise _err("tunnel", f"{t['route']!r} is not a tunnel of the board")
    route = board.route(t["route"])
    if not (_is_int(t["seat"]) and 0 <= t["seat"] < players):
        raise _err("tunnel", "its seat is not a seat")
    if not isinstance(t["revealed"], list) or len(t["revealed"]) > route.tunnel:
        raise _err("tunnel", f"'revealed' must be a list of at most {route.tunnel} colours")
    revealed = tuple(_color("tunnel", c) for c in t["revealed"])
    hand, holder = _counts("tunnel", t["laid_hand"]), _counts("tunnel", t["laid_cardholder"])
    color = _color("tunnel", t["color"])
    laid = hand + holder
    if len(laid) != route.length or payments.claim_color(laid) != color:
        raise _err("tunnel", f"the laid cards ({laid.describe()}) are not a {route.length}-card "
                   f"claim of colour {color.value} (K2, U7)")
    if route.color is not None and color not in (route.color, Color.LOCOMOTIVE):
        raise _err("tunnel", f"the laid colour {color.value} does not fit the route (K2)")
    owed = sum(payments.matches(c, color) for c in revealed)
    if t["extra"] != owed or not _is_int(t["extra"]):
        raise _err("tunnel", f"'extra' must be {owed}, the revealed cards that match (U2, U5)")
    return TunnelAttempt(route.id, t["seat"], hand, holder, revealed, color, owed)


def _check_consistency(game: Game) -> None:
    """The cross-field checks: card and ticket totals, trains, pending decisions."""
    total = game.total_cards()
    if total != standard_deck():
        over = total.minus_available(standard_deck())
        under = standard_deck().minus_available(total)
        raise _err("cards", "the 110 train cards do not add up: "
                   f"{over.describe()} too many, {under.describe()} missing")
    for seat in range(game.players):
        on_board = sum(game.board.route(r).length for r, s in game.owners.items() if s == seat)
        if game.trains[seat] + on_board != TRAINS_PER_PLAYER:
            raise _err("trains", f"seat {seat} has {game.trains[seat]} trains left and "
                       f"{on_board} on the board, not 27 in all")
    places: dict[str, str] = {}
    for where, ids in [("ticket_deck", game.ticket_deck)] + \
            [(f"tickets[{i}]", x) for i, x in enumerate(game.tickets)] + \
            [(f"team_tickets[{i}]", x) for i, x in enumerate(game.team_tickets)] + \
            [(f"offers[{i}]", x) for i, x in enumerate(game.offers)]:
        for tid in ids:
            if not game.board.has_ticket(tid):
                raise _err(where, f"{tid!r} is not a ticket of the board")
            if tid in places:
                raise _err(where, f"ticket {tid!r} is also in {places[tid]}")
            places[tid] = where
    missing = [t.id for t in game.board.tickets if t.id not in places]
    if missing:
        raise _err("tickets", f"tickets are missing: {', '.join(missing)}")
    phase = game.phase
    if (game.drawn is not None) != (phase is Phase.PLACE_CARD):
        raise _err("drawn", f"a drawn card is pending exactly in the {Phase.PLACE_CARD.value!r} phase")
    if (game.tunnel is not None) != (phase is Phase.TUNNEL):
        raise _err("tunnel", f"a tunnel attempt is pending exactly in the {Phase.TUNNEL.value!r} phase")
    if game.tunnel is not None and game.tunnel.seat != game.to_move:
        raise _err("tunnel", "the tunnel attempt belongs to the seat to move")
    if game.taken_slot is not None and (phase is not Phase.PLACE_CARD
                                        or game.face_up[game.taken_slot] is not None):
        # D3 policy: a face-up card drawn first leaves its slot empty until it is placed.
        raise _err("taken_slot", "names the empty face-up slot of a card waiting to be placed "
                   f"(the {Phase.PLACE_CARD.value!r} phase) and nothing else")
    if game.taken_slot is not None and game.drawn is Color.LOCOMOTIVE:
        raise _err("taken_slot", "a face-up locomotive taken first is never placed by choice (D2)")
    if (game.first_to is not None) != (phase is Phase.SECOND_CARD):
        raise _err("first_to", "is set exactly in the 'second_card' phase")
    for seat, offer in enumerate(game.offers):
        allowed = phase is Phase.SETUP_TICKETS or (phase is Phase.CHOOSE_TICKETS and seat == game.to_move)
        if offer and not allowed:
            raise _err("offers", f"seat {seat} has tickets on offer outside a ticket choice")
    if phase is Phase.CHOOSE_TICKETS and not game.offers[game.to_move]:
        raise _err("offers", "the seat choosing tickets has none on offer")
    if phase is not Phase.SETUP_TICKETS and game.setup_choices:
        raise _err("setup_choices", "choices are pending only during setup")
    for seat, choice in game.setup_choices.items():
        offer = game.offers[seat]
        # T1: a pending choice is hidden until the teammate chooses, so it is a seat before the
        # one to move whose teammate has not chosen yet, and a legal keep/share of its offer.
        if seat >= game.to_move or (seat ^ 1) in game.setup_choices or not offer:
            raise _err("setup_choices", f"seat {seat} cannot have a pending choice now")
        if not (choice.keep <= set(offer) and len(choice.keep) >= min(3, len(offer))
                and choice.share in choice.keep):
            raise _err("setup_choices", f"seat {seat}: keep at least 3 offered tickets and share "
                       "one of them (T1)")
