"""The coach's hint (issue 34): its words from the seat's view, a tunnel's exact chance, and a
learner who never sees a traceback."""

from __future__ import annotations

import math

from test_coach import TUNNEL, _final_turn, _unseen

from ttrlib import actions as act
from ttrlib.cards import CardCounts, Color
from ttrlib.widgets.coach_hint import CoachHint, hint_text


def test_hint_names_the_coachs_move_against_the_learners_and_the_tunnels_exact_chance():
    game = _final_turn(CardCounts(green=4))
    view = game.view(0)
    tunnel = act.Claim(TUNNEL, hand=CardCounts(green=4))
    unseen = _unseen(view)
    n, k = len(unseen), unseen[Color.GREEN] + unseen[Color.LOCOMOTIVE]
    p = math.comb(n - k, 5) / math.comb(n, 5)  # no green, no locomotive among five (U2)
    text = hint_text(view, game.legal_actions(), tunnel, seed=0, budget=2)
    assert text.startswith("The coach would claim Harbin - Peking")  # it wins for sure
    assert "about 100% win share" in text
    assert f"against about {p:.0%} for your move (try the tunnel Kabul - Kashgar" in text
    assert f"tunnel Kabul - Kashgar this way is {p:.0%}" in text
    assert text.count("95% interval") == 2  # every estimate with its interval
    assert "not a proof" in text


def test_hint_on_another_seats_move_and_on_a_failure_says_so_in_words():
    game = _final_turn(CardCounts(green=4))
    view = game.view(1)
    assert hint_text(view, [], None) == "The coach answers on your own move."

    def broken():
        raise RuntimeError("boom")

    hint = CoachHint(broken, lambda: [], lambda: None)
    hint.ask.click()
    assert "could not answer" in hint.text.value and "Traceback" not in hint.text.value
