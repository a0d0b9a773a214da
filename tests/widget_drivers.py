"""Driving the team game's widget by its own buttons, as a learner would (shared by the
hidden-information tests of a local seat and of a seat at a class table)."""

from __future__ import annotations

from collections.abc import Callable

from ttrlib import Phase


def click_a_move(g, view, before_claim: Callable[[], int] = lambda: 0) -> int:
    """One step of seat ``g`` (whose move it is, in ``view``) by a click: claim the first route
    marked payable, else draw from the deck; place, pay or withdraw, keep a ticket. Returns what
    ``before_claim()`` returned (called once a route is chosen, before the claim), else 0."""
    found = 0
    if view.phase is Phase.TURN:
        payable = [rid for label, rid in g.route.options if label.startswith("✓")]
        if payable:
            g.route.value = payable[0]
            found = before_claim()
            g.claim_button.click()
        else:
            g.deck.click()
    elif view.phase is Phase.PLACE_CARD:
        g.to_hand.click()
    elif view.phase is Phase.SECOND_CARD:
        g.deck.click()
    elif view.phase is Phase.TUNNEL:
        (g.pay_button if g.tunnel_payment.options else g.withdraw_button).click()
    elif view.phase is Phase.CHOOSE_TICKETS:
        g.chooser.boxes[0].value = True
        g.chooser.share_choice.value = g.chooser.tickets[0]
        g.chooser.confirm.click()
    return found
