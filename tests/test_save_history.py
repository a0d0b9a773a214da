"""Issue 18, items 3 (part), 4, 5 and 6: a save is its history; bounds before parsing; only
ttrlib's own errors, and no hangs.

* Item 4: a loaded game's state never contradicts its log. Each tampering of the audit (a seat
  to move out of turn, a route owned that no claim took, a card no draw explains, a turn counter
  ahead of the log, a card "known to all" that nobody saw, a tampered ``taken_slot``) is made in
  the state fields of a save (the start, in a save of format 4), and the save is refused or
  loads into a game that ``log_oracle`` (written apart from ttrlib) finds consistent.
* Item 3 (part): a position at the E1 trigger (``from_position``) saves and loads.
* Item 5: texts, lists and names beyond the stated bounds are refused before they are parsed,
  walked or built (a patched parser that must not run shows it), naming the bound.
* Item 6: every call of the audit's list raises a ttrlib error naming its argument; an endless
  iterable is read only up to its bound.
"""

from __future__ import annotations

import copy
import itertools
import json

import numpy as np
import pytest
from bot_games import play_bot_game
from hypothesis import given
from hypothesis import strategies as st
from log_oracle import log_contradictions

from ttrlib import Game, SaveError, TTRError
from ttrlib import actions as act
from ttrlib.bots import RandomBot
from ttrlib.errors import BoardError, SetupError
from ttrlib.game import Phase

DECK_SIZE = 110  # C1, counted here
TEACHING_BOARD_NAME_BOUND = 64  # the stated bound of names (ttrlib.board.MAX_NAME)


def played(seed: int, players: int, until) -> Game:
    game = play_bot_game(players, seed, until)
    assert until(game)  # reached, not the game's end instead
    return game


def mid_game() -> dict:
    game = played(61, 4, lambda g: g.turns >= 30 and g.phase is Phase.TURN)
    return json.loads(game.to_json())


def placing_a_deck_card() -> dict:
    """A save waiting for the placement of a card drawn from the deck (its colour is secret)."""
    def drew_from_deck(g):
        return g.phase is Phase.PLACE_CARD and g.turns > 10 and g.events[-1].slot is None
    return json.loads(played(62, 4, drew_from_deck).to_json())


def fields_of(data: dict) -> dict:
    """Where a save holds state fields: its start (format 4) or its top level (format 3)."""
    return data["start"] if "start" in data else data


def start_of(data: dict) -> dict | None:
    return dict(data["start"], origin=data["origin"]) if "start" in data else None


def refused_or_consistent(data: dict) -> str:
    try:
        game = Game.from_json(json.dumps(data))
    except SaveError:
        return "refused"
    problems = log_contradictions(game, start_of(data))
    assert not problems, problems
    return "consistent"


# --------------------------------------------------------------------------------------------------
# item 4: the audit's tamperings
# --------------------------------------------------------------------------------------------------
def test_a_seat_to_move_out_of_turn():
    data = mid_game()
    f = fields_of(data)
    f["to_move"] = (f["to_move"] + 1) % data["players"]
    refused_or_consistent(data)


def test_a_route_owned_that_no_claim_took():
    data = mid_game()
    f = fields_of(data)
    board = Game.from_json(json.dumps(mid_game())).board
    owned_groups = {board.route(r).group for r in f["claimed"]}
    route = next(r for r in board.routes
                 if r.id not in f["claimed"] and (not r.group or r.group not in owned_groups))
    seat = next(s for s in range(4) if f["trains"][s] >= route.length)
    f["claimed"][route.id] = seat
    f["trains"][seat] -= route.length
    refused_or_consistent(data)


def test_a_card_a_team_holds_that_no_draw_explains():
    data = mid_game()
    f = fields_of(data)
    card = f["draw_pile"].pop()
    f["hands"][1][card] = f["hands"][1].get(card, 0) + 1  # the 110 cards still add up (C1)
    refused_or_consistent(data)


def test_a_turn_counter_ahead_of_the_log():
    data = mid_game()
    fields_of(data)["turns"] += 3
    refused_or_consistent(data)


