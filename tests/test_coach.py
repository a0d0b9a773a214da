"""The coach's evaluation (issue 34) against answers found by hand and by brute force.

Both positions are a seat's last action of the game (E1's final round), so a playout has nothing
left to sample after it: the exact win share of a tunnel claim is the hypergeometric chance of
being able to pay (computed here with ``math.comb`` from the cards the seat can see), and each
end-game claim's margin is found by applying it to a copy of the game.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from ttrlib import Game
from ttrlib import actions as act
from ttrlib.board import teaching_board
from ttrlib.cards import CardCounts, Color, standard_deck
from ttrlib.coach import evaluate

GREEN = Color.GREEN
TUNNEL = "kabul-kashgar"  # 4 green, reveals 5 (teaching board)


# 23, 27, 24 and 24 trains on the board (C3: both teams at E1's trigger): team B leads 89 to
# 85, and the tunnel Kabul - Kashgar (7 points, a longer path) would turn it round
CLAIMED = {
    "hanoi-nanning": 1, "delhi-kathmandu": 0, "delhi-lahore-3": 0, "foochow-hankow": 0,
    "chengdu-xian-2": 3, "foochow-shanghai": 3, "peking-ulanbator-1": 3, "lahore-rawalpindi-1": 1,
    "canton-nanning-2": 1, "chengdu-hankow": 3, "kathmandu-lhasa-2": 3, "harbin-ulanbator": 0,
    "canton-hankow-2": 1, "canton-hongkong-2": 2, "lanchow-xian-2": 3, "calcutta-madras": 1,
    "calcutta-delhi-2": 3, "bombay-madras-1": 0, "kunming-mandalay": 2, "hankow-shanghai-3": 1,
    "hankow-xian": 0, "peking-shanghai-2": 2, "peking-xian": 1, "hankow-peking-1": 1,
    "kunming-nanning": 2, "lanchow-ulanbator": 2, "bombay-delhi-1": 2, "calcutta-dacca-2": 0,
    "mandalay-rangoon-1": 2}


def _final_turn(hand0: CardCounts, seed: int = 3, claimed=None, trains=(4, 0, 3, 3)) -> Game:
    """Both teams at the E1 trigger; seat 0's first turn announces the final round,
    every seat draws twice from the deck, and seat 0 is to make the game's last action."""
    ids = [t.id for t in teaching_board().tickets]
    game = Game.from_position(players=4, hands=[hand0, CardCounts(), CardCounts(), CardCounts()],
                              cardholders=[CardCounts(), CardCounts()],
                              tickets=[[], [], [], []], team_tickets=[[], []], ticket_deck=ids,
                              claimed=claimed or CLAIMED, trains=list(trains),
                              to_move=0, seed=seed)
    for _ in range(4):
        game.apply(act.DrawCard("deck"))
        game.apply(act.PlaceCard("cardholder"))
        game.apply(act.DrawCard("deck"))
    assert game.to_move == 0 and game.final_turns_left == 1
    return game


def _unseen(view) -> CardCounts:
    """The deck less every card seat 0 sees (I1), counted here, not by the library."""
    seen = view.hand + view.team_cardholder + view.discard
    seen += CardCounts.of(c for c in view.face_up if c is not None)
    for known in list(view.known_in_hands.values()) + list(view.known_in_cardholders.values()):
        seen += known
    return standard_deck() - seen


def test_tunnel_on_the_last_turn_is_worth_its_exact_chance_to_pay():
    game = _final_turn(CardCounts(green=5, locomotive=1))
    view = game.view(0)
    claim = act.Claim(TUNNEL, hand=CardCounts(green=4))
    assert claim in game.legal_actions()
    unseen = _unseen(view)
    n_pool, k_pool = len(unseen), unseen[GREEN] + unseen[Color.LOCOMOTIVE]
    left = view.hand - claim.hand + view.team_cardholder
    spare = left[GREEN] + left[Color.LOCOMOTIVE]
    assert view.draw_pile_size >= 5
    exact = sum(math.comb(k_pool, k) * math.comb(n_pool - k_pool, 5 - k)
                for k in range(spare + 1)) / math.comb(n_pool, 5)
    assert 0.2 < exact < 0.999  # a real decision
    # the scores by hand of the rules: won with the tunnel, lost without it
    from ttrlib.rules.scoring import score

    def first(claimed) -> bool:
        s = {x.team: x for x in score(game.board, 4, claimed, game.tickets, game.team_tickets)}
        return s[0].total > s[1].total

    assert first({**CLAIMED, TUNNEL: 0}) and not first(CLAIMED)
    ev = evaluate(view, [act.DrawCard("deck"), claim], seed=1, budget=3)
    assert ev.of(claim).win_share == pytest.approx(exact, abs=1e-9)
    assert float(ev.of(claim).p_can_pay) == pytest.approx(exact, abs=1e-12)
    assert ev.of(act.DrawCard("deck")).win_share == 0  # team B keeps its lead
    assert ev.best.action == claim


