"""The answer keys' common wrong answers and the teacher's guide agree (issue 20, item 4).

A key may name, for a wrong answer, the misconception it shows (the Carpentries' way with
multiple-choice distractors); the progress page shows it beside the answer. It must be word for
word a misconception of the same lesson's guide, so the teacher reads one sentence in both.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ttrlib.lessons import catalog
from ttrlib.lessons.answers import AnswerKeyError, judge, load_key, parse_key

KEYS = Path(__file__).resolve().parents[1] / "notebooks" / "answers"
LESSONS = [lesson.id for lesson in catalog.lessons() if lesson.exercises]


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_misconception_of_a_key_is_in_the_lessons_guide(lesson):
    beliefs = {m.belief for m in catalog.guide(lesson).misconceptions}
    named = [(ex.id, answer, belief) for ex in load_key(lesson, KEYS).values()
             for answer, belief in ex.wrong]
    assert named, f"lesson {lesson}'s key names no common wrong answer"
    for ex_id, answer, belief in named:
        assert belief in beliefs, f"{lesson} {ex_id}: {answer!r} -> {belief!r} is not in the guide"


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_named_wrong_answer_is_wrong_and_kept_in_canonical_form(lesson):
    for ex in load_key(lesson, KEYS).values():
        for answer, _belief in ex.wrong:
            given = answer.split("; ") if ex.kind == "choices" else answer
            verdict = judge(ex, given)
            assert verdict.readable and not verdict.right, (ex.id, answer)
            assert verdict.canonical == answer, (ex.id, answer)
            assert ex.misconception(answer) == _belief


KEY = """
lesson = "99"
[[exercise]]
id = "n"
question = "How many?"
kind = "number"
answer = "5"
rule = "C5"
hint = "h"
worked = "2 + 3 = {5}"
explain = "e"

[[exercise.wrong]]
answer = "ANSWER"
belief = "b"
"""


@pytest.mark.parametrize("answer, message", [
    ("5", "wrong answer"), ("five", "wrong answer"), ("6/1", None), ("- 3", None),
])
def test_a_key_names_only_wrong_answers_it_can_read(answer, message):
    text = KEY.replace("ANSWER", answer)
    if message is None:
        ex = parse_key(text)["n"]
        assert ex.wrong[0][0] in ("6", "-3")  # stored canonical
    else:
        with pytest.raises(AnswerKeyError, match=message):
            parse_key(text)


def test_a_worked_step_with_a_broken_blank_is_refused():
    with pytest.raises(AnswerKeyError, match="blank"):
        parse_key(KEY.replace("{5}", "{5").replace("ANSWER", "4"))
