"""Words every layer may use (the log, the lessons, the pictures, the widgets): the English
helpers (plural, article...) and the game's things in the reader's language (counts, colours,
cities; issue 35)."""

from __future__ import annotations

from typing import Callable, SupportsFloat

from .i18n import (
    N_,
    SOURCE_LANGUAGE,
    babel_locale,
    gettext,
    language,
    ngettext,
    npgettext,
    number,
    pgettext,
)


def noun(n: int, word: str) -> str:
    """The noun for ``n`` things: ``noun(1, "card") == "card"``, ``noun(2, "card") == "cards"``
    (the last word of a phrase takes the plural: ``"more card"`` -> ``"more cards"``).

    >>> noun(1, "card"), noun(0, "card"), noun(3, "more card"), noun(2, "city")
    ('card', 'cards', 'more cards', 'cities')
    """
    if n == 1:
        return word
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + ("es" if word.endswith(("s", "x", "ch", "sh")) else "s")


def plural(n: int, word: str) -> str:
    """``1 ticket``, ``0 tickets``, ``2 tickets``: every count shown to a learner.

    >>> plural(1, "card"), plural(5, "card"), plural(2, "more card")
    ('1 card', '5 cards', '2 more cards')
    """
    return f"{n} {noun(n, word)}"


def counted(n: int, word: str) -> str:
    """A count in words up to ten, as a sentence quotes a rule: ``"five tickets"``, ``"one card"``.

    >>> counted(5, "ticket"), counted(1, "card"), counted(12, "train")
    ('five tickets', 'one card', '12 trains')
    """
    return f"{number_word(n)} {noun(n, word)}"


def article(word: str) -> str:
    """``word`` with its indefinite article, by its first sound: ``"an orange"``, ``"a red"``,
    ``"an 8-car"``; ``"a locomotive"``, ``"a one-way"`` (a few words sound otherwise).

    >>> [article(w) for w in ("orange", "red", "8", "11", "one", "uniform", "hour")]
    ['an orange', 'a red', 'an 8', 'an 11', 'a one', 'a uniform', 'an hour']
    """
    first = word.lower()
    vowel = first[:1] in "aeiou" or first.startswith(("8", "11", "18", "hour", "honest"))
    if first.startswith(("one", "uni", "use", "eu")):
        vowel = False
    return f"{'an' if vowel and first else 'a'} {word}"


_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def number_word(n: int) -> str:
    """``5 -> "five"`` up to ten, the digits beyond: a rule's number quoted in a sentence.

    >>> number_word(5), number_word(12)
    ('five', '12')
    """
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def percent(p: SupportsFloat, decimals: int = 1) -> str:
    """A chance as a percentage with ``decimals`` decimals, the one formatter of the library.

    It reads ``0%`` or ``100%`` only when the chance is exactly 0 or 1: a tiny chance keeps two
    significant digits, a chance just below 1 as many decimals as it takes not to read 100%.

    >>> from fractions import Fraction
    >>> [percent(Fraction(3, 7)), percent(0), percent(1), percent(Fraction(1, 5000))]
    ['42.9%', '0%', '100%', '0.02%']
    >>> percent(Fraction(9997, 10000)), percent(Fraction(1, 3), decimals=2)
    ('99.97%', '33.33%')
    """
    pct = 100 * float(p)
    if pct in (0, 100):
        return _percent_sign(f"{pct:.0f}")
    step = 10.0 ** -decimals
    if pct < step:
        return _percent_sign(f"{pct:.2g}")
    digits = decimals
    while pct < 100 and f"{pct:.{digits}f}".startswith("100") and digits < 15:
        digits += 1
    return _percent_sign(f"{pct:.{digits}f}")


def _percent_sign(digits: str) -> str:
    """``"42.9"`` -> ``"42.9%"`` in English; in another language the number as its reader writes
    it, with the language's percent pattern (``"42,9\u00a0%"`` in Russian, from babel)."""
    if language() == SOURCE_LANGUAGE:
        return digits + "%"
    from babel.numbers import get_decimal_symbol  # babel is slow to import: only here

    loc = babel_locale()
    text = digits.replace(".", get_decimal_symbol(loc))
    sign = str(loc.number_symbols["latn"]["percentSign"])
    # babel's percent pattern for the language ("#,##0 %" in Russian: a no-break space first)
    pattern = loc.percent_formats[None].pattern
    return text + ("\u00a0" + sign if " " in pattern or "\u00a0" in pattern else sign)


