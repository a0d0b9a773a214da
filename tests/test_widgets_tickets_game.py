"""In-kernel tests of TicketStepper (T1-T4) and TeamGame (a whole game, score sheet, save/load).

They click the widgets' buttons and set their controls as a learner would, wrong clicks
included, and check what the screen shows and what the engine's views say.
"""

from __future__ import annotations

import html
import re

import ipywidgets as w
import pytest

from ttrlib import CardCounts, Game, Phase
from ttrlib.widgets.team_game import TeamGame
from ttrlib.widgets.tickets import TicketStepper


def plain(markup: str) -> str:
    text = re.sub(r"<style.*?</style>", "", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def shown(widget) -> str:
    """Everything a learner can read on the screen: text, labels, options (hidden parts left out)."""
    if getattr(widget, "layout", None) is not None and widget.layout.display == "none":
        return ""
    if isinstance(widget, w.HTML):
        return plain(widget.value)
    if isinstance(widget, (w.Button, w.Checkbox)):
        return widget.description
    if isinstance(widget, (w.Dropdown, w.RadioButtons)):
        return " ".join(str(o[0] if isinstance(o, tuple) else o) for o in widget.options)
    if isinstance(widget, w.Box):
        return "\n".join(shown(c) for c in widget.children)
    return ""


def choose(chooser, keep: list[str], share: str | None) -> None:
    for t, box in zip(chooser.tickets, chooser.boxes):
        box.value = t in keep
    chooser.share_choice.value = share


def position(**kw) -> Game:
    """Seat A1 holds T01-T03, A2 holds T04, team A shares T05 (setup already done)."""
    args = dict(seed=2, tickets=[["T01", "T02", "T03"], ["T04"], ["T07"], ["T08"]],
                team_tickets=[["T05"], ["T06"]],
                hands=[CardCounts(red=5, blue=1, locomotive=2), CardCounts(green=2, white=2),
                       CardCounts(black=2, yellow=2), CardCounts(orange=3, purple=1)],
                cardholders=[CardCounts(red=2, blue=2, locomotive=1), CardCounts(white=2)],
                face_up=["green", "purple", "white", "orange", "black"])
    args.update(kw)
    return Game.from_position(**args)


# --- TicketStepper: setup (T1) -------------------------------------------------------------------
def test_setup_is_a_hot_seat_flow_with_a_curtain():
    t = TicketStepper(seed=3)
    game = t.session.game
    assert t.stage == "setup" and t.seat == 0
    a1_offer = list(game.view(0).ticket_offer)
    assert list(t.chooser.tickets) == a1_offer and len(t.keep_boxes) == 5
    assert "Screen of A1" in shown(t) and "Confirm A1's choice" in shown(t)

    choose(t.chooser, a1_offer[:2], a1_offer[0])  # wrong: only 2 kept
    t.confirm.click()
    assert "rule T1" in t.message_text and "at least 3" in t.message_text
    assert game.phase is Phase.SETUP_TICKETS and game.to_move == 0

    choose(t.chooser, a1_offer[:3], a1_offer[4])  # wrong: shares a ticket it does not keep
    t.confirm.click()
    assert "rule T1" in t.message_text and "shared ticket" in t.message_text

    choose(t.chooser, a1_offer[:3], a1_offer[1])
    t.confirm.click()
    assert t.stage == "curtain"
    screen = shown(t)
    assert "Pass the screen to A2" in screen and "A1's choice stays hidden" in screen
    assert not any(tid in screen for tid in a1_offer)  # nothing of A1's choice shows
    assert game.view(0).team_tickets == ()  # the engine holds the shared ticket back (T1)
    t.confirm.click()  # the chooser is not even on screen: nothing happens
    assert "pass the screen" in t.message_text and t.stage == "curtain"

    t.continue_button.click()
    assert t.stage == "setup" and t.seat == 1
    a2_offer = list(game.view(1).ticket_offer)
    assert list(t.chooser.tickets) == a2_offer
    screen = shown(t)
    assert "Screen of A2" in screen and not any(tid in screen for tid in a1_offer)

    choose(t.chooser, a2_offer[1:5], a2_offer[3])
    t.confirm.click()
    assert t.stage == "revealed"
    shared = set(game.view(0).team_tickets)
    assert shared == {a1_offer[1], a2_offer[3]} == set(game.view(1).team_tickets)
    assert "same moment" in t.message_text or "together" in t.message_text
    assert all(tid in shown(t) for tid in shared)
    assert game.phase is Phase.TURN  # the bots chose for B1 and B2
    assert len(game.view(2).team_tickets) == 2

    t.start_button.click()
    assert t.stage == "play" and t.seat == 0 and "Screen of A1" in shown(t)
    assert set(game.view(0).tickets) == {a1_offer[0], a1_offer[2]}


def test_setup_for_team_b_lets_bots_choose_for_team_a():
    t = TicketStepper(seat=2, seed=1)
    assert t.stage == "setup" and t.seat == 2  # A1 and A2 were chosen by bots
    t.draw_tickets.click()
    assert "finish the ticket choice first" in t.message_text
    offer = list(t.chooser.tickets)
    choose(t.chooser, offer[:3], offer[0])
    t.confirm.click()
    t.continue_button.click()
    offer = list(t.chooser.tickets)
    choose(t.chooser, offer, offer[0])  # keeping all 5 is fine
    t.confirm.click()
    assert t.stage == "revealed" and "Pass the screen to B1" in t.start_button.description
    t.start_button.click()
    assert t.seat == 2 and t.stage == "play" and "Screen of B1" in shown(t)


# --- TicketStepper: mid-game (T2-T4) -------------------------------------------------------------
def test_draw_keep_share_and_return_to_the_bottom():
    t = TicketStepper(position())
    game = t.session.game
    assert t.stage == "play"
    screen = shown(t)
    assert "T01" in screen and "T05" in screen and "T04" not in screen  # I1: A2's ticket hidden
    assert "1 hidden" in screen and "Ticket deck" in screen

    before = game.view(0).ticket_deck_size
    t.draw_tickets.click()
    offer = list(game.view(0).ticket_offer)
    assert len(offer) == 4 and list(t.chooser.tickets) == offer
    assert f"from {before} to {before - 4}" in t.message_text

    t.draw_tickets.click()  # wrong: the drawn tickets wait for a choice
    assert "rule" in t.message_text and game.phase is Phase.CHOOSE_TICKETS
    choose(t.chooser, [], None)
    t.confirm.click()
    assert "rule T2" in t.message_text and "at least 1" in t.message_text
    choose(t.chooser, offer[:2], offer[3])
    t.confirm.click()
    assert "rule T2" in t.message_text

    choose(t.chooser, offer[:2], offer[1])
    t.confirm.click()
    assert "rule T3" in t.message_text
    view = game.view(0)
    assert offer[0] in view.tickets and offer[1] in view.team_tickets
    assert view.ticket_deck_size == before - 2
    assert game.ticket_deck[-2:] == offer[2:]  # T3: at the bottom, in the engine
    notes = t.notes.value
    assert "to the bottom" in notes.lower() or "bottom of the ticket deck" in notes
    assert offer[2] in notes and offer[3] in notes
    assert f"{before} → {before - 4} → {before - 2}" in notes

    t.share_button.click()  # not A1's turn any more
    assert "not your turn" in t.message_text
    t.others.click()
    assert game.to_move == 0 and "your turn again" in t.message_text
    t.others.click()
    assert "It is your turn" in t.message_text


def test_sharing_three_tickets_is_refused_two_take_the_turn():
    t = TicketStepper(position())
    game = t.session.game
    assert len(t.share_boxes) == 3
    for box in t.share_boxes:
        box.value = True
    t.share_button.click()
    assert "rule T4" in t.message_text and "1 or 2" in t.message_text
    assert len(game.view(0).tickets) == 3 and game.to_move == 0
    t.share_boxes[2].value = False
    t.share_button.click()
    assert "rule T4" in t.message_text and "whole turn" in t.message_text
    assert game.view(0).tickets == ("T03",)
    assert set(game.view(1).team_tickets) == {"T05", "T01", "T02"}  # the teammate sees them
    assert game.to_move == 1


# --- TeamGame ------------------------------------------------------------------------------------
def _my_step(g: TeamGame) -> None:
    """A simple policy for the learner's seat, played through the widget's controls."""
    view = g.view()
    if view.phase is Phase.SETUP_TICKETS:
        offer = list(g.chooser.tickets)
        choose(g.chooser, offer[:3], offer[0])
        g.chooser.confirm.click()
    elif view.phase is Phase.CHOOSE_TICKETS:
        offer = list(g.chooser.tickets)
        choose(g.chooser, offer[:1], offer[0])
        g.chooser.confirm.click()
    elif view.phase is Phase.TURN:
        payable = [rid for label, rid in g.route.options if label.startswith("✓")]
        if payable:
            g.route.value = payable[0]
            assert g.payment.options
            g.claim_button.click()
        elif view.draw_pile_size or len(view.discard):
            g.deck.click()
        else:
            g.draw_tickets.click()
    elif view.phase is Phase.PLACE_CARD:
        g.to_hand.click()
    elif view.phase is Phase.SECOND_CARD:
        sources = [i for i, c in enumerate(view.face_up) if c is not None and c.value != "locomotive"]
        if view.draw_pile_size or len(view.discard):
            g.deck.click()
        else:
            g.take[sources[0]].click()
    elif view.phase is Phase.TUNNEL:
        (g.pay_button if g.tunnel_payment.options else g.withdraw_button).click()


def test_team_game_plays_to_the_score_sheet():
    g = TeamGame(seed=5)
    game = g.session.game
    assert game.phase is Phase.SETUP_TICKETS and game.to_move == 0
    offer = list(g.chooser.tickets)
    choose(g.chooser, offer[:2], offer[0])
    g.chooser.confirm.click()
    assert "rule T1" in g.message_text
    choose(g.chooser, offer[:3], offer[2])
    g.chooser.confirm.click()
    assert game.phase is Phase.TURN and "rule T1" in g.message_text
    assert offer[2] in game.view(0).team_tickets and len(game.view(0).team_tickets) == 2

    g.others.click()
    assert "It is your move" in g.message_text
    g.deck.click()
    assert game.phase is Phase.PLACE_CARD and "Where does it go" in g.message_text
    g.claim_button.click()  # wrong: the drawn card must be placed first
    assert "rule D1" in g.message_text and game.phase is Phase.PLACE_CARD
    g.to_cardholder.click()
    assert game.phase is Phase.SECOND_CARD
    g.deck.click()
    assert game.to_move == 1
    g.deck.click()
    assert "not yours" in g.message_text

    steps = 0
    while not game.is_over:
        steps += 1
        assert steps < 400, "the game did not end"
        if game.to_move == g.seat:
            _my_step(g)
        else:
            g.others.click()
    sheet = g.score_sheet.value
    scores = game.scores()
    assert "Score sheet" in sheet and "Total" in sheet and "Rank" in sheet
    assert "Asian Express" in sheet and "Globetrotter" in sheet
    for s in scores:
        assert f"<b>{s.total}</b>" in sheet
        for t in s.tickets:
            assert t.ticket in sheet
    assert ("wins!" in sheet) or ("A tie" in sheet)
    assert "game is over" in shown(g)
    # lesson 06 says the score sheet is at the top: it is, right under the hint that says so
    assert "score sheet is at the top" in plain(g.step.value)
    kids = list(g.children)
    assert kids.index(g.score_sheet) == kids.index(g.step) + 1
    g.deck.click()
    assert "rule E1" in g.message_text or "not yours" in g.message_text


def test_team_game_claims_and_tunnels_through_the_engine():
    g = TeamGame(position())
    game = g.session.game
    screen = shown(g)
    assert "T04" not in screen and "T01" in screen  # I1: the teammate's ticket stays hidden
    assert "Screen of A1" in screen and "off-limits" in screen
    assert "reveals 4" in g.table.value  # tunnels are marked in the route table

    labels = dict((rid, label) for label, rid in g.route.options)
    blocked = next(rid for rid, label in labels.items() if not label.startswith("✓"))
    g.route.value = blocked
    assert g.payment.options == ()
    g.claim_button.click()
    assert "rule K" in g.message_text and game.to_move == 0

    hand_before = game.view(0).hand
    g.route.value = "delhi-kathmandu"
    assert g.payment.options
    g.claim_button.click()
    assert game.phase is Phase.TUNNEL and "rule U" not in g.message_text
    assert "tunnel" in g.message_text.lower() and g.tunnel_box.layout.display == "flex"
    assert "revealed" in g.tunnel_view.value
    g.deck.click()  # wrong: the tunnel waits
    assert "rule U3" in g.message_text
    g.withdraw_button.click()
    assert game.phase is Phase.TURN and game.to_move == 1
    assert game.view(0).hand == hand_before and g.tunnel_box.layout.display == "none"


def test_save_and_load(tmp_path, monkeypatch):
    monkeypatch.setenv("TTRLIB_SAVE_KEY", str(tmp_path / "key"))
    g = TeamGame(position(), save_folder=tmp_path / "saves")
    saved = g.session.game.to_json()
    seen = g.session.view()
    g.save_slot.value = "lesson 6/../first try"
    g.save_button.click()
    assert g.save_slot.value == "lesson-6-first-try" and "Saved as" in g.message_text
    assert (tmp_path / "saves" / "lesson-6-first-try.ttrsave").is_file()
    g.deck.click()
    g.to_hand.click()
    assert g.session.game.to_json() != saved

    g.save_slot.value = "no such game"
    g.load_button.click()
    assert "no saved game named 'no-such-game'" in g.message_text
    assert "Traceback" not in g.message_text and g.session.game.to_json() != saved

    g.save_slot.value = "lesson-6-first-try"
    g.load_button.click()
    # the game comes back exactly as saved, the unseen cards too: a reload is no new deal
    # (issue 32.14; issue 18 had dealt them anew)
    assert "Loaded" in g.message_text and g.session.view() == seen
    assert g.session.game.to_json() == saved
    assert g.session.game.phase is Phase.TURN and "your turn" in g.header.value


@pytest.mark.parametrize("seat", [1, 3])
def test_team_game_from_another_seat(seat):
    g = TeamGame(seat=seat, seed=8)
    assert g.session.game.to_move == seat and g.session.game.phase is Phase.SETUP_TICKETS
    offer = list(g.chooser.tickets)
    choose(g.chooser, offer[:3], offer[0])
    g.chooser.confirm.click()
    assert g.session.game.phase is Phase.TURN
    g.others.click()
    assert g.session.game.to_move == seat and f"Screen of {('A2', 'B2')[seat // 2]}" in shown(g)


def test_ticket_stepper_with_no_ticket_move_lets_a_bot_play_the_turn():
    """T2, T4: with the ticket deck empty and no private ticket, the lesson has no move to offer;
    'Let the other players play' then lets a bot play the learner's turn instead of sticking."""
    from ttrlib.board import teaching_board
    from ttrlib.widgets import TicketStepper

    ids = [t.id for t in teaching_board().tickets]
    game = Game.from_position(team_tickets=[ids[:23], ids[23:]], ticket_deck=[])
    t = TicketStepper(game)
    assert t.stage == "play" and t.view().my_turn
    turns = game.turns
    t.others.click()
    assert game.turns > turns and t.view().my_turn
    assert "a bot played your turn" in t.message_text
