"""The class's progress on the class server (issue 20): the records' endpoint, the progress API,
the teacher's page and the CSV exports; the records themselves are kept by :mod:`.records`.

- ``POST /api/progress/learner`` ``{"browser": ID}``: the token of that browser's learner, which
  the server signed (:mod:`.learners`); on a Hub, the Hub user's.
- ``POST /api/progress/report``: a lesson kernel's record, with the class secret as its Bearer
  token (a learner's browser never holds it) and the learner's token in ``learner`` (on a Hub:
  the Hub user's token, and the learner is that user whatever the report says); a report is at
  most ``MAX_REPORT`` bytes, every field is checked (:func:`records.validate`), a refusal names
  the field, and the bounds of :mod:`.learners` hold (429 with a sentence).
- ``GET /api/progress``: (computed once per version of the records) per exercise, learners, right at the first try, right in the end,
  revealed, and the common wrong answers with the key's misconception (the teacher's token as
  ``Authorization: Bearer``, or the teacher's cookie).
- ``/teacher/progress``: the page (:mod:`.progress_page`); ``/teacher/progress.csv``: every
  record; ``/teacher/summary.csv``: the page's numbers.

Every teacher address answers 401 without the teacher's token or cookie, 403 with a wrong one.
"""

from __future__ import annotations

import tornado.web

from . import learners, progress_page
from .auth import Handler, same
from .db import migrate
from .json_body import BadBody, read_json
from .records import STEPS, ReportError, Summaries, add, records_csv, summary_csv, validate

MAX_REPORT = 2048  # bytes of one report: a record is about 200


class _KernelDoor(Handler):
    """A lesson kernel's door: the class secret (never held by a learner's browser) or, on a
    Hub, the learner's own Hub token (a learner's kernel there cannot read the secret)."""

    def initialize(self, learners: learners.Learners, **_) -> None:
        self.learners = learners

    def body(self):
        if self.hub_user is None and not same(self.bearer(), self.server.class_secret):
            raise tornado.web.HTTPError(403 if self.bearer() else 401,
                                        reason="reports need the class secret")
        if len(self.request.body) > MAX_REPORT:
            raise tornado.web.HTTPError(413, reason=f"a report is at most {MAX_REPORT} bytes")
        try:
            return read_json(self.request.body, "the report")
        except BadBody as err:
            raise tornado.web.HTTPError(400, reason=str(err)) from None

    def refuse(self, err: learners.Refused):
        return tornado.web.HTTPError(err.status, reason=str(err)[:200])


class Learner(_KernelDoor):
    """The token of a browser's learner (or of the Hub user asking)."""

    def post(self) -> None:
        body = self.body()
        try:
            token = self.learners.issue(
                body.get("browser") if isinstance(body, dict) else None,
                hub_user=self.hub_user["name"] if self.hub_user else None)
        except learners.Refused as err:
            raise self.refuse(err) from None
        self.json(200, {"learner": token})


class Report(_KernelDoor):
    """A lesson kernel's record of one learner the server issued."""

    def post(self) -> None:
        report = self.body()
        try:
            if isinstance(report, dict) and self.hub_user is not None:
                # the Hub says who asks: the report's own word is not taken
                token = self.learners.issue(hub_user=self.hub_user["name"])
                report = {**report, "learner": token.split(".")[0]}
            elif isinstance(report, dict) and "learner" in report:
                report = {**report, "learner": self.learners.learner_of(report["learner"])}
            row = validate(report)
            self.learners.admit(row[0], row)
        except ReportError as err:
            raise tornado.web.HTTPError(400, reason=str(err)[:200]) from None
        except learners.Refused as err:
            raise self.refuse(err) from None
        add(self.server.conn, row)
        self.set_status(204)
        self.finish()


class ProgressApi(progress_page.TeacherPage):
    def get(self) -> None:
        self.require_teacher()
        self.json(200, {"exercises": [p.to_json() for p in self.summaries.get(self.server.conn)]})


class RecordsCsv(Handler):
    def get(self) -> None:
        self.require_teacher()
        _send_csv(self, "class-records.csv", records_csv(self.server.conn))


class SummaryCsv(Handler):
    def get(self) -> None:
        self.require_teacher()
        _send_csv(self, "class-progress.csv", summary_csv(self.server.conn))


def _send_csv(handler: Handler, name: str, text: str) -> None:
    handler.set_header("Content-Type", "text/csv; charset=utf-8")
    handler.set_header("Content-Disposition", f'attachment; filename="{name}"')
    handler.set_header("Cache-Control", "no-store")
    handler.finish(text)


def routes(server) -> list:
    migrate(server.conn, "progress", STEPS)
    migrate(server.conn, "learners", learners.STEPS)
    door = {"learners": learners.Learners(server.conn, server.class_secret),
            "summaries": Summaries()}
    server.teacher_links.append(("/teacher/progress", "The class's progress, live"))
    return [(r"/api/progress/report", Report, door), (r"/api/progress/learner", Learner, door),
            (r"/api/progress", ProgressApi, door),
            (r"/teacher/progress\.csv", RecordsCsv), (r"/teacher/summary\.csv", SummaryCsv),
            *progress_page.routes(door)]
