import functools
import inspect
import re
import sys
from pathlib import Path

# The tests share small helpers (lab_harness) that live beside them.
sys.path.insert(0, str(Path(__file__).parent))

try:  # hypothesis tests draw the same examples on every run (a fixed seed, as every test here);
    # a test without a count of its own draws hypothesis' 100, a tenth in the quick loop
    from hypothesis import settings
    from quick_profile import examples

    settings.register_profile("ttrlib", derandomize=True, max_examples=examples(100))
    settings.load_profile("ttrlib")
except ImportError:  # pragma: no cover - hypothesis is in the test extra
    pass


# The learner's door deals through a key file (ttrlib.deals). The tests use a key of their own,
# the same on every run (so a test's game number deals the same game each time), never the
# developer's ~/.local/share/ttrlib/deal-key. Kernels started by the tests (notebooks, Voila)
# inherit it. A test of the key file itself sets TTRLIB_DEAL_KEY to a path of its own.
TEST_DEAL_KEY = "5e" * 32


def _test_deal_key() -> None:
    import os
    import tempfile

    if os.environ.get("TTRLIB_DEAL_KEY"):
        return
    folder = tempfile.mkdtemp(prefix="ttrlib-test-keys-")
    path = Path(folder) / "deal-key"
    path.write_text(TEST_DEAL_KEY)
    path.chmod(0o600)
    os.environ["TTRLIB_DEAL_KEY"] = str(path)


_test_deal_key()


# Issue 24: the legal-action caches are brought up to date from each effect's changes; in the
# tests every kept answer is compared with the same answer rebuilt from scratch (the check mode
# of ttrlib.rules.check_mode), so a wrong update fails whichever test plays the position.
try:
    import pytest

    @pytest.fixture(autouse=True)
    def _legal_check_mode(monkeypatch):
        from ttrlib.rules import check_mode

        monkeypatch.setattr(check_mode, "CHECK", True)
        yield
except ImportError:  # pragma: no cover - pytest runs the tests
    pass


# --- the quick loop (issue 31): markers for every test that needs more than this process ------
# `make test-quick` runs `-m "not (browser or notebook or hub or server or network or slow)"`.
# browser, notebook and hub are marked in their files; the three below are found here, so that
# a new test gets its marker without anyone remembering it:
#   server  - starts a class-server process (``server_harness.start_server``, or
#             ``python -m ttrlib.server`` itself) or a server through ``make`` (JupyterLab,
#             Voila) or the classroom app (``lab_harness.classroom``), directly, through a
#             fixture or a helper of its module;
#   network - asks the package index (a short table: the one delivery test);
#   slow    - starts worker processes (a process pool, a fork, a Dask cluster), or is one of the
#             few in-process tests that take many CPU-seconds (a short table, measured).
_STARTS = {
    "server": re.compile(r"\b(start_server|_make_serves)\(|\b(h|lab_harness)\.classroom\("
                         r"|[\"']-m[\"'],\s*[\"']ttrlib\.server[\"']"),
    "slow": re.compile(r"\b(ProcessPoolExecutor|LocalCluster|get_context|Pool)\("),
}
_NETWORK = {"test_delivery.py::test_binder_pins_resolve_on_python_311"}
# In-process tests of more than ~10 CPU-seconds each on the machine of issue 31 (pytest
# --durations); whole games played many times over. They run in `make test`.
# A test of worker processes that ttrlib starts itself (executor=None) and one that waits out a
# 20 s timeout are named here too (a name with its parameters marks that case only).
_SLOW = {
    "test_save_mutation.py::test_a_mutated_save_is_refused_naming_a_field_or_is_valid_and_goes_on",
    "test_experiments.py::test_tournament_widget_runs_and_reads_out_the_result",
    "test_experiments.py::test_the_stop_button_stops_a_tournament_and_the_sweep[None]",
    "test_recording.py::test_a_report_that_fails_costs_the_learner_nothing[never answers]",
    # whole games and classes against an in-process server (no server process, so no
    # ``server`` marker): 10-18 s each here, the first with four client processes
    "test_server_tables_games.py::test_four_client_processes_play_a_whole_game_and_every_body_is_the_seats_view",
    "test_server_tables_games.py::test_a_six_player_table_of_bots_and_one_learner_ends_and_replays",
    "test_recording.py::test_thirty_learners_through_the_widgets_add_up_as_counted",
    # Issue 31's second round, from `--durations=0` of the quick set (per-file sums: the fuzzer
    # alone was a third of its time, the seeded perft positions a ninth). Each is a long loop
    # of whole games or of every legal action; a cheaper case of the same property stays in the
    # quick loop beside each (perft's other tests, the [None] strategy, the other screens'
    # secrets, the refusals of a mutated save's start).
    "test_fuzz.py::test_fuzz_games",
    # two of lesson 06's three never-ending deals (2-3 s each); the third stays in the quick loop
    "test_answer_key_06.py::test_resume_story_of_a_deal_that_once_never_ended"
    "[114737707665363063858824242106125509253]",
    "test_answer_key_06.py::test_resume_story_of_a_deal_that_once_never_ended"
    "[79489868811767120949435305230699781778]",
    "test_perft.py::test_legal_actions_are_exactly_those_the_rules_list",
    "test_save_mutation.py::test_a_mutated_history_is_refused_naming_its_step_or_replays_to_a_game_its_log_explains",
    "test_remote_widget_secrets.py::test_the_team_game_at_a_class_table_depends_only_on_the_seat",
    "test_widget_secrets.py::test_coach_hint_depends_only_on_the_seat",
    "test_widget_secrets.py::test_team_game_over_several_turns_depends_only_on_the_seat",
    "test_experiments.py::test_the_stop_button_stops_a_tournament_and_the_sweep[serial]",
    "test_seat_odds.py::test_simulated_claims_through_the_engine_agree_with_the_seat_odds",
    "test_coach.py::test_same_view_different_hidden_cards_same_evaluation",
    "test_coach_bot.py::test_tournament_takes_the_coach",
    "test_bots.py::test_greedy_choice_does_not_depend_on_hidden_information[team-first]",
    "test_bots.py::test_greedy_choice_does_not_depend_on_hidden_information[odds-aware]",
    "test_bots.py::test_greedy_choice_does_not_depend_on_hidden_information[ticket-sharer]",
    # the second measured round (make test-quick with the above left out): perft's seeded
    # positions are built by whichever of its tests runs first (40 s), so all that read them
    "test_perft.py::test_the_positions_cover_every_phase_and_both_player_counts",
    "test_perft.py::test_the_positions_reach_the_corners",
    "test_perft.py::test_each_family_lists_exactly_its_own_actions",
    "test_server_tables.py::test_a_seat_handed_to_a_bot_plays_at_once_and_comes_back",
    "test_experiments.py::test_seats_rotate_between_strategies",
    "test_experiments.py::test_lesson_07s_widgets_import_scipy_stats_when_the_lesson_starts",
    "test_english.py::test_the_team_game_played_to_the_end_reads_as_english",
    "test_bot_at_my_seat.py::test_a_bots_turn_at_my_seat_is_shown_on_my_page",
    "test_odds.py::test_sympy_formula_agrees_with_fractions_on_a_grid",
    "test_deals.py::test_a_game_without_a_number_is_none_of_the_9000_four_digit_deals",
    # the team game's refusals at a class table (an in-process table and a remote session per
    # phase, 2-4 s each); the same refusals of the local game stay in the quick loop
    *(f"test_widget_refusals.py::test_every_refusal_of_the_team_game_names_a_rule_and_no_field"
      f"[table-{phase}]" for phase in ("setup_tickets", "turn", "second_card", "place_card",
                                       "choose_tickets", "tunnel", "over")),
    # the coach's hint at a class table asked three times (about 15 CPU-seconds)
    "test_remote_widget_secrets.py::test_the_coachs_hint_at_a_class_table_depends_only_on_the_seat",
}


