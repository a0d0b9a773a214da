"""The classroom server reads each kernel message's dates with ``datetime.fromisoformat``
instead of dateutil (issue 36).

Every message a lesson kernel sends on IOPub is deserialized twice in the server (by the
notebook's executor, nbclient, and by jupyter_server's activity watcher), and each time
``jupyter_client.jsonutil.parse_date`` parses the header's and the parent header's date with
dateutil's ``isoparse``: about 15 us a date, against 0.3 us for ``datetime.fromisoformat``
(Python 3.11+ reads the same ISO 8601 forms). A lesson page opened by a learner makes hundreds
of such messages (every widget, its Layout and its Style open a comm), all handled by the one
server process that serves the whole class: in benchmarks/bench_classroom.py's profile of 10
pages opened at once, date parsing was about a seventh of the server's CPU.

``install()`` swaps the parser jupyter_client calls (``jsonutil._dateutil_parse``) for one that
tries ``fromisoformat`` first and falls back to dateutil for anything it refuses (Python 3.10
refuses a trailing ``Z``), so every date parses to the same datetime as before.
"""

from __future__ import annotations

from datetime import datetime

from jupyter_client import jsonutil

_dateutil_parse = jsonutil._dateutil_parse


def parse(text: str) -> datetime:
    """dateutil's ``isoparse``, fast for the dates kernels write."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return _dateutil_parse(text)


def install() -> None:
    jsonutil._dateutil_parse = parse
