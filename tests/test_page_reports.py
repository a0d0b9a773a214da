"""A classroom page's report of lost widgets, as its kernel prints it (issue 21): whether the
kernel still holds each model named, and nothing of the report that is not an id or a word."""

from __future__ import annotations

import re

import ipywidgets as w
import pytest

from ttrlib.lessons import page_reports

ABSENT = "0123456789abcdef" * 2  # an id no widget has (widget ids are random uuid4 hex)


@pytest.fixture
def widget():
    box = w.Button(description="kept")
    yield box
    box.close()


def test_models_the_kernel_holds_mean_the_page_lost_them(widget):
    line = page_reports.report_line({"lost": [widget.model_id], "outcome": "drawn 1 of 1",
                                     "page": "06-play-a-team-game.ipynb"})
    assert line == ("ttrlib: 06-play-a-team-game.ipynb lost 1 widget on its way; this kernel "
                    "holds them all: the page lost them; asked again: drawn 1 of 1")


def test_models_the_kernel_does_not_hold_are_named_as_lost_by_the_kernel(widget):
    gone = w.Button()
    gone_id = gone.model_id
    gone.close()
    assert "holds none of them: the kernel lost them" in page_reports.report_line(
        {"lost": [gone_id]})
    line = page_reports.report_line({"lost": [widget.model_id, ABSENT], "outcome": "drawn 1 of 2"})
    assert "lost 2 widgets" in line and "holds 1 of them: the kernel lost the others" in line


@pytest.mark.parametrize("data", [
    {}, {"lost": "not a list"}, {"lost": [1, None, "x" * 32, ABSENT.upper()]},
    {"lost": [ABSENT] * 500, "page": "<script>" * 50, "outcome": "é\n" * 500},
])
def test_a_report_of_any_shape_gives_one_short_clean_line(data):
    line = page_reports.report_line(data)
    assert line.startswith("ttrlib: ") and "\n" not in line and len(line) < 400
    assert "<" not in line and ">" not in line
    assert re.search(r"lost (0|20) widgets on its way", line), line


class _Comms:
    """A kernel's comm manager, as far as ``listen`` uses it."""

    def __init__(self):
        self.targets: list[str] = []

    def register_target(self, name, handler):
        self.targets.append(name)


class _Comm:
    closed = False

    def close(self):
        self.closed = True


def test_only_a_classroom_kernel_listens_and_only_once(monkeypatch):
    import IPython

    comms = _Comms()
    shell = type("Shell", (), {"kernel": type("Kernel", (), {"comm_manager": comms})()})()
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)
    monkeypatch.setattr(page_reports, "_listening", False)
    monkeypatch.delenv("TTR_CLASSROOM", raising=False)
    assert page_reports.listen() is False and comms.targets == []  # JupyterLab, Binder
    monkeypatch.setenv("TTR_CLASSROOM", "1")
    assert page_reports.listen() is True and page_reports.listen() is True
    assert comms.targets == [page_reports.TARGET]  # one registration for every screen
    monkeypatch.setattr(IPython, "get_ipython", lambda: None)
    monkeypatch.setattr(page_reports, "_listening", False)
    assert page_reports.listen() is False  # not in a kernel (a test process, a script)


def test_a_kernel_prints_a_few_reports_and_closes_every_comm(monkeypatch, capsys):
    monkeypatch.setattr(page_reports, "_printed", 0)
    monkeypatch.setattr(page_reports.sys, "__stderr__", page_reports.sys.stderr)
    comms = [_Comm() for _ in range(page_reports.MAX_REPORTS + 3)]
    for comm in comms:
        page_reports._received(comm, {"content": {"data": {"lost": [ABSENT], "page": "p"}}})
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == page_reports.MAX_REPORTS == 5  # a flood from a console is cut short
    assert lines[0] == ("ttrlib: p lost 1 widget on its way; this kernel holds none of them: "
                        "the kernel lost them; asked again: no answer")
    assert all(c.closed for c in comms)
