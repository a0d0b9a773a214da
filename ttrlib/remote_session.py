"""RemoteSeatSession: one seat at a table of the class server, with ``SeatSession``'s interface.

The class server referees the game and sends each seat only that seat's view (rule I1); this
session holds what the server sent, nothing more: the seat's view, its legal actions, the public
log and, at the end, the score sheets. So a lesson widget over it (``TeamGame(session=...)``)
works as it does against bots, and the learner's kernel never holds another seat's cards.

- ``apply(action)`` posts the action; the server's refusal (409) becomes ``IllegalMove(rule,
  reason)``, so the widget shows it as usual, and nothing changes.
- ``start(callback)`` follows the table by long-poll from an asyncio task on the running event
  loop (the kernel's: widgets updated from a thread break under ipykernel 7) and calls
  ``callback(events)`` with the new public events whenever the table moved on.
- The other seats are played elsewhere (learners, or the server's bots): ``play_setup`` and
  ``play_others`` do nothing here; a new game, a save or a load is the teacher's business.

``transport(method, path, body)`` (blocking) and ``wait(path)`` (a coroutine) reach the server;
both return ``(status, parsed JSON)``. By default they speak HTTP to ``url``; tests pass their
own. In a learner's server spawned by a JupyterHub, they also send the learner's Hub token
(``JUPYTERHUB_API_TOKEN``, in the kernel's environment, never in a widget): the class server, a
Hub service there, knows the learner by it.
"""

from __future__ import annotations

import asyncio
import json
import os
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import NamedTuple
from urllib.parse import quote

from . import actions as act
from .board import Board, teaching_board
from .errors import ActionError, IllegalMove, TableError, ViewError, WrongPhase, shown
from .events import Event
from .game import Phase, PlayerView
from .plain import action_from_plain, to_plain
from .plain_views import event_from_plain, scores_from_plain, view_from_plain
from .rules import claims, payments
from .rules.scoring import TeamScore, score
from .seats import seat_name, team_count
from .session import view_claim_problem

REQUEST_S = 15.0  # a move or a look at the table
WAIT_S = 40.0  # a long-poll: the server answers within 25 s even when nothing happens
RETRY_S = (1.0, 2.0, 5.0, 10.0)  # waits between attempts while the server cannot be reached


def _seat_number(seat: int | str, players: int = 6) -> int:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players:
        return seat
    for s in range(players):
        if seat_name(s) == seat:
            return s
    raise TableError(f"no seat {shown(seat)}: a seat is A1, A2, B1, B2, C1 or C2")


class _Public(NamedTuple):
    """The public facts the claim rules read (``claims.PublicFacts``), from the seat's view."""

    board: Board
    claimed: dict[str, int]
    trains: list[int]
    players: int


#: the fields of a seat's body and the JSON types each may have (``bool`` is no number here)
_BODY_FIELDS: dict[str, tuple[type, ...]] = {
    "version": (int,), "event_count": (int,), "event_data": (list,), "view": (dict,),
    "legal": (list,), "turns": (int,), "bot": (str, type(None)), "scores": (list, type(None)),
}


def _seat_body(body) -> dict:
    """The server's answer for a seat, its fields checked one by one (``TableError`` names the
    first that is missing or of another type: never a ``KeyError``)."""
    if not isinstance(body, dict):
        raise TableError(f"the class server sent {shown(body)} instead of a seat's body")
    for name, kinds in _BODY_FIELDS.items():
        if name not in body:
            raise TableError(f"the class server's answer has no {name!r}: is the address a "
                             "ttrlib class server?")
        value = body[name]
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise TableError(f"the class server's {name!r} is {shown(value)}, not "
                             f"{' or '.join('null' if k is type(None) else k.__name__ for k in kinds)}")
    if body["version"] < 0 or body["event_count"] < len(body["event_data"]):
        raise TableError("the class server's answer does not add up (its version or its "
                         "count of events)")
    closed = body.get("closed")
    if closed is not None and not isinstance(closed, str):
        raise TableError(f"the class server's 'closed' is {shown(closed)}, not a sentence")
    return body


