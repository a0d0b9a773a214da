"""The widget slips of issue 9 item 7, and a game per learner (issue 9 item 3), one test each."""

from __future__ import annotations

import html
import re

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import Widget, _instances

from ttrlib import Game, Phase
from ttrlib import actions as act
from ttrlib.cards import CardCounts
from ttrlib.session import SeatSession
from ttrlib.widgets import (
    CardSplitStepper,
    OddsExplorer,
    TeamGame,
    TicketStepper,
    TunnelClaimStepper,
)

ROUTE = "kathmandu-lhasa-1"  # Kathmandu - Lhasa, 3 red tunnel, reveals 5 (U1)
HAND = CardCounts(red=3, blue=1, locomotive=1)
HOLDER = CardCounts(red=1, blue=2, locomotive=1)
NO_MATCH = ["green", "white", "black", "yellow", "purple", "orange"]
TWO_MATCH = ["red", "green", "locomotive", "white", "black", "yellow"]


def plain(markup: str) -> str:
    text = re.sub(r"<style.*?</style>", "", markup, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text)).strip()


@pytest.fixture(autouse=True)
def empty_registry():
    Widget.close_all()
    yield
    Widget.close_all()


def tunnel_position(draw_pile, hand=HAND, holder=HOLDER) -> Game:
    """The lesson's practice position with the draw pile stacked from the top."""
    return Game.from_position(
        seed=0, hands=[hand, CardCounts(green=2, white=2), CardCounts(black=2, yellow=2),
                       CardCounts(orange=3, purple=1)],
        cardholders=[holder, CardCounts(white=2)],
        face_up=["green", "purple", "white", "orange", "black"], draw_pile=list(draw_pile))


def lay_down_red(t: TunnelClaimStepper, route: str = ROUTE) -> None:
    t.route.value = route
    t.payment.value = next(c for _, c in t.payment.options if c.hand == CardCounts(red=3))
    t.lay_down.click()


# --- lesson 04: the tunnel ----------------------------------------------------------------------
def test_take_back_before_turning_waits_and_the_turn_stays_the_learners():
    """The slip: 'Take my cards back' before any card was turned, then 'Turn the next card',
    turned every card and asked for payment while A2 was to move. Now Take back (like Pay)
    waits for the whole reveal (U1 turns the cards, then U3 decides), and the screen stays on
    the moment of laying down until the last card is turned."""
    t = TunnelClaimStepper(tunnel_position(NO_MATCH))
    lay_down_red(t)
    assert t.session.game.to_move == 1  # the engine settled the tunnel (no match) at once
    t.withdraw.click()
    assert "Turn the revealed cards first (5 still face down)" in plain(t.message.value)
    assert "rule U3" in plain(t.message.value)
    assert "your turn" in plain(t.header.value) and "A2 to move" not in plain(t.header.value)
    t.turn_next.click()
    assert "Card 1 of 5" in plain(t.message.value) and "your turn" in plain(t.header.value)
    for _ in range(4):
        t.turn_next.click()
    text = plain(t.message.value)
    assert "claimed with no extra cost" in text and "pay" not in text.replace("no extra", "")
    assert t.pay_choice.options == () and t.pay.button_style == ""
    assert "A2 to move" in plain(t.header.value)  # only now
    t.withdraw.click()  # nothing to take back any more: the engine says so
    assert "rule" in plain(t.message.value) and t.session.game.view(0).claimed[ROUTE] == 0


def test_pay_and_take_back_both_act_after_the_whole_reveal():
    t = TunnelClaimStepper(tunnel_position(TWO_MATCH))
    lay_down_red(t)
    for control in (t.pay, t.withdraw):
        control.click()
        assert "Turn the revealed cards first" in plain(t.message.value)
        assert t.session.game.phase is Phase.TUNNEL
    for _ in range(5):
        t.turn_next.click()
    assert "2 revealed cards match" in plain(t.message.value)
    assert t.withdraw.button_style == t.pay.button_style == "primary"
    t.withdraw.click()
    assert "took your laid cards back" in plain(t.message.value)
    assert t.session.game.view(0).hand == HAND  # U3


