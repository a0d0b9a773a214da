"""Typed events (``ttrlib.events``) and their narration (``ttrlib.narration``).

* Every event a game logs goes to a JSON table and back unchanged (``to_dict`` / ``from_dict``).
* A bad table is refused with ``SaveError`` naming the field.
* Narration words the facts; a tunnel attempt still face down is told without its cards (U1).
"""

from __future__ import annotations

import json

import pytest
from bot_games import finished_bot_game

from ttrlib import CardCounts, Color, Game, SaveError
from ttrlib import actions as act
from ttrlib.events import KINDS, Claimed, Draw, Event, TunnelTried
from ttrlib.narration import text


def played(seed: int, players: int) -> Game:
    return finished_bot_game(players, seed, bot_seeds=[seed + s for s in range(players)])


def test_every_logged_event_round_trips_through_json():
    kinds = set()
    for seed, players in ((5, 4), (6, 6)):
        for e in played(seed, players).events:
            kinds.add(e.kind)
            table = json.loads(json.dumps(e.to_dict()))
            assert Event.from_dict(table) == e
    assert {"setup", "draw", "place", "claim", "over"} <= kinds <= set(KINDS)


def test_a_deck_draw_never_names_its_card():
    # I1: the log is public; a card drawn from the deck is known only to the drawer
    game = Game.from_position(draw_pile=["red", "blue", "green"])
    game.apply(act.DrawCard("deck"))
    assert game.events[-1] == Draw(seat=0, step="first", slot=None, card=None)
    assert "red" not in json.dumps(game.events[-1].to_dict())


@pytest.mark.parametrize("table,field", [
    ({}, "kind"), ({"kind": "nonsense"}, "kind"), ("claim", "table"),
    ({"kind": "pass"}, "seat"), ({"kind": "pass", "seat": 9}, "seat"),
    ({"kind": "pass", "seat": 0, "text": "A1 passes"}, "text"),
    ({"kind": "reshuffle", "seat": None, "count": -1}, "count"),
    ({"kind": "claim", "seat": 0, "route": "r", "a": "A", "b": "B", "cards": {"red": "2"}},
     "cards"),
    ({"kind": "tunnel", "seat": 0, "route": "r", "a": "A", "b": "B", "cards": {},
      "revealed": ["pink"], "extra": 0, "color": "red"}, "revealed"),
])
def test_a_bad_event_table_is_refused_naming_the_field(table, field):
    with pytest.raises(SaveError, match=field):
        Event.from_dict(table)


def test_narration_words_the_facts():
    # the sentences written out by hand
    claim = Claimed(seat=3, route="x", a="Kabul", b="Delhi", cards=CardCounts(red=2, locomotive=1))
    assert text(claim) == "B2 claims Kabul - Delhi with 2 red, 1 locomotive"
    tunnel = TunnelTried(seat=0, route="t", a="Lhasa", b="Kathmandu", cards=CardCounts(blue=2),
                         revealed=(Color.BLUE, Color.RED), extra=1, color=Color.BLUE)
    assert text(tunnel) == ("A1 tries the tunnel Lhasa - Kathmandu: revealed blue, red; "
                            "1 extra card owed (U1, U2)")
    assert text(tunnel, 1, reveal=False) == (
        "A1 lays down 2 blue for the tunnel Lhasa - Kathmandu; its cards are turned up one by "
        "one... (U1)")


def test_the_event_reader_reads_every_name_a_board_may_hold_and_no_longer_one():
    """One bound of names (``ttrlib.board.MAX_NAME``, 64) for the board loader and the event
    reader: a claim of a route with a 64-character id between cities of 64 characters reads
    back; one character more is refused naming the field (issue 18, item 5)."""
    long = {"kind": "claim", "seat": 0, "route": "r" * 64, "a": "A" * 64, "b": "B" * 64,
            "cards": {"red": 1}}
    assert Event.from_dict(long).route == "r" * 64
    for field in ("route", "a", "b"):
        with pytest.raises(SaveError, match=f"'{field}' is not a name of at most 64"):
            Event.from_dict(dict(long, **{field: long[field] + "x"}))
