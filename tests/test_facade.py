"""The facade and its trip-wires.

* A bug inside a rule's check surfaces as the bug it is: ``Game.apply`` turns no exception into
  an ``IllegalMove`` (junk from a user is still refused by the checks, naming the field:
  ``tests/test_apply_junk.py``).
* Every field of the state is a typed attribute of the game, read and set through its state.
* No module imports a private name of another module.
* ``Game`` is a thin facade: ``ttrlib/game.py`` is at most 300 lines.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path
from typing import get_type_hints

import pytest

from ttrlib import CardCounts, Game, IllegalMove
from ttrlib import actions as act
from ttrlib.errors import IllegalDraw
from ttrlib.rules import dispatch
from ttrlib.state import GameState, Phase
from ttrlib.state_fields import StateFields

ROOT = Path(__file__).resolve().parent.parent / "ttrlib"


def a_turn() -> Game:
    game = Game.new(players=4, seed=2)
    while game.phase is not Phase.TURN:
        game.apply(game.legal_actions()[0])
    return game


def test_a_bug_inside_a_check_propagates_as_itself(monkeypatch):
    game = a_turn()
    before = game.to_json()
    rule = dispatch.RULES[(Phase.TURN, act.DrawCard)]

    def broken_check(state, action):
        return 1 // 0  # a bug of the engine, not a refusal

    monkeypatch.setitem(dispatch.RULES, (Phase.TURN, act.DrawCard), rule._replace(check=broken_check))
    with pytest.raises(ZeroDivisionError):
        game.apply(act.DrawCard("deck"))
    assert game.to_json() == before  # the check changed nothing, the effect never ran


def test_junk_from_a_user_is_still_refused_naming_the_field():
    game = a_turn()
    with pytest.raises(IllegalDraw, match="DrawCard.source"):
        game.apply(act.DrawCard([1]))  # an unhashable source: the check names the field
    with pytest.raises(IllegalMove, match=r"Claim\.hand"):
        game.apply(act.Claim(game.board.routes[0].id, hand=object()))


def test_every_state_field_is_a_typed_attribute_of_the_game():
    game = a_turn()
    names = [f.name for f in dataclasses.fields(GameState) if f.name != "held"]
    for name in names:
        assert name in vars(StateFields), f"GameState.{name} is not declared in StateFields"
        assert getattr(game, name) is getattr(game.state, name), name
    hand = CardCounts(red=3)
    game.hands = [hand] * game.players  # set through the game, onto its state
    assert game.state.hands[0] is hand
    game.events = ()  # the log stays a list
    assert game.state.events == []


def test_each_typed_attribute_has_the_type_its_state_field_declares():
    # StateFields restates each field's type for the type checker; a field whose type changes
    # in GameState and not here would be read with the wrong type by every caller
    hints = get_type_hints(GameState)
    field_type = type(StateFields.board)  # the descriptor, read from the class
    declared = {name: f for name, f in vars(StateFields).items() if isinstance(f, field_type)}
    assert len(declared) >= len(dataclasses.fields(GameState)) - 2  # all but held and events
    for name, field in declared.items():
        assert field.__orig_class__.__args__[0] == hints[field.name], name


def private_imports(root: Path) -> list[str]:
    """``from <ttrlib module> import _name`` anywhere in the package (module level or not)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("ttrlib")):
                for alias in node.names:
                    # ``_`` alone is gettext's public name (ttrlib.i18n.__all__), not a private one
                    if (alias.name.startswith("_") and not alias.name.startswith("__")
                            and alias.name != "_"):
                        found.append(f"{path.relative_to(root)}:{node.lineno} imports {alias.name}")
    return found


# Owned by the widgets' engineer: a helper of the widgets package, shared by two of its modules.
TOLERATED = {"widgets/exercise.py imports _plain", "widgets/odds_explorer.py imports _plain"}


def test_no_module_imports_a_private_name_of_another():
    found = private_imports(ROOT)
    left = [f for f in found if f"{f.split(':')[0]} imports {f.split()[-1]}" not in TOLERATED]
    assert not left, left


def test_the_private_import_check_sees_one(tmp_path):
    (tmp_path / "a.py").write_text("from .b import _secret\nfrom .i18n import _\n")
    assert private_imports(tmp_path) == ["a.py:1 imports _secret"]


def test_game_is_a_thin_facade():
    lines = (ROOT / "game.py").read_text(encoding="utf-8").count("\n")
    assert lines <= 300, f"ttrlib/game.py has {lines} lines"


# Every module of ttrlib names seats and teams through seats.py, which defines the words
# (issue 31: the guard once left out the four files that still computed a team by hand).
CORE = sorted(p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.py")
              if p.relative_to(ROOT).as_posix() != "seats.py")
INLINE_TEAM = re.compile(r"\b(?:seat|s|owner|mate|to_move|who|chooser)\s*(?://\s*2|\^\s*1)\b"
                         r"|\b2\s*\*\s*(?:team|t)\b")


def inline_team_words(text: str) -> list[str]:
    return [m.group(0) for m in INLINE_TEAM.finditer(text)]


def test_the_rules_core_names_teams_only_through_seats():
    found = {name: inline_team_words((ROOT / name).read_text(encoding="utf-8")) for name in CORE}
    assert not {name: words for name, words in found.items() if words}


def test_the_team_word_check_sees_each_form():
    assert inline_team_words("team = seat // 2; mate = seat ^ 1; a = trains[2 * team]") == [
        "seat // 2", "seat ^ 1", "2 * team"]
