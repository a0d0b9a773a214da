"""Nothing hidden in any widget model (rule I1, issue 10 item 4).

Everything in a widget's state reaches the learner's browser. These tests walk every live model
of the ipywidgets registry (``ipywidgets.widgets.widget._instances`` in ipywidgets 8; the old
``Widget.widgets`` is deprecated) and compare the serialized states (``get_state()`` without the
``_view_*`` keys, model ids replaced by their place in the registry) between two games that
differ only in what the viewing seat cannot see. Equal states mean the page depends only on what
that seat may know.

Two ways of dealing anew:
* ``two_runs``: the same clicks on two games dealt differently *before* a secret is drawn (the
  tunnel's reveal, a teammate's ticket offer and choice). This also catches replaced controls
  left open, since every live model is compared.
* ``same_after_redeal``: at a given moment, the widget is drawn again on a copy of its game in
  which everything the seat cannot see is dealt anew (``Game.resample_hidden`` for the cards,
  and below for the tickets), and must not change.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from fractions import Fraction

import numpy as np
import pytest
from ipywidgets.widgets.widget import Widget, _instances
from widget_drivers import click_a_move

import ttrlib.widgets
from ttrlib import Game, Phase
from ttrlib.cards import CardCounts
from ttrlib.lessons.answers import load_key
from ttrlib.lessons.tunnels import practice_position
from ttrlib.widgets import base
from ttrlib.widgets.base import Screen
from ttrlib.widgets.card_split import CardSplitStepper
from ttrlib.widgets.exercise import ExerciseWidget
from ttrlib.widgets.odds_explorer import OddsExplorer
from ttrlib.widgets.team_game import TeamGame
from ttrlib.widgets.tickets import TicketStepper
from ttrlib.widgets.tunnel_claim import TunnelClaimStepper

TUNNEL = "kathmandu-lhasa-1"  # 3 red, reveals 5 (U1)


# --- the registry, serialized -------------------------------------------------------------------
def registry_states() -> list[dict]:
    """Every live model's state in creation order, model references as registry positions."""
    ids = list(_instances)
    place = {mid: i for i, mid in enumerate(ids)}

    def norm(v):
        if isinstance(v, str) and v.startswith("IPY_MODEL_"):
            return f"model#{place.get(v[len('IPY_MODEL_'):], 'closed')}"
        if isinstance(v, (list, tuple)):
            return [norm(x) for x in v]
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items()}
        return v

    return [{k: norm(v) for k, v in _instances[mid].get_state().items()
             if not k.startswith("_view_")} for mid in ids]


def first_difference(a: list[dict], b: list[dict]) -> str:
    if len(a) != len(b):
        return f"{len(a)} live models against {len(b)}"
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            keys = [k for k in x if x.get(k) != y.get(k)]
            return f"model #{i} ({x.get('_model_name')}) differs in {keys}: " \
                   f"{[str(x.get(k))[:300] for k in keys]} / {[str(y.get(k))[:300] for k in keys]}"
    return ""


@pytest.fixture(autouse=True)
def empty_registry():
    Widget.close_all()
    yield
    Widget.close_all()


def two_runs(run) -> None:
    """``run(variant)`` returns a list of registry snapshots; both variants must agree."""
    snaps = []
    for variant in (0, 1):
        Widget.close_all()
        snaps.append(run(variant))
    assert len(snaps[0]) == len(snaps[1]) > 0
    for step, (a, b) in enumerate(zip(*snaps)):
        assert a == b, f"step {step}: {first_difference(a, b)}"


# --- dealing anew what a seat cannot see --------------------------------------------------------
def same_after_redeal(widget, seeds=(1, 2)) -> int:
    """Draw ``widget`` on copies of its game dealt anew; the registry must not change. Returns
    how many copies differed from the real game at all (so the check has teeth)."""
    session = widget.session
    real = session._game
    widget.render()
    base = registry_states()
    changed = 0
    try:
        for s in seeds:
            other = real.resample_hidden(session.seat, np.random.default_rng(s))
            changed += other.to_json() != real.to_json()
            session._game = other
            widget.render()
            assert registry_states() == base, first_difference(base, registry_states())
            session._game = real
            widget.render()
    finally:
        session._game = real
        widget.render()
    return changed


