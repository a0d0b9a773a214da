"""The tunnel reveal as one chance node (``ttrlib.chance.TunnelReveal``): its exact law, its
samples and its price, against brute force and hand counts.

Rules: U1 (a tunnel turns its number of cards), U2 (the claim's colour and locomotives match),
U5 (a locomotives-only claim: only locomotives match), U6 / C6 (a short draw pile is turned in
full, then the reshuffled discard pile, as far as it goes), U7 (a gray tunnel's colour is the
colour paid), I1 (the node is built from what a seat may know).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations
from types import SimpleNamespace

import numpy as np
import pytest
from scipy.stats import chisquare

from ttrlib import actions as act
from ttrlib.cards import CardCounts, Color, standard_deck
from ttrlib.chance import Distribution, TunnelReveal, extra_cost
from ttrlib.game import Game
from ttrlib.lessons.tunnels import practice_position
from ttrlib.simulate import compare

R, B, G, L, W = Color.RED, Color.BLUE, Color.GREEN, Color.LOCOMOTIVE, Color.WHITE


# --- an independent oracle: play out every ordering of the cards -------------------------------


def ordered_reveals(pool: list[Color], pile_size: int, discard: list[Color],
                    reveal: int) -> Counter[tuple[Color, ...]]:
    """For each ordered reveal, how many orderings of the labelled cards give it.

    Every ordering of the pool (its first ``pile_size`` cards are the draw pile, top first) and
    every ordering of the discard pile (the new draw pile it becomes when reshuffled, C6) is
    equally likely. Cards are turned one at a time from the top; an empty pile is replaced by the
    reshuffled discard once; with neither, the reveal stops (U6)."""
    tally: Counter[tuple[Color, ...]] = Counter()
    discard_orders = list(permutations(discard))
    for order in permutations(pool):
        for reshuffled_pile in discard_orders:
            pile = list(order[:pile_size])
            reshuffled = False
            shown: list[Color] = []
            for _ in range(reveal):
                if not pile:
                    if reshuffled or not reshuffled_pile:
                        break
                    pile = list(reshuffled_pile)
                    reshuffled = True
                shown.append(pile.pop(0))
            tally[tuple(shown)] += 1
    return tally


def owed(card: Color, claim: Color) -> bool:
    """The answer key for one revealed card: locomotives always match (U2); with a
    locomotives-only claim nothing else does (U5); otherwise the claim's colour does (U2)."""
    if card is L:
        return True
    return claim is not L and card is claim


def brute_force_law(pool: list[Color], color: Color, reveal: int, pile_size: int,
                    discard: list[Color]) -> Distribution:
    """The law of the extra cost, from every ordered reveal priced by ``owed``."""
    tally: Counter[int] = Counter()
    for shown, ways in ordered_reveals(pool, pile_size, discard, reveal).items():
        tally[sum(owed(c, color) for c in shown)] += ways
    total = sum(tally.values())
    return Distribution({k: Fraction(n, total) for k, n in tally.items()})


BRUTE_CASES = [
    # (pool, pile_size, discard, colour, reveal)
    ([R, R, B, L, G, B], 6, [], R, 3),  # U2: the pile is the whole pool
    ([R, R, B, L, G, B, G], 4, [R, L], R, 3),  # the pile is part of the pool; discard unused
    ([R, R, B, L, G, B], 2, [L, R, G, B], R, 4),  # U6/C6: 2 from the pile, 2 from the discard
    ([R, L, B, G, B], 3, [L, G, R], R, 5),  # U6/C6: 3 from the pile, then 2 of 3 discards
    ([R, L, B, G, B, R], 1, [L, G, R], R, 6),  # U6: the discard runs out too: 4 shown of 6
    ([R, R, B, L, L, G], 6, [], L, 3),  # U5: a locomotives-only claim
    ([R, R, B, L, L, G], 2, [R, L, B], L, 4),  # U5 past the draw pile into the discard
    ([R, B, L, G], 0, [R, G, L], G, 2),  # an empty pile: everything from the discard (U7: green)
    ([R, B, L, G], 0, [], R, 4),  # nothing to reveal: no extra cost (U6)
    ([R, B, L], 3, [L, R], R, 0),  # a route that is no tunnel turns nothing
]