def test_new_practice_and_no_dead_end_without_cards(monkeypatch):
    """After two practice claims the learner had no cards and no way on."""
    t = TunnelClaimStepper(tunnel_position(NO_MATCH, hand=CardCounts(), holder=CardCounts()))
    assert not any(isinstance(a, act.Claim) for a in t.session.legal_actions())
    t.others.click()  # no route can be paid: a bot plays the turn, then the others
    assert "a bot played your turn" in plain(t.message.value) and t.session.my_turn

    p = TunnelClaimStepper()
    assert p.new_game_button.description == "New practice"
    lay_down_red(p, "hanoi-kunming")  # spend the red cards on a plain route
    p.new_game_button.click()
    assert p.view().hand == HAND and p.view().my_turn
    name = p.session.game_name
    assert name.startswith("random game ") and name in p.game_label.value
    assert name in plain(p.message.value)


def odds_words(t: TunnelClaimStepper) -> str:
    """The odds panel's sentence (not the chart, whose bar tips keep their own numbers)."""
    found = re.findall(r'<span class="ttr-msg-text">(.*?)</span></div>', t.odds_panel.value, re.S)
    return " ".join(html.unescape(plain(m)) for m in found)


def test_tunnel_chances_read_as_a_fraction_a_percentage_and_one_in_n():
    """A1 holds exactly 3 red and nothing else: after laying them down no card is spare, so A1
    can pay only a reveal with no match. 20 cards are unseen from A1's seat (the draw pile of 6
    and 14 in other hands and the B cardholder), 2 of them match (the pile's red and
    locomotive): C(18,5)/C(20,5) = 8568/15504 = 21/38 = 55.3%, failing 17 times in 38, about 1
    in 2.2 (counted by hand)."""
    t = TunnelClaimStepper(tunnel_position(TWO_MATCH, hand=CardCounts(red=3),
                                           holder=CardCounts()))
    t.route.value = ROUTE
    words = "21/38 = 55.3%: all but about 1 in 2.2 times"
    assert [label for label, _ in t.payment.options] == [
        f"3 red from your hand  ·  P(you can pay the extra) = {words}"]
    text = odds_words(t)
    assert f"the chance that you can pay whatever is revealed is {words}." in text
    assert "≈" not in text and "Before you lay down" in text
    assert "up to 0 extra cards" in text


def test_after_laying_down_the_widget_never_says_before_and_turn_goes_away():
    """From the moment the cards are down until the turn ends, the odds are the ones the learner
    had "when you laid down"; once the last card is up, "Turn the next card" is gone (U1, U3)."""
    for pile, end in ((TWO_MATCH, "withdraw"), (NO_MATCH, None)):
        t = TunnelClaimStepper(tunnel_position(pile))
        lay_down_red(t)
        seen = []
        while t.turning:
            assert t.turn_row.layout.display == "flex"
            seen.append(odds_words(t))
            t.turn_next.click()
        assert t.turn_row.layout.display == "none"  # all five cards are up
        seen.append(odds_words(t))
        if end:
            getattr(t, end).click()
            assert t.turn_row.layout.display == "none"
            seen.append(odds_words(t))
        assert len(seen) >= 6 and all("Before you lay down" not in s for s in seen), seen
        assert all("When you laid down" in s for s in seen[:6])


