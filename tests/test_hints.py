"""The screens' phase hints (ttrlib.hints): each names a rule of the reference, and the numbers
a rule fixes are the game's constants (read here from the rules reference's own figures)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from test_rule_coverage import rule_ids

from ttrlib import CardCounts, Game, IllegalMove, hints
from ttrlib import actions as act
from ttrlib.state import Phase

TABLES = {"TEAM_GAME": hints.TEAM_GAME, "TICKETS": hints.TICKETS,
          "CARD_SPLIT": hints.CARD_SPLIT}


def test_every_hint_names_a_rule_of_the_reference():
    ids = set(rule_ids())
    for name, table in TABLES.items():
        for phase, text in table.items():
            named = set(re.findall(r"\b([CDKTIUE]\d)\b", text))
            assert named and named <= ids, (name, phase, text)


def test_the_hints_quote_the_rules_numbers():
    # T1: 5 tickets dealt, at least 3 kept; T2: 4 tickets drawn (the reference's figures)
    assert "keep at least 3 of the 5" in hints.TEAM_GAME[Phase.SETUP_TICKETS]
    assert "draw 4 tickets" in hints.TEAM_GAME[Phase.TURN]
    assert "Draw 4 tickets" in hints.tickets_hint(Phase.TURN)


# --- issue 31: a phase has its words in one place -----------------------------------------------
TTRLIB = Path(__file__).resolve().parents[1] / "ttrlib"


def _words(node: ast.AST) -> bool:
    """Is ``node`` words for a reader: a string, an f-string, ``N_(...)``, or a tuple with one?"""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and " " in node.value  # a sentence, not a rule id
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Call):
        return any(_words(a) for a in node.args)
    if isinstance(node, ast.Tuple):
        return any(_words(e) for e in node.elts)
    return isinstance(node, ast.BinOp) and (_words(node.left) or _words(node.right))


def _phase_tables():
    """(file, line) of every dict literal keyed by ``Phase.X`` whose values are words."""
    for path in sorted(TTRLIB.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict) and any(
                    isinstance(k, ast.Attribute) and isinstance(k.value, ast.Name)
                    and k.value.id == "Phase" for k in node.keys) \
                    and any(_words(v) for v in node.values):
                yield path.relative_to(TTRLIB).as_posix(), node.lineno


def test_every_table_of_a_phases_words_is_in_hints():
    """Three modules once each had their own English per phase (the rules, server.board_page
    and hints, issue 31): a refusal and a screen said the same thing in different words."""
    found = list(_phase_tables())
    assert {f for f, _ in found} == {"hints.py"}, found
    assert len(found) >= 5  # TEAM_GAME, TICKETS, WAITS_FOR, CARD_SPLIT, FINISH_FIRST, DOING


def test_the_guard_sees_a_phase_table_written_elsewhere(tmp_path):
    tree = ast.parse('WAITS = {Phase.TURN: "takes a turn", Phase.OVER: f"over {x}"}')
    assert [_words(v) for v in tree.body[0].value.values] == [True, True]
    assert not _words(ast.parse('{Phase.TURN: "T1"}').body[0].value.values[0])  # a rule id


def test_the_engine_refuses_an_action_out_of_its_phase_in_the_screens_words():
    game = Game.from_position(hands=[CardCounts(green=4), CardCounts(), CardCounts(),
                                     CardCounts()], draw_pile=["red"] * 10)
    game.apply(act.DrawCard("deck"))
    assert game.phase is Phase.PLACE_CARD
    with pytest.raises(IllegalMove) as err:
        game.apply(act.Claim("kabul-kashgar", CardCounts(green=4)))
    rule, words = hints.FINISH_FIRST[Phase.PLACE_CARD]
    assert err.value.rule == rule == "D1"
    assert f"Claiming a route is not possible now: {words}" in str(err.value)
    # written apart from the table: what the rules reference's D1 asks for
    assert "your hand or the team cardholder" in str(err.value)
