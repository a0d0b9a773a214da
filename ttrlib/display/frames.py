"""What every fragment is built in: escaping, the root with the stylesheet once, a titled frame,
message boxes and the layout that puts fragments together."""

from __future__ import annotations

import html
from typing import Any

from ..i18n import _
from .css import STYLE_TAG


def escape(text: Any) -> str:
    """Escape text for element content and attribute values."""
    return html.escape(str(text), quote=True)


def root(body: str, *, inline: bool = False, extra: str = "") -> str:
    """The outer ``<div>`` of a fragment, carrying the stylesheet (``layout_html`` keeps one)."""
    cls = "ttr-root ttr-inline" if inline else "ttr-root"
    if extra:
        cls += " " + extra
    return f'<div class="{cls}">{STYLE_TAG}{body}</div>'


def frame(body: str, title: str | None, pill: tuple[str, str] | None = None, sub: str = "") -> str:
    """A rounded box with a heading: ``title``, a dimmer ``sub`` text, a ``pill`` (kind, text)."""
    head = ""
    if title is not None or pill is not None:
        parts = []
        if title is not None:
            parts.append(f"<span>{escape(title)}</span>")
        if sub:
            parts.append(f'<span class="ttr-sub">{escape(sub)}</span>')
        if pill is not None:
            kind, text = pill
            parts.append(f'<span class="ttr-pill ttr-pill-{kind}">{escape(text)}</span>')
        head = f'<div class="ttr-head">{"".join(parts)}</div>'
    return f'<div class="ttr-frame">{head}{body}</div>'


_MESSAGE_ICONS = {"error": "\u2717", "info": "i", "success": "\u2713", "warning": "!"}


def message_html(text: str, kind: str = "error", *, rule: str | None = None) -> str:
    """A message box for a widget: ``"error"`` (red), ``"info"`` (blue), ``"success"`` (green)
    or ``"warning"`` (amber). ``rule`` (e.g. ``"D3"``) is shown as a tag before the text.
    """
    if kind not in _MESSAGE_ICONS:
        raise ValueError(f"kind must be one of {sorted(_MESSAGE_ICONS)}, not {kind!r}")
    # Translators: the tag before a message naming the rule it is about ("rule D3")
    words = _("rule {rule}").format(rule=escape(rule)) if rule else ""
    tag = f'<span class="ttr-pill ttr-pill-rule">{words}</span> ' if rule else ""
    role = "alert" if kind == "error" else "status"
    return root(
        f'<div class="ttr-msg ttr-msg-{kind}" role="{role}">'
        f'<span class="ttr-msg-icon" aria-hidden="true">{_MESSAGE_ICONS[kind]}</span>'
        f'<span class="ttr-msg-text">{tag}{escape(text)}</span></div>'
    )


def layout_html(*fragments: str, direction: str = "column") -> str:
    """Put fragments from this module side by side (``"row"``) or one under another
    (``"column"``), with the stylesheet included only once.
    """
    if direction not in ("row", "column"):
        raise ValueError(f"direction must be 'row' or 'column', not {direction!r}")
    inner = "".join(f.replace(STYLE_TAG, "") for f in fragments)
    cls = "ttr-wrap" if direction == "row" else "ttr-col"
    return root(f'<div class="{cls}">{inner}</div>')
