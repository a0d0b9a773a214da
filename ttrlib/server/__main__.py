"""``python -m ttrlib.server --port 8867 --data classroom-data``: run the class server.

It listens on 127.0.0.1 unless ``--ip`` says otherwise: ``--ip 0.0.0.0`` lets learners' own
devices reach their tables (and everyone on the network reach the pages: a table's board, the
public view, is readable by whoever knows the table's 8-character id; the API still asks for a
seat's key or the teacher's token). ``--lessons`` is the classroom app's address as learners
reach it, where the seats' links point. It prints the teacher's login link and runs until stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sqlite3
import sys

from . import db
from .app import MAX_BODY, make_app, make_server


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m ttrlib.server", description=__doc__)
    parser.add_argument("--port", type=int, default=8867)
    parser.add_argument("--ip", default=None,
                        help="the address to listen on (default: this machine only; on a Hub, "
                             "the host of the service's URL)")
    parser.add_argument("--data", default="classroom-data",
                        help="the folder of the log, the records and the secrets")
    parser.add_argument("--lessons", default="http://localhost:8866",
                        help="the classroom app's address as learners reach it: the seats' "
                             "links point there (default: http://localhost:8866)")
    parser.add_argument("--db", default=None,
                        help="a PostgreSQL address (postgresql://user@host/db) for the log and "
                             "the records, which several servers may share; default: SQLite "
                             "in the data folder")
    parser.add_argument("--hub", action="store_true",
                        help="run as a JupyterHub service (the Hub starts it: see "
                             "deploy/jupyterhub/): the Hub's users, groups and address")
    parser.add_argument("--quiet", action="store_true", help="do not print the login link")
    args = parser.parse_args(argv)
    try:
        asyncio.run(serve(args))
    except db.StoreRefused as exc:  # one sentence, no traceback: the teacher reads this
        sys.exit(f"ttrlib class server: {exc}")


@contextlib.contextmanager
def refused_at_start(args):
    """A data folder or database the server cannot use, as ``StoreRefused`` with one sentence
    (at start, before any request) instead of a ``sqlite3`` or ``OSError`` traceback."""
    try:
        yield
    except sqlite3.DatabaseError as exc:  # met while replaying the tables or the records
        raise db.StoreRefused(f"the database in {args.data} is damaged ({exc}): put back a "
                              "copy from a backup") from None
    except OSError as exc:
        raise db.StoreRefused(f"the data folder {args.data} cannot be used "
                              f"({exc.strerror or exc}): give --data a folder this user may "
                              "write in") from None


async def serve(args) -> None:
    with refused_at_start(args):
        server = make_server(args.data, args.lessons, args.db)
    if args.hub:
        from . import hub

        server.hub = hub.hub_auth()
        server.base_url = server.hub.base_url  # the Hub's prefix: /services/<name>/
        ip, args.port = hub.service_address()
        args.ip = args.ip or ip  # --ip 0.0.0.0 where the URL names a host (Kubernetes)
        args.quiet = True  # no login link: teachers log in through the Hub
    args.ip = args.ip or "127.0.0.1"
    with refused_at_start(args):
        app = make_app(server)  # the tables' and records' migrations and replay
    try:
        app.listen(args.port, args.ip, max_body_size=MAX_BODY)
    except OSError as exc:
        raise db.StoreRefused(f"cannot listen on {args.ip}:{args.port} ({exc.strerror}): "
                              "is another server running there?") from None
    # other servers on the same PostgreSQL: their moves reach this one's waiting seats
    listening = asyncio.create_task(server.tables.listen()) if server.tables.shared else None
    host = "localhost" if args.ip in ("127.0.0.1", "0.0.0.0") else args.ip
    if not args.quiet:
        print(f"ttrlib class server on http://{host}:{args.port}/ (data in {server.data_dir})")
        print(f"The teacher's login link (keep it to yourself): "
              f"http://{host}:{args.port}/teacher?token={server.teacher_token}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    if listening is not None:
        listening.cancel()
    server.reviews.close()  # a review under way is of no use once the server stops


if __name__ == "__main__":
    main()
