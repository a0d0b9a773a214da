"""Lesson 02's hand-written answer key, checked against the library.

Each answer is computed here by playing the exercise's position in the engine (never read from
the key), then compared with the key. Options name tickets as the board describes them.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest

from ttrlib import Game, IllegalMove
from ttrlib import actions as act
from ttrlib.lessons import tickets
from ttrlib.lessons.answers import load_key

KEY = load_key("02", Path(__file__).resolve().parents[1] / "notebooks" / "answers")


def _label(game: Game, tid: str) -> str:
    return game.board.ticket(tid).describe()


def test_setup_keep_is_the_fewest_the_engine_accepts():
    game = Game.new(players=4, seed=11)
    offer = game.view(0).ticket_offer
    accepted = []
    for k in range(len(offer) + 1):
        probe = game.copy()
        try:
            probe.apply(act.KeepTickets(offer[:k], share=offer[0]))
        except IllegalMove as err:
            assert err.rule == "T1" and game.view(0).ticket_offer == offer
            continue
        accepted.append(k)
    assert KEY["setup-keep"].answer == Fraction(min(accepted))


def test_sees_tickets_are_exactly_what_a1s_view_holds():
    game = tickets.sees_position()
    view = game.view(0)
    readable = set(view.tickets) | set(view.team_tickets)
    everything = {t for ids in tickets.SEES.values() for t in ids}
    hidden = everything - readable
    # none of the hidden tickets is anywhere in A1's view
    assert not hidden & (set(view.ticket_offer) | set(view.dealt_tickets))
    assert KEY["sees-tickets"].answer == frozenset(_label(game, t) for t in readable)
    assert set(KEY["sees-tickets"].options) == {_label(game, t) for t in everything}


def test_t3_bottom_is_the_last_rejected_ticket_in_offer_order():
    game = tickets.t3_position()
    game.apply(act.DrawTickets())
    offered = game.view(0).ticket_offer
    assert tuple(offered) == tickets.T3_OFFER
    game.apply(act.KeepTickets(tickets.T3_KEEP, share=tickets.T3_KEEP[0]))
    assert KEY["t3-bottom"].answer == _label(game, game.ticket_deck[-1])
    assert set(KEY["t3-bottom"].options) == {_label(game, t) for t in offered}


def test_t4_most_is_the_largest_share_the_engine_accepts():
    game = Game.from_position(players=4, tickets=[["T01", "T02", "T03", "T04"], [], [], []])
    accepted = []
    for k in range(1, 5):
        probe = game.copy()
        pick = next(combinations(["T01", "T02", "T03", "T04"], k))
        try:
            probe.apply(act.ShareTickets(list(pick)))
        except IllegalMove as err:
            assert err.rule == "T4"
            continue
        accepted.append(k)
    assert KEY["t4-most"].answer == Fraction(max(accepted))


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_no_other_seat_reads_a1s_private_tickets(seat):
    game = tickets.sees_position()
    view = game.view(seat)
    mine = set(tickets.SEES["A1's private tickets"])
    assert not mine & (set(view.tickets) | set(view.team_tickets))
