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


# A test "refuses" when the rule says no in it: an action or position refused with the rule's
# error, or (for scoring, E2-E6) points or a bonus refused. It "accepts" when the rule lets
# something through: an action or position accepted, or points granted. Its name says which
# ("rejected" only at the end: "rejected tickets" are the ones a player returns, T3).
REFUSES = re.compile(r"refus|illegal|not_legal|not_allowed|rejected$")
ACCEPTS = re.compile(r"accept|allow|(?<!il)(?<!not_)legal")


def rule_tests() -> dict[str, list[str]]:
    """Rule id -> the test functions named by it; ``test_K1_K3_...`` is named by K1 and K3."""
    found: dict[str, list[str]] = {}
    for f in sorted((ROOT / "tests").glob("test_*.py")):
        for name in re.findall(r"^\s*def (test_\w+)\(", f.read_text(), flags=re.M):
            for rule in re.match(r"test_((?:[A-Z]\d+_)*)", name).group(1).split("_")[:-1]:
                found.setdefault(rule, []).append(name)
    return found


def kinds(name: str) -> set[str]:
    if REFUSES.search(name):
        return {"refuses"}  # "not_legal" names a refusal, not an acceptance
    return {"accepts"} if ACCEPTS.search(name) else set()


def test_the_kinds_are_read_from_the_names():
    assert kinds("test_K3_a_closed_track_is_refused") == {"refuses"}
    assert kinds("test_D4_no_card_can_be_drawn_drawing_is_not_legal") == {"refuses"}
    assert kinds("test_D1_legal_draws_are_offered") == {"accepts"}
    assert kinds("test_U2_a_payment_is_accepted") == {"accepts"}
    assert kinds("test_T4_three_tickets_rejected") == {"refuses"}
    assert kinds("test_T3_rejected_tickets_go_to_the_bottom") == set()
    assert kinds("test_E2_one_route_of_each_length") == set()
    assert rule_tests()["K3"]  # test_K1_K3_... counts for K3 too


def test_every_rule_id_has_a_test_that_refuses_and_one_that_accepts():
    by_rule = rule_tests()
    lacking = {}
    for rule in rule_ids():
        have = set().union(*(kinds(n) for n in by_rule.get(rule, [])))
        if have != {"refuses", "accepts"}:
            lacking[rule] = sorted({"refuses", "accepts"} - have)
    assert not lacking, f"rules without a test that refuses or accepts: {lacking}"
