"""In-kernel tests of CardSplitStepper (D1-D4, C5, C6) and TunnelClaimStepper (K1, K2, U1-U7).

They click the widgets' buttons (``.click()``) and set their dropdowns (``.value``) as a learner
would, wrong clicks included, and check both what the screen says (the message line and the HTML
panels) and the game state seen through ``w.view()``. Positions are exact (``Game.from_position``):
a face-up row with locomotives, a draw pile stacked so that the tunnel reveal is known.

Every click is timed. Nothing here asserts on time (``benchmarks/bench_lessons.py`` measures
it); a click slower than ``SLOW_CLICK_S`` gives a warning in the pytest summary, and the timings
go to ``test-artifacts/stepper-click-times.json``.
"""

from __future__ import annotations

import html
import json
import re
import time
import warnings
from pathlib import Path

import ipywidgets as w
import pytest

from ttrlib import CardCounts, Game
from ttrlib import actions as act
from ttrlib.cards import EMPTY, Color, standard_deck
from ttrlib.game import TRAINS_PER_PLAYER, Phase
from ttrlib.lessons.tunnels import practice_position
from ttrlib.widgets import CardSplitStepper
from ttrlib.widgets.tunnel_claim import TunnelClaimStepper

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
SLOW_CLICK_S = 0.25
CLICK_TIMES: list[tuple[str, float]] = []


# --- helpers -------------------------------------------------------------------------------------
def plain(markup: str) -> str:
    text = re.sub(r"<style.*?</style>", "", markup, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text))).strip()


def kind(widget) -> str:
    """The kind of the message line: error, info, success, warning (or '' when empty)."""
    m = re.search(r'class="ttr-msg ttr-msg-(error|info|success|warning)"', widget.message.value)
    return m.group(1) if m else ""


def _timed(label: str, fn) -> None:
    t0 = time.perf_counter()
    fn()
    dt = time.perf_counter() - t0
    CLICK_TIMES.append((label, dt))
    if dt > SLOW_CLICK_S:
        warnings.warn(f"slow widget click: {label} took {dt * 1000:.0f} ms", stacklevel=3)


def click(button: w.Button) -> None:
    """Click as the front end would (the kernel runs the handler); the time is recorded."""
    _timed(button.description, button.click)


def choose(dropdown: w.Dropdown, value) -> None:
    """Pick a dropdown value as a learner would; the observers' time is recorded."""
    assert value in [v for _, v in dropdown.options], f"{value!r} is not offered"
    _timed(f"{dropdown.description} := {value!r}"[:80], lambda: setattr(dropdown, "value", value))


def option_labels(dropdown: w.Dropdown) -> list[str]:
    return [label for label, _ in dropdown.options]


