"""The class's progress on the class server (issue 20): the records' endpoint, the progress API,
the teacher's page and the CSV exports; the records themselves are kept by :mod:`.records`.

- ``POST /api/progress/report``: a lesson kernel's record, with the class secret as its Bearer
  token (a learner's browser never holds it); a report is at most ``MAX_REPORT`` bytes, and every
  field is checked (:func:`records.validate`); a refusal names the field.
- ``GET /api/progress``: per exercise, learners, right at the first try, right in the end,
  revealed, and the common wrong answers with the key's misconception (the teacher's token as
  ``Authorization: Bearer``, or the teacher's cookie).
- ``/teacher/progress``: the page (:mod:`.progress_page`); ``/teacher/progress.csv``: every
  record; ``/teacher/summary.csv``: the page's numbers.

Every teacher address answers 401 without the teacher's token or cookie, 403 with a wrong one.
"""

from __future__ import annotations

import json

import tornado.web

from . import progress_page
from .auth import Handler, same
from .db import migrate
from .records import STEPS, ReportError, add, records_csv, summary, summary_csv, validate

MAX_REPORT = 2048  # bytes of one report: a record is about 200


class Report(Handler):
    """A lesson kernel's record, with the class secret (never held by a learner's browser)."""

    def post(self) -> None:
        # on a Hub, a learner's kernel may report with its Hub token (it cannot read the secret)
        if self.hub_user is None and not same(self.bearer(), self.server.class_secret):
            raise tornado.web.HTTPError(403 if self.bearer() else 401,
                                        reason="reports need the class secret")
        if len(self.request.body) > MAX_REPORT:
            raise tornado.web.HTTPError(413, reason=f"a report is at most {MAX_REPORT} bytes")
        try:
            row = validate(json.loads(self.request.body))
        except (ValueError, UnicodeDecodeError) as err:  # ReportError, JSONDecodeError
            message = str(err) if isinstance(err, ReportError) else "the body is not JSON"
            raise tornado.web.HTTPError(400, reason=message[:200]) from None
        add(self.server.conn, row)
        self.set_status(204)
        self.finish()


class ProgressApi(Handler):
    def get(self) -> None:
        self.require_teacher()
        self.json(200, {"exercises": [p.to_json() for p in summary(self.server.conn)]})


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
    server.teacher_links.append(("/teacher/progress", "The class's progress, live"))
    return [(r"/api/progress/report", Report), (r"/api/progress", ProgressApi),
            (r"/teacher/progress\.csv", RecordsCsv), (r"/teacher/summary\.csv", SummaryCsv),
            *progress_page.routes()]
