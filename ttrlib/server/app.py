"""The class server's tornado application: each module of the server contributes its routes."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tornado.log
import tornado.web

from . import auth, db, hub, materials, progress, tables

#: The modules whose ``routes(server)`` make the application (each owns its pages and tables).
ROUTE_MODULES = [auth, hub, tables, progress, materials]

MAX_BODY = 64 * 1024  # no request body of the API is larger (an action is a few hundred bytes)


@dataclass
class Server:
    """What every handler may reach: the data folder, the store and the secrets."""

    data_dir: Path
    conn: object
    teacher_token: str
    class_secret: str
    #: (address, words) of the pages listed on the teacher's room page
    teacher_links: list = field(default_factory=list)
    #: where the classroom app (Voila) serves the lessons: the seats' links point there
    lessons_url: str = "http://localhost:8866"
    #: the class's tables (``table_store.TableStore``), once ``tables.routes`` has made them
    tables: Any = None
    #: the coach's reviews of finished tables (``reviews.Reviews``), made with the tables
    reviews: Any = None
    #: on a JupyterHub: its ``HubOAuth`` (``hub.hub_auth``), and the prefix the Hub's proxy
    #: gives the service (``/services/ttr/``); None and "/" on one machine
    hub: Any = None
    base_url: str = "/"


def make_server(data_dir: str | Path, lessons_url: str = "http://localhost:8866",
                database: str | None = None) -> Server:
    """The server's state: secrets in ``data_dir``, the store in ``database`` (a
    ``postgresql://`` address) or, by default, in SQLite in ``data_dir``."""
    data = Path(data_dir)
    data.mkdir(parents=True, exist_ok=True)
    store = data / db.DB_NAME
    if (database is None and store.exists() and store.stat().st_size == 0
            and (data / auth.TEACHER_TOKEN).exists()):
        # SQLite would take an empty file for a new database and start an empty class over
        # the lost one; the teacher token beside it says there was a class here
        raise db.StoreRefused(f"{store} is empty, but this folder held a class (its "
                              f"{auth.TEACHER_TOKEN}): put back a copy of the database from a "
                              "backup, or move the folder away to start a new class")
    return Server(data, db.connect(database or store),
                  auth.secret_file(data, auth.TEACHER_TOKEN),
                  auth.secret_file(data, auth.CLASS_SECRET), lessons_url=lessons_url)


def make_app(server: Server) -> tornado.web.Application:
    handlers: list = []
    for module in ROUTE_MODULES:
        handlers += module.routes(server)
    prefix = server.base_url.rstrip("/")
    handlers = [(prefix + route[0], *route[1:]) for route in handlers]
    settings: dict = {}
    if server.hub is not None:
        # HubOAuth keeps its state and token in signed cookies
        settings = {"hub_auth": server.hub, "cookie_secret": hashlib.sha256(
            server.class_secret.encode() + b"ttrlib hub cookies v1").digest()}
    return tornado.web.Application(handlers, ttr=server, xsrf_cookies=False,
                                   log_function=log_request, **settings)


def log_request(handler: tornado.web.RequestHandler) -> None:
    """Tornado's access log without the query string: a seat's key (``?key=``) and the teacher's
    token (``/teacher?token=``) travel in addresses, and a log is read by whoever runs the server
    or is shown a terminal; the path, status and time are all a log needs."""
    status = handler.get_status()
    log = (tornado.log.access_log.info if status < 400 else
           tornado.log.access_log.warning if status < 500 else tornado.log.access_log.error)
    request = handler.request
    log("%d %s %s %.2fms", status, request.method, request.path,
        1000.0 * request.request_time())
