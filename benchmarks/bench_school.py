"""Benchmark: a school's class servers on one PostgreSQL (issue 23, "Figures").

Run:  .venv/bin/python benchmarks/bench_school.py [--moves 40]

The latency from a move to a seat waiting for it (long-poll): the time from just before one
seat posts its move to the moment another seat's waiting request returns with it. Three set-ups,
measured in the same run on a throw-away PostgreSQL cluster (``tests/server_harness.Postgres``):

1. baseline: one server on SQLite (the one-machine default), mover and waiter on it;
2. one server on PostgreSQL, mover and waiter on it;
3. two servers on one PostgreSQL, the move through one, the waiter on the other (the wake-up
   travels as NOTIFY; the waiting server then reads the log).

Printed: median and worst of each, and the ratios of the medians to the baseline. The machine
is shared (its load average is printed): read the ratios, not the milliseconds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
from server_harness import Postgres, postgres_bin, start_server  # noqa: E402


def latencies(mover_server, waiter_server, moves: int) -> list[float]:
    """Seconds from each move's POST (through ``mover_server``) to the return of a seat's
    long-poll on ``waiter_server``; the seats to move play their first legal action."""
    table = mover_server.new_table(players=4, seed=3)
    tid, seats = table["table"], table["seats"]

    def path(name: str) -> str:
        return f"/api/tables/{tid}/seats/{name}?key={seats[name]['key']}"

    found = []
    for _ in range(moves):
        public = mover_server.request("GET", f"/api/tables/{tid}/public")[1]
        mover = ["A1", "A2", "B1", "B2"][public["public"]["to_move"]]
        waiter = next(n for n in ("A1", "A2", "B1", "B2") if n != mover)
        body = mover_server.request("GET", path(mover))[1]
        version, done = body["version"], {}
        poll = f"{path(waiter)}&after={version}"

        def wait(after=poll, done=done):
            done["body"] = waiter_server.request("GET", after)[1]
            done["at"] = time.perf_counter()

        thread = threading.Thread(target=wait)
        thread.start()
        time.sleep(0.15)  # the waiter's request is waiting on its server
        sent = time.perf_counter()
        status, answer, _ = mover_server.request(
            "POST", path(mover).replace("?key", "/actions?key"), body["legal"][0])
        assert status == 200, answer
        thread.join(60)
        assert done["body"]["version"] > version, "the waiting seat was not woken"
        found.append(done["at"] - sent)
    return found


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args(argv)
    try:
        import psycopg  # noqa: F401
    except ImportError:
        print("bench_school: skipped, psycopg 3 is not installed (pip install -e '.[hub]')")
        return
    if not (postgres_bin("initdb") and postgres_bin("pg_ctl")):
        print("bench_school: skipped, PostgreSQL's initdb and pg_ctl are not on this machine")
        return
    cluster = Postgres()
    folder = Path(tempfile.mkdtemp(prefix="ttr-bench-school-"))
    servers = []
    try:
        lite = start_server(folder / "lite")
        url = cluster.new_database()
        one = start_server(folder / "one", args=["--db", url])
        (folder / "two").mkdir()
        (folder / "two" / "teacher-token").write_text((folder / "one" / "teacher-token")
                                                      .read_text())
        two = start_server(folder / "two", args=["--db", url])
        servers = [lite, one, two]
        results = {
            "one server, SQLite (baseline)": latencies(lite, lite, args.moves),
            "one server, PostgreSQL": latencies(one, one, args.moves),
            "move on one server, seat waiting on the other (PostgreSQL)":
                latencies(one, two, args.moves),
        }
    finally:
        for server in servers:
            server.stop()
        cluster.stop()
    base = statistics.median(next(iter(results.values())))
    print(f"load average {os.getloadavg()[0]:.2f}; {args.moves} moves each")
    for name, values in results.items():
        median = statistics.median(values)
        print(f"{name}: median {1000 * median:.1f} ms, worst {1000 * max(values):.1f} ms, "
              f"{median / base:.2f} x the baseline")


if __name__ == "__main__":
    main()
