"""The exercises in Russian (issue 35): the answer keys' words translated, the judge and the
exercise widget speaking the reader's language, and the answers the same in every language.

A key's translation (``notebooks/answers/<lang>/NN-*.toml``) gives words only; the answer, the
kind, the rule and the tolerance stay the English key's (``translate_key``), so a translation
cannot change what is right. Expected texts below are written by hand, never read from the code.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from ttrlib import i18n
from ttrlib.lessons import recording
from ttrlib.lessons.answers import (
    TRANSLATED_FIELDS,
    AnswerKeyError,
    Kind,
    judge,
    load_key,
    parse_key,
    tolerance_words,
    translate_key,
)
from ttrlib.lessons.nb_i18n import languages, lessons_of

KEYS = Path(__file__).resolve().parents[1] / "notebooks" / "answers"


@pytest.fixture
def russian():
    i18n.set_language("ru")
    yield
    i18n.set_language(None)


def _translated_lessons():
    """(language, key file) for every lesson a translated language has, with an English key."""
    for lang in languages():
        if lang == i18n.SOURCE_LANGUAGE:
            continue
        for notebook in lessons_of(lang):
            key = KEYS / (Path(notebook).stem + ".toml")
            if key.is_file():
                yield lang, key


@pytest.mark.parametrize("lang,key", list(_translated_lessons()),
                         ids=lambda v: getattr(v, "name", v))
def test_every_exercise_of_a_translated_lesson_is_translated_whole(lang, key):
    english = load_key(key.stem, KEYS, lang=i18n.SOURCE_LANGUAGE)
    translated = load_key(key.stem, KEYS, lang=lang)
    assert (KEYS / lang / key.name).is_file(), f"{lang}: no translation of {key.name}"
    for ex_id, en in english.items():
        ex = translated[ex_id]
        assert ex.source == en, f"{key.name}: {ex_id} is not translated"
        for field in TRANSLATED_FIELDS:
            assert getattr(ex, field) != getattr(en, field), f"{ex_id}: {field} left in English"
        assert [b for _, b in ex.wrong] != [b for _, b in en.wrong] or not en.wrong
        # the same answer, rule and tolerance: only the words differ
        assert (ex.kind, ex.rule, ex.tolerance, len(ex.options)) == (en.kind, en.rule,
                                                                      en.tolerance,
                                                                      len(en.options))
        assert ex.worked_solution.count("{") == 0 and ex.worked_step.count("?") >= 1


def test_a_translated_option_stands_for_the_key_option_at_its_place(russian):
    key = load_key("01", KEYS)
    ex = key["second-card-place"]  # English answer: "into A1's hand", the first option
    assert ex.options[0] == "на руку A1" and ex.answer == "на руку A1"
    assert judge(ex, "на руку A1").right and not judge(ex, "куда захочет A1").right
    # the misconception of the English key's wrong answer "wherever A1 chooses" (the third)
    assert ex.misconception(judge(ex, "куда захочет A1").canonical).startswith("Я сам выбираю")
    slots = key["second-card-slots"]  # English: the deck and slots 2, 3 and 4
    right = ["из колоды", "слот 2", "слот 3", "слот 4"]
    assert judge(slots, right).right and not judge(slots, right[1:]).right
    assert slots.source_answer(judge(slots, right).canonical) == "the deck; slot 2; slot 3; slot 4"


def test_a_translated_exercise_is_recorded_in_the_keys_own_words(russian, monkeypatch):
    sent = []
    monkeypatch.setattr(recording, "enabled", lambda: True)
    monkeypatch.setattr(recording._outbox, "put_nowait", sent.append)
    monkeypatch.setattr(recording, "_start_worker", lambda: None)
    ex = load_key("01", KEYS)["second-card-place"]
    recording.record(ex, try_number=1, verdict="wrong",
                     answer=judge(ex, "куда захочет A1").canonical, revealed=False)
    assert sent[0]["answer"] == "wherever A1 chooses" and sent[0]["exercise"] == "second-card-place"


KEY = """lesson = "09"
[[exercise]]
id = "pick"
question = "Which?"
kind = "choice"
options = ["left", "right"]
answer = "right"
rule = "C1"
hint = "h"
worked = "w {right}"
explain = "e"
[[exercise.wrong]]
answer = "left"
belief = "b"
"""
WORDS = """[[exercise]]
id = "pick"
question = "Какой?"
options = ["лево", "право"]
hint = "п"
worked = "ш {право}"
explain = "о"
beliefs = ["в"]
"""


def test_a_translation_cannot_change_the_answer():
    key = parse_key(KEY)
    assert translate_key(key, WORDS, "ru/09.toml")["pick"].answer == "право"
    with pytest.raises(AnswerKeyError, match="words only, not field 'answer'"):
        translate_key(key, WORDS + 'answer = "лево"\n', "ru/09.toml")


@pytest.mark.parametrize("change,field", [
    (('options = ["лево", "право"]', 'options = ["лево"]'), "options"),
    (('options = ["лево", "право"]', 'options = ["лево", "лево"]'), "options"),
    (('beliefs = ["в"]', 'beliefs = []'), "beliefs"),
    (('worked = "ш {право}"', 'worked = "ш право"'), "worked"),
    (('hint = "п"', 'hint = ""'), "hint"),
    (('id = "pick"', 'id = "other"'), "other"),
])
def test_a_malformed_translation_is_refused_naming_the_field(change, field):
    with pytest.raises(AnswerKeyError, match=field) as err:
        translate_key(parse_key(KEY), WORDS.replace(*change), "ru/09.toml")
    assert "ru/09.toml" in str(err.value) and len(str(err.value)) < 200


def test_an_exercise_speaks_russian(russian):
    from ttrlib.widgets.exercise import exercise

    box = exercise("01", "reset-count")
    assert box.check_button.description == "Проверить"
    assert box.reveal_button.description == "Показать ответ"
    assert box.answer_box.description == "Ответ:"
    assert "Упражнение 3." in box.question.value and "слота 3" in box.question.value
    box.answer_box.value = "3"
    assert not box.check()
    assert box.feedback_text.startswith("✗правило C5 Пока нет (попытка 1). Подсказка: После того")
    box.answer_box.value = "4"
    box.check()
    assert "Шаг решения: Ряд после заполнения" in box.feedback_text
    assert "уходит в сброс (C5): ? карт" in box.feedback_text  # the blank
    box.answer_box.value = "5"
    assert box.check() and "правило C5 Верно! (попытка 3) Слот 3 получает" in box.feedback_text


def test_typed_answers_in_russian_forms(russian):
    ex = parse_key(KEY.replace('kind = "choice"', 'kind = "chance"')
                   .replace('options = ["left", "right"]\n', "").replace('"right"\nrule', '"3/7"\nrule')
                   .replace('worked = "w {right}"', 'worked = "w {3/7}"')
                   .replace('answer = "left"', 'answer = "1/2"'))["pick"]
    for typed in ("3/7", "0,4286", "0,429", "42,9 %", "42,9\u00a0%", "42,86%"):
        assert judge(ex, typed).right, typed
    assert not judge(ex, "0,42").right and not judge(ex, "43 %").right
    words = tolerance_words(ex)
    assert "например 0,4286" in words and "42,9\u00a0%" in words
    assert "не больше чем на 0,0005" in words and "0,05 процентного пункта" in words
    assert judge(ex, "abc").note == ("Не получается прочитать это как число: напишите, "
                                     "например, 3/7, 0,4286 или 42,9\u00a0%.")
    assert judge(ex, "57").note.startswith("Вероятность лежит между 0 и 1 (от 0 % до 100 %). "
                                           "Вы имели в виду 57\u00a0%?")
    assert ex.kind is Kind.CHANCE


def test_chances_read_in_russian(russian):
    from ttrlib.lessons import chance_words

    assert chance_words(Fraction(3, 7)) == "3/7 = 42,9\u00a0%, примерно 1 раз из 2,3"
    assert chance_words(Fraction(1, 1234)) == "1/1234 = 0,081\u00a0%, примерно 1 раз из 1\u00a0234"
    assert chance_words(Fraction(35, 36)) == ("35/36 = 97,2\u00a0%: всегда, кроме примерно "
                                              "1 раза из 36")
    assert chance_words(0) == "0 = 0\u00a0%: никогда"


def test_english_numbers_without_babel_are_babels():
    """``i18n.number`` writes English numbers by hand (babel takes 0.85 s to import): the same
    text as babel's own for whole numbers, decimals and fixed decimals."""
    import random

    from babel.numbers import format_decimal

    i18n.set_language("en")
    try:
        rng = random.Random(35)
        values = [0, 1, -3, 12345, 0.5, 12345.5, 1e6 + 0.25, 0.1 + 0.2, 2 ** 40]
        values += [rng.uniform(-1e5, 1e5) for _ in range(300)] + [rng.randint(-10**9, 10**9)
                                                                 for _ in range(100)]
        for v in values:
            for d in (None, 0, 1, 3):
                fmt = None if d is None else "#,##0." + "0" * d if d else "#,##0"
                assert i18n.number(v, d) == format_decimal(v, format=fmt, locale="en"), (v, d)
    finally:
        i18n.set_language(None)


def test_the_class_server_reads_the_keys_in_their_own_words_whatever_its_language(russian):
    """A translated lesson records the English option (above); a server started with
    ``TTR_LANG=ru`` must judge the record against the English key, not the Russian one."""
    from ttrlib.server import records

    records.keys.cache_clear()
    try:
        ex = records.keys()["01"]["second-card-place"]
        assert ex.source is None and ex.options[0] == "into A1's hand"
    finally:
        records.keys.cache_clear()
