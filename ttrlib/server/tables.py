"""Tables: one team game played by learners on their own devices, refereed by this server.

``routes(server)`` opens the store (replaying every table's log, ``table_store``) and gives the
JSON API (``table_api``), the board pages and the teacher's page of tables (``table_pages``), and
the coach's review of a finished table (``reviews``, in a worker process; ``review_api``); the
teacher's room lists the tables page.
"""

from __future__ import annotations

from . import review_api, table_api, table_pages
from .reviews import Reviews
from .table_store import TableStore


def routes(server) -> list:
    store = server.tables = TableStore(server.conn)
    server.teacher_links.append(("/teacher/tables", "Tables: make one, hand out the seats' "
                                                    "links, project a board"))
    reviews = server.reviews = Reviews()
    return (table_api.routes(store, server.lessons_url)
            + table_pages.routes(store, server.lessons_url)
            + review_api.routes(store, server.lessons_url, reviews))
