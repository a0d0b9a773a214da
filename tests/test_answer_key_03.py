"""Lesson 03's hand-written answer key, checked against the engine (K1, K2, K3, E2).

Each answer is recomputed here from the engine on the exercise's fixed position, independently of
the key, and must equal what the key says: a rule bug in ttrlib fails this test instead of being
taught.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ttrlib import CardCounts, Color
from ttrlib.lessons import claims
from ttrlib.lessons.answers import load_key
from ttrlib.rules.payments import payable
from ttrlib.rules.scoring import ROUTE_POINTS

KEY = load_key("03", Path(__file__).resolve().parents[1] / "notebooks" / "answers")


def option(exercise_id: str, starts: str) -> str:
    """The one option of the key that starts with ``starts`` (the engine's verdict picks it)."""
    found = [o for o in KEY[exercise_id].options if o.startswith(starts)]
    assert len(found) == 1, (exercise_id, starts, found)
    return found[0]


def test_pay_from_position_k1():
    game = claims.exercise_position("pay-from-position")
    route = game.board.route("chengdu-hankow")
    view = game.view(0)
    fitting = payable(view.hand + view.team_cardholder, Color.GREEN)
    assert (route.color, route.length, fitting) == (Color.GREEN, 4, 3)
    assert claims.ways(game, route.id) == []
    # With the teammate's hand the cards would be there: K1 is what forbids it.
    assert payable(view.hand + view.team_cardholder + CardCounts(green=3), Color.GREEN) >= 4
    assert KEY["pay-from-position"].answer == option("pay-from-position", f"No: A1's hand and the "
                                                     f"cardholder hold only {fitting}")


def test_legal_payments_k1_k2():
    game = claims.exercise_position("legal-payments")
    ex = KEY["legal-payments"]
    assert list(ex.options) == list(claims.LEGAL_PAYMENT_OPTIONS)
    accepted = {text for text, a in claims.LEGAL_PAYMENT_OPTIONS.items() if claims.is_legal(game, a)}
    listed = set(claims.ways(game, "hanoi-kunming"))
    assert accepted == {t for t, a in claims.LEGAL_PAYMENT_OPTIONS.items() if a in listed}
    assert ex.answer == accepted


def test_locomotives_needed_gray_route_k2():
    game = claims.exercise_position("locomotives-needed")
    found = claims.ways(game, "lanchow-lhasa")
    assert found and game.board.route("lanchow-lhasa").color is None  # gray
    fewest = min(c.cards[Color.LOCOMOTIVE] for c in found)
    assert KEY["locomotives-needed"].answer == fewest


def test_k3_open_double_route():
    four, _ = claims.try_track(4, {"harbin-peking-1": 3}, "harbin-peking-2")
    six, _ = claims.try_track(6, {"harbin-peking-1": 3}, "harbin-peking-2")
    assert six  # the cards and trains were never the problem: only K3 with 4 players
    verdict = "Yes: the green track" if four else "No: with 4 players"
    assert KEY["k3-open"].answer == option("k3-open", verdict)


def test_route_points_e2():
    board = claims.position().board
    long = ROUTE_POINTS[board.route("kashgar-lanchow").length]
    short = sum(ROUTE_POINTS[board.route(r).length] for r in ("peking-xian", "peking-ulanbator-1"))
    assert board.route("kashgar-lanchow").length == sum(
        board.route(r).length for r in ("peking-xian", "peking-ulanbator-1"))
    assert KEY["route-points"].answer == long - short


@pytest.mark.parametrize("players, claimed, route, ok", [
    (4, {"bombay-delhi-1": 2}, "bombay-delhi-2", False),
    (6, {"bombay-delhi-1": 2}, "bombay-delhi-2", True),
    (4, {"delhi-lahore-1": 1, "delhi-lahore-2": 2}, "delhi-lahore-3", False),
    (4, {"canton-hongkong-1": 2}, "canton-hongkong-2", True),
    (6, {"delhi-lahore-1": 0}, "delhi-lahore-2", False),
])
def test_k3_table_rows_say_what_the_rule_says(players, claimed, route, ok):
    """The lesson's K3 table: verdicts written by hand from K3, against the engine."""
    assert claims.try_track(players, claimed, route)[0] is ok


def test_lesson_03_prose_types_no_score_by_hand():
    """Issue 14: the example "(20, 10)" could not happen; every score on the page now comes from
    the E2 table the code reads, so no markdown cell states points or a pair of figures."""
    import json
    import re

    path = Path(__file__).resolve().parents[1] / "notebooks" / "03-claiming-routes.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    prose = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert not re.search(r"\d+ points|\(\d+, \d+\)|answer = None", prose)
