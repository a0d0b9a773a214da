"""The tunnel stepper's log while the revealed cards are face down (U1, I1).

Narration decides what the log says: until the learner has turned every revealed card, the
attempt is told without them ("its cards are turned up one by one"), and the page holds no
revealed colour; once all are turned, the engine's full sentence is shown.
"""

from __future__ import annotations

from test_widgets_steppers import (
    PILE_TWO_MATCH,
    ROUTE,
    choose,
    click,
    payment,
    plain,
    tunnel_position,
)

from ttrlib import CardCounts
from ttrlib.widgets.tunnel_claim import TunnelClaimStepper

FACE_DOWN = ("A1 lays down 3 red for the tunnel Kathmandu - Lhasa; its cards are turned up "
             "one by one... (U1)")
# written out by hand from PILE_TWO_MATCH: red, green, locomotive, white, black are turned up
TOLD = ("A1 tries the tunnel Kathmandu - Lhasa: revealed red, green, locomotive, white, black; "
        "2 extra cards owed (U1, U2)")


def test_the_log_tells_the_attempt_face_down_until_every_card_is_turned():
    t = TunnelClaimStepper(tunnel_position(PILE_TWO_MATCH))
    choose(t.route, ROUTE)
    choose(t.payment, payment(t, CardCounts(red=3)))
    click(t.lay_down)
    history = plain(t.history.value)
    assert history.count(FACE_DOWN) == 1 and "tries the tunnel" not in history
    assert "locomotive, white" not in t.history.value
    for _ in range(4):
        click(t.turn_next)
        assert "tries the tunnel" not in plain(t.history.value)
    click(t.turn_next)  # the fifth and last card
    history = plain(t.history.value)
    assert TOLD in history and FACE_DOWN not in history
