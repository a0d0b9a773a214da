"""Benchmark: lesson 07's tournament pressed by a class at once on the classroom server (issue 24).

Run:  .venv/bin/python benchmarks/bench_lesson07.py [--class-sizes 1 4 30] [--own-sizes 1 4]
                         [--repeat 3] [--press-at 0] [--no-stop]

Results (2 cores shared with other work, 2 Dec 2026; the table and the reading are at the end of
``benchmarks/issue24_speed.md``, "Lesson 07 on the classroom server"): 30 learners on the
class's tournament had every result within 2.5-6.4 s (goal met), about one learner's time; the
same pressed while the class pool refills (60 s after the pages opened) 60-62 s (not met); with
seeds of their own, 4 learners 11 s and 30 learners 100 s (not met: ~4 CPU s a tournament).

For each N the classroom server starts on a free port with the project's config and a pool of N
kernels for ``07-test-a-strategy.ipynb`` (as ``make classroom CLASS_LESSON=... CLASS_SIZE=N``),
with a fresh empty result cache (``TTR_CACHE_DIR``, :mod:`ttrlib.result_cache`) so that the
first press really plays the games. Once the pool is ready and the machine quiet, N plain
sessions open the lesson at once (``bench_classroom.plain_session_states``: the page, the
kernel's websocket, every widget state). When they all have their widgets and the kernels are
quiet again, every session presses the tournament's **Run the tournament** button at the same
moment, as the page does: a ``comm_msg`` ``{"method": "custom", "content": {"event": "click"}}``
to that Button model's comm. A learner has the result when the tournament's output HTML model
(the widget's last child, empty until then) receives a non-empty value: ``StrategyTournament.run``
sets it after the games (``self.output.value = self.result._repr_html_()``).

Two cases:

* class: the lesson's default, every learner on tournament 1 (no ``?seed=``): played once,
  shared through the result cache, the others wait for it;
* own: ``?seed=<a number of their own>`` in each learner's address: N tournaments.

Printed per N: page load (median, max), press-to-result (median, max), the first answer of the
kernel to the click (the "Playing ..." message), the CPU seconds the kernels used from the press to
the last result (kernels, their process pools' workers included), the load average before and
after. Then the Stop button once (N = 1): Run, Stop after the first progress, and what the page
shows. The goal (issue 24): every learner's result within 10 s for 30 learners on the class's
tournament. Times on a shared 2-core machine are noisy: ``uptime`` is printed beside each figure.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_classroom as bc  # noqa: E402
import lab_harness as h  # noqa: E402
import psutil  # noqa: E402

LESSON = "07-test-a-strategy.ipynb"
RUN = "Run the tournament"  # ttrlib/widgets/tournament.py, StrategyTournament.run_button
GOAL_S = 10.0
OWN_SEED0 = 1000  # learner i of the "own" case opens ?seed=1000+i


# --- the tournament's widgets in the page's states ------------------------------------------------
def tournament_models(states: dict) -> dict[str, str]:
    """The model ids of StrategyTournament's Run and Stop buttons, progress bar, message and
    output, found as the page finds them: the Button whose description is the Run button's, the
    HBox holding it (run, stop, new seed, seed label) and the VBox holding that HBox (pickers,
    about, buttons, bar, message, output; see StrategyTournament.__init__)."""
    def children(mid: str) -> list[str]:
        return [c.removeprefix("IPY_MODEL_") for c in states[mid]["state"].get("children", [])]

    runs = [m for m, s in states.items() if s.get("model_name") == "ButtonModel"
            and s["state"].get("description") == RUN]
    if len(runs) != 1:
        raise RuntimeError(f"{len(runs)} buttons {RUN!r} in the page's widgets")
    run = runs[0]
    row = next(m for m in states if run in children(m))
    box = next(m for m in states if row in children(m))
    buttons, parts = children(row), children(box)
    ids = {"run": run, "stop": buttons[1], "bar": parts[3], "message": parts[4],
           "output": parts[5]}
    # If StrategyTournament's layout changes, say so rather than wait for a result that never
    # comes from the wrong model.
    kinds = {k: states[m]["model_name"] for k, m in ids.items()}
    expected = {"run": "ButtonModel", "stop": "ButtonModel", "bar": "IntProgressModel",
                "message": "HTMLModel", "output": "HTMLModel"}
    if kinds != expected or states[ids["stop"]]["state"].get("description") != "Stop":
        raise RuntimeError(f"StrategyTournament's widgets are not where this benchmark looks: "
                           f"{kinds}")
    return ids


def _click(session: str, comm_id: str) -> str:
    return bc._msg("comm_msg", session, {"comm_id": comm_id, "data": {
        "method": "custom", "content": {"event": "click"}}})


async def _updates(ws, timeout: float):
    """(seconds, comm id, state) of each widget update the kernel sends, until timeout."""
    end = time.monotonic() + timeout
    while True:
        raw = await asyncio.wait_for(ws.read_message(), max(0.1, end - time.monotonic()))
        if raw is None:
            raise RuntimeError("the kernel's websocket closed")
        if isinstance(raw, bytes):
            continue
        msg = json.loads(raw)
        content = msg.get("content", {})
        data = content.get("data", {})
        if msg.get("msg_type") == "comm_msg" and data.get("method") == "update":
            yield time.monotonic(), content.get("comm_id"), data.get("state", {})


def _text(value: str) -> str:
    """The words of a widget message (ttrlib.display.message_html), without its icon."""
    m = re.search(r'class="ttr-msg-text">(.*?)</span></div>', value, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", m.group(1) if m else value)).strip()


async def press_run(ws, ids: dict[str, str], timeout: float = 900) -> dict:
    """Press Run and wait for the result. Seconds from the press: ``ack`` (the kernel's
    "Playing ..." message: it handled the click), ``progress`` (first bar value > 0),
    ``result`` (the success message with the result's summary; ``run()`` fills the output table
    right after it, and a second press on the same games sends no new table, the value being
    unchanged); ``failed`` holds the message if it says anything else."""
    t0 = time.monotonic()
    ws.write_message(_click(uuid.uuid4().hex, ids["run"]))
    out = {"ack": None, "progress": None, "result": None, "failed": None}
    async for t, comm, state in _updates(ws, timeout):
        if comm == ids["message"] and "value" in state:
            words = _text(state["value"])
            if words.startswith("Playing"):
                out["ack"] = out["ack"] or t - t0
            elif "ttr-msg-success" in state["value"]:
                out["result"] = t - t0
                return out
            elif words:
                out["failed"] = words
                return out
        elif comm == ids["bar"] and state.get("value"):
            out["progress"] = out["progress"] or t - t0
    return out


# --- the kernels' CPU -----------------------------------------------------------------------------
def own_cpu(p: psutil.Process) -> float:
    """CPU seconds of this process alone (the server: its kernels are counted apart)."""
    t = p.cpu_times()
    return t.user + t.system


def wait_kernels_quiet(procs: list[psutil.Process], limit: float = 60) -> float:
    """Wait (at most ``limit`` s) until these processes use under 10 % of a core for 2 s."""
    t0, quiet = time.monotonic(), 0
    while time.monotonic() - t0 < limit and quiet < 2:
        before = h.cpu_seconds(procs)
        time.sleep(1)
        quiet = quiet + 1 if h.cpu_seconds(procs) - before < 0.1 else 0
    return time.monotonic() - t0


# --- the baseline: the same tournament in a plain process ----------------------------------------
BASELINE = """
import json, resource, sys, time
from ttrlib.experiments import PRESETS, tournament
from ttrlib.widgets.tournament import DEFAULT_GAMES
def cpu():
    return sum(getattr(resource.getrusage(w), f) for w in (resource.RUSAGE_SELF,
               resource.RUSAGE_CHILDREN) for f in ("ru_utime", "ru_stime"))
