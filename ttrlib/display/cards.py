"""Train cards: one card, piles with a count, a row in order, a hand, a team's cardholder, and a
hand you may not see (face-down backs only)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..cards import CardCounts, Color
from ..i18n import _
from ..words import colour_word
from ..words import count as count_words
from .frames import escape, frame, root
from .looks import CARD_LOOKS


def _color(value: Color | str) -> Color:
    return Color.parse(value)


def _as_counts(cards: Any) -> CardCounts:
    if isinstance(cards, CardCounts):
        return cards
    if isinstance(cards, Mapping):
        return CardCounts(cards)
    if isinstance(cards, Iterable) and not isinstance(cards, str):
        return CardCounts.of(cards)
    raise TypeError(f"expected CardCounts, a mapping or a list of colours, not {cards!r}")


def _wagon_svg(ink: str, locomotive: bool) -> str:
    """A tiny train-car silhouette for the bottom of a card (an engine for the locomotive)."""
    if locomotive:
        shape = (
            '<rect x="1" y="4" width="17" height="6" rx="1"/>'
            '<rect x="12" y="1" width="7" height="9" rx="1"/>'
            '<rect x="3" y="1" width="3" height="3"/>'
            '<path d="M18 10 L26 10 L24 6 L18 6 Z"/>'
        )
    else:
        shape = '<rect x="1" y="2" width="24" height="8" rx="1.5"/><rect x="4" y="0" width="18" height="2"/>'
    wheels = '<circle cx="6" cy="11" r="2"/><circle cx="20" cy="11" r="2"/>'
    return (
        f'<svg class="ttr-wagon" width="26" height="13" viewBox="0 0 26 13" '
        f'fill="{ink}" fill-opacity="0.55" aria-hidden="true">{shape}{wheels}</svg>'
    )


def _card(
    color: Color,
    *,
    dim: bool = False,
    highlight: bool = False,
    tooltip: str | None = None,
    extra_style: str = "",
) -> str:
    look = CARD_LOOKS[color]
    loco = color is Color.LOCOMOTIVE
    classes = ["ttr-card", f"ttr-card-{color.value}"]
    if dim:
        classes.append("ttr-dim")
    if highlight:
        classes.append("ttr-hl")
    tip = tooltip if tooltip is not None else look.name
    if loco:
        inner = (
            f'<span class="ttr-corner" style="color:#ffffff">\u2605</span>'
            f'<span class="ttr-disc"></span>'
            f'<span class="ttr-letter ttr-disc-letter" style="color:{look.ink}">{look.symbol}</span>'
        )
    else:
        inner = (
            f'<span class="ttr-corner">{look.symbol}</span>'
            f'<span class="ttr-letter">{look.symbol}</span>'
        )
    ink = "#ffffff" if loco else look.ink
    return (
        f'<span class="{" ".join(classes)}" style="background:{look.fill};color:{look.ink};'
        f'{extra_style}" title="{escape(tip)}" role="img" aria-label="{escape(tip)}">'
        f"{inner}{_wagon_svg(ink, loco)}</span>"
    )


def _stack(color: Color, count: int, *, max_fan: int, dim: bool, highlight: bool) -> str:
    """One card drawn as a pile of ``min(count, max_fan)`` layers with a ×N badge."""
    look = CARD_LOOKS[color]
    layers = max(1, min(count, max_fan))
    step = 3
    width = 44 + step * (layers - 1)
    height = 64 + step * (layers - 1)
    tip = f"{look.name} \u00d7{count}"
    parts = []
    dim_cls = " ttr-dim" if dim else ""
    for i in range(layers - 1, 0, -1):  # plain edges behind, offset up and to the right
        parts.append(
            f'<span class="ttr-layer" style="left:{step * i}px;top:{step * (layers - 1 - i)}px">'
            f'<span class="ttr-card ttr-card-{color.value}{dim_cls}" '
            f'style="background:{look.fill}"></span></span>'
        )
    parts.append(
        f'<span class="ttr-layer" style="left:0;top:{step * (layers - 1)}px">'
        f"{_card(color, dim=dim, highlight=highlight, tooltip=tip)}</span>"
    )
    parts.append(f'<span class="ttr-badge">\u00d7{count}</span>')
    return (
        f'<span class="ttr-stack" style="width:{width}px;height:{height}px" '
        f'data-color="{color.value}" data-count="{count}">{"".join(parts)}</span>'
    )


def _item(picture: str, label: str | None) -> str:
    lab = f'<span class="ttr-label">{escape(label)}</span>' if label is not None else ""
    return f'<span class="ttr-item">{picture}{lab}</span>'


# --- train cards --------------------------------------------------------------------------------
def card_html(
    color: Color | str,
    *,
    count: int | None = None,
    dim: bool = False,
    highlight: bool = False,
    label: str | None = None,
) -> str:
    """One train card: a coloured rounded rectangle with its letter (P W B Y O K R G, L).

    ``count`` draws a small pile with a ``×N`` badge, ``dim`` greys the card out (not usable),
    ``highlight`` rings it (e.g. a matching tunnel card), ``label`` is written under it.
    """
    col = _color(color)
    if count is not None:
        if count < 0:
            raise ValueError(f"count cannot be negative ({count})")
        pic = _stack(col, count, max_fan=3, dim=dim, highlight=highlight)
    else:
        pic = _card(col, dim=dim, highlight=highlight)
    return root(_item(pic, label), inline=True)


def card_back_html(*, label: str | None = None) -> str:
    """A face-down train card (its colour unknown)."""
    return root(_item(_back(), label), inline=True)


def _back(*, mark: bool = True) -> str:
    inner = '<span class="ttr-back-mark">TTR</span>' if mark else ""
    return (
        '<span class="ttr-card ttr-back" title="face-down card" role="img" '
        f'aria-label="face-down card">{inner}</span>'
    )


def _cards_body(
    cards: CardCounts,
    *,
    empty_text: str,
    max_fan: int,
    highlight: Iterable[Color | str] = (),
    dim: Iterable[Color | str] = (),
) -> str:
    if not cards:
        return f'<div class="ttr-empty-text">{escape(empty_text)}</div>'
    hl = {_color(c) for c in highlight}
    dm = {_color(c) for c in dim}
    items = [
        _item(
            _stack(col, n, max_fan=max_fan, dim=col in dm, highlight=col in hl),
            colour_word(col),
        )
        for col, n in cards.items()
    ]
    return (
        f'<div class="ttr-row ttr-row-stacks" title="{escape(cards.describe())}">{"".join(items)}</div>'
    )


def cards_html(
    cards: CardCounts | Mapping[Color | str, int] | Iterable[Color | str],
    *,
    title: str | None = None,
    empty_text: str = "no cards",
    max_fan: int = 3,
    highlight: Iterable[Color | str] = (),
    dim: Iterable[Color | str] = (),
) -> str:
    """A set of cards, each colour once as a pile with a ``×N`` badge (deck order).

    ``max_fan`` is how many card edges a pile shows at most (12 cards never overflow).
    ``highlight`` / ``dim`` take colours to ring or grey out. With ``title`` the cards sit in a
    labelled frame that also gives the total.
    """
    counts = _as_counts(cards)
    body = _cards_body(counts, empty_text=empty_text, max_fan=max_fan, highlight=highlight, dim=dim)
    if title is None:
        return root(body)
    return root(frame(body, title, sub=f"({count_words(len(counts), 'card')})"))


def card_row_html(
    colors: Sequence[Color | str | None],
    *,
    title: str | None = None,
    labels: Sequence[str | None] | None = None,
    highlight: Iterable[int] = (),
    dim: Iterable[int] = (),
    face_down: Iterable[int] = (),
    empty_text: str = "no cards",
) -> str:
    """Cards in a given order, e.g. the five face-up cards or a tunnel reveal.

    ``None`` is an empty slot (dashed outline). ``highlight``, ``dim`` and ``face_down`` are sets
    of indices (e.g. the revealed cards that match, rule U2; cards not yet turned, drawn as card
    backs whatever their colour). ``labels`` gives a caption per position.
    """
    hl = set(highlight)
    dm = set(dim)
    down = set(face_down)
    if labels is not None and len(labels) != len(colors):
        raise ValueError(f"got {len(labels)} labels for {len(colors)} cards")
    items = []
    for i, c in enumerate(colors):
        label = labels[i] if labels is not None else None
        if i in down:
            pic = _back()
        elif c is None:
            # (gettext outside the f-strings: pybabel does not read calls inside one)
            slot_title, slot_word = escape(_("empty slot")), escape(_("empty"))
            pic = (f'<span class="ttr-slot" title="{slot_title}" data-slot="empty">'
                   f'{slot_word}</span>')
        else:
            pic = _card(_color(c), highlight=i in hl, dim=i in dm)
        items.append(_item(pic, label))
    if items:
        body = f'<div class="ttr-row">{"".join(items)}</div>'
    else:
        body = f'<div class="ttr-empty-text">{escape(empty_text)}</div>'
    if title is None:
        return root(body)
    return root(frame(body, title))


def hand_html(
    cards: CardCounts | Mapping[Color | str, int] | Iterable[Color | str],
    *,
    title: str | None = None,
    empty_text: str | None = None,
    max_fan: int = 3,
    highlight: Iterable[Color | str] = (),
    dim: Iterable[Color | str] = (),
) -> str:
    """A player's own hand, in a frame marked *private* (only this player sees it, rule I1);
    ``title`` "Your hand" unless given, ``empty_text`` "no cards"."""
    counts = _as_counts(cards)
    body = _cards_body(counts, empty_text=_("no cards") if empty_text is None else empty_text,
                       max_fan=max_fan, highlight=highlight, dim=dim)
    sub = f"({count_words(len(counts), 'card')})"
    return root(frame(body, _("Your hand") if title is None else title,
                      ("private", _("private")), sub))


def cardholder_html(
    cards: CardCounts | Mapping[Color | str, int] | Iterable[Color | str],
    team: str | None = None,
    *,
    title: str | None = None,
    empty_text: str | None = None,
    max_fan: int = 3,
    highlight: Iterable[Color | str] = (),
    dim: Iterable[Color | str] = (),
) -> str:
    """A team's train cardholder, in a frame marked *shared* (both teammates use it, rule K1).

    The title is ``"Team A cardholder"`` for ``team="A"`` unless ``title`` is given.
    """
    counts = _as_counts(cards)
    if title is None:
        title = (_("Team {letter} cardholder").format(letter=team) if team
                 else _("Team cardholder"))
    body = _cards_body(counts, empty_text=_("empty") if empty_text is None else empty_text,
                       max_fan=max_fan, highlight=highlight, dim=dim)
    sub = f"({count_words(len(counts), 'card')})"
    return root(frame(body, title, ("shared", _("shared")), sub))


_LOCK_SVG = (
    '<svg width="14" height="16" viewBox="0 0 14 16" aria-hidden="true">'
    '<path d="M3.5 7 V4.8 A3.5 3.5 0 0 1 10.5 4.8 V7" fill="none" stroke="currentColor" '
    'stroke-width="1.8"/><rect x="1" y="7" width="12" height="8.5" rx="1.5" fill="currentColor"/>'
    "</svg>"
)


def offlimits_html(count: int, title: str | None = None, *, max_shown: int = 10) -> str:
    """A hand you may not look at: ``count`` face-down cards and an off-limits note (K1, I1).

    Only the number of cards is public; the colours are not drawn at all.
    """
    if count < 0:
        raise ValueError(f"count cannot be negative ({count})")
    shown = min(count, max_shown)
    if count:
        backs = "".join(_back(mark=i == shown - 1) for i in range(shown))
        more_words = escape(_("+{n} more").format(n=count - shown))
        more = f'<span class="ttr-label">{more_words}</span>' if count > shown else ""
        body = f'<div class="ttr-row"><span class="ttr-fan">{backs}</span>{more}</div>'
    else:
        none = escape(_("no cards"))
        body = f'<div class="ttr-empty-text">{none}</div>'
    note = (
        f'<div class="ttr-note">{_LOCK_SVG}<span>'
        + escape(_("Off-limits: your teammate's private cards. You may not see them or use them "
                   "to claim a route (rules K1, I1)."))
        + "</span></div>"
    )
    return root(frame(body + note, _("Teammate's hand") if title is None else title,
                      ("lock", _("off-limits")), f"({count_words(count, 'card')})"))


