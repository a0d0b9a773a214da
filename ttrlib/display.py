"""Pictures of the game's things as self-contained HTML strings.

Every public function returns one HTML fragment (inline CSS and SVG, no JavaScript, no external
files) that a notebook can show with ``IPython.display.HTML(...)`` or put in an
``ipywidgets.HTML(value=...)``. Each fragment carries the shared stylesheet (:func:`style`) once,
and every class name starts with ``ttr-`` so nothing leaks into the rest of the page. Colours that
depend on the page (text, frames) follow the JupyterLab theme variables, or the surrounding text
colour, so the pictures read well in the light and the dark themes and in Voila.

Every card shows a letter as well as a colour, for learners who cannot tell the colours apart:

====== ========== ======
letter colour     fill
====== ========== ======
P      purple     purple
W      white      white (with a gray border)
B      blue       blue
Y      yellow     yellow
O      orange     orange
K      black      black (K as in CMYK, because B is blue)
R      red        red
G      green      green
L      locomotive rainbow, with a star in the corner
====== ========== ======

All text is escaped with ``html.escape``, and every fragment is well-formed XML (no named
entities, no unclosed tags), so it can also be checked or post-processed with ``xml.etree``.

>>> from ttrlib.cards import CardCounts
>>> "×2" in cards_html(CardCounts(red=2, locomotive=1))
True
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from .board import Route, Ticket
from .cards import CardCounts, Color
from .seats import seat_name, team_name
from .words import plural

__all__ = [
    "CARD_LOOKS",
    "STYLE",
    "CardLook",
    "card_back_html",
    "card_html",
    "card_row_html",
    "cardholder_html",
    "cards_html",
    "distribution_html",
    "hand_html",
    "layout_html",
    "message_html",
    "offlimits_html",
    "route_html",
    "style",
    "ticket_html",
    "tickets_html",
]


class CardLook(NamedTuple):
    """How a card of one colour is drawn: background, text colour, letter, name."""

    fill: str  # CSS background
    ink: str  # colour of the letter and the little wagon, readable on ``fill``
    symbol: str  # letter shown on the card (colour-blind friendly)
    name: str  # colour name for the tooltip


_RAINBOW = (
    "linear-gradient(160deg, #e53935 0%, #fb8c00 18%, #fdd835 34%, #43a047 52%, "
    "#1e88e5 70%, #8e24aa 88%, #d81b60 100%)"
)

#: The look of each card colour. Fills are distinct; the ink is dark on light fills, white on dark.
CARD_LOOKS: dict[Color, CardLook] = {
    Color.PURPLE: CardLook("#7b3fa0", "#ffffff", "P", "purple"),
    Color.WHITE: CardLook("#f8f8f4", "#1d1d1d", "W", "white"),
    Color.BLUE: CardLook("#1f63c6", "#ffffff", "B", "blue"),
    Color.YELLOW: CardLook("#f7d330", "#1d1d1d", "Y", "yellow"),
    Color.ORANGE: CardLook("#f08a1c", "#1d1d1d", "O", "orange"),
    Color.BLACK: CardLook("#1f1f1f", "#ffffff", "K", "black"),
    Color.RED: CardLook("#d32f2f", "#ffffff", "R", "red"),
    Color.GREEN: CardLook("#218a45", "#ffffff", "G", "green"),
    Color.LOCOMOTIVE: CardLook(_RAINBOW, "#1d1d1d", "L", "locomotive (wild)"),
}

_GRAY_ROUTE = "#9e9e9e"
_ROUTE_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}  # rule E2

# Note for maintainers: keep this stylesheet free of "<" and "&" so the fragments stay valid XML.
STYLE = """
.ttr-root { font-family: var(--jp-ui-font-family, system-ui, -apple-system, "Segoe UI", Roboto,
  "DejaVu Sans", "Helvetica Neue", Arial, sans-serif); font-size: 13px; line-height: 1.3;
  margin: 2px 0; }
.ttr-inline { display: inline-block; vertical-align: middle; margin: 0 2px; }
.ttr-frame { display: inline-block; border: 1px solid rgba(128,128,128,0.45);
  border-radius: 10px; padding: 6px 10px 8px 10px; background: rgba(128,128,128,0.07);
  max-width: 100%; box-sizing: border-box; }
.ttr-head { display: flex; align-items: center; gap: 8px; font-weight: 600;
  margin-bottom: 6px; flex-wrap: wrap; }