@pytest.mark.parametrize("pool,pile_size,discard,color,reveal", BRUTE_CASES)
def test_law_is_the_brute_force_law_of_every_ordered_reveal(pool, pile_size, discard, color,
                                                            reveal):
    node = TunnelReveal(CardCounts.of(pool), pile_size, CardCounts.of(discard), color, reveal)
    assert node.law() == brute_force_law(pool, color, reveal, pile_size, discard)


@pytest.mark.parametrize("pool,pile_size,discard,color,reveal", BRUTE_CASES)
def test_the_U6_split_is_where_the_brute_force_cards_come_from(pool, pile_size, discard, color,
                                                               reveal):
    node = TunnelReveal(CardCounts.of(pool), pile_size, CardCounts.of(discard), color, reveal)
    lengths = {len(shown) for shown in ordered_reveals(pool, pile_size, discard, reveal)}
    assert lengths == {node.shown}
    assert node.from_pile + node.from_discard == node.shown
    assert node.from_pile == min(pile_size, reveal)


def test_U6_split_counted_by_hand():
    pool = CardCounts(red=2, blue=3)
    # 5-card tunnel, 2 cards in the pile, 4 discards: 2 + 3
    assert (TunnelReveal(pool, 2, CardCounts(blue=4), R, 5).from_pile,
            TunnelReveal(pool, 2, CardCounts(blue=4), R, 5).from_discard) == (2, 3)
    # the same with only 1 discard: 2 + 1, and 3 cards shown in all
    short = TunnelReveal(pool, 2, CardCounts(blue=1), R, 5)
    assert (short.from_pile, short.from_discard, short.shown) == (2, 1, 3)
    # enough in the pile: the discard is never touched
    assert TunnelReveal(pool, 5, CardCounts(blue=4), R, 4).from_discard == 0


def test_U5_a_locomotive_only_claim_counts_only_locomotives_counted_by_hand():
    # 1 red, 1 locomotive, 2 blue; reveal 1 of 4: a red claim pays on 2 cards, a U5 claim on 1
    pool = CardCounts(red=1, locomotive=1, blue=2)
    assert TunnelReveal(pool, 4, None, R, 1).law().pmf == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert TunnelReveal(pool, 4, None, L, 1).law().pmf == {0: Fraction(3, 4), 1: Fraction(1, 4)}


# --- the price of given cards (U2, U5, U7) ------------------------------------------------------


@pytest.mark.parametrize("color,revealed,expected", [
    (R, [R, B, L, G], 2),  # U2: the red and the locomotive
    (R, [B, G, W, B], 0),
    (R, [L, L, L, R, R, R], 6),
    (L, [R, L, L], 2),  # U5: the two locomotives only
    (L, [R, R, B, G], 0),  # U5: a red card does not match a locomotives-only claim
    (G, [G, R, B], 1),  # U7: a gray tunnel paid in green is matched by green
    (R, [], 0),  # nothing revealed (U6)
    (R, ["red", "locomotive", "blue"], 2),  # colour names, as an event lists them
])
def test_extra_of_hand_counted_reveals(color, revealed, expected):
    node = TunnelReveal(standard_deck(), 110, None, color, 6)
    assert node.extra(revealed) == expected
    assert node.extra(CardCounts.of(revealed)) == expected
    assert extra_cost(revealed, color) == expected == extra_cost(CardCounts.of(revealed), color)


def test_extra_refuses_more_cards_than_the_reveal_turns():  # U1, U6
    node = TunnelReveal(CardCounts(red=2), 2, None, R, 4)  # only 2 cards exist to turn
    assert node.extra([R, R]) == 2
    with pytest.raises(ValueError, match="turns 2 cards, not 3"):
        node.extra([R, R, R])


# --- samples: the physical reveal ---------------------------------------------------------------

SAMPLE_CASES = [
    # (pool, pile_size, discard, colour, reveal): a reshuffle with a red claim, one with U5
    ([R, R, B, L, G], 2, [L, G, R], R, 4),
    ([R, L, B, L, G, B], 3, [L, R], L, 5),
]
SAMPLES = 20_000


