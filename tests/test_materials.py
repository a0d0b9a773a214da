"""The teacher's materials: the lesson catalogue, the guides, the cheat-sheet and the glossary.

* the catalogue (``ttrlib/lessons/catalog.toml``) lists the lesson notebooks that exist, with rule
  ids from the rules reference, and every rule is taught by some lesson; README's lesson table and
  every lesson notebook that states a time agree with it (one set of lesson times);
* a bad catalogue or guide file raises ``CatalogError`` naming the file and the field;
* every guide's 45-minute plan adds up to 45 (summed here, not by the code), cites real rule ids;
* the cheat-sheet has one summary per rule of the reference, the glossary's terms appear in it;
* the teacher's page links to files that exist; the three pages run on a fresh kernel and show no
  raw Python output;
* (browser) the handouts printed to A4 PDF by Chromium: the cheat-sheet is one page; PNGs of
  every page go to ``test-artifacts/`` to be looked at.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ttrlib.lessons import catalog, handouts
from ttrlib.lessons.catalog import CatalogError

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
REFERENCE = ROOT / "docs" / "team-asia-rules.md"
# The rule ids of docs/team-asia-rules.md, counted by hand from its headings (a rule added to the
# reference must be added here and to a lesson).
HAND_RULE_IDS = ({f"C{i}" for i in range(1, 8)} | {f"D{i}" for i in range(1, 5)}
                 | {f"K{i}" for i in range(1, 5)} | {f"T{i}" for i in range(1, 5)} | {"I1"}
                 | {f"U{i}" for i in range(1, 8)} | {f"E{i}" for i in range(1, 7)})


def _reference_ids() -> set[str]:
    return {rule.id for rule in handouts.rules(REFERENCE)}


def _markdown_cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


def _time_tables(text: str) -> list[dict[str, str]]:
    """Rows of every markdown table whose header has a 'lesson' and a 'time' column."""
    rows, header = [], None
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith(
            "|") else None
        if cells is None:
            header = None
        elif header is None:
            header = [c.lower() for c in cells]
        elif not set("".join(cells)) <= set("-: "):
            if "lesson" in header and "time" in header:
                rows.append(dict(zip(header, cells)))
    return rows


def _lesson_id(cell: str) -> str:
    match = re.search(r"\b(0\d)\b", cell)
    assert match, f"a lesson table row without a lesson number: {cell!r}"
    return match[1]


# --- the catalogue --------------------------------------------------------------------------

def test_reference_parser_finds_the_hand_counted_rule_ids():
    assert _reference_ids() == HAND_RULE_IDS
    k1 = next(r for r in handouts.rules(REFERENCE) if r.id == "K1")
    assert k1.family == "Claiming routes"
    assert k1.text.endswith("and never cards from the teammate's hand.")  # continuation joined


def test_catalogue_lists_the_seven_lesson_notebooks_in_order():
    on_disk = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))
    assert [x.file for x in catalog.lessons()] == on_disk
    assert [x.id for x in catalog.lessons()] == ["00", "01", "02", "03", "04", "05", "06"]
    assert catalog.lesson("04").title == "Tunnel claims"
    with pytest.raises(KeyError, match="07"):
        catalog.lesson("07")


def test_total_minutes_is_the_sum_of_the_lessons():
    # Written out from catalog.toml by hand: 20 + 30 + 25 + 25 + 30 + 40 + 40.
    assert [x.minutes for x in catalog.lessons()] == [20, 30, 25, 25, 30, 40, 40]
    assert catalog.total_minutes() == 210


def test_catalogue_rules_exist_and_every_rule_is_taught():
    known = _reference_ids()
    for entry in catalog.lessons():
        assert set(entry.rules + entry.uses) <= known, entry.id
        assert entry.goals and all(g[0].islower() for g in entry.goals), entry.id
    taught = {rule for entry in catalog.lessons() for rule in entry.rules}
    assert taught == known


def test_catalogue_rules_match_each_lessons_rules_line():
    """'**Rules in this lesson:** K1, K2 (with ...)' in each notebook names the catalogue's rules."""
    for entry in catalog.lessons():
        text = "\n".join(_markdown_cells(NOTEBOOKS / entry.file))
        match = re.search(r"\*\*Rules in this lesson:?\*\*:?\s*([^(\n]*)", text)
        assert match, f"{entry.file} has no 'Rules in this lesson' line"
        assert set(re.findall(r"[A-Z]\d+", match[1])) == set(entry.rules), entry.file


