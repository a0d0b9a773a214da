"""The translated lessons (issue 35): built from the English notebooks and a catalogue of their
Markdown paragraphs, with every code cell unchanged, every paragraph translated (a missing one is
marked on the page, and fails here), and rule ids, seat labels, links and code kept."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from ttrlib.lessons import nb_i18n

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
LANGS = sorted(nb_i18n.languages())
BUILT = [(lang, name) for lang in LANGS for name in nb_i18n.lessons_of(lang)]
# what a translation keeps exactly: rule ids and seat labels (Latin letters), links, code
KEPT = {"rule ids and seats": re.compile(r"\b[A-Z][0-9]+\b"),
        "link targets": re.compile(r"\]\(([^)\s]+)\)"),
        "code": re.compile(r"`[^`]+`")}


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _text(cell: dict) -> str:
    return "".join(cell["source"])


def test_there_is_a_russian_lesson():
    assert ("ru", "00-start-here.ipynb") in BUILT


@pytest.mark.parametrize(("lang", "name"), BUILT)
def test_code_cells_are_byte_equal(lang, name):
    english, translated = _cells(NOTEBOOKS / name), _cells(NOTEBOOKS / lang / name)
    assert [(c["cell_type"], c.get("id")) for c in english] == [
        (c["cell_type"], c.get("id")) for c in translated]
    for en, tr in zip(english, translated):
        if en["cell_type"] == "code":
            assert json.dumps(en, sort_keys=True) == json.dumps(tr, sort_keys=True), en["id"]


@pytest.mark.parametrize(("lang", "name"), BUILT)
def test_the_built_lesson_is_current(lang, name, tmp_path):
    nb_i18n.build(lang, out=tmp_path)
    assert (tmp_path / name).read_bytes() == (NOTEBOOKS / lang / name).read_bytes(), (
        f"notebooks/{lang}/{name} is stale: run `make locale`")


@pytest.mark.parametrize("lang", LANGS)
def test_every_paragraph_of_the_translated_lessons_is_translated(lang):
    places = [p.place for p in nb_i18n.missing(lang)]
    assert not places, f"{lang}: {len(places)} paragraph(s) not translated, first {places[:5]}"
    for name in nb_i18n.lessons_of(lang):
        pages = "\n".join(_text(c) for c in _cells(NOTEBOOKS / lang / name))
        assert nb_i18n.UNTRANSLATED not in pages, name


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_ids_links_and_code(lang):
    with nb_i18n.lessons_po(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    for m in catalog:
        if not m.id or not m.string:
            continue
        for what, pattern in KEPT.items():
            english = sorted(set(pattern.findall(m.id)))
            if what == "link targets":  # a translation may not add or drop a link
                assert sorted(set(pattern.findall(m.string))) == english, (what, m.id)
            else:
                assert set(english) <= set(pattern.findall(m.string)), (what, m.id)
        # rule ids and seats in Latin letters: no Cyrillic capital (А, В, С, Е, К ...) before a digit
        assert not re.search(r"\b[А-ЯЁ][0-9]", m.string), m.string


def _drop(po: Path, out: Path, index: int, fuzzy: bool = False) -> str:
    """``po`` with its ``index``-th message untranslated (or only marked fuzzy); its msgid."""
    with po.open("rb") as f:
        catalog = read_po(f, locale="ru")
    message = [m for m in catalog if m.id][index]
    if fuzzy:
        message.flags.add("fuzzy")
    else:
        message.string = ""
    with out.open("wb") as f:
        write_po(f, catalog)
    return message.id


@pytest.mark.parametrize("fuzzy", [False, True], ids=["empty", "fuzzy"])
def test_a_missing_translation_is_marked_and_fails_the_check(tmp_path, fuzzy):
    po = tmp_path / "lessons.po"
    english = _drop(nb_i18n.lessons_po("ru"), po, 3, fuzzy=fuzzy)
    missing = nb_i18n.missing("ru", po=po)
    assert [p.text for p in missing] == [english] and "paragraph" in missing[0].place
    nb_i18n.build("ru", po=po, out=tmp_path / "ru")
    page = "\n\n".join(_text(c) for c in _cells(tmp_path / "ru" / "00-start-here.ipynb"))
    marked = page.split(nb_i18n.UNTRANSLATED)
    assert len(marked) == 2, "one marker, before the English paragraph"
    assert marked[1].lstrip().startswith(nb_i18n._relink(english, {"00-start-here.ipynb"}))
    # code cells unchanged however complete the translation is
    en = [c for c in _cells(NOTEBOOKS / "00-start-here.ipynb") if c["cell_type"] == "code"]
    tr = [c for c in _cells(tmp_path / "ru" / "00-start-here.ipynb") if c["cell_type"] == "code"]
    assert en == tr


def test_paragraphs_keep_fenced_blocks_and_skip_blank_runs():
    md = "# T\n\n\n\nA\nb.\n\n```py\nx = 1\n\ny = 2\n```\n\n---\n"
    assert nb_i18n.paragraphs(md) == ["# T", "A\nb.", "```py\nx = 1\n\ny = 2\n```", "---"]


def test_links_point_to_a_built_sibling_or_one_folder_up():
    md = ("[a](01-x.ipynb) [b](02-y.ipynb#top) [c](../docs/r.md) [d](https://x.org/a.ipynb) "
          "[e](#here) [f](00-s.ipynb?seed=7)")
    assert nb_i18n._relink(md, {"01-x.ipynb", "00-s.ipynb"}) == (
        "[a](01-x.ipynb) [b](../02-y.ipynb#top) [c](../../docs/r.md) [d](https://x.org/a.ipynb) "
        "[e](#here) [f](00-s.ipynb?seed=7)")


def test_the_russian_folder_holds_only_built_lessons():
    built = {name for lang, name in BUILT if lang == "ru"}
    assert {p.name for p in (NOTEBOOKS / "ru").glob("*.ipynb")} == built


def test_lesson_00s_table_links_an_untranslated_lesson_to_the_english_one(tmp_path, monkeypatch):
    """Lesson 00's table of lessons is written by its code in the kernel's folder: in a
    translated copy a lesson not yet translated is the English one a folder up, not a dead link."""
    from ttrlib.lessons.start_here import lessons_table

    (tmp_path / "ru").mkdir()
    for name in ("01-card-splits.ipynb", "05-tunnel-odds.ipynb"):
        (tmp_path / name).write_text("{}")
    (tmp_path / "ru" / "01-card-splits.ipynb").write_text("{}")
    monkeypatch.chdir(tmp_path / "ru")
    table = lessons_table()
    assert "(01-card-splits.ipynb)" in table and "(../05-tunnel-odds.ipynb)" in table
    monkeypatch.chdir(tmp_path)  # the English folder: every lesson beside it, links unchanged
    table = lessons_table()
    assert "(01-card-splits.ipynb)" in table and "(05-tunnel-odds.ipynb)" in table
