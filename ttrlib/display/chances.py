"""Chances: a probability distribution as a bar chart with exact fractions and percentages."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..words import percent
from .frames import escape, frame, root


def _exact(p: Any) -> Fraction | None:
    if isinstance(p, Fraction):
        return p
    if isinstance(p, int) and not isinstance(p, bool):
        return Fraction(p)
    return None


def _frac_text(p: Any) -> str:
    f = _exact(p)
    return str(f) if f is not None else f"{float(p):.6g}"


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
        return root(frame(body, title) if title is not None else body, extra="ttr-dist")
    ks = list(range(support[0], support[-1] + 1))
    probs = {k: pmf.get(k, 0) for k in ks}
    pmax = max(float(v) for v in probs.values())

    # slot width from the longest number to be written
    longest = 0
    for k, v in probs.items():
        f = _exact(v)
        texts = [str(f.numerator), str(f.denominator)] if f is not None else [_frac_text(v)]
        texts += [percent(float(v)), f"{xlabel} = {k}"]
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
        tip = f"P({xlabel} = {k}) = {_frac_text(v)} \u2248 {percent(pf)}"
        if pf > 0:
            out.append(
                f'<rect class="ttr-bar" x="{cx - bw / 2:.1f}" y="{ytop:.1f}" width="{bw}" '
                f'height="{max(h, 1.0):.1f}" rx="2"><title>{escape(tip)}</title></rect>'
            )
        else:
            out.append(
                f'<rect class="ttr-bar-zero" x="{cx - bw / 2:.1f}" y="{base - 2}" width="{bw}" '
                f'height="2"><title>{escape(tip)}</title></rect>'
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
                f'font-size="12" text-anchor="middle">{escape(_frac_text(v))}</text>'
            )
        out.append(
            f'<text x="{cx:.1f}" y="{base + 16}" fill="currentColor" font-size="12" '
            f'font-weight="700" text-anchor="middle">{escape(xlabel)} = {k}</text>'
            f'<text x="{cx:.1f}" y="{base + 31}" fill="currentColor" fill-opacity="0.8" '
            f'font-size="11.5" text-anchor="middle">{escape(percent(pf))}</text>'
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
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(desc)}">'
        f"<title>{escape(desc)}</title>{''.join(out)}</svg>"
    )
    approx = "=" if is_exact else "\u2248"
    mean_line = (
        f'<div class="ttr-mean">Mean (expected value): <b>{escape(mean_text)}</b>'
        + (f" {approx} {escape(dec)}" if mean_text != dec else "")
        + "</div>"
    )
    body = svg + mean_line
    if title is not None:
        body = frame(body, title)
    return root(body, extra="ttr-dist")
