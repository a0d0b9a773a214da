"""One seat of a class table played through the JSON API alone, as any outside client would:
long-poll for the next version, and on the seat's move let a ``GreedyBot`` choose from the view
read back with ``ttrlib.plain``. Every body received is written to a JSON-lines file, so a test
can compare each with a local replay of the log.

``python tests/table_client.py URL TABLE SEAT KEY OUT [--moves N]`` plays until the game is over
(or until it has made N moves); exit status 0. Used by the tests and benchmarks/bench_tables.py.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.error
import urllib.request

from ttrlib.board import teaching_board
from ttrlib.bots import GreedyBot
from ttrlib.plain import action_from_plain, to_plain
from ttrlib.plain_views import event_from_plain, view_from_plain

SEAT_NAMES = ["A1", "A2", "B1", "B2", "C1", "C2"]


def call(url: str, method: str = "GET", body=None, timeout: float = 60):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def play(url: str, table: str, seat: str, key: str, out, moves: int | None = None,
         seed: int = 0, retry_s: float = 0.0) -> int:
    """Play ``seat`` to the end (or ``moves`` moves); returns the moves made. With
    ``retry_s``, a server that does not answer is asked again for that long (a restart)."""
    board = teaching_board()
    bot = GreedyBot(seed=seed)
    base = f"{url}/api/tables/{table}/seats/{seat}"
    version, events, made = -1, [], 0
    while moves is None or made < moves:
        try:
            wait = f"&after={version}" if version >= 0 else ""  # the first look waits for nothing
            status, body = call(f"{base}?key={key}{wait}&since={len(events)}")
        except OSError:
            if not retry_s:
                raise
            time.sleep(0.2)
            retry_s -= 0.2
            continue
        assert status == 200, (status, body)
        out.write(json.dumps(body) + "\n")
        events += [event_from_plain(e) for e in body["event_data"]]
        version = body["version"]
        if body["view"]["phase"] == "over":
            break
        if body["legal"]:
            view = view_from_plain(body["view"], board, events)
            legal = [action_from_plain(a) for a in body["legal"]]
            action = bot.choose(view, legal)
            status, answer = call(f"{base}/actions?key={key}", "POST", to_plain(action))
            assert status == 200, (status, answer)
            made += 1
    return made


def main(argv=None) -> None:
    p = argparse.ArgumentParser()
    for name in ("url", "table", "seat", "key", "out"):
        p.add_argument(name)
    p.add_argument("--moves", type=int, default=None)
    args = p.parse_args(argv)
    with open(args.out, "w") as out:
        play(args.url, args.table, args.seat, args.key, out, args.moves,
             seed=SEAT_NAMES.index(args.seat))
    sys.exit(0)


if __name__ == "__main__":
    main()
