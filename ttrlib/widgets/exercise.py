"""An exercise answered in a widget, the same in JupyterLab and in the classroom app: type a
number or a chance, or pick options, press **Check**. Feedback names the rule and gives a hint;
a second wrong try adds a worked step; the answer is shown only when asked (or in teacher mode).

The key's answer never enters a widget model before it is shown: everything in a widget's state
reaches the browser, where a learner could read it.
"""

from __future__ import annotations

import html

import ipywidgets as w

from .. import display
from ..lessons import teacher_mode, when_query_known
from ..lessons.answers import Exercise, judge, load_key, tolerance_words

_CSS = """
.ttr-exercise { border: 1px solid rgba(128,128,128,0.45); border-radius: 8px; padding: 8px 12px;
  margin: 6px 0 12px 0; max-width: 900px; }
.ttr-exercise .ttr-q { font-size: 15px; line-height: 1.45; margin: 2px 0 6px 0; }
.ttr-exercise .ttr-note { font-size: 13px; opacity: 0.85; margin: 0 0 4px 0; }
.ttr-exercise .widget-radio-box label, .ttr-exercise .widget-checkbox label {
  height: auto !important; white-space: normal !important; line-height: 1.35; margin: 3px 0; }
.ttr-exercise .widget-radio-box { flex-wrap: nowrap; }
.ttr-exercise .widget-html-content { line-height: 1.4; }
"""


class ExerciseWidget(w.VBox):
    """One exercise of a lesson's answer key (``notebooks/answers/NN-*.toml``)."""

    def __init__(self, exercise: Exercise, *, number: int | None = None,
                 teacher: bool | None = None):
        super().__init__()
        self.add_class("ttr-exercise")
        self._exercise = exercise
        self.tries = 0  # wrong answers that could be read
        typed = exercise.kind in ("number", "chance")
        title = f"Exercise {number}" if number else "Exercise"
        self.question = w.HTML(
            f"<style>{_CSS}</style><div class='ttr-q' role='heading' aria-level='3'>"
            f"<b>{title}.</b> {html.escape(exercise.question)}</div>"
            + (f"<div class='ttr-note'>{html.escape(tolerance_words(exercise))}</div>"
               if exercise.kind == "chance" else ""), layout=w.Layout(width="100%"))
        if typed:
            self.answer_box = w.Text(placeholder="your answer", description="Answer:",
                                     continuous_update=False,
                                     layout=w.Layout(width="260px"))
            inputs: list[w.Widget] = [self.answer_box]
        elif exercise.kind == "choice":
            self.answer_box = w.RadioButtons(options=list(exercise.options), value=None,
                                             layout=w.Layout(width="auto"))
            inputs = [self.answer_box]
        else:
            self.boxes = [w.Checkbox(description=o, value=False, indent=False,
                                     layout=w.Layout(width="auto")) for o in exercise.options]
            inputs = list(self.boxes)
        self.check_button = w.Button(description="Check", button_style="primary",
                                     tooltip="Check my answer")
        self.reveal_button = w.Button(description="Show the answer",
                                      tooltip="Show the answer and how to find it")
        self.check_button.on_click(lambda _b: self.check())
        self.reveal_button.on_click(lambda _b: self.reveal())
        self.feedback = w.HTML()
        self.children = [self.question, *inputs,
                         w.HBox([self.check_button, self.reveal_button]), self.feedback]
        if teacher is None:  # ?teacher=1: known only once the learner opens the page
            when_query_known(self._teacher_check)
        elif teacher:
            self.reveal(teacher=True)

    def _teacher_check(self) -> None:
        if self.comm is not None and teacher_mode():  # (a closed exercise stays closed)
            self.reveal(teacher=True)

    # --- what the learner did ----------------------------------------------------------------
    def given(self):
        ex = self._exercise
        if ex.kind == "choices":
            return [b.description for b in self.boxes if b.value]
        return self.answer_box.value

    def check(self) -> bool:
        """Judge the answer in the input; returns whether it is right."""
        ex = self._exercise
        try:
            verdict = judge(ex, self.given())
        except Exception:  # noqa: BLE001 - a learner never sees a traceback
            self._say("Something went wrong reading that answer; try writing it another way.",
                      "warning")
            return False
        if not verdict.readable:
            self._say(verdict.note, "info")
            return False
        if verdict.right:
            self._say(f"Right! {ex.explain}", "success", rule=ex.rule)
            return True
        self.tries += 1
        text = "Not yet. " + (verdict.note + " " if verdict.note else "") + f"Hint: {ex.hint}"
        if self.tries >= 2:
            text += f" A worked step: {ex.worked}"
        self._say(text, "error", rule=ex.rule)
        return False

    def reveal(self, *, teacher: bool = False) -> None:
        """Show the answer (computed into the page only now)."""
        ex = self._exercise
        lead = "Teacher mode: the answer is " if teacher else "The answer: "
        self._say(f"{lead}{ex.answer_text}. {ex.explain} How to find it: {ex.worked}", "info",
                  rule=ex.rule)

    @property
    def feedback_text(self) -> str:
        from .base import _plain

        return _plain(self.feedback.value)

    def _say(self, text: str, kind: str, *, rule: str | None = None) -> None:
        self.feedback.value = display.message_html(text, kind, rule=rule)


def exercise(lesson: str, exercise_id: str, *, teacher: bool | None = None) -> ExerciseWidget:
    """The widget of exercise ``exercise_id`` of ``lesson`` ("01"), from the lesson's answer key."""
    key = load_key(lesson)
    if exercise_id not in key:
        raise KeyError(f"lesson {lesson} has no exercise {exercise_id!r}; it has {list(key)}")
    return ExerciseWidget(key[exercise_id], number=list(key).index(exercise_id) + 1,
                          teacher=teacher)
