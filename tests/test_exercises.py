"""The exercise machinery: answer-key files, the judge of typed answers, the exercise widget.

Expected verdicts are written by hand here. The keys' answers themselves are checked against the
library in ``tests/test_answer_key_*.py``.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from ttrlib.lessons import catalog, chance_words, session_seed, teacher_mode
from ttrlib.lessons.answers import AnswerKeyError, judge, load_key, parse_key


def close_all(*boxes) -> None:
    from ttrlib.widgets.base import close_all as close

    close(*boxes)  # the children's models too, so no answer stays live for the next test

ROOT = Path(__file__).resolve().parents[1]
KEYS = ROOT / "notebooks" / "answers"

CHANCE = """
lesson = "99"
[[exercise]]
id = "c"
question = "What is the chance?"
kind = "chance"
answer = "3/7"
rule = "U2"
hint = "count the matching cards"
worked = "3 of the 7 cards match"
explain = "3 of 7."
"""


def one(text: str):
    return next(iter(parse_key(text).values()))


@pytest.mark.parametrize("typed, right, readable", [
    ("3/7", True, True), (" 3 / 7 ", True, True), ("6/14", True, True),
    ("0.4286", True, True), ("0,4286", True, True), ("42.86%", True, True), ("42.9%", True, True),
    ("0.428", False, True),  # 3/7 = 0.428571...: 0.000571 away, more than 1/2000
    ("0.43", False, True), ("43%", False, True), ("1/2", False, True), ("0.5", False, True),
    ("", False, False), ("abc", False, False), ("[2, 1]", False, False), ("3/0", False, False),
    ("9" * 5000, False, False),  # read (200 digits), and told that a chance is at most 1
])
def test_chance_answers_are_read_and_judged(typed, right, readable):
    ex = one(CHANCE)
    verdict = judge(ex, typed)
    assert (verdict.right, verdict.readable) == (right, readable)


def test_close_decimal_is_told_to_be_more_precise():
    assert "Close" in judge(one(CHANCE), "0.43").note


def test_number_answers_are_exact():
    ex = one(CHANCE.replace('kind = "chance"', 'kind = "number"').replace('"3/7"', '"12"'))
    assert judge(ex, "12").right and judge(ex, "12.0").right and judge(ex, "24/2").right
    assert not judge(ex, "11").right and not judge(ex, "12.5").right
    assert not judge(ex, "twelve").readable


def test_choice_and_choices():
    base = CHANCE.replace('kind = "chance"', 'kind = "choice"').replace(
        'answer = "3/7"', 'options = ["hand", "cardholder"]\nanswer = "cardholder"')
    ex = one(base)
    assert judge(ex, "cardholder").right and not judge(ex, "hand").right
    assert not judge(ex, None).readable and not judge(ex, "table").readable
    many = one(base.replace('kind = "choice"', 'kind = "choices"').replace(
        'answer = "cardholder"', 'answer = ["hand", "cardholder"]'))
    assert judge(many, ["cardholder", "hand"]).right
    assert not judge(many, ["hand"]).right and not judge(many, []).readable


@pytest.mark.parametrize("change, field", [
    (('kind = "chance"', 'kind = "guess"'), "kind"),
    (('answer = "3/7"', 'answer = "7/3"'), "answer"),
    (('answer = "3/7"', 'answer = "lots"'), "answer"),
    (('rule = "U2"', 'rule = ""'), "rule"),
    (('hint = "count the matching cards"', ''), "hint"),
])
def test_malformed_keys_name_the_field(change, field):
    with pytest.raises(AnswerKeyError, match=field):
        parse_key(CHANCE.replace(*change))


def test_duplicate_ids_are_refused():
    with pytest.raises(AnswerKeyError, match="twice"):
        parse_key(CHANCE + CHANCE.split("\n", 2)[2])


def test_chance_words():
    assert chance_words(Fraction(1, 4)) == "1/4 = 25.0%, about 1 in 4"
    assert chance_words(Fraction(1, 2)) == "1/2 = 50.0%, about 1 in 2"
    assert chance_words(Fraction(2, 3)) == "2/3 = 66.7%: all but about 1 in 3 times"
    assert chance_words(Fraction(9, 10)) == "9/10 = 90.0%: all but about 1 in 10 times"
    assert chance_words(Fraction(1)) == "1 = 100%: always"
    with pytest.raises(ValueError):
        chance_words(Fraction(3, 2))


def test_session_seed_sources(monkeypatch):
    monkeypatch.delenv("TTR_SEED", raising=False)
    monkeypatch.setenv("QUERY_STRING", "seed=7&x=1")
    assert session_seed() == 7
    assert session_seed(12) == 12  # the teacher's one line wins
    monkeypatch.setenv("QUERY_STRING", "seed=oops")
    assert session_seed() is None  # a mistyped seed falls back to a random game (said on the page)
    monkeypatch.delenv("QUERY_STRING")
    assert session_seed() is None  # learners get games of their own: random deals
    monkeypatch.setenv("TTR_SEED", "4821")
    assert session_seed() == 4821


def test_teacher_mode_is_the_kernels_environment_never_the_address(monkeypatch):
    # Issue 20: a learner can type ?teacher=1 as well as the teacher, so it turns nothing on.
    monkeypatch.delenv("TTR_TEACHER", raising=False)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    assert not teacher_mode()
    monkeypatch.setenv("QUERY_STRING", "teacher=1")
    assert not teacher_mode()
    monkeypatch.setenv("TTR_TEACHER", "1")  # the teacher's own JupyterLab
    assert teacher_mode()


# --- the widget ------------------------------------------------------------------------------
def _models_text() -> str:
    from ipywidgets.widgets.widget import _instances  # every live model (what the page holds)

    return json.dumps([m.get_state() for m in list(_instances.values())], default=str)


@pytest.fixture
def no_live_models():
    """These tests read every live model: close those an earlier test left open (a fraction
    such as 5/11 on another widget's screen would read as an answer given away)."""
    widgets = pytest.importorskip("ipywidgets")
    widgets.Widget.close_all()


def test_widget_feedback_hint_worked_step_and_answer_only_when_asked(no_live_models):
    pytest.importorskip("ipywidgets")
    from ttrlib.widgets.exercise import ExerciseWidget

    ex = one(CHANCE.replace('"3/7"', '"5/11"').replace('worked = "3 of the 7 cards match"', 'worked = "SEVEN-CARDS-STEP"')
                   .replace('explain = "3 of 7."', 'explain = "EXPLAIN-TEXT"'))
    box = ExerciseWidget(ex, number=2, teacher=False)
    assert "Exercise 2." in box.question.value
    assert "5/11" not in _models_text() and "EXPLAIN-TEXT" not in _models_text()
    box.answer_box.value = "nonsense"
    assert not box.check() and box.tries == 0 and "could not read" in box.feedback_text
    box.answer_box.value = "1/2"
    assert not box.check() and "rule U2" in box.feedback_text and "Hint" in box.feedback_text
    assert "SEVEN-CARDS-STEP" not in box.feedback_text
    assert not box.check() and "SEVEN-CARDS-STEP" in box.feedback_text  # second wrong try
    assert "5/11" not in _models_text()  # still not given away
    box.answer_box.value = "45.45%"
    assert box.check() and "Right" in box.feedback_text and "EXPLAIN-TEXT" in box.feedback_text
    box.reveal()
    assert "5/11" in box.feedback_text
    close_all(box)


def test_teacher_mode_widget_shows_the_answer():
    pytest.importorskip("ipywidgets")
    from ttrlib.widgets.exercise import ExerciseWidget

    box = ExerciseWidget(one(CHANCE), teacher=True)
    assert "3/7" in box.feedback_text and "Teacher mode" in box.feedback_text
    close_all(box)


def _preheated_kernel(monkeypatch, query_string: str) -> list[str]:
    """A preheated classroom kernel (VOILA_PREHEAT) whose learner opens the page with
    ``query_string``: Voila's wait_for_request is replaced by one that records being called."""
    import voila.utils

    import ttrlib.lessons as lessons

    calls: list[str] = []

    def wait_for_request(url=None):
        calls.append("waited")
        monkeypatch.setenv("QUERY_STRING", query_string)

    monkeypatch.setattr(voila.utils, "wait_for_request", wait_for_request)
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.delenv("TTR_SEED", raising=False)
    monkeypatch.delenv("TTR_TEACHER", raising=False)
    monkeypatch.setattr(lessons, "_waited", False)
    return calls


def test_a_preheated_lesson_waits_for_the_learner_only_where_it_asks_for_the_seed(
        monkeypatch, no_live_models):
    # Issue 10: cells before the wait are run and rendered ahead of time, so an exercise must
    # not wait; and ?teacher=1 in the learner's address reveals nothing (issue 20).
    pytest.importorskip("ipywidgets")
    pytest.importorskip("voila")
    from ttrlib.widgets.exercise import ExerciseWidget

    calls = _preheated_kernel(monkeypatch, "teacher=1&seed=7")
    early = ExerciseWidget(one(CHANCE.replace('"3/7"', '"5/11"')))
    assert calls == [] and "5/11" not in _models_text()  # nothing waited, nothing revealed
    assert session_seed() == 7 and calls == ["waited"]
    late = ExerciseWidget(one(CHANCE.replace('"3/7"', '"5/11"')))  # after the wait
    assert calls == ["waited"]  # no second wait
    for box in (early, late):
        assert "Teacher mode" not in box.feedback_text
    assert "5/11" not in _models_text()
    close_all(early)
    close_all(late)


def test_lesson_06_deals_ahead_and_follows_the_address_in_its_last_cell(monkeypatch,
                                                                          no_live_models):
    # Issue 36: a preheated lesson 06 runs every cell before a class opens the page; only its
    # last cell waits for the request, and deals game 7 when the address asks for it.
    pytest.importorskip("voila")
    from ttrlib.lessons import team_game as T
    from ttrlib.widgets import TeamGame

    calls = _preheated_kernel(monkeypatch, "seed=7")
    seed = session_seed(wait=False)
    story = T.resume_story_box(seed)
    table = TeamGame(seed=seed)
    assert seed is None and calls == []  # dealt ahead: a random game, nothing waited
    random_story, random_game = story.value, table.session.game.to_json()
    T.follow_the_address(story, table)
    assert calls == ["waited"] and table.session.seed == 7
    assert table.session.game.to_json() == TeamGame(seed=7).session.game.to_json()
    assert T.resume_story(7) in story.value and story.value != random_story
    assert "game 7" in table.game_label.value
    # without a number in the address the game dealt ahead stays
    calls = _preheated_kernel(monkeypatch, "")
    story, table = T.resume_story_box(None), TeamGame()
    before = table.session.game.to_json()
    T.follow_the_address(story, table)
    assert calls == ["waited"] and table.session.game.to_json() == before
    assert random_game != before  # each kernel its own random game
    close_all(table)


def test_lesson_01_deals_its_card_split_ahead_and_game_7_from_the_address(monkeypatch,
                                                                          no_live_models):
    pytest.importorskip("voila")
    from ttrlib.lessons import deal_from_the_address
    from ttrlib.widgets import CardSplitStepper

    calls = _preheated_kernel(monkeypatch, "seed=7")
    stepper = CardSplitStepper(seed=session_seed(wait=False))
    assert calls == [] and stepper.session.seed is None
    assert deal_from_the_address(stepper) == 7 and calls == ["waited"]
    assert stepper.session.game.to_json() == CardSplitStepper(seed=7).session.game.to_json()
    assert "game 7" in stepper.game_label.value
    close_all(stepper)


def test_a_numbered_deal_without_the_deal_key_keeps_the_game_and_says_why(monkeypatch,
                                                                         no_live_models):
    from ttrlib.errors import KeyFileError
    from ttrlib.widgets import TeamGame

    table = TeamGame()
    before = table.session.game.to_json()

    def no_key(seed=None):
        raise KeyFileError("the deal key cannot be read")

    monkeypatch.setattr(table.session, "new_game", no_key)
    table.deal(7)
    assert table.session.game.to_json() == before
    assert "Game 7 cannot be dealt here" in table.message_text and "deal key" in table.message_text
    close_all(table)


# --- the shipped keys and the lessons that use them ------------------------------------------
def _lesson_exercise_ids(path: Path) -> list[str]:
    import re

    nb = json.loads(path.read_text(encoding="utf-8"))
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    return re.findall(r"exercise\(\s*\"(\d\d)\",\s*\"([^\"]+)\"", code)


# Lesson 08 is a whole game at a class table, with no exercises (the catalogue says so).
WITHOUT_EXERCISES = {lesson.file for lesson in catalog.lessons() if not lesson.exercises}
LESSONS = sorted(p for p in (ROOT / "notebooks").glob("0[0-9]-*.ipynb")
                 if p.name not in WITHOUT_EXERCISES)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_every_lesson_has_three_widget_exercises_from_its_key(path):
    used = _lesson_exercise_ids(path)
    assert len(used) >= 3, f"{path.name} has {len(used)} widget exercises"
    key = load_key(path.stem, KEYS)
    for lesson, ex_id in used:
        assert lesson == path.stem[:2]
        assert ex_id in key, f"{path.name} uses exercise {ex_id!r}, not in its key"
    assert len(used) == len(set(used)), "an exercise is shown twice"
    assert set(key) == {ex_id for _, ex_id in used}, "every key entry is used, once"
