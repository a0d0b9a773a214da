"""The class's records (issue 20, item 3): every Check and every "Show the answer" of the
lessons' exercises, in the class server's SQLite store, and the numbers the teacher sees.

A record holds no name, no address and no free text: a random learner id, the lesson, the
exercise, the try number, the verdict, the judged answer in its canonical form (a fraction in
lowest terms or options of the key, checked against the key: :func:`validate`) and whether the
answer had been shown. ``python -m ttrlib.server.records forget --data DIR`` deletes them all
(``make classroom-forget`` asks first).

What counts (:func:`summary`): "right at the first try" is a learner whose first judged answer
was right, before asking for the answer; "right in the end" a learner who gave a right answer
before asking for it (typing the answer once shown does not count); "revealed" a learner who
asked for it. A wrong answer is named only once ``NAMED_FROM`` learners gave it.
"""

from __future__ import annotations

import csv
import io
import re
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..i18n import SOURCE_LANGUAGE
from ..lessons.answers import JOIN, MAX_CANONICAL, Exercise, Kind, load_key
from ..lessons.catalog import lessons
from .db import dialect, migrate, transaction

NAMED_FROM = 3  # a wrong answer is named once this many learners gave it (no one is singled out)
MAX_TRY = 10_000
VERDICTS = ("right", "wrong", "shown")
FIELDS = ("learner", "lesson", "exercise", "try", "verdict", "answer", "revealed")

_CHECKS = """
    CREATE TABLE checks (
        id INTEGER PRIMARY KEY,
        learner TEXT NOT NULL CHECK (length(learner) = 32),
        lesson TEXT NOT NULL CHECK (length(lesson) = 2),
        exercise TEXT NOT NULL,
        try INTEGER NOT NULL CHECK (try >= 0),
        verdict TEXT NOT NULL CHECK (verdict IN ('right', 'wrong', 'shown')),
        answer TEXT CHECK (answer IS NULL OR length(answer) <= 200),
        revealed INTEGER NOT NULL CHECK (revealed IN (0, 1))
    );
    CREATE INDEX checks_by_exercise ON checks (lesson, exercise, learner)
    """

STEPS = [
    {"sqlite": _CHECKS,
     # the same table; PostgreSQL numbers the rows by IDENTITY (INTEGER PRIMARY KEY is
     # SQLite's rowid)
     "postgresql": _CHECKS.replace("id INTEGER PRIMARY KEY",
                                   "id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY")},
    # when the server recorded it (seconds since 1970, UTC); None for the rows made before
    "ALTER TABLE checks ADD COLUMN at DOUBLE PRECISION",
]

_LEARNER = re.compile(r"[0-9a-f]{32}")
_LESSON = re.compile(r"[0-9]{2}")
_CANONICAL_NUMBER = re.compile(r"-?[0-9]+(/[0-9]+)?")


class ReportError(ValueError):
    """A report the server refuses: names the field."""


@lru_cache(maxsize=None)
def keys() -> dict[str, dict[str, Exercise]]:
    """Every lesson's answer key, by lesson id ("01"), in the catalogue's order, in the keys'
    own language: a translated lesson records its answers in it (``recording.record``), so a
    server started with ``TTR_LANG=ru`` must not read the Russian options."""
    found = {}
    for lesson in lessons():
        try:
            found[lesson.id] = load_key(lesson.id, lang=SOURCE_LANGUAGE)
        except ValueError:  # a lesson without exercises
            continue
    return found