class RemoteSeatSession:
    """Seat ``seat`` (0 or "A1") of table ``table`` on the class server at ``url``."""

    remote = True  # the widgets hide what a class table does elsewhere (bots, new game, saves)
    seed = None  # the deal is the server's secret
    game_name = None  # a table has no game number (its label says which table)

    def __init__(self, url: str, table: str, seat: int | str, key: str, *,
                 board: Board | None = None, transport: Callable | None = None,
                 wait: Callable | None = None):
        self.url = url.rstrip("/")
        self.table = table
        self.seat = _seat_number(seat)
        self._key = key
        self._board = board or teaching_board()
        self._transport = transport or self._http
        self._wait = wait or self._http_wait
        self._path = (f"/api/tables/{quote(table, safe='')}/seats/"
                      f"{seat_name(self.seat)}")
        self._events: list[Event] = []
        self.version = -1
        self.problem: str | None = None  # why the last attempt to follow the table failed
        self.closed: str | None = None  # the server's sentence once the table is closed
        self._task: asyncio.Task | None = None
        self._callback: Callable | None = None
        self.refresh()

    @property
    def label(self) -> str:
        """What the widgets show instead of a game number."""
        return f"table {self.table}"

    # --- talking to the server ---------------------------------------------------------------
    def _query(self, **more) -> str:
        args = {"key": self._key, **{k: v for k, v in more.items() if v is not None}}
        return "&".join(f"{k}={quote(str(v), safe='')}" for k, v in args.items())

    @staticmethod
    def _hub_header() -> dict:
        token = os.environ.get("JUPYTERHUB_API_TOKEN")
        return {"Authorization": f"token {token}"} if token else {}

    def _http(self, method: str, path: str, body=None, timeout: float = REQUEST_S):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json",
                                              **self._hub_header()})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            try:
                return e.code, json.loads(e.read() or b"null")
            except ValueError:
                return e.code, None
        except (OSError, ValueError) as e:
            raise TableError(f"the class server at {self.url} does not answer ({e})") from None

    async def _http_wait(self, path: str):
        from tornado.httpclient import AsyncHTTPClient, HTTPClientError

        try:
            r = await AsyncHTTPClient().fetch(self.url + path, request_timeout=WAIT_S,
                                              headers=self._hub_header())
            return r.code, json.loads(r.body or b"null")
        except HTTPClientError as e:
            body = e.response.body if e.response is not None else b""
            try:
                return e.code, json.loads(body or b"null")
            except ValueError:
                return e.code, None
        except (OSError, ValueError) as e:
            raise TableError(f"the class server at {self.url} does not answer ({e})") from None

    def _checked(self, status: int, data):
        if status == 200:
            return data
        said = data.get("error") if isinstance(data, dict) else None
        if status == 409 and isinstance(data, dict) and "rule" in data:
            raise IllegalMove(str(data.get("rule", "")), str(data.get("reason", "")))
        if status in (409, 503) and isinstance(said, str):  # a closed table, a busy one
            raise TableError(said)
        if status == 403:
            raise TableError("the class server does not know this seat's key: open the link "
                             "your teacher gave you")
        if status == 404:
            raise TableError(f"the class server has no table {self.table} with a seat "
                             f"{seat_name(self.seat)}")
        raise TableError(f"the class server refused ({status}: {shown(said)})")

    def refresh(self) -> list[Event]:
        """Fetch the table now; returns the public events new to this session."""
        status, data = self._transport("GET", f"{self._path}?{self._query(since=len(self._events))}")
        return self._take(self._checked(status, data), newer_only=False)

    def _take(self, body, newer_only: bool = True) -> list[Event]:
        """Keep what the server sent; the new events. A long-poll's answer older than what a
        move's answer brought meanwhile is dropped (``newer_only``); a fresh look at the table
        is always kept (were the table ever behind us, the session follows it back). An
        answer of another shape is a ``TableError`` that says what is wrong, and changes
        nothing."""
        body = _seat_body(body)
        try:
            return self._keep(body, newer_only)
        except (ViewError, ActionError) as exc:
            raise TableError(f"the class server sent a seat's body that cannot be read "
                             f"({exc})") from None

    def _keep(self, body: dict, newer_only: bool) -> list[Event]:
        self.closed = body.get("closed") or self.closed  # a table closes at the same version
        if body["version"] == self.version or (newer_only and body["version"] < self.version):
            return []
        new = [event_from_plain(e) for e in body["event_data"]]
        # the body holds the log from the event this request asked for; the log only grows, so
        # events we already hold (a move's answer came in meanwhile) are the same ones
        skip = len(self._events) - (body["event_count"] - len(new))
        if skip < 0 or body["event_count"] < len(self._events):  # the log is not ours: reload
            status, body = self._transport("GET", f"{self._path}?{self._query()}")
            body = _seat_body(self._checked(status, body))
            new, skip, events = [event_from_plain(e) for e in body["event_data"]], 0, []
        else:
            events = self._events
        new = new[skip:]
        # everything read before anything is kept: a body that cannot be read changes nothing
        view = view_from_plain(body["view"], self._board, events + new)
        legal = [action_from_plain(a) for a in body["legal"]]
        scores = None if body["scores"] is None else scores_from_plain(body["scores"])
        self._events = events + new
        self.version = body["version"]
        self._view, self._legal, self._scores = view, legal, scores
        self._turns = body["turns"]
        self.bot = body["bot"]
        return new

    # --- following the table -----------------------------------------------------------------
    def start(self, callback: Callable[[list[Event]], None]) -> None:
        """Follow the table from an asyncio task on the running loop; ``callback(events)`` runs
        on that loop whenever the table moved on (``events``: the new public ones, maybe none).
        Without a running loop (a plain script) it only keeps the callback: call ``poll()`` or
        ``refresh()`` yourself."""
        self._callback = callback
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._follow())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def poll(self) -> list[Event]:
        """Wait (long-poll) for the next version; returns the new public events (none if the
        server's wait ran out, or if the move was secret, such as a setup choice, T1)."""
        path = f"{self._path}?{self._query(after=self.version, since=len(self._events))}"
        status, data = await self._wait(path)
        return self._take(self._checked(status, data))

    async def _follow(self) -> None:
        failures = 0
        while not self.is_over:
            before = self.version
            try:
                new = await self.poll()
            except (TableError, IllegalMove) as exc:
                self.problem = str(exc)
                await asyncio.sleep(RETRY_S[min(failures, len(RETRY_S) - 1)])
                failures += 1
                continue
            failures, self.problem = 0, None
            # a version may bring no public event (a setup choice stays secret, T1): redraw
            if self.version > before and self._callback is not None:
                try:
                    self._callback(new)
                except Exception as exc:  # noqa: BLE001 - a drawing problem must not stop following
                    self.problem = f"the screen could not be redrawn ({type(exc).__name__})"

    # --- what the seat may know (SeatSession's interface) -----------------------------------
    def view(self) -> PlayerView:
        return self._view

    def events(self) -> tuple[Event, ...]:
        return self._view.events

    @property
    def is_over(self) -> bool:
        return self._view.phase is Phase.OVER

    @property
    def my_turn(self) -> bool:
        return (not self.is_over and self._view.to_move == self.seat and self.bot is None
                and self.closed is None)

    @property
    def turns(self) -> int:
        return self._turns

    def legal_actions(self) -> list[act.Action]:
        """The legal actions the server listed (empty unless it is this seat's move)."""
        return list(self._legal)

    def scores(self) -> list[TeamScore]:
        """The server's score sheets once the game is over; before, what this seat can count
        (its own and its team's shared tickets, the claimed routes), as ``SeatSession`` does."""
        if self._scores is not None:
            return self._scores
        view = self._view
        tickets = [list(view.tickets) if s == self.seat else [] for s in range(view.players)]
        team_tickets = [list(view.team_tickets) if t == view.team else []
                        for t in range(team_count(view.players))]
        return score(view.board, view.players, view.claimed, tickets, team_tickets)

    def _public_state(self) -> _Public:
        """The public facts the claim rules read (board, claimed routes, trains, players)."""
        v = self._view
        return _Public(board=v.board, claimed=v.claimed, trains=list(v.trains),
                               players=v.players)

    def claimable_routes(self) -> set[str]:
        """Ids of the routes this seat could pay for now with its own cards (K1-K3)."""
        v = self._view
        state = self._public_state()
        reach = payments.longest_payable(v.hand + v.team_cardholder)
        return {r.id for r in claims.claimable_in(claims.open_routes(state, self.seat),
                                                  v.trains[self.seat], reach)}

    def claim_problem(self, route_id: str) -> tuple[str, str] | None:
        """Why this seat cannot claim ``route_id`` now, as ``(rule, reason)``; ``None`` if it can
        (worked out from the seat's view, in the words of a local seat)."""
        return view_claim_problem(self._view, route_id, self.claimable_routes(),
                                  lambda: claims.route_problem(self._public_state(), self.seat,
                                                               route_id))

    # --- acting ------------------------------------------------------------------------------
    def apply(self, action: act.Action) -> list[Event]:
        """Send this seat's action to the server; returns the events it caused (and any the
        table's bots added since). A refusal raises ``IllegalMove`` and changes nothing."""
        if self.is_over:
            raise WrongPhase("E1", "the game is over: nothing more can be played")
        status, data = self._transport("POST", f"{self._path}/actions?{self._query()}",
                                       to_plain(action))
        self._checked(status, data)
        return self.refresh()

    def play_setup(self, humans=None) -> None:
        """Nothing to do: the other seats choose their tickets at their own screens (T1)."""

    def play_others(self, limit: int = 2000) -> int:
        """Nothing to do: the other seats play at their own screens; returns 0."""
        return 0

    def _elsewhere(self, what: str):
        return WrongPhase("C2", f"{what} is for your teacher at a class table: the class "
                                "server keeps the game")

    def bot_plays_my_turn(self) -> None:
        raise self._elsewhere("handing your turn to a bot")

    def new_game(self, seed: int | None = None) -> int:
        raise self._elsewhere("a new game")

    def save(self, slot: str, folder=None) -> str:
        raise self._elsewhere("saving")

    def load(self, slot: str, folder=None) -> None:
        raise self._elsewhere("loading a game")
