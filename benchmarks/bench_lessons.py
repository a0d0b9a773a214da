"""Benchmark: how fast the lessons answer, in the kernel and as whole notebooks.

Run:  .venv/bin/python benchmarks/bench_lessons.py [--repeats N] [--no-kernel] [--no-notebooks]

What it measures:

(a) Widget clicks handled in the kernel: ``time.perf_counter`` around ``button.click()`` (the
    handler the front end triggers), each click on a fresh widget built from an exact position
    (``Game.from_position``), over ``--repeats`` widgets:

    * CardSplitStepper: draw (first card from the deck), place (to the hand), draw the second
      card, take a face-up card;
    * TunnelClaimStepper: choose a route (the dropdown: payments and exact odds are computed),
      claim (lay down the cards: the tunnel reveal), reveal (turn one card), pay.

    Baseline, same run: a bare ``ipywidgets.Button`` whose handler does nothing (the ratio column
    is against it); a second reference row is a button whose handler sets one ``HTML`` value
    (one widget update). Goal: median <= 20 ms per click. By default the clicks run inside a real ipykernel (started with
    jupyter_client), where each widget change is also sent as a comm message; the same
    measurement in this plain Python process follows for comparison (``--no-kernel`` keeps only
    that one).

(b) Seconds to execute each lesson ``notebooks/[0-9][0-9]-*.ipynb`` headless with nbclient, on a
    fresh kernel each. Baseline, same run: executing an empty notebook (kernel start-up and
    shut-down only). Goal: <= 30 s per notebook.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GOAL_CLICK_MS = 20.0
GOAL_NOTEBOOK_S = 30.0
PATTERN = "notebooks/[0-9][0-9]-*.ipynb"


# --- (a) clicks ---------------------------------------------------------------------------------
def measure_clicks(repeats: int = 200) -> dict[str, list[float]]:
    """Milliseconds per click, by action. Runs wherever it is called (here or in a kernel)."""
    import ipywidgets as w

    from ttrlib import CardCounts, Game
    from ttrlib.widgets import CardSplitStepper
    from ttrlib.widgets.tunnel_claim import TunnelClaimStepper

    perf = time.perf_counter
    out: dict[str, list[float]] = {}

    def timed(name: str, fn) -> None:
        t0 = perf()
        fn()
        out.setdefault(name, []).append((perf() - t0) * 1000)

    def split_game() -> Game:
        return Game.from_position(
            seed=3, hands=[CardCounts(red=2), CardCounts(green=2), CardCounts(black=1),
                           CardCounts()],
            cardholders=[CardCounts(blue=1), CardCounts()],
            face_up=["locomotive", "red", "blue", "locomotive", "green"],
            draw_pile=["yellow", "white", "black", "orange", "purple", "red", "red"])

    def tunnel_game() -> Game:
        # the top of the pile is revealed by Kathmandu - Lhasa (5 cards): 2 match red
        return Game.from_position(
            seed=0, hands=[CardCounts(red=3, blue=1, locomotive=1), CardCounts(green=2, white=2),
                           CardCounts(black=2, yellow=2), CardCounts(orange=3, purple=1)],
            cardholders=[CardCounts(red=1, blue=2, locomotive=1), CardCounts(white=2)],
            face_up=["green", "purple", "white", "orange", "black"],
            draw_pile=["red", "green", "locomotive", "white", "black", "yellow"])

    # baseline: a bare button with a no-op handler (warm up once)
    for i in range(repeats + 1):
        b = w.Button(description="baseline")
        b.on_click(lambda _b: None)
        if i:
            timed("baseline: bare Button, no-op handler", b.click)
        else:
            b.click()
    for i in range(repeats + 1):  # a second reference: one widget update (one comm message)
        html = w.HTML()
        b = w.Button(description="reference")
        b.on_click(lambda _b, html=html: setattr(html, "value", f"<b>{time.time()}</b>"))
        if i:
            timed("reference: Button setting one HTML value", b.click)
        else:
            b.click()

    for i in range(repeats + 1):
        s = CardSplitStepper(split_game())
        record = (lambda name, fn: timed(name, fn)) if i else (lambda name, fn: fn())
        record("CardSplitStepper draw (deck, 1st card)", s.deck.click)
        record("CardSplitStepper place (to hand)", s.to_hand.click)
        record("CardSplitStepper draw (deck, 2nd card)", s.deck.click)
        s = CardSplitStepper(split_game())
        record("CardSplitStepper draw (face-up card)", s.take[1].click)
        assert "You drew this card" in s.message_text, s.message_text

    for i in range(repeats + 1):
        t = TunnelClaimStepper(tunnel_game())
        record = (lambda name, fn: timed(name, fn)) if i else (lambda name, fn: fn())
        record("TunnelClaimStepper choose route (odds)",
               lambda t=t: setattr(t.route, "value", "kathmandu-lhasa-1"))
        record("TunnelClaimStepper claim (lay down)", t.lay_down.click)
        assert "Cards laid down" in t.message_text, t.message_text
        for _ in range(5):
            record("TunnelClaimStepper reveal (turn a card)", t.turn_next.click)
        assert "2 revealed card(s) match" in t.message_text, t.message_text
        record("TunnelClaimStepper pay", t.pay.click)
        assert "the tunnel is yours" in t.message_text, t.message_text
    return out


def clicks_in_kernel(repeats: int) -> dict[str, list[float]]:
    """Run ``measure_clicks`` inside a fresh ipykernel and bring the timings back."""
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3")
    try:
        code = textwrap.dedent(f"""
            import sys, json
            sys.path.insert(0, {str(ROOT / 'benchmarks')!r})
            import bench_lessons
            print("BENCH" + json.dumps(bench_lessons.measure_clicks({repeats})))
        """)
        chunks: list[str] = []
        errors: list[str] = []

        def hook(msg):
            if msg["msg_type"] == "stream":
                chunks.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                errors.append("\n".join(msg["content"]["traceback"]))

        reply = kc.execute_interactive(code, timeout=1800, output_hook=hook)
        if reply["content"]["status"] != "ok" or errors:
            raise RuntimeError("the click benchmark failed in the kernel:\n" + "\n".join(errors))
        text = "".join(chunks)
        return json.loads(text[text.index("BENCH") + 5:].splitlines()[0])
    finally:
        kc.stop_channels()
        km.shutdown_kernel()


def _pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 \
        else values[0]


def report_clicks(title: str, data: dict[str, list[float]]) -> bool:
    base_name = next(k for k in data if k.startswith("baseline"))
    base = statistics.median(data[base_name])
    print(f"  {title}")
    print(f"    {'click':42s} {'n':>5s} {'median ms':>10s} {'p90 ms':>8s} {'x baseline':>11s}  goal")
    ok = True
    for name, values in data.items():
        med, p90 = statistics.median(values), _pct(values, 90)
        ratio = med / base if base else float("inf")
        if name == base_name or name.startswith("reference"):
            verdict = ""
        else:
            met = med <= GOAL_CLICK_MS
            ok &= met
            verdict = "MET" if met else "NOT MET"
        print(f"    {name:42s} {len(values):5d} {med:10.3f} {p90:8.3f} {ratio:11.1f}  {verdict}")
    print()
    return ok


# --- (b) notebooks ------------------------------------------------------------------------------
def execute_seconds(nb, folder: Path) -> float:
    from nbclient import NotebookClient

    client = NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}})
    t0 = time.perf_counter()
    client.execute()
    return time.perf_counter() - t0


def report_notebooks(repeats: int) -> bool:
    import nbformat

    paths = sorted(ROOT.glob(PATTERN))
    def empty():
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                     "language": "python"}
        return nb

    execute_seconds(empty(), ROOT / "notebooks")  # warm-up: imports, file caches
    base = statistics.median(execute_seconds(empty(), ROOT / "notebooks") for _ in range(3))
    print(f"  (b) notebooks executed headless with nbclient, fresh kernel each "
          f"(median of {repeats})")
    print(f"    {'notebook':34s} {'seconds':>8s} {'minus start-up':>15s} {'x baseline':>11s}  goal")
    print(f"    {'baseline: empty notebook':34s} {base:8.2f} {0:15.2f} {1:11.1f}")
    ok = True
    if not paths:
        print(f"    no notebook matches {PATTERN}")
        return False
    for p in paths:
        times = [execute_seconds(nbformat.read(p, as_version=4), p.parent) for _ in range(repeats)]
        sec = statistics.median(times)
        met = sec <= GOAL_NOTEBOOK_S
        ok &= met
        print(f"    {p.name:34s} {sec:8.2f} {sec - base:15.2f} {sec / base:11.1f}  "
              f"{'MET' if met else 'NOT MET'}")
    print()
    return ok


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200,
                        help="fresh widgets per click measurement (200)")
    parser.add_argument("--notebook-repeats", type=int, default=1,
                        help="executions per notebook; the median is printed (1)")
    parser.add_argument("--no-kernel", action="store_true",
                        help="measure clicks in this process only, not in an ipykernel")
    parser.add_argument("--no-notebooks", action="store_true", help="skip part (b)")
    args = parser.parse_args(argv)

    print(f"ttrlib lesson benchmark; python {sys.version.split()[0]}; goals: click median <= "
          f"{GOAL_CLICK_MS:g} ms, notebook <= {GOAL_NOTEBOOK_S:g} s")
    print()
    print(f"  (a) widget clicks handled in the kernel ({args.repeats} fresh widgets per click)")
    ok = True
    if not args.no_kernel:
        ok &= report_clicks("in an ipykernel (comm messages sent):", clicks_in_kernel(args.repeats))
    ok &= report_clicks("in this Python process (no kernel):", measure_clicks(args.repeats))
    if not args.no_notebooks:
        ok &= report_notebooks(args.notebook_repeats)
    print(f"  all goals {'MET' if ok else 'NOT MET'}")


if __name__ == "__main__":
    main()
