"""The coach's review of a finished class table (issue 34), computed in the background.

``coach.review`` judges every action of a game from its seat's view at the time: a few hundred
actions, tens of CPU-seconds. The server's event loop referees every table of the class, so the
review runs in one worker process (``REVIEW_WORKERS``: a process, not a thread, because a thread
would hold the interpreter's lock against the loop and slow the class's moves; one, so that a
second table's review waits its turn instead of taking the other core too). The worker reports
its progress through a queue, read whenever progress is asked for; the result stays in memory
(``KEEP_REVIEWS`` tables, the latest asked for) and is computed again after a restart.

A review is of a finished game only (``GameNotOver`` otherwise): while a game goes on, the coach's
move at a seat would tell what that seat holds (I1). Once the game is over nothing is hidden any
more, and a review says no more than the game's log and the score sheets.

Everything the pages read is plain data (``review_plain``), made in the worker, in words.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import queue
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..coach import review
from ..coach.review import REVIEW_BUDGET
from ..coach.words import action_words
from ..game import Game
from ..plain import action_from_plain, to_plain
from ..seats import seat_name, team_count, team_name, team_of
from .referee import Table, TableRefused, replay

log = logging.getLogger("ttrlib.server.reviews")

REVIEW_WORKERS = 1  # one review at a time per server: the class's moves keep a core
KEEP_REVIEWS = 16  # finished reviews kept in memory (a class has a handful of tables)
COSTLIEST = 3  # moves of each team in the teacher's walkthrough


class GameNotOver(TableRefused):
    """A review was asked for a game still going (I1: it would tell what the seats hold)."""


@dataclass
class Job:
    """One table's review: ``state`` is "waiting" (another table's review runs), "running",
    "ready" (``result`` holds it) or "failed" (a bug, logged; the teacher may ask again)."""

    table: str
    version: int
    state: str = "waiting"
    done: int = 0
    total: int = 0
    result: dict | None = None
    started: float = field(default_factory=time.monotonic)

    def progress(self) -> dict:
        return {"table": self.table, "state": self.state, "done": self.done,
                "total": self.total}


class Reviews:
    """The server's reviews: at most one computed at a time, each table's kept in memory."""

    def __init__(self, budget: int = REVIEW_BUDGET, workers: int = REVIEW_WORKERS):
        self.budget = budget  # deals per judged action: bounds a whole game's CPU (coach.review)
        self.workers = workers
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._queue: Any = None

    def start(self, table: Table) -> Job:
        """The review of ``table`` (a finished game), started if it was not; ``GameNotOver``
        for a game still going."""
        if not table.over:
            raise GameNotOver("the game is still going: a review shows what each seat knew, so "
                              "it waits for the end of the game (I1)")
        job = self.jobs.get(table.id)
        if job is None or job.state == "failed" or job.version != table.version:
            job = self._submit(table)
        self.jobs.move_to_end(table.id)
        self._forget_old()
        return job

    def get(self, tid: str) -> Job | None:
        """The job of table ``tid`` with its latest progress, or None."""
        self._drain()
        return self.jobs.get(tid)

    def _submit(self, table: Table) -> Job:
        busy = any(j.state in ("waiting", "running") for j in self.jobs.values())
        job = self.jobs[table.id] = Job(table.id, table.version, total=table.version,
                                        state="waiting" if busy else "running")
        pool = self._ensure_pool()
        # the worker replays the game from its log, as the referee does: plain actions only
        args = (table.id, table.players, table.seed, table.trains, to_plain(table.actions),
                review_seed(table.id), self.budget)
        future = asyncio.get_running_loop().run_in_executor(pool, run_review, *args)
        future.add_done_callback(lambda f: self._finished(job, f))
        return job

    def _finished(self, job: Job, future: asyncio.Future) -> None:
        self._drain()
        if future.cancelled():
            job.state = "failed"
        elif future.exception() is not None:
            job.state = "failed"
            broken = isinstance(future.exception(), concurrent.futures.BrokenExecutor)
            if broken and self._pool is None:
                return  # ``close`` ended the worker: the server stops, nothing went wrong
            log.error("table %s: the review failed", job.table, exc_info=future.exception())
            if broken:
                self._pool = None  # a worker died: the next review starts a new one
        else:
            job.result = future.result()
            job.state, job.done = "ready", job.total
        self._forget_old()

    def _ensure_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # "spawn": a fresh interpreter, not a fork of a process running an event loop and
            # threads (the database's, tornado's)
            context = multiprocessing.get_context("spawn")
            self._queue = context.Queue()
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_worker_start,
                initargs=(self._queue,))
        return self._pool

    def _drain(self) -> None:
        """Read the workers' progress reports (table id, done, total) sent so far."""
        while self._queue is not None:
            try:
                tid, done, total = self._queue.get_nowait()
            except (queue.Empty, OSError, ValueError):
                return
            job = self.jobs.get(tid)
            if job is not None and job.state in ("waiting", "running"):
                job.state, job.done, job.total = "running", done, total

    def _forget_old(self) -> None:
        ended = [tid for tid, j in self.jobs.items() if j.state in ("ready", "failed")]
        for tid in ended[:max(0, len(ended) - KEEP_REVIEWS)]:
            del self.jobs[tid]

    def close(self) -> None:
        """Stop the worker, a review under way too: the results live in memory only, so
        nobody would read it, and the server's exit would otherwise wait for its end."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # the executor has no public way to stop a task under way: end its processes first
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


def review_seed(tid: str) -> int:
    """The coach's seed for a table: its id (public, like the review), so a review computed
    again after a restart gives the same numbers; never the deal's secret seed."""
    return int(tid, 16)


