"""The one place where the tables' errors become HTTP statuses (the handlers' side).

The referee and the log raise ttrlib errors with a sentence and no status; a handler answers
each with ``status_of(exc)`` and that sentence. ``Refusal`` is the handlers' own refusal of a
request they read (a body or a query argument), with its status.
"""

from __future__ import annotations

from ..errors import ActionError, IllegalMove, TableError
from .json_body import BadBody
from .referee import (
    BadTableArgument,
    MovedOn,
    NoSuchSeat,
    NoSuchTable,
    NotYourSeat,
    TableBusy,
    TableClosed,
    WrongKey,
)
from .reviews import GameNotOver
from .table_log import LogUnavailable


class Refusal(TableError):
    """A request the handlers refuse as they read it; ``status`` is its HTTP status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


STATUS: dict[type, int] = {
    NoSuchTable: 404, NoSuchSeat: 404,
    WrongKey: 403, NotYourSeat: 403,
    BadTableArgument: 400, ActionError: 400, BadBody: 400,
    IllegalMove: 409, TableClosed: 409, MovedOn: 409,
    GameNotOver: 409,  # a review waits for the game's end (I1)
    TableBusy: 503, LogUnavailable: 503,  # come back later: nothing is wrong with the request
}


def status_of(exc: BaseException) -> int | None:
    """The HTTP status of one of the tables' errors, None for any other exception (a bug:
    tornado's 500, logged)."""
    if isinstance(exc, Refusal):
        return exc.status
    for kind in type(exc).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return None