.ttr-sub { font-weight: 400; opacity: 0.75; }
.ttr-pill { display: inline-block; font-size: 11px; font-weight: 600; padding: 0 7px;
  border-radius: 9px; line-height: 17px; letter-spacing: 0.02em; }
.ttr-pill-private { background: rgba(230,150,20,0.22); border: 1px solid rgba(230,150,20,0.7); }
.ttr-pill-shared { background: rgba(20,160,150,0.20); border: 1px solid rgba(20,160,150,0.7); }
.ttr-pill-lock { background: rgba(128,128,128,0.18); border: 1px solid rgba(128,128,128,0.6); }
.ttr-pill-rule { background: rgba(128,128,128,0.16); border: 1px solid rgba(128,128,128,0.55);
  font-family: var(--jp-code-font-family, "DejaVu Sans Mono", monospace); }
.ttr-row { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 10px; }
.ttr-row-stacks { gap: 10px 8px; }
.ttr-item { display: inline-flex; flex-direction: column; align-items: center; gap: 3px; }
.ttr-label { font-size: 11px; opacity: 0.8; text-align: center; max-width: 70px;
  overflow-wrap: anywhere; }
.ttr-empty-text { font-style: italic; opacity: 0.7; padding: 4px 2px; }
.ttr-card { position: relative; display: inline-block; width: 44px; height: 64px;
  border-radius: 6px; box-sizing: border-box; flex: none;
  box-shadow: 0 0 0 1px rgba(128,128,128,0.75), inset 0 0 0 3px rgba(255,255,255,0.22),
  1px 2px 3px rgba(0,0,0,0.28); overflow: hidden; }
.ttr-card-white { box-shadow: 0 0 0 1px #8a8a8a, inset 0 0 0 3px rgba(0,0,0,0.06),
  1px 2px 3px rgba(0,0,0,0.28); }
.ttr-corner { position: absolute; top: 3px; left: 5px; font-size: 10px; font-weight: 700;
  line-height: 1; }
.ttr-letter { position: absolute; left: 0; right: 0; top: 13px; text-align: center;
  font-size: 25px; font-weight: 800; line-height: 1; }
.ttr-disc { position: absolute; left: 8px; top: 10px; width: 28px; height: 28px;
  border-radius: 50%; background: rgba(255,255,255,0.9); box-shadow: 0 0 0 1px rgba(0,0,0,0.35); }
.ttr-disc-letter { top: 12px; font-size: 21px; }
.ttr-wagon { position: absolute; left: 9px; bottom: 6px; }
.ttr-dim { opacity: 0.35; filter: grayscale(0.6); }
.ttr-hl { outline: 3px solid #ffb300; outline-offset: 2px;
  box-shadow: 0 0 0 1px rgba(128,128,128,0.75), 0 0 10px 3px rgba(255,179,0,0.75); }
.ttr-slot { display: inline-flex; align-items: center; justify-content: center; width: 44px;
  height: 64px; border: 2px dashed rgba(128,128,128,0.8); border-radius: 6px;
  box-sizing: border-box; font-size: 10px; opacity: 0.8; font-style: italic; }
.ttr-stack { position: relative; display: inline-block; margin: 8px 8px 0 0; }
.ttr-layer { position: absolute; }
.ttr-badge { position: absolute; right: -8px; top: -8px; min-width: 18px; height: 20px;
  padding: 0 5px; border-radius: 10px; background: #263238; color: #ffffff; font-size: 12px;
  font-weight: 700; line-height: 20px; text-align: center; box-sizing: border-box;
  box-shadow: 0 0 0 2px rgba(255,255,255,0.85); z-index: 2; }
.ttr-back { background-color: #1d3557;
  background-image: repeating-linear-gradient(45deg, rgba(255,255,255,0.13) 0 4px,
  transparent 4px 9px); box-shadow: 0 0 0 1px rgba(128,128,128,0.8),
  inset 0 0 0 3px rgba(255,255,255,0.55), 1px 2px 3px rgba(0,0,0,0.3); }