def test_a_card_known_to_all_that_nobody_saw():
    data = mid_game()
    f = fields_of(data)
    seat = max(range(4), key=lambda s: sum(f["hands"][s].values()))
    f["known_in_hands"][seat] = dict(f["hands"][seat])  # the whole hand, as if all saw it
    refused_or_consistent(data)


def test_a_tampered_taken_slot_never_makes_a_deck_card_public():
    data = placing_a_deck_card()
    f = fields_of(data)
    slot = next(i for i, c in enumerate(f["face_up"]) if c not in (None, "locomotive"))
    f["draw_pile"].append(f["face_up"][slot])  # the slot emptied, the 110 cards still add up
    f["face_up"][slot] = None
    f["taken_slot"] = slot
    refused_or_consistent(data)


def test_a_save_holds_no_state_beside_its_start_and_history():
    data = mid_game()
    for field in ("to_move", "turns", "claimed", "hands", "known_in_hands", "taken_slot"):
        with pytest.raises(SaveError, match=f"'{field}' is not a field of a saved game"):
            Game.from_json(json.dumps(dict(data, **{field: fields_of(data)[field]})))


def test_a_history_step_the_rules_refuse_is_named_with_its_rule():
    data = mid_game()
    game = Game.from_json(json.dumps(data))
    # a claim of the route just before, at the same point: the route is taken (K3) or unpaid (K1)
    i = next(i for i in range(len(data["history"]) - 1, -1, -1)
             if data["history"][i]["type"] == "Claim")
    data["history"].insert(i + 1, data["history"][i])
    with pytest.raises(SaveError, match=rf"field 'history\[{i + 1}\]': step {i + 1} cannot be "
                                        r"taken: rule K\d"):
        Game.from_json(json.dumps(data))
    assert game.owners  # the unchanged save loads


# --------------------------------------------------------------------------------------------------
# item 3 (part): a position at the E1 trigger
# --------------------------------------------------------------------------------------------------
def routes_of_length(board, total: int, used_groups: set) -> dict:
    """Routes of ``total`` trains in all, one track of a group at most (K3), picked here."""
    picked, left = {}, total
    for r in sorted(board.routes, key=lambda r: -r.length):
        if r.length <= left and (r.group or r.id) not in used_groups:
            picked[r.id] = r
            used_groups.add(r.group or r.id)
            left -= r.length
        if not left:
            return picked
    raise AssertionError("no such routes")


def test_E1_a_position_at_the_trigger_saves_and_loads():
    board = Game.new(players=4, seed=1).board
    used: set = set()
    claimed = {rid: 0 for rid in routes_of_length(board, 25, used)}
    claimed |= {rid: 1 for rid in routes_of_length(board, 25, used)}
    game = Game.from_position(claimed=claimed)  # team A: 2 + 2 trains left (E1: 4 or fewer)
    assert game.trains[:2] == [2, 2] and game.view(0).final_round is False
    text = game.to_json()
    again = Game.from_json(text)
    assert again.to_json() == text and again.trains == game.trains
    while game.turns == 0:  # the first turn, played in both
        action = game.legal_actions()[0]
        game.apply(action)
        again.apply(action)
    assert again.view(0).final_round and again.to_json() == game.to_json()  # E1: announced


# --------------------------------------------------------------------------------------------------
# item 5: bounds before parsing
# --------------------------------------------------------------------------------------------------
def no_parsing(monkeypatch):
    def boom(*args, **kwargs):
        raise AssertionError("parsed: a text beyond the bound must be refused unread")
    monkeypatch.setattr(json, "loads", boom)


@pytest.mark.parametrize("kind", [str, bytes])
def test_a_save_text_over_a_million_characters_is_refused_unread(monkeypatch, kind):
    text = '{"format": "ttrlib-game", "version": 4, "pad": "' + "x" * 1_000_000 + '"}'
    no_parsing(monkeypatch)
    with pytest.raises(SaveError, match="longer than 1000000 characters"):
        Game.from_json(text if kind is str else text.encode())


def test_half_a_million_history_steps_are_refused_before_they_are_read(monkeypatch):
    data = mid_game()
    data["history"] = [0] * 300_000  # 900 KB of text: under the text bound
    import ttrlib.save

    monkeypatch.setattr(ttrlib.save, "data_problem", lambda *a, **k: pytest.fail("walked"))
    with pytest.raises(SaveError, match="'history': holds 300000 steps; a save holds at most 5000"):
        Game.from_json(json.dumps(data))


