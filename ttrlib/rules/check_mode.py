"""The check mode of the legal lists the families keep between actions (issue 24 item 1).

``claims`` keeps the routes open to each seat and updates them from each claim; ``draws``
keeps the draw actions of the face-up row; ``tickets`` keeps the keep and share choices of an
offer and of a seat's tickets. When ``CHECK`` is true, every kept answer is compared with the
same answer built from scratch, and a difference raises ``AssertionError``. The tests turn it
on (tests/conftest.py); ``TTRLIB_CHECK_LEGAL=1`` turns it on for any run. The families read
``check_mode.CHECK`` at each call, so setting it takes effect at once.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import shown

if TYPE_CHECKING:
    from functools import _lru_cache_wrapper

T = TypeVar("T")

CHECK = os.environ.get("TTRLIB_CHECK_LEGAL", "") not in ("", "0")


def cached(what: str, function: _lru_cache_wrapper[T], *args: Any) -> T:
    """``function(*args)`` from its ``lru_cache``; in the check mode, compared with the same call
    past the cache (``function.__wrapped__``)."""
    out = function(*args)
    if CHECK:
        compare(what, out, function.__wrapped__(*args))
    return out


def compare(what: str, kept: object, rebuilt: object) -> None:
    """``AssertionError`` unless the kept answer equals the rebuilt one."""
    if kept != rebuilt:
        raise AssertionError(f"check mode: the kept {what} differ from the rebuild "
                             f"({shown(kept)} != {shown(rebuilt)})")
