"""The class server's JSON bodies are read with a depth bound (issue 30, finding 4): a body
nested a thousand deep made json.loads raise RecursionError, a 500 with a traceback."""

import pytest

from ttrlib.server.json_body import MAX_DEPTH, BadBody, nesting_depth, read_json


def test_depth_counts_brackets_outside_strings_only():
    # counted by hand: {"a": "[[[[" , "b": [1, {"c": 2}]} -> { [ { is three deep
    assert nesting_depth('{"a": "[[[[", "b": [1, {"c": 2}]}') == 3
    assert nesting_depth('"\\"[[["') == 0  # an escaped quote does not end the string
    assert nesting_depth("[]") == 1


@pytest.mark.parametrize("body, words", [
    (b"[" * 1000 + b"]" * 1000, "nests deeper"),
    (b"{" * (MAX_DEPTH + 1), "nests deeper"),
    (b"\xff\xfe", "not UTF-8"),
    (b'{"kind": ', "not JSON"),
])
def test_bad_bodies_are_refused_with_a_sentence(body, words):
    with pytest.raises(BadBody) as caught:
        read_json(body)
    assert words in str(caught.value)
    assert len(str(caught.value)) < 100  # never an echo of the body


def test_good_bodies_are_read():
    assert read_json(b"") is None
    assert read_json(b'{"a": [1, "x"]}') == {"a": [1, "x"]}
    assert read_json(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH) is not None