_TESTS = Path(__file__).resolve().parent


# The marks are worked out for every test of the suite at each collection (in each xdist
# worker); a fixture's file and a function's source are read once each, not once per test.
@functools.lru_cache(maxsize=None)
def _file(obj) -> str:
    try:
        return str(Path(inspect.getfile(obj)).resolve())
    except (OSError, TypeError):
        return ""


@functools.lru_cache(maxsize=None)
def _source(obj) -> str:
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        return ""


def _starters(module, kind: str) -> set[str]:
    """Names of the module's own functions that start what ``kind`` names, directly or through
    another of them (to a fixed point)."""
    cache = module.__dict__.setdefault("_ttr_starters", {})
    if kind in cache:
        return cache[kind]
    own = {name: _source(f) for name, f in vars(module).items()
           if inspect.isfunction(f) and f.__module__ == module.__name__}
    found: set[str] = set()
    while True:
        calls = re.compile(r"\b(%s)\(" % "|".join(map(re.escape, found))) if found else None
        more = {name for name, text in own.items() if name not in found and (
            _STARTS[kind].search(text) or (calls and calls.search(text)))}
        if not more:
            break
        found |= more
    cache[kind] = found
    return found


def _starts(item, kind: str) -> bool:
    functions = [item.function]
    for defs in item._fixtureinfo.name2fixturedefs.values():  # the tests' own fixtures only
        functions += [d.func for d in defs if _TESTS in Path(_file(d.func)).parents]
    starters = _starters(item.module, kind)
    calls = re.compile(r"\b(%s)\(" % "|".join(map(re.escape, starters))) if starters else None
    for f in functions:
        text = _source(f)
        if _STARTS[kind].search(text) or (calls and calls.search(text)):
            return True
    return False


def pytest_collection_modifyitems(config, items):
    for item in items:
        if not isinstance(item, pytest.Function):
            continue
        keys = {f"{item.path.name}::{item.originalname}", f"{item.path.name}::{item.name}"}
        for kind in _STARTS:
            if _starts(item, kind):
                item.add_marker(kind)
        if keys & _NETWORK:
            item.add_marker("network")
        if keys & _SLOW:
            item.add_marker("slow")
