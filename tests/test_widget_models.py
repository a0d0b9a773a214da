"""The screens' state as traitlets models (issue 22 item 3), driven without a browser.

Each screen keeps its state in plain traits (never synced to the page, rule I1): the tunnel
stepper's chosen route and payment, its tunnel attempt and how many revealed cards are turned.
A render rebuilds the dropdowns while holding the trait notifications, so the learner's choice
survives it; the expected values below are chosen by hand from the options on screen.
"""

from __future__ import annotations

from ttrlib import CardCounts
from ttrlib.lessons import position
from ttrlib.widgets.base import LessonWidget
from ttrlib.widgets.tunnel_claim import LaidTunnel, TunnelClaimStepper


def _two_way_position():
    """A1 holds 2 red, 2 yellow, a blue and a locomotive, the team cardholder 1 red and 1
    locomotive: Hanoi - Kunming (3 red) can be paid in several ways."""
    return position(hands=[CardCounts(red=2, yellow=2, blue=1, locomotive=1)],
                    cardholders=[CardCounts(red=1, locomotive=1)], seed=3)


def test_a_render_keeps_the_route_and_payment_the_learner_chose():
    """Rebuilding the route list passes through its first route; the learner's route (not the
    first one) and its payment (not the one offered first) are still chosen afterwards."""
    t = TunnelClaimStepper(_two_way_position(), seed=3)
    routes = [rid for _, rid in t.route.options]
    assert routes[0] != "hanoi-kunming"
    t.route.value = "hanoi-kunming"
    ways = [claim for _, claim in t.payment.options]
    assert len(ways) >= 2
    t.payment.value = ways[-1]
    assert (t.chosen_route, t.chosen_claim) == ("hanoi-kunming", ways[-1])
    t.render()
    assert (t.route.value, t.payment.value) == ("hanoi-kunming", ways[-1])


def test_the_turned_cards_stay_between_none_and_every_revealed_card():
    t = TunnelClaimStepper(seed=4)
    t.route.value = "kathmandu-lhasa-1"  # 3 red, reveals 5 (U1)
    t.lay_down.click()
    assert isinstance(t.attempt, LaidTunnel)
    size = len(t.attempt.revealed)
    t.shown = size + 3
    assert t.shown == size and not t.turning
    t.shown = -1
    assert t.shown == 0 and t.turning == (size > 0)


def test_no_screen_trait_reaches_the_page():
    """I1: the screen's own traits are kernel-side; only the controls' traits are synced."""
    t = TunnelClaimStepper(seed=4)
    own = set(TunnelClaimStepper.class_trait_names()) - set(LessonWidget.class_trait_names())
    assert {"chosen_route", "chosen_claim", "attempt", "shown"} <= own
    assert not own & set(t.get_state())