def test_tunnel_too_dear_to_pay_is_never_won():
    # laying the locomotive too leaves fewer spare cards: the exact chance drops accordingly
    game = _final_turn(CardCounts(green=3, locomotive=1))
    view = game.view(0)
    claim = act.Claim(TUNNEL, hand=CardCounts(green=3, locomotive=1))
    assert claim in game.legal_actions()
    unseen = _unseen(view)
    n_pool, k_pool = len(unseen), unseen[GREEN] + unseen[Color.LOCOMOTIVE]
    left = view.hand - claim.hand + view.team_cardholder
    spare = left[GREEN] + left[Color.LOCOMOTIVE]
    exact = sum(math.comb(k_pool, k) * math.comb(n_pool - k_pool, 5 - k)
                for k in range(spare + 1)) / math.comb(n_pool, 5)
    ev = evaluate(view, [claim], seed=2, budget=2)
    assert ev.of(claim).win_share == pytest.approx(exact, abs=1e-9)


def test_end_game_claims_ranked_as_brute_force_finds():
    game = _final_turn(CardCounts(red=4, blue=4, orange=3, locomotive=2), seed=8)
    legal = game.legal_actions()
    board = game.board
    claims = [a for a in legal if isinstance(a, act.Claim) and not board.route(a.route).is_tunnel]
    assert len({c.route for c in claims}) >= 3
    truth = {}
    for c in claims:  # brute force: each claim applied to a copy, the game is then over
        g = game.copy()
        g.apply(c)
        assert g.is_over
        s = {x.team: x for x in g.scores()}
        truth[c] = (s[0].rank == 1, s[0].total - s[1].total)
    ev = evaluate(game.view(0), claims, seed=5, budget=2)
    for c in claims:
        assert (ev.of(c).win_share == 1.0) == truth[c][0]
        assert ev.of(c).points == truth[c][1]
    best = max(truth.values())
    assert (ev.best.win_share == 1.0, ev.best.points) == best


def test_same_view_different_hidden_cards_same_evaluation():
    """I1: two games that differ only in what seat 2 cannot see give the same evaluation."""
    from ttrlib.bots import GreedyBot, decide

    game = Game.new(players=4, seed=21)
    bots = [GreedyBot(seed=s) for s in range(4)]
    while not (game.to_move == 2 and game.phase.value == "turn" and game.turns > 12):
        game.apply(decide(game, bots[game.to_move]))
    other = game.resample_hidden(2, np.random.default_rng(99))
    assert other.state.hands[1] != game.state.hands[1] or \
        other.state.draw_pile != game.state.draw_pile
    legal = game.legal_actions()[:4]
    assert other.legal_actions()[:4] == legal
    a = evaluate(game.view(2), legal, seed=4, budget=3)
    b = evaluate(other.view(2), legal, seed=4, budget=3)
    assert a.estimates == b.estimates
    c = evaluate(game.view(2), legal, seed=5, budget=3)  # another seed: other deals
    assert [e.points for e in c.estimates] != [e.points for e in a.estimates] or \
        [e.action for e in c.estimates] != [e.action for e in a.estimates]


def test_bad_arguments_are_refused_clearly():
    game = Game.new(players=4, seed=1)
    view = game.view(0)
    legal = game.legal_actions()
    with pytest.raises(ValueError, match="budget"):
        evaluate(view, legal[:1], seed=0, budget=0)
    with pytest.raises(ValueError, match="seed"):
        evaluate(view, legal[:1], seed=-1)
    with pytest.raises(ValueError, match="legal"):
        evaluate(view, [], seed=0)
    with pytest.raises(ValueError, match="seat to move"):
        evaluate(game.view(1), legal[:1], seed=0)
    with pytest.raises(TypeError, match="PlayerView"):
        evaluate(game, legal[:1], seed=0)


@pytest.mark.parametrize("seed", [11, 12])
def test_a_world_built_from_a_view_is_a_valid_state_with_that_same_view(seed):
    """At every action of a bot game (setup choices, draws, tunnels, the final round), the state
    the coach builds from the mover's view passes the one validity check and shows that seat
    exactly the same view (``observer.view`` is the reference, not the coach)."""
    from ttrlib.bots import GreedyBot, decide
    from ttrlib.bots import Strategy as S
    from ttrlib.coach.world import world
    from ttrlib.observer import view as observe
    from ttrlib.validity import check_state

    game = Game.new(players=4, seed=seed)
    bots = [GreedyBot(seed=s, strategy=S(tunnel_threshold=None, share_tickets="early"))
            for s in range(4)]
    phases = set()
    for i in range(2000):
        if game.is_over:
            break
        seat = game.to_move
        v = game.view(seat)
        built = world(v, np.random.default_rng(i))
        assert check_state(built) is None, (i, game.phase)
        again = observe(built, seat)
        for f in v.__dataclass_fields__:
            assert getattr(again, f) == getattr(v, f), (i, game.phase, f)
        phases.add(game.phase)
        game.apply(decide(game, bots[seat]))
    assert game.is_over and len(phases) >= 5