def _expand(ids: str) -> set[str]:
    """'C1-C5, C7, I1' -> {'C1', ..., 'C5', 'C7', 'I1'}."""
    out = set()
    for a, b in re.findall(r"([A-Z]\d+)(?:\s*[-–]\s*([A-Z]\d+))?", ids):
        out |= {f"{a[0]}{i}" for i in range(int(a[1:]), int((b or a)[1:]) + 1)}
    return out


def test_readme_lesson_table_agrees_with_the_catalogue():
    rows = _time_tables((ROOT / "README.md").read_text(encoding="utf-8"))
    assert rows, "README has no '| lesson | ... | time |' table"
    by_id = {_lesson_id(row["lesson"]): row for row in rows}
    assert sorted(by_id) == [x.id for x in catalog.lessons()]
    for entry in catalog.lessons():
        row = by_id[entry.id]
        assert row["time"] == f"{entry.minutes} min", (entry.id, row["time"])
        assert entry.name in row["lesson"], (entry.id, row["lesson"])
        assert _expand(row["rules"]) == set(entry.rules), (entry.id, row["rules"])


def test_every_time_a_lesson_notebook_states_agrees_with_the_catalogue():
    minutes = {x.id: x.minutes for x in catalog.lessons()}
    stated = 0
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        for cell in _markdown_cells(path):
            for row in _time_tables(cell):
                stated += 1
                lesson_id = _lesson_id(row["lesson"])
                assert row["time"] == f"{minutes[lesson_id]} min", (path.name, lesson_id)
            # "this lesson takes about 25 minutes" in a lesson speaks of that lesson
            own = path.name[:2]
            for said in re.findall(r"(?:lesson|it) takes (?:about )?(\d+) min", cell):
                stated += 1
                assert int(said) == minutes[own], (path.name, said)
    assert stated >= 7, "lesson 00 lists the times of all seven lessons"


@pytest.mark.parametrize("bad, message", [
    ("[[lesson]]\nid = '00'\nfile = '00-a.ipynb'\ntitle = 'A'\nminutes = 0\nrules = ['C1']\n"
     "goals = ['x']\n", "minutes must be positive"),
    ("[[lesson]]\nid = '00'\nfile = '00-a.ipynb'\ntitle = 'A'\nminutes = 5\nrules = ['see C1']\n"
     "goals = ['x']\n", "not a rule id"),
    ("[[lesson]]\nid = '01'\nfile = '01-a.ipynb'\ntitle = 'A'\nminutes = 5\nrules = ['C1']\n"
     "goals = ['x']\n", "expected id '00'"),
    ("[[lesson]]\nid = '00'\nfile = '00-a.ipynb'\nminutes = 5\nrules = ['C1']\ngoals = ['x']\n",
     "missing field 'title'"),
    ("[[lesson]\nid = '00'\n", "not valid TOML"),
])
def test_a_bad_catalogue_is_refused_with_the_file_and_field(tmp_path, bad, message):
    path = tmp_path / "catalog.toml"
    path.write_text(bad)
    with pytest.raises(CatalogError, match=message) as info:
        catalog.read_catalog(path)
    assert str(path) in str(info.value)


def test_a_missing_reference_is_a_clear_error(tmp_path):
    with pytest.raises(handouts.ReferenceError, match="rules reference .* is missing"):
        handouts.rules(tmp_path / "nowhere.md")
