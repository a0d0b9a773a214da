"""classroom/fast_dates.py (issue 36): the classroom server's faster reading of kernel messages'
dates gives exactly the datetimes dateutil gave, for every form jupyter_client reads as a date
and for the messages a kernel sends."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("jupyter_client")
from dateutil.parser import isoparse  # noqa: E402
from jupyter_client import jsonutil  # noqa: E402
from jupyter_client.session import Session  # noqa: E402

# Loaded from its file, not by putting classroom/ on sys.path: its voila.py would hide Voila.
_spec = importlib.util.spec_from_file_location(
    "fast_dates", Path(__file__).resolve().parents[1] / "classroom" / "fast_dates.py")
fast_dates = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fast_dates)

# What jupyter_client's ISO8601_PAT lets through to the parser: minutes, seconds, 1-9 digits of
# a fraction, Z or an offset with or without its colon, and dates a kernel writes.
DATES = ["2026-12-03T19:07", "2026-12-03T19:07:56", "2026-12-03T19:07:56Z",
         "2026-12-03T19:07:56.1Z", "2026-12-03T19:07:56.123Z", "2026-12-03T19:07:56.123456Z",
         "2026-12-03T19:07:56.1234567Z", "2026-12-03T19:07:56.123456789Z",
         "2026-12-03T19:07:56.123456+00:00", "2026-12-03T19:07:56-05:30",
         "2026-12-03T19:07:56+0100", "2026-02-28T23:59:59.999999+14:00",
         "2024-02-29T00:00:00Z", "1999-12-31T23:59:60Z"]


@pytest.mark.parametrize("text", DATES)
def test_a_date_parses_as_dateutil_parses_it(text):
    try:
        expected = isoparse(text)
    except ValueError:
        with pytest.raises(ValueError):
            fast_dates.parse(text)
        return
    got = fast_dates.parse(text)
    assert got == expected and got.utcoffset() == expected.utcoffset(), text


def test_installed_messages_deserialize_as_before(monkeypatch):
    session = Session(key=b"k" * 16)
    msg = session.msg("status", {"execution_state": "idle"},
                      parent=session.msg("execute_request", {"code": "1"}))
    wire = session.serialize(msg)[1:]  # the frames after the delimiter
    before = session.deserialize(wire, content=False)  # content=False: not remembered as seen
    monkeypatch.setattr(jsonutil, "_dateutil_parse", jsonutil._dateutil_parse)
    fast_dates.install()
    assert jsonutil._dateutil_parse is fast_dates.parse
    after = session.deserialize(wire, content=False)
    assert after["header"] == before["header"] and after["parent_header"] == before["parent_header"]
    assert after["header"]["date"].tzinfo is not None


def test_the_classroom_config_installs_it_unless_asked_not_to():
    config = (Path(fast_dates.__file__).parent / "voila.py").read_text()
    assert "fast_dates.install()" in config and "TTR_CLASSROOM_DATEUTIL" in config