# --- counts in the reader's language (issue 35) --------------------------------------------------
# One message per counted thing, with its plural forms in the catalogue (three in Russian: 1 вагон,
# 2 вагона, 5 вагонов). ``plural`` above stays the English helper until every caller has moved to
# ``count`` or to a sentence of its own through ``ngettext``.
_COUNTS: dict[str, Callable[[int], str]] = {
    # Translators: the plastic train pieces a player places on a route (C3)
    "train": lambda n: ngettext("{n} train", "{n} trains", n),
    # Translators: train cards (C1), in a hand or the team's train cardholder
    "card": lambda n: ngettext("{n} card", "{n} cards", n),
    # Translators: destination tickets (T1)
    "ticket": lambda n: ngettext("{n} ticket", "{n} tickets", n),
}
COUNTED = tuple(_COUNTS)


def count(n: int, what: str) -> str:
    """``n`` things of the game in the reader's language (``what`` one of ``COUNTED``), the
    number written as the reader writes it (``i18n.number``).

    >>> from ttrlib.i18n import set_language
    >>> set_language("en")
    >>> count(1, "train"), count(5, "card"), count(1234, "ticket")
    ('1 train', '5 cards', '1,234 tickets')
    >>> set_language(None)
    """
    return _COUNTS[what](n).format(n=number(n))


# --- the names of the game's things in the reader's language (issue 35) -------------------------
# Translators: one face-up or revealed train card by its colour, as a list names it ("red,
# locomotive, blue"); the card is the grammatical subject (Russian: «красная», «локомотив»)
_COLOURS: dict[str, Callable[[], str]] = {
    "purple": lambda: pgettext("card", "purple"),
    "white": lambda: pgettext("card", "white"),
    "blue": lambda: pgettext("card", "blue"),
    "yellow": lambda: pgettext("card", "yellow"),
    "orange": lambda: pgettext("card", "orange"),
    "black": lambda: pgettext("card", "black"),
    "red": lambda: pgettext("card", "red"),
    "green": lambda: pgettext("card", "green"),
    "locomotive": lambda: pgettext("card", "locomotive"),
}
# Translators: a number of train cards of one colour, as a payment lists them ("2 red, 1
# locomotive"): English says "2 red" for "2 red cards"
_COLOUR_COUNTS: dict[str, Callable[[int], str]] = {
    "purple": lambda n: npgettext("cards", "{n} purple", "{n} purple", n),
    "white": lambda n: npgettext("cards", "{n} white", "{n} white", n),
    "blue": lambda n: npgettext("cards", "{n} blue", "{n} blue", n),
    "yellow": lambda n: npgettext("cards", "{n} yellow", "{n} yellow", n),
    "orange": lambda n: npgettext("cards", "{n} orange", "{n} orange", n),
    "black": lambda n: npgettext("cards", "{n} black", "{n} black", n),
    "red": lambda n: npgettext("cards", "{n} red", "{n} red", n),
    "green": lambda n: npgettext("cards", "{n} green", "{n} green", n),
    "locomotive": lambda n: npgettext("cards", "{n} locomotive", "{n} locomotives", n),
}
# The teaching board's cities (ttrlib/boards/teaching.toml; tests/test_narration_languages.py
# checks that every city of the board is here), as an atlas of the reader's language writes them.
CITIES = (N_("Bombay"), N_("Calcutta"), N_("Canton"), N_("Chengdu"), N_("Dacca"), N_("Delhi"),
          N_("Foochow"), N_("Hankow"), N_("Hanoi"), N_("Harbin"), N_("Hong Kong"), N_("Kabul"),
          N_("Karachi"), N_("Kashgar"), N_("Kathmandu"), N_("Kunming"), N_("Lahore"),
          N_("Lanchow"), N_("Lhasa"), N_("Madras"), N_("Mandalay"), N_("Nanning"), N_("Peking"),
          N_("Rangoon"), N_("Rawalpindi"), N_("Shanghai"), N_("Ulan Bator"), N_("Xi'an"))


def colour_word(colour: str) -> str:
    """One card's colour (a ``Color`` or its value) in the reader's language: ``"red"``."""
    value = getattr(colour, "value", colour)
    return _COLOURS[value]() if value in _COLOURS else str(value)


def colour_count(n: int, colour: str) -> str:
    """``n`` cards of ``colour`` as a payment lists them: ``"2 red"``, ``"1 locomotive"``."""
    value = getattr(colour, "value", colour)
    if value not in _COLOUR_COUNTS:
        return f"{n} {value}"
    return _COLOUR_COUNTS[value](n).format(n=number(n))


def city(name: str) -> str:
    """A city of the board in the reader's language (its English name when it has none)."""
    return gettext(name) if name in CITIES else name