def test_the_attempted_route_stays_on_screen_and_pay_shows_only_while_owed():
    """Seen in Voila: after a tunnel with no match the route list jumped to "Calcutta - Lhasa
    (you cannot pay for it now)" under the odds of Kashgar - Rawalpindi, and an empty "Pay with"
    row with Pay and Take back stood there after the engine had settled the tunnel."""
    for pile, owed in ((NO_MATCH, False), (TWO_MATCH, True)):
        t = TunnelClaimStepper(tunnel_position(pile))
        lay_down_red(t)
        while t.turning:
            assert t.pay_row.layout.display == "none"
            t.turn_next.click()
        assert t.route.value == ROUTE and t.route.disabled
        assert [label for label, _ in t.route.options] == [
            "Kathmandu - Lhasa, 3 red tunnel (reveals 5)  (cards laid down)"]
        assert "Extra cards for Kathmandu - Lhasa" in plain(t.odds_panel.value)
        assert t.pay_row.layout.display == ("flex" if owed else "none")
        assert t.session.game.to_move == (0 if owed else 1)


def test_the_next_turn_starts_on_a_route_the_seat_can_pay():
    """While the bots play every route reads "cannot pay now"; the turn that follows starts on a
    route A1 can pay for, not on the one the list fell on meanwhile."""
    t = TunnelClaimStepper(tunnel_position(NO_MATCH))
    lay_down_red(t)
    while t.turning:
        t.turn_next.click()
    t.others.click()
    assert t.session.my_turn
    assert t.route.value in t.session.claimable_routes()
    assert "cannot pay" not in dict((v, k) for k, v in t.route.options)[t.route.value]
    assert "You cannot claim this route now" not in plain(t.odds_panel.value)


def test_the_widget_deals_the_lessons_practice_position():
    """One practice position, the lesson's (ttrlib.lessons.tunnels): the widget has no copy."""
    from ttrlib.lessons import tunnels
    from ttrlib.widgets import tunnel_claim

    assert "def practice_position" not in open(tunnel_claim.__file__).read()
    expected = tunnels.practice_position(77).view(0)
    t = TunnelClaimStepper(seed=77)
    assert t.view().hand == expected.hand == HAND
    assert t.view().team_cardholder == expected.team_cardholder == HOLDER


# --- lesson 03: plain routes --------------------------------------------------------------------
def test_plain_routes_show_no_tunnel_controls():
    t = TunnelClaimStepper(tunnel_position(NO_MATCH))
    t.route.value = "hanoi-kunming"  # 3 red, not a tunnel
    assert t.tunnel_box.layout.display == "none"
    t.route.value = ROUTE
    assert t.tunnel_box.layout.display == "flex"
    t.route.value = "hanoi-kunming"
    t.lay_down.click()
    assert "Route claimed" in plain(t.message.value)
    assert t.tunnel_box.layout.display == "none" and t.reveal_panel.value == ""


def test_an_unaffordable_route_says_which_cards_are_missing():
    """Foochow - Shanghai costs 3 green; A1's hand and cardholder hold no green and two
    locomotives: one card short (counted by hand from HAND and HOLDER)."""
    why = ("costs 3 green cards or locomotives; your hand and the team cardholder hold 2, so 1 "
           "more is missing")
    t = TunnelClaimStepper(tunnel_position(NO_MATCH))
    t.route.value = "foochow-shanghai"
    assert why in plain(t.odds_panel.value) and "rule K1" in plain(t.odds_panel.value)
    t.lay_down.click()
    assert why in plain(t.message.value)
    g = TeamGame(tunnel_position(NO_MATCH))
    g.route.value = "foochow-shanghai"
    assert g.payment.options == () and why in plain(g.route_note.value)
    g.claim_button.click()
    assert why in plain(g.message.value) and "rule K1" in plain(g.message.value)
    s = SeatSession(tunnel_position(NO_MATCH), 0)
    assert s.claim_problem("kashgar-lhasa")[0] == "K1"  # 6 white: 2 locomotives, 4 missing
    assert "so 4 more are missing" in s.claim_problem("kashgar-lhasa")[1]
    assert s.claim_problem(ROUTE) is None