@pytest.fixture(scope="module", autouse=True)
def click_report():
    yield
    if not CLICK_TIMES:
        return
    times = sorted(dt for _, dt in CLICK_TIMES)
    slowest = max(CLICK_TIMES, key=lambda x: x[1])
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "stepper-click-times.json").write_text(json.dumps({
        "clicks": len(times),
        "median_ms": times[len(times) // 2] * 1000,
        "max_ms": slowest[1] * 1000,
        "slowest": slowest[0],
        "all": [[label, round(dt * 1000, 3)] for label, dt in CLICK_TIMES],
    }, indent=1))


# --- positions -----------------------------------------------------------------------------------
HAND_A1 = CardCounts(red=2)
HOLDER_A = CardCounts(blue=1)


def split_position(face_up=("locomotive", "red", "blue", "locomotive", "green"),
                   draw_pile=("yellow", "white", "black", "orange", "purple", "red", "red"),
                   **kw) -> Game:
    """A1 to move with 2 red in hand and 1 blue in the team cardholder; the draw pile is stacked
    from the top: yellow, white, black ... (the rest of the deck is in the discard)."""
    args = dict(seed=3, hands=[HAND_A1, CardCounts(green=2), CardCounts(black=1), CardCounts()],
                cardholders=[HOLDER_A, CardCounts()], face_up=list(face_up),
                draw_pile=list(draw_pile))
    args.update(kw)
    return Game.from_position(**args)


HAND_T = CardCounts(red=3, blue=1, locomotive=1)
HOLDER_T = CardCounts(red=1, blue=2, locomotive=1)
ROUTE = "kathmandu-lhasa-1"  # Kathmandu - Lhasa, 3 red tunnel, reveals 5 (U1)


def tunnel_position(draw_pile, hand=HAND_T, holder=HOLDER_T, **kw) -> Game:
    """The practice position of the lesson, with the draw pile stacked from the top."""
    args = dict(seed=0, hands=[hand, CardCounts(green=2, white=2), CardCounts(black=2, yellow=2),
                               CardCounts(orange=3, purple=1)],
                cardholders=[holder, CardCounts(white=2)],
                face_up=["green", "purple", "white", "orange", "black"], draw_pile=list(draw_pile))
    args.update(kw)
    return Game.from_position(**args)


def payment(t: TunnelClaimStepper, hand: CardCounts, holder: CardCounts = EMPTY):
    """The offered way to lay down ``hand`` + ``holder`` for the selected route."""
    found = [c for _, c in t.payment.options if c.hand == hand and c.cardholder == holder]
    assert found, f"no payment {hand!r} + {holder!r} among {option_labels(t.payment)}"
    return found[0]


# =================================================================================================
# CardSplitStepper
# =================================================================================================
def test_screen_before_the_first_card():
    s = CardSplitStepper(split_position())
    v = s.view()
    assert v.my_turn and v.phase is Phase.TURN and s.message_text == ""
    assert "Screen of A1" in plain(s.header.value) and "(I1)" in plain(s.header.value)
    assert "Pick your first card" in plain(s.step.value)
    row = plain(s.row.value)
    assert "Face-up cards" in row
    # every face-up card and the deck can be taken first: their buttons are highlighted
    assert [b.button_style for b in s.take] == ["primary"] * 5
    assert s.deck.button_style == "primary"
    assert s.deck.description == f"Draw from deck ({v.draw_pile_size} cards)" == "Draw from deck (7 cards)"
    assert s.to_hand.button_style == s.to_cardholder.button_style == ""
    assert s.drawn.value == ""
    cards = plain(s.cards.value)
    assert "Your hand" in cards and "Team A cardholder" in cards and "off-limits" in cards
    assert "Teammate A2's hand" in cards


def test_placing_before_drawing_names_rule_D1_and_changes_nothing():
    s = CardSplitStepper(split_position())
    before = s.session.game.to_json()
    click(s.to_hand)
    assert "rule D1" in s.message_text and kind(s) == "error"
    assert "Placing a drawn card is not possible now" in s.message_text
    click(s.to_cardholder)
    assert "rule D1" in s.message_text and kind(s) == "error"
    assert s.session.game.to_json() == before
    assert s.view().phase is Phase.TURN and s.view().hand == HAND_A1


def test_deck_card_to_hand_then_second_card_to_the_cardholder():
    s = CardSplitStepper(split_position())
    click(s.deck)  # the top of the stacked pile: yellow
    v = s.view()
    assert v.phase is Phase.PLACE_CARD and v.drawn_card is Color.YELLOW
    assert "You drew this card: yellow. Where does it go?" in s.message_text
    assert "rule D1" in s.message_text and kind(s) == "info"
    assert "Card you drew" in plain(s.drawn.value) and "where to?" in plain(s.drawn.value)
    assert "Decide now where it goes" in plain(s.step.value)
    assert s.to_hand.button_style == s.to_cardholder.button_style == "primary"
    assert [b.button_style for b in s.take] == [""] * 5 and s.deck.button_style == ""
    assert s.deck.description == "Draw from deck (6 cards)"
    assert v.hand == HAND_A1  # not placed yet

    click(s.to_hand)
    v = s.view()
    assert v.phase is Phase.SECOND_CARD and v.hand == HAND_A1 + CardCounts(yellow=1)
    assert "Placed. Your second card will go to" in s.message_text
    assert "cardholder" in s.message_text and "rule D1" in s.message_text
    assert kind(s) == "success" and s.drawn.value == ""
    assert "Pick your second card" in plain(s.step.value)
    # D3: the face-up locomotives (slots 0 and 3) are not highlighted for the second card
    assert [b.button_style for b in s.take] == ["", "primary", "primary", "", "primary"]

    click(s.deck)  # white, to the other place: the cardholder
    v = s.view()
    assert v.hand == HAND_A1 + CardCounts(yellow=1)
    assert v.team_cardholder == HOLDER_A + CardCounts(white=1)
    assert v.phase is Phase.TURN and not v.my_turn and v.to_move == 1
    assert "Your turn is over" in s.message_text and kind(s) == "success"
    assert "Not your turn" in plain(s.step.value)
    assert "white" in plain(s.cards.value) and "yellow" in plain(s.cards.value)
    history = plain(s.history.value)
    assert "A1 puts the first card in their hand (D1)" in history
    assert "it goes to the team cardholder (D1)" in history


def test_face_up_card_to_cardholder_then_second_face_up_card_to_hand():
    s = CardSplitStepper(split_position())
    click(s.take[1])  # red; the slot stays empty until the card is placed (D3 policy)
    v = s.view()
    assert v.drawn_card is Color.RED and v.face_up[1] is None
    assert "You drew this card: red" in s.message_text
    click(s.to_cardholder)
    assert "Your second card will go to your hand" in s.message_text
    assert s.view().face_up[1] is Color.YELLOW  # refilled from the pile once placed
    click(s.take[2])  # blue, to the hand; refilled with white
    v = s.view()
    assert v.team_cardholder == HOLDER_A + CardCounts(red=1)
    assert v.hand == HAND_A1 + CardCounts(blue=1)
    assert v.face_up[2] is Color.WHITE and v.to_move == 1


def test_second_face_up_locomotive_is_refused_with_rule_D3():
    s = CardSplitStepper(split_position())
    click(s.take[1])
    click(s.to_hand)
    before = s.session.game.to_json()
    click(s.take[0])  # a face-up locomotive as the second card
    assert "rule D3" in s.message_text and kind(s) == "error"
    assert "locomotive may not be taken as the second card" in s.message_text
    assert s.session.game.to_json() == before
    v = s.view()
    assert v.phase is Phase.SECOND_CARD and v.my_turn and v.face_up[0] is Color.LOCOMOTIVE
    click(s.take[3])  # the other one too
    assert "rule D3" in s.message_text and s.session.game.to_json() == before
    click(s.take[4])  # green is fine, to the cardholder
    v = s.view()
    assert v.team_cardholder == HOLDER_A + CardCounts(green=1) and v.to_move == 1


def test_face_up_locomotive_first_goes_to_the_team_cardholder_D2():
    s = CardSplitStepper(split_position())
    click(s.take[0])
    v = s.view()
    assert "rule D2" in s.message_text and kind(s) == "success"
    assert "went to the team cardholder and your draw is over" in s.message_text
    assert v.team_cardholder == HOLDER_A + CardCounts(locomotive=1)
    assert v.hand == HAND_A1  # not to the hand
    assert v.phase is Phase.TURN and v.to_move == 1  # the whole draw (D2)
    assert v.face_up[0] is Color.YELLOW  # refilled from the top of the pile
    assert "ends the draw (D2)" in plain(s.history.value)
    assert "locomotive" in plain(s.cards.value)


def test_drawing_again_before_placing_is_refused_with_rule_D1():
    s = CardSplitStepper(split_position())
    click(s.deck)
    before = s.session.game.to_json()
    click(s.take[2])
    assert "rule D1" in s.message_text and kind(s) == "error"
    assert "first say where the card you drew goes" in s.message_text
    click(s.deck)
    assert "rule D1" in s.message_text
    assert s.session.game.to_json() == before and s.view().phase is Phase.PLACE_CARD


def test_not_your_turn_then_the_bots_play():
    s = CardSplitStepper(split_position())
    click(s.others)  # it is A1's turn: the bots wait
    assert "It is your turn" in s.message_text and s.view().my_turn
    click(s.take[0])  # D2: the turn is over at once
    before = s.session.game.to_json()
    for b in (s.deck, s.take[1], s.to_hand, s.to_cardholder):
        click(b)
        assert "It is not your turn to" in s.message_text, b.description
        assert "Let the other players play" in s.message_text
    assert s.session.game.to_json() == before
    assert [b.button_style for b in s.take] == [""] * 5  # nothing is highlighted for A1
    click(s.others)
    v = s.view()
    assert v.my_turn and v.phase is Phase.TURN
    assert re.search(r"The bots played (1 step|(?:[02-9]|\d{2,}) steps); it is your turn again", s.message_text)
    assert len(v.events) > 3 and "B2" in plain(s.history.value)
    assert "Pick your first card" in plain(s.step.value)


def test_only_one_card_to_draw_ends_the_draw_D4():
    # Nothing in the draw pile or the discard; the face-up row holds one red and 2 locomotives.
    row = ["red", "locomotive", "locomotive", None, None]
    placed = HAND_A1 + HOLDER_A + CardCounts(red=1, locomotive=2)
    rest = standard_deck() - placed
    g = Game.from_position(seed=1, hands=[HAND_A1, CardCounts(), rest, CardCounts()],
                           cardholders=[HOLDER_A, CardCounts()], face_up=row,
                           draw_pile=[], discard=CardCounts())
    s = CardSplitStepper(g)
    assert s.deck.button_style == "" and s.deck.description == "Draw from deck (0 cards)"
    click(s.deck)
    assert "rule C6" in s.message_text and kind(s) == "error"
    click(s.take[3])  # an empty slot
    assert "rule D1" in s.message_text and "is empty" in s.message_text
    click(s.take[0])
    v = s.view()
    assert v.drawn_card is Color.RED and v.face_up[0] is None
    click(s.to_hand)
    v = s.view()
    assert "rule D4" in s.message_text and "No second card can be drawn" in s.message_text
    assert v.hand == HAND_A1 + CardCounts(red=1) and v.to_move == 1
    assert "no second card can be drawn, so the draw ends (D4)" in plain(s.history.value)


def test_empty_draw_pile_is_reshuffled_C6():
    s = CardSplitStepper(split_position(draw_pile=[]))  # everything else is in the discard
    assert s.view().draw_pile_size == 0 and s.deck.button_style == "primary"
    click(s.deck)
    v = s.view()
    assert v.phase is Phase.PLACE_CARD and v.drawn_card is not None
    assert len(v.discard) == 0 and v.draw_pile_size > 90
    assert "(C6)" in plain(s.history.value)


def test_three_face_up_locomotives_reset_the_row_C5():
    # Taking red from slot 1, then placing it, turns up the locomotive on top of the pile:
    # 3 locomotives (C5), so the row is replaced (D3 policy: only after the card is placed).
    s = CardSplitStepper(split_position(draw_pile=["locomotive", "white", "black", "orange",
                                                   "purple", "green", "red", "yellow"]))
    click(s.take[1])
    v = s.view()
    assert v.phase is Phase.PLACE_CARD and v.drawn_card is Color.RED and v.face_up[1] is None
    assert "(C5)" not in plain(s.history.value)
    click(s.to_hand)
    v = s.view()
    assert v.phase is Phase.SECOND_CARD
    assert sum(c is Color.LOCOMOTIVE for c in v.face_up) < 3
    assert v.face_up == (Color.WHITE, Color.BLACK, Color.ORANGE, Color.PURPLE, Color.GREEN)
    assert "(C5)" in plain(s.history.value)


def test_a_new_game_is_ready_to_play():
    s = CardSplitStepper(seed=5)
    v = s.view()
    assert v.phase is Phase.TURN and v.my_turn and len(v.hand) == 4
    assert len(v.tickets) + len(v.team_tickets) >= 3  # ticket setup (T1) done by the bots
    click(s.deck)
    click(s.to_cardholder)
    click(s.deck)
    v = s.view()
    assert not v.my_turn and len(v.hand) == 5 and len(v.team_cardholder) >= 1


def test_buttons_row_and_messages_name_the_face_up_slots_alike():
    s = CardSplitStepper(split_position(face_up=["red", "blue", "green", None, "white"]))
    assert [b.description for b in s.take] == [f"Take slot {i}" for i in range(5)]
    row = plain(s.row.value)
    assert all(f"slot {i}" in row for i in range(5))
    click(s.take[3])  # "Take slot 3": an empty slot
    assert "rule D1" in s.message_text and "face-up slot 3 is empty" in s.message_text
    click(s.take[1])  # "Take slot 1"
    assert "A1 draws a card from face-up slot 1" in plain(s.history.value)


# =================================================================================================
# TunnelClaimStepper
# =================================================================================================
PILE_TWO_MATCH = ["red", "green", "locomotive", "white", "black", "yellow"]  # reveal: 2 match red


def test_default_practice_position_and_route_list():
    t = TunnelClaimStepper()
    g = practice_position(0)
    v = t.view()
    assert v.hand == g.view(0).hand and v.team_cardholder == g.view(0).team_cardholder
    labels = option_labels(t.route)
    assert len(labels) == len(v.board.routes)  # nothing claimed yet
    payable = [lbl for lbl in labels if "cannot pay" not in lbl]
    assert payable and labels[:len(payable)] == payable  # payable routes first
    assert "tunnel" in labels[0]  # tunnels first among them
    assert t.payment.options and "P(you can pay the extra) =" in option_labels(t.payment)[0]
    odds_text = plain(t.odds_panel.value)
    assert "Before you lay down" in odds_text and "rule U2" in odds_text
    assert "Extra cards for" in odds_text
    assert t.message_text == "" and t.reveal_panel.value == ""
    assert t.pay_choice.options == () and t.pay_choice.value is None


def test_route_choice_updates_payments_and_odds():
    t = TunnelClaimStepper(tunnel_position(PILE_TWO_MATCH))
    choose(t.route, ROUTE)
    labels = option_labels(t.payment)
    assert labels and all("P(you can pay the extra) =" in lbl for lbl in labels)
    assert "3 red from your hand" in labels[0] or "from the team cardholder" in labels[0]
    text = plain(t.odds_panel.value)
    # the pile holds 6 cards; the discard (the rest of the deck) is seen by everyone
    assert "turns up 5 cards from a draw pile of 6" in text
    assert "red or locomotives (U2)" in text
    choose(t.route, "delhi-lahore-1")  # 2 red, not a tunnel
    assert "is not a tunnel" in plain(t.odds_panel.value)
    assert "rule K2" in plain(t.odds_panel.value)
    assert all("P(you can pay" not in lbl for lbl in option_labels(t.payment))
    unpayable = [rid for lbl, rid in t.route.options if "cannot pay" in lbl]
    assert "foochow-shanghai" in unpayable
    # Foochow - Shanghai: 3 green; A1 holds no green and 1 + 1 locomotives (hand + cardholder)
    choose(t.route, "foochow-shanghai")
    why = "costs 3 green cards or locomotives; your hand and the team cardholder hold 2, so 1 more"
    assert t.payment.options == () and why in plain(t.odds_panel.value)
    click(t.lay_down)
    assert "Choose a route you can pay for" in t.message_text
    assert why in t.message_text and "rule K1" in t.message_text
    assert t.view().phase is Phase.TURN and t.view().hand == HAND_T


def test_paying_turning_or_withdrawing_before_laying_down():
    t = TunnelClaimStepper(tunnel_position(PILE_TWO_MATCH))
    choose(t.route, ROUTE)
    before = t.session.game.to_json()
    click(t.pay)
    assert "rule U2" in t.message_text and kind(t) == "error"
    assert "Paying a tunnel's extra cards is not possible now" in t.message_text
    click(t.turn_next)
    assert "There is no tunnel card left to turn" in t.message_text
    click(t.withdraw)
    assert "rule U3" in t.message_text and kind(t) == "error"
    assert "Taking tunnel cards back is not possible now" in t.message_text
    assert t.session.game.to_json() == before and t.reveal_panel.value == ""


def test_using_the_teammates_cards_is_refused_with_rule_K1():
    t = TunnelClaimStepper(tunnel_position(PILE_TWO_MATCH))
    choose(t.route, ROUTE)
    before = t.session.game.to_json()
    click(t.teammate_cards)
    assert "rule K1" in t.message_text and kind(t) == "error"
    assert "teammate's hand cannot pay for your route" in t.message_text
    assert t.session.game.to_json() == before
    v = t.view()
    assert v.phase is Phase.TURN and v.my_turn and v.hand == HAND_T and ROUTE not in v.claimed
    assert "Teammate A2's hand" in plain(t.cards.value)
    assert "off-limits" in plain(t.cards.value)


def test_tunnel_claim_turn_cards_and_pay_U1_U2_U4():
    t = TunnelClaimStepper(tunnel_position(PILE_TWO_MATCH))
    choose(t.route, ROUTE)
    choose(t.payment, payment(t, CardCounts(red=3)))
    # only 2 of the 20 unseen cards match and 3 are still in hand and cardholder: always payable
    assert "pay whatever is revealed is 1 = 100%: always" in plain(t.odds_panel.value)
    click(t.lay_down)
    v = t.view()
    assert "rule U1" in t.message_text and "Now turn the revealed cards one by one" in t.message_text
    assert v.phase is Phase.TUNNEL and v.my_turn
    assert v.hand == HAND_T - CardCounts(red=3) and v.team_cardholder == HOLDER_T
    assert v.tunnel.revealed == (Color.RED, Color.GREEN, Color.LOCOMOTIVE, Color.WHITE,
                                 Color.BLACK)
    assert v.tunnel.extra == 2 and v.tunnel.color is Color.RED
    panel = plain(t.reveal_panel.value)
    assert "Tunnel reveal (0 of 5 turned)" in panel and panel.count("face down") == 5
    # no new claim meanwhile: the laid cards stay shown, locked, with the odds you had
    assert t.payment.disabled and t.route.disabled and option_labels(t.payment) == [
        "3 red from your hand"]
    assert "When you laid down" in plain(t.odds_panel.value)
    assert "1 = 100%: always" in plain(t.odds_panel.value)

    click(t.pay)  # too early
    assert "Turn the revealed cards first" in t.message_text and "rule U3" in t.message_text
    assert t.view().phase is Phase.TUNNEL

    expected = [("red", True), ("green", False), ("locomotive", True), ("white", False)]
    for i, (colour, hit) in enumerate(expected, start=1):
        click(t.turn_next)
        assert f"Card {i} of 5: {colour}." in t.message_text
        assert ("It matches" in t.message_text) is hit and ("No match" in t.message_text) is not hit
        assert kind(t) == ("warning" if hit else "info") and "rule U2" in t.message_text
        assert f"Tunnel reveal ({i} of 5 turned)" in plain(t.reveal_panel.value)
    click(t.turn_next)  # the last card: the summary
    assert "2 revealed cards match: pay 2 more cards" in t.message_text
    assert kind(t) == "warning" and "rule U2" in t.message_text
    panel = plain(t.reveal_panel.value)
    assert "(5 of 5 turned)" in panel and panel.count("match") == 2 and "face down" not in panel
    click(t.turn_next)
    assert "There is no tunnel card left to turn" in t.message_text

    labels = option_labels(t.pay_choice)
    assert set(labels) == {"1 locomotive from your hand + 1 locomotive from the team cardholder",
                           "1 red, 1 locomotive from the team cardholder",
                           "1 locomotive from your hand + 1 red from the team cardholder"}
    # in the tunnel phase no other claim can be made
    click(t.teammate_cards)
    assert "rule U3" in t.message_text and t.view().phase is Phase.TUNNEL

    pay = [a for lbl, a in t.pay_choice.options if lbl == "1 red, 1 locomotive from the team cardholder"]
    choose(t.pay_choice, pay[0])
    click(t.pay)
    v = t.view()
    assert "rule U4" in t.message_text and "the tunnel is yours" in t.message_text
    assert kind(t) == "success"
    assert v.claimed[ROUTE] == 0 and v.trains[0] == TRAINS_PER_PLAYER - 3
    assert v.hand == CardCounts(blue=1, locomotive=1)
    assert v.team_cardholder == CardCounts(blue=2)
    assert v.phase is Phase.TURN and v.to_move == 1 and v.tunnel is None
    assert "A1 claims Kathmandu - Lhasa" in plain(t.history.value)
    assert not any(rid == ROUTE for _, rid in t.route.options)  # claimed: no longer offered


def test_tunnel_withdraw_returns_the_laid_cards_U3():
    pile = ["locomotive", "green", "white", "red", "black", "yellow"]
    t = TunnelClaimStepper(tunnel_position(pile))
    choose(t.route, ROUTE)
    # lay down from both places: 2 red from the hand and 1 red from the cardholder
    choose(t.payment, payment(t, CardCounts(red=2), CardCounts(red=1)))
    click(t.lay_down)
    v = t.view()
    assert v.hand == HAND_T - CardCounts(red=2)
    assert v.team_cardholder == HOLDER_T - CardCounts(red=1)
    assert v.tunnel.extra == 2
    for _ in range(5):
        click(t.turn_next)
    assert "2 revealed cards match" in t.message_text
    discard_before = v.discard
    click(t.withdraw)
    v = t.view()
    assert "rule U3" in t.message_text and "You took your laid cards back" in t.message_text
    assert v.hand == HAND_T and v.team_cardholder == HOLDER_T  # back where they came from
    assert ROUTE not in v.claimed and v.trains[0] == TRAINS_PER_PLAYER
    assert v.discard == discard_before + CardCounts(locomotive=1, green=1, white=1, red=1,
                                                    black=1)  # U4
    assert v.phase is Phase.TURN and v.to_move == 1 and v.tunnel is None
    assert "takes the cards back" in plain(t.history.value)
    # after the turn: nothing more to pay or withdraw
    click(t.withdraw)
    assert kind(t) == "error" and t.view().hand == HAND_T
    click(t.others)
    v = t.view()
    assert v.my_turn and "it is your turn again" in t.message_text
    assert t.reveal_panel.value == ""


def test_tunnel_with_no_match_is_claimed_at_once():
    pile = ["green", "white", "black", "yellow", "purple", "orange"]
    t = TunnelClaimStepper(tunnel_position(pile))
    choose(t.route, ROUTE)
    choose(t.payment, payment(t, CardCounts(red=3)))
    click(t.lay_down)
    v = t.view()
    assert v.claimed[ROUTE] == 0 and v.phase is Phase.TURN and v.to_move == 1
    assert "Now turn the revealed cards" in t.message_text
    for i in range(1, 6):
        click(t.turn_next)
        if i < 5:
            assert f"Card {i} of 5" in t.message_text and "No match" in t.message_text
    assert "No revealed card matches" in t.message_text and kind(t) == "success"
    assert t.pay_choice.options == ()


def test_extra_cost_too_high_can_only_be_withdrawn():
    # all red in hand laid down; the reveal asks for 4 more, A1 has 1 + 1 locomotive left
    pile = ["red", "locomotive", "red", "locomotive", "green", "white"]
    t = TunnelClaimStepper(tunnel_position(pile))
    choose(t.route, ROUTE)
    choose(t.payment, payment(t, CardCounts(red=3)))
    click(t.lay_down)
    for _ in range(5):
        click(t.turn_next)
    assert "4 revealed cards match" in t.message_text
    assert t.pay_choice.options == ()
    click(t.pay)
    assert "rule U2" in t.message_text and "exactly 4 more cards" in t.message_text
    assert t.view().phase is Phase.TUNNEL
    click(t.withdraw)
    assert t.view().hand == HAND_T and "rule U3" in t.message_text


def test_locomotives_only_claim_matches_only_locomotives_U5():
    hand, holder = CardCounts(locomotive=2, green=1), CardCounts(locomotive=2)
    pile = ["red", "locomotive", "green", "white", "black", "yellow"]
    t = TunnelClaimStepper(tunnel_position(pile, hand=hand, holder=holder))
    choose(t.route, ROUTE)
    loco = payment(t, CardCounts(locomotive=2), CardCounts(locomotive=1))
    choose(t.payment, loco)
    assert "locomotives only (U5)" in plain(t.odds_panel.value)
    click(t.lay_down)
    assert t.view().tunnel.color is Color.LOCOMOTIVE and t.view().tunnel.extra == 1
    click(t.turn_next)
    assert "Card 1 of 5: red. No match." in t.message_text and "rule U5" in t.message_text
    click(t.turn_next)
    assert "locomotive. It matches" in t.message_text and "rule U5" in t.message_text
    for _ in range(3):
        click(t.turn_next)
    assert option_labels(t.pay_choice) == ["1 locomotive from the team cardholder"]
    click(t.pay)
    v = t.view()
    assert v.claimed[ROUTE] == 0 and v.hand == CardCounts(green=1) and not v.team_cardholder


def test_nothing_left_to_reveal_U6():
    # the draw pile and the discard are empty: the tunnel reveals nothing
    placed = HAND_T + HOLDER_T + CardCounts(green=1, purple=1, white=1, orange=1, black=1)
    rest = standard_deck() - placed
    g = Game.from_position(seed=0, hands=[HAND_T, rest, CardCounts(), CardCounts()],
                           cardholders=[HOLDER_T, CardCounts()],
                           face_up=["green", "purple", "white", "orange", "black"],
                           draw_pile=[], discard=CardCounts())
    t = TunnelClaimStepper(g)
    choose(t.route, ROUTE)
    choose(t.payment, payment(t, CardCounts(red=3)))
    click(t.lay_down)
    assert "rule U6" in t.message_text and "nothing left to reveal" in t.message_text
    assert t.view().claimed[ROUTE] == 0
    assert "nothing to reveal" in plain(t.reveal_panel.value)


def test_plain_route_is_claimed_at_once_K4():
    t = TunnelClaimStepper(tunnel_position(PILE_TWO_MATCH))
    choose(t.route, "delhi-lahore-1")  # 2 red
    choose(t.payment, payment(t, CardCounts(red=2)))
    click(t.lay_down)
    v = t.view()
    assert "rule K4" in t.message_text and "Route claimed" in t.message_text
    assert v.claimed["delhi-lahore-1"] == 0 and v.hand == HAND_T - CardCounts(red=2)
    assert t.reveal_panel.value == "" and v.to_move == 1
    click(t.others)
    assert t.view().my_turn and "it is your turn again" in t.message_text


def test_history_does_not_spoil_the_reveal_before_the_cards_are_turned():
    t = TunnelClaimStepper(tunnel_position(PILE_TWO_MATCH))
    choose(t.route, ROUTE)
    choose(t.payment, payment(t, CardCounts(red=3)))
    click(t.lay_down)
    assert "(0 of 5 turned)" in plain(t.reveal_panel.value)
    history = plain(t.history.value)
    assert "revealed red, green, locomotive" not in history, history
    assert "owed (U1, U2)" not in history, history
    for _ in range(4):
        click(t.turn_next)
        assert "owed (U1, U2)" not in plain(t.history.value)
    click(t.turn_next)  # all turned: the log may tell the whole attempt now
    assert "revealed red, green, locomotive, white, black; 2 extra cards owed" in \
        plain(t.history.value)


def test_cards_not_yet_turned_are_backs_that_give_nothing_away():
    t = TunnelClaimStepper(tunnel_position(PILE_TWO_MATCH))
    choose(t.route, ROUTE)
    choose(t.payment, payment(t, CardCounts(red=3)))
    click(t.lay_down)
    markup = re.sub(r"<style.*?</style>", "", t.reveal_panel.value, flags=re.S)
    assert "empty" not in plain(markup) and plain(markup).count("face down") == 5
    colours = "red|green|locomotive|white|black|yellow|blue|orange|purple"
    assert not re.search(rf"ttr-card-({colours})|title=\"({colours})", markup, flags=re.I)
    click(t.turn_next)
    markup = re.sub(r"<style.*?</style>", "", t.reveal_panel.value, flags=re.S)
    assert "ttr-card-red" in markup and plain(markup).count("face down") == 4
    assert "ttr-card-green" not in markup


def test_a_refused_click_keeps_the_learners_choice_of_cards():
    t = TunnelClaimStepper(tunnel_position(PILE_TWO_MATCH))
    choose(t.route, ROUTE)
    mine = payment(t, CardCounts(red=2), CardCounts(red=1))
    choose(t.payment, mine)
    click(t.teammate_cards)  # refused (K1): nothing changes in the game
    assert "rule K1" in t.message_text
    click(t.lay_down)
    v = t.view()
    assert v.tunnel.laid_hand == CardCounts(red=2) and v.tunnel.laid_holder == CardCounts(red=1)


def test_a_refused_click_keeps_the_learners_choice_of_extra_cards():
    t = TunnelClaimStepper(tunnel_position(PILE_TWO_MATCH))
    choose(t.route, ROUTE)
    choose(t.payment, payment(t, CardCounts(red=3)))
    click(t.lay_down)
    for _ in range(5):
        click(t.turn_next)
    mine = [a for lbl, a in t.pay_choice.options if lbl == "1 red, 1 locomotive from the team cardholder"]
    choose(t.pay_choice, mine[0])
    click(t.teammate_cards)  # refused (U3): the game waits for the payment
    assert "rule U3" in t.message_text
    click(t.pay)
    v = t.view()
    assert v.claimed[ROUTE] == 0
    assert v.hand == CardCounts(blue=1, locomotive=1) and v.team_cardholder == CardCounts(blue=2)


def test_a_seat_that_cannot_draw_is_not_stuck():
    rest = standard_deck() - HAND_A1 - HOLDER_A
    g = Game.from_position(seed=1, hands=[HAND_A1, CardCounts(), rest, CardCounts()],
                           cardholders=[HOLDER_A, CardCounts()], face_up=[None] * 5,
                           draw_pile=[], discard=CardCounts())
    s = CardSplitStepper(g)
    click(s.deck)
    assert "rule C6" in s.message_text
    turns = s.session.game.turns
    click(s.others)  # the only way on that the widget offers
    assert s.session.game.turns > turns, s.message_text


def test_clicks_after_the_game_is_over_say_so():
    s = CardSplitStepper(seed=0)
    for _ in range(1000):
        if s.session.game.is_over:
            break
        if not s.view().my_turn:
            click(s.others)
            continue
        legal = s.session.game.legal_actions()
        sources = [a.source for a in legal if isinstance(a, act.DrawCard)]
        if any(isinstance(a, act.PlaceCard) for a in legal):
            click(s.to_hand)
        elif "deck" in sources:
            click(s.deck)
        elif sources:
            click(s.take[sources[0]])
        else:
            click(s.others)  # A1 cannot draw at all: a bot plays the turn (D4)
    assert s.session.game.is_over
    click(s.deck)
    assert "over" in s.message_text, s.message_text


def test_pay_choices_do_not_spoil_the_reveal_before_the_cards_are_turned():
    t = TunnelClaimStepper(tunnel_position(PILE_TWO_MATCH))
    choose(t.route, ROUTE)
    choose(t.payment, payment(t, CardCounts(red=3)))
    click(t.lay_down)
    assert "(0 of 5 turned)" in plain(t.reveal_panel.value)
    assert t.pay_choice.options == (), option_labels(t.pay_choice)
