"""Lesson 04's hand-written answer key, checked against the engine (U1-U7).

Each answer is recomputed here by playing the exercise's fixed position on the engine (or, for the
chance, from the seat's view), independently of the key, and must equal what the key says.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from ttrlib import CardCounts, Color
from ttrlib import actions as act
from ttrlib.game import Phase
from ttrlib.lessons import tunnels
from ttrlib.lessons.answers import load_key
from ttrlib.odds import matching_count

KEY = load_key("04", Path(__file__).resolve().parents[1] / "notebooks" / "answers")


def attempt(name: str):
    """The exercise's position after A1 lays down its cards (the reveal has happened)."""
    game = tunnels.exercise_position(name)
    before = game.view(0)
    game.apply(tunnels.EXERCISE_CLAIMS[name])
    return game, before


def test_first_card_chance_from_the_seat():
    view = tunnels.exercise_position("first-card-chance").view(0)
    p = Fraction(matching_count(view.unseen, Color.RED), len(view.unseen))
    assert KEY["first-card-chance"].answer == p
    # The same position is the one the practice widget starts from, for every game number.
    other = tunnels.practice_position(4821).view(0)
    assert (other.hand, other.team_cardholder, other.face_up) == (view.hand,
                                                                  view.team_cardholder,
                                                                  view.face_up)


def test_the_exercise_tunnel_reveals_the_cards_shown():
    game, _ = attempt("extra-coloured")
    route = game.board.route(tunnels.EXERCISE_TUNNEL)
    shown = list(tunnels.EXERCISE_PILE[:route.tunnel])
    assert [c.value for c in game.tunnel.revealed] == shown


def test_extra_cards_coloured_claim_u2():
    game, _ = attempt("extra-coloured")
    assert KEY["extra-coloured"].answer == game.tunnel.extra


def test_extra_cards_locomotives_only_u5():
    game, _ = attempt("extra-locomotives")
    assert KEY["extra-locomotives"].answer == game.tunnel.extra
    # U5: each extra card owed must be a locomotive.
    pays = [a for a in game.legal_actions() if isinstance(a, act.PayTunnel)]
    assert pays and all(a.cards == CardCounts(locomotive=game.tunnel.extra) for a in pays)


def test_can_pay_u2_u3():
    game, _ = attempt("can-pay")
    assert game.phase is Phase.TUNNEL
    legal = game.legal_actions()
    can = any(isinstance(a, act.PayTunnel) for a in legal)
    assert act.Withdraw() in legal
    verdict = "Yes: with the locomotive" if can else f"No: {game.tunnel.extra} extra cards are owed"
    found = [o for o in KEY["can-pay"].options if o.startswith(verdict)]
    assert len(found) == 1 and KEY["can-pay"].answer == found[0]


def test_taken_back_u3_u4():
    game, before = attempt("taken-back")
    assert not any(isinstance(a, act.PayTunnel) for a in game.legal_actions())
    revealed = CardCounts.of(game.tunnel.revealed)
    game.apply(act.Withdraw())
    after = game.view(0)
    assert after.hand == before.hand and after.team_cardholder == before.team_cardholder
    assert after.discard == before.discard + revealed  # U4
    claim = tunnels.EXERCISE_CLAIMS["taken-back"]
    back_to_hand = {f"the {c.value} card A1 laid from the hand" if c is not Color.LOCOMOTIVE
                    else "the locomotive A1 laid from the hand" for c in claim.hand.elements()}
    assert KEY["taken-back"].answer == back_to_hand


def test_revealed_count_u6():
    game, before = attempt("revealed-count")
    event = tunnels.last_attempt(game)
    assert game.board.route(event.route).tunnel > len(event.revealed)
    assert KEY["revealed-count"].answer == len(event.revealed)
    assert len(event.revealed) == before.draw_pile_size + len(before.discard)


def test_lesson_04_types_no_tunnel_sizes_by_hand():
    """Issue 14: "4 to 6" and "(it reveals 5 cards)" were typed into the prose; they are now read
    from the board (``route.tunnel``), so no markdown cell states a reveal size in figures."""
    import json
    import re

    path = Path(__file__).resolve().parents[1] / "notebooks" / "04-tunnel-claims.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    prose = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert not re.search(r"\b[3-6] to [3-6]\b|reveals \d|\d cards? (are )?revealed", prose)
    board = tunnels.exercise_position("can-pay").board
    sizes = sorted(r.tunnel for r in board.routes if r.tunnel)
    assert tunnels.reveal_range(board) == (sizes[0], sizes[-1]) == (4, 6)  # the board file's