def validate(report) -> tuple:
    """The row of a report, or ReportError naming the first field that is wrong."""
    if not isinstance(report, dict):
        raise ReportError("a report is a JSON object")
    extra = sorted(set(report) - set(FIELDS))
    if extra:
        raise ReportError(f"field {extra[0][:40]!r} is not part of a report")
    missing = [f for f in FIELDS if f not in report]
    if missing:
        raise ReportError(f"field {missing[0]!r} is missing")
    learner, lesson, ex_id = report["learner"], report["lesson"], report["exercise"]
    if not isinstance(learner, str) or not _LEARNER.fullmatch(learner):
        raise ReportError("field 'learner' must be 32 lowercase hex digits")
    if not isinstance(lesson, str) or not _LESSON.fullmatch(lesson) or lesson not in keys():
        raise ReportError("field 'lesson' must be a lesson with exercises, such as \"01\"")
    if not isinstance(ex_id, str) or ex_id not in keys()[lesson]:
        raise ReportError(f"field 'exercise' must be an exercise of lesson {lesson}")
    exercise = keys()[lesson][ex_id]
    number = report["try"]
    if type(number) is not int or not 0 <= number <= MAX_TRY:
        raise ReportError(f"field 'try' must be a whole number from 0 to {MAX_TRY}")
    verdict = report["verdict"]
    if verdict not in VERDICTS:
        raise ReportError(f"field 'verdict' must be one of {', '.join(VERDICTS)}")
    revealed = report["revealed"]
    if type(revealed) is not bool:
        raise ReportError("field 'revealed' must be true or false")
    answer = report["answer"]
    if verdict == "shown":
        if answer is not None or not revealed:
            raise ReportError("field 'answer' must be null (and 'revealed' true) when shown")
    elif answer is not None and not canonical_in_key(exercise, answer):
        raise ReportError(f"field 'answer' must be a canonical answer to {lesson} {ex_id}")
    return (learner, lesson, ex_id, number, verdict, answer, int(revealed))


def canonical_in_key(exercise: Exercise, answer) -> bool:
    """Whether ``answer`` is written as the judge writes an answer to ``exercise``: a fraction
    in lowest terms (number, chance, share), an option, or options in the key's order."""
    if not isinstance(answer, str) or not answer or len(answer) > 200:
        return False
    if exercise.kind is Kind.CHOICE:
        return answer in exercise.options
    if exercise.kind is Kind.CHOICES:
        picked = answer.split(JOIN)
        in_order = [o for o in exercise.options if o in picked]
        return picked == in_order
    if len(answer) > MAX_CANONICAL or not _CANONICAL_NUMBER.fullmatch(answer):
        return False
    value = Fraction(answer)
    return str(value) == answer and (exercise.kind is Kind.NUMBER or 0 <= value <= 1)