.ttr-back-mark { position: absolute; left: 0; right: 0; top: 24px; text-align: center;
  color: #ffffff; font-size: 11px; font-weight: 800; letter-spacing: 0.05em; }
.ttr-fan { display: flex; align-items: flex-end; padding-right: 4px; }
.ttr-fan .ttr-card + .ttr-card { margin-left: -30px; }
.ttr-note { display: flex; align-items: center; gap: 6px; font-size: 12px; margin-top: 7px;
  opacity: 0.9; max-width: 420px; }
.ttr-ticket { position: relative; display: inline-flex; align-items: stretch; width: 190px;
  min-height: 62px; border-radius: 7px; background: #f6ead0; color: #2b2116;
  box-shadow: 0 0 0 1px #b08d57, inset 0 0 0 3px #fff8e8, 1px 2px 3px rgba(0,0,0,0.25);
  box-sizing: border-box; padding: 7px 8px 7px 10px; gap: 8px; vertical-align: top; }
.ttr-ticket-cities { flex: 1; display: flex; flex-direction: column; justify-content: center;
  gap: 1px; min-width: 0; }
.ttr-city { display: flex; align-items: center; gap: 5px; font-weight: 700; font-size: 13px;
  overflow-wrap: anywhere; }
.ttr-city::before { content: ""; flex: none; width: 7px; height: 7px; border-radius: 50%;
  background: #c0392b; box-shadow: 0 0 0 1.5px #ffffff; }
.ttr-ticket-line { border-left: 2px dotted #8d6e46; height: 8px; margin-left: 3px; }
.ttr-ticket-side { display: flex; flex-direction: column; align-items: center;
  justify-content: center; gap: 3px; flex: none; }
.ttr-ticket-id { font-size: 10px; line-height: 1; opacity: 0.75; white-space: nowrap; }
.ttr-points { align-self: center; display: inline-flex; flex-direction: column;
  align-items: center; justify-content: center; min-width: 38px; height: 38px;
  border-radius: 19px; background: #3e2f1c; color: #ffffff; font-weight: 800; font-size: 15px;
  padding: 0 4px; box-sizing: border-box; }
.ttr-points-done { background: #1e7d3a; }
.ttr-points-fail { background: #b3261e; }
.ttr-status { font-size: 9px; font-weight: 700; text-transform: uppercase; line-height: 1;
  letter-spacing: 0.03em; }
.ttr-route { display: inline-flex; flex-direction: column; gap: 4px;
  border: 1px solid rgba(128,128,128,0.45); border-radius: 8px; padding: 5px 9px;
  background: rgba(128,128,128,0.07); vertical-align: top; }
.ttr-route-ends { font-weight: 700; }
.ttr-route-line { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
.ttr-cars { display: inline-flex; gap: 3px; }
.ttr-car { display: inline-block; width: 16px; height: 10px; border-radius: 2px;
  box-shadow: 0 0 0 1px rgba(0,0,0,0.45), inset 0 0 0 1px rgba(255,255,255,0.3); }
.ttr-tunnel { display: inline-flex; align-items: center; gap: 4px; font-size: 12px;
  font-weight: 600; padding: 1px 7px 1px 4px; border-radius: 9px;
  background: rgba(121,85,72,0.2); border: 1px solid rgba(121,85,72,0.75); }
.ttr-dist svg { display: block; overflow: visible; }
.ttr-bar { fill: #3d85c6; }
.ttr-bar-zero { fill: none; stroke: rgba(128,128,128,0.7); }
.ttr-axis { stroke: currentColor; stroke-opacity: 0.6; }
.ttr-mean-mark { fill: #e8710a; }
.ttr-mean { margin-top: 4px; }
.ttr-mean b { color: #e8710a; }
.ttr-msg { display: flex; align-items: flex-start; gap: 8px; padding: 7px 10px;
  border-radius: 6px; border: 1px solid; border-left-width: 5px; max-width: 720px;
  box-sizing: border-box; }
.ttr-msg-icon { font-weight: 800; font-size: 15px; line-height: 1.2; flex: none; width: 18px;
  height: 18px; border-radius: 50%; color: #ffffff; text-align: center; font-size: 12px;
  line-height: 18px; }
.ttr-msg-error { background: rgba(211,47,47,0.12); border-color: rgba(211,47,47,0.85); }
.ttr-msg-error .ttr-msg-icon { background: #c62828; }
.ttr-msg-info { background: rgba(30,136,229,0.11); border-color: rgba(30,136,229,0.8); }
.ttr-msg-info .ttr-msg-icon { background: #1565c0; }
.ttr-msg-success { background: rgba(46,160,67,0.13); border-color: rgba(46,160,67,0.85); }
.ttr-msg-success .ttr-msg-icon { background: #2e7d32; }
.ttr-msg-warning { background: rgba(245,166,35,0.16); border-color: rgba(230,140,20,0.9); }
.ttr-msg-warning .ttr-msg-icon { background: #e08600; }
.ttr-msg-text { flex: 1; }
.ttr-col { display: flex; flex-direction: column; gap: 10px; align-items: flex-start; }
.ttr-wrap { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
"""


def style() -> str:
    """The shared stylesheet as a ``<style>`` element (each fragment already includes it)."""
    return f"<style>{STYLE}</style>"


_STYLE_TAG = style()


# --- small helpers ------------------------------------------------------------------------------
def _e(text: Any) -> str:
    """Escape text for element content and attribute values."""
    return html.escape(str(text), quote=True)


def _root(body: str, *, inline: bool = False, extra: str = "") -> str:
    cls = "ttr-root ttr-inline" if inline else "ttr-root"
    if extra:
        cls += " " + extra
    return f'<div class="{cls}">{_STYLE_TAG}{body}</div>'


def _frame(body: str, title: str | None, pill: tuple[str, str] | None = None, sub: str = "") -> str:
    head = ""
    if title is not None or pill is not None:
        parts = []
        if title is not None:
            parts.append(f"<span>{_e(title)}</span>")
        if sub:
            parts.append(f'<span class="ttr-sub">{_e(sub)}</span>')
        if pill is not None:
            kind, text = pill
            parts.append(f'<span class="ttr-pill ttr-pill-{kind}">{_e(text)}</span>')
        head = f'<div class="ttr-head">{"".join(parts)}</div>'
    return f'<div class="ttr-frame">{head}{body}</div>'


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


_plural = plural


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
        f'{extra_style}" title="{_e(tip)}" role="img" aria-label="{_e(tip)}">'
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
    lab = f'<span class="ttr-label">{_e(label)}</span>' if label is not None else ""
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
    return _root(_item(pic, label), inline=True)


def card_back_html(*, label: str | None = None) -> str:
    """A face-down train card (its colour unknown)."""
    return _root(_item(_back(), label), inline=True)


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
        return f'<div class="ttr-empty-text">{_e(empty_text)}</div>'
    hl = {_color(c) for c in highlight}
    dm = {_color(c) for c in dim}
    items = [
        _item(
            _stack(col, n, max_fan=max_fan, dim=col in dm, highlight=col in hl),
            CARD_LOOKS[col].name.split(" ")[0],
        )
        for col, n in cards.items()
    ]
    return (
        f'<div class="ttr-row ttr-row-stacks" title="{_e(cards.describe())}">{"".join(items)}</div>'
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
        return _root(body)
    return _root(_frame(body, title, sub=f"({_plural(len(counts), 'card')})"))


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
            pic = '<span class="ttr-slot" title="empty slot" data-slot="empty">empty</span>'
        else:
            pic = _card(_color(c), highlight=i in hl, dim=i in dm)
        items.append(_item(pic, label))
    if items:
        body = f'<div class="ttr-row">{"".join(items)}</div>'
    else:
        body = f'<div class="ttr-empty-text">{_e(empty_text)}</div>'
    if title is None:
        return _root(body)
    return _root(_frame(body, title))


def hand_html(
    cards: CardCounts | Mapping[Color | str, int] | Iterable[Color | str],
    *,
    title: str = "Your hand",
    empty_text: str = "no cards",
    max_fan: int = 3,
    highlight: Iterable[Color | str] = (),
    dim: Iterable[Color | str] = (),
) -> str:
    """A player's own hand, in a frame marked *private* (only this player sees it, rule I1)."""
    counts = _as_counts(cards)
    body = _cards_body(counts, empty_text=empty_text, max_fan=max_fan, highlight=highlight, dim=dim)
    sub = f"({_plural(len(counts), 'card')})"
    return _root(_frame(body, title, ("private", "private"), sub))


def cardholder_html(
    cards: CardCounts | Mapping[Color | str, int] | Iterable[Color | str],
    team: str | None = None,
    *,
    title: str | None = None,
    empty_text: str = "empty",
    max_fan: int = 3,
    highlight: Iterable[Color | str] = (),
    dim: Iterable[Color | str] = (),
) -> str:
    """A team's train cardholder, in a frame marked *shared* (both teammates use it, rule K1).

    The title is ``"Team A cardholder"`` for ``team="A"`` unless ``title`` is given.
    """
    counts = _as_counts(cards)
    if title is None:
        title = f"Team {team} cardholder" if team else "Team cardholder"
    body = _cards_body(counts, empty_text=empty_text, max_fan=max_fan, highlight=highlight, dim=dim)
    sub = f"({_plural(len(counts), 'card')})"
    return _root(_frame(body, title, ("shared", "shared"), sub))


_LOCK_SVG = (
    '<svg width="14" height="16" viewBox="0 0 14 16" aria-hidden="true">'
    '<path d="M3.5 7 V4.8 A3.5 3.5 0 0 1 10.5 4.8 V7" fill="none" stroke="currentColor" '
    'stroke-width="1.8"/><rect x="1" y="7" width="12" height="8.5" rx="1.5" fill="currentColor"/>'
    "</svg>"
)


def offlimits_html(count: int, title: str = "Teammate's hand", *, max_shown: int = 10) -> str:
    """A hand you may not look at: ``count`` face-down cards and an off-limits note (K1, I1).

    Only the number of cards is public; the colours are not drawn at all.
    """
    if count < 0:
        raise ValueError(f"count cannot be negative ({count})")
    shown = min(count, max_shown)
    if count:
        backs = "".join(_back(mark=i == shown - 1) for i in range(shown))
        more = f'<span class="ttr-label">+{count - shown} more</span>' if count > shown else ""
        body = f'<div class="ttr-row"><span class="ttr-fan">{backs}</span>{more}</div>'
    else:
        body = '<div class="ttr-empty-text">no cards</div>'
    note = (
        f'<div class="ttr-note">{_LOCK_SVG}<span>Off-limits: your teammate\'s private cards. '
        "You may not see them or use them to claim a route (rules K1, I1).</span></div>"
    )
    return _root(_frame(body + note, title, ("lock", "off-limits"), f"({_plural(count, 'card')})"))


# --- tickets ------------------------------------------------------------------------------------
_STATUSES = {None, "completed", "failed"}


def _ticket(ticket: Ticket, status: str | None) -> str:
    if status not in _STATUSES:
        raise ValueError(f"status must be 'completed', 'failed' or None, not {status!r}")
    pts = ticket.points
    if status == "completed":
        badge = (
            f'<span class="ttr-points ttr-points-done">+{pts}'
            f'<span class="ttr-status">\u2713 done</span></span>'
        )
    elif status == "failed":
        badge = (
            f'<span class="ttr-points ttr-points-fail">\u2212{pts}'
            f'<span class="ttr-status">\u2717 failed</span></span>'
        )
    else:
        badge = f'<span class="ttr-points">{pts}</span>'
    tip = ticket.describe() + (f" \u2013 {status}" if status else "")
    return (
        f'<span class="ttr-ticket" title="{_e(tip)}" data-status="{_e(status or "open")}">'
        f'<span class="ttr-ticket-cities"><span class="ttr-city">{_e(ticket.a)}</span>'
        f'<span class="ttr-ticket-line"></span><span class="ttr-city">{_e(ticket.b)}</span></span>'
        f'<span class="ttr-ticket-side">{badge}<span class="ttr-ticket-id">{_e(ticket.id)}</span>'
        '</span></span>'
    )


def ticket_html(ticket: Ticket, *, status: str | None = None) -> str:
    """A destination ticket: its two cities and its points.

    ``status="completed"`` shows ``+points`` in green, ``"failed"`` shows ``−points`` in red
    (rule E3), ``None`` (still open) shows the plain value.
    """
    return _root(_ticket(ticket, status), inline=True)


def tickets_html(
    tickets: Iterable[Ticket],
    title: str | None = None,
    *,
    statuses: Mapping[str, str | None] | None = None,
    empty_text: str = "no tickets",
) -> str:
    """Several tickets in a row; ``statuses`` maps ticket ids to ``"completed"`` / ``"failed"``."""
    tickets = list(tickets)
    statuses = statuses or {}
    if tickets:
        body = (
            '<div class="ttr-wrap">'
            + "".join(_ticket(t, statuses.get(t.id)) for t in tickets)
            + "</div>"
        )
    else:
        body = f'<div class="ttr-empty-text">{_e(empty_text)}</div>'
    if title is None:
        return _root(body)
    return _root(_frame(body, title, sub=f"({_plural(len(tickets), 'ticket')})"))


def hidden_tickets_html(count: int, title: str) -> str:
    """Tickets you may not read (a teammate's private ones): only their number (rule I1)."""
    backs = "".join(
        '<span class="ttr-ticket" style="width:46px;min-height:62px;background:#6d4c2f;'
        'color:#f6ead0;justify-content:center;align-items:center;font-weight:800">?</span>'
        for _ in range(min(count, 8))
    )
    more = f'<span class="ttr-label">+{count - 8} more</span>' if count > 8 else ""
    body = (f'<div class="ttr-row">{backs}{more}</div>' if count else
            '<div class="ttr-empty-text">no private tickets</div>')
    note = ('<div class="ttr-note">Only the number is public: your teammate\'s private tickets '
            "stay secret until the end (rule I1).</div>")
    return _root(_frame(body + note, title, pill=("lock", "off-limits"),
                        sub=f"({count} hidden)"))


def _ticket_deck_html(size: int) -> str:
    body = (f'<div style="font-size:22px;font-weight:800">{size}</div>'
            f'<div class="ttr-sub">{"ticket" if size == 1 else "tickets"} face down</div>')
    return _root(_frame(body, "Ticket deck"))


def ticket_table_html(view: Any, statuses: Mapping[str, str | None] | None = None) -> str:
    """The tickets one seat sees (a ``PlayerView``, rule I1): its own, the team's shared ones,
    the teammate's count, the ticket deck size. ``statuses`` as for :func:`tickets_html`."""

    board = view.board
    team = team_name(view.team)
    return layout_html(
        tickets_html([board.ticket(t) for t in view.tickets],
                     f"Your private tickets ({seat_name(view.seat)})", statuses=statuses,
                     empty_text="no private tickets"),
        tickets_html([board.ticket(t) for t in view.team_tickets],
                     f"{team} ticket cardholder (shared)", statuses=statuses, empty_text="empty"),
        hidden_tickets_html(view.ticket_counts[view.teammate],
                            f"Teammate {seat_name(view.teammate)}'s tickets"),
        _ticket_deck_html(view.ticket_deck_size),
        direction="row",
    )


# --- routes -------------------------------------------------------------------------------------
_TUNNEL_SVG = (
    '<svg width="18" height="13" viewBox="0 0 18 13" aria-hidden="true">'
    '<path d="M0 13 L6 2 L9 5 L12 1 L18 13 Z" fill="#8d6e63"/>'
    '<path d="M6 13 V10 A3 3 0 0 1 12 10 V13 Z" fill="#212121"/></svg>'
)


def route_html(route: Route) -> str:
    """A route label: endpoints, one small car per space in the route colour, tunnel marker."""
    if route.color is None:
        fill, cname = _GRAY_ROUTE, "gray"
    else:
        fill, cname = CARD_LOOKS[route.color].fill, route.color.value
    cars = "".join(
        f'<span class="ttr-car" style="background:{fill}"></span>' for _ in range(route.length)
    )
    pts = _ROUTE_POINTS.get(route.length)
    parts = [
        f'<span class="ttr-cars" title="{_e(_plural(route.length, cname + " space"))}">{cars}</span>',
        f"<span>{route.length} \u00d7 {_e(cname)}</span>",
    ]
    if route.is_tunnel:
        parts.append(
            f'<span class="ttr-tunnel" title="tunnel: {route.tunnel} cards are revealed (rule U1)">'
            f"{_TUNNEL_SVG}tunnel \u00b7 reveals {route.tunnel}</span>"
        )
    if pts is not None:
        parts.append(f'<span class="ttr-sub">{_plural(pts, "point")}</span>')
    return _root(
        f'<span class="ttr-route" title="{_e(route.describe())}" data-route="{_e(route.id)}">'
        f'<span class="ttr-route-ends">{_e(route.a)} \u2013 {_e(route.b)}</span>'
        f'<span class="ttr-route-line">{"".join(parts)}</span></span>',
        inline=True,
    )


# --- probability distributions ------------------------------------------------------------------
def _exact(p: Any) -> Fraction | None:
    if isinstance(p, Fraction):
        return p
    if isinstance(p, int) and not isinstance(p, bool):
        return Fraction(p)
    return None


def _frac_text(p: Any) -> str:
    f = _exact(p)
    return str(f) if f is not None else f"{float(p):.6g}"


def _percent(p: float) -> str:
    pct = 100.0 * p
    if pct == 0:
        return "0%"
    if pct >= 0.1:
        return f"{pct:.1f}%"
    return f"{pct:.2g}%"


def _decimal(x: Any) -> tuple[str, bool]:
    """A short decimal for ``x`` and whether it is exact."""
    text = f"{float(x):.4f}".rstrip("0").rstrip(".")
    if text in ("", "-0"):
        text = "0"
    exact = _exact(x)
    return text, exact is not None and Fraction(text) == exact


def distribution_html(
    dist: Any,
    title: str | None = None,
    *,
    xlabel: str = "k",
    bar_height: int = 140,
) -> str:
    """A bar chart of a probability distribution on the integers.

    ``dist`` needs ``.pmf`` (``{k: Fraction}``) and ``.mean``. Each bar carries its exact
    fraction and its percentage; the mean is marked on the axis and written as a fraction and a
    decimal. Gaps inside the support are drawn as empty bars so the axis stays evenly spaced.
    """
    pmf = {int(k): v for k, v in dict(dist.pmf).items()}
    support = sorted(k for k, v in pmf.items() if v)
    if not support:
        body = '<div class="ttr-empty-text">empty distribution</div>'
        return _root(_frame(body, title) if title is not None else body, extra="ttr-dist")
    ks = list(range(support[0], support[-1] + 1))
    probs = {k: pmf.get(k, 0) for k in ks}
    pmax = max(float(v) for v in probs.values())

    # slot width from the longest number to be written
    longest = 0
    for k, v in probs.items():
        f = _exact(v)
        texts = [str(f.numerator), str(f.denominator)] if f is not None else [_frac_text(v)]
        texts += [_percent(float(v)), f"{xlabel} = {k}"]
        longest = max(longest, *(len(t) for t in texts))
    slot = max(54, 7 * longest + 14)
    pad_l, pad_r, top, bottom = 10, 10, 40, 62
    plot_h = bar_height
    width = pad_l + pad_r + slot * len(ks)
    height = top + plot_h + bottom
    base = top + plot_h

    def x_of(k: float) -> float:
        return pad_l + slot * (k - ks[0]) + slot / 2

    out = []
    out.append(
        f'<line class="ttr-axis" x1="{pad_l - 4}" y1="{base}" x2="{width - pad_r + 4}" '
        f'y2="{base}" stroke-width="1"/>'
    )
    bw = min(slot - 14, 46)
    for k in ks:
        v = probs[k]
        pf = float(v)
        h = 0.0 if pmax == 0 else plot_h * pf / pmax
        cx = x_of(k)
        ytop = base - h
        tip = f"P({xlabel} = {k}) = {_frac_text(v)} \u2248 {_percent(pf)}"
        if pf > 0:
            out.append(
                f'<rect class="ttr-bar" x="{cx - bw / 2:.1f}" y="{ytop:.1f}" width="{bw}" '
                f'height="{max(h, 1.0):.1f}" rx="2"><title>{_e(tip)}</title></rect>'
            )
        else:
            out.append(
                f'<rect class="ttr-bar-zero" x="{cx - bw / 2:.1f}" y="{base - 2}" width="{bw}" '
                f'height="2"><title>{_e(tip)}</title></rect>'
            )
        f = _exact(v)
        if f is not None and f.denominator != 1:
            out.append(
                f'<g class="ttr-frac" fill="currentColor" font-size="12" text-anchor="middle">'
                f'<text x="{cx:.1f}" y="{ytop - 21:.1f}">{f.numerator}</text>'
                f'<line x1="{cx - 4 * max(len(str(f.numerator)), len(str(f.denominator))) - 2:.1f}" '
                f'y1="{ytop - 17:.1f}" '
                f'x2="{cx + 4 * max(len(str(f.numerator)), len(str(f.denominator))) + 2:.1f}" '
                f'y2="{ytop - 17:.1f}" stroke="currentColor" stroke-width="1"/>'
                f'<text x="{cx:.1f}" y="{ytop - 5:.1f}">{f.denominator}</text></g>'
            )
        else:
            out.append(
                f'<text class="ttr-frac" x="{cx:.1f}" y="{ytop - 6:.1f}" fill="currentColor" '
                f'font-size="12" text-anchor="middle">{_e(_frac_text(v))}</text>'
            )
        out.append(
            f'<text x="{cx:.1f}" y="{base + 16}" fill="currentColor" font-size="12" '
            f'font-weight="700" text-anchor="middle">{_e(xlabel)} = {k}</text>'
            f'<text x="{cx:.1f}" y="{base + 31}" fill="currentColor" fill-opacity="0.8" '
            f'font-size="11.5" text-anchor="middle">{_e(_percent(pf))}</text>'
        )

    mean = dist.mean
    mean_text = _frac_text(mean)
    dec, is_exact = _decimal(mean)
    mx = x_of(float(mean))
    out.append(
        f'<path class="ttr-mean-mark" d="M{mx:.1f} {base + 36} l-5 8 h10 z"/>'
        f'<text x="{mx:.1f}" y="{base + 56}" font-size="11.5" font-weight="700" '
        f'text-anchor="middle" class="ttr-mean-mark">mean</text>'
    )
    desc = ", ".join(f"P({xlabel}={k}) = {_frac_text(probs[k])}" for k in ks)
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{_e(desc)}">'
        f"<title>{_e(desc)}</title>{''.join(out)}</svg>"
    )
    approx = "=" if is_exact else "\u2248"
    mean_line = (
        f'<div class="ttr-mean">Mean (expected value): <b>{_e(mean_text)}</b>'
        + (f" {approx} {_e(dec)}" if mean_text != dec else "")
        + "</div>"
    )
    body = svg + mean_line
    if title is not None:
        body = _frame(body, title)
    return _root(body, extra="ttr-dist")


# --- messages and layout ------------------------------------------------------------------------
_MESSAGE_ICONS = {"error": "\u2717", "info": "i", "success": "\u2713", "warning": "!"}


def message_html(text: str, kind: str = "error", *, rule: str | None = None) -> str:
    """A message box for a widget: ``"error"`` (red), ``"info"`` (blue), ``"success"`` (green)
    or ``"warning"`` (amber). ``rule`` (e.g. ``"D3"``) is shown as a tag before the text.
    """
    if kind not in _MESSAGE_ICONS:
        raise ValueError(f"kind must be one of {sorted(_MESSAGE_ICONS)}, not {kind!r}")
    tag = f'<span class="ttr-pill ttr-pill-rule">rule {_e(rule)}</span> ' if rule else ""
    role = "alert" if kind == "error" else "status"
    return _root(
        f'<div class="ttr-msg ttr-msg-{kind}" role="{role}">'
        f'<span class="ttr-msg-icon" aria-hidden="true">{_MESSAGE_ICONS[kind]}</span>'
        f'<span class="ttr-msg-text">{tag}{_e(text)}</span></div>'
    )


def layout_html(*fragments: str, direction: str = "column") -> str:
    """Put fragments from this module side by side (``"row"``) or one under another
    (``"column"``), with the stylesheet included only once.
    """
    if direction not in ("row", "column"):
        raise ValueError(f"direction must be 'row' or 'column', not {direction!r}")
    inner = "".join(f.replace(_STYLE_TAG, "") for f in fragments)
    cls = "ttr-wrap" if direction == "row" else "ttr-col"
    return _root(f'<div class="{cls}">{inner}</div>')


# --- a whole seat's view ------------------------------------------------------------------------
def view_html(view: Any) -> str:
    """What one seat may know (a ``PlayerView``, rule I1), as pictures: the seat, the face-up
    row, its own hand and tickets, the team's cardholders, the teammate's hand face down, and
    the public counts."""

    team = team_name(view.team)
    letter = team.split()[-1]
    mate = seat_name(view.teammate)
    board = view.board
    intro = (f'<div class="ttr-head"><span>Seat {_e(seat_name(view.seat))} ({_e(team)})</span>'
             f'<span class="ttr-sub">phase: {_e(view.phase.value)}; '
             f'{_e(seat_name(view.to_move))} to move</span></div>')
    table = (f"draw pile {view.draw_pile_size} cards · discard {len(view.discard)} · "
             f"unseen from this seat {len(view.unseen)} · ticket deck {view.ticket_deck_size} · "
             f"routes claimed {len(view.claimed)}")
    parts = [
        _root(f'<div class="ttr-frame">{intro}<div class="ttr-sub">{_e(table)}</div></div>'),
        card_row_html(list(view.face_up), title="Face-up cards",
                      labels=[f"slot {i}" for i in range(len(view.face_up))]),
        layout_html(
            hand_html(view.hand),
            cardholder_html(view.team_cardholder, letter),
            offlimits_html(view.hand_sizes[view.teammate], f"Teammate {mate}'s hand"),
            direction="row",
        ),
        layout_html(
            tickets_html([board.ticket(t) for t in view.tickets], "Your private tickets"),
            tickets_html([board.ticket(t) for t in view.team_tickets],
                         f"{team} ticket cardholder (shared)"),
            direction="row",
        ),
    ]
    if view.ticket_offer:
        parts.append(tickets_html([board.ticket(t) for t in view.ticket_offer],
                                  "Tickets on offer to you"))
    return layout_html(*parts)
