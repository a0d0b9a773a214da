"""A bot's turn at a learner's seat shows on that seat's page (issue 32, item 6): the teacher
hands A1 to a bot, it plays A1's turn; the page says that a bot played A1 and what it did, and
it still says so once the seat is back with its learner."""

from __future__ import annotations

import re

from ipywidgets.widgets.widget import Widget
from table_fakes import InProcess

from ttrlib import narration
from ttrlib.widgets import TeamGame


def test_a_bots_turn_at_my_seat_is_shown_on_my_page(tmp_path):
    Widget.close_all()
    fake = InProcess(tmp_path / "t.sqlite3")
    table = fake.store.create(4, 21, {"A2": "greedy", "B2": "greedy"})  # A1, B1: learners
    g = TeamGame(session=fake.session(table, 0))
    b1 = TeamGame(session=fake.session(table, 2))
    try:
        for screen in (g, b1):  # both learners choose their setup tickets
            screen.table_moved(screen.session.refresh())
            offer = list(screen.chooser.tickets)
            for box in screen.chooser.boxes[:3]:
                box.value = True
            screen.chooser.share_choice.value = offer[0]
            screen.chooser.confirm.click()
        g.table_moved(g.session.refresh())
        assert g.view().my_turn
        before = len(table.game.events)
        fake.store.set_bot(table, 0, "greedy")  # the teacher hands A1 to a bot: it plays A1
        played = [e for e in table.game.events[before:] if getattr(e, "seat", None) == 0]
        assert played and table.game.to_move == 2  # A1's bot and A2's bot played; B1's move
        g.table_moved(g.session.refresh())
        text = g.message_text
        assert "A bot played your seat A1 for you" in text
        said = narration.text(played[0])
        assert said[:1].upper() + said[1:] in text
        fake.store.set_bot(table, 0, None)  # back to the learner: the message stays
        g.table_moved(g.session.refresh())
        assert "A bot played your seat A1 for you" in g.message_text
        assert not re.search(r"went wrong|Error", g.message_text)
    finally:
        Widget.close_all()
