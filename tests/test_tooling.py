"""The contributor's tools (issue 31): the quick loop's markers and the strict core of mypy."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())

# Issue 31's engine core, written out here from the issue (not read from pyproject.toml).
ISSUE_CORE = {"ttrlib.rules", "ttrlib.rules.*", *(f"ttrlib.{name}" for name in (
    "state", "actions", "events", "cards", "board", "game", "observer", "validity", "save",
    "history", "plain", "chance", "positions", "narration", "errors", "seats", "words",
    "state_fields", "tunnel_codec", "hints"))}  # tunnel_codec: the save's and the view's codec
# (item 2); hints: the words of each phase, which the rules refuse in
# `mypy --help`'s list for --strict (mypy 1.10-2.x), less warn_redundant_casts, a global flag.
STRICT_FLAGS = {
    "disallow_any_generics": True, "disallow_subclassing_any": True,
    "disallow_untyped_calls": True, "disallow_untyped_defs": True,
    "disallow_incomplete_defs": True, "check_untyped_defs": True,
    "disallow_untyped_decorators": True, "warn_unused_ignores": True, "warn_return_any": True,
    "implicit_reexport": False, "strict_equality": True, "extra_checks": True,
}


def _strict_override() -> dict:
    blocks = [b for b in PYPROJECT["tool"]["mypy"].get("overrides", [])
              if "ttrlib.game" in b["module"]]
    assert len(blocks) == 1, "one [[tool.mypy.overrides]] block holds the engine core"
    return blocks[0]


def test_the_engine_core_is_checked_with_every_strict_flag():
    block = _strict_override()
    assert set(block["module"]) == ISSUE_CORE
    assert {k: block.get(k) for k in STRICT_FLAGS} == STRICT_FLAGS
    assert PYPROJECT["tool"]["mypy"]["warn_redundant_casts"] is True


def test_ttrlib_ships_its_type_information():
    assert (ROOT / "ttrlib" / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["ttrlib"]


def test_every_marker_the_quick_loop_leaves_out_is_registered():
    makefile = (ROOT / "Makefile").read_text()
    line = next(x for x in makefile.splitlines() if x.startswith("QUICK :="))
    left_out = {"browser", "notebook", "hub", "server", "network", "slow"}
    assert line == f"QUICK := not ({' or '.join(sorted(left_out, key=line.find))})"
    registered = {m.split(":")[0] for m in PYPROJECT["tool"]["pytest"]["ini_options"]["markers"]}
    assert left_out <= registered
    assert {"test-quick:", "lint:", "types:"} <= {x.split()[0] for x in makefile.splitlines()
                                                  if x and not x[0].isspace() and ":" in x}


_COLLECT = """
import json, sys, pytest
class Markers:
    def __init__(self): self.found = {}
    def pytest_collection_finish(self, session):
        for item in session.items:
            self.found[item.nodeid] = sorted(m.name for m in item.iter_markers()
                                             if m.name in ("server", "network", "slow"))
m = Markers()
code = pytest.main(["--collect-only", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", "-p", "no:nbmake",
                    *sys.argv[1:]], plugins=[m])
print("MARKERS" + json.dumps(m.found))
"""


def test_conftest_marks_server_network_and_slow_tests_by_what_they_start():
    files = ["tests/test_server_auth.py", "tests/test_delivery.py", "tests/test_recording.py",
             "tests/test_tournament_cache.py", "tests/test_cards.py", "tests/test_server_start.py",
             "tests/test_classroom_refusals.py", "tests/test_teacher_room.py"]
    done = subprocess.run([sys.executable, "-c", _COLLECT, *files], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    line = next(x for x in done.stdout.splitlines() if x.startswith("MARKERS"))
    found = json.loads(line[len("MARKERS"):])

    def marks(name: str) -> list[str]:
        hits = {tuple(v) for k, v in found.items() if k.split("[")[0].endswith("::" + name)}
        assert len(hits) == 1, (name, hits)
        return list(hits.pop())

    # a fixture starts the server (test_teacher_room's module-scoped `room`)
    assert marks("test_the_lessons_open") == ["server"]
    # a fixture that runs the server in this process (server_harness.in_process) is no process
    assert marks("test_the_login_link_sets_an_httponly_strict_cookie_and_forgets_the_token") == []
    # the test body starts it
    assert marks("test_a_damaged_secret_file_stops_the_server_with_a_sentence") == ["server"]
    # in-process, beside them in the same file
    assert marks("test_the_access_log_never_holds_a_token_or_a_key") == []
    # through a helper of the module (_make_serves), and the table of the network
    assert marks("test_make_lab_starts_a_server_that_answers") == ["server"]
    assert marks("test_make_classroom_runs_the_harness_command_on_the_shipped_lessons") == []
    assert marks("test_binder_pins_resolve_on_python_311") == ["network"]
    # worker processes reporting to an in-process server; a test of the same file needing neither
    assert marks("test_eight_processes_report_at_once_and_no_row_is_lost") == ["slow"]
    assert marks("test_without_a_class_server_nothing_is_recorded") == []
    assert marks("test_four_processes_asking_the_same_tournament_play_it_once") == ["slow"]
    assert marks("test_the_first_call_computes_and_the_next_reads") == []
    assert all(v == [] for k, v in found.items() if "test_cards.py" in k)
    # `python -m ttrlib.server` run by a helper of the module (test_server_start's `start`)
    assert marks("test_a_data_folder_it_cannot_use_is_refused_at_start_with_one_sentence") == [
        "server"]
    # the classroom app (Voila) started by a module-scoped fixture through lab_harness
    assert marks("test_no_line_of_the_teachers_terminal_holds_a_query_string") == ["server"]


def test_the_quick_loop_loads_no_notebook_plugin_and_draws_fewer_examples():
    makefile = (ROOT / "Makefile").read_text().splitlines()
    recipe = makefile[makefile.index("test-quick: $(STAMP)") + 1]
    assert "TTR_QUICK=1" in recipe and "-p no:nbmake" in recipe and '-m "$(QUICK)"' in recipe
    full = next(x for x in makefile if x.startswith("test: $(STAMP)"))
    assert "TTR_QUICK" not in "\n".join(makefile[makefile.index(full):makefile.index(full) + 3])


def test_examples_are_all_of_them_unless_quick():
    from quick_profile import examples

    # the whole suite keeps every count; the quick loop a tenth, never under 5 nor over the count
    assert [examples(n, quick=False) for n in (3, 100, 800)] == [3, 100, 800]
    assert [examples(n, quick=True) for n in (3, 40, 100, 800)] == [3, 5, 10, 80]


def test_every_test_the_conftest_names_slow_or_network_still_exists():
    # a renamed test would leave its slow mark behind and come back into the quick loop unseen
    import conftest

    for entry in sorted(conftest._SLOW | conftest._NETWORK):
        path, name = entry.split("::")
        source = (ROOT / "tests" / path).read_text()
        assert f"def {name.split('[')[0]}(" in source, entry
