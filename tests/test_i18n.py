"""The library's messages in other languages (issue 35): the language chosen, Russian plurals,
numbers in the reader's form, and the catalogues kept current and complete."""

from __future__ import annotations

import gettext
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from ttrlib import i18n
from ttrlib.lessons import nb_i18n
from ttrlib.words import COUNTED, count

ROOT = Path(__file__).resolve().parents[1]
LIBRARY_POS = sorted((ROOT / "ttrlib" / "locale").glob("*/LC_MESSAGES/ttrlib.po"))
LESSON_POS = sorted((ROOT / "notebooks" / "locale").glob("*/lessons.po"))
ALL_POS = LIBRARY_POS + LESSON_POS
# A template's header changes with the day and Babel's version, never its messages (written
# here, not read from the code under test).
VOLATILE = re.compile(r'^("POT-Creation-Date:|"Generated-By:|# Copyright|# FIRST AUTHOR)')

# Written by hand from a Russian grammar (1, 21, 101: one form; 2-4, 22: another; 0, 5-20, 25,
# 111: the third), not computed by the code under test.
RUSSIAN_TRAINS = {0: "0 вагонов", 1: "1 вагон", 2: "2 вагона", 4: "4 вагона", 5: "5 вагонов",
                  11: "11 вагонов", 12: "12 вагонов", 21: "21 вагон", 22: "22 вагона",
                  25: "25 вагонов", 101: "101 вагон", 111: "111 вагонов"}


@pytest.fixture(autouse=True)
def _default_language(monkeypatch):
    """Each test starts with no language chosen and no TTR_LANG, and leaves none."""
    monkeypatch.delenv("TTR_LANG", raising=False)
    i18n.set_language(None)
    yield
    i18n.set_language(None)


def _po(path: Path, lang: str | None = None):
    with path.open("rb") as f:
        return read_po(f, locale=lang or path.parent.parent.name)


# --- which language ------------------------------------------------------------------------------
def test_the_default_is_english(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert i18n.language() == "en"
    assert i18n.ngettext("{n} train", "{n} trains", 1) == "{n} train"


def test_ttr_lang_and_set_language_choose(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TTR_LANG", "ru_RU.UTF-8")
    assert i18n.language() == "ru"
    i18n.set_language("en")
    assert i18n.language() == "en"  # set_language wins over the environment
    i18n.set_language(None)
    assert i18n.language() == "ru"


def test_a_kernel_in_notebooks_ru_reads_russian(monkeypatch, tmp_path):
    for name in ("ru", "xx"):
        (tmp_path / "notebooks" / name).mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "notebooks" / "ru")
    assert i18n.language() == "ru"
    assert count(5, "train") == "5 вагонов"
    monkeypatch.chdir(tmp_path / "notebooks" / "xx")  # no catalogue for it: English
    assert i18n.language() == "en"
    monkeypatch.chdir(tmp_path / "notebooks")
    assert i18n.language() == "en"
    monkeypatch.setenv("TTR_LANG", "en")  # the environment wins over the folder
    monkeypatch.chdir(tmp_path / "notebooks" / "ru")
    assert i18n.language() == "en"


def test_a_kernel_in_a_copy_of_the_lessons_reads_its_folders_language(monkeypatch, tmp_path):
    """``make lab LESSONS_LANG=ru`` opens ``my-lessons/ru/00-start-here.ipynb``: a copy of
    ``notebooks/``, known by the list of languages it carries; another folder named ``ru``
    is not a language."""
    monkeypatch.delenv("TTR_LANG", raising=False)
    (tmp_path / "my-lessons" / "ru").mkdir(parents=True)
    (tmp_path / "elsewhere" / "ru").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "my-lessons" / "ru")
    assert i18n.language() == "en"  # not yet a copy of the lessons
    (tmp_path / "my-lessons" / "locale").mkdir()
    (tmp_path / "my-lessons" / "locale" / "languages.toml").write_text('[ru]\nname = "Русский"\n')
    assert i18n.language() == "ru"
    monkeypatch.chdir(tmp_path / "elsewhere" / "ru")
    assert i18n.language() == "en"


def test_the_languages_with_a_catalogue():
    assert i18n.available_languages() == ["en", "ru"]


# --- plurals, contexts, numbers ------------------------------------------------------------------
def test_russian_plurals_of_trains():
    i18n.set_language("ru")
    assert {n: count(n, "train") for n in RUSSIAN_TRAINS} == RUSSIAN_TRAINS


def test_russian_catalogue_has_three_plural_forms():
    for po in LIBRARY_POS + LESSON_POS:
        if "/ru/" in po.as_posix():
            assert _po(po).num_plurals == 3, po


