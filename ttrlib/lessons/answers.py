"""The exercises' answer keys and the judge of a learner's answer.

An answer key is written by hand (counted or derived on paper), one TOML file per lesson in
``notebooks/answers/``, *not* computed by the library the lesson teaches: ``tests/`` check that
the library agrees with every key, so a rule bug is caught instead of taught. A key file::

    lesson = "01"

    [[exercise]]
    id = "second-card"                  # unique in the lesson; the notebook names it
    question = "Where does the second card go?"
    kind = "choice"                     # number | chance | choice | choices
    options = ["your hand", "the team cardholder"]
    answer = "the team cardholder"      # number/chance: text such as "12" or "3/7"
    rule = "D1"                         # the rule the feedback names
    hint = "..."                        # after a wrong try
    worked = "..."                      # a worked step, after a second wrong try
    explain = "..."                     # why the answer is right (with the answer)
    tolerance = "1/2000"                # chance only: how far a decimal may be (default below)

Kinds: ``number`` a whole number or exact fraction, judged exactly; ``chance`` a probability
typed as a fraction (``3/7``), a decimal (``0.4286``) or a percentage (``42.9%``): a fraction
is judged exactly, a decimal or percentage within ``tolerance``; ``choice`` one of the options;
``choices`` a set of options (every right one and no other).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

KINDS = ("number", "chance", "choice", "choices")
DEFAULT_TOLERANCE = Fraction(1, 2000)  # 0.0005: a decimal right to 3 places, or 0.05 points of %
_MAX_ANSWER = 200  # characters of a typed answer that are read (and ever echoed)


class AnswerKeyError(ValueError):
    """An answer key file that is malformed: names the file, the exercise and the field."""


@dataclass(frozen=True)
class Exercise:
    lesson: str
    id: str
    question: str
    kind: str
    answer: object  # Fraction (number, chance), str (choice) or frozenset[str] (choices)
    rule: str
    hint: str
    worked: str
    explain: str
    options: tuple[str, ...] = ()
    tolerance: Fraction = DEFAULT_TOLERANCE

    @property
    def answer_text(self) -> str:
        """The answer as a learner would write it."""
        if self.kind == "choices":
            return ", ".join(o for o in self.options if o in self.answer)
        if self.kind == "chance":
            from . import chance_words

            return chance_words(self.answer)
        return str(self.answer)


@dataclass(frozen=True)
class Verdict:
    """How a typed or picked answer was judged. ``readable`` is False when the input could not be
    read at all (then it is not counted as a wrong try)."""

    right: bool
    readable: bool
    note: str = ""  # e.g. "close: give one more decimal"


def answers_dir() -> Path:
    """``answers/`` beside the lesson being run (the shipped lessons, or a learner's working copy
    made by ``make lab``), else the shipped ``notebooks/answers``."""
    here = Path.cwd() / "answers"
    if here.is_dir():
        return here
    return Path(__file__).resolve().parents[2] / "notebooks" / "answers"


def load_key(lesson: str, folder: Path | None = None) -> dict[str, Exercise]:
    """The exercises of ``lesson`` ("01" or "01-card-splits"), by id, in the file's order."""
    folder = folder or answers_dir()
    prefix = lesson.split("-")[0]
    files = sorted(folder.glob(f"{prefix}-*.toml")) or sorted(folder.glob(f"{prefix}.toml"))
    if not files:
        raise AnswerKeyError(f"no answer key for lesson {prefix!r} in {folder}")
    return parse_key(files[0].read_text(encoding="utf-8"), files[0].name)


def parse_key(text: str, name: str = "<key>") -> dict[str, Exercise]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise AnswerKeyError(f"{name}: not valid TOML ({str(exc)[:120]})") from None
    lesson = data.get("lesson")
    if not isinstance(lesson, str):
        raise AnswerKeyError(f"{name}: 'lesson' must be a string such as \"01\"")
    entries = data.get("exercise")
    if not isinstance(entries, list) or not entries:
        raise AnswerKeyError(f"{name}: no [[exercise]] tables")
    key: dict[str, Exercise] = {}
    for i, entry in enumerate(entries):
        where = f"{name}: exercise {i + 1}"
        ex = _exercise(lesson, entry, where)
        if ex.id in key:
            raise AnswerKeyError(f"{where}: id {ex.id!r} used twice")
        key[ex.id] = ex
    return key


