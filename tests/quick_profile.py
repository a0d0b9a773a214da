"""How many examples a hypothesis test draws: all of them in `make test`, a tenth in the quick
loop (issue 31: `make test-quick` sets TTR_QUICK=1). The quick loop is for the minutes while
you work; the full count still runs in `make test` and in CI, so no property loses its
examples there, only the loop its waiting."""

from __future__ import annotations

import os

QUICK = os.environ.get("TTR_QUICK") == "1"
# A tenth, and never fewer than a handful: enough to reach each strategy's branches once.
QUICK_SHARE = 10
QUICK_FLOOR = 5


def examples(full: int, quick: bool | None = None) -> int:
    """``full`` in the whole suite; in the quick loop a tenth of it, at least ``QUICK_FLOOR``."""
    if not (QUICK if quick is None else quick):
        return full
    return min(full, max(QUICK_FLOOR, full // QUICK_SHARE))