c0, t0 = cpu(), time.monotonic()
tournament([PRESETS["greedy"], PRESETS["odds-aware"]], games=DEFAULT_GAMES, seed=int(sys.argv[1]),
           progress=lambda d, t: None, cache=False)
print(json.dumps({"wall": time.monotonic() - t0, "cpu": cpu() - c0}))
"""


def baseline(seed: int = 1) -> dict:
    """One learner's tournament as the kernel plays it (the lesson's pair and games, a process
    pool over the cores, no cache), in a fresh process, without the server: wall and CPU
    seconds (the imports not counted), and the load at that moment."""
    import subprocess

    out = subprocess.run([sys.executable, "-c", BASELINE, str(seed)], capture_output=True,
                         text=True, check=True, cwd=ROOT)
    return {**json.loads(out.stdout.splitlines()[-1]), "load": bc.load()}


# --- one round --------------------------------------------------------------------------------------
async def class_round(n: int, own: bool, *, repeat: int = 1, press_at: float = 0,
                      stop_test: bool = False) -> dict:
    """Start the server with a pool of ``n``, open ``n`` sessions at once, press Run in all at
    once ``repeat`` times (the cache emptied before each), the first press ``press_at`` s after
    the pages were opened (0: as soon as the kernels are quiet)."""
    from tornado.httpclient import AsyncHTTPClient

    AsyncHTTPClient.configure(None, max_clients=max(10, n))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        cache = tmp / "cache"
        cache.mkdir()
        env = {"TTR_CLASS_LESSON": LESSON, "TTR_CLASS_SIZE": str(n), "TTR_CACHE_DIR": str(cache)}
        env.pop("TTR_SEED", None)
        base_line = baseline()
        t_start = time.monotonic()
        with h.classroom(tmp, env=env) as (base, proc):
            server = psutil.Process(proc.pid)
            waited = bc.wait_until_quiet(server, tmp / "classroom.log", LESSON, n)
            started = time.monotonic() - t_start
            url = f"{base}/voila/render/{LESSON}"
            urls = [f"{url}?seed={OWN_SEED0 + i}" if own else url for i in range(n)]
            load_open = bc.load()
            t_open = time.monotonic()
            loaded = await asyncio.gather(*(bc.plain_session_states(base, u) for u in urls),
                                          return_exceptions=True)
            # A page that fails (a learner would reload it) is counted and left out.
            opened = [x for x in loaded if not isinstance(x, BaseException)]
            page_errors = [f"{type(x).__name__}: {str(x)[:200]}" for x in loaded
                           if isinstance(x, BaseException)]
            if page_errors:
                log = (tmp / "classroom.log").read_text()
                print(f"{len(page_errors)} of {n} pages failed, e.g. {page_errors[0]!r}; the "
                      f"server's log ends:\n{log[-3000:]}", flush=True)
            if not opened:
                raise RuntimeError("no page opened")
            kernels = [psutil.Process(p.pid) for p in h.kernel_processes(server.pid)]
            settle = wait_kernels_quiet(kernels)
            ids = [tournament_models(states) for _, _, _, states in opened]
            if stop_test:
                out = await stop_round(opened[0][2], ids[0], cache)
            else:
                out = {"rounds": []}
                for i in range(repeat):
                    if i == 0 and press_at:
                        await asyncio.sleep(max(0.0, press_at - (time.monotonic() - t_open)))
                    for f in cache.glob("*.json"):
                        f.unlink()  # every round's first press plays the games
                    if i > 0:
                        wait_kernels_quiet(kernels)
                    out["rounds"].append(await press_all(opened, ids, kernels, server, cache,
                                                         time.monotonic() - t_open))
            for _, _, ws, _ in opened:
                ws.close()
        out.update(n=n, own=own, baseline=base_line, started=started, waited=waited, settle=settle,
                   load_open=load_open, kernels=len(kernels), pages=[t for t, *_ in opened],
                   page_errors=page_errors)
    return out


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (every process, ours and others')."""
    t = psutil.cpu_times()
    return t.user + t.nice + t.system + getattr(t, "irq", 0) + getattr(t, "softirq", 0)


