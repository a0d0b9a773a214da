"""A class table without HTTP: a ``TableStore`` on a temporary SQLite file, reached by a
``RemoteSeatSession`` through an in-process transport that answers as the server's handlers do
(the same ``seat_body``, the same refusals). The tests of the remote session use it where they
must change the server's game under a session (a redeal of what the seat cannot see)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from ttrlib.errors import ActionError, IllegalMove, TableError
from ttrlib.plain import action_from_plain
from ttrlib.remote_session import RemoteSeatSession
from ttrlib.server import db
from ttrlib.server.table_store import TableStore, seat_body, status_of


class InProcess:
    """``transport`` and ``wait`` for ``RemoteSeatSession`` over a ``TableStore``."""

    def __init__(self, path):
        self.store = TableStore(db.connect(path))
        self.requests = 0

    def __call__(self, method: str, path: str, body=None, timeout=None):
        self.requests += 1
        url = urlparse(path)
        parts = url.path.split("/")  # ['', 'api', 'tables', ID, 'seats', NAME, ('actions')]
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        try:
            table = self.store.get(parts[3])
            seat = table.seat_of(parts[5])
            table.check_key(seat, query.get("key"))
            if method == "POST":
                version = self.store.move(table, seat, action_from_plain(body))
                self.store.play_bots(table)  # the server runs them right after its answer
                return 200, {"version": version}
            return 200, seat_body(table, seat, int(query.get("since", 0)))
        except IllegalMove as exc:
            return 409, {"rule": exc.rule, "reason": exc.reason}
        except (TableError, ActionError) as exc:  # the handlers' one map (table_refusal)
            return status_of(exc), {"error": str(exc)}

    async def wait(self, path: str):
        query = {k: v[-1] for k, v in parse_qs(urlparse(path).query).items()}
        table = self.store.get(urlparse(path).path.split("/")[3])
        await self.store.wait(table, int(query["after"]), 0.5)
        return self("GET", path)

    def session(self, table, seat: int | str = 0) -> RemoteSeatSession:
        return RemoteSeatSession("http://in-process", table.id, seat, table.keys[
            seat if isinstance(seat, int) else table.seat_of(seat)], transport=self,
            wait=self.wait)