# --- the widgets --------------------------------------------------------------------------------
def test_ticket_stepper_hot_seat_keeps_each_teammates_choice_off_the_other_screen():
    """T1, I1: while A2 chooses, nothing of A1's offer or choice is in the page (A1's
    checkboxes are closed); A1's offer and choice differ between the two runs."""

    def run(variant: int) -> list:
        game = Game.new(players=4, seed=3)
        if variant:  # A1 is dealt other tickets (hidden from A2): swap them with the deck's
            a1, deck = game.offers[0], game.ticket_deck
            game.offers[0], game.ticket_deck = deck[:5], a1 + deck[5:]
        t = TicketStepper(game, seed=3)
        offer = list(t.chooser.tickets)
        keep = offer[1:4] if variant else offer[:3]  # A1 chooses differently too
        for box, tid in zip(t.keep_boxes, offer):
            box.value = tid in keep
        t.share_choice.value = keep[-1]
        t.confirm.click()
        assert t.stage == "curtain"
        snaps = [registry_states()]
        t.confirm.click()  # refused: pass the screen first
        snaps.append(registry_states())
        t.continue_button.click()
        assert t.stage == "setup" and t.seat == 1
        snaps.append(registry_states())
        for box in t.keep_boxes[:2]:  # A2 ticks two, then tries to confirm: refused (T1)
            box.value = True
            snaps.append(registry_states())
        t.confirm.click()
        snaps.append(registry_states())
        return snaps

    two_runs(run)


def test_ticket_stepper_keeps_a2s_private_tickets_off_a1s_screen():
    """After both chose, A1's screen holds nothing of A2's private choice (A2's checkboxes are
    closed). A2's offer differs between the runs except the ticket A2 shares."""

    def run(variant: int) -> list:
        game = Game.new(players=4, seed=5)
        if variant:
            a2, deck = game.offers[1], game.ticket_deck
            game.offers[1], game.ticket_deck = a2[:1] + deck[:4], a2[1:] + deck[4:]
        t = TicketStepper(game, seed=5)
        offer = list(t.chooser.tickets)
        for box, tid in zip(t.keep_boxes, offer):
            box.value = tid in offer[:3]
        t.share_choice.value = offer[0]
        t.confirm.click()
        t.continue_button.click()
        offer = list(t.chooser.tickets)
        for box, tid in zip(t.keep_boxes, offer):
            box.value = tid in offer[:3]  # A2 keeps its first 3 and shares the first one
        t.share_choice.value = offer[0]
        t.confirm.click()
        assert t.stage == "revealed"
        t.start_button.click()
        assert t.stage == "play" and t.seat == 0
        return [registry_states()]

    two_runs(run)


def test_tunnel_claim_shows_nothing_of_the_reveal_before_a_card_is_turned():
    """U1-U3: the engine turns the tunnel's cards at once (and settles a tunnel with no match);
    until the learner turns a card, every model is the same whatever the reveal. Several deals
    of the hidden cards, some with a matching reveal and some without."""
    phases = set()

    def run_with(deal_seed: int):
        def run(variant: int) -> list:
            game = practice_position(seed=2)
            if variant:
                game = game.resample_hidden(0, np.random.default_rng(deal_seed))
            t = TunnelClaimStepper(game, seed=2)
            t.route.value = TUNNEL
            red3 = [c for _, c in t.payment.options if c.hand == CardCounts(red=3)]
            t.payment.value = red3[0]
            snaps = [registry_states()]
            t.lay_down.click()
            phases.add((variant, t.session.game.phase))
            snaps.append(registry_states())
            for control in (t.pay, t.withdraw, t.others, t.lay_down, t.teammate_cards):
                control.click()  # all wait for the reveal
                snaps.append(registry_states())
            return snaps
        return run

    for deal_seed in range(6):
        two_runs(run_with(deal_seed))
    # teeth: among these deals the engine both settled the tunnel at once and asked for more
    assert {p for _, p in phases} == {Phase.TURN, Phase.TUNNEL}


def test_tunnel_stepper_after_the_reveal_depends_only_on_the_seat():
    t = TunnelClaimStepper(seed=4)
    t.route.value = TUNNEL
    t.lay_down.click()
    changed = 0
    while t.turning:
        t.turn_next.click()
        changed += same_after_redeal(t)
    (t.withdraw if t.session.game.phase is Phase.TUNNEL else t.others).click()
    changed += same_after_redeal(t)
    t.others.click()
    changed += same_after_redeal(t)
    assert changed


def test_card_split_stepper_depends_only_on_the_seat():
    s = CardSplitStepper(seed=9)
    changed = 0
    for _turn in range(8):
        if s.session.is_over:
            break
        changed += same_after_redeal(s)
        s.deck.click()
        changed += same_after_redeal(s)
        s.to_cardholder.click()
        changed += same_after_redeal(s)
        legal = [i for i, b in enumerate(s.take) if b.button_style == "primary"]
        (s.take[legal[0]] if legal else s.deck).click()
        changed += same_after_redeal(s)
        s.others.click()
    assert changed


