"""Plain-English helpers every layer may use (the log, the lessons, the widgets)."""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    """``1 ticket``, ``0 tickets``, ``2 tickets``: every count shown to a learner."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
