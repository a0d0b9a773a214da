"""The teacher's room in Chromium (issue 20): the classroom app and the class server together, as
``make classroom`` runs them.

A learner opens lesson 01 (with ``?teacher=1``, which must change nothing), answers exercises
(one with Enter), asks for an answer; the teacher's progress page, opened before with the login
link, shows the learner's checks within its refresh time, without a reload; its screenshot is
``test-artifacts/teacher-progress.png``. A curious learner tries every door to the solutions, the
guide, the handouts, the answer keys and the teacher's pages: each answers 403 or 404. The
records hold no name, no address and no typed text.

Besides the learner in Chromium, four other learners' kernels report through the class server's
report endpoint (as ``ttrlib.lessons.recording`` does), so the page has a common wrong answer to
name. Skips without Chromium unless TTR_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import http.client
import re
import shutil
import sqlite3
from urllib.parse import urlsplit

import lab_harness as h
import pytest
from server_harness import start_server

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("classroom")]

LESSON = "01-card-splits.ipynb"
TEACHERS = ["solutions.ipynb", "teachers.ipynb", "cheat-sheet.ipynb", "glossary.ipynb"]
LOAD_MS = 300_000
VIEWPORT = {"width": 1280, "height": 900}


def _status(base: str, path: str) -> int:
    """The status of GET ``path`` sent as is (no client-side clean-up of ``..`` or ``%2e``)."""
    where = urlsplit(base)
    conn = http.client.HTTPConnection(where.hostname, where.port, timeout=120)
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


DOORS = [  # what a curious learner types after the classroom app's address
    "/voila/render/solutions.ipynb", "/voila/render/teachers.ipynb",
    "/voila/render/cheat-sheet.ipynb", "/voila/render/glossary.ipynb",
    "/voila/render/solutions.ipynb?teacher=1", "/voila/render/./solutions.ipynb",
    "/voila/render/01-card-splits.ipynb/../solutions.ipynb",
    "/voila/render/%2e%2e/notebooks/solutions.ipynb", "/voila/render/..%2fsolutions.ipynb",
    "/voila/render/01-card-splits.ipynb%2F..%2Fsolutions.ipynb", "/voila/render/%73olutions.ipynb",
    "/voila/render/answers/01-card-splits.toml", "/voila/render/answers%2F01-card-splits.toml",
    "/voila/tree/answers", "/voila/tree/answers/", "/voila/tree/solutions.ipynb", "/tree",
    "/voila/files/answers/01-card-splits.toml", "/voila/files/answers%2F01-card-splits.toml",
    "/voila/files/../answers/01-card-splits.toml", "/voila/files/solutions.ipynb",
    "/voila/files/01-card-splits.ipynb", "/voila/files/teachers.ipynb",
    "/voila/api/contents/answers", "/voila/api/contents/answers/01-card-splits.toml",
    "/voila/api/contents/solutions.ipynb", "/voila/api/contents/01-card-splits.ipynb",
    "/voila/static/../../solutions.ipynb", "/notebooks/solutions.ipynb",
    "/files/solutions.ipynb", "/api/contents/solutions.ipynb", "/lab", "/voila/teacher",
]
TEACHER_PAGES = ["/teacher", "/teacher/progress", "/teacher/progress/board",
                 "/teacher/progress.js", "/teacher/progress.csv", "/teacher/summary.csv",
                 "/teacher/guide", "/teacher/solutions", "/teacher/cheat-sheet",
                 "/teacher/glossary", "/api/progress"]


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    h.need_browser()
    tmp = tmp_path_factory.mktemp("room")
    folder = tmp / "lessons"
    folder.mkdir()
    for name in [LESSON, *TEACHERS]:
        shutil.copy(h.ROOT / "notebooks" / name, folder / name)
    shutil.copytree(h.ROOT / "notebooks" / "answers", folder / "answers")
    server = start_server(tmp / "class-data")
    env = {"TTR_CLASS_SERVER": server.url,
           "TTR_CLASS_SECRET_FILE": str(server.data / "class-secret")}
    try:
        with h.classroom(tmp, folder=folder, env=env) as (base, proc):
            h.wait_for_log(tmp / "classroom.log", f"Kernel pool of {LESSON} is filled", proc)
            with h.browser() as browser:
                yield base, server, browser
    finally:
        server.stop()


def _others_report(server) -> set[str]:
    """Four other learners' kernels: three give 3 (the misconception the key names), then 5.
    Returns their learner ids (the server's)."""
    ids = set()
    for n in range(4):
        # as ttrlib.lessons.recording does: the server's learner for the browser's id first
        status, issued, _ = server.request("POST", "/api/progress/learner",
                                           {"browser": f"{n + 1:032x}"},
                                           token=server.class_secret)
        assert status == 200
        learner = issued["learner"]
        ids.add(learner.split(".")[0])
        steps = [("wrong", "3"), ("right", "5")] if n < 3 else [("right", "5")]
        for t, (verdict, answer) in enumerate(steps, 1):
            body = {"learner": learner, "lesson": "01", "exercise": "reset-count", "try": t,
                    "verdict": verdict, "answer": answer, "revealed": False}
            status, _, _ = server.request("POST", "/api/progress/report", body,
                                          token=server.class_secret)
            assert status == 204
    return ids


def _exercise(page, number: int):
    return page.locator(".ttr-exercise").filter(
        has=page.locator(".ttr-q", has_text=f"Exercise {number}.")).first


def test_a_learners_answers_reach_the_teachers_page_and_nothing_of_the_teacher_reaches_them(
        room):
    base, server, browser = room
    others = _others_report(server)

    teacher = browser.new_context(viewport={"width": 1280, "height": 1000})
    board = teacher.new_page()
    board.goto(f"{server.url}/teacher?token={server.token}")
    assert board.url == f"{server.url}/teacher"  # the token left the address bar
    board.goto(f"{server.url}/teacher/progress")
    board.get_by_text("Exercise 3").first.wait_for(timeout=30_000)

    learner = browser.new_context(viewport=VIEWPORT)
    page = learner.new_page()
    page.goto(f"{base}/voila/render/{LESSON}?teacher=1", timeout=LOAD_MS)
    page.wait_for_selector(".ttr-exercise", timeout=LOAD_MS)
    page.wait_for_load_state("networkidle", timeout=LOAD_MS)
    text = page.evaluate("() => document.body.innerText")
    assert "Teacher mode" not in text and "The answer:" not in text  # ?teacher=1: nothing

    reset = _exercise(page, 3)  # reset-count: a number
    field = reset.locator("input[type=text]").first
    field.fill("3")
    reset.locator("button", has_text="Check").click()
    page.wait_for_function("(el) => el.innerText.includes('try 1')",
                           arg=reset.element_handle(), timeout=60_000)
    field.fill("5")
    field.press("Enter")  # Enter checks
    page.wait_for_function("(el) => el.innerText.includes('Right! (try 2)')",
                           arg=reset.element_handle(), timeout=60_000)
    place = _exercise(page, 1)  # second-card-place: asks for the answer
    place.locator("button", has_text="Show the answer").click()
    page.wait_for_function("(el) => el.innerText.includes('The answer:')",
                           arg=place.element_handle(), timeout=60_000)

    # the teacher's page shows it without a reload: 5 learners on exercise 3, 4 of them said 3
    board.wait_for_function(
        """() => [...document.querySelectorAll('#board tr')].some(
               r => r.innerText.includes('reset-count') && r.querySelector('.n').innerText == '5'
                    && r.innerText.includes('In a reset only the face-up locomotives'))""",
        timeout=30_000)
    board.wait_for_function(
        "() => [...document.querySelectorAll('#board tr')].some("
        "r => r.innerText.includes('second-card-place'))", timeout=30_000)
    h.ARTIFACTS.mkdir(exist_ok=True)
    board.screenshot(path=str(h.ARTIFACTS / "teacher-progress.png"), full_page=True)
    status, body, _ = server.request("GET", "/api/progress", token=server.token)
    row = next(e for e in body["exercises"] if e["exercise"] == "reset-count")
    assert (row["learners"], row["right_first_try"], row["right"]) == (5, 1, 5)
    assert row["wrong"] == [{"answer": "3", "learners": 4, "misconception":
                             "In a reset only the face-up locomotives are discarded."}]
    place_row = next(e for e in body["exercises"] if e["exercise"] == "second-card-place")
    assert (place_row["learners"], place_row["revealed"]) == (1, 1)

    # the teacher's materials open in the teacher's browser
    board.goto(f"{server.url}/teacher/guide")
    board.get_by_text("The class's progress, live").first.wait_for(timeout=30_000)
    board.screenshot(path=str(h.ARTIFACTS / "teacher-guide.png"))

    # the learner's browser: the teacher's pages refuse it, the lessons' folder lists lessons only
    for path in TEACHER_PAGES:
        response = page.request.get(f"{server.url}{path}")
        assert response.status in (401, 403), path
    home = learner.new_page()
    home.goto(f"{base}/", timeout=LOAD_MS)
    # the list is drawn on the server (classroom/nbconvert/templates/classroom/tree.html); a
    # loaded machine still takes its time, so wait while the page or the server moves
    h.wait_until(h.watch(home), "(t) => document.body.innerText.includes(t)",
                 "the lessons' folder lists the lesson", arg="01 · Card splits")
    names = home.evaluate("() => document.body.innerText")
    assert not any(name in names for name in TEACHERS + ["answers"]), names
    learner.close()
    teacher.close()

    with sqlite3.connect(server.data / "class.sqlite3") as conn:
        records = conn.execute("SELECT learner, lesson, exercise, try, verdict, answer, revealed "
                               "FROM checks").fetchall()
    mine = [r for r in records if r[0] not in others]
    assert [(r[2], r[4], r[5]) for r in mine] == [("reset-count", "wrong", "3"),
                                                   ("reset-count", "right", "5"),
                                                   ("second-card-place", "shown", None)]
    for learner_id, _lesson, _ex, _try, _verdict, answer, _shown in records:
        assert re.fullmatch(r"[0-9a-f]{32}", learner_id)
        assert answer is None or re.fullmatch(r"\d+", answer) or answer in ("3", "5")


@pytest.mark.parametrize("path", DOORS)
def test_every_door_to_the_teachers_side_is_shut(room, path):
    base, _server, _browser = room
    assert _status(base, path) in (403, 404), path


def test_the_lessons_open(room):
    base, _server, _browser = room
    assert _status(base, "/") == 200 and _status(base, "/voila/tree/") == 200
    assert _status(base, "/voila/api/contents/") == 200
