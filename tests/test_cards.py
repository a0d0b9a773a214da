"""Train cards (rule C1) and the ``CardCounts`` multiset every rule works with.

C1: the train deck holds 110 cards, 12 in each of 8 colours (purple, white, blue, yellow, orange,
black, red, green) and 14 locomotives. ``CardCounts`` is the immutable, hashable multiset the
engine counts hands, cardholders, payments and the discard with.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from quick_profile import examples

from ttrlib.cards import (
    CARDS_PER_COLOR,
    COLORS,
    DECK_SIZE,
    EMPTY,
    LOCOMOTIVES,
    TRAIN_COLORS,
    CardCounts,
    Color,
    standard_deck,
)

C1_COLOURS = ["purple", "white", "blue", "yellow", "orange", "black", "red", "green"]


# --------------------------------------------------------------------------------------------------
# C1: the standard deck
# --------------------------------------------------------------------------------------------------


def test_C1_standard_deck_has_110_cards():
    deck = standard_deck()
    assert len(deck) == 110
    assert deck.total == 110
    assert DECK_SIZE == 110


def test_C1_twelve_cards_of_each_of_the_eight_colours():
    deck = standard_deck()
    assert sorted(c.value for c in TRAIN_COLORS) == sorted(C1_COLOURS)
    for name in C1_COLOURS:
        assert deck[name] == 12
        assert deck[Color(name)] == 12
    assert CARDS_PER_COLOR == 12


def test_C1_fourteen_locomotives():
    deck = standard_deck()
    assert deck[Color.LOCOMOTIVE] == 14
    assert deck["locomotive"] == 14
    assert LOCOMOTIVES == 14


def test_C1_nine_card_kinds_and_no_other():
    """The deck holds the 8 colours and the locomotive, nothing else (C1)."""
    deck = standard_deck()
    assert len(COLORS) == 9
    assert set(COLORS) == set(TRAIN_COLORS) | {Color.LOCOMOTIVE}
    assert Color.LOCOMOTIVE not in TRAIN_COLORS
    assert set(deck.colors()) == set(COLORS)
    assert sum(n for _, n in deck.items()) == 8 * 12 + 14
    assert len(deck.elements()) == 110


def test_C1_standard_deck_is_a_fresh_equal_value_each_call():
    assert standard_deck() == standard_deck()
    assert hash(standard_deck()) == hash(standard_deck())


# --------------------------------------------------------------------------------------------------
# building a CardCounts
# --------------------------------------------------------------------------------------------------


def test_cardcounts_from_keywords_mapping_iterable_and_copy_agree():
    a = CardCounts(red=2, locomotive=1)
    b = CardCounts({Color.RED: 2, "locomotive": 1})
    c = CardCounts.of([Color.RED, "red", Color.LOCOMOTIVE])
    d = CardCounts(a)
    assert a == b == c == d
    assert a[Color.RED] == 2 and a["red"] == 2 and a[Color.LOCOMOTIVE] == 1
    assert a[Color.BLUE] == 0
    assert a.get("blue") == 0


def test_cardcounts_mapping_and_keywords_add_up():
    assert CardCounts({"red": 1}, red=2) == CardCounts(red=3)


def test_cardcounts_locomotive_aliases():
    assert CardCounts.of(["loco", "wild", "LOCOMOTIVES", " Locomotive "]) == CardCounts(locomotive=4)
    assert Color.parse("loco") is Color.LOCOMOTIVE
    assert Color.parse("RED") is Color.RED
    assert Color.parse(Color.GREEN) is Color.GREEN


def test_cardcounts_zero_counts_are_allowed_and_empty():
    z = CardCounts(red=0, blue=0)
    assert z == EMPTY == CardCounts()
    assert len(z) == 0
    assert not z
    assert z.describe() == "no cards"
    assert z.items() == []


@pytest.mark.parametrize("kw", [{"red": -1}, {"locomotive": -3}])
def test_cardcounts_negative_count_is_an_error(kw):
    with pytest.raises(ValueError, match="cannot be negative"):
        CardCounts(**kw)


def test_cardcounts_negative_count_in_mapping_is_an_error():
    with pytest.raises(ValueError, match="negative"):
        CardCounts({Color.BLUE: -2})


@pytest.mark.parametrize("bad", ["mauve", "", "gray", "grey", "rainbow"])
def test_cardcounts_unknown_colour_is_an_error(bad):
    with pytest.raises(ValueError, match="unknown card colour"):
        CardCounts({bad: 1})
    with pytest.raises(ValueError, match="unknown card colour"):
        CardCounts.of(["red", bad])
    with pytest.raises(ValueError, match="unknown card colour"):
        Color.parse(bad)


def test_cardcounts_unknown_keyword_colour_is_an_error():
    with pytest.raises(ValueError, match="unknown card colour"):
        CardCounts(mauve=1)


@pytest.mark.parametrize("bad", [1.5, "2", None, True])
def test_cardcounts_non_integer_count_is_a_type_error(bad):
    with pytest.raises(TypeError):
        CardCounts(red=bad)


def test_cardcounts_rejects_a_non_mapping_positional_argument():
    with pytest.raises(TypeError):
        CardCounts(["red", "red"])


def test_color_parse_rejects_non_strings():
    with pytest.raises(ValueError):
        Color.parse(3)


# --------------------------------------------------------------------------------------------------
# arithmetic and comparison
# --------------------------------------------------------------------------------------------------


def test_cardcounts_addition():
    a = CardCounts(red=2, locomotive=1)
    b = CardCounts(red=1, blue=4)
    assert a + b == CardCounts(red=3, blue=4, locomotive=1)
    assert b + a == a + b
    assert a + EMPTY == a
    assert len(a + b) == 8


def test_cardcounts_subtraction():
    a = CardCounts(red=3, blue=4, locomotive=1)
    assert a - CardCounts(red=1, blue=4) == CardCounts(red=2, locomotive=1)
    assert a - a == EMPTY
    assert a - EMPTY == a


def test_cardcounts_subtracting_missing_cards_is_an_error_naming_them():
    with pytest.raises(ValueError, match="missing 1 red"):
        CardCounts(red=2) - CardCounts(red=3)
    with pytest.raises(ValueError, match="2 green"):
        CardCounts(red=2) - CardCounts(green=2)


def test_cardcounts_minus_available_and_intersection():
    a = CardCounts(red=3, blue=1)
    b = CardCounts(red=1, blue=2, green=5)
    assert a.minus_available(b) == CardCounts(red=2)
    assert b.minus_available(a) == CardCounts(blue=1, green=5)
    assert a.intersection(b) == CardCounts(red=1, blue=1)


def test_cardcounts_arithmetic_with_other_types_is_not_supported():
    with pytest.raises(TypeError):
        CardCounts(red=1) + {"red": 1}
    with pytest.raises(TypeError):
        CardCounts(red=1) - 1
    with pytest.raises(TypeError):
        _ = CardCounts(red=1) <= {"red": 2}


def test_cardcounts_sub_multiset_comparison():
    small = CardCounts(red=1)
    big = CardCounts(red=2, locomotive=1)
    assert small <= big and small < big
    assert big >= small and big > small
    assert big <= big and not big < big
    assert big >= big and not big > big
    other = CardCounts(blue=1)
    # a partial order: neither is part of the other
    assert not other <= big and not big <= other
    assert not other < big and not other > big


def test_cardcounts_equality_and_hash():
    a = CardCounts(red=2, blue=1)
    b = CardCounts.of(["blue", "red", "red"])
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b, CardCounts(red=2)}) == 2
    assert {a: "x"}[b] == "x"
    assert a != CardCounts(red=2, blue=2)
    assert a != {"red": 2, "blue": 1}  # not equal to a plain dict
    assert (a == "red") is False


def test_cardcounts_is_immutable():
    a = CardCounts(red=2)
    before = a.as_tuple()
    with pytest.raises(TypeError):
        a["red"] = 5  # type: ignore[index]
    with pytest.raises(AttributeError):
        a.red = 5  # type: ignore[attr-defined]
    b = a
    b += CardCounts(red=1)  # rebinds b, a is untouched
    assert a.as_tuple() == before
    assert a == CardCounts(red=2) and b == CardCounts(red=3)
    _ = a - CardCounts(red=1)
    assert a == CardCounts(red=2)


def test_cardcounts_reading_helpers():
    a = CardCounts(locomotive=1, red=2)
    assert a.items() == [(Color.RED, 2), (Color.LOCOMOTIVE, 1)]  # deck order
    assert a.colors() == [Color.RED, Color.LOCOMOTIVE]
    assert a.elements() == [Color.RED, Color.RED, Color.LOCOMOTIVE]
    assert a.to_dict() == {"red": 2, "locomotive": 1}
    assert a.describe() == "2 red, 1 locomotive"
    assert len(a.as_tuple()) == len(COLORS)
    assert repr(a) == "CardCounts(red=2, locomotive=1)"
    assert bool(a)


@pytest.mark.parametrize("cards, words", [
    (CardCounts(locomotive=1), "1 locomotive"),
    (CardCounts(locomotive=3), "3 locomotives"),
    (CardCounts(locomotive=14), "14 locomotives"),
    # a colour word stands for "... cards": the same in the singular and the plural
    (CardCounts(purple=1, white=2), "1 purple, 2 white"),
    (CardCounts(blue=3, yellow=1), "3 blue, 1 yellow"),
    (CardCounts(orange=2, black=1), "2 orange, 1 black"),
    (CardCounts(red=1, green=12), "1 red, 12 green"),
    (CardCounts(green=2, red=3, locomotive=2), "3 red, 2 green, 2 locomotives"),  # deck order
    (CardCounts(), "no cards"),
])
def test_describe_reads_as_plain_words(cards, words):  # issue 9: "3 locomotive" was a slip
    assert cards.describe() == words


# --------------------------------------------------------------------------------------------------
# properties
# --------------------------------------------------------------------------------------------------

counts = st.builds(
    lambda values: CardCounts(dict(zip(COLORS, values))),
    st.lists(st.integers(0, 14), min_size=len(COLORS), max_size=len(COLORS)),
)


@settings(max_examples=examples(200), deadline=None)
@given(counts, counts)
def test_cardcounts_multiset_laws(a, b):
    assert a + b == b + a
    assert (a + b) - b == a
    assert len(a + b) == len(a) + len(b)
    assert a <= a + b and b <= a + b
    assert a.minus_available(b) + a.intersection(b) == a
    assert (a <= b) == (a.minus_available(b) == EMPTY)
    if a == b:
        assert hash(a) == hash(b)
    assert CardCounts.of(a.elements()) == a
    assert CardCounts(a.to_dict()) == a


@settings(max_examples=examples(100), deadline=None)
@given(counts, counts)
def test_cardcounts_subtraction_is_defined_exactly_on_sub_multisets(a, b):
    if b <= a:
        assert (a - b) + b == a
    else:
        with pytest.raises(ValueError):
            a - b
