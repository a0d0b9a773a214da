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
    worked = "... 4 + 2 = {6}"          # a worked step, after a second wrong try (see below)
    explain = "..."                     # why the answer is right (with the answer)
    tolerance = "1/2000"                # chance and share only: how far a decimal may be

    [[exercise.wrong]]                  # a common wrong answer and the misconception it shows
    answer = "into the Team A cardholder"
    belief = "..."                      # word for word a misconception of the lesson's guide

Kinds: ``number`` a whole number or exact fraction, judged exactly; ``chance`` a probability
typed as a fraction (``3/7``), a decimal (``0.4286``) or a percentage (``42.9%``): a fraction
is judged exactly, a decimal or percentage within ``tolerance``; ``share`` the same for a share
of games (read as a percentage, never as "1 in N"); ``choice`` one of the options; ``choices`` a
set of options (every right one and no other; no option holds the ``;`` that joins them).

The worked step leaves the last move to the learner: a ``{...}`` in it is a blank, shown as
``?`` after the second wrong try and filled in when the answer is shown.

Every judged answer has a canonical form, the only form in which it is ever recorded: an exact
fraction in lowest terms (``3/7``, ``5``, ``-9``; a decimal is the fraction it writes), an option
of the key, or the key's options joined by ``; `` in the key's order. Never the learner's own
words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from pathlib import Path

from ..i18n import SOURCE_LANGUAGE, _, language, number
from ..words import percent

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

class Kind(str, Enum):
    """What an exercise asks for: a whole number or exact fraction, a chance, a share (both
    between 0 and 1), one option, or a set of options. Equal to its key's word ("chance")."""

    NUMBER = "number"
    CHANCE = "chance"
    SHARE = "share"
    CHOICE = "choice"
    CHOICES = "choices"

    def __str__(self) -> str:  # the key's word in every message, on every Python version
        return self.value


KINDS = tuple(k.value for k in Kind)
TYPED = (Kind.NUMBER, Kind.CHANCE, Kind.SHARE)  # kinds answered in a text box
PICKED = (Kind.CHOICE, Kind.CHOICES)  # kinds answered by picking options
DEFAULT_TOLERANCE = Fraction(1, 2000)  # 0.0005: a decimal right to 3 places, or 0.05 points of %
_MAX_ANSWER = 200  # characters of a typed answer that are read (and ever echoed)
MAX_CANONICAL = 40  # a canonical answer longer than this is not kept (e.g. 200 typed digits)
JOIN = "; "  # joins the options of a "choices" answer (options hold commas, never a ";")
_BLANK = re.compile(r"\{([^{}]*)\}")


class AnswerKeyError(ValueError):
    """An answer key file that is malformed: names the file, the exercise and the field."""


@dataclass(frozen=True)
class Exercise:
    lesson: str
    id: str
    question: str
    kind: Kind
    answer: object  # Fraction (number, chance), str (choice) or frozenset[str] (choices)
    rule: str
    hint: str
    worked: str
    explain: str
    options: tuple[str, ...] = ()
    tolerance: Fraction = DEFAULT_TOLERANCE
    #: (canonical wrong answer, the misconception it shows): the guide's words (issue 20)
    wrong: tuple[tuple[str, str], ...] = ()
    #: the exercise in the key's own language, when this one is its translation (translate_key)
    source: Exercise | None = None

    @property
    def answer_text(self) -> str:
        """The answer as a learner would write it."""
        answer = self.answer
        if self.kind is Kind.CHOICES and isinstance(answer, frozenset):
            return JOIN.join(o for o in self.options if o in answer)
        if self.kind is Kind.CHANCE:
            from . import chance_words

            return chance_words(answer)
        if self.kind is Kind.SHARE and isinstance(answer, Fraction):
            return f"{answer} = {share_percent(answer)}"
        return str(answer)

    @property
    def worked_step(self) -> str:
        """The worked step shown after a second wrong try: its last move left blank (``?``)."""
        return _BLANK.sub("?", self.worked)

    @property
    def worked_solution(self) -> str:
        """The worked step with its blanks filled in: shown with the answer."""
        return _BLANK.sub(lambda m: m.group(1), self.worked)

    def source_answer(self, canonical: str | None) -> str | None:
        """A canonical answer in the key's own language: a translated option back to the
        option it translates (the class server's records are in one language for a class)."""
        if self.source is None or canonical is None or self.kind not in PICKED:
            return canonical
        back = dict(zip(self.options, self.source.options))
        return JOIN.join(back.get(o, o) for o in canonical.split(JOIN))

    def misconception(self, canonical: str | None) -> str | None:
        """The misconception a canonical wrong answer shows, if the key names one."""
        return next((belief for answer, belief in self.wrong if answer == canonical), None)


