"""The rule families' (check, effect) pairs and the one game state, tested directly.

* A check never changes the state, whether it accepts or refuses; it accepts exactly the
  actions ``legal_actions`` lists, among those offered in any phase (near misses included).
* An effect never raises on a checked action and leaves a valid game (``validity.check_state``).
* ``GameState.copy`` copies every field and shares no list or table with the original.
"""

from __future__ import annotations

import dataclasses

import pytest

from ttrlib import Game, IllegalMove
from ttrlib import actions as act
from ttrlib.bots import RandomBot
from ttrlib.game import Phase
from ttrlib.rules import deck
from ttrlib.rules.dispatch import RULES
from ttrlib.state import GameState
from ttrlib.validity import check_state


def snapshot(state: GameState) -> tuple:
    """Every field by value (the random generator by its state)."""
    out = []
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        out.append(value.bit_generator.state if f.name == "rng" else repr(value))
    return tuple(out)


def positions() -> list[Game]:
    """Every 7th position of seeded random games, 4 and 6 players (all phases occur)."""
    found = []
    for seed, players in ((11, 4), (12, 6), (13, 4)):
        game = Game.new(players=players, seed=seed)
        bots = [RandomBot(seed=seed * 10 + s) for s in range(players)]
        step = 0
        while not game.is_over:
            if step % 7 == 0 or game.phase in (Phase.TUNNEL, Phase.CHOOSE_TICKETS):
                found.append(game.copy())
            game.apply(bots[game.to_move].choose(game.view(game.to_move), game.legal_actions()))
            step += 1
        found.append(game.copy())
    return found


POSITIONS = positions()


def candidates(game: Game) -> list:
    """Actions near the legal ones, from every phase: each slot and place, ticket choices with
    the wrong share or too few kept, a pass, every legal action of the position."""
    s = game.state
    offer = sorted(s.offers[s.to_move])
    out = [act.DrawCard("deck"), *(act.DrawCard(i) for i in range(6)), act.PlaceCard("hand"),
           act.PlaceCard("cardholder"), act.Pass(), act.DrawTickets(), act.Withdraw(),
           act.PayTunnel()]
    if offer:
        out += [act.KeepTickets(offer[:1], offer[0]), act.KeepTickets(offer[:3], offer[-1]),
                act.KeepTickets(offer, offer[0])]
    mine = sorted(s.tickets[s.to_move])
    out += [act.ShareTickets(mine[:n]) for n in (1, 2, 3) if len(mine) >= n]
    return out + game.legal_actions()


def test_the_positions_cover_every_phase():
    assert {g.phase for g in POSITIONS} == set(Phase)


@pytest.mark.parametrize("index", range(0, len(POSITIONS), 3))
def test_checks_change_nothing_and_accept_exactly_the_legal_actions(index):
    game = POSITIONS[index]
    legal = game.legal_actions()
    tried = 0
    for action in candidates(game):
        rule = RULES.get((game.phase, type(action)))
        if rule is None:
            continue  # apply refuses it before any check (WrongPhase)
        check, effect = rule.check, rule.effect
        state = game.state.copy()
        before = snapshot(state)
        try:
            check(state, action)
            accepted = True
        except IllegalMove:
            accepted = False
        assert snapshot(state) == before, f"check of {action} changed the state"
        assert accepted == (action in legal), f"{action}: check says {accepted}"
        if accepted:
            effect(state, action)  # never raises
            deck.release(state)  # as Game.apply does: a reshuffle at the end is logged last
            assert check_state(state) is None
        tried += 1
    assert tried >= len(legal) > 0 or game.is_over


def test_copy_copies_every_field_and_shares_no_container():
    game = Game.new(players=4, seed=3)
    offer = game.ticket_offer()
    game.apply(act.KeepTickets(offer[:3], offer[1]))
    pending = game.copy()  # a pending setup choice (T1)
    assert pending.setup_choices
    bot = RandomBot(seed=5)
    for _ in range(40):  # a log, cards moved, routes claimed
        game.apply(bot.choose(game.view(game.to_move), game.legal_actions()))
    assert game.owners and len(game.events) > 10
    for state in (pending.state, game.state):
        twin = state.copy()
        assert snapshot(twin) == snapshot(state)
        for f in dataclasses.fields(state):
            value = getattr(state, f.name)
            if isinstance(value, (list, dict)):
                assert getattr(twin, f.name) is not value, f.name
            if f.name in ("tickets", "team_tickets", "offers"):
                assert all(a is not b for a, b in zip(getattr(twin, f.name), value)), f.name
        assert twin.rng is not state.rng
