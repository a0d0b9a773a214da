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
import signal

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
    asyncio.run(serve(args))


async def serve(args) -> None:
    server = make_server(args.data, args.lessons, args.db)
    if args.hub:
        from . import hub

        server.hub = hub.hub_auth()
        server.base_url = server.hub.base_url  # the Hub's prefix: /services/<name>/
        ip, args.port = hub.service_address()
        args.ip = args.ip or ip  # --ip 0.0.0.0 where the URL names a host (Kubernetes)
        args.quiet = True  # no login link: teachers log in through the Hub
    args.ip = args.ip or "127.0.0.1"
    app = make_app(server)
    app.listen(args.port, args.ip, max_body_size=MAX_BODY)
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


if __name__ == "__main__":
    main()