async def press_all(opened, ids, kernels, server, cache: Path, since_open: float) -> dict:
    """Every session presses Run at the same moment; each one's seconds to its result."""
    load_press = bc.load()
    procs_now = len(h.kernel_processes(server.pid))
    known = {k.pid for k in kernels}

    def refill_cpu() -> float:
        # Kernels the server started since the pages opened (the pool refilling fill_delay s
        # after the class took its kernels).
        return h.cpu_seconds([k for k in h.kernel_processes(server.pid) if k.pid not in known])

    cpu0, srv0, all0, refill0 = h.cpu_seconds(kernels), own_cpu(server), machine_busy(), \
        refill_cpu()
    t0 = time.monotonic()
    presses = await asyncio.gather(*(press_run(ws, i) for (_, _, ws, _), i in zip(opened, ids)))
    wall = time.monotonic() - t0
    cpu, srv = h.cpu_seconds(kernels) - cpu0, own_cpu(server) - srv0
    refill = refill_cpu() - refill0
    return {"presses": presses, "wall": wall, "cpu": cpu, "server_cpu": srv, "refill_cpu": refill,
            "others_cpu": machine_busy() - all0 - cpu - srv - refill, "since_open": since_open,
            "kernel_procs": procs_now, "load_press": load_press, "load_after": bc.load(),
            "stored": len(list(cache.glob("*.json")))}


async def stop_round(ws, ids: dict[str, str], cache: Path) -> dict:
    """Run, then Stop at the first progress: what the page shows, and Run again after it."""
    session = uuid.uuid4().hex
    t0 = time.monotonic()
    ws.write_message(_click(session, ids["run"]))
    seen: dict = {"stop_at": None, "message": None, "stopped_after": None, "run_enabled": None}
    async for t, comm, state in _updates(ws, 300):
        if seen["stop_at"] is None and comm == ids["bar"] and state.get("value"):
            seen["stop_at"] = t - t0
            seen["bar_at_stop"] = state["value"]
            t_stop = t
            ws.write_message(_click(session, ids["stop"]))
        elif comm == ids["message"] and "value" in state:
            seen["message"] = _text(state["value"])
            if seen["stop_at"] is not None and not seen["message"].startswith("Playing"):
                seen["stopped_after"] = t - t_stop
        elif comm == ids["output"] and state.get("value"):
            seen["message"] = "the result came in spite of Stop"
            break
        elif comm == ids["run"] and state.get("disabled") is False:
            seen["run_enabled"] = t - t0
            break
    seen["stored_after_stop"] = len(list(cache.glob("*.json")))
    seen["again"] = await press_run(ws, ids)
    seen["stored_after_again"] = len(list(cache.glob("*.json")))
    return seen


