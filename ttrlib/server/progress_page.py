"""The teacher's progress page: the class at a glance, refreshed every few seconds.

One row per exercise someone tried: how many learners tried it, and three bars (right at the first
try, right in the end, asked for the answer) with their numbers, then the common wrong answers,
each with a bar, how many learners gave it and the misconception the key names for it. The page
fetches its board again every ``REFRESH_S`` seconds (a small script of its own; no outside file),
so the teacher never reloads. The page and its board are templates (``progress.html``,
``progress_board.html``): everything shown is escaped; answers are canonical forms checked
against the keys, but a page never trusts a record.
"""

from __future__ import annotations

from fractions import Fraction

from ..lessons.answers import Kind
from ..lessons.catalog import lessons
from ..words import percent
from .auth import Handler
from .records import NAMED_FROM, keys

REFRESH_S = 3  # the board is never older than this plus one request

_SCRIPT = f"""// Fetch the board again every {REFRESH_S} s; say so when the server stops answering.
const board = document.getElementById('board');
const note = document.getElementById('updated');
async function refresh() {{
  try {{
    const r = await fetch(board.dataset.board, {{cache: 'no-store', credentials: 'same-origin'}});
    if (r.ok) {{
      board.innerHTML = await r.text();
      note.textContent = 'Updated ' + new Date().toLocaleTimeString() + '.';
    }} else {{
      note.textContent = 'The class server refused the update (' + r.status + '): open your login link again.';
    }}
  }} catch (e) {{
    note.textContent = 'The class server does not answer; the numbers below may be old.';
  }}
}}
setInterval(refresh, {REFRESH_S * 1000});
"""


def _shown(ex, answer: str) -> str:
    """A canonical answer as the teacher reads it: a chance or share with its percentage."""
    if ex.kind in (Kind.CHANCE, Kind.SHARE):
        return f"{answer} ≈ {percent(Fraction(answer))}"
    return answer


def _width(n: int, of: int) -> int:
    return round(100 * n / of) if of else 0


def board(progress) -> dict:
    """What ``progress_board.html`` shows of ``records.summary``: a table per lesson."""
    names = {lesson.id: lesson.name for lesson in lessons()}
    shown = []
    for lesson in dict.fromkeys(p.lesson for p in progress):
        key = keys()[lesson]
        rows = []
        for p in (p for p in progress if p.lesson == lesson):
            ex = key[p.exercise]
            rows.append({
                "number": list(key).index(p.exercise) + 1, "id": p.exercise, "rule": ex.rule,
                "learners": p.learners,
                "bars": [{"kind": kind, "what": what, "n": n, "width": _width(n, p.learners)}
                         for kind, what, n in (
                             ("first", "right at first try", p.right_first_try),
                             ("right", "right in the end", p.right),
                             ("shown", "asked for the answer", p.revealed))],
                "wrong": [{"answer": _shown(ex, w.answer), "misconception": w.misconception,
                           "n": w.learners, "width": _width(w.learners, p.learners)}
                          for w in p.wrong]})
        shown.append({"name": names.get(lesson, lesson), "rows": rows})
    return {"lessons": shown, "named_from": NAMED_FROM}


class TeacherPage(Handler):
    """A teacher's page of the progress (the records' numbers, computed once per version)."""

    def initialize(self, summaries, **_) -> None:
        self.summaries = summaries


class ProgressPage(TeacherPage):
    def get(self) -> None:
        self.require_teacher()
        self.page("progress.html", refresh_s=REFRESH_S,
                  **board(self.summaries.get(self.server.conn)))


class ProgressBoard(TeacherPage):
    def get(self) -> None:
        self.require_teacher()
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(self.render_string("progress_board.html",
                                       **board(self.summaries.get(self.server.conn))))


class ProgressScript(TeacherPage):
    def get(self) -> None:
        self.require_teacher()
        self.set_header("Content-Type", "text/javascript; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(_SCRIPT)


def routes(state: dict) -> list:
    return [(r"/teacher/progress", ProgressPage, state),
            (r"/teacher/progress/board", ProgressBoard, state),
            (r"/teacher/progress\.js", ProgressScript, state)]