# --- lesson 06: the team game -------------------------------------------------------------------
def test_team_game_route_list_starts_on_a_payable_route():
    g = TeamGame(tunnel_position(NO_MATCH))
    label = dict((rid, lbl) for lbl, rid in g.route.options)[g.route.value]
    assert label.startswith("✓") and g.payment.options
    # the learner looks at a route out of reach, then plays a draw: on their next turn the
    # list is back on a route they can pay, with its payment ready
    g.route.value = "foochow-shanghai"
    g.deck.click()
    g.to_hand.click()
    g.deck.click()
    g.others.click()
    assert g.session.my_turn
    label = dict((rid, lbl) for lbl, rid in g.route.options)[g.route.value]
    assert label.startswith("✓") and g.payment.options and g.route_note.value == ""


def test_team_game_save_never_puts_the_game_in_the_page(tmp_path, monkeypatch):
    monkeypatch.setenv("TTRLIB_SAVE_KEY", str(tmp_path / "key"))
    g = TeamGame(tunnel_position(NO_MATCH), save_folder=tmp_path)
    g.save_button.click()
    controls = [c for c in _instances.values() if isinstance(c, (w.Textarea, w.Text))]
    assert [c.value for c in controls if c.value] == ["set-position"]  # the Save box's name
    # an edited save is refused, in words, and the game is unchanged
    path = tmp_path / "set-position.ttrsave"
    data = bytearray(path.read_bytes())
    data[-10] ^= 1
    path.write_bytes(bytes(data))
    before = g.session.game.to_json()
    g.load_button.click()
    assert "signature does not match" in plain(g.message.value)
    assert "Traceback" not in plain(g.message.value) and g.session.game.to_json() == before


# --- one rule for highlighting ------------------------------------------------------------------
def _highlighted_sources(widget) -> set:
    out = {i for i, b in enumerate(widget.take) if b.button_style == "primary"}
    return out | ({"deck"} if widget.deck.button_style == "primary" else set())


@pytest.mark.parametrize("make", [CardSplitStepper, TeamGame])
def test_a_button_is_highlighted_exactly_when_its_move_is_legal(make):
    game = tunnel_position(NO_MATCH)
    game.face_up[1] = None  # an empty face-up slot (issue 13: refilled only after PlaceCard)
    widget = make(game)
    for step in range(3):
        legal = widget.session.legal_actions()
        sources = {a.source for a in legal if isinstance(a, act.DrawCard)}
        places = {a.to for a in legal if isinstance(a, act.PlaceCard)}
        assert _highlighted_sources(widget) == sources, step
        assert (widget.to_hand.button_style == "primary") == ("hand" in places)
        assert 1 not in sources and "empty" in widget.row.value  # the empty slot is shown
        (widget.deck if step != 1 else widget.to_hand).click()
    styles = {c.button_style for c in _instances.values() if isinstance(c, w.Button)}
    assert styles <= {"", "primary"}  # no other colour means "you may press this"
    Widget.close_all()


def test_ticket_and_tunnel_widgets_follow_the_same_rule():
    t = TicketStepper(tunnel_position(NO_MATCH))
    assert t.draw_tickets.button_style == "primary" and t.others.button_style == ""
    t.draw_tickets.click()
    assert t.confirm.button_style == "primary" and t.draw_tickets.button_style == ""
    u = TunnelClaimStepper(tunnel_position(NO_MATCH))
    u.route.value = "foochow-shanghai"
    assert u.lay_down.button_style == ""
    u.route.value = ROUTE
    assert u.lay_down.button_style == "primary" and u.turn_next.button_style == ""


# --- keyboard: every control is a real ipywidgets control ---------------------------------------
CONTROLS = (w.Button, w.Dropdown, w.Checkbox, w.RadioButtons, w.Text, w.BoundedIntText)


