"""The teacher's materials on the class server (issue 20, item 2): the guide, the solutions and
the handouts, made from their notebooks without running them."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

pytest.importorskip("tornado")

from ttrlib.lessons import catalog  # noqa: E402
from ttrlib.lessons.answers import load_key  # noqa: E402
from ttrlib.server import materials  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", sorted(materials.PAGES))
def test_every_code_cell_of_a_teacher_notebook_can_be_shown_without_a_kernel(name):
    file, _ = materials.PAGES[name]
    cells = json.loads((ROOT / "notebooks" / file).read_text(encoding="utf-8"))["cells"]
    shown = [materials.shown_call("".join(c["source"])) for c in cells if c["cell_type"] == "code"]
    assert any(shown), f"{file} shows nothing"


@pytest.mark.parametrize("source", [
    "import os\nos.system('id')", "display(HTML(open('/etc/passwd').read()))",
    "display(HTML(guide_html(__import__('os').getcwd())))", "x = 1",
    "display(HTML(guide_html('00')))\ndisplay(HTML(guide_html('01')))",
    "display(HTML(guide_html(lesson_id='00')))",
])
def test_any_other_code_is_refused(source):
    with pytest.raises(materials.NotebookError):
        materials.shown_call(source)


def test_the_guide_page_holds_every_lessons_misconceptions_and_links_to_the_teachers_pages():
    page = materials.notebook_html("guide", "http://localhost:8866")
    for lesson in catalog.lessons():
        for m in catalog.guide(lesson.id).misconceptions:
            assert html.escape(m.belief) in page or m.belief in page, m.belief
    assert 'href="/teacher/solutions"' in page and 'href="/teacher/cheat-sheet"' in page
    assert 'href="http://localhost:8866/voila/render/01-card-splits.ipynb"' in page
    assert 'href="solutions.ipynb"' not in page


def test_the_solutions_page_holds_every_answer_and_completed_step():
    page = materials.notebook_html("solutions")
    for lesson in (lesson for lesson in catalog.lessons() if lesson.exercises):
        for ex in load_key(lesson.id).values():
            assert html.escape(ex.answer_text) in page, (lesson.id, ex.id)
            assert html.escape(ex.worked_solution) in page, (lesson.id, ex.id)


def test_the_guide_ends_with_the_teachers_room():
    cells = json.loads((ROOT / "notebooks" / "teachers.ipynb").read_text())["cells"]
    last = "".join(cells[-1]["source"])
    assert cells[-1]["cell_type"] == "markdown" and last.startswith("## The class's progress")
    for words in ("login link", "/teacher?token=", "progress page", "3 seconds",
                  "3 learners or more", "make classroom-forget", "?teacher=1", "CSV"):
        assert words in last, words
