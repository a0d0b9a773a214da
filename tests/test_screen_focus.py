"""Where the page looks after a screen of a lesson widget changes (issue 21, item 6).

In lesson 02 the setup screen (five tickets, the cardholders, the map) is long and the curtain
that follows "Confirm A1's choice" is short: the page kept its scroll position and showed what
lay below the widget, the curtain's message out of sight. The widget now moves the keyboard
focus to the one button of the new screen, which makes the browser scroll it into view (the
Chromium check is in test_classroom_lessons.py). Here: which button gets the focus, in-kernel.
"""

from __future__ import annotations

import ipywidgets as w
import pytest

from ttrlib.widgets.tickets import TicketStepper


@pytest.fixture
def focused(monkeypatch):
    """The buttons asked for the focus, in order (``DOMWidget.focus`` sends {'do': 'focus'})."""
    asked: list[w.Button] = []
    monkeypatch.setattr(w.Button, "focus", lambda self: asked.append(self))
    return asked


def _keep(t: TicketStepper, keep: int, share_index: int) -> None:
    offer = list(t.chooser.tickets)
    for i, box in enumerate(t.keep_boxes):
        box.value = i < keep
    t.share_choice.value = offer[share_index]


def test_T1_the_curtain_and_the_reveal_take_the_focus(focused):
    t = TicketStepper(seed=3)
    _keep(t, 2, 0)  # refused (T1: keep at least 3): the screen stays, the focus too
    t.confirm.click()
    assert "rule T1" in t.message_text and focused == []

    _keep(t, 3, 1)
    t.confirm.click()
    assert t.stage == "curtain" and focused == [t.continue_button]
    assert t.continue_button in t.children  # a button on the screen, not a hidden one

    t.continue_button.click()
    _keep(t, 4, 2)
    t.confirm.click()
    assert t.stage == "revealed" and focused == [t.continue_button, t.start_button]
    assert t.start_button in t.children
    t.close()
