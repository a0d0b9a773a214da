"""Tournaments shared between kernels (issue 24, item 4): ``ttrlib.result_cache`` and
``tournament(cache=...)``.

Thirty learners pressing the same Run compute once: the first process computes, the others wait
(with a Stop that works while waiting) and read. A Stop stores nothing, a corrupt file is
computed again, an unusable folder only turns the sharing off. The counts of computations come
from counters kept outside the code under test (a file each computation appends to).
"""

from __future__ import annotations

import json
import multiprocessing
import sys
import threading
from pathlib import Path

import pytest

from ttrlib import experiments
from ttrlib.experiments import PRESETS, tournament
from ttrlib.result_cache import shared

TEAMS = [PRESETS["greedy"], PRESETS["team-first"]]
# The lock is fcntl's and the child processes are forked: neither exists on Windows, where the
# cache only stores whole results (see ttrlib.result_cache).
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="fcntl locks and fork: POSIX")


class Halt(Exception):
    pass


def _slow_count(counter: Path, value, pause: float = 0.3):
    """A computation that appends a line to ``counter`` (one line per computation) and
    reports its progress."""
    def compute(report):
        import time

        with counter.open("a") as f:
            f.write("computed\n")
        for done in range(1, 6):
            time.sleep(pause / 5)
            report(done, 5)
        return value
    return compute


def _until(condition, what: str, limit_s: float = 120) -> None:
    """Poll ``condition``: a generous bound that only keeps a broken lock from hanging the
    suite, not a speed check."""
    import time

    deadline = time.monotonic() + limit_s
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def _computations(counter: Path) -> int:
    return len(counter.read_text().splitlines()) if counter.exists() else 0


def test_the_first_call_computes_and_the_next_reads(tmp_path):
    counter = tmp_path / "count"
    key = {"what": "a test", "n": 1}
    assert shared(key, _slow_count(counter, [1, 2], 0), folder=tmp_path / "c") == [1, 2]
    assert shared(key, _slow_count(counter, [9], 0), folder=tmp_path / "c") == [1, 2]
    assert _computations(counter) == 1
    assert shared({"what": "a test", "n": 2}, _slow_count(counter, [3], 0),
                  folder=tmp_path / "c") == [3]
    assert _computations(counter) == 2


@pytest.mark.parametrize("damage", ["", "{", '{"key": {"what": "other"}, "value": [5]}',
                                    '{"key": {"what": "a test"}}', "[1, 2, 3]",
                                    '{"key": {"what": "a test"}, "value": "not a list"}'])
def test_a_damaged_file_is_computed_again_without_an_error(tmp_path, damage):
    folder, counter, key = tmp_path / "c", tmp_path / "count", {"what": "a test"}

    def decode(value):
        if not isinstance(value, list):
            raise ValueError("not a list")
        return value

    shared(key, _slow_count(counter, [1], 0), folder=folder, decode=decode)
    (stored,) = folder.glob("*.json")
    stored.write_text(damage)
    assert shared(key, _slow_count(counter, [7], 0), folder=folder, decode=decode) == [7]
    assert _computations(counter) == 2
    assert json.loads(stored.read_text())["value"] == [7]  # replaced by a whole result


def test_a_stopped_computation_stores_nothing(tmp_path):
    folder, counter, key = tmp_path / "c", tmp_path / "count", {"what": "stopped"}

    def stopped(report):
        report(1, 5)
        raise Halt
    with pytest.raises(Halt):
        shared(key, stopped, folder=folder)
    assert not list(folder.glob("*.json")) and not list(folder.glob("*.progress"))
    assert shared(key, _slow_count(counter, [2], 0), folder=folder) == [2]
    assert _computations(counter) == 1


def test_an_unusable_folder_only_turns_the_sharing_off(tmp_path):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    counter = tmp_path / "count"
    assert shared({"k": 1}, _slow_count(counter, [4], 0), folder=blocker / "cache") == [4]
    assert _computations(counter) == 1


@posix_only
def test_a_waiting_caller_sees_the_progress_and_can_stop_then_reads_the_result(tmp_path):
    """Two callers in threads (each opens its own lock, as two kernels do): the second waits,
    sees the first's progress, and a Stop ends only its own waiting."""
    folder, counter, key = tmp_path / "c", tmp_path / "count", {"what": "shared"}
    first = threading.Thread(target=shared, args=(key, _slow_count(counter, [6], 2.0)),
                             kwargs={"folder": folder})
    first.start()
    seen = []

    def wait(done, total):
        seen.append((done, total))
        if done >= 2:
            raise Halt
    try:
        _until(counter.exists, "the first caller did not start")  # it counts once locked
        with pytest.raises(Halt):
            shared(key, _slow_count(counter, [0], 0), folder=folder, wait=wait)
        assert any(d >= 2 and t == 5 for d, t in seen)
    finally:
        first.join()
    assert shared(key, _slow_count(counter, [0], 0), folder=folder) == [6]
    assert _computations(counter) == 1


