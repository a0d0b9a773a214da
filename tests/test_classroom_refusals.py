"""What the classroom app's refusals look like (issue 30, finding 8): a learner who opens an
address that is not a lesson gets a page saying so, with a link to the list of lessons, and the
teacher's terminal (the server's log) gets one line per request, no traceback.

Before: every refusal by ``classroom/lessons_only.py`` printed a 35-line traceback ("Calling
get_current_user() directly is deprecated") and sent an empty 404. Plain HTTP against a
classroom server on a folder without lessons (so no kernel is started ahead of time).
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request

import lab_harness as h
import pytest

pytest.importorskip("voila")
pytestmark = pytest.mark.xdist_group("classroom")

REFUSED = ["/voila/render/solutions.ipynb", "/voila/render/answers/01-card-splits.ipynb",
           "/voila/tree/answers", "/voila/render/teachers.ipynb?seed=7",
           # a language's folder (issue 35) opens its lessons and nothing else
           "/voila/render/ru/../solutions.ipynb", "/voila/render/ru/answers/01-card-splits.ipynb",
           "/voila/render/xx/00-start-here.ipynb", "/voila/tree/ru/answers", "/no-such-address"]
NOTEBOOK = '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("refusals")
    folder = tmp / "lessons"
    (folder / "answers").mkdir(parents=True)
    for name in ("solutions.ipynb", "teachers.ipynb", "answers/01-card-splits.ipynb"):
        (folder / name).write_text(NOTEBOOK)
    with h.classroom(tmp, folder=folder) as (base, proc):
        yield base, tmp / "classroom.log"


def _get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return answer.status, answer.headers.get("Content-Type", ""), answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers.get("Content-Type", ""), refused.read().decode()


def _settled_log(base: str, log) -> str:
    """The log once every earlier request has its line: the server writes a line after its answer,
    so a line of the previous test may still come; a marker request's line comes after it."""
    marker = f"/settle-{time.monotonic_ns()}"
    _get(base + marker)
    for _ in range(600):
        text = log.read_text()
        if f"GET {marker}" in text:
            return text
        time.sleep(0.1)
    raise AssertionError(f"the server never logged {marker}")


def _text(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", re.sub(r"<style.*?</style>", "", page, flags=re.S))
                    .split())


@pytest.mark.parametrize("path", REFUSED)
def test_a_refused_address_gets_a_page_with_the_way_back(server, path):
    base, _ = server
    status, kind, page = _get(base + path)
    assert status == 404 and kind.startswith("text/html"), (status, kind)
    assert "This address is not a lesson" in _text(page), page
    links = re.findall(r'<a href="([^"]*)">the list of lessons</a>', page)
    assert links == ["/"], page
    assert _get(base + links[0])[0] == 200  # the way back works


def test_the_contents_api_refuses_in_json(server):
    base, _ = server
    status, kind, body = _get(base + "/voila/api/contents/answers")
    assert status == 404 and kind.startswith("application/json")
    assert "not a lesson" in json.loads(body)["message"]


def test_refusals_leave_one_line_each_in_the_teachers_terminal(server):
    base, log = server
    before = _settled_log(base, log)
    for path in REFUSED:
        _get(base + path)
    for _ in range(600):  # the server writes its line after the answer: wait for the last one
        added = log.read_text()[len(before):]
        if "GET /no-such-address" in added:
            break
        time.sleep(0.1)
    assert "Traceback" not in added and "get_current_user" not in added, added
    # one line per request, the access line (the server's own lines, e.g. the culler's, aside)
    requests = [x for x in added.splitlines() if " GET " in x]
    assert len(requests) == len(REFUSED), added
    assert all(x.startswith("404 GET ") for x in requests), added
    assert len(added.splitlines()) <= len(REFUSED) + 2, added


def test_no_line_of_the_teachers_terminal_holds_a_query_string(server):
    # lesson 08's seat links carry the seat's key: tornado's own access line printed the whole
    # address, so a key reached the terminal the teacher reads and may show to the room
    base, log = server
    secret = "k" + "Q7x" * 7
    path = f"/voila/render/08-play-at-a-table.ipynb?table=t1&seat=A1&key={secret}"
    before = _settled_log(base, log)
    _get(base + path)
    _get(base + f"/no-such-address?key={secret}")
    for _ in range(600):
        added = log.read_text()[len(before):]
        if "GET /no-such-address" in added:
            break
        time.sleep(0.1)
    assert "GET /voila/render/08-play-at-a-table.ipynb" in added, added
    assert secret not in added and "?" not in added, added