# --- in the worker process ----------------------------------------------------------------------
_progress_queue: Any = None


def _worker_start(progress_queue) -> None:
    global _progress_queue
    _progress_queue = progress_queue


def run_review(tid: str, players: int, seed: int, trains: int, actions: list, review_seed: int,
               budget: int) -> dict:
    """The review of a table's game (replayed from its plain actions) in plain form, with the
    CPU it took; reports ``(tid, done, total)`` as it goes."""
    started = time.process_time()
    game = replay(players, seed, [action_from_plain(a) for a in actions], trains)

    def progress(done: int, total: int) -> None:
        if _progress_queue is not None:
            _progress_queue.put((tid, done, total))

    result = review_plain(game, review(game, seed=review_seed, budget=budget, progress=progress))
    result["cpu_s"] = round(time.process_time() - started, 1)
    result["budget"] = budget
    return result


def review_plain(game: Game, r) -> dict:
    """A ``coach.Review`` in words: ``entries[k]`` is action ``k`` (the board's step ``k + 1``);
    ``costliest`` the three costliest moves of each team, for the teacher's walkthrough."""
    entries = []
    for step, e in enumerate(r.entries, start=1):
        entries.append({
            "step": step, "seat": seat_name(e.seat), "team": team_name(team_of(e.seat)),
            "played": action_words(game.board, e.action),
            "best": action_words(game.board, e.best), "same": e.best == e.action,
            "judged": e.judged, "cost": round(e.cost, 4),
            "win_share": None if e.win_share is None else round(e.win_share, 4),
            # a tunnel's chance to pay is exact (``ttrlib.odds``): kept as a fraction too
            "p_can_pay": None if e.p_can_pay is None else float(e.p_can_pay),
            "p_can_pay_exact": None if e.p_can_pay is None else str(e.p_can_pay),
            "spare": e.spare, "words": e.words})
    steps = {id(e): k for k, e in enumerate(r.entries, start=1)}
    costliest = [{"team": team_name(team),
                  "moves": [{"step": steps[id(e)], "seat": seat_name(e.seat),
                             "cost": round(e.cost, 4), "words": e.words}
                            for e in r.costliest(team, COSTLIEST)]}
                 for team in range(team_count(game.players))]
    return {"entries": entries, "costliest": costliest}