def test_team_game_over_several_turns_depends_only_on_the_seat(tmp_path, monkeypatch):
    monkeypatch.setenv("TTRLIB_SAVE_KEY", str(tmp_path / "key"))
    g = TeamGame(seed=21, save_folder=tmp_path / "saves")
    offer = list(g.chooser.tickets)
    for box, tid in zip(g.chooser.boxes, offer):
        box.value = tid in offer[:3]
    g.chooser.share_choice.value = offer[0]
    g.chooser.confirm.click()
    changed = 0
    for _step in range(40):
        if g.session.is_over:
            break
        changed += same_after_redeal(g)
        view = g.view()
        if not view.my_turn:
            g.others.click()
        else:
            changed += click_a_move(g, view, lambda: same_after_redeal(g))
    g.save_button.click()
    assert "Saved as" in g.message_text
    changed += same_after_redeal(g)
    assert changed
    # nothing of the save reaches the page: no signature, no draw pile, no random state
    saved = (tmp_path / "saves" / f"{g.save_slot.value}.ttrsave").read_text()
    signature = saved.split("\n", 1)[0].split(" ")[1]
    page = repr(registry_states())
    assert signature not in page and '"draw_pile"' not in page and "bit_generator" not in page


def test_coach_hint_depends_only_on_the_seat():
    """Issue 34: the coach's hint, asked twice (a move chosen, then a claim chosen), is the same
    on two games that differ only in what A1 cannot see."""
    from ttrlib.bots import GreedyBot, decide

    def run(variant: int) -> list:
        game = Game.new(players=4, seed=5)
        bots = [GreedyBot(seed=s) for s in range(4)]
        while not (game.to_move == 0 and game.phase is Phase.TURN and game.turns > 20):
            game.apply(decide(game, bots[game.to_move]))
        if variant:
            other = game.resample_hidden(0, np.random.default_rng(8))
            assert other.state.hands[1:] != game.state.hands[1:]
            game = other
        g = TeamGame(game, 0)
        g.coach.ask.click()
        snaps = [registry_states()]
        assert "The coach would" in g.coach.text.value
        payable = [rid for label, rid in g.route.options if label.startswith("✓")]
        g.route.value = payable[-1]
        g.coach.ask.click()
        snaps.append(registry_states())
        return snaps

    two_runs(run)


def test_odds_explorer_state_is_its_settings_and_seed_only():
    def run(variant: int) -> list:
        ox = OddsExplorer(reveal=5, seed=77)
        ox.trials.value = 1_000
        ox.discard.value = 5  # clamped, and said why
        ox.unseen.value = 60
        ox.discard.value = 20
        ox.draw_pile.value = 3
        ox.run_simulation()
        return [registry_states()]

    two_runs(run)


def test_an_exercise_shows_nothing_of_its_answer_before_it_is_asked_for():
    """The key's answer reaches the page only with "Show the answer": two keys that differ only
    in the answer give the same page through two wrong tries (feedback, hint, worked step)."""
    ex = load_key("03")["locomotives-needed"]  # a whole number, typed in a box
    assert ex.kind == "number"

    def run(variant: int) -> list:
        key = ex if variant == 0 else dataclasses.replace(ex, answer=ex.answer + 7)
        widget = ExerciseWidget(key, number=1, teacher=False)
        snaps = [registry_states()]
        wrong = str(Fraction(ex.answer) + 100)  # wrong for both keys
        for _try in range(2):
            widget.answer_box.value = wrong
            widget.check()
            snaps.append(registry_states())
        assert "Not yet (try 2)" in widget.feedback_text
        return snaps

    two_runs(run)


# --- every screen is driven -----------------------------------------------------------------------
#: The tests above that drive each screen class. A new screen (any subclass of
#: ``ttrlib.widgets.base.Screen``) fails ``test_every_screen_class_is_driven`` until a test here
#: drives it and names it.
DRIVEN_BY = {
    TicketStepper: [test_ticket_stepper_hot_seat_keeps_each_teammates_choice_off_the_other_screen,
                    test_ticket_stepper_keeps_a2s_private_tickets_off_a1s_screen],
    TunnelClaimStepper: [test_tunnel_claim_shows_nothing_of_the_reveal_before_a_card_is_turned,
                         test_tunnel_stepper_after_the_reveal_depends_only_on_the_seat],
    CardSplitStepper: [test_card_split_stepper_depends_only_on_the_seat],
    TeamGame: [test_team_game_over_several_turns_depends_only_on_the_seat],
    OddsExplorer: [test_odds_explorer_state_is_its_settings_and_seed_only],
    ExerciseWidget: [test_an_exercise_shows_nothing_of_its_answer_before_it_is_asked_for],
}


def screen_classes() -> set[type]:
    """Every screen class of the package, found by itself: each module of ``ttrlib.widgets`` is
    imported, then every subclass of ``Screen`` (at any depth) counts, but for the bases that
    ``ttrlib.widgets.base`` itself defines."""
    for info in pkgutil.iter_modules(ttrlib.widgets.__path__):
        importlib.import_module(f"ttrlib.widgets.{info.name}")
    found, todo = set(), [Screen]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return {c for c in found
            if c.__module__.startswith("ttrlib.widgets.") and c.__module__ != base.__name__}


def test_every_screen_class_is_driven():
    classes = screen_classes()
    assert len(classes) >= 6  # teeth: the discovery finds the package's screens
    undriven = sorted(c.__qualname__ for c in classes - set(DRIVEN_BY))
    assert not undriven, f"no secrets test drives {undriven}: add one to this file"
