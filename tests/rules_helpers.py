"""Helpers shared by the rule scenario tests: exact positions and the "rejected and unchanged"
check."""

from __future__ import annotations

import pytest

from ttrlib.board import Board
from ttrlib.cards import EMPTY, CardCounts
from ttrlib.errors import IllegalMove
from ttrlib.game import Game


def exact_position(board: Board, *, hands=None, cardholders=None, draw_pile=(), discard=EMPTY,
                   face_up=(None,) * 5, players=4, dump=None, **kw) -> Game:
    """A position where every one of the 110 cards is placed: the draw pile is exactly
    ``draw_pile`` (top first), and the cards not named go to the hand of seat ``dump`` (by
    default the last seat, an opponent of seats 0 and 1)."""
    hands = [CardCounts(h) for h in hands] if hands else [EMPTY] * players
    hands += [EMPTY] * (players - len(hands))
    holders = [CardCounts(h) for h in cardholders] if cardholders else [EMPTY] * (players // 2)
    return Game.from_position(players=players, board=board, hands=hands, cardholders=holders,
                              face_up=list(face_up), draw_pile=list(draw_pile), discard=discard,
                              rest_to=players - 1 if dump is None else dump, **kw)


def rejected(g: Game, action, rule: str | None = None, kind=IllegalMove) -> IllegalMove:
    """``action`` raises ``kind`` naming ``rule``, is not offered as legal, and leaves every part
    of the game (the saved state, random generator included) exactly as it was."""
    before = g.to_json()
    with pytest.raises(kind) as info:
        g.apply(action)
    assert g.to_json() == before, "a rejected action changed the game"
    if rule is not None:
        assert info.value.rule == rule
        assert str(info.value).startswith(f"rule {rule}: ")
    assert action not in g.legal_actions()
    return info.value