def test_english_counts_and_fallback():
    i18n.set_language("en")
    assert [count(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    i18n.set_language("xx")  # no catalogue: the English message ids
    assert count(1, "ticket") == "1 ticket" and count(3, "ticket") == "3 tickets"
    assert i18n.gettext("no such message") == "no such message"


def test_every_counted_thing_reads_in_russian():
    i18n.set_language("ru")
    assert count(1, "card") == "1 карта" and count(3, "card") == "3 карты"
    assert count(5, "ticket") == "5 карт маршрутов"
    assert set(COUNTED) == {"train", "card", "ticket"}


def test_pgettext_and_npgettext_fall_back_to_the_english():
    i18n.set_language("ru")
    assert i18n.pgettext("colour", "orange") == "orange"
    assert i18n.npgettext("pieces", "{n} train", "{n} trains", 2) == "{n} trains"


def test_numbers_in_the_readers_form():
    i18n.set_language("ru")
    assert i18n.number(0.429) == "0,429"
    assert i18n.number(12345.5) == "12\u00a0345,5"  # a no-break space groups the thousands
    assert i18n.number(0.5, decimals=2) == "0,50"
    i18n.set_language("en")
    assert i18n.number(12345.5) == "12,345.5" and i18n.number(3) == "3"
    i18n.set_language("xx")
    assert i18n.number(0.25) == "0.25"


# --- the catalogues ------------------------------------------------------------------------------
def _without_volatile(text: str) -> str:
    return "\n".join(x for x in text.splitlines() if not VOLATILE.match(x))


def test_pybabel_extract_equals_the_committed_template(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)  # the template's locations are relative to the project's root
    fresh = tmp_path / "ttrlib.pot"
    nb_i18n.extract_library(fresh)
    assert _without_volatile(fresh.read_text()) == _without_volatile(
        nb_i18n.LIBRARY_POT.read_text()), "the template is stale: run `make locale`"


def test_same_template_ignores_the_date_only():
    a = '"POT-Creation-Date: 2026-01-01 10:00+0000\\n"\nmsgid "x"\nmsgstr ""'
    assert nb_i18n.same_template(a, a.replace("2026-01-01", "2027-02-02"))
    assert not nb_i18n.same_template(a, a.replace('"x"', '"y"'))


def test_the_lessons_template_is_current(tmp_path):
    fresh = tmp_path / "lessons.pot"
    nb_i18n.write_lessons_pot(fresh)
    assert _without_volatile(fresh.read_text()) == _without_volatile(
        nb_i18n.LESSONS_POT.read_text()), "the lessons' template is stale: run `make locale`"


@pytest.mark.parametrize("po", ALL_POS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_each_catalogue_holds_its_template(po):
    """Every message of the template is in the catalogue (`pybabel update` ran)."""
    pot = nb_i18n.LIBRARY_POT if po.name == "ttrlib.po" else nb_i18n.LESSONS_POT
    with pot.open("rb") as f:
        template = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    have = {m.id if isinstance(m.id, str) else m.id[0] for m in _po(po) if m.id}
    assert template <= have, f"{po.name} lacks {sorted(template - have)[:3]}: run `make locale`"


def _strings(message) -> list[str]:
    s = message.string
    return list(s) if isinstance(s, (tuple, list)) else [s]


@pytest.mark.parametrize("po", LIBRARY_POS, ids=lambda p: p.parent.parent.name)
def test_library_catalogue_is_complete_and_not_fuzzy(po):
    catalog = _po(po)
    assert not catalog.fuzzy, f"{po}: its header is marked fuzzy"
    for m in catalog:
        if not m.id:
            continue
        assert not m.fuzzy, f"{po}: fuzzy entry {m.id!r}"
        assert all(_strings(m)), f"{po}: untranslated {m.id!r}"
        if isinstance(m.id, tuple):
            assert len(_strings(m)) == catalog.num_plurals, m.id


PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


@pytest.mark.parametrize("po", LIBRARY_POS, ids=lambda p: p.parent.parent.name)
def test_library_placeholders_equal_the_msgids(po):
    for m in _po(po):
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        want = {frozenset(PLACEHOLDER.findall(x)) for x in ids}
        for s in _strings(m):
            assert frozenset(PLACEHOLDER.findall(s)) in want, (m.id, s)


def test_a_wrong_placeholder_is_seen():
    assert PLACEHOLDER.findall("{n} вагонов") == ["n"] != PLACEHOLDER.findall("{m} вагонов")


@pytest.mark.parametrize("po", LIBRARY_POS, ids=lambda p: p.parent.parent.name)
def test_the_committed_mo_is_the_po_compiled(po):
    compiled = io.BytesIO()
    write_mo(compiled, _po(po))
    compiled.seek(0)
    with po.with_suffix(".mo").open("rb") as f:
        committed = gettext.GNUTranslations(f)
    assert gettext.GNUTranslations(compiled)._catalog == committed._catalog, (
        f"{po.with_suffix('.mo')} is stale: run `make locale`")


@pytest.mark.parametrize("po", ALL_POS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_msgfmt_check_format(po):
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("msgfmt not installed (Debian package gettext): --check-format not run")
    done = subprocess.run([msgfmt, "--check-format", "-o", "/dev/null", str(po)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
