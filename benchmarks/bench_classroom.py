"""Benchmark: the classroom server (`make classroom`) when a class opens a lesson together.

Run:  .venv/bin/python benchmarks/bench_classroom.py [--sessions 1 10 30] [--browsers 10]
                                                     [--lesson 01-card-splits.ipynb] [--linger 120]
      .venv/bin/python benchmarks/bench_classroom.py --plain-gets 30 [--lessons 01-... 06-...]
                    [--rounds 1] [--config OTHER/classroom] [--baseline-env NAME=VALUE]

``--plain-gets N`` (issue 36) measures what a teacher sees when a class opens a lesson: the
server started as ``make classroom CLASS_LESSON=<lesson> CLASS_SIZE=N`` does, the pool filled
and idle, then N plain GETs of the lesson sent at once, each timed until the last byte of its
page (every page checked: its widget views there, no traceback). No websocket and no Chromium:
the server's side alone. ``--config`` runs the same round with another checkout's
``classroom/`` as well, and ``--baseline-env NAME=VALUE`` this checkout with a variable set
(``TTR_CLASSROOM_DATEUTIL=1``: the date parser before issue 36), each alternating with this
checkout round by round: before/after on one noisy machine. Beside the wall times it prints the
CPU seconds the server and its kernels spent on the round: on a shared machine the wall time
mostly says how loaded the machine is. The rounds below (Chromium pages, widget states) are
the default.

For each N the classroom server starts on a free port with the project's config
(``classroom/voila.py``) and a kernel pool sized for the class (``TTR_CLASS_LESSON`` = the
lesson, ``TTR_CLASS_SIZE`` = N, as ``make classroom CLASS_LESSON=... CLASS_SIZE=N`` does); once
the pool has started and the machine is quiet, N sessions open the lesson at the same moment:

* up to ``--browsers`` of them are real Chromium pages (one browser, one context each): the time
  is from ``goto`` until the first widget view (``.jupyter-widgets``) is visible;
* the others are plain page loads, what a page costs the server: the whole HTML page (Voila
  streams it while the notebook runs), the kernel's websocket opened, and every widget state
  received, as the page's widget manager asks for them (``request_states`` on the
  ``jupyter.widget.control`` comm).

Printed per N: first-widget seconds (median, max) for each kind, memory per kernel (USS, the
memory only that process holds; median) and in all (server + every kernel, USS), and how many
of the sessions' kernels are still alive ``--linger`` s after the sessions close. Chromium pages
close as a tab does (``beforeunload``: the page asks the server to shut its kernel down); plain
sessions just drop their connection, as a crashed tab or lost network does (the idle culler must
find those). Baseline, same run: one cold session (a server with preheating off, the config's
other settings unchanged); times are also shown as ratios to it. The goal (issue 10): every
session within 10 s for N = 30.

The machine's load average (``uptime``) is printed with every figure: on a shared machine the
times are noisy, and the Chromium pages run on the same 2 cores as the server (a class's
browsers run on the learners' machines), so they are an upper bound. The floor, printed first:
the same number of Chromium pages of a notebook holding one button, what Voila's front end alone
costs these cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import lab_harness as h  # noqa: E402
import psutil  # noqa: E402

WIDGET = ".jupyter-widgets"
GOAL_S = 10.0


def load() -> str:
    return "load average %.2f %.2f %.2f" % os.getloadavg()


# --- the server ---------------------------------------------------------------------------------
def uss_mb(proc: psutil.Process) -> float:
    try:
        return proc.memory_full_info().uss / 2**20
    except psutil.Error:
        return 0.0


def wait_until_quiet(server: psutil.Process, log: Path, lesson: str, pool: int,
                     timeout: float = 600) -> float:
    """Wait until the lesson's pool is started and the server and its kernels are idle
    (below 10 % of a core for 2 s in a row). Returns the seconds waited."""
    t0 = time.monotonic()
    filled = f"Kernel pool of {lesson} is filled with {pool} kernel(s)"
    quiet = 0
    while time.monotonic() - t0 < timeout:
        procs = [server, *h.kernel_processes(server.pid)]
        for p in procs:
            try:
                p.cpu_percent(None)
            except psutil.Error:
                pass
        time.sleep(1)
        busy = 0.0
        for p in procs:
            try:
                busy += p.cpu_percent(None)
            except psutil.Error:
                pass
        ready = pool == 0 or filled in log.read_text()
        quiet = quiet + 1 if ready and busy < 10 else 0
        if quiet >= 2:
            return time.monotonic() - t0
    raise RuntimeError(f"the server did not settle in {timeout} s (last: {busy:.0f} % of a core,"
                       f" pool ready: {ready}):\n{log.read_text()[-2000:]}")


# --- one plain session ----------------------------------------------------------------------------
def _msg(msg_type: str, session: str, content: dict, metadata: dict | None = None) -> str:
    return json.dumps({
        "header": {"msg_id": uuid.uuid4().hex, "username": "bench", "session": session,
                   "msg_type": msg_type, "version": "5.3",
                   "date": datetime.now(timezone.utc).isoformat()},
        "parent_header": {}, "metadata": metadata or {}, "content": content, "channel": "shell",
        "buffers": []})


async def plain_session(base: str, url: str) -> tuple[float, str, object]:
    """Load the page, connect to its kernel, get the widget states, as the page's widget
    manager does. Returns (seconds, kernel id, open websocket)."""
    seconds, kernel_id, ws, _states = await plain_session_states(base, url)
    return seconds, kernel_id, ws


async def plain_session_states(base: str, url: str) -> tuple[float, str, object, dict]:
    """:func:`plain_session`, with the widget states it received ({model id: {"model_name",
    "state", ...}}): what a benchmark needs to press the page's buttons (bench_lesson07.py)."""
    from tornado.httpclient import AsyncHTTPClient
    from tornado.websocket import websocket_connect

    t0 = time.monotonic()
    page = await AsyncHTTPClient().fetch(url, request_timeout=900)
    html = page.body.decode()
    config = re.search(r'<script id="jupyter-config-data" type="application/json">\s*(\{.*?\})\s*'
                       r'</script>', html, re.S)
    if config is None:
        raise RuntimeError(f"{url}: no kernel in the page:\n{html[-1500:]}")
    kernel_id = json.loads(config.group(1))["kernelId"]
    ws_url = base.replace("http", "ws", 1) + f"/api/kernels/{kernel_id}/channels"
    ws = await websocket_connect(ws_url, connect_timeout=600)
    states = await _widget_states(ws)
    if not states:
        raise RuntimeError(f"{url}: the kernel holds no widget")
    return time.monotonic() - t0, kernel_id, ws, states


