"""The team game over a class table holds only the seat's view (rule I1; issue 19, item 3).

The widget-secrets redeal of ``test_widget_secrets.py``, over a ``RemoteSeatSession``: at many
moments of a game at a class table, the server's game is swapped for a copy in which everything
the seat cannot see is dealt anew (``Game.resample_hidden``), the session fetches the table again
and the widget is drawn again. Every live widget model must stay the same, and so must
everything the kernel's session holds: the kernel depends only on the seat's view.
"""

from __future__ import annotations

import numpy as np
import pytest
from ipywidgets.widgets.widget import Widget
from table_fakes import InProcess
from test_widget_secrets import first_difference, registry_states
from widget_drivers import click_a_move

from ttrlib.widgets import TeamGame

PRIVATE_PARTS = ("_transport", "_wait", "_task", "_callback")  # the session's machinery


@pytest.fixture(autouse=True)
def empty_registry():
    Widget.close_all()
    yield
    Widget.close_all()


def holdings(session) -> str:
    """Everything the session keeps (what reaches the kernel from the server)."""
    return repr(sorted((k, repr(v)) for k, v in vars(session).items() if k not in PRIVATE_PARTS))


def reload(session) -> None:
    """Make the session fetch the table as if it were new (the version did not change)."""
    session.version = -1
    session._events = []
    session.refresh()


def same_after_redeal(widget, table, rng) -> int:
    """Redeal the server's game twice; the widget's models and the session's holdings must not
    change. Returns how many redeals changed the game at all (the check has teeth)."""
    session = widget.session
    real = table.game
    widget.render()
    models, kept = registry_states(), holdings(session)
    changed = 0
    try:
        for _ in range(2):
            other = real.resample_hidden(session.seat, rng)
            changed += other.to_json() != real.to_json()
            table.game = other
            table.cache.clear()
            reload(session)
            widget.render()
            assert registry_states() == models, first_difference(models, registry_states())
            assert holdings(session) == kept
    finally:
        table.game = real
        table.cache.clear()
        reload(session)
        widget.render()
    return changed


def test_the_team_game_at_a_class_table_depends_only_on_the_seat(tmp_path):
    fake = InProcess(tmp_path / "t.sqlite3")
    table = fake.store.create(4, 21, {"A2": "greedy", "B1": "greedy", "B2": "greedy"})
    g = TeamGame(session=fake.session(table, 0))
    assert g.game_label.value.count(f"table {table.id}")
    assert g.others.layout.display == "none" and g.new_game_button.layout.display == "none"
    assert not [c for c in g.children if getattr(c, "description", "") == "Save"]
    rng = np.random.default_rng(3)
    changed = same_after_redeal(g, table, rng)
    offer = list(g.chooser.tickets)
    for box, tid in zip(g.chooser.boxes, offer):
        box.value = tid in offer[:3]
    g.chooser.share_choice.value = offer[0]
    g.chooser.confirm.click()
    for _step in range(40):
        if g.session.is_over:
            break
        changed += same_after_redeal(g, table, rng)
        view = g.view()
        assert view.my_turn, "the server's bots play every other seat at once"
        changed += click_a_move(g, view, lambda: same_after_redeal(g, table, rng))
        assert "went wrong" not in g.message_text
    assert changed > 20
    assert table.version > 60  # the game went on: the learner's moves and the bots'


def test_the_coachs_hint_at_a_class_table_depends_only_on_the_seat(tmp_path):
    """Lesson 08's team game asks the coach too (issue 34): from the seat's view the session
    fetched, so two server games that differ only in what A1 cannot see give the same hint."""
    fake = InProcess(tmp_path / "t.sqlite3")
    table = fake.store.create(4, 34, {"A2": "greedy", "B1": "greedy", "B2": "greedy"})
    g = TeamGame(session=fake.session(table, 0))
    offer = list(g.chooser.tickets)
    for box, tid in zip(g.chooser.boxes, offer):
        box.value = tid in offer[:2]
    g.chooser.share_choice.value = offer[0]
    g.chooser.confirm.click()
    assert g.view().my_turn
    real, rng = table.game, np.random.default_rng(11)
    hints, changed = [], 0
    try:
        for variant in range(3):
            game = real if variant == 0 else real.resample_hidden(0, rng)
            changed += game.to_json() != real.to_json()
            table.game = game
            table.cache.clear()
            reload(g.session)
            g.render()
            g.coach.ask.click()
            hints.append(g.coach.text.value)
    finally:
        table.game = real
        table.cache.clear()
    assert changed == 2 and "The coach would" in hints[0], hints[0]
    assert hints[1] == hints[0] and hints[2] == hints[0]
