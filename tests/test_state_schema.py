"""The one schema of the game state (issue 22, item 2): every field of ``GameState`` is declared
once with ``ttrlib.state.part``, and the copy, the save, the shape check and the public names are
made from those declarations.

* A field declared without ``part`` stops the schema (and so the import of ttrlib) with a
  sentence naming it.
* The public names are those the save, ``Game.from_position`` and ``check_state`` have always
  used (written out here, not read from the code under test).
* Every kind has a save codec and a shape check; a field of the wrong type or length is named by
  ``check_state`` with its public name.
* Who may know each field (rule I1) is declared as the rules say (the table here).
* Saves of format 4 written by ttrlib before the schema (commit 6ba2704, stored in
  ``tests/data/saves_format4.json`` with the state each one replayed to there, by
  ``save.state_data``) load to exactly that state and are written back byte for byte.

``GameState.copy`` (every field copied, no container shared) is tested in
``test_rule_families.py``.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
from pathlib import Path

import pytest
from bot_games import play_bot_game

from ttrlib import Game, save, validity
from ttrlib.positions import position
from ttrlib.save import start_to_dict, state_data
from ttrlib.state import ATTRIBUTES, PARTS, PUBLIC_NAMES, GameState, part, parts, seen_by
from ttrlib.validity import check_state

STORED = json.loads((Path(__file__).parent / "data" / "saves_format4.json").read_text())

#: the fields of a save's start (format 4), as ttrlib wrote them before the schema
START_FIELDS_FORMAT_4 = {
    "rng", "phase", "to_move", "turns", "draw_pile", "discard", "face_up", "hands", "cardholders",
    "known_in_hands", "known_in_cardholders", "trains", "claimed", "ticket_deck", "tickets",
    "team_tickets", "offers", "setup_choices", "drawn", "taken_slot", "first_to", "tunnel",
    "final_turns_left", "passes_in_a_row", "events",
}
#: the state's attributes whose public name is another: none (one name per concept)
RENAMED: dict[str, str] = {}
#: rule I1: who may know what (everything else is public)
SECRET = {"rng": "nobody", "draw_pile": "nobody", "ticket_deck": "nobody", "held": "nobody",
          "hands": "seat", "tickets": "seat", "offers": "seat", "setup_choices": "seat",
          "drawn": "seat", "cardholders": "team", "team_tickets": "team"}


def mid_game(players: int = 4, seed: int = 8, moves: int = 60) -> Game:
    return play_bot_game(players, seed, moves)


# --------------------------------------------------------------------------------------------------
# the declarations
# --------------------------------------------------------------------------------------------------
def test_a_field_declared_without_part_stops_the_schema():
    @dataclasses.dataclass(eq=False)
    class Grown(GameState):
        score: int = 0

    with pytest.raises(TypeError, match=r"Grown\.score is declared without ttrlib\.state\.part"):
        parts(Grown)

    @dataclasses.dataclass(eq=False)
    class Tagged(GameState):
        score: int = dataclasses.field(default=0, metadata={"saved": True})

    with pytest.raises(TypeError, match=r"Tagged\.score"):
        parts(Tagged)

    @dataclasses.dataclass(eq=False)
    class Declared(GameState):
        score: int = part("count", default=0)

    assert parts(Declared)[-1][0] == "score"


@pytest.mark.parametrize("kwargs", [dict(kind="score"), dict(kind="count", seen="teammate"),
                                    dict(kind="counts", per="seats")])
def test_part_refuses_what_no_field_can_be(kwargs):
    with pytest.raises(TypeError, match="not a kind, per or seen"):
        part(**kwargs)


def test_the_public_names_are_those_of_the_save_and_of_from_position():
    assert {a: n for a, n in PUBLIC_NAMES.items() if a != n} == RENAMED
    assert set(start_to_dict(mid_game().state)) == START_FIELDS_FORMAT_4
    # trains_per_player (C3 short-game policy) is in a save's start only for a short game
    assert {ATTRIBUTES[n] for n in START_FIELDS_FORMAT_4} | {"board", "players", "held",
                                                             "trains_per_player"} == \
        {f.name for f in dataclasses.fields(GameState)}
    short = Game.new(players=4, seed=8, trains=12).state
    assert set(start_to_dict(short)) == START_FIELDS_FORMAT_4 | {"trains_per_player"}
    # Game.from_position takes the fields of a position by their public names (it hands them
    # to ttrlib.positions.position, which declares them)
    arguments = set(inspect.signature(position).parameters) - {"seed", "rest_to"}
    assert arguments <= set(ATTRIBUTES), arguments - set(ATTRIBUTES)
    assert {"cardholders", "claimed"} <= arguments


def test_every_kind_has_a_save_codec_and_a_shape_check():
    for attr, p in PARTS:
        if p.saved:
            assert p.kind in save._WRITE and p.kind in save._READ, attr
        if p.saved or p.kind == "board":
            assert p.kind in validity._SHAPES, attr


def test_who_may_know_each_field_is_rule_I1():
    assert {attr: p.seen for attr, p in PARTS if p.seen != "all"} == SECRET
    public = {attr for attr, _ in PARTS} - set(SECRET)
    assert set(seen_by("all")) == public
    assert set(seen_by("team")) == public | {"cardholders", "team_tickets"}
    assert set(seen_by("seat")) == public | {a for a, who in SECRET.items() if who != "nobody"}


# --------------------------------------------------------------------------------------------------
# the shape check, by the declarations
# --------------------------------------------------------------------------------------------------
CHECKED = [attr for attr, p in PARTS if p.saved or attr == "board"]


@pytest.mark.parametrize("attr", CHECKED)
def test_a_field_of_the_wrong_type_is_named_by_its_public_name(attr):
    game = mid_game()
    setattr(game.state, attr, object())
    field, reason = check_state(game)
    assert field == RENAMED.get(attr, attr), reason
    assert reason.startswith("must "), reason


@pytest.mark.parametrize("attr, length, reason", [
    ("hands", 3, "must be a list of 4 card counts"),
    ("cardholders", 4, "must be a list of 2 card counts"),  # one per team, not per seat
    ("known_in_hands", 5, "must be a list of 4 card counts"),
    ("known_in_cardholders", 1, "must be a list of 2 card counts"),
    ("trains", 2, "must be a list of 4 train counts"),
    ("tickets", 2, "must be 4 lists of ticket ids"),
    ("team_tickets", 4, "must be 2 lists of ticket ids"),
    ("offers", 6, "must be 4 lists of ticket ids"),
    ("face_up", 4, "must be 5 slots, each a card colour or empty"),
])
def test_a_field_of_the_wrong_length_is_named_by_its_public_name(attr, length, reason):
    game = mid_game()
    value = getattr(game.state, attr)
    setattr(game.state, attr, (value * 3)[:length])
    assert check_state(game) == (RENAMED.get(attr, attr), reason)


@pytest.mark.parametrize("attr, entry, reason", [
    ("hands", {"red": 1}, "must be a list of 4 card counts"),  # a table, not card counts
    ("known_in_cardholders", None, "must be a list of 2 card counts"),
    ("draw_pile", "red", "must be a list of card colours"),  # a name, not a colour
    ("discard", None, "must be a list of card colours"),
    ("face_up", "red", "must be 5 slots, each a card colour or empty"),
    ("trains", 20.0, "must be a list of 4 train counts"),
    ("trains", True, "must be a list of 4 train counts"),
    ("ticket_deck", 7, "must be a list of ticket ids"),
    ("tickets", ("a", "b"), "must be 4 lists of ticket ids"),
    ("events", "pass", "event 0 is 'pass', not an event"),  # told by the log's own check
])
def test_an_entry_of_the_wrong_type_is_named_by_its_public_name(attr, entry, reason):
    game = mid_game()
    value = getattr(game.state, attr)
    value[0] = entry
    assert check_state(game) == (RENAMED.get(attr, attr), reason)


@pytest.mark.parametrize("claims", [{"nowhere-atall": 0}, {"kabul-karachi": 4},
                                    {"kabul-karachi": "A1"}])
def test_a_claim_of_no_route_or_by_no_seat_is_named_claimed(claims):
    game = mid_game()
    game.state.claimed.update(claims)
    assert check_state(game) == ("claimed", "must map routes of the board to seats 0-3")


def test_a_six_player_game_has_three_of_each_team_field():
    game = mid_game(players=6, moves=20)
    assert check_state(game) is None
    game.state.cardholders = game.state.cardholders[:2]
    assert check_state(game) == ("cardholders", "must be a list of 3 card counts")


# --------------------------------------------------------------------------------------------------
# saves written before the schema
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(STORED))
def test_a_save_of_format_4_written_before_the_schema_loads_as_it_did(name):
    stored = STORED[name]
    game = Game.from_json(stored["save"])
    assert state_data(game.state) == stored["state"]
    assert game.to_json() == stored["save"]
    game.apply(game.legal_actions()[0])  # and it goes on
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


def test_the_stored_saves_cover_a_hidden_choice_a_tunnel_claims_and_cardholders():
    states = [s["state"] for s in STORED.values()]
    assert any(s["setup_choices"] for s in states)
    assert any(s["tunnel"] for s in states)
    assert any(s["claimed"] and any(s["cardholders"]) for s in states)
    assert all(json.loads(s["save"])["version"] == 4 for s in STORED.values())

