"""The odds explorer's panels (lesson 05): the exact law's facts, the simulation beside the
exact probabilities, and the picture of the largest gap shrinking as the trials add up. Each
takes plain numbers and returns an HTML fragment (or a PNG data: URL)."""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from ..words import percent
from .frames import layout_html

EXPLORER_CSS = """<style>
.ttr-ox-facts { display: flex; flex-direction: column; gap: 6px; max-width: 430px; }
.ttr-ox-facts p { margin: 0; }
.ttr-ox-big { font-size: 15px; }
.ttr-ox-big b { font-size: 16px; }
.ttr-ox-formula { font-family: var(--jp-code-font-family, "DejaVu Sans Mono", monospace);
  font-size: 12px; opacity: 0.9; overflow-wrap: anywhere; }
.ttr-ox-table { border-collapse: collapse; font-size: 12.5px; }
.ttr-ox-table th, .ttr-ox-table td { padding: 3px 7px; text-align: right;
  border-bottom: 1px solid rgba(128,128,128,0.35); }
.ttr-ox-table th { font-weight: 600; border-bottom: 2px solid rgba(128,128,128,0.6); }
.ttr-ox-table td.ttr-ox-k { text-align: center; font-weight: 700; }
.ttr-ox-sub { font-size: 11px; opacity: 0.75; }
.ttr-ox-fig { border-radius: 8px; box-shadow: 0 0 0 1px rgba(128,128,128,0.45);
  background: #ffffff; }
.ttr-ox-note { font-size: 12px; opacity: 0.85; max-width: 720px; }
</style>"""


def sub_html(text: str) -> str:
    """A small note beside a control (``text`` is markup of this module's callers)."""
    return f"<span class='ttr-ox-sub'>{text}</span>"


def _gap(x: float) -> str:
    """A signed gap in percentage points, without a "-0.000"."""
    return "0.000" if abs(x) < 0.0005 else f"{x:+.3f}"


def _short(v: float) -> str:
    """A trial count for an axis label: 100, 1k, 10k, 100k, 1M."""
    for size, suffix in ((1_000_000, "M"), (1_000, "k")):
        if v >= size:
            return f"{v / size:g}{suffix}"
    return f"{v:g}"


def law_facts_html(story: str, p0_words: str, formula: str, p0: Fraction, mean: Fraction,
                   mean_formula: str, at_least_2_words: str) -> str:
    """What the exact law says: where the cards come from (``story``, markup), P(no extra
    card) with its formula, the mean with its formula, and P(at least 2)."""
    return (
        EXPLORER_CSS + "<div class='ttr-ox-facts'>"
        f"<p>{story}</p>"
        f"<p class='ttr-ox-big'>P(no extra card) = <b>{html.escape(p0_words)}</b></p>"
        f"<p class='ttr-ox-formula'>{formula} = {p0}</p>"
        f"<p class='ttr-ox-big'>Mean: <b>{float(mean):.4f}</b> extra cards "
        f"<span class='ttr-ox-formula'>= {mean_formula} = {mean}</span></p>"
        f"<p>P(at least 2 extra cards) = {html.escape(at_least_2_words)}</p>"
        "</div>")


def simulation_table_html(probs: Sequence[Fraction], counts: Sequence[int], seed: int,
                          run: int) -> str:
    """Each count k of extra cards: its exact chance beside its simulated frequency."""
    total = int(sum(counts))
    rows = []
    for k, (p, c) in enumerate(zip(probs, counts)):
        f = int(c) / total
        rows.append(
            f"<tr><td class='ttr-ox-k'>{k}</td><td>{p}</td><td>{percent(p, 2)}</td>"
            f"<td>{int(c):,}</td><td>{percent(f, 2)}</td>"
            f"<td>{_gap(100 * (f - float(p)))}</td></tr>")
    table = (
        "<table class='ttr-ox-table'><thead><tr><th>k</th><th>exact P</th><th>exact %</th>"
        "<th>simulated</th><th>simulated %</th><th>gap (points)</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        f"<div class='ttr-ox-sub'>{total:,} simulated reveals &middot; seed {seed}, "
        f"run {run + 1}</div>")
    return (f"{EXPLORER_CSS}<div class='ttr-frame'><div class='ttr-head'>Simulated vs exact</div>"
            f"{table}</div>")


def convergence_html(png: str | None, cells: int, z: float) -> str:
    """The picture of the largest gap (``convergence_png``) and how to read it, or why there
    is none (a certain law)."""
    if png is None:
        return ("<div style='width:400px'><div class='ttr-ox-note'>The law is certain (every "
                "reveal gives the same count), so there is no gap to shrink.</div></div>")
    return (f"<div style='width:400px'><img class='ttr-ox-fig' width='400' alt='largest gap "
            f"between simulated and exact probabilities against the number of trials' "
            f"src='{png}'/><div class='ttr-ox-note'>Each dot is the largest of the "
            f"{cells} gaps between a simulated frequency and its exact probability after that "
            "many trials. The shaded funnel is a 99% band for that largest gap "
            f"({z:.3f} standard deviations of the widest cell, so that all {cells} gaps stay "
            "inside together with probability 99%); it narrows like 1/&radic;trials, and "
            "the dots narrow with it: the experiment converges to the formula.</div></div>")


def simulation_html(verdict: str, maths: str, table: str, picture: str) -> str:
    """The verdict (a message fragment) with its statistics folded under it, then the table
    beside the picture."""
    verdict += ("<details class='ttr-ox-note'><summary>For the curious: the statistics"
                f"</summary>{html.escape(maths)}</details>")
    return layout_html(verdict, layout_html(table, picture, direction="row"),
                       direction="column")


def convergence_png(history: list[tuple[int, float, float]]) -> str | None:
    """The largest gap against the number of trials (log x-axis) with its 99% band, as a
    data: URL (PNG, drawn without pyplot so no global figure state is touched)."""
    if not history or max(b for _, _, b in history) == 0:
        return None
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    n = np.array([h[0] for h in history], dtype=float)
    gap = np.array([h[1] for h in history]) * 100
    band = np.array([h[2] for h in history]) * 100
    fig = Figure(figsize=(4.4, 3.0), dpi=100)
    fig.patch.set_facecolor("#ffffff")
    ax = fig.add_subplot()
    ax.fill_between(n, 0, band, color="#3d85c6", alpha=0.16, linewidth=0,
                    label="99% band")
    ax.plot(n, band, color="#3d85c6", linewidth=1, linestyle="--")
    ax.plot(n, gap, color="#e8710a", marker="o", markersize=4, linewidth=1.4,
            label="largest |simulated \u2212 exact|")
    ax.axhline(0, color="#555555", linewidth=0.8)
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(base=10))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: _short(v)))
    ax.set_xlim(n[0] / 1.15, n[-1] * 1.15)
    ax.set_ylim(0, 1.08 * max(band.max(), gap.max()))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:g}"))
    ax.set_xlabel("trials (log scale)")
    ax.set_ylabel("gap (percentage points)")
    ax.set_title("The experiment converges to the formula", fontsize=11)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="upper right", fontsize=9, frameon=False)
    fig.subplots_adjust(left=0.16, right=0.97, bottom=0.16, top=0.9)  # cheaper than tight
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=150, facecolor=fig.get_facecolor())
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")
