"""The screens' phase hints (ttrlib.hints): each names a rule of the reference, and the numbers
a rule fixes are the game's constants (read here from the rules reference's own figures)."""

from __future__ import annotations

import re

from test_rule_coverage import rule_ids

from ttrlib import hints
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
    assert "Draw 4 tickets" in hints.TICKETS[Phase.TURN]