async def _widget_states(ws) -> dict:
    """Ask the kernel for every widget state, as the page's widget manager does."""
    session, comm_id = uuid.uuid4().hex, uuid.uuid4().hex
    # ipywidgets refuses a control comm that does not name its protocol version.
    ws.write_message(_msg("comm_open", session, {"comm_id": comm_id, "data": {},
                                                  "target_name": "jupyter.widget.control"},
                          {"version": "1.0.0"}))
    ws.write_message(_msg("comm_msg", session, {"comm_id": comm_id,
                                                 "data": {"method": "request_states"}}))
    while True:
        raw = await asyncio.wait_for(ws.read_message(), 120)
        if raw is None:
            raise RuntimeError("the kernel's websocket closed before the widget states came")
        if isinstance(raw, bytes):
            continue
        msg = json.loads(raw)
        data = msg.get("content", {}).get("data", {})
        msg_type = msg.get("msg_type") or msg.get("header", {}).get("msg_type")
        if msg_type == "comm_msg" and data.get("method") == "update_states":
            return data.get("states", {})


# --- one Chromium page ---------------------------------------------------------------------------
async def browser_session(context, url: str) -> tuple[float, str, object]:
    page = await context.new_page()
    t0 = time.monotonic()
    await page.goto(url, timeout=900_000)
    await page.locator(WIDGET).first.wait_for(state="visible", timeout=900_000)
    seconds = time.monotonic() - t0
    kernel_id = await page.evaluate(h.KERNEL_ID_JS)
    return seconds, kernel_id, page