@dataclass(frozen=True)
class Verdict:
    """How a typed or picked answer was judged. ``readable`` is False when the input could not be
    read at all (then it is not counted as a wrong try)."""

    right: bool
    readable: bool
    note: str = ""  # e.g. "close: give one more decimal"
    canonical: str | None = None  # the judged answer's canonical form (None if not read)


def answers_dir() -> Path:
    """``answers/`` beside the lesson being run (the shipped lessons, or a learner's working copy
    made by ``make lab``), else the shipped ``notebooks/answers``."""
    here = Path.cwd() / "answers"
    if here.is_dir():
        return here
    return Path(__file__).resolve().parents[2] / "notebooks" / "answers"


def load_key(lesson: str, folder: Path | None = None,
             lang: str | None = None) -> dict[str, Exercise]:
    """The exercises of ``lesson`` ("01" or "01-card-splits"), by id, in the file's order, in
    the reader's language (``lang``, else ``ttrlib.i18n.language()``) where ``folder/<lang>/``
    has the key's translation (``translate_key``), else in English."""
    folder = folder or answers_dir()
    prefix = lesson.split("-")[0]
    files = sorted(folder.glob(f"{prefix}-*.toml")) or sorted(folder.glob(f"{prefix}.toml"))
    if not files:
        raise AnswerKeyError(f"no answer key for lesson {prefix!r} in {folder}")
    key = parse_key(files[0].read_text(encoding="utf-8"), files[0].name)
    lang = lang or language()
    translated = folder / lang / files[0].name
    if lang != SOURCE_LANGUAGE and translated.is_file():
        key = translate_key(key, translated.read_text(encoding="utf-8"),
                            f"{lang}/{files[0].name}")
    return key


#: What a key's translation gives for each exercise (the rest is the key's own: answers, kinds,
#: rules, tolerances). ``beliefs`` are the wrong answers' beliefs, in the key's order.
TRANSLATED_FIELDS = ("question", "hint", "worked", "explain")