def test_every_control_is_a_keyboard_control_and_no_html_is_clickable(tmp_path, monkeypatch):
    """Tab and Enter reach what a learner can press: buttons, dropdowns, checkboxes, radio
    buttons, text boxes and sliders; no picture carries a click handler or a form control."""
    monkeypatch.setenv("TTRLIB_SAVE_KEY", str(tmp_path / "key"))
    widgets = [CardSplitStepper(seed=1), TicketStepper(seed=1), TunnelClaimStepper(seed=1),
               TeamGame(seed=1, save_folder=tmp_path), OddsExplorer(seed=1)]
    widgets[2].route.value = ROUTE
    widgets[2].lay_down.click()
    interactive = [c for c in _instances.values() if isinstance(c, w.DOMWidget)
                   and not isinstance(c, (w.Box, w.HTML, w.IntProgress))]
    assert interactive and all(isinstance(c, CONTROLS) for c in interactive)
    assert all(not c.disabled or c in (widgets[2].route, widgets[2].payment)
               for c in interactive if hasattr(c, "disabled"))
    for c in _instances.values():
        if isinstance(c, w.HTML):
            assert not re.search(r"onclick|<button|<input|<select|href=.javascript", c.value,
                                 flags=re.I), c.value[:200]


# --- a game per learner (issue 9 item 3), a deal nobody can recompute (issue 18 item 1) ---------
FACTORIES = {
    "CardSplitStepper": CardSplitStepper, "TicketStepper": TicketStepper,
    "TunnelClaimStepper": TunnelClaimStepper, "TeamGame": TeamGame,
}


@pytest.mark.parametrize("name", FACTORIES)
def test_every_game_widget_shows_its_game_and_deals_a_new_one(name):
    widget = FACTORIES[name]()
    first = widget.session.game_name
    assert re.fullmatch(r"random game [0-9a-f]{6}", first) and first in widget.game_label.value
    assert isinstance(widget.new_game_button, w.Button)
    widget.new_game_button.click()
    second = widget.session.game_name
    assert second != first and second in widget.game_label.value
    assert second in plain(widget.message.value)
    seeded = FACTORIES[name](seed=4821)
    assert "game 4821" in seeded.game_label.value
    Widget.close_all()


def test_the_odds_explorer_shows_its_simulation_number_and_draws_a_new_one(monkeypatch):
    """The explorer's number seeds simulations, not a deal (nothing hidden): four digits."""
    seeds = iter([1111, 2222])
    monkeypatch.setattr("ttrlib.widgets.odds_explorer.fresh_seed", lambda: next(seeds))
    ox = OddsExplorer()
    assert "game 1111" in ox.game_label.value
    ox.new_game_button.click()
    assert "game 2222" in ox.game_label.value and "game 2222" in plain(ox.message.value)
    assert "game 4821" in OddsExplorer(seed=4821).game_label.value


def test_a_new_game_closes_the_old_games_controls():
    t = TicketStepper(seed=3)
    old = list(t.keep_boxes)
    t.new_game_button.click()
    assert all(b.comm is None for b in old)  # closed: gone from the page
    live = [c for c in _instances.values() if isinstance(c, w.Checkbox)]
    assert len(live) == len(t.keep_boxes) == 5
    assert t.session.game.to_json() != Game.new(players=4, seed=3).to_json()
    Widget.close_all()


# --- narration order (C5, C6): produced by the engine --------------------------------------------
def test_the_log_tells_the_pick_before_the_reset_it_caused():
    game = Game.from_position(
        seed=1, hands=[HAND, CardCounts(), CardCounts(), CardCounts()],
        cardholders=[HOLDER, CardCounts()],
        face_up=["locomotive", "locomotive", "red", "blue", "green"],
        draw_pile=["locomotive", "white", "black", "orange", "purple", "yellow", "red"])
    s = CardSplitStepper(game)
    s.take[2].click()  # red; its replacement is the third locomotive: the row is reset (C5)
    s.to_hand.click()
    kinds = [e.kind for e in s.view().events]
    assert "reset" in kinds
    assert kinds.index("draw") < kinds.index("reset")
