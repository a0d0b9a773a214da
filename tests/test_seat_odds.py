"""Odds seen from a seat (``tunnel_odds``, ``best_payment``) and the engine-level simulation
(``simulate_claims``) that must agree with them (rules U1, U2, U5, U6, I1)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from ttrlib import actions as act
from ttrlib.cards import CardCounts, Color, standard_deck
from ttrlib.game import Game
from ttrlib.lessons.tunnels import practice_position
from ttrlib.odds import Distribution, best_payment, tunnel_extra_cost, tunnel_odds
from ttrlib.simulate import compare, simulate_claims

ROUTE = "kathmandu-lhasa-1"  # 3 red, tunnel that reveals 5
HAND = CardCounts(red=3, blue=1, locomotive=1)
HOLDER = CardCounts(red=1, blue=2, locomotive=1)
FACE_UP = CardCounts(green=1, purple=1, white=1, orange=1, black=1)


def hypergeom(N: int, K: int, n: int) -> dict[int, Fraction]:
    return {k: Fraction(comb(K, k) * comb(N - K, n - k), comb(N, n))
            for k in range(0, n + 1) if comb(K, k) * comb(N - K, n - k)}


def test_U2_odds_from_a_seat_are_the_hypergeometric_law_of_its_unseen_cards():
    game = practice_position(0)
    view = game.view(0)
    # Independently: seat A1 sees its hand, the team cardholder and the face-up row (I1).
    unseen = standard_deck() - HAND - HOLDER - FACE_UP
    N, K = len(unseen), unseen[Color.RED] + unseen[Color.LOCOMOTIVE]
    assert (N, K) == (96, 20)
    odds = tunnel_odds(view, ROUTE, act.Claim(ROUTE, hand=CardCounts(red=3)))
    assert odds.color is Color.RED
    assert odds.law.pmf == hypergeom(N, K, 5)
    # Left after laying 3 red: hand blue + loco, holder red + 2 blue + loco -> 3 can pay.
    assert odds.spare == 3
    assert odds.p_can_pay == sum(p for k, p in hypergeom(N, K, 5).items() if k <= 3)
    assert odds.p_free == hypergeom(N, K, 5)[0]


def test_U5_locomotive_only_odds_count_only_locomotives():
    game = Game.from_position(seed=1, hands=[CardCounts(locomotive=3), CardCounts(), CardCounts(),
                                             CardCounts()],
                              face_up=["green", "purple", "white", "orange", "black"])
    odds = tunnel_odds(game.view(0), ROUTE, act.Claim(ROUTE, hand=CardCounts(locomotive=3)))
    unseen = standard_deck() - CardCounts(locomotive=3) - FACE_UP
    assert odds.color is Color.LOCOMOTIVE and odds.spare == 0
    assert odds.law.pmf == hypergeom(len(unseen), unseen[Color.LOCOMOTIVE], 5)


def test_best_payment_ranks_every_legal_way_by_the_chance_to_pay():
    game = practice_position(0)
    ranked = best_payment(game.view(0), ROUTE)
    legal = {c for c in game.legal_claims(0) if c.route == ROUTE}
    assert {o.claim for o in ranked} == legal and len(ranked) == len(legal)
    chances = [o.p_can_pay for o in ranked]
    assert chances == sorted(chances, reverse=True)
    # Laying down a locomotive leaves one fewer card to pay with, so it never ranks higher.
    no_loco = max(o.p_can_pay for o in ranked if not o.claim.cards[Color.LOCOMOTIVE])
    assert all(o.p_can_pay <= no_loco for o in ranked if o.claim.cards[Color.LOCOMOTIVE])


def test_simulated_claims_through_the_engine_agree_with_the_seat_odds():
    """End to end: the engine's own tunnel reveals, on copies whose hidden cards are dealt anew,
    agree with the exact law. Seeded; the verdict needs a chi-square p-value >= 0.001 and the
    largest gap within its 99% band."""
    game = practice_position(0)
    claim = act.Claim(ROUTE, hand=CardCounts(red=3))
    before = game.to_json()
    counts = simulate_claims(game, claim, trials=6000, seed=11)
    assert game.to_json() == before, "simulate_claims must not change the game"
    assert counts.sum() == 6000
    exact = tunnel_odds(game.view(0), ROUTE, claim).law
    assert compare(exact, counts).agrees
    # The check can fail: the fresh-deck law (ignoring what the seat sees) is rejected.
    wrong = tunnel_extra_cost(standard_deck(), Color.RED, 5)
    assert not compare(wrong, simulate_claims(game, claim, trials=30000, seed=12)).agrees


def test_U6_reshuffle_mid_reveal_seen_from_a_seat_agrees_with_the_engine():
    """Two cards in the draw pile, a 5-card tunnel: the engine reveals them, shuffles the known
    discard in and goes on (C6, U6). Hidden hands make the pile's content uncertain."""
    hand = CardCounts(red=3, locomotive=1)
    discard = CardCounts(red=2, locomotive=1, blue=5)
    others = standard_deck() - hand - FACE_UP - discard - CardCounts(green=1, locomotive=1)
    game = Game.from_position(
        seed=3, hands=[hand, CardCounts(), others, CardCounts()], face_up=list(FACE_UP.elements()),
        draw_pile=["green", "locomotive"], discard=discard)
    view = game.view(0)
    assert view.draw_pile_size == 2
    claim = act.Claim(ROUTE, hand=CardCounts(red=3))
    exact = tunnel_odds(view, ROUTE, claim).law
    pool = view.unseen
    # Independently: 2 of the unseen cards, then 3 of the 8 known discarded ones.
    part1 = hypergeom(len(pool), pool[Color.RED] + pool[Color.LOCOMOTIVE], 2)
    part2 = hypergeom(8, 3, 3)
    conv: dict[int, Fraction] = {}
    for i, p in part1.items():
        for j, q in part2.items():
            conv[i + j] = conv.get(i + j, Fraction(0)) + p * q
    assert exact == Distribution(conv)
    assert exact != tunnel_extra_cost(pool, Color.RED, 5)  # the reshuffle matters
    assert compare(exact, simulate_claims(game, claim, trials=4000, seed=5)).agrees