def translate_key(key: dict[str, Exercise], text: str, name: str) -> dict[str, Exercise]:
    """``key`` in another language, from a translation file (``answers/ru/01-*.toml``)::

        [[exercise]]
        id = "second-card-place"            # an exercise of the key
        question = "..."                    # hint, worked, explain: as in the key
        options = ["...", "...", "..."]     # position for position, the key's options
        beliefs = ["..."]                   # the key's wrong answers' beliefs, in its order

    Only words: every answer, kind, rule and tolerance stays the key's, so a translation cannot
    change what is right; a translated option stands for the key's option at its place. An
    exercise the file does not name stays in English (tests/test_answer_translations.py fails on
    it for a language the lessons have)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise AnswerKeyError(f"{name}: not valid TOML ({str(exc)[:120]})") from None
    entries = data.get("exercise")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise AnswerKeyError(f"{name}: no [[exercise]] tables")
    by_id = {e.get("id"): e for e in entries}
    unknown = sorted(str(i) for i in by_id if i not in key)
    if unknown:
        raise AnswerKeyError(f"{name}: no exercise {unknown[0][:40]!r} in the key")
    out: dict[str, Exercise] = {}
    for ex_id, ex in key.items():
        entry = by_id.get(ex_id)
        out[ex_id] = ex if entry is None else _translated(ex, entry, f"{name}: exercise {ex_id}")
    return out


def _translated(ex: Exercise, entry: dict, where: str) -> Exercise:
    extra = sorted(set(entry) - {"id", "options", "beliefs", *TRANSLATED_FIELDS})
    if extra:
        raise AnswerKeyError(f"{where}: a translation gives words only, not field "
                             f"{extra[0][:40]!r} (the answer is the key's)")
    words: dict[str, str] = {}
    for field in TRANSLATED_FIELDS:
        value = entry.get(field)
        if not isinstance(value, str) or not value.strip():
            raise AnswerKeyError(f"{where}: field {field!r} must be a non-empty string")
        words[field] = value.strip()
    if len(_BLANK.findall(words["worked"])) != len(_BLANK.findall(ex.worked)):
        raise AnswerKeyError(f"{where}: field 'worked' must have as many {{blanks}} as the key's")
    options = entry.get("options", [])
    if (not isinstance(options, list) or len(options) != len(ex.options)
            or not all(isinstance(o, str) and o.strip() and JOIN.strip() not in o
                       for o in options) or len(set(options)) != len(options)):
        raise AnswerKeyError(f"{where}: field 'options' must translate the key's "
                             f"{len(ex.options)} options, each once")
    beliefs = entry.get("beliefs", [])
    if (not isinstance(beliefs, list) or len(beliefs) != len(ex.wrong)
            or not all(isinstance(b, str) and b.strip() for b in beliefs)):
        raise AnswerKeyError(f"{where}: field 'beliefs' must translate the key's "
                             f"{len(ex.wrong)} beliefs")
    to = dict(zip(ex.options, options))
    answer = ex.answer
    if ex.kind is Kind.CHOICE:
        answer = to[str(ex.answer)]
    elif ex.kind is Kind.CHOICES and isinstance(ex.answer, frozenset):
        answer = frozenset(to[a] for a in ex.answer)

    def canonical(given: str) -> str:
        return JOIN.join(to[o] for o in given.split(JOIN)) if ex.kind in PICKED else given

    wrong = tuple((canonical(a), b.strip()) for (a, _), b in zip(ex.wrong, beliefs))
    return replace(ex, question=words["question"], hint=words["hint"], worked=words["worked"],
                   explain=words["explain"], options=tuple(options), answer=answer, wrong=wrong,
                   source=ex)


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

    word = text("kind")
    if word not in KINDS:
        raise AnswerKeyError(f"{where}: field 'kind' must be one of {', '.join(KINDS)}, not {word!r}")
    kind = Kind(word)
    options = entry.get("options", [])
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise AnswerKeyError(f"{where}: field 'options' must be a list of strings")
    raw = entry.get("answer")
    if kind in TYPED:
        value = parse_exact(str(raw)) if isinstance(raw, (str, int)) else None
        if value is None:
            raise AnswerKeyError(f"{where}: field 'answer' must be a whole number or a fraction")
        if kind is not Kind.NUMBER and not 0 <= value <= 1:
            raise AnswerKeyError(f"{where}: field 'answer' is a {kind}, so between 0 and 1")
        answer: object = value
    elif kind is Kind.CHOICE:
        if raw not in options:
            raise AnswerKeyError(f"{where}: field 'answer' must be one of the options")
        answer = raw
    else:
        if not isinstance(raw, list) or not raw or any(a not in options for a in raw):
            raise AnswerKeyError(f"{where}: field 'answer' must be a non-empty list of options")
        answer = frozenset(raw)
    if kind in PICKED and (len(set(options)) != len(options) or len(options) < 2):
        raise AnswerKeyError(f"{where}: field 'options' needs at least 2 different options")
    if any(JOIN.strip() in o for o in options):
        raise AnswerKeyError(f"{where}: field 'options': an option may not hold a ';'")
    tolerance = DEFAULT_TOLERANCE
    if "tolerance" in entry:
        given_tolerance = parse_exact(str(entry["tolerance"]))
        if given_tolerance is None or not 0 <= given_tolerance < 1:
            raise AnswerKeyError(f"{where}: field 'tolerance' must be a fraction such as \"1/2000\"")
        tolerance = given_tolerance
    worked = text("worked")
    if worked.count("{") != len(_BLANK.findall(worked)) or worked.count("}") != worked.count("{"):
        raise AnswerKeyError(f"{where}: field 'worked': a blank is written {{like this}}, "
                             "one pair of braces each")
    ex = Exercise(lesson=lesson, id=text("id"), question=text("question"), kind=kind,
                  answer=answer, rule=text("rule"), hint=text("hint"), worked=worked,
                  explain=text("explain"), options=tuple(options), tolerance=tolerance)
    return _with_wrong_answers(ex, entry.get("wrong", []), where)


def _with_wrong_answers(ex: Exercise, entries, where: str) -> Exercise:
    """The key's ``[[exercise.wrong]]`` entries, each answer read as the judge reads a learner's
    (so it is stored in canonical form) and really wrong."""
    if not isinstance(entries, list):
        raise AnswerKeyError(f"{where}: field 'wrong' must be a list of tables")
    wrong: list[tuple[str, str]] = []
    for n, item in enumerate(entries, 1):
        here = f"{where}, wrong answer {n}"
        if not isinstance(item, dict) or set(item) != {"answer", "belief"}:
            raise AnswerKeyError(f"{here}: give exactly 'answer' and 'belief'")
        given = item["answer"]
        if ex.kind is Kind.CHOICES and isinstance(given, list):
            pass
        elif not isinstance(given, str):
            raise AnswerKeyError(f"{here}: field 'answer' must be a string")
        belief = item["belief"]
        if not isinstance(belief, str) or not belief.strip():
            raise AnswerKeyError(f"{here}: field 'belief' must be a non-empty string")
        verdict = judge(ex, given)
        if not verdict.readable or verdict.right or verdict.canonical is None:
            raise AnswerKeyError(f"{here}: field 'answer' must be a wrong answer the judge reads")
        if any(verdict.canonical == a for a, _ in wrong):
            raise AnswerKeyError(f"{here}: answer {verdict.canonical!r} given twice")
        wrong.append((verdict.canonical, belief.strip()))
    return replace(ex, wrong=tuple(wrong))


_EXACT = re.compile(r"^\s*([+-]?)\s*(\d+)\s*(?:/\s*(\d+))?\s*$")
_DECIMAL = re.compile(r"^\s*([+-]?)\s*(\d+[.,]\d*|[.,]\d+|\d+)\s*(%?)\s*$")
# What a learner's keyboard or a copied lesson line may put for a minus sign or a fraction bar:
# the minus sign the lessons print (U+2212), dashes, the fraction slash and the division slash.
_TYPOGRAPHY = str.maketrans({"\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2012": "-",
                             "\u2013": "-", "\u2014": "-", "\ufe63": "-", "\uff0d": "-",
                             "\u2044": "/", "\u2215": "/", "\u00a0": " ", "\u202f": " "})


def _plain(text: str) -> str:
    return text[:_MAX_ANSWER].translate(_TYPOGRAPHY)


def parse_exact(text: str) -> Fraction | None:
    """``"12"``, ``"-3"``, ``"− 3"``, ``"3/7"`` -> an exact Fraction; anything else (and a zero
    denominator) -> None."""
    m = _EXACT.match(_plain(text))
    if not m or (m.group(3) is not None and int(m.group(3)) == 0):
        return None
    return Fraction(int(m.group(1) + m.group(2)), int(m.group(3) or 1))


def parse_decimal(text: str) -> Fraction | None:
    """``"0.4286"``, ``"0,4286"``, ``"42.9%"`` -> the Fraction it writes (percent / 100)."""
    m = _DECIMAL.match(_plain(text))
    if not m:
        return None
    value = Fraction(m.group(1) + m.group(2).replace(",", "."))
    return value / 100 if m.group(3) else value


def _zero_denominator(text: str) -> bool:
    m = _EXACT.match(_plain(text))
    return bool(m and m.group(3) is not None and int(m.group(3)) == 0)


def canonical_number(value: Fraction) -> str | None:
    """A number's canonical form (``3/7``, ``5``, ``-9``), or None when it is too long to keep."""
    text = str(value)
    return text if len(text) <= MAX_CANONICAL else None