# --- one round ------------------------------------------------------------------------------------
async def open_sessions(base: str, lesson: str, n: int, n_browsers: int, browser):
    from tornado.httpclient import AsyncHTTPClient

    AsyncHTTPClient.configure(None, max_clients=max(10, n))
    url = f"{base}/voila/render/{lesson}"
    contexts = [await browser.new_context(viewport={"width": 1280, "height": 900})
                for _ in range(min(n, n_browsers))]
    tasks = [browser_session(c, url) for c in contexts]
    tasks += [plain_session(base, url) for _ in range(n - len(contexts))]
    results = await asyncio.gather(*tasks)
    browsers = results[:len(contexts)]
    plain = results[len(contexts):]
    return browsers, plain, contexts


async def close_sessions(browsers, plain, contexts) -> None:
    for _, _, page in browsers:
        await page.close(run_before_unload=True)  # the page's beforeunload: shut-down request
    for _, _, ws in plain:
        ws.close()  # a connection that just drops (crash, network): left to the culler
    await asyncio.sleep(2)  # let the beacons leave before the contexts go
    for c in contexts:
        await c.close()


# --- N plain GETs at once (issue 36) ----------------------------------------------------------------
WIDGET_VIEW = '"application/vnd.jupyter.widget-view+json"'


@contextmanager
def classroom_server(tmp: Path, env: dict, config: Path | None = None):
    """The classroom server as ``make classroom`` starts it (``lab_harness.classroom``), with
    ``config`` (another checkout's ``classroom/``) instead of this one's if given."""
    if config is None:
        with h.classroom(tmp, env=env) as served:
            yield served
        return
    folder, port = ROOT / "notebooks", h.free_port()
    cmd = h.classroom_command(folder, port, "--Voila.ip=127.0.0.1", config=config)
    base = f"http://127.0.0.1:{port}"
    with h._running(cmd, base + h.VOILA_PROBE, tmp / "classroom.log", cwd=folder,
                    env={**h._isolated_env(tmp), **env}) as proc:
        yield base, proc


async def _timed_get(url: str, t0: float) -> tuple[float, int, int, bool]:
    from tornado.httpclient import AsyncHTTPClient

    answer = await AsyncHTTPClient().fetch(url, request_timeout=900, raise_error=False)
    seconds = time.monotonic() - t0  # fetch returns with the whole body: the last byte
    page = answer.body.decode(errors="replace") if answer.body else ""
    ok = (answer.code == 200 and WIDGET_VIEW in page and "Traceback" not in page
          and "There was an error when executing cell" not in page)
    if not ok and os.environ.get("TTR_BENCH_KEEP_BAD"):  # a page to look at
        Path(os.environ["TTR_BENCH_KEEP_BAD"]).write_text(f"{answer.code} {answer.error}\n{page}")
    return seconds, len(answer.body or b""), page.count(WIDGET_VIEW), ok


async def plain_gets(base: str, lesson: str, n: int) -> list[tuple[float, int, int, bool]]:
    from tornado.httpclient import AsyncHTTPClient

    AsyncHTTPClient.configure(None, max_clients=max(10, n))
    t0 = time.monotonic()
    return await asyncio.gather(*[_timed_get(f"{base}/voila/render/{lesson}", t0)
                                  for _ in range(n)])


def plain_gets_round(lesson: str, n: int, config: Path | None, extra_env: dict) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        env = {"TTR_CLASS_LESSON": lesson, "TTR_CLASS_SIZE": str(n), **extra_env}
        with classroom_server(tmp, env, config) as (base, proc):
            server = psutil.Process(proc.pid)
            waited = wait_until_quiet(server, tmp / "classroom.log", lesson, n, timeout=1800)
            before = load()
            # CPU seconds: on a shared machine the wall time mostly says how loaded it is
            own0, all0 = _own_cpu(server), h.cpu_seconds([server])  # all: with its kernels
            pages = asyncio.run(plain_gets(base, lesson, n))
            own, cpu = _own_cpu(server) - own0, h.cpu_seconds([server]) - all0
    times = [t for t, *_ in pages]
    return {"times": times, "bytes": statistics.median(b for _, b, _, _ in pages),
            "views": sorted({v for _, _, v, _ in pages}), "bad": sum(not ok for *_, ok in pages),
            "waited": waited, "load": before, "cpu": cpu, "server_cpu": own}


