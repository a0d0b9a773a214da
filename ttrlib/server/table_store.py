"""The class's tables, as the rest of the server reaches them: the referee (``referee``: a
table's game, moves, bots and bodies) over its log (``table_log``: the SQL). This module only
gathers their names, so the pages keep one place to import from; ``Refusal`` is the handlers'
own refusal with an HTTP status (``table_refusal``), which the referee never raises."""

from __future__ import annotations

from .referee import (
    BOT_STEPS,
    DEFAULT_BOT,
    KEEP_FINISHED,
    MAX_PUBLIC_WAITERS,
    MAX_SEAT_WAITERS,
    MAX_SEED,
    PAST_VERSIONS,
    BadTableArgument,
    MovedOn,
    NoSuchSeat,
    NoSuchTable,
    NotYourSeat,
    Table,
    TableBusy,
    TableClosed,
    TableRefused,
    TableStore,
    WrongKey,
    public_snapshot,
    public_text,
    replay,
    seat_body,
)
from .table_log import STEPS, Conflict, LogUnavailable, TableLog
from .table_refusal import Refusal, status_of

__all__ = ["BOT_STEPS", "DEFAULT_BOT", "KEEP_FINISHED", "MAX_PUBLIC_WAITERS", "MAX_SEAT_WAITERS",
           "MAX_SEED", "PAST_VERSIONS", "STEPS", "BadTableArgument", "Conflict",
           "LogUnavailable", "MovedOn", "NoSuchSeat", "NoSuchTable", "NotYourSeat", "Refusal",
           "Table", "TableBusy", "TableClosed", "TableLog", "TableRefused", "TableStore",
           "WrongKey", "public_snapshot", "public_text", "replay", "seat_body", "status_of"]