def add(conn, row: tuple, at: float | None = None) -> None:
    """Record ``row`` (``FIELDS``' order), stamped with the server's time (``at``: now)."""
    with transaction(conn):
        conn.execute("INSERT INTO checks (learner, lesson, exercise, try, verdict, answer, "
                     "revealed, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     (*row, time.time() if at is None else at))


def forget(conn) -> int:
    """Delete every record of the class (and the space they took); returns how many."""
    with transaction(conn):
        count = conn.execute("DELETE FROM checks").rowcount
        # the learners the server issued (server.learners) go too: a forgotten class is new
        if conn.execute("SELECT 1 FROM schema WHERE module = 'learners'").fetchone():
            conn.execute("DELETE FROM learners")
    conn.execute("VACUUM" if dialect(conn) == "sqlite" else "VACUUM FULL checks")  # the
    # deleted rows' pages are overwritten, not merely freed
    if dialect(conn) == "sqlite":
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return count


@dataclass(frozen=True)
class Wrong:
    answer: str
    learners: int
    misconception: str | None


@dataclass(frozen=True)
class ExerciseProgress:
    lesson: str
    exercise: str
    learners: int
    right_first_try: int
    right: int
    revealed: int
    wrong: tuple[Wrong, ...]

    def to_json(self) -> dict:
        return {"lesson": self.lesson, "exercise": self.exercise, "learners": self.learners,
                "right_first_try": self.right_first_try, "right": self.right,
                "revealed": self.revealed,
                "wrong": [{"answer": w.answer, "learners": w.learners,
                           "misconception": w.misconception} for w in self.wrong]}


def _counts(row: Any) -> tuple[int, int, int, int]:
    """The four counts of a ``_SUMMARY`` row (learners, right first try, right, revealed)."""
    return int(row[2]), int(row[3]), int(row[4]), int(row[5])


_SUMMARY = """
WITH first AS (
    SELECT lesson, exercise, learner, MIN(id) AS id FROM checks
    WHERE verdict IN ('right', 'wrong') GROUP BY lesson, exercise, learner)
SELECT c.lesson, c.exercise, COUNT(DISTINCT c.learner),
    (SELECT COUNT(*) FROM first f JOIN checks k ON k.id = f.id
     WHERE f.lesson = c.lesson AND f.exercise = c.exercise
       AND k.verdict = 'right' AND k.revealed = 0),
    COUNT(DISTINCT CASE WHEN c.verdict = 'right' AND c.revealed = 0 THEN c.learner END),
    COUNT(DISTINCT CASE WHEN c.verdict = 'shown' THEN c.learner END)
FROM checks c GROUP BY c.lesson, c.exercise
"""
_WRONG = """
SELECT lesson, exercise, answer, COUNT(DISTINCT learner) AS n FROM checks
WHERE verdict = 'wrong' AND answer IS NOT NULL
GROUP BY lesson, exercise, answer HAVING COUNT(DISTINCT learner) >= ?
ORDER BY n DESC, answer
"""


def summary(conn) -> list[ExerciseProgress]:
    """Every exercise someone tried, in the order of the lessons and their keys."""
    wrong: dict[tuple[str, str], list[Wrong]] = {}
    for lesson, ex_id, answer, n in conn.execute(_WRONG, (NAMED_FROM,)):
        ex = keys().get(lesson, {}).get(ex_id)
        wrong.setdefault((lesson, ex_id), []).append(
            Wrong(answer, n, ex.misconception(answer) if ex else None))
    rows = {(r[0], r[1]): r for r in conn.execute(_SUMMARY)}
    order = [(lesson, ex_id) for lesson, key in keys().items() for ex_id in key]
    return [ExerciseProgress(lesson, ex_id, *_counts(rows[lesson, ex_id]),
                             tuple(wrong.get((lesson, ex_id), ())))
            for lesson, ex_id in order if (lesson, ex_id) in rows]


class Summaries:
    """``summary`` computed again only when the records changed (``/api/progress`` and the
    progress page ask every few seconds per open page): their version is the last record's
    number with their count (a forgotten class counts from nothing again)."""

    def __init__(self):
        self.version: tuple | None = None
        self.summary: list[ExerciseProgress] = []

    def get(self, conn) -> list[ExerciseProgress]:
        version = tuple(conn.execute("SELECT MAX(id), COUNT(*) FROM checks").fetchone())
        if version != self.version:
            self.summary, self.version = summary(conn), version
        return self.summary


def _when(at) -> str:
    """A record's time as a spreadsheet reads it (UTC, to the second); empty if unknown."""
    if at is None:
        return ""
    return datetime.fromtimestamp(float(at), timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def records_csv(conn) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["record", "time (UTC)", *FIELDS])
    for row in conn.execute(f"SELECT id, at, {', '.join(FIELDS)} FROM checks ORDER BY id"):
        writer.writerow([row[0], _when(row[1]), *row[2:-1], "yes" if row[-1] else "no"])
    return out.getvalue()


def summary_csv(conn) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["lesson", "exercise", "learners", "right_first_try", "right", "revealed",
                     "common wrong answers", "misconceptions"])
    for p in summary(conn):
        writer.writerow([p.lesson, p.exercise, p.learners, p.right_first_try, p.right,
                         p.revealed, JOIN.join(f"{w.answer} ({w.learners})" for w in p.wrong),
                         JOIN.join(f"{w.answer}: {w.misconception}" for w in p.wrong
                                   if w.misconception)])
    return out.getvalue()


def main(argv=None) -> int:
    """``python -m ttrlib.server.records forget --data DIR [--db postgresql://...] [--yes]``."""
    import argparse
    from pathlib import Path

    from . import db

    parser = argparse.ArgumentParser(prog="python -m ttrlib.server.records")
    parser.add_argument("command", choices=["forget"])
    parser.add_argument("--data", default="classroom-data", help="the class server's data folder")
    parser.add_argument("--db", default=None,
                        help="the server's PostgreSQL address, if it runs on one")
    parser.add_argument("--yes", action="store_true", help="do not ask (scripts and tests)")
    args = parser.parse_args(argv)
    path = Path(args.data) / db.DB_NAME
    if args.db is None and not path.exists():
        print(f"No class records in {args.data}: nothing to forget.")
        return 0
    conn = db.connect(args.db or path)
    migrate(conn, "progress", STEPS)
    count = conn.execute("SELECT COUNT(*) FROM checks").fetchone()[0]
    if not args.yes:
        # never the database's address: it may hold a password
        where = "the PostgreSQL database" if args.db else args.data
        answer = input(f"Delete all {count} records of the class's checks in {where}? "
                       "This cannot be undone. Type yes to delete: ")
        if answer.strip().lower() != "yes":
            print("Nothing deleted.")
            return 1
    print(f"Deleted {forget(conn)} records; the class's progress starts again from nothing.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
