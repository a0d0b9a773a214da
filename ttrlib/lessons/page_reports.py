"""What a classroom page tells its kernel about itself, printed where the teacher sees it.

When a lesson widget is lost on its way to a classroom page ("Error displaying widget: model not
found"), the page asks its kernel again and then sends a short report on the comm target
``ttrlib.page_report`` (``classroom/nbconvert/templates/classroom/index.html.j2``): which models,
and what asking again gave (the target is registered by the first lesson screen a classroom
kernel makes, ``ttrlib.widgets.base.Screen``). The kernel adds whether it still holds each model
and prints one line on its standard error, which is the terminal running ``make classroom`` (the
kernels inherit it). Issue 21: a loss was seen once and its cause is not known; this line says,
the next time, whether the kernel lost the widget or the page did.

Printed only, never stored, at most a few hundred characters and ``MAX_REPORTS`` lines a kernel
(a learner could send reports from the browser's console); it names no learner and holds no
answer (a model id is a random number).
"""

from __future__ import annotations

import re
import sys

from ..words import plural
from .learner import in_classroom

TARGET = "ttrlib.page_report"
MAX_IDS = 20
MAX_REPORTS = 5  # lines a kernel prints: a page loses its widgets once, a flood is dropped
_ID = re.compile(r"[0-9a-f]{32}")
_WORD = re.compile(r"[^\w .:;/-]")
_listening = False
_printed = 0


def listen() -> bool:
    """Register the report's comm target in this kernel (classroom kernels only, once: every
    lesson screen calls this as it is made); whether it is registered."""
    global _listening
    if _listening or not in_classroom():
        return _listening
    try:
        from IPython import get_ipython

        kernel = getattr(get_ipython(), "kernel", None)
        if kernel is None:  # not in a kernel: nothing to listen to
            return False
        kernel.comm_manager.register_target(TARGET, _received)
    except Exception:  # noqa: BLE001 - a kernel without comms: the page's report is dropped
        return False
    _listening = True
    return True


def _received(comm, msg) -> None:
    """A page's report (the comm's opening message): print it with what the kernel holds."""
    global _printed
    if _printed < MAX_REPORTS:
        _printed += 1
        data = (msg.get("content") or {}).get("data") or {}
        print(report_line(data), file=sys.__stderr__, flush=True)
    comm.close()


def report_line(data: dict) -> str:
    """The line printed for a page's report ``data`` (``lost``: model ids, ``outcome``: what
    asking again gave, ``page``: the lesson's file name); anything else in it is ignored."""
    from ipywidgets.widgets.widget import _instances  # every model the kernel holds

    lost = data.get("lost")
    ids = [i for i in lost if isinstance(i, str) and _ID.fullmatch(i)] if isinstance(lost, list) \
        else []
    ids = ids[:MAX_IDS]
    held = sum(i in _instances for i in ids)
    page = _WORD.sub("", str(data.get("page", "")))[:60] or "a page"
    outcome = _WORD.sub("", str(data.get("outcome", "")))[:200] or "no answer"
    if not ids:
        kernel = "it named no model"
    elif held == len(ids):
        kernel = "this kernel holds them all: the page lost them"
    elif held == 0:
        kernel = "this kernel holds none of them: the kernel lost them"
    else:
        kernel = f"this kernel holds {held} of them: the kernel lost the others"
    return (f"ttrlib: {page} lost {plural(len(ids), 'widget')} on its way; {kernel}; "
            f"asked again: {outcome}")
