"""Every refusal a widget can meet is said in the words of the rules (issue 32, item 1).

Lesson 08's likeliest slip ("Confirm my setup tickets" with nothing ticked, two ticked, or three
and no share) showed a field of the engine's action ("KeepTickets.share: ... not None") or, at a
class table, "Something went wrong (TableError: the class server refused (400: ...))". Here, in
every phase a seat can be in, every control of the team game (and of the tickets lesson) is
pressed with every kind of incomplete choice, on a local game and at a class table (the
in-process server of ``table_fakes``): each refusal must name a rule, and no message may name a
field, a class, ``None`` or an exception. The ticket choosers also say what is missing before
the button is pressed.
"""

from __future__ import annotations

import re

import pytest
from bot_games import finished_bot_game
from ipywidgets.widgets.widget import Widget
from table_fakes import InProcess

from ttrlib import Game, Phase
from ttrlib import actions as act
from ttrlib.bots import GreedyBot
from ttrlib.cards import CardCounts
from ttrlib.widgets import TeamGame, TicketStepper

TUNNEL = "kathmandu-lhasa-1"  # Kathmandu - Lhasa, 3 red tunnel (U1)
#: words a learner must never read in a refusal: a field of an action, a class, a Python value
FORBIDDEN = re.compile(r"[A-Z][a-z]+[A-Z][A-Za-z]*\.[a-z]|\bNone\b|Error|went wrong|Traceback")


@pytest.fixture(autouse=True)
def empty_registry():
    Widget.close_all()
    yield
    Widget.close_all()


def _position(draw_pile=("red", "green", "locomotive", "white", "black", "yellow")) -> Game:
    """Seat A1 to move with cards for the red tunnel and two private tickets (for T4)."""
    g = Game.new(players=4, seed=3)
    tickets = [list(g.board.tickets[i * 3 + j].id for j in range(2)) for i in range(4)]
    return Game.from_position(
        seed=0, hands=[CardCounts(red=3, blue=1), CardCounts(green=2, white=2),
                       CardCounts(black=2, yellow=2), CardCounts(orange=3, purple=1)],
        cardholders=[CardCounts(red=1, locomotive=1), CardCounts(white=2)],
        face_up=["green", "purple", "white", "orange", "black"], draw_pile=list(draw_pile),
        tickets=tickets)


def _over() -> Game:
    return finished_bot_game(4, 5, bot=GreedyBot, bot_seeds=range(4))


def game_at(phase: Phase) -> Game:
    """A game with seat A1 to decide in ``phase``."""
    if phase is Phase.SETUP_TICKETS:
        return Game.new(players=4, seed=21)
    if phase is Phase.OVER:
        return _over()
    game = _position()
    first = {Phase.PLACE_CARD: [act.DrawCard("deck")],
             Phase.SECOND_CARD: [act.DrawCard("deck"), act.PlaceCard("hand")],
             Phase.CHOOSE_TICKETS: [act.DrawTickets()],
             Phase.TUNNEL: [act.Claim(TUNNEL, hand=CardCounts(red=3))]}.get(phase, [])
    for a in first:
        game.apply(a)
    assert game.phase is phase and (phase is Phase.OVER or game.to_move == 0)
    return game


def _tick(chooser, n: int, share: int | None) -> None:
    for i, box in enumerate(chooser.boxes):
        box.value = i < n
    if share is None or not chooser.tickets:
        chooser.share_choice.value = None
    else:
        chooser.share_choice.value = chooser.tickets[min(share, len(chooser.tickets) - 1)]


#: incomplete (and a few complete) choices: (ticked, index of the shared ticket)
CHOICES = [(0, None), (1, None), (2, None), (2, 0), (3, None), (3, 4), (1, 3), (5, None)]


def pokes(g: TeamGame) -> list:
    """Every press a learner can make on the team game's controls, one per entry."""
    out: list = [lambda b=b: b.click() for b in g.take]
    out += [g.deck.click, g.to_hand.click, g.to_cardholder.click, g.pay_button.click,
            g.withdraw_button.click, g.draw_tickets.click]
    for ticked, share in CHOICES:
        out.append(lambda t=ticked, s=share: (_tick(g.chooser, t, s), g.chooser.confirm.click()))
    for ticked in (0, 1, 2):
        out.append(lambda t=ticked: (_tick(g.sharer, t, None), g.sharer.confirm.click()))
    for route in (None, TUNNEL, "first"):
        def claim(route=route):
            if route == "first":
                g.route.value = g.route.options[0][1] if g.route.options else None
            elif route is not None and route in [r for _, r in g.route.options]:
                g.route.value = route
            g.claim_button.click()
        out.append(claim)
    return out


