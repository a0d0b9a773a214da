"""The learners' classroom app reaches the lessons and nothing else (issue 20, item 2): the
decision of ``classroom/lessons_only.py``, without a server (the doors of a running classroom
app are tried in ``test_teacher_room.py``)."""

from __future__ import annotations

import fnmatch
import sys
from pathlib import Path

import pytest

pytest.importorskip("voila")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "classroom"))

import lessons_only  # noqa: E402
from voila.tornado.contentshandler import VoilaContentsHandler  # noqa: E402
from voila.tornado.handler import TornadoVoilaHandler  # noqa: E402
from voila.tornado.treehandler import TornadoVoilaTreeHandler  # noqa: E402

NOT_LESSONS = ["solutions.ipynb", "teachers.ipynb", "cheat-sheet.ipynb", "glossary.ipynb",
               "answers", "answers/01-card-splits.toml", "01-card-splits.toml",
               "01-card-splits.ipynb/../solutions.ipynb", "../notebooks/solutions.ipynb",
               "./solutions.ipynb", "01-card-splits.ipynb.bak", "1-card-splits.ipynb",
               "answers/01-card-splits.ipynb", "01-card splits.ipynb", ".ipynb_checkpoints",
               # the answer keys' translations (issue 35)
               "answers/ru", "answers/ru/01-card-splits.toml", "ru/../answers/ru/01-card-splits.toml"]
LESSONS = ["00-start-here.ipynb", "07-test-a-strategy.ipynb", "99-query.ipynb",
           "ru/00-start-here.ipynb", "ru/07-test-a-strategy.ipynb"]
# The language folders (issue 35) open exactly <lang>/NN-name.ipynb, nothing else in them or
# beside them
NOT_LESSONS_IN_A_LANGUAGE = [
    "ru/../solutions.ipynb", "ru/answers/01-card-splits.ipynb", "ru/answers/01-card-splits.toml",
    "xx/00-start-here.ipynb", "en/00-start-here.ipynb", "RU/00-start-here.ipynb",
    "ru/ru/00-start-here.ipynb", "ru/solutions.ipynb", "ru/teachers.ipynb", "ru/",
    "ru/00-start-here.ipynb/../../solutions.ipynb", "/ru/00-start-here.ipynb",
    "ru/../ru/00-start-here.ipynb", "locale/ru/00-start-here.ipynb", "ru/.ipynb_checkpoints",
    "ru/00-start-here.ipynb.bak", "r/00-start-here.ipynb"]
NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def handler(cls, path, named=False):
    h = object.__new__(cls)  # what prepare() sees: the handler and its decoded path
    h.path_args, h.path_kwargs = ([], {"path": path}) if named else ([path], {})
    return h


@pytest.mark.parametrize("path", NOT_LESSONS)
def test_nothing_but_a_lesson_is_rendered(path):
    assert not lessons_only.allowed(handler(TornadoVoilaHandler, path))


@pytest.mark.parametrize("path", NOT_LESSONS_IN_A_LANGUAGE)
def test_nothing_but_a_lesson_is_rendered_from_a_language_folder(path):
    assert not lessons_only.allowed(handler(TornadoVoilaHandler, path))


@pytest.mark.parametrize("path", LESSONS)
def test_a_lesson_is_rendered(path):
    assert lessons_only.allowed(handler(TornadoVoilaHandler, path))


def test_the_languages_are_read_from_the_lessons_own_list(tmp_path):
    assert lessons_only.LANGUAGES == {"ru": "Русский"}
    (tmp_path / "languages.toml").write_text(
        '[ru]\nname = "Русский"\n[de]\nname = "Deutsch"\n[EN]\n[pt-BR]\n[en]\n["../x"]\n[zzz]\n',
        encoding="utf-8")
    assert lessons_only.read_languages(tmp_path / "languages.toml") == {
        "ru": "Русский", "de": "Deutsch"}
    assert lessons_only.read_languages(tmp_path / "gone.toml") == {"ru": "Русский"}


@pytest.mark.parametrize("cls", [TornadoVoilaTreeHandler, VoilaContentsHandler])
def test_only_the_top_folder_is_listed(cls):
    assert lessons_only.allowed(handler(cls, "", named=True))
    assert lessons_only.allowed(handler(cls, "/", named=True))
    for path in ["answers", "/answers/", "solutions.ipynb", "00-start-here.ipynb", "../"]:
        assert not lessons_only.allowed(handler(cls, path, named=True)), path


@pytest.mark.parametrize("cls", [TornadoVoilaTreeHandler, VoilaContentsHandler])
def test_a_language_folder_is_listed_and_nothing_in_it(cls):
    for path in ["ru", "/ru/", "ru/"]:
        assert lessons_only.allowed(handler(cls, path, named=True)), path
    for path in ["ru/answers", "/ru/answers/", "ru/..", "ru/../answers", "xx", "en", "RU",
                 "ru/00-start-here.ipynb", "locale", "locale/ru", "ru/ru"]:
        assert not lessons_only.allowed(handler(cls, path, named=True)), path


def test_a_language_folders_listing_shows_its_lessons_only():
    folder = NOTEBOOKS / "ru"
    listed = sorted(p.name for p in folder.iterdir()
                    if not any(fnmatch.fnmatch(p.name, g) for g in lessons_only.HIDE))
    assert listed == sorted(p.name for p in folder.glob("[0-9][0-9]-*.ipynb"))
    assert "00-start-here.ipynb" in listed
    # the language folder itself is hidden in the top listing (the list offers the languages)
    assert any(fnmatch.fnmatch("ru", g) for g in lessons_only.HIDE)


def test_the_listing_shows_the_lessons_only():
    folder = Path(__file__).resolve().parents[1] / "notebooks"
    listed = [p.name for p in folder.iterdir()
              if not any(fnmatch.fnmatch(p.name, g) for g in lessons_only.HIDE)]
    lessons = sorted(p.name for p in folder.glob("[0-9][0-9]-*.ipynb"))
    assert sorted(listed) == lessons and len(lessons) >= 8
    for name in NOT_LESSONS:
        assert any(fnmatch.fnmatch(Path(name).name, g) for g in lessons_only.HIDE) or "/" in name


def test_the_classroom_page_keeps_exactly_the_links_to_lessons():
    """The classroom page removes every link to a notebook that is not a lesson (a dead end
    there, see the template's first script), and keeps those to lessons. Its two patterns agree
    with ``lessons_only`` on every link the lessons hold, and on the doors above."""
    import json
    import re

    template = (Path(lessons_only.__file__).parent / "nbconvert" / "templates" / "classroom" /
                "index.html.j2").read_text()
    notebook = re.compile(re.search(r"NOTEBOOK = /(.+?)/,", template).group(1).replace("\\/", "/"))
    lesson = re.compile(re.search(r"LESSON = /(.+?)/;", template).group(1))
    links = set()
    for page in sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb")):
        for cell in json.loads(page.read_text())["cells"]:
            links |= set(re.findall(r"\]\(([^)\s]+\.ipynb[^)\s]*)\)", "".join(cell["source"])))
    assert {"teachers.ipynb", "cheat-sheet.ipynb", "glossary.ipynb"} <= links and len(links) >= 10
    for target in sorted(links) + NOT_LESSONS + LESSONS:
        if not notebook.match(target):
            continue  # not a notebook link of the page's own folder
        kept = bool(lesson.match(target))
        served = lessons_only.allowed(handler(TornadoVoilaHandler, target.split("?")[0]))
        assert kept == served, target
