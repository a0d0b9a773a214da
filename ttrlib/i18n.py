"""The language a reader gets: gettext catalogues for the library's strings, and numbers in the
reader's own form (issue 35).

Layer 0: this module imports nothing of ttrlib, so every layer may use it.

The English literals in the code are the message ids; a translated catalogue lives in
``ttrlib/locale/<lang>/LC_MESSAGES/ttrlib.po`` (the translator's file, made and updated with
``pybabel``, see docs/ru/README.md) beside its compiled ``ttrlib.mo`` (what this module reads).
Both are committed: a test checks that the ``.mo`` is the ``.po`` compiled, so an installed
package needs no build step. A message missing from a catalogue, or a language without one,
reads in English.

Which language:

1. ``set_language("ru")`` (a test, a JupyterLab session) wins;
2. else the environment variable ``TTR_LANG``;
3. else a kernel whose working folder is ``notebooks/<lang>`` (Voila and JupyterLab start a
   lesson's kernel in the lesson's folder: ``notebooks/ru/01-card-splits.ipynb`` runs in
   ``notebooks/ru``) reads ``<lang>``, when the library has a catalogue for it; so does a copy
   of the lessons under another name (``make lab``'s ``my-lessons/ru``), known by the list of
   languages it carries (``locale/languages.toml`` beside the language's folder);
4. else English.

Counts always go through ``ngettext``/``npgettext`` with a named placeholder, never a plural
made by hand: Russian has three forms (1 вагон, 2 вагона, 5 вагонов, 21 вагон), chosen by the
catalogue's ``Plural-Forms`` header. Numbers go through ``number()`` (``babel.numbers``):
``0,429`` and ``12 345,5`` in Russian.

>>> set_language("en")
>>> ngettext("{n} train", "{n} trains", 2).format(n=2)
'2 trains'
>>> number(12345.5)
'12,345.5'
>>> set_language(None)
"""

from __future__ import annotations

import gettext as _gettext
import os
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel.core import Locale

__all__ = ["DOMAIN", "LOCALE_DIR", "SOURCE_LANGUAGE", "available_languages", "set_language",
           "language", "translation", "gettext", "_", "ngettext", "pgettext", "npgettext",
           "number", "babel_locale", "N_"]

DOMAIN = "ttrlib"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE_LANGUAGE = "en"  # the language of the message ids, and the fallback

_chosen: str | None = None


def available_languages() -> list[str]:
    """The source language and every language with a compiled catalogue, sorted after it."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return [SOURCE_LANGUAGE] + [x for x in found if x != SOURCE_LANGUAGE]


def _normal(lang: str) -> str:
    """``"ru_RU.UTF-8"`` and ``"ru-RU"`` -> ``"ru"``: catalogues are per language, not region."""
    return lang.strip().split(".")[0].replace("-", "_").split("_")[0].lower()


def set_language(lang: str | None) -> None:
    """Choose the language of everything the library says from now on in this process;
    ``None`` goes back to the default (``TTR_LANG``, the notebook's folder, English)."""
    global _chosen
    _chosen = _normal(lang) if lang else None


def _folder_language(cwd: Path) -> str | None:
    """``notebooks/ru`` (or ``my-lessons/ru``, a copy of ``notebooks/`` with its
    ``locale/languages.toml``) -> ``"ru"`` when a catalogue for ``ru`` exists; anything else
    -> None."""
    lessons = cwd.parent.name == "notebooks" or (cwd.parent / "locale" / "languages.toml").is_file()
    if lessons and cwd.name in available_languages()[1:]:
        return cwd.name
    return None


def language() -> str:
    """The language in use: ``set_language``'s, else ``TTR_LANG``, else the kernel's folder
    (``notebooks/ru``), else ``"en"``."""
    if _chosen:
        return _chosen
    env = os.environ.get("TTR_LANG", "").strip()
    if env:
        return _normal(env)
    try:
        folder = _folder_language(Path.cwd())
    except OSError:  # the working folder was removed under us
        folder = None
    return folder or SOURCE_LANGUAGE


@lru_cache(maxsize=None)
def translation(lang: str) -> _gettext.NullTranslations:
    """The catalogue of ``lang`` (English, the message ids themselves, when there is none)."""
    if lang == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang],
                                fallback=True)


def gettext(message: str) -> str:
    """``message`` in the reader's language."""
    return translation(language()).gettext(message)


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` things, by the language's plural rule (three forms in Russian). The
    count stays a named placeholder of the message: ``ngettext("{n} card", "{n} cards",
    n).format(n=number(n))``."""
    return translation(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` where one English word has two meanings, told apart by ``context``."""
    return translation(language()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """``ngettext`` with a context."""
    return translation(language()).npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue without translating it now (a table of messages
    read later through ``gettext``)."""
    return message


def babel_locale() -> "Locale":
    """babel's ``Locale`` of the language in use (English for a language babel does not know)."""
    # babel is slow to import: only when a number asks
    from babel.core import Locale, UnknownLocaleError

    try:
        return Locale.parse(language())
    except (UnknownLocaleError, ValueError):
        return Locale.parse(SOURCE_LANGUAGE)


def number(value: int | float | Decimal, decimals: int | None = None) -> str:
    """A number as the reader writes it (``babel.numbers``): ``12,345.5`` in English,
    ``12 345,5`` in Russian (the group separator is a no-break space). ``decimals`` fixes the
    number of decimals shown.

    >>> number(0.429, decimals=3), number(5)
    ('0.429', '5')
    """
    if language() == SOURCE_LANGUAGE and isinstance(value, (int, float)):
        # English without babel (0.85 s to import): its pattern "#,##0.###" written by hand
        if decimals is not None:
            return f"{value:,.{decimals}f}"
        if isinstance(value, int):
            return f"{value:,}"
        return f"{value:,.3f}".rstrip("0").rstrip(".")
    from babel.numbers import format_decimal

    locale = babel_locale()
    fmt = None if decimals is None else "#,##0." + "0" * decimals if decimals else "#,##0"
    return format_decimal(value, format=fmt, locale=locale)