def share_percent(p: Fraction) -> str:
    """A share of games as a percentage: ``58%`` when exact, else one decimal (``42.9%``)."""
    pct = 100 * Fraction(p)
    return f"{pct.numerator}%" if pct.denominator == 1 else percent(p)


def judge(exercise: Exercise, given) -> Verdict:
    """Judge ``given`` (typed text for number/chance/share, an option for choice, a collection
    of options for choices) against the key. Never raises for any input. A verdict that is not
    ``readable`` is not a try: the learner is told what to type instead."""
    kind = exercise.kind
    if kind is Kind.CHOICE:
        if not isinstance(given, str) or given not in exercise.options:
            return Verdict(False, False, _("Pick one of the options first."))
        return Verdict(given == exercise.answer, True, canonical=given)
    if kind is Kind.CHOICES:
        try:
            picked = frozenset(given or ())
        except TypeError:
            picked = frozenset()
        if not picked or not picked <= set(exercise.options):
            return Verdict(False, False, _("Tick at least one option first."))
        canonical: str | None = JOIN.join(o for o in exercise.options if o in picked)
        return Verdict(picked == exercise.answer, True, canonical=canonical)
    text = str(given or "").strip()[:_MAX_ANSWER]
    if not text:
        return Verdict(False, False, _("Type your answer in the box first."))
    if _zero_denominator(text):
        return Verdict(False, False, _("A fraction cannot have 0 under the line (nothing can "
                                       "be shared out among 0): check the number under the /."))
    value = parse_exact(text)
    exact = value is not None
    if value is None:
        value = parse_decimal(text)
    if value is None:
        unread = (_("I could not read that as a number: type e.g. 12 or 3/7.")
                  if kind is Kind.NUMBER else
                  _("I could not read that as a number: type e.g. 3/7, {decimal} or {percent}.")
                  .format(decimal=_decimal("0.4286"), percent=percent(Fraction(3, 7))))
        return Verdict(False, False, unread)
    if kind is not Kind.NUMBER and not 0 <= value <= 1:
        return Verdict(False, False, _out_of_range(kind, text, value))
    canonical = canonical_number(value)
    if kind is Kind.NUMBER or exact:
        return Verdict(value == exercise.answer, True, canonical=canonical)
    assert isinstance(exercise.answer, Fraction)  # a chance or a share (load_key reads it so)
    gap = abs(value - exercise.answer)
    if gap <= exercise.tolerance:
        return Verdict(True, True, canonical=canonical)
    if gap <= 10 * exercise.tolerance:
        return Verdict(False, True, _("Close, but not close enough: give more decimals, or the "
                                      "exact fraction."), canonical=canonical)
    return Verdict(False, True, canonical=canonical)