@pytest.mark.parametrize("pool,pile_size,discard,color,reveal", SAMPLE_CASES)
def test_samples_follow_the_brute_force_law_of_ordered_reveals(pool, pile_size, discard, color,
                                                               reveal):
    """Seeded; a correct sampler fails the chi-square test (p < 0.001) once in 1000 seeds and
    the extra-cost comparison (``simulate.compare``) at most once in 500."""
    node = TunnelReveal(CardCounts.of(pool), pile_size, CardCounts.of(discard), color, reveal)
    rng = np.random.default_rng(2026)
    drawn = Counter(node.sample(rng) for _ in range(SAMPLES))
    exact = ordered_reveals(pool, pile_size, discard, reveal)
    assert set(drawn) <= set(exact), "a sample no ordering of the cards can give"
    total = sum(exact.values())
    outcomes = sorted(exact)
    observed = [drawn[o] for o in outcomes]
    expected = [SAMPLES * exact[o] / total for o in outcomes]
    assert min(expected) >= 5  # the chi-square approximation holds
    assert chisquare(observed, expected).pvalue >= 0.001
    # the extra cost of the samples against the node's exact law
    counts = np.bincount([node.extra(s) for s, n in drawn.items() for _ in range(n)],
                         minlength=reveal + 1)
    assert compare(node.law(), counts).agrees
    # ... and the check can fail: the law of a reveal that ignores the reshuffle is refused
    no_reshuffle = TunnelReveal(CardCounts.of(pool), len(pool), None, color, reveal).law()
    assert no_reshuffle != node.law()
    assert not compare(no_reshuffle, counts).agrees


def test_a_sample_turns_the_pile_first_then_the_reshuffled_discard():  # U6, C6
    # the pool holds no green and the discard only green: the order shows where each card came from
    node = TunnelReveal(CardCounts(red=3, blue=2), 2, CardCounts(green=4), R, 5)
    rng = np.random.default_rng(7)
    for _ in range(200):
        shown = node.sample(rng)
        assert len(shown) == 5
        assert G not in shown[:2] and shown[2:] == (G, G, G)
    assert TunnelReveal(CardCounts(red=3), 3, CardCounts(), R, 5).sample(rng) == (R, R, R)
    assert TunnelReveal(CardCounts(), 0, CardCounts(), R, 5).sample(rng) == ()


def test_samples_are_reproducible_from_the_seed():
    node = TunnelReveal(standard_deck(), 60, CardCounts(blue=3), R, 6)
    a = [node.sample(np.random.default_rng(5)) for _ in range(3)]
    assert a[0] == a[1] == a[2] and len(a[0]) == 6
    assert len({node.sample(np.random.default_rng(seed)) for seed in range(10)}) > 1


# --- built from what a seat may know (I1) ---------------------------------------------------------

ROUTE = "kathmandu-lhasa-1"  # 3 red, a tunnel that reveals 5
HAND = CardCounts(red=3, blue=1, locomotive=1)
HOLDER = CardCounts(red=1, blue=2, locomotive=1)
FACE_UP = CardCounts(green=1, purple=1, white=1, orange=1, black=1)


def test_from_view_reads_the_seats_unseen_cards_pile_size_and_discard():
    game = practice_position(0)
    view = game.view(0)
    node = TunnelReveal.from_view(view, ROUTE, act.Claim(ROUTE, hand=CardCounts(red=3)))
    # counted by hand: A1 sees its hand, the team cardholder and the face-up row (I1)
    assert node.pool == standard_deck() - HAND - HOLDER - FACE_UP
    assert (node.pile_size, node.discard, node.color, node.reveal) == (
        len(game.draw_pile), CardCounts(), R, 5)
    # a (hand, cardholder) pair says the same; a locomotives-only payment is a U5 claim
    assert TunnelReveal.from_view(view, ROUTE, (CardCounts(red=2), CardCounts(red=1))) == node
    u5 = TunnelReveal.from_view(view, ROUTE, (CardCounts(locomotive=1), CardCounts(locomotive=1)))
    assert u5.color is L


