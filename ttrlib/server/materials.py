"""The teacher's materials on the class server, behind the teacher's login (issue 20, item 2).

In the classroom app the learners' Voila serves the lessons and nothing else; the guide, the
solutions and the two handouts are here instead: ``/teacher/guide``, ``/teacher/solutions``,
``/teacher/cheat-sheet``, ``/teacher/glossary``. Why here and not in a second Voila: these pages
are HTML made by ttrlib's own functions (``guide_html``, ``all_solutions_html``, ...), so they need
no kernel (they open at once while thirty lesson kernels are busy), the teacher logs in once (the
same cookie as the progress page), and there is no second server to start, bind and guard.

Each page is its notebook (``notebooks/teachers.ipynb``, ...) read, not run: Markdown cells are
rendered, and a code cell may only show a ttrlib picture, ``display(HTML(name(...)))`` with
``name`` one of ``SHOWN`` and literal arguments (a test holds every teacher notebook to that).
So the guide's prose, edited in the notebook, is the same in JupyterLab and here. Links between
the notebooks become links between these pages; links to lessons go to the classroom app (the
server's ``--lessons`` address, the same the seats' links use).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

from ..lessons import handouts
from ..lessons.answers import all_solutions_html
from .auth import Handler

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
#: address -> (notebook, title)
PAGES = {"guide": ("teachers.ipynb", "For teachers"),
         "solutions": ("solutions.ipynb", "Solutions"),
         "cheat-sheet": ("cheat-sheet.ipynb", "Rules cheat-sheet"),
         "glossary": ("glossary.ipynb", "Glossary")}
#: the functions a teacher notebook's code cell may show
SHOWN = {"guide_html": handouts.guide_html, "lessons_html": handouts.lessons_html,
         "cheat_sheet_html": handouts.cheat_sheet_html, "glossary_html": handouts.glossary_html,
         "all_solutions_html": all_solutions_html}
_LESSON = re.compile(r"[0-9]{2}-[A-Za-z0-9_-]+\.ipynb")


class NotebookError(ValueError):
    """A teacher notebook cell this page cannot show without running it."""


def shown_call(source: str):
    """The (function, arguments) a code cell shows, None for a cell of imports only, else
    NotebookError (the cell would need a kernel)."""
    found = None
    for node in ast.parse(source).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        # the shape is checked by reading it: a missing attribute is a refusal (below)
        call: Any = node.value if isinstance(node, ast.Expr) else None
        try:
            assert found is None and isinstance(call, ast.Call) and getattr(call.func, "id", None) == "display"
            inner: Any = call.args[0]
            assert len(call.args) == 1 and inner.func.id == "HTML" and len(inner.args) == 1
            shown: Any = inner.args[0]
            name = shown.func.id
            assert name in SHOWN and not shown.keywords
            found = (SHOWN[name], [ast.literal_eval(a) for a in shown.args])
        except (AssertionError, AttributeError, IndexError, ValueError):
            raise NotebookError(f"a cell that is not display(HTML(one of {sorted(SHOWN)})): "
                                f"{source[:80]!r}") from None
    return found


def _markdown(text: str) -> str:
    import mistune  # nbconvert's Markdown renderer (Voila brings it)

    return str(mistune.html(text))


def _link(match: re.Match, classroom: str, teacher_url) -> str:
    # the notebooks' own links (Markdown that ttrlib's authors wrote), not an address of a
    # request: a teacher page's address is built by the server's url(), as in the templates
    target = match.group(2)
    stem = target.removesuffix(".ipynb")
    page = next((name for name, (file, _) in PAGES.items() if file == target), None)
    if page:
        return f'{match.group(1)}"{teacher_url("/teacher/" + page)}"'
    if _LESSON.fullmatch(target) and classroom:
        return f'{match.group(1)}"{classroom}/voila/render/{stem}.ipynb"'
    return match.group(0)


def notebook_body(name: str, classroom: str = "", teacher_url=lambda path: path) -> str:
    """The body of the page of the teacher notebook ``name`` (a key of PAGES): its Markdown
    rendered and its pictures drawn; lessons link to ``classroom`` (the classroom app's
    address), or stay as they are without one; the teacher's pages to ``teacher_url(path)``."""
    classroom = classroom.rstrip("/")
    file, _ = PAGES[name]
    cells = json.loads((NOTEBOOKS / file).read_text(encoding="utf-8"))["cells"]
    parts = []
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            parts.append(_markdown(source))
        elif cell["cell_type"] == "code":
            shown = shown_call(source)
            if shown:
                function, args = shown
                parts.append(function(*args))
    return re.sub(r'(href=)"([^"/:#?]+\.ipynb)"', lambda m: _link(m, classroom, teacher_url),
                  "".join(parts))


def notebook_html(name: str, classroom: str = "") -> str:
    """The whole page of ``name`` outside a server (the tests read it): its body in a page."""
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>"
            f"{PAGES[name][1]}</title></head><body>{notebook_body(name, classroom)}</body></html>")


class MaterialPage(Handler):
    def get(self, name: str) -> None:
        self.require_teacher()
        self.page("material.html", title=PAGES[name][1],
                  body=notebook_body(name, self.server.lessons_url, self.url))


def routes(server) -> list:
    server.teacher_links.extend([("/teacher/guide", "The teacher's guide"),
                                 ("/teacher/solutions", "The solutions of every exercise"),
                                 ("/teacher/cheat-sheet", "The rules cheat-sheet (to print)"),
                                 ("/teacher/glossary", "The glossary (to print)")])
    names = "|".join(re.escape(name) for name in PAGES)
    return [(rf"/teacher/({names})", MaterialPage)]
