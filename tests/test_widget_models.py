"""The screens' state as traitlets models (issue 22 item 3), driven without a browser.

Each screen keeps its state in plain traits (never synced to the page, rule I1): the tunnel
stepper's chosen route and payment, its tunnel attempt and how many revealed cards are turned.
A render rebuilds the dropdowns while holding the trait notifications, so the learner's choice
survives it; the expected values below are chosen by hand from the options on screen.
"""

from __future__ import annotations

import pytest
from traitlets import TraitError

from ttrlib import CardCounts
from ttrlib.lessons import position
from ttrlib.widgets.base import Screen
from ttrlib.widgets.team_game import TeamGame
from ttrlib.widgets.tickets import TicketStepper
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


def test_no_screen_trait_is_synced_to_the_page():
    """I1: every screen's own traits are kernel-side (none is tagged ``sync=True``); only its
    controls' traits reach the page. The screens are the ones the secrets test finds."""
    from test_widget_secrets import screen_classes

    own = {cls: {name for name, trait in cls.class_traits().items()
                 if name not in Screen.class_trait_names()} for cls in screen_classes()}
    assert {"chosen_route", "chosen_claim", "attempt", "shown"} <= own[TunnelClaimStepper]
    assert "stage" in own[TicketStepper] and "chosen_route" in own[TeamGame]
    synced = {cls.__name__: sorted(n for n in names if cls.class_traits()[n].metadata.get("sync"))
              for cls, names in own.items()}
    assert not any(synced.values()), synced


def test_the_ticket_screen_has_four_stages_only():
    t = TicketStepper(seed=3)
    assert t.stage == "setup"
    with pytest.raises(TraitError):
        t.stage = "curtains"


# --- the odds explorer's settings (no widget at all) ------------------------------------------
def test_settings_clamp_the_number_just_set_and_say_why():
    """C1: 110 cards, 26 of one colour plus locomotives. Expected values by hand."""
    from ttrlib.widgets.odds_settings import TunnelSettings

    st = TunnelSettings()
    st.discard = 30  # all 110 unseen: the discard pile gives way to 0
    assert st.discard == 0 and "Lower the unseen cards N first" in st.notes[-1]
    st.unseen = 70
    assert st.draw_pile == 70  # a full draw pile follows N
    st.discard, st.matching, st.discard_matching = 30, 20, 10
    assert st.discard_matching == 6  # 26 - 20
    st.notes = []
    st.unseen = 100  # 100 + 30 > 110: N gives way
    assert st.unseen == 80 and "at most 80 cards can be unseen" in st.notes[0]
    st.draw_pile = 40
    st.unseen = 10  # K and the draw pile follow N down, each with its sentence
    assert (st.draw_pile, st.matching) == (10, 10) and len(st.notes) == 3


def test_settings_follow_the_kind_of_claim():  # U5: 14 locomotives
    from ttrlib.widgets.odds_settings import TunnelSettings

    st = TunnelSettings()
    st.locomotives_only = True
    assert st.matching == 14 and "U5" in st.notes[-1]
    st.locomotives_only = False
    assert st.matching == 26
    st.matching = 10  # set by hand: kept both ways
    st.locomotives_only = True
    st.locomotives_only = False
    assert st.matching == 10
    assert st.tunnel().law() == TunnelSettings(matching=10).tunnel().law()