# --- the report -------------------------------------------------------------------------------------
def stats(times: list[float]) -> str:
    if not times:
        return "-"
    return f"median {statistics.median(times):5.1f} s, max {max(times):5.1f} s"


def report(r: dict) -> None:
    kind = f"own seeds (?seed={OWN_SEED0}..)" if r["own"] else "the class's tournament (no ?seed)"
    print(f"\nN = {r['n']} learners, {kind}")
    b = r["baseline"]
    print(f"  baseline, just before: the same tournament in a plain process (no server, no "
          f"cache): {b['wall']:.1f} s, {b['cpu']:.1f} CPU s; {b['load']}")
    print(f"  server: pool of {r['n']} ready and quiet {r['started']:.0f} s after start; "
          f"{r['load_open']}")
    print(f"  page + widget states, {r['n']} at once: {stats(r['pages'])}; kernels quiet again "
          f"after {r['settle']:.0f} s")
    if r["page_errors"]:
        print(f"  pages that failed: {len(r['page_errors'])} of {r['n']} (left out below)")
    for k, rr in enumerate(r["rounds"], 1):
        p = rr["presses"]
        results = [x["result"] for x in p if x["result"] is not None]
        failed = [x["failed"] for x in p if x["failed"]]
        ok = len(results) == r["n"] and bool(results) and max(results) <= GOAL_S
        print(f"  press {k} ({rr['since_open']:.0f} s after the pages opened; "
              f"{rr['kernel_procs']} kernels on the server): result {stats(results)} "
              f"({len(results)} of {r['n']}{'; failed: ' + repr(failed[:3]) if failed else ''}"
              f"; {max(results) / b['wall'] if results else 0:.1f}x the baseline) "
              f"goal {'met' if ok else 'NOT met'}")
        print(f"    to the kernel's 'Playing': "
              f"{stats([x['ack'] for x in p if x['ack'] is not None])}; to the first progress: "
              f"{stats([x['progress'] for x in p if x['progress'] is not None])}")
        print(f"    CPU over those {rr['wall']:.1f} s: the learners' kernels {rr['cpu']:.1f} s, "
              f"server {rr['server_cpu']:.1f} s, kernels started since the pages opened (pool "
              f"refill) {rr['refill_cpu']:.1f} s, other processes of the machine "
              f"{rr['others_cpu']:.1f} s;"
              f" results stored: {rr['stored']}; {rr['load_press']} at the press")


def report_stop(r: dict) -> None:
    print(f"\nStop (N = 1, fresh cache): Run, then Stop at the first progress "
          f"({r['stop_at']:.1f} s after Run, bar at {r.get('bar_at_stop')})")
    after = r["stopped_after"]
    print(f"  the page then says: {r['message']!r}"
          f"{f' ({after:.1f} s after Stop)' if after is not None else ''}")
    run_on = r["run_enabled"]
    print(f"  Run enabled again: {f'{run_on:.1f} s after Run' if run_on is not None else 'no'};"
          f" results in the cache after the stop: {r['stored_after_stop']}")
    again = r["again"]
    took = f"{again['result']:.1f} s" if again["result"] is not None else "none"
    print(f"  Run again: result after {took} (failed: {again['failed']}); results "
          f"in the cache: {r['stored_after_again']}; {bc.load()}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--class-sizes", type=int, nargs="*", default=[1, 4, 30],
                    help="learners at once on the class's tournament")
    ap.add_argument("--own-sizes", type=int, nargs="*", default=[1, 4],
                    help="learners at once, each with a seed of their own")
    ap.add_argument("--repeat", type=int, default=3,
                    help="presses per server run (the cache emptied before each)")
    ap.add_argument("--press-at", type=float, default=0,
                    help="first press this many seconds after the pages opened (0: as soon as "
                         "the kernels are quiet; 70: while the pool refills, fill_delay 60 s)")
    ap.add_argument("--no-stop", action="store_true", help="skip the Stop button's try")
    args = ap.parse_args(argv)
    print(f"Lesson 07 on the classroom server: {os.cpu_count()} cores; {bc.load()}")
    for n in args.class_sizes:
        report(asyncio.run(class_round(n, own=False, repeat=args.repeat,
                                       press_at=args.press_at)))
    for n in args.own_sizes:
        report(asyncio.run(class_round(n, own=True, repeat=args.repeat, press_at=args.press_at)))
    if not args.no_stop:
        report_stop(asyncio.run(class_round(1, own=False, stop_test=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
