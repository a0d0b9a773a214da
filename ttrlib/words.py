"""Plain-English helpers every layer may use (the log, the lessons, the pictures, the widgets)."""

from __future__ import annotations

from typing import SupportsFloat


def plural(n: int, word: str) -> str:
    """``1 ticket``, ``0 tickets``, ``2 tickets``: every count shown to a learner."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


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
        return f"{pct:.0f}%"
    step = 10.0 ** -decimals
    if pct < step:
        return f"{pct:.2g}%"
    digits = decimals
    while pct < 100 and f"{pct:.{digits}f}".startswith("100") and digits < 15:
        digits += 1
    return f"{pct:.{digits}f}%"