@pytest.mark.parametrize("field", ["draw_pile", "discard", "ticket_deck", "claimed", "tickets"])
def test_a_200000_entry_list_is_refused_naming_its_bound(field):
    """(A list of 200,000 colours or ids is over the text bound: these are as long as fits.)"""
    data = mid_game()
    f = fields_of(data)
    if field == "claimed":
        f[field] = {str(i): 0 for i in range(60_000)}
    elif field == "tickets":
        f[field][0] = [0] * 200_000
    else:
        f[field] = [0] * 200_000
    with pytest.raises(SaveError, match=rf"'start\.{field}(\[0\])?': holds \d+ (entries|tickets); "
                                        "a (game|board) holds at most"):
        Game.from_json(json.dumps(data))


def teaching_data() -> dict:
    import tomllib

    from ttrlib.board import TEACHING_BOARD_PATH
    return tomllib.loads(TEACHING_BOARD_PATH.read_text(encoding="utf-8"))


def test_a_50_mb_board_name_is_refused_naming_the_bound():
    from ttrlib.board import board_from_dict

    data = teaching_data()
    data["name"] = "x" * 50_000_000
    with pytest.raises(BoardError, match="'name' must be a name of 1-64 characters") as info:
        board_from_dict(data)
    assert len(str(info.value)) <= 400


def test_a_board_file_over_the_bound_is_refused_unread(tmp_path, monkeypatch):
    import ttrlib.board
    from ttrlib.board import load_board

    path = tmp_path / "big.toml"
    path.write_text('name = "big"\n# ' + "x" * 600_000 + "\n", encoding="utf-8")
    monkeypatch.setattr(ttrlib.board.tomllib, "loads", lambda *a: pytest.fail("parsed"))
    with pytest.raises(BoardError, match="bigger than 512000 bytes"):
        load_board(path)


@pytest.mark.parametrize("field", ["cities", "routes", "tickets", "positions"])
def test_a_board_list_beyond_the_bound_is_refused_before_it_is_walked(field, monkeypatch):
    import ttrlib.board

    data = teaching_data()
    data[field] = {f"c{i}": [0, 0] for i in range(200_000)} if field == "positions" else \
        [data[field][0]] * 200_000
    monkeypatch.setattr(ttrlib.board, "data_problem", lambda *a, **k: pytest.fail("walked"))
    with pytest.raises(BoardError, match=f"field '{field}' holds 200000 entries; a board holds "
                                         "at most"):
        ttrlib.board.board_from_dict(data)


def test_a_route_id_longer_than_the_name_bound_is_refused_by_the_board_loader():
    from ttrlib.board import board_from_dict

    data = teaching_data()
    data["routes"][0]["id"] = "r" * (TEACHING_BOARD_NAME_BOUND + 1)
    with pytest.raises(BoardError, match="'id' must be a name of 1-64 characters"):
        board_from_dict(data)


def test_names_at_the_bound_load_play_and_save():
    """The longest names a board may hold pass the event reader and the plain codec too: the
    game claims the route with the longest id, between the cities with the longest names, and
    its save loads (one bound for the loader, the event reader and ttrlib.plain)."""
    from ttrlib.board import board_from_dict

    data = teaching_data()
    long = {c: (c + "-" * 64)[:64] for c in data["cities"]}
    data["cities"] = [long[c] for c in data["cities"]]
    data["positions"] = {long[c]: xy for c, xy in data["positions"].items()}
    for r in data["routes"] + data["tickets"]:
        r["a"], r["b"] = long[r["a"]], long[r["b"]]
    route = next(r for r in data["routes"] if not r.get("tunnel"))
    route["id"] = ("x" * 64)
    board = board_from_dict(data)
    colour = route["color"] if route["color"] != "gray" else "red"
    game = Game.from_position(board=board, hands=[{colour: route["length"]}, {}, {}, {}])
    game.apply(act.Claim("x" * 64, hand={colour: route["length"]}))
    assert game.events[-1].route == "x" * 64 and len(game.events[-1].a) == 64
    assert Game.from_json(game.to_json()).owners == {"x" * 64: 0}