def _own_cpu(proc: psutil.Process) -> float:
    t = proc.cpu_times()
    return t.user + t.system


def plain_gets_main(args) -> int:
    configs: list[tuple[str, Path | None, dict]] = [("this checkout", None, {})]
    if args.config:
        configs.insert(0, (f"--config {args.config}", Path(args.config).resolve(), {}))
    if args.baseline_env:
        name, _, value = args.baseline_env.partition("=")
        configs.insert(0, (args.baseline_env, None, {name: value}))
    print(f"{args.plain_gets} plain GETs at once of a pooled lesson, time to each page's last "
          f"byte; {os.cpu_count()} cores; {load()}")
    for lesson in args.lessons:
        for r in range(args.rounds):
            for name, config, extra_env in configs:
                got = plain_gets_round(lesson, args.plain_gets, config, extra_env)
                t = got["times"]
                print(f"{lesson} [{name}] round {r + 1}: median {statistics.median(t):5.1f} s, "
                      f"slowest {max(t):5.1f} s, first {min(t):5.1f} s; page "
                      f"{got['bytes'] / 1e3:.0f} kB, widget views {got['views']}, "
                      f"{got['bad']} pages without widgets or with an error; "
                      f"CPU {got['cpu']:.1f} s in all, {got['server_cpu']:.1f} s of it the "
                      f"server's (the rest its kernels'); pool idle after "
                      f"{got['waited']:.0f} s; {got['load']} before", flush=True)
    return 0


def stats(times: list[float]) -> str:
    if not times:
        return "-"
    return f"median {statistics.median(times):5.1f} s, max {max(times):5.1f} s"


FLOOR_LESSON = "00-one-button.ipynb"


