"""Lesson 05 (tunnel odds): the library against the hand-written answer key, and the numbers the
lesson states against counts made by hand (C(N - K, n) / C(N, n) with N and K counted here).

The key (``notebooks/answers/05-tunnel-odds.toml``) was worked out on paper; these tests compute
each answer with ttrlib from the lesson's fixed positions and assert it equals the key.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from ttrlib.board import teaching_board
from ttrlib.cards import CardCounts, Color, standard_deck
from ttrlib.game import Phase
from ttrlib.lessons import odds_lesson as lesson
from ttrlib.lessons.answers import load_key
from ttrlib.odds import matching_count, tunnel_extra_cost, tunnel_odds

KEY = load_key("05")


def hypergeom(N: int, K: int, n: int) -> dict[int, Fraction]:
    """C(K, k) C(N - K, n - k) / C(N, n), written out here rather than taken from ttrlib."""
    return {k: Fraction(comb(K, k) * comb(N - K, n - k), comb(N, n))
            for k in range(n + 1) if comb(K, k) * comb(N - K, n - k)}


# --- the exercises ---------------------------------------------------------------------------

def exercise_odds():
    game = lesson.exercise_position()
    view = game.view(0)
    return view, tunnel_odds(view, lesson.EXERCISE_ROUTE, lesson.exercise_claim(game))


def test_unseen_count():
    view, _ = exercise_odds()
    assert Fraction(len(view.unseen)) == KEY["unseen-count"].answer


def test_matching_count():
    view, odds = exercise_odds()
    assert odds.color is Color.BLUE
    assert Fraction(matching_count(view.unseen, Color.BLUE)) == KEY["matching-count"].answer


def test_no_extra():
    _, odds = exercise_odds()
    assert odds.p_free == KEY["no-extra"].answer


def test_can_pay():
    _, odds = exercise_odds()
    assert odds.spare == 1  # the kept locomotive
    assert odds.p_can_pay == KEY["can-pay"].answer


def test_reshuffle():
    assert lesson.reshuffle_law(lesson.RESHUFFLE_EXERCISE).prob(0) == KEY["reshuffle"].answer


def test_the_exercise_claim_is_legal_in_the_engine():
    game = lesson.exercise_position()
    game.apply(lesson.exercise_claim(game))  # raises IllegalMove if not
    assert game.phase is Phase.TUNNEL or game.owners.get(lesson.EXERCISE_ROUTE) == 0


# --- the opening case of the lesson (issue 14: the law of the player described) ---------------

def test_the_opening_law_is_the_seats_law():
    """A1 at the very start, 4 red cards laid down for a 4-card tunnel. Counted by hand:
    unseen N = 110 - 4 (hand) - 5 (face-up row: blue, red, green, locomotive, white) = 101;
    matching K = red 12 - 4 - 1 = 7, plus locomotives 14 - 1 = 13: K = 20."""
    game = lesson.opening_position()
    claim = lesson.opening_claim(game)
    route = game.board.route(claim.route)
    assert route.tunnel == 4 and route.length == 4 and route.color is None  # gray (U7)
    law = tunnel_odds(game.view(0), claim.route, claim).law
    assert law.pmf == hypergeom(101, 20, 4)
    assert law.prob(0) == Fraction(comb(81, 4), comb(101, 4)) == Fraction(110916, 272195)
    game.apply(claim)  # the claim is legal (K2, U7)


def test_the_idealisation_table():
    """Full deck: N = 110, K = 26 (0.3342 in the rules reference); without the 4 laid reds:
    N = 106, K = 22 (0.388 in issue 14); from A1's seat: N = 101, K = 20."""
    game = lesson.opening_position()
    rows = lesson.idealisation_rows(game, lesson.opening_claim(game))
    assert [(N, K) for _, N, K, _ in rows] == [(110, 26), (106, 22), (101, 20)]
    for _, N, K, law in rows:
        assert law.pmf == hypergeom(N, K, 4)
    assert round(float(rows[0][3].prob(0)), 4) == 0.3342
    assert round(float(rows[1][3].prob(0)), 3) == 0.388


def test_tunnel_sizes_come_from_the_board():
    # teaching.toml, read by eye: tunnels reveal 5, 4, 6, 4, 5, 5, 5, 6, 4 (U1: "4 to 6")
    assert lesson.tunnel_sizes(teaching_board()) == [4, 5, 6]
    assert lesson.OTHER_TUNNELS == {"classic Europe": 3}  # U1


def test_which_tunnels_are_free_more_often_than_not():
    """Issue 14: paid with locomotives only, 3- and 4-card tunnels are free more often than not
    (full deck: 0.6620 and 0.5754 in the rules reference), and colour claims never are."""
    deck = standard_deck()
    sizes = [3, 4, 5, 6]
    loco = {n: Fraction(comb(96, n), comb(110, n)) for n in sizes}
    assert [round(float(loco[n]), 4) for n in sizes] == [0.662, 0.5754, 0.4994, 0.4328]
    assert lesson.free_more_often(deck, Color.LOCOMOTIVE, sizes) == [3, 4]
    assert lesson.free_more_often(deck, Color.RED, sizes) == []
    for n in sizes:
        assert tunnel_extra_cost(deck, Color.LOCOMOTIVE, n).prob(0) == loco[n]


def test_reshuffle_example_splits_the_reveal():
    """The lesson's U6 example: 2 cards from the draw pile (20 unseen, 5 matching red), then 3
    of the 12 reshuffled discards (4 matching): two hypergeometric counts, added."""
    law = lesson.reshuffle_law(lesson.RESHUFFLE_EXAMPLE)
    pile, disc = hypergeom(20, 5, 2), hypergeom(12, 4, 3)
    total: dict[int, Fraction] = {}
    for i, p in pile.items():
        for j, q in disc.items():
            total[i + j] = total.get(i + j, Fraction(0)) + p * q
    assert law.pmf == total


@pytest.mark.parametrize("case", [lesson.RESHUFFLE_EXAMPLE, lesson.RESHUFFLE_EXERCISE])
def test_reshuffle_cases_are_possible_card_counts(case):
    assert case["unseen"] + case["discard"] <= standard_deck()
    assert case["draw_pile"] <= len(case["unseen"]) and isinstance(case["discard"], CardCounts)