def test_one_name_bound_for_the_board_loader_the_event_reader_and_the_plain_codec():
    from ttrlib import board, plain

    assert board.MAX_NAME == plain._MAX_NAME == TEACHING_BOARD_NAME_BOUND


# --------------------------------------------------------------------------------------------------
# item 6: only ttrlib's own errors, no hangs
# --------------------------------------------------------------------------------------------------
def deep(depth: int = 5000) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


GAME = Game.new(players=4, seed=1)
CALLS = {
    "view(-1)": (lambda: GAME.view(-1), "seat"),
    "view('0')": (lambda: GAME.view("0"), "seat"),
    "view(None)": (lambda: GAME.view(None), "seat"),
    "ticket_offer(9)": (lambda: GAME.ticket_offer(9), "seat"),
    "legal_claims(9)": (lambda: GAME.legal_claims(9), "seat"),
    "claimable_routes(-5)": (lambda: GAME.claimable_routes(-5), "seat"),
    "route_problem(9, r)": (lambda: GAME.route_problem(9, GAME.board.routes[0].id), "seat"),
    "route_problem(0, nowhere)": (lambda: GAME.route_problem(0, "nowhere"), "route_id"),
    "team_trains(2)": (lambda: GAME.team_trains(2), "team"),
    "resample_hidden(9, rng)": (lambda: GAME.resample_hidden(9, np.random.default_rng(1)), "seat"),
    "resample_hidden(0, 5)": (lambda: GAME.resample_hidden(0, 5), "rng"),
    "copy(rng=5)": (lambda: GAME.copy(5), "rng"),
    "to_json(indent=10**9)": (lambda: GAME.to_json(indent=10**9), "indent"),
    "new(players=4.0)": (lambda: Game.new(players=4.0), "players"),
    "new(players=True)": (lambda: Game.new(players=True), "players"),
    "new(seed=-1)": (lambda: Game.new(seed=-1), "seed"),
    "new(seed='x')": (lambda: Game.new(seed="x"), "seed"),
    "new(seed=1.5)": (lambda: Game.new(seed=1.5), "seed"),
    "new(board=5)": (lambda: Game.new(board=5), "board"),
    "from_position(board=5)": (lambda: Game.from_position(board=5), "board"),
    "from_position(seed='x')": (lambda: Game.from_position(seed="x"), "seed"),
    "from_position(players=4.0)": (lambda: Game.from_position(players=4.0), "players"),
    "from_position(draw_pile=[deep])": (lambda: Game.from_position(draw_pile=[deep()]),
                                        "draw_pile[0]"),
    "from_position(draw_pile=deep)": (lambda: Game.from_position(draw_pile=deep()),
                                      "draw_pile[0]"),
    "from_position(hands=[deep]*4)": (lambda: Game.from_position(hands=[deep()] * 4), "hands[0]"),
    "from_position(hands=[{red: deep}]*4)": (
        lambda: Game.from_position(hands=[{"red": deep()}] * 4), "hands[0]"),
    "from_position(discard=deep)": (lambda: Game.from_position(discard=deep()), "discard"),
    "from_position(face_up=[deep]*5)": (lambda: Game.from_position(face_up=[deep()] * 5),
                                        "face_up[0]"),
    "from_position(draw_pile=['red']*200000)": (
        lambda: Game.from_position(draw_pile=["red"] * 200_000), "draw_pile"),
    "from_position(claimed=200000)": (
        lambda: Game.from_position(claimed={str(i): 0 for i in range(200_000)}), "claimed"),
}


@pytest.mark.parametrize("name", CALLS)
def test_each_call_of_the_audit_gets_a_ttrlib_error_naming_its_argument(name):
    call, argument = CALLS[name]
    with pytest.raises(TTRError) as info:
        call()
    message = str(info.value)
    assert argument in message and len(message) <= 400, message


class Endless:
    """An endless iterable that counts what is read of it (and stops the test, not the
    machine, if it is read far beyond any bound)."""

    def __init__(self, item):
        self.item, self.read = item, 0

    def __iter__(self):
        for _ in itertools.count():
            self.read += 1
            if self.read > 100_000:
                raise RuntimeError("read on and on")
            yield self.item