def write_floor_lesson(folder: Path) -> None:
    """The cheapest page the classroom app can serve: a heading and one button widget. What N
    Chromium pages of it cost is the floor of Voila's own front end on this machine."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# One button"),
                nbformat.v4.new_code_cell("import ipywidgets as w\nw.Button(description='hi')")]
    nbformat.write(nb, folder / FLOOR_LESSON)


async def measure(lesson: str, n: int, n_browsers: int, linger: float, *, cold: bool = False,
                  folder: Path | None = None):
    from playwright.async_api import async_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        args = ("--VoilaConfiguration.preheat_kernel=False",) if cold else ()
        env = {"TTR_CLASS_LESSON": lesson, "TTR_CLASS_SIZE": str(n)}
        with h.classroom(tmp, folder=folder, args=args, env=env) as (base, proc):
            server = psutil.Process(proc.pid)
            waited = wait_until_quiet(server, tmp / "classroom.log", lesson, 0 if cold else n)
            kernels_before = len(h.kernel_processes(server.pid))
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=h.chromium_path(),
                                                  args=h.CHROMIUM_ARGS, headless=True)
                before = load()
                browsers, plain, contexts = await open_sessions(base, lesson, n, n_browsers,
                                                                browser)
                after = load()
                kernels = h.kernel_processes(server.pid)
                mem = sorted(uss_mb(k) for k in kernels)
                total = uss_mb(server) + sum(mem)
                await close_sessions(browsers, plain, contexts)
                await browser.close()
            ids = [k for _, k, _ in browsers + plain]
            left = None
            if linger > 0:
                await asyncio.sleep(linger)
                left = sum(h.kernel_alive(base, k) for k in ids)
            iopub = (tmp / "classroom.log").read_text().count("Timeout waiting for IOPub output")
    return {
        "n": n, "browser": [t for t, _, _ in browsers], "plain": [t for t, _, _ in plain],
        "kernels": len(kernels), "kernels_before": kernels_before,
        "mem_median": statistics.median(mem) if mem else 0.0, "mem_total": total,
        "left": left, "waited": waited, "load_before": before, "load_after": after,
        "iopub_timeouts": iopub,
    }


def report(r: dict, baseline: float | None, linger: float) -> None:
    everyone = r["browser"] + r["plain"]
    ratio = (f" = {max(everyone) / baseline:4.1f}x the cold session"
             if baseline and everyone else "")
    print(f"\nN = {r['n']} sessions at once (server settled {r['waited']:.0f} s after start;"
          f" {r['kernels_before']} kernels waiting)")
    print(f"  Chromium pages ({len(r['browser'])}): first widget {stats(r['browser'])}")
    print(f"  plain loads    ({len(r['plain'])}): page + widget states {stats(r['plain'])}")
    ok = all(t <= GOAL_S for t in everyone)
    print(f"  all sessions: max {max(everyone):.1f} s{ratio}; goal <= {GOAL_S:.0f} s each:"
          f" {'met' if ok else 'NOT met'}")
    print(f"  memory: {r['kernels']} kernels, {r['mem_median']:.0f} MB each (median USS), "
          f"{r['mem_total']:.0f} MB in all with the server")
    if r["left"] is not None:
        print(f"  kernels of these sessions still alive {linger:.0f} s after they closed: "
              f"{r['left']} of {len(everyone)}")
    print(f"  'Timeout waiting for IOPub output' in the log: {r['iopub_timeouts']}")
    print(f"  {r['load_before']} before, {r['load_after']} after opening")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, nargs="+", default=[1, 10, 30])
    ap.add_argument("--browsers", type=int, default=10, help="real Chromium pages per round")
    ap.add_argument("--lesson", default="01-card-splits.ipynb")
    ap.add_argument("--linger", type=float, default=120,
                    help="seconds to wait after closing before counting live kernels (0: skip)")
    ap.add_argument("--no-floor", action="store_true",
                    help="skip the floor: --browsers Chromium pages of a one-button notebook")
    ap.add_argument("--plain-gets", type=int, default=0, metavar="N",
                    help="only N plain GETs at once of each --lessons (issue 36's measure)")
    ap.add_argument("--lessons", nargs="+", default=["01-card-splits.ipynb",
                                                     "06-play-a-team-game.ipynb"])
    ap.add_argument("--rounds", type=int, default=1, help="--plain-gets rounds per lesson")
    ap.add_argument("--config", help="--plain-gets: also another checkout's classroom/ folder")
    ap.add_argument("--baseline-env", metavar="NAME=VALUE",
                    help="--plain-gets: also this checkout with NAME=VALUE in the server's "
                         "environment, e.g. TTR_CLASSROOM_DATEUTIL=1 (the old date parser)")
    args = ap.parse_args(argv)
    if args.plain_gets:
        return plain_gets_main(args)
    if h.chromium_path() is None:
        print(h.INSTALL_HINT)
        return 1
    print(f"Classroom benchmark: lesson {args.lesson}, {os.cpu_count()} cores; {load()}")
    print("Times on a shared machine are noisy; Chromium runs on the server's cores.")
    cold = asyncio.run(measure(args.lesson, 1, 1, 0, cold=True))
    baseline = cold["browser"][0]
    print(f"\nbaseline: one cold session (no preheating): first widget {baseline:.1f} s; "
          f"{cold['load_before']}")
    if not args.no_floor and args.browsers > 1:
        with tempfile.TemporaryDirectory() as folder:
            write_floor_lesson(Path(folder))
            floor = asyncio.run(measure(FLOOR_LESSON, args.browsers, args.browsers, 0,
                                        folder=Path(folder)))
        print(f"\nfloor: {args.browsers} Chromium pages of a one-button notebook at once: first "
              f"widget {stats(floor['browser'])} (Voila's own front end, on the server's cores; "
              f"{floor['load_before']})")
    for n in args.sessions:
        report(asyncio.run(measure(args.lesson, n, args.browsers, args.linger)), baseline,
               args.linger)
    return 0


if __name__ == "__main__":
    sys.exit(main())
