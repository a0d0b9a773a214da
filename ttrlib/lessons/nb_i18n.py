"""The lessons in other languages (issue 35): the English notebooks stay the source.

Two catalogues, both gettext ``.po`` files a translator edits with any PO editor:

* the library's messages (Python strings wrapped in ``gettext``/``ngettext``...):
  ``pybabel extract`` over ``babel.cfg`` writes ``ttrlib/locale/ttrlib.pot``; each language's
  ``ttrlib/locale/<lang>/LC_MESSAGES/ttrlib.po`` is compiled to the ``ttrlib.mo`` beside it
  (committed: ``ttrlib.i18n`` reads it, an installed package needs no build step);
* the lessons' Markdown: ``extract`` writes ``notebooks/locale/lessons.pot``, one message per
  Markdown paragraph (a block between blank lines; a fenced code block stays whole), with its
  place as a comment (notebook, cell id, paragraph index); ``build`` writes
  ``notebooks/<lang>/NN-*.ipynb`` from ``notebooks/locale/<lang>/lessons.po``: every code cell
  exactly as in English (the same code runs; the kernel reads the language from its folder,
  ``ttrlib.i18n``), each paragraph translated, or left in English behind an ``UNTRANSLATED``
  marker that the tests fail on.

Which lessons a language has is ``notebooks/locale/languages.toml``. Links between lessons in a
built notebook point to the sibling in the same language when it is built too, else to the
English page one folder up (``../teachers.ipynb``).

``python -m ttrlib.lessons.nb_i18n`` (``make locale``) does it all: the two templates, the
catalogues updated from them (``pybabel update``) and compiled, and the notebooks built.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

__all__ = ["ROOT", "NOTEBOOKS", "LESSONS_POT", "LIBRARY_POT", "UNTRANSLATED", "Paragraph",
           "paragraphs", "markdown_messages", "lessons_catalog", "write_lessons_pot",
           "languages", "lessons_of", "lessons_po", "build_notebook", "build", "missing",
           "extract_library", "same_template", "main"]

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
LOCALE = NOTEBOOKS / "locale"
LESSONS_POT = LOCALE / "lessons.pot"
LANGUAGES = LOCALE / "languages.toml"
LIBRARY_LOCALE = ROOT / "ttrlib" / "locale"
LIBRARY_POT = LIBRARY_LOCALE / "ttrlib.pot"
PROJECT = "ttrlib"

# Put before a paragraph left in English in a translated lesson: seen on the page, and found by
# the completeness test (tests/test_lesson_translations.py).
UNTRANSLATED = "**[EN]** *(not yet translated)*"

# pybabel extract's options for the library's template: one place, for `make locale` and the test
# that the committed template is current.
EXTRACT_OPTIONS = ["-F", "babel.cfg", "--project", PROJECT, "--version", "0.1.0",
                   "--copyright-holder", "the ttrlib authors", "-c", "Translators:",
                   "--sort-by-file", "--width", "100"]

_FENCE = re.compile(r"^\s*(```|~~~)")
_LINK = re.compile(r"(\]\()([^)\s]+)(\))")


@dataclass(frozen=True)
class Paragraph:
    """One Markdown paragraph of a lesson: where it is and its English text."""

    notebook: str  # file name, e.g. "00-start-here.ipynb"
    cell_id: str
    index: int  # the paragraph's place in its cell, from 0
    text: str

    @property
    def place(self) -> str:
        return f"{self.notebook} cell {self.cell_id} paragraph {self.index}"


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def paragraphs(markdown: str) -> list[str]:
    """The blocks of a Markdown text between blank lines (a fenced block stays one block).

    >>> paragraphs("# Title\\n\\nOne\\ntwo.\\n\\n```\\na\\n\\nb\\n```\\n")
    ['# Title', 'One\\ntwo.', '```\\na\\n\\nb\\n```']
    """
    blocks: list[list[str]] = []
    current: list[str] = []
    fenced = False
    for line in markdown.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        if not line.strip() and not fenced:
            if current:
                blocks.append(current)
                current = []
            continue
        current.append(line.rstrip())
    if current:
        blocks.append(current)
    return ["\n".join(b) for b in blocks]


def _translatable(block: str) -> bool:
    """Whether a block has words to translate (a rule or a line of symbols has not)."""
    return re.search(r"[A-Za-z]{3,}", block) is not None


def markdown_messages(path: Path) -> list[Paragraph]:
    """Every translatable paragraph of the Markdown cells of the notebook at ``path``."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for number, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        cell_id = str(cell.get("id", number))
        for index, block in enumerate(paragraphs(_source(cell))):
            if _translatable(block):
                found.append(Paragraph(path.name, cell_id, index, block))
    return found


