"""Every rule id in the rules reference has a scenario test named by it (``test_<ID>_...``)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rule_ids() -> list[str]:
    text = (ROOT / "docs" / "team-asia-rules.md").read_text()
    return sorted(set(re.findall(r"^- \*\*([A-Z]\d+)\*\*", text, flags=re.M)))


def test_the_reference_lists_the_rule_families():
    ids = rule_ids()
    for family, last in {"C": 7, "D": 4, "K": 4, "T": 4, "I": 1, "U": 7, "E": 6}.items():
        assert [i for i in ids if i[0] == family] == sorted(f"{family}{n}" for n in range(1, last + 1))


def test_every_rule_id_has_a_test_named_by_it():
    names = set()
    for f in (ROOT / "tests").glob("test_*.py"):
        names.update(re.findall(r"^\s*def (test_[A-Z]\d+_\w+)", f.read_text(), flags=re.M))
    missing = [i for i in rule_ids() if not any(n.startswith(f"test_{i}_") for n in names)]
    assert not missing, f"rules without a test named test_<ID>_...: {missing}"