ENDLESS = {
    "Claim.hand": (lambda e: act.Claim(GAME.board.routes[0].id, hand=e), "red", "Claim.hand", 111),
    "Claim.cardholder": (lambda e: act.Claim(GAME.board.routes[0].id, cardholder=e), "red",
                         "Claim.cardholder", 111),
    "PayTunnel.hand": (lambda e: act.PayTunnel(hand=e), "red", "PayTunnel.hand", 111),
    "KeepTickets.keep": (lambda e: act.KeepTickets(e, "T01"), "T01", "KeepTickets.keep", 17),
    "ShareTickets.tickets": (lambda e: act.ShareTickets(e), "T01", "ShareTickets.tickets", 17),
}


@pytest.mark.parametrize("name", ENDLESS)
def test_an_endless_iterable_in_an_action_is_read_only_to_its_bound(name):
    make, item, field, most = ENDLESS[name]
    endless = Endless(item)
    action = make(endless)
    assert endless.read <= most
    game = {"KeepTickets.keep": GAME}.get(name) or played(63, 4, lambda g: (
        g.phase is Phase.TUNNEL if name == "PayTunnel.hand" else g.phase is Phase.TURN
        and g.turns > 4 and g.tickets[g.to_move]))
    with pytest.raises(TTRError, match=rf"{field}.*more than \d+"):
        game.apply(action)


@pytest.mark.parametrize("argument", ["draw_pile", "ticket_deck", "hands", "tickets", "trains"])
def test_an_endless_iterable_given_to_from_position_is_read_only_to_its_bound(argument):
    endless = Endless({"draw_pile": "red", "ticket_deck": "T01", "trains": 27}.get(argument, {}))
    kwargs = {argument: endless} if argument != "tickets" else {argument: [endless, [], [], []]}
    with pytest.raises(SetupError, match=argument) as info:
        Game.from_position(**kwargs)
    assert endless.read <= DECK_SIZE + 1 and len(str(info.value)) <= 400


@given(seat=st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=3),
                      st.lists(st.integers(), max_size=2), st.builds(lambda: deep(5000))))
def test_any_seat_argument_is_a_seat_or_a_ttrlib_error(seat):
    for call in (GAME.view, GAME.ticket_offer, GAME.legal_claims, GAME.claimable_routes,
                 lambda s: GAME.route_problem(s, GAME.board.routes[0].id), GAME.team_trains):
        try:
            call(seat)
        except TTRError as err:
            assert len(str(err)) <= 400
        else:
            assert seat is None or (type(seat) is int and 0 <= seat < 4)


def test_copies_and_resampled_copies_save_as_their_own_history():
    """A copy keeps the start and the history; a new generator (copy(rng)) and a new deal of
    the hidden cards (resample_hidden) are steps of it, so the save replays them."""
    game = played(64, 4, lambda g: g.turns >= 12 and g.phase is Phase.TURN)
    other = game.resample_hidden(1, np.random.default_rng(5)).copy(np.random.default_rng(6))
    assert [type(s).__name__ for s in other.history[-2:]] == ["Resample", "Reseed"]
    assert other.draw_pile != game.draw_pile and other.hands[1] == game.hands[1]  # I1: A2's own
    again = Game.from_json(other.to_json())
    assert again.to_json() == other.to_json() and again.hands == other.hands
    bots = [RandomBot(seed=640 + s) for s in range(4)]
    for _ in range(40):  # the same future: the generator is the copy's
        action = bots[other.to_move].choose(other.view(other.to_move), other.legal_actions())
        other.apply(action)
        again.apply(action)
    assert again.to_json() == other.to_json()


def test_a_state_changed_by_hand_is_not_saved():
    game = played(65, 4, lambda g: g.turns >= 6 and g.phase is Phase.TURN)
    before = game.to_json()
    changed = copy.copy(game.face_up)
    game.face_up[0], game.face_up[1] = changed[1], changed[0]
    if changed[0] == changed[1]:
        game.turns += 1
    with pytest.raises(SaveError, match="not what its history gives"):
        game.to_json()
    game.state.face_up, game.state.turns = changed, game.turns - (changed[0] == changed[1])
    assert game.to_json() == before  # put back, it saves again
