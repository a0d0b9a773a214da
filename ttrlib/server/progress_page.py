"""The teacher's progress page: the class at a glance, refreshed every few seconds.

One row per exercise someone tried: how many learners tried it, and three bars (right at the first
try, right in the end, asked for the answer) with their numbers, then the common wrong answers,
each with a bar, how many learners gave it and the misconception the key names for it. The page
fetches its board again every ``REFRESH_S`` seconds (a small script of its own; no outside file),
so the teacher never reloads. Everything shown is escaped: answers are canonical forms checked
against the keys, but a page never trusts a record.
"""

from __future__ import annotations

import html
from fractions import Fraction

from ..lessons.catalog import lessons
from ..words import percent
from .auth import Handler
from .records import NAMED_FROM, keys

REFRESH_S = 3  # the board is never older than this plus one request

_CSS = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 16px 24px; color: #1d232a; }
h1 { font-size: 22px; margin: 0 0 4px 0; } h2 { font-size: 17px; margin: 18px 0 6px 0; }
.note { color: #555; margin: 0 0 10px 0; } .note a { margin-right: 12px; }
table { border-collapse: collapse; width: 100%; max-width: 1200px; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid #ddd; }
th { font-size: 13px; color: #444; font-weight: 600; }
.ex { width: 200px; } .n { width: 64px; font-size: 20px; font-weight: 600; }
.bars { width: 340px; }
.bar { display: flex; align-items: center; gap: 6px; font-size: 13px; margin: 2px 0; }
.bar .what { flex: 0 0 150px; white-space: nowrap; }
.bar .track { flex: 0 0 120px; height: 12px; background: #eceff1; border-radius: 3px; }
.bar .fill { display: block; height: 12px; border-radius: 3px; }
.first .fill { background: #2e7d32; } .right .fill { background: #81c784; }
.shown .fill { background: #f9a825; } .wrong .fill { background: #c62828; }
.rule { color: #666; font-size: 12px; }
.w { margin: 0 0 8px 0; }
.answer { font-family: ui-monospace, monospace; font-weight: 700; font-size: 15px;
  background: #fdecea; padding: 0 4px; border-radius: 3px; }
.belief { color: #333; font-size: 13px; }
.none { color: #777; font-size: 13px; }
"""

_SCRIPT = f"""// Fetch the board again every {REFRESH_S} s; say so when the server stops answering.
const board = document.getElementById('board');
const note = document.getElementById('updated');
async function refresh() {{
  try {{
    const r = await fetch('/teacher/progress/board', {{cache: 'no-store', credentials: 'same-origin'}});
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


_NONE = f"<span class='none'>none given by {NAMED_FROM} learners or more</span>"


def _bar(kind: str, what: str, n: int, of: int) -> str:
    """``n`` of ``of`` learners as a bar, its number beside it, ``what`` before it (if any)."""
    width = round(100 * n / of) if of else 0
    label = f"<span class='what'>{what}</span>" if what else ""
    return (f"<div class='bar {kind}'>{label}"
            f"<span class='track' role='img' aria-label='{n} of {of}'>"
            f"<span class='fill' style='width:{width}%'></span></span>"
            f"<b>{n}</b></div>")


def _shown(ex, answer: str) -> str:
    """A canonical answer as the teacher reads it: a chance or share with its percentage."""
    if ex.kind in ("chance", "share"):
        return f"{answer} ≈ {percent(Fraction(answer))}"
    return answer


def board_html(progress) -> str:
    """The board: a table per lesson that someone worked on (``progress``: ``records.summary``)."""
    if not progress:
        return ("<p class='none'>No check recorded yet. When learners press Check or Show the "
                "answer in a lesson of the classroom app, their numbers appear here.</p>")
    names = {lesson.id: lesson.name for lesson in lessons()}
    parts = []
    for lesson in dict.fromkeys(p.lesson for p in progress):
        key = keys()[lesson]
        rows = []
        for p in (p for p in progress if p.lesson == lesson):
            ex = key[p.exercise]
            number = list(key).index(p.exercise) + 1
            wrong = "".join(
                f"<div class='w'><span class='answer'>{html.escape(_shown(ex, w.answer))}</span>"
                + (f" <span class='belief'>{html.escape(w.misconception)}</span>"
                   if w.misconception else "")
                + _bar("wrong", "", w.learners, p.learners) + "</div>" for w in p.wrong)
            rows.append(
                f"<tr><td class='ex'>Exercise {number}<br><span class='rule'>"
                f"{html.escape(p.exercise)} · rule {html.escape(ex.rule)}</span></td>"
                f"<td class='n'>{p.learners}</td><td class='bars'>"
                + _bar("first", "right at first try", p.right_first_try, p.learners)
                + _bar("right", "right in the end", p.right, p.learners)
                + _bar("shown", "asked for the answer", p.revealed, p.learners)
                + f"</td><td>{wrong or _NONE}</td></tr>")
        parts.append(
            f"<h2>{html.escape(names.get(lesson, lesson))}</h2><table><thead><tr>"
            "<th>exercise</th><th>learners</th><th>how they did</th>"
            f"<th>common wrong answers (given by {NAMED_FROM} learners or more)</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")
    return "".join(parts)


def page_html(progress) -> str:
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>The class's progress</title><style>{_CSS}</style></head><body>"
        "<h1>The class's progress</h1>"
        f"<p class='note'><span id='updated'>Updates every {REFRESH_S} seconds.</span> "
        "Learners are counted by a random id their browser keeps: no names.</p>"
        "<p class='note'><a href='/teacher'>The teacher's room</a>"
        "<a href='/teacher/summary.csv'>These numbers as CSV</a>"
        "<a href='/teacher/progress.csv'>Every check as CSV</a></p>"
        f"<div id='board' aria-live='polite'>{board_html(progress)}</div>"
        "<script src='/teacher/progress.js'></script></body></html>")


class TeacherPage(Handler):
    """A teacher's page: never cached, this server's own script only, in no frame."""

    def initialize(self, summaries, **_) -> None:
        self.summaries = summaries

    def send(self, kind: str, body: str) -> None:
        self.set_header("Content-Type", f"{kind}; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        # Only this server's own script; no frame may hold the page.
        self.set_header("Content-Security-Policy", "default-src 'none'; script-src 'self'; "
                        "style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'")
        self.finish(body)


class ProgressPage(TeacherPage):
    def get(self) -> None:
        self.require_teacher()
        self.send("text/html", page_html(self.summaries.get(self.server.conn)))


class ProgressBoard(TeacherPage):
    def get(self) -> None:
        self.require_teacher()
        self.send("text/html", board_html(self.summaries.get(self.server.conn)))


class ProgressScript(TeacherPage):
    def get(self) -> None:
        self.require_teacher()
        self.send("text/javascript", _SCRIPT)


def routes(state: dict) -> list:
    return [(r"/teacher/progress", ProgressPage, state),
            (r"/teacher/progress/board", ProgressBoard, state),
            (r"/teacher/progress\.js", ProgressScript, state)]
