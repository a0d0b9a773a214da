"""The lesson catalogue: the lessons 00-08 with their files, titles, rules, times and goals.

The data lives in ``catalog.toml`` beside this module (and the teacher's guides in ``guides.toml``);
README's lesson table, lesson 00 and the teacher's guide quote it, so there is one set of lesson
times everywhere. Reading is validated: a malformed file raises ``CatalogError`` naming the file,
the lesson and the field.

>>> [lesson.id for lesson in lessons()]
['00', '01', '02', '03', '04', '05', '06', '07', '08']
>>> lesson("03").title
'Claiming routes'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from ttrlib.errors import TTRError

CATALOG_PATH = Path(__file__).with_name("catalog.toml")
GUIDES_PATH = Path(__file__).with_name("guides.toml")
CLASS_MINUTES = 45  # one school period: every lesson plan fills exactly this
RULE_ID = re.compile(r"[A-Z]\d+")  # the shape of the ids in docs/team-asia-rules.md (C1, U5, ...)


class CatalogError(TTRError):
    """A lesson catalogue or guide file that cannot be read as the format says."""


@dataclass(frozen=True)
class Lesson:
    id: str  # two digits, "00" to "06"
    file: str  # the notebook, relative to notebooks/
    title: str
    minutes: int  # a learner alone, start to finish
    rules: tuple[str, ...]  # rule ids the lesson teaches
    uses: tuple[str, ...]  # rule ids it relies on from earlier lessons
    goals: tuple[str, ...]  # "what you will be able to do"
    exercises: bool = True  # False: no exercises, no answer key (08, a game at a class table)

    @property
    def name(self) -> str:
        """'01 Card splits', as the README and the lessons write it."""
        return f"{self.id} {self.title}"


@dataclass(frozen=True)
class Step:
    minutes: int
    activity: str


@dataclass(frozen=True)
class Question:
    ask: str
    answer: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Misconception:
    belief: str  # what players really think
    truth: str  # what the rules say
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Guide:
    lesson: str
    plan: tuple[Step, ...]  # a 45-minute class, in order
    questions: tuple[Question, ...]
    misconceptions: tuple[Misconception, ...]


def load_toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CatalogError(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{path}: not valid TOML: {exc}") from None


def _field(path: Path, where: str, entry: dict, name: str, kind: type):
    if name not in entry:
        raise CatalogError(f"{path}: {where}: missing field {name!r}")
    value = entry[name]
    if not isinstance(value, kind) or isinstance(value, bool) or value in ("", []):
        raise CatalogError(f"{path}: {where}: field {name!r} must be a non-empty "
                           f"{kind.__name__}, not {value!r}")
    return value


def _strings(path: Path, where: str, entry: dict, name: str, *, rule_ids=False,
             allow_empty=False) -> tuple[str, ...]:
    values = entry.get(name, []) if allow_empty else _field(path, where, entry, name, list)
    if not isinstance(values, list):
        raise CatalogError(f"{path}: {where}: field {name!r} must be a list")
    for value in values:
        if not isinstance(value, str) or not value.strip():
            raise CatalogError(f"{path}: {where}: {name!r} holds {value!r}, not a text")
        if rule_ids and not RULE_ID.fullmatch(value):
            raise CatalogError(f"{path}: {where}: {name!r} holds {value!r}, not a rule id like K1")
    return tuple(values)


def _parse_lesson(path: Path, number: int, entry: dict) -> Lesson:
    where = f"lesson {number + 1}"
    lesson_id = _field(path, where, entry, "id", str)
    where = f"lesson {lesson_id!r}"
    if lesson_id != f"{number:02d}":
        raise CatalogError(f"{path}: {where}: expected id '{number:02d}' (lessons in order)")
    file = _field(path, where, entry, "file", str)
    if not (file.startswith(f"{lesson_id}-") and file.endswith(".ipynb")):
        raise CatalogError(f"{path}: {where}: file {file!r} must be '{lesson_id}-...ipynb'")
    minutes = _field(path, where, entry, "minutes", int)
    if minutes <= 0:
        raise CatalogError(f"{path}: {where}: minutes must be positive, not {minutes}")
    return Lesson(id=lesson_id, file=file, title=_field(path, where, entry, "title", str),
                  minutes=minutes, rules=_strings(path, where, entry, "rules", rule_ids=True),
                  uses=_strings(path, where, entry, "uses", rule_ids=True, allow_empty=True),
                  goals=_strings(path, where, entry, "goals"),
                  exercises=_optional_flag(path, where, entry, "exercises"))


def _optional_flag(path: Path, where: str, entry: dict, name: str) -> bool:
    value = entry.get(name, True)
    if not isinstance(value, bool):
        raise CatalogError(f"{path}: {where}: {name!r} is true or false, not {value!r}")
    return value


def read_catalog(path: Path = CATALOG_PATH) -> tuple[Lesson, ...]:
    """Read and validate a catalogue file (``[[lesson]]`` tables, ids 00, 01, ... in order)."""
    entries = load_toml(path).get("lesson")
    if not isinstance(entries, list) or not entries:
        raise CatalogError(f"{path}: no [[lesson]] tables")
    return tuple(_parse_lesson(path, n, entry) for n, entry in enumerate(entries))


def _parse_guide(path: Path, entry: dict, known: set[str]) -> Guide:
    lesson_id = _field(path, "a [[guide]]", entry, "lesson", str)
    where = f"guide for lesson {lesson_id!r}"
    if lesson_id not in known:
        raise CatalogError(f"{path}: {where}: no such lesson in the catalogue")
    plan = tuple(Step(_field(path, f"{where}, plan step {n + 1}", s, "minutes", int),
                      _field(path, f"{where}, plan step {n + 1}", s, "activity", str))
                 for n, s in enumerate(_field(path, where, entry, "plan", list)))
    total = sum(step.minutes for step in plan)
    if total != CLASS_MINUTES or any(step.minutes <= 0 for step in plan):
        raise CatalogError(f"{path}: {where}: the plan's steps take {total} minutes, "
                           f"not {CLASS_MINUTES} (each step at least 1)")
    questions = tuple(
        Question(_field(path, f"{where}, question {n + 1}", q, "ask", str),
                 _field(path, f"{where}, question {n + 1}", q, "answer", str),
                 _strings(path, f"{where}, question {n + 1}", q, "rules", rule_ids=True))
        for n, q in enumerate(_field(path, where, entry, "questions", list)))
    if not 3 <= len(questions) <= 5:
        raise CatalogError(f"{path}: {where}: {len(questions)} questions, not 3 to 5")
    misconceptions = tuple(
        Misconception(_field(path, f"{where}, misconception {n + 1}", m, "belief", str),
                      _field(path, f"{where}, misconception {n + 1}", m, "truth", str),
                      _strings(path, f"{where}, misconception {n + 1}", m, "rules", rule_ids=True))
        for n, m in enumerate(_field(path, where, entry, "misconceptions", list)))
    return Guide(lesson_id, plan, questions, misconceptions)


def read_guides(path: Path = GUIDES_PATH,
                catalog: tuple[Lesson, ...] | None = None) -> dict[str, Guide]:
    """Read and validate the teacher's guides: one ``[[guide]]`` per catalogue lesson."""
    known = [x.id for x in (catalog if catalog is not None else lessons())]
    entries = load_toml(path).get("guide")
    if not isinstance(entries, list):
        raise CatalogError(f"{path}: no [[guide]] tables")
    guides: dict[str, Guide] = {}
    for entry in entries:
        guide = _parse_guide(path, entry, set(known))
        if guide.lesson in guides:
            raise CatalogError(f"{path}: two guides for lesson {guide.lesson!r}")
        guides[guide.lesson] = guide
    missing = [x for x in known if x not in guides]
    if missing:
        raise CatalogError(f"{path}: no guide for lesson(s) {', '.join(missing)}")
    return guides


@lru_cache(maxsize=1)
def lessons() -> tuple[Lesson, ...]:
    """Every lesson of the bundled catalogue, in order."""
    return read_catalog()


def lesson(lesson_id: str) -> Lesson:
    """One lesson by its id ("03"); an unknown id raises ``KeyError`` listing the known ones."""
    for entry in lessons():
        if entry.id == lesson_id:
            return entry
    raise KeyError(f"no lesson {lesson_id!r}; the lessons are "
                   f"{', '.join(x.id for x in lessons())}")


def total_minutes() -> int:
    """All the lessons, one after the other, for a learner alone."""
    return sum(entry.minutes for entry in lessons())


@lru_cache(maxsize=1)
def guides() -> dict[str, Guide]:
    """The teacher's guide of every lesson, by lesson id."""
    return read_guides()


def guide(lesson_id: str) -> Guide:
    lesson(lesson_id)  # an unknown id: the KeyError that lists the lessons
    return guides()[lesson_id]
