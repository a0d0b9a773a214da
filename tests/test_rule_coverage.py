"""Every rule id in the rules reference has scenario tests named by it (``test_<ID>_...``): one
that refuses (asserting that rule, or the rule that refuses for it: ``REFUSED_UNDER``) and one
that accepts."""

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


# Rules whose refusal the engine names by another rule, because that other rule is the one that
# says no (checked: the refusal tests of these rules assert exactly this id).
REFUSED_UNDER = {
    "C3": ("K2", "a seat's own trains pay for a route: too few of them make the claim unpayable"),
    "C4": ("K1", "the cardholder starts empty: paying from it pays with cards the team lacks"),
    "C5": ("D1", "the row has five slots: a draw from a sixth is a draw from nowhere (D1)"),
    "C7": ("K1", "another team's cardholder is not one of the two places a claim pays from"),
    "D2": ("D1", "after a face-up locomotive the draw is over: no card is waiting to be placed"),
    "D4": ("C6", "with no card anywhere, the deck cannot be drawn from (C6: no pile to make)"),
    "K4": ("K1", "played cards went to the discard: a second claim pays with cards not held"),
    "T3": ("T2", "a returned ticket lies at the bottom: it is not in the next draw's offer"),
    "U1": ("K2", "the laid cards must pay for the route before any card is turned up"),
    "U3": ("U2", "after the cards are taken back nothing is owed, so a payment is refused"),
    "U4": ("K1", "the revealed cards lie on the discard: paying with them uses cards not held"),
    "U6": ("U2", "with nothing revealed nothing is owed, so a payment is refused"),
}


def rules_asserted_by_refusals() -> dict[str, tuple[set[str], bool]]:
    """Test name -> (the rule ids its ``rejected(game, action, "X")`` calls assert, whether it
    refuses in some other way too: a ``pytest.raises`` of its own)."""
    import ast

    out = {}
    for f in sorted((ROOT / "tests").glob("test_*.py")):
        for node in ast.walk(ast.parse(f.read_text())):
            if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test_")):
                continue
            asserted, other = set(), False
            for call in ast.walk(node):
                if not isinstance(call, ast.Call):
                    continue
                name = getattr(call.func, "id", getattr(call.func, "attr", ""))
                if name == "rejected":
                    args = list(call.args[2:3]) + [k.value for k in call.keywords if k.arg == "rule"]
                    asserted |= {a.value for a in args if isinstance(a, ast.Constant)
                                 and isinstance(a.value, str)}
                elif name == "raises":
                    other = True
            out[node.name] = (asserted, other)
    return out


def test_a_rules_refusal_test_asserts_that_rule_or_the_rule_that_refuses_for_it():
    read = rules_asserted_by_refusals()
    wrong = {}
    for rule, tests in rule_tests().items():
        refusing = [n for n in tests if "refuses" in kinds(n)]
        asserted = set().union(*(read.get(n, (set(), True))[0] for n in refusing)) if refusing \
            else set()
        unchecked = any(read.get(n, (set(), True))[1] or not read.get(n, (set(), True))[0]
                        for n in refusing)
        if not refusing or rule in asserted or unchecked:
            continue
        if asserted != {REFUSED_UNDER.get(rule, ("?",))[0]}:
            wrong[rule] = sorted(asserted)
    assert not wrong, f"refusal tests that assert another rule (add a reason to REFUSED_UNDER?): {wrong}"
    stale = [r for r, (under, _) in REFUSED_UNDER.items()
             if under not in set().union(*(read[n][0] for n in rule_tests()[r] if n in read))]
    assert not stale, f"REFUSED_UNDER entries no refusal test needs: {stale}"
