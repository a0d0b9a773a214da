"""A preheated classroom kernel asks Voila for the learner's request until it has it.

Voila's own ``wait_for_request`` gives up when its socket does not open within 5 s (a busy
server) and returns without a query string; the lesson then dealt a random game instead of the
class's ``?seed=``. These tests stand in for Voila with a fake that misses a given number of
times, as a busy server does.
"""

import pytest

voila_utils = pytest.importorskip("voila.utils")

import ttrlib.lessons as lessons  # noqa: E402


def _busy_voila(monkeypatch, misses: int, query_string: str) -> list[str]:
    calls: list[str] = []

    def wait_for_request(url=None):
        calls.append("asked")
        if len(calls) > misses:
            monkeypatch.setenv("QUERY_STRING", query_string)
            monkeypatch.setenv("HTTP_COOKIE", "ttr_learner=" + "a" * 32)

    monkeypatch.setattr(voila_utils, "wait_for_request", wait_for_request)
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    for name in ("QUERY_STRING", "HTTP_COOKIE", "TTR_SEED"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(lessons, "_waited", False)
    return calls


def test_the_seed_survives_a_server_that_misses_twice(monkeypatch):
    calls = _busy_voila(monkeypatch, misses=2, query_string="seed=7")
    assert lessons.session_seed() == 7
    assert calls == ["asked"] * 3
    assert lessons.session_seed() == 7 and len(calls) == 3  # asked once per kernel, not per cell


def test_a_page_without_a_query_is_asked_for_once(monkeypatch):
    calls = _busy_voila(monkeypatch, misses=0, query_string="")
    assert lessons.session_seed() is None
    assert calls == ["asked"]


def test_a_server_that_never_answers_costs_a_bounded_number_of_tries(monkeypatch):
    calls = _busy_voila(monkeypatch, misses=1000, query_string="seed=7")
    assert lessons.session_seed() is None  # a random game of the learner's own, no hang
    assert len(calls) == lessons.REQUEST_TRIES == 6