def test_from_view_refuses_a_mixed_payment_and_a_plain_route_reveals_nothing():
    view = practice_position(0).view(0)
    with pytest.raises(ValueError, match="one colour plus locomotives"):
        TunnelReveal.from_view(view, ROUTE, (CardCounts(red=2, blue=1), CardCounts()))
    plain = next(r for r in view.board.routes if not r.tunnel and r.length <= 3
                 and r.color in (R, None))
    node = TunnelReveal.from_view(view, plain.id, (CardCounts(red=plain.length), CardCounts()))
    assert node.reveal == 0 and node.law() == Distribution.certain(0)


@pytest.mark.parametrize("make", ["practice", "reshuffle"])
def test_I1_from_view_is_the_same_node_whatever_the_hidden_cards_are(make):
    """The hidden parts of the game (other hands, the draw pile's order and content) dealt anew
    with ``Game.resample_hidden`` give the same node: it reads only what the seat may know."""
    if make == "practice":
        game = practice_position(0)
    else:  # a 2-card draw pile and a known discard: the U6 case
        hand = CardCounts(red=3, locomotive=1)
        discard = CardCounts(red=2, locomotive=1, blue=5)
        others = standard_deck() - hand - FACE_UP - discard - CardCounts(green=1, locomotive=1)
        game = Game.from_position(
            seed=3, hands=[hand, CardCounts(), others, CardCounts()],
            face_up=list(FACE_UP.elements()), draw_pile=["green", "locomotive"], discard=discard)
    claim = act.Claim(ROUTE, hand=CardCounts(red=3))
    node = TunnelReveal.from_view(game.view(0), ROUTE, claim)
    pile_contents = set()
    for seed in range(12):
        other = game.resample_hidden(0, np.random.default_rng(seed))
        pile_contents.add(tuple(other.draw_pile))
        assert TunnelReveal.from_view(other.view(0), ROUTE, claim) == node
    assert len(pile_contents) > 1, "the resampled games must differ in what seat 0 cannot see"
    # ... while another seat, which knows other cards, faces another node
    assert TunnelReveal.from_view(game.view(2), ROUTE, claim) != node
    # it needs no more of the view than the board, the unseen cards, the pile's size, the discard
    view = game.view(0)
    bare = SimpleNamespace(board=view.board, unseen=view.unseen,
                           draw_pile_size=view.draw_pile_size, discard=view.discard)
    assert TunnelReveal.from_view(bare, ROUTE, claim) == node


# --- a value: immutable, comparable, checked --------------------------------------------------


def test_a_reveal_is_an_immutable_value():
    a = TunnelReveal(CardCounts(red=2, blue=1), 2, None, "red", 4)
    b = TunnelReveal({"red": 2, "blue": 1}, 2, CardCounts(), R, 4)
    assert a == b and hash(a) == hash(b) and a.color is R and a.discard == CardCounts()
    assert a != TunnelReveal(CardCounts(red=2, blue=1), 2, None, L, 4)
    with pytest.raises(AttributeError):
        a.reveal = 5
    assert TunnelReveal(CardCounts(red=2), None, None, R, 1).pile_size == 2  # None: every card


@pytest.mark.parametrize("args,error,words", [
    ((CardCounts(red=2), 3, None, R, 4), ValueError, "pile_size .3. cannot exceed"),
    ((CardCounts(red=2), -1, None, R, 4), ValueError, "pile_size cannot be negative"),
    ((CardCounts(red=2), 2, None, "mauve", 4), ValueError, "unknown card colour"),
    ((CardCounts(red=2), 2, None, R, -1), ValueError, "reveal cannot be negative"),
    ((CardCounts(red=2), 2, None, R, 2.0), TypeError, "reveal must be an integer"),
    ((CardCounts(red=2), 2, {"red": -1}, R, 2), ValueError, "discard"),
    (([R, R], 2, None, R, 2), TypeError, "pool must be"),
])
def test_bad_arguments_are_refused_clearly(args, error, words):
    with pytest.raises(error, match=words):
        TunnelReveal(*args)
