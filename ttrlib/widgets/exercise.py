"""An exercise answered in a widget, the same in JupyterLab and in the classroom app: type a
number or a chance, or pick options, press **Check** (or Enter in the box). Feedback counts the
tries, names the rule and gives a hint; a second wrong try adds a worked step that leaves the
last move to the learner; the answer is shown only when asked (or in teacher mode, which only
``TTR_TEACHER=1`` in the kernel's environment turns on: no address a learner types does).

The key's answer never enters a widget model before it is shown: everything in a widget's state
reaches the browser, where a learner could read it. In the classroom app every judged Check and
every "Show the answer" is also recorded for the teacher (:mod:`ttrlib.lessons.recording`, which
holds nothing in the widget).
"""

from __future__ import annotations

import asyncio
import html

import ipywidgets as w
from traitlets import Bool, Int

from ..i18n import _
from ..lessons import recording, teacher_mode
from ..lessons.answers import TYPED, Exercise, Kind, judge, load_key, tolerance_words
from .base import Screen

#: Enter is judged this long after the page says so: the box's last keystroke may still be on its
#: way (the page holds a value back while an earlier one is unanswered, but sends "Enter" at once).
_ENTER_DELAY_S = 0.2

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


class ExerciseWidget(Screen):
    """One exercise of a lesson's answer key (``notebooks/answers/NN-*.toml``). Its message
    line (``feedback``) says whether an answer is right, with the rule and a hint."""

    # kernel-side traits, never synced: the page learns only the feedback
    tries = Int(0)  # wrong answers that could be read
    checks = Int(0)  # answers judged (right or wrong): the try number of the feedback
    revealed = Bool(False)  # the learner asked for the answer

    def __init__(self, exercise: Exercise, *, number: int | None = None,
                 teacher: bool | None = None):
        super().__init__(layout=w.Layout())  # as wide as its stylesheet says (.ttr-exercise)
        self.add_class("ttr-exercise")
        self._exercise = exercise
        typed = exercise.kind in TYPED
        title = _("Exercise {number}").format(number=number) if number else _("Exercise")
        self.question = w.HTML(
            f"<style>{_CSS}</style><div class='ttr-q' role='heading' aria-level='3'>"
            f"<b>{title}.</b> {html.escape(exercise.question)}</div>"
            + (f"<div class='ttr-note'>{html.escape(tolerance_words(exercise))}</div>"
               if exercise.kind in (Kind.CHANCE, Kind.SHARE) else ""),
            layout=w.Layout(width="100%"))
        if typed:
            # Every keystroke reaches the kernel (continuous_update), so Enter and Check judge
            # what is in the box, not what was there when it last lost the focus.
            self.answer_box = w.Text(placeholder=_("your answer"), description=_("Answer:"),
                                     continuous_update=True,
                                     layout=w.Layout(width="260px"))
            self.answer_box.on_msg(self._on_box_message)
            inputs: list[w.Widget] = [self.answer_box]
        elif exercise.kind is Kind.CHOICE:
            self.answer_box = w.RadioButtons(options=list(exercise.options), value=None,
                                             layout=w.Layout(width="auto"))
            inputs = [self.answer_box]
        else:
            self.boxes = [w.Checkbox(description=o, value=False, indent=False,
                                     layout=w.Layout(width="auto")) for o in exercise.options]
            inputs = list(self.boxes)
        self.check_button = w.Button(description=_("Check"), button_style="primary",
                                     tooltip=_("Check my answer"))
        self.reveal_button = w.Button(description=_("Show the answer"),
                                      tooltip=_("Show the answer and how to find it"))
        self.check_button.on_click(lambda _b: self.check())
        self.reveal_button.on_click(lambda _b: self.reveal())
        self.feedback = self.message
        self.children = [self.question, *inputs,
                         w.HBox([self.check_button, self.reveal_button]), self.feedback]
        if teacher_mode() if teacher is None else teacher:
            self.reveal(teacher=True)

    def _on_box_message(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("event") == "submit":  # Enter in the box
            try:
                asyncio.get_running_loop().call_later(_ENTER_DELAY_S, self._check_if_open)
            except RuntimeError:  # no event loop (outside a kernel): judge at once
                self.check()

    def _check_if_open(self) -> None:
        if self.comm is not None:  # the page may have closed meanwhile
            self.check()

    # --- what the learner did ----------------------------------------------------------------
    def given(self):
        ex = self._exercise
        if ex.kind is Kind.CHOICES:
            return [b.description for b in self.boxes if b.value]
        return self.answer_box.value

    def check(self) -> bool:
        """Judge the answer in the input; returns whether it is right."""
        ex = self._exercise
        try:
            verdict = judge(ex, self.given())
        except Exception:  # noqa: BLE001 - a learner never sees a traceback
            self.say(_("Something went wrong reading that answer; try writing it another way."),
                      "warning")
            return False
        if not verdict.readable:
            self.say(verdict.note, "info")
            return False
        self.checks += 1
        recording.record(ex, try_number=self.checks, verdict="right" if verdict.right else "wrong",
                         answer=verdict.canonical, revealed=self.revealed)
        if verdict.right:
            self.say(_("Right! (try {number}) {explain}").format(number=self.checks, explain=ex.explain),
                     "success", rule=ex.rule)
            return True
        self.tries += 1
        text = (_("Not yet (try {number}).").format(number=self.checks) + " "
                + (verdict.note + " " if verdict.note else "")
                + _("Hint: {hint}").format(hint=ex.hint))
        if self.tries >= 2:
            text += " " + _("A worked step: {step}").format(step=ex.worked_step)
        self.say(text, "error", rule=ex.rule)
        return False

    def reveal(self, *, teacher: bool = False) -> None:
        """Show the answer (computed into the page only now)."""
        ex = self._exercise
        if not teacher:
            self.revealed = True
            recording.record(ex, try_number=self.checks, verdict="shown", answer=None,
                             revealed=True)
        said = (_("Teacher mode: the answer is {answer}. {explain} How to find it: {solution}")
                if teacher else
                _("The answer: {answer}. {explain} How to find it: {solution}"))
        self.say(said.format(answer=ex.answer_text, explain=ex.explain,
                             solution=ex.worked_solution), "info", rule=ex.rule)

    @property
    def feedback_text(self) -> str:
        return self.message_text


def exercise(lesson: str, exercise_id: str, *, teacher: bool | None = None) -> ExerciseWidget:
    """The widget of exercise ``exercise_id`` of ``lesson`` ("01"), from the lesson's answer key."""
    key = load_key(lesson)
    if exercise_id not in key:
        raise KeyError(f"lesson {lesson} has no exercise {exercise_id!r}; it has {list(key)}")
    return ExerciseWidget(key[exercise_id], number=list(key).index(exercise_id) + 1,
                          teacher=teacher)