def languages() -> dict[str, dict]:
    """``notebooks/locale/languages.toml``: each language's name and its translated lessons."""
    return tomllib.loads(LANGUAGES.read_text(encoding="utf-8"))


def lessons_of(lang: str) -> list[str]:
    """The lessons (file names) that ``lang`` has."""
    return list(languages()[lang]["lessons"])


def lessons_catalog(names: list[str] | None = None, notebooks: Path = NOTEBOOKS):
    """A Babel ``Catalog`` (the template) of the paragraphs of the lessons ``names`` (default:
    every lesson translated into some language), one message per distinct paragraph, its
    places as extracted comments."""
    from babel.messages.catalog import Catalog

    if names is None:
        names = sorted({n for lang in languages() for n in lessons_of(lang)})
    catalog = Catalog(project="ttrlib lessons", version="0.1.0",
                      copyright_holder="the ttrlib authors", charset="utf-8", fuzzy=False)
    for name in names:
        for para in markdown_messages(notebooks / name):
            known = catalog.get(para.text)
            if known is not None:
                known.auto_comments.append(para.place)
                if (para.notebook, 0) not in known.locations:
                    known.locations.append((para.notebook, 0))
            else:
                catalog.add(para.text, locations=[(para.notebook, 0)],
                            auto_comments=[para.place])
    return catalog


def _write_po(catalog, path: Path) -> None:
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        # locations by file only (the cell and paragraph are in the comment above them)
        write_po(out, catalog, width=100, include_lineno=False, omit_header=False,
                 sort_by_file=False, ignore_obsolete=True)


def write_lessons_pot(path: Path = LESSONS_POT) -> None:
    """Write the lessons' template."""
    _write_po(lessons_catalog(), path)


def lessons_po(lang: str) -> Path:
    return LOCALE / lang / "lessons.po"


def _translations(lang: str, po: Path | None = None) -> dict[str, str]:
    """msgid -> msgstr of the finished (not fuzzy, not empty) entries of ``lang``'s lessons."""
    from babel.messages.pofile import read_po

    po = po or lessons_po(lang)
    if not po.exists():
        return {}
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    return {m.id: m.string for m in catalog
            if isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string
            and not m.fuzzy}


def _relink(markdown: str, built: set[str]) -> str:
    """Links of a lesson moved one folder down: to a built sibling as they are, to anything
    else (an English page, ../docs) one folder up."""

    def fix(m: re.Match) -> str:
        target = m.group(2)
        if re.match(r"^([a-z][a-z0-9+.-]*:|#|/)", target):
            return m.group(0)  # an address, an anchor, or absolute
        name = re.split(r"[?#]", target, maxsplit=1)[0]
        if name in built:
            return m.group(0)
        return f"{m.group(1)}../{target}{m.group(3)}"

    return _LINK.sub(fix, markdown)