def _exercise(lesson: str, entry: dict, where: str) -> Exercise:
    def text(field: str, required: bool = True) -> str:
        value = entry.get(field, "" if not required else None)
        if not isinstance(value, str) or (required and not value.strip()):
            raise AnswerKeyError(f"{where}: field {field!r} must be a non-empty string")
        return value.strip()

    kind = text("kind")
    if kind not in KINDS:
        raise AnswerKeyError(f"{where}: field 'kind' must be one of {', '.join(KINDS)}, not {kind!r}")
    options = entry.get("options", [])
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise AnswerKeyError(f"{where}: field 'options' must be a list of strings")
    raw = entry.get("answer")
    if kind in ("number", "chance"):
        value = parse_exact(str(raw)) if isinstance(raw, (str, int)) else None
        if value is None:
            raise AnswerKeyError(f"{where}: field 'answer' must be a whole number or a fraction")
        if kind == "chance" and not 0 <= value <= 1:
            raise AnswerKeyError(f"{where}: field 'answer' is a chance, so between 0 and 1")
        answer: object = value
    elif kind == "choice":
        if raw not in options:
            raise AnswerKeyError(f"{where}: field 'answer' must be one of the options")
        answer = raw
    else:
        if not isinstance(raw, list) or not raw or any(a not in options for a in raw):
            raise AnswerKeyError(f"{where}: field 'answer' must be a non-empty list of options")
        answer = frozenset(raw)
    if kind in ("choice", "choices") and len(set(options)) != len(options) or (
            kind in ("choice", "choices") and len(options) < 2):
        raise AnswerKeyError(f"{where}: field 'options' needs at least 2 different options")
    tolerance = DEFAULT_TOLERANCE
    if "tolerance" in entry:
        tolerance = parse_exact(str(entry["tolerance"]))
        if tolerance is None or not 0 <= tolerance < 1:
            raise AnswerKeyError(f"{where}: field 'tolerance' must be a fraction such as \"1/2000\"")
    return Exercise(lesson=lesson, id=text("id"), question=text("question"), kind=kind,
                    answer=answer, rule=text("rule"), hint=text("hint"), worked=text("worked"),
                    explain=text("explain"), options=tuple(options), tolerance=tolerance)


_EXACT = re.compile(r"^\s*([+-]?\d+)\s*(?:/\s*(\d+))?\s*$")
_DECIMAL = re.compile(r"^\s*([+-]?(?:\d+[.,]\d*|[.,]\d+|\d+))\s*(%?)\s*$")


def parse_exact(text: str) -> Fraction | None:
    """``"12"``, ``"-3"``, ``"3/7"`` -> an exact Fraction; anything else -> None."""
    m = _EXACT.match(text[:_MAX_ANSWER])
    if not m or (m.group(2) is not None and int(m.group(2)) == 0):
        return None
    return Fraction(int(m.group(1)), int(m.group(2) or 1))


def parse_decimal(text: str) -> Fraction | None:
    """``"0.4286"``, ``"0,4286"``, ``"42.9%"`` -> the Fraction it writes (percent / 100)."""
    m = _DECIMAL.match(text[:_MAX_ANSWER])
    if not m:
        return None
    value = Fraction(m.group(1).replace(",", "."))
    return value / 100 if m.group(2) else value


def judge(exercise: Exercise, given) -> Verdict:
    """Judge ``given`` (typed text for number/chance, an option for choice, a collection of
    options for choices) against the key. Never raises for any input."""
    kind = exercise.kind
    if kind == "choice":
        if given not in exercise.options:
            return Verdict(False, False, "Pick one of the options first.")
        return Verdict(given == exercise.answer, True)
    if kind == "choices":
        try:
            picked = frozenset(given or ())
        except TypeError:
            picked = frozenset()
        if not picked:
            return Verdict(False, False, "Tick at least one option first.")
        return Verdict(picked == exercise.answer, True)
    text = str(given or "").strip()[:_MAX_ANSWER]
    if not text:
        return Verdict(False, False, "Type your answer in the box first.")
    exact = parse_exact(text)
    if exact is not None:
        return Verdict(exact == exercise.answer, True)
    decimal = parse_decimal(text)
    if decimal is None:
        example = "3/7, 0.4286 or 42.9%" if kind == "chance" else "12 or 3/7"
        return Verdict(False, False, f"I could not read that as a number: type e.g. {example}.")
    if kind == "number":
        return Verdict(decimal == exercise.answer, True)
    gap = abs(decimal - exercise.answer)
    if gap <= exercise.tolerance:
        return Verdict(True, True)
    if gap <= 10 * exercise.tolerance:
        return Verdict(False, True, "Close, but not close enough: give more decimals, or the "
                                    "exact fraction.")
    return Verdict(False, True)


def tolerance_words(exercise: Exercise) -> str:
    """What the learner is told about decimals for a chance exercise."""
    tol = float(exercise.tolerance)
    return (f"Type a fraction such as 3/7 (judged exactly), a decimal such as 0.4286 or a "
            f"percentage such as 42.9% (a decimal counts if it is within {tol:g} of the exact "
            f"answer, a percentage within {100 * tol:g} percentage points).")


def solutions_html(key: dict[str, Exercise], title: str) -> str:
    """Every exercise of a key with its answer, hint and worked step: the teacher's solutions."""
    import html

    left = "style='text-align:left;vertical-align:top'"  # notebook tables right-align by default
    rows = "".join(
        f"<tr><td {left}>{i}</td><td {left}>{html.escape(ex.question)}</td>"
        f"<td {left}><b>{html.escape(ex.answer_text)}</b><br>{html.escape(ex.explain)}</td>"
        f"<td {left}>{html.escape(ex.worked)}</td><td {left}>{html.escape(ex.rule)}</td></tr>"
        for i, ex in enumerate(key.values(), 1))
    head = "".join(f"<th {left}>{h}</th>" for h in
                   ("#", "question", "answer", "how to find it", "rule"))
    return (f"<h3>{html.escape(title)}</h3><table class='ttr-solutions'><thead><tr>{head}</tr>"
            f"</thead><tbody>{rows}</tbody></table>")