def _out_of_range(kind: Kind, text: str, value: Fraction) -> str:
    chance = kind is Kind.CHANCE
    if "%" not in text and 1 < value <= 100:
        # "the percent sign", not "the % sign": "% s" would read as a printf placeholder
        said = (_("A chance lies between 0 and 1 (0% to 100%). Did you mean {percent}? Then type "
                  "it with the percent sign, or as a fraction or a decimal such as {decimal}.")
                if chance else
                _("A share lies between 0 and 1 (0% to 100%). Did you mean {percent}? Then type "
                  "it with the percent sign, or as a fraction or a decimal such as {decimal}."))
        return said.format(percent=percent(value / 100, decimals=_places(f"{float(value):g}")),
                           decimal=_decimal(f"{float(value) / 100:g}"))
    said = (_("A chance lies between 0 and 1 (0% to 100%): type it as a fraction such as 3/7, a "
              "decimal such as {decimal} or a percentage.") if chance
            else _("A share lies between 0 and 1 (0% to 100%): type it as a fraction such as "
                   "3/7, a decimal such as {decimal} or a percentage."))
    return said.format(decimal=_decimal("0.4286"))


def _places(text: str) -> int:
    """The decimals a number written in English shows: ``"0.0005"`` -> 4, ``"12"`` -> 0."""
    return len(text.partition(".")[2])


def _decimal(text: str) -> str:
    """A decimal written in English (``"0.4286"``) as the reader writes it (``"0,4286"``)."""
    return number(float(text), decimals=_places(text))


def tolerance_words(exercise: Exercise) -> str:
    """What the learner is told about decimals for a chance or share exercise."""
    tol = float(exercise.tolerance)
    return _("Type a fraction such as 3/7 (judged exactly), a decimal such as {decimal} or a "
             "percentage such as {percent} (a decimal counts if it is within {tolerance} of the "
             "exact answer, a percentage within {points} percentage points).").format(
        decimal=_decimal("0.4286"), percent=percent(Fraction(3, 7)),
        tolerance=_decimal(f"{tol:g}"), points=_decimal(f"{100 * tol:g}"))


def solutions_html(key: dict[str, Exercise], title: str) -> str:
    """Every exercise of a key with its answer, hint and worked step: the teacher's solutions."""
    import html

    left = "style='text-align:left;vertical-align:top'"  # notebook tables right-align by default
    rows = "".join(
        f"<tr><td {left}>{i}</td><td {left}>{html.escape(ex.question)}</td>"
        f"<td {left}><b>{html.escape(ex.answer_text)}</b><br>{html.escape(ex.explain)}</td>"
        f"<td {left}>{html.escape(ex.worked_solution)}{_wrong_html(ex)}</td>"
        f"<td {left}>{html.escape(ex.rule)}</td></tr>"
        for i, ex in enumerate(key.values(), 1))
    head = "".join(f"<th {left}>{h}</th>" for h in
                   ("#", "question", "answer", "how to find it", "rule"))
    return (f"<h3>{html.escape(title)}</h3><table class='ttr-solutions'><thead><tr>{head}</tr>"
            f"</thead><tbody>{rows}</tbody></table>")


def _wrong_html(ex: Exercise) -> str:
    import html

    if not ex.wrong:
        return ""
    items = "".join(f"<li>“{html.escape(a)}”: {html.escape(b)}</li>" for a, b in ex.wrong)
    return f"<br><i>Common wrong answers:</i><ul>{items}</ul>"


def all_solutions_html() -> str:
    """The solutions of every lesson that has a key, in the catalogue's order (the teacher's
    solutions page, in JupyterLab and on the class server)."""
    from .catalog import lessons

    folder = answers_dir()
    return "".join(solutions_html(load_key(lesson.id, folder), lesson.name)
                   for lesson in lessons() if lesson.exercises)
