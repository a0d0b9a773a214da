"""Lesson 08's seat at a class table: the page's link names the table, the seat and its key.

The classroom app opens ``08-play-at-a-table.ipynb?table=ID&seat=A1&key=K`` (the link the
teacher's page of tables hands out); the kernel finds the class server through
``TTR_CLASS_SERVER`` (``make classroom`` sets it). ``open_seat()`` shows who the learner is, or,
without a link or a server, what to do instead; the lesson then shows ``TeamGame(session=...)``
over the seat's ``RemoteSeatSession``, or nothing (the page stops cleanly).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .. import display as pics
from ..errors import TableError
from ..remote_session import RemoteSeatSession
from ..seats import seat_name, team_name
from . import query

SERVER_ENV = "TTR_CLASS_SERVER"

NO_LINK = (
    "This page is a seat at a table of your class, and it opens from that seat's link: your "
    "teacher hands each player a link (or a QR code to scan) that ends with "
    "?table=...&seat=...&key=... . Open the page from your link. Without one there is no game "
    "here: lesson 06 (Play a team game) plays the same game against bots on your own.")
NO_SERVER = (
    "This classroom app is not connected to a class server, so there is no table to sit at. "
    "Your teacher starts both together with make classroom; lesson 06 (Play a team game) plays "
    "the same game against bots meanwhile.")


@dataclass
class Seat:
    """The learner's seat (``session``), or ``None`` and the reason shown on the page."""

    session: RemoteSeatSession | None
    message: str


def open_seat(params: dict | None = None, server: str | None = None) -> Seat:
    """Sit at the table the page's link names and show who the learner is; without a link or a
    class server (or with a link the server refuses) show what to do instead."""
    params = query() if params is None else params
    server = server or os.environ.get(SERVER_ENV)
    if not all(params.get(k) for k in ("table", "seat", "key")):
        seat = Seat(None, pics.message_html(NO_LINK, "info"))
    elif not server:
        seat = Seat(None, pics.message_html(NO_SERVER, "info"))
    else:
        try:
            session = RemoteSeatSession(server, params["table"], params["seat"], params["key"])
        except TableError as exc:
            seat = Seat(None, pics.message_html(
                f"This link does not open a seat: {_sentence(str(exc))}", "error"))
        else:
            view = session.view()
            mate = seat_name(view.teammate)
            seat = Seat(session, pics.message_html(
                f"You are {seat_name(view.seat)} ({team_name(view.team)}) at table "
                f"{session.table}, {view.players} players. Your teammate is {mate}. Keep your "
                "link to yourself: it is your seat.", "success"))
    _show(seat.message)
    return seat


def _sentence(reason: str) -> str:
    """The server's reason as the end of the sentence, and what to do, said once: a reason that
    already sends the learner to the teacher ("open the link your teacher gave you") is not
    followed by "Ask your teacher for your link" (issue 32.10)."""
    reason = reason.rstrip(". ")
    return f"{reason}." if "teacher" in reason else f"{reason}. Ask your teacher for your link."


def _show(markup: str) -> None:
    from IPython.display import HTML, display

    display(HTML(markup))