def build_notebook(source: Path, translations: dict[str, str], lang: str,
                   built: set[str]) -> dict:
    """The notebook at ``source`` in ``lang``: code cells as they are, each Markdown paragraph
    translated or marked ``UNTRANSLATED``, links re-pointed from the language's folder."""
    nb = json.loads(source.read_text(encoding="utf-8"))
    out = copy.deepcopy(nb)
    for cell in out["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        blocks = []
        for block in paragraphs(_source(cell)):
            if not _translatable(block):
                blocks.append(block)
            elif block in translations:
                blocks.append(translations[block])
            else:
                blocks += [UNTRANSLATED, block]
        text = _relink("\n\n".join(blocks), built)
        lines = text.splitlines(keepends=True)
        cell["source"] = lines
    out["metadata"] = dict(out.get("metadata", {}))
    out["metadata"]["ttrlib"] = {"language": lang, "source": f"../{source.name}"}
    return out


def _dump(nb: dict) -> str:
    """A notebook as Jupyter writes it (one-space indent, no ASCII escapes, a final newline)."""
    return json.dumps(nb, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def build(lang: str, notebooks: Path = NOTEBOOKS, po: Path | None = None,
          out: Path | None = None) -> list[Path]:
    """Write ``lang``'s lessons into ``out`` (default ``notebooks/<lang>/``) from its lessons
    catalogue (default ``notebooks/locale/<lang>/lessons.po``); return the files written."""
    translations = _translations(lang, po)
    names = lessons_of(lang)
    folder = out or notebooks / lang
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names:
        nb = build_notebook(notebooks / name, translations, lang, set(names))
        target = folder / name
        target.write_text(_dump(nb), encoding="utf-8")
        written.append(target)
    return written


def missing(lang: str, po: Path | None = None) -> list[Paragraph]:
    """The paragraphs of ``lang``'s lessons that have no finished translation."""
    translations = _translations(lang, po)
    return [p for name in lessons_of(lang) for p in markdown_messages(NOTEBOOKS / name)
            if p.text not in translations]


def extract_library(pot: Path = LIBRARY_POT) -> None:
    """``pybabel extract`` of the library's messages into ``pot`` (run from the project root)."""
    from babel.messages.frontend import CommandLineInterface

    CommandLineInterface().run(["pybabel", "-q", "extract", *EXTRACT_OPTIONS,
                                "-o", str(pot), "ttrlib"])


def _pybabel(*args: str) -> None:
    from babel.messages.frontend import CommandLineInterface

    CommandLineInterface().run(["pybabel", "-q", *args])


# A template's header lines that change with the day and Babel's version, never its messages.
_VOLATILE = re.compile(r'^("POT-Creation-Date:|"Generated-By:|# Copyright|# FIRST AUTHOR)')


def same_template(a: str, b: str) -> bool:
    """Whether two templates hold the same messages (their dates and Babel versions aside)."""

    def kept(text: str) -> list[str]:
        return [x for x in text.splitlines() if not _VOLATILE.match(x)]

    return kept(a) == kept(b)


def _refresh(pot: Path, write) -> bool:
    """Write the template ``pot`` anew through ``write(path)``, keeping the old file (and its
    date) when the messages are the same; whether it changed."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / pot.name
        write(fresh)
        text = fresh.read_text(encoding="utf-8")
    if pot.exists() and same_template(text, pot.read_text(encoding="utf-8")):
        return False
    pot.write_text(text, encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    """Templates, catalogues and notebooks: ``make locale``. Run from the project root. A
    catalogue is updated only when its template's messages changed (no churn of dates)."""
    import os

    os.chdir(ROOT)
    library_changed = _refresh(LIBRARY_POT, extract_library)
    lessons_changed = _refresh(LESSONS_POT, write_lessons_pot)
    for po in sorted(LIBRARY_LOCALE.glob("*/LC_MESSAGES/ttrlib.po")):
        lang = po.parent.parent.name
        if library_changed:
            _pybabel("update", "-i", str(LIBRARY_POT), "-o", str(po), "-l", lang, "-w", "100",
                     "--ignore-obsolete")
        _pybabel("compile", "-i", str(po), "-o", str(po.with_suffix(".mo")), "-l", lang)
    for lang in languages():
        po = lessons_po(lang)
        if po.exists() and lessons_changed:
            _pybabel("update", "-i", str(LESSONS_POT), "-o", str(po), "-l", lang, "-w", "100",
                     "--ignore-obsolete")
        build(lang)
        for p in missing(lang):
            print(f"{lang}: not translated: {p.place}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