def _refusals(g) -> list[tuple[str, str]]:
    """(kind, text) of the message line and of the choosers' 'still missing' lines."""
    from test_widgets_slips import plain

    found = []
    for markup in (g.message.value, getattr(g.chooser, "missing", g.message).value):
        kind = re.search(r"ttr-msg ttr-msg-(\w+)", markup)
        if kind:
            found.append((kind.group(1), plain(markup)))
    return found


def _check(found: list[tuple[str, str]], where: str) -> int:
    errors = 0
    for kind, text in found:
        assert not FORBIDDEN.search(text), f"{where}: {text!r}"
        assert kind != "warning" or "went wrong" not in text, f"{where}: {text!r}"
        if kind == "error":
            errors += 1
            assert re.match(r"\S+ rule [A-Z]\d ", text), f"{where}: a refusal names no rule: {text!r}"
    return errors


def _local(phase):
    return TeamGame(game_at(phase), bots=[GreedyBot(seed=s) for s in range(4)])


def _remote(tmp_path, phase):
    fake = InProcess(tmp_path / f"{phase.value}.sqlite3")
    table = fake.store.create(4, 21, {"A2": "greedy", "B1": "greedy", "B2": "greedy"})
    table.game = game_at(phase)
    table.cache.clear()
    return TeamGame(session=fake.session(table, 0))


PHASES = list(Phase)


@pytest.mark.parametrize("phase", PHASES, ids=[p.value for p in PHASES])
@pytest.mark.parametrize("where", ["local", "table"])
def test_every_refusal_of_the_team_game_names_a_rule_and_no_field(phase, where, tmp_path):
    make = (lambda: _local(phase)) if where == "local" else (lambda: _remote(tmp_path, phase))
    n = len(pokes(make()))
    errors = 0
    for i in range(n):
        g = make()
        pokes(g)[i]()
        errors += _check(_refusals(g), f"{where} {phase.value} press {i}")
    assert errors >= 3  # the check has something to check in every phase


@pytest.mark.parametrize("ticked,share", CHOICES[:5])
def test_T1_an_incomplete_setup_choice_is_refused_in_the_words_of_the_rule(ticked, share):
    g = _local(Phase.SETUP_TICKETS)
    _tick(g.chooser, ticked, share)
    missing = g.chooser.missing.value
    assert "rule T1" in missing and g.chooser.confirm.tooltip.startswith("Still missing: ")
    g.chooser.confirm.click()
    assert "rule T1 Not yet: " in g.message_text and g.view().phase is Phase.SETUP_TICKETS
    if ticked >= 3:
        assert "choose the ticket you share with your teammate" in g.message_text
    else:
        assert "tick" in g.message_text


def test_T1_a_complete_setup_choice_is_accepted_and_the_button_says_so_first():
    g = _local(Phase.SETUP_TICKETS)
    _tick(g.chooser, 3, 1)
    assert g.chooser.missing.value == "" and g.chooser.confirm.tooltip == g.chooser.confirm.description
    g.chooser.confirm.click()
    assert g.view().phase is Phase.TURN and "T1" in g.message_text


def test_T4_nothing_ticked_to_share_says_what_to_tick():
    g = _local(Phase.TURN)
    g.sharer.confirm.click()
    assert g.message_text.endswith("rule T4 Not yet: tick the private tickets you share with "
                                   "your teammate: 1 or 2 of them.")
    assert "rule T4" in g.sharer.missing.value


def test_the_tickets_lesson_refuses_in_the_words_of_the_rules_too():
    t = TicketStepper(Game.new(players=4, seed=21), bots=[GreedyBot(seed=s) for s in range(4)])
    for ticked, share in CHOICES[:5]:
        _tick(t.chooser, ticked, share)
        t.chooser.confirm.click()
        assert _check(_refusals(t), f"tickets {ticked} {share}") >= 1
        assert t.stage == "setup"
