"""The coach's review at a class table (issue 34): the teacher's API and the board's review panel.

- ``GET /api/tables/ID/review`` (the teacher): starts the review of a finished table if it is
  not under way, and gives its progress (``state``, ``done`` of ``total`` actions) and, once it
  is ready, the review (``review.entries``, one per action; ``review.costliest``, each team's
  three costliest moves; ``cpu_s``, what it took). A game still going: 409, and nothing starts.
- ``GET /tables/ID/board/review?at=N&pause=1`` (the board, which anyone with its address may
  watch): the review panel at step ``N`` as HTML. While a game goes on it is empty (I1: the coach's
  move at a seat would tell what the seat holds); for a finished game it starts the review, shows
  its progress until it is ready, then the entry of the action that made step ``N`` and each
  team's costliest moves. ``pause=1`` ("what would you do?") leaves every move of the coach out
  of the HTML until the teacher reveals it (the same step without ``pause``).
"""

from __future__ import annotations

import tornado.template

from ..words import plural
from .auth import TEMPLATES
from .reviews import Job, Reviews
from .table_api import TablesHandler, answers

_PANELS = tornado.template.Loader(str(TEMPLATES))  # autoescaped: every city, every sentence


class _ReviewHandler(TablesHandler):
    # the tables' handlers take the store and lessons_url; these take the reviews as well
    def initialize(self, store, lessons_url: str, reviews: Reviews) -> None:  # type: ignore[override]
        super().initialize(store, lessons_url)
        self.reviews = reviews


class ReviewApi(_ReviewHandler):
    @answers
    async def get(self, tid: str) -> None:
        table = self.teacher_table(tid)
        job = self.reviews.start(table)  # GameNotOver (409) for a game still going
        job = self.reviews.get(tid) or job  # with the latest progress
        body = job.progress()
        if job.result is not None:
            body["review"] = job.result
        self.json(200, body)


class ReviewPanel(_ReviewHandler):
    @answers
    async def get(self, tid: str) -> None:
        table = self.store.get(tid)
        at = self.int_arg("at", table.version)
        pause = self.get_query_argument("pause", "") == "1"
        if not table.over:  # never a review of a game still going (I1)
            self.json(200, {"state": "playing", "html": ""})
            return
        self.reviews.start(table)
        job = self.reviews.get(tid)
        assert job is not None  # just started
        self.json(200, {"state": job.state, "at": at,
                        "html": panel_html(job, min(at, table.version), pause)})


def panel_html(job: Job, at: int, pause: bool) -> str:
    """The review panel of the board at step ``at`` (``board_review.html``)."""
    context: dict = {"state": job.state, "progress": progress_words(job), "entry": None,
                     "step": at, "pause": pause, "costliest": []}
    if job.result is not None:
        entries = job.result["entries"]
        if 0 < at <= len(entries):
            context["entry"] = entry_lines(entries[at - 1])
        context["costliest"] = job.result["costliest"]
    return _PANELS.load("board_review.html").generate(**context).decode()


def progress_words(job: Job) -> str:
    if job.state == "waiting":
        return "Reviewing: waiting for another table's review to end"
    if job.state == "running":
        return f"Reviewing: {job.done} of {plural(job.total, 'move')}"
    if job.state == "failed":
        return "The review could not be made: ask for it again (the server's log says why)"
    return ""


def entry_lines(e: dict) -> dict:
    """One action's review in words: who played what, a tunnel's exact chance, the coach's
    move and its cost (estimates say "about"; the tunnel's chance is exact, ``ttrlib.odds``)."""
    tunnel = None
    if e["p_can_pay"] is not None:
        spare = e["spare"] or 0
        tunnel = (f"the exact chance to pay this tunnel was {e['p_can_pay']:.0%}, with "
                  f"{plural(spare, 'card') if spare else 'no card'} to spare")
    if e["same"]:
        verdict = "the same move"
    elif e["cost"] > 0:
        verdict = f"about −{e['cost']:.0%} win share for the move played"
    else:
        verdict = "about the same win share (within the estimate's error)"
    return {"head": f"Step {e['step']} · {e['seat']} ({e['team']}): {e['played']}",
            "tunnel": tunnel, "best": f"The coach: {e['best']}", "verdict": verdict}


def routes(store, lessons_url: str, reviews: Reviews) -> list:
    args = {"store": store, "lessons_url": lessons_url, "reviews": reviews}
    tid = r"([0-9a-f]{1,16})"
    return [
        (rf"/api/tables/{tid}/review", ReviewApi, args),
        (rf"/tables/{tid}/board/review", ReviewPanel, args),
    ]