def _count_and_play(args):
    """In a child process: count every game played (a line in a file), then run the
    tournament with the shared cache."""
    folder, counter, games = args
    original = experiments.play_one

    def counted(job):
        with open(counter, "a") as f:
            f.write(f"{job[3]}\n")
        return original(job)
    experiments.play_one = counted
    result = tournament(TEAMS, games=games, seed=5, executor="serial", progress=False,
                        cache=folder)
    return [(r.game, r.totals) for r in result.results]


@posix_only
def test_four_processes_asking_the_same_tournament_play_it_once(tmp_path):
    games = 12
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(4) as pool:
        outs = pool.map(_count_and_play, [(tmp_path / "c", tmp_path / "games", games)] * 4)
    played = (tmp_path / "games").read_text().split()
    assert sorted(map(int, played)) == list(range(games))  # each game once, in one process
    alone = tournament(TEAMS, games=games, seed=5, executor="serial", progress=False)
    assert all(out == [(r.game, r.totals) for r in alone.results] for out in outs)


def test_a_cached_tournament_is_the_tournament_and_is_keyed_by_its_settings(tmp_path,
                                                                            monkeypatch):
    folder = tmp_path / "c"
    plain = tournament(TEAMS, games=6, seed=2, executor="serial", progress=False)
    first = tournament(TEAMS, games=6, seed=2, executor="serial", progress=False, cache=folder)
    assert first == plain

    def no_games(job):
        raise AssertionError("a game was played again")
    monkeypatch.setattr(experiments, "play_one", no_games)
    again = tournament(TEAMS, games=6, seed=2, executor="serial", progress=False, cache=folder)
    assert again == plain
    for other in ({"games": 7}, {"seed": 3}, {"teams": TEAMS[::-1]},
                  {"teams": [TEAMS[0], PRESETS["odds-aware"]]}):
        args = {"teams": TEAMS, "games": 6, "seed": 2, **other}
        with pytest.raises(AssertionError, match="played again"):
            tournament(args.pop("teams"), executor="serial", progress=False, cache=folder,
                       **args)


def test_a_tournament_file_of_other_games_is_played_again(tmp_path):
    folder = tmp_path / "c"
    plain = tournament(TEAMS, games=4, seed=2, executor="serial", progress=False)
    tournament(TEAMS, games=4, seed=2, executor="serial", progress=False, cache=folder)
    (stored,) = folder.glob("*.json")
    data = json.loads(stored.read_text())
    data["value"] = data["value"][:3]  # cut short
    stored.write_text(json.dumps(data))
    assert tournament(TEAMS, games=4, seed=2, executor="serial", progress=False,
                      cache=folder) == plain
    data["value"] = [[g + 1, *rest] for g, *rest in json.loads(stored.read_text())["value"]]
    stored.write_text(json.dumps(data))  # games renumbered: not this tournament's
    assert tournament(TEAMS, games=4, seed=2, executor="serial", progress=False,
                      cache=folder) == plain


def test_a_stopped_tournament_stores_nothing(tmp_path):
    folder = tmp_path / "c"

    def stop_at_3(done, total):
        if done == 3:
            raise Halt
    with pytest.raises(Halt):
        tournament(TEAMS, games=6, seed=2, executor="serial", progress=stop_at_3, cache=folder)
    assert not list(folder.glob("*.json"))
    played = []
    tournament(TEAMS, games=6, seed=2, executor="serial", cache=folder,
               progress=lambda done, total: played.append(done))
    assert played == [1, 2, 3, 4, 5, 6]


def _hold(folder):
    tournament(TEAMS, games=2000, seed=9, executor="serial", progress=False, cache=folder)


@posix_only
def test_the_stop_button_works_while_another_kernel_plays_the_same_tournament(tmp_path,
                                                                             monkeypatch):
    pytest.importorskip("ipywidgets")
    from ttrlib.widgets.tournament import StrategyTournament

    monkeypatch.setenv("TTR_CACHE_DIR", str(tmp_path / "c"))
    other = multiprocessing.get_context("fork").Process(target=_hold, args=(tmp_path / "c",))
    other.start()
    try:
        box = StrategyTournament(seed=9, first="greedy", second="team-first", games=2000,
                                 executor="serial")
        _until(lambda: list((tmp_path / "c").glob("*.progress")), "the other did not play")
        box.run_button.click()
        _until(lambda: box.bar.value > 0, "the other kernel's progress was not shown")
        assert box.running and box.stop_button.layout.display != "none"
        box.stop_button.click()
        box.thread.join(60)
        assert not box.running and box.result is None
        assert "Stopped after" in box.message.value and not box.run_button.disabled
        box.close()
    finally:
        other.kill()
        other.join()
    assert not list((tmp_path / "c").glob("*.json"))  # the killed kernel stored nothing
