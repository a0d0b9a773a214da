"""A table's learners opening their seats together (issue 32 item 3): how long until each seat
of lesson 08 is playable, with the classroom as plain ``make classroom`` starts it.

    .venv/bin/python benchmarks/bench_table_seats.py [--pools 1 4] [--players 4] [--rounds 1]

For each lesson-08 pool size (``TTR_TABLE_POOL``: 1 is the classroom before issue 32, one
waiting kernel per lesson; 4 is `make classroom`'s ``TABLE_POOL`` now) a fresh class server and
a fresh classroom app serving every lesson, a table of ``--players`` seats made through the API,
the pools filled and the machine quiet, then every seat's link opened at once as a plain session
(the page to its last byte, its kernel's websocket, the widget states, as the page's widget
manager asks for them). A seat counts as playable when its kernel holds the game's widgets and
its page says which seat it is ("You are A1 ...", the lesson's first line once it sat down). Printed: each seat's seconds, the median and the
slowest, the CPU seconds of the round, the load average. Plain sessions, not Chromium pages:
on 2 cores ten Chromium pages take about 10 s even for an empty page.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import lab_harness as h  # noqa: E402
import psutil  # noqa: E402
from bench_classroom import _widget_states, load, wait_until_quiet  # noqa: E402
from server_harness import free_port, start_server  # noqa: E402

LESSON = "08-play-at-a-table.ipynb"


async def open_seat(base: str, seat: str, link: str) -> tuple[float, bool]:
    """One learner opening their link: the page to its last byte, then the kernel's widget
    states over its websocket. Returns (seconds, whether the page says "You are <seat>" and
    holds widgets)."""
    from tornado.httpclient import AsyncHTTPClient
    from tornado.websocket import websocket_connect

    t0 = time.monotonic()
    html = (await AsyncHTTPClient().fetch(link, request_timeout=900)).body.decode()
    config = re.search(r'<script id="jupyter-config-data" type="application/json">\s*(\{.*?\})'
                       r'\s*</script>', html, re.S)
    if config is None:
        raise RuntimeError(f"{seat}: no kernel in the page:\n{html[-1500:]}")
    kernel_id = json.loads(config.group(1))["kernelId"]
    ws = await websocket_connect(base.replace("http", "ws", 1) +
                                 f"/api/kernels/{kernel_id}/channels", connect_timeout=600)
    states = await _widget_states(ws)
    ws.close()
    return time.monotonic() - t0, bool(states) and f"You are {seat} " in html


async def open_seats(links: dict[str, str], base: str) -> dict[str, tuple[float, bool]]:
    from tornado.httpclient import AsyncHTTPClient

    AsyncHTTPClient.configure(None, max_clients=10)
    got = await asyncio.gather(*[open_seat(base, s, link) for s, link in links.items()])
    return dict(zip(links, got))


def one_round(pool: int, players: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        port = free_port()
        env = {"TTR_CLASS_SERVER": f"http://127.0.0.1:{port}", "TTR_TABLE_POOL": str(pool)}
        with h.classroom(tmp, env=env) as (base, proc):
            server = start_server(tmp / "data", port, args=("--lessons", base))
            try:
                status, made, _ = server.request("POST", "/api/tables", {"players": players},
                                                 token=server.token)
                assert status == 201, made
                voila = psutil.Process(proc.pid)
                waited = wait_until_quiet(voila, tmp / "classroom.log", LESSON, pool,
                                          timeout=1800)
                before = load()
                cpu0 = h.cpu_seconds([voila])
                t0 = time.monotonic()
                seats = asyncio.run(open_seats(
                    {name: seat["link"] for name, seat in made["seats"].items()}, base))
                wall = time.monotonic() - t0
                cpu = h.cpu_seconds([voila]) - cpu0
            finally:
                server.stop()
    return {"seats": seats, "wall": wall, "cpu": cpu, "waited": waited, "load": before}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pools", type=int, nargs="+", default=[1, 4])
    ap.add_argument("--players", type=int, default=4, choices=(4, 6))
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"{args.players} seats of lesson 08 opened at once; {os.cpu_count()} cores; {load()}")
    for r in range(args.rounds):
        for pool in args.pools:
            got = one_round(pool, args.players)
            times = [t for t, _ in got["seats"].values()]
            named = sum(ok for _, ok in got["seats"].values())
            each = ", ".join(f"{s} {t:.1f} s" for s, (t, _) in got["seats"].items())
            print(f"round {r + 1}, lesson-08 pool {pool}: median {statistics.median(times):.1f} s,"
                  f" slowest {max(times):.1f} s ({each}); {named} of {len(times)} seats named "
                  f"on their page; CPU {got['cpu']:.1f} s (server and kernels); pools quiet "
                  f"after {got['waited']:.0f} s; {got['load']} before", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
