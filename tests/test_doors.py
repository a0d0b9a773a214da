"""The library's doors (issue 30, finding 9): junk given to ``deals.named``,
``SeatSession.new(seed=, seat=)`` and ``load_board`` is refused with a ttrlib error that names
the argument, bounded, never a foreign exception (a ``KeyError``, numpy's ``ValueError``...)."""

from __future__ import annotations

from numbers import Integral

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from quick_profile import examples

from ttrlib import deals
from ttrlib.board import load_board
from ttrlib.errors import MAX_MESSAGE, ArgumentError, BoardError, TTRError
from ttrlib.session import SeatSession

# Game numbers are below 2**63, as the class server's table numbers (written out here).
BELOW = 2**63

# What a caller may hand a door by mistake: every kind of value, and numbers near each bound.
JUNK = st.one_of(
    st.none(), st.booleans(), st.text(max_size=12), st.binary(max_size=6),
    st.floats(allow_nan=True, allow_infinity=True), st.complex_numbers(max_magnitude=10),
    st.integers(-2**70, 2**70), st.sampled_from([-1, BELOW - 1, BELOW, 10**5000, 7, 0]),
    st.lists(st.integers(0, 9), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(),
                                                               max_size=2),
    st.builds(np.int64, st.integers(-5, 5)), st.just(np.float64(2.0)), st.just(object()),
)


def test_the_bound_is_the_servers():
    assert deals.MAX_NUMBER == BELOW


def whole(value: object) -> bool:
    """A whole number, numpy's too, never a bool: written here from the docstrings."""
    return isinstance(value, Integral) and not isinstance(value, (bool, np.bool_))


def refused_naming(call, name: str) -> TTRError:
    with pytest.raises(TTRError) as info:
        call()
    message = str(info.value)
    assert name in message and len(message) <= MAX_MESSAGE, message
    assert isinstance(info.value, (ArgumentError, BoardError)), type(info.value)
    return info.value


@settings(max_examples=examples(300), deadline=None)
@given(number=JUNK)
def test_a_game_number_is_a_whole_number_below_the_bound(number):
    if whole(number) and 0 <= number < BELOW:
        assert deals.named(number, 4).number == number
    else:
        refused_naming(lambda: deals.named(number, 4), "number")


@settings(max_examples=examples(100), deadline=None)
@given(players=JUNK)
def test_a_deal_is_for_four_or_six_players(players):
    if whole(players) and players in (4, 6):
        assert deals.named(3, players).seed == deals.named(3, int(players)).seed
    else:
        refused_naming(lambda: deals.named(3, players), "players")


@settings(max_examples=examples(200), deadline=None)
@given(seed=JUNK)
def test_a_seat_session_takes_a_game_number_or_none(seed):
    if seed is None or (whole(seed) and 0 <= seed < BELOW):
        assert SeatSession.new(seed=seed).seed == seed
    else:
        refused_naming(lambda: SeatSession.new(seed=seed), "seed")


@settings(max_examples=examples(200), deadline=None)
@given(seat=JUNK, players=st.sampled_from([4, 6]))
def test_a_seat_session_takes_a_seat_of_the_game(seat, players):
    if whole(seat) and 0 <= seat < players:
        assert SeatSession.new(seed=1, seat=seat, players=players).seat == seat
    else:
        refused_naming(lambda: SeatSession.new(seed=1, seat=seat, players=players), "seat")


def test_the_old_wrong_seats_are_refused_by_name():
    # each of these was let through or raised a bare ValueError/TypeError before
    for seat in (True, 1.0, -1, 4, "0", None):
        refused_naming(lambda seat=seat: SeatSession.new(seed=1, seat=seat), "seat")
    for seed in ("7", 7.0, True, -1, 10**5000, BELOW):
        refused_naming(lambda seed=seed: SeatSession.new(seed=seed), "seed")


@pytest.mark.parametrize("path", ["boards/a\x00b.toml", b"x\x00.toml", 5, None, 1.5, ["x"]],
                         ids=repr)
def test_a_board_path_that_is_no_path_is_refused(path):
    refused_naming(lambda: load_board(path), "path" if not isinstance(path, str) else "NUL")


@pytest.mark.parametrize("content", [b'name = "x\x00"\n', b"\x00", b"\xff\xfe", b"name = 1\x00"],
                         ids=repr)
def test_a_board_file_with_a_nul_or_not_utf8_is_a_board_error(tmp_path, content):
    path = tmp_path / "board.toml"
    path.write_bytes(content)
    with pytest.raises(BoardError) as info:
        load_board(path)
    assert "board.toml" in str(info.value) and len(str(info.value)) <= MAX_MESSAGE
