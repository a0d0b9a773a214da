"""The kernel's side of the class's records: every Check and every "Show the answer" of an
exercise, reported to the class server (issue 20, item 3).

Only in the classroom app started by ``make classroom``, which puts two variables into the lesson
kernels' environment: ``TTR_CLASS_SERVER`` (the server's address) and ``TTR_CLASS_SECRET_FILE``
(the file of the class secret the server asks reports for). Without them (JupyterLab, Binder, a
learner alone) nothing is recorded and nothing is sent.

A record holds no name and no address: the learner's random id (:func:`learner_id`, or, if the
browser sent none, one random id per kernel), the lesson, the exercise, the try number, the
verdict, the judged answer in its canonical form (never the learner's own words) and whether the
answer had been shown. Recording never blocks or breaks a lesson: records wait in a bounded queue
for one background thread that only POSTs them (it never touches a widget); a report that fails
is dropped quietly, and the learner gets their feedback all the same. The secret is read by that
thread from its file; it is never held by a widget, whose state reaches the browser.
"""

from __future__ import annotations

import json
import os
import queue
import secrets
import threading
import time
import urllib.request

from .learner import learner_id

SERVER_ENV = "TTR_CLASS_SERVER"
SECRET_ENV = "TTR_CLASS_SECRET_FILE"
REPORT_PATH = "/api/progress/report"
LEARNER_PATH = "/api/progress/learner"  # the server's token for the browser's id (its own)
VERDICTS = ("right", "wrong", "shown")
_TIMEOUT_S = 5  # one report; a server that does not answer by then loses that record
_QUEUE_MAX = 1000  # records waiting; beyond that (a server long gone) new ones are dropped

_outbox: queue.Queue = queue.Queue(maxsize=_QUEUE_MAX)
_worker: threading.Thread | None = None
_lock = threading.Lock()
_kernel_id = secrets.token_hex(16)  # stands in for the browser's id when there is none
_tokens: dict[str, str] = {}  # browser's id -> the learner token the server issued for it
# The class server is on this machine or the class's network: never through a proxy of the
# environment (http_proxy), which would see every record.
_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def enabled() -> bool:
    """Whether this kernel reports to a class server."""
    return bool(os.environ.get(SERVER_ENV))


def record(exercise, *, try_number: int, verdict: str, answer: str | None,
           revealed: bool) -> None:
    """Queue one record of ``exercise`` (an answer key's ``Exercise``) for the class server.
    Returns at once; never raises."""
    if not enabled():
        return
    try:
        source = getattr(exercise, "source", None)
        if source is not None:  # a translated key: the record in the key's own words
            answer, exercise = exercise.source_answer(answer), source
        body = {"learner": learner_id() or _kernel_id, "lesson": exercise.lesson,
                "exercise": exercise.id, "try": int(try_number), "verdict": verdict,
                "answer": answer, "revealed": bool(revealed)}
        _outbox.put_nowait(body)
        _start_worker()
    except Exception:  # noqa: BLE001 - a record is never worth a broken lesson
        pass


def flush(timeout: float = 30) -> bool:
    """Wait until every queued record has been sent (or dropped); False if ``timeout`` passed
    first. For tests and benchmarks: a lesson never waits for its records."""
    deadline = time.monotonic() + timeout
    while _outbox.unfinished_tasks and time.monotonic() < deadline:
        time.sleep(0.02)
    return not _outbox.unfinished_tasks


def _start_worker() -> None:
    global _worker
    with _lock:
        if _worker is None or not _worker.is_alive():
            _worker = threading.Thread(target=_send_forever, name="ttr-records", daemon=True)
            _worker.start()


def _send_forever() -> None:
    while True:
        body = _outbox.get()
        try:
            _post(body)
        except Exception:  # noqa: BLE001 - dropped quietly (the server is down or refused it)
            pass
        finally:
            _outbox.task_done()


def _credential() -> str:
    """The class secret (``make classroom``: its file is in the kernel's environment), else, on
    a JupyterHub, the learner's own Hub token, which the class server checks with the Hub (a
    learner's server never holds the class secret)."""
    path = os.environ.get(SECRET_ENV)
    if path:
        with open(path, encoding="ascii") as f:
            return f"Bearer {f.read().strip()}"
    return f"token {os.environ.get('JUPYTERHUB_API_TOKEN', '')}"


def _post(body: dict) -> None:
    if "learner" in body:  # the server records only learners it issued (their token)
        browser = body["learner"]
        if browser not in _tokens:
            _tokens[browser] = json.loads(_send(LEARNER_PATH, {"browser": browser}))["learner"]
        body = {**body, "learner": _tokens[browser]}
    _send(REPORT_PATH, body)


def _send(path: str, body: dict) -> bytes:
    server = os.environ.get(SERVER_ENV, "").rstrip("/")
    request = urllib.request.Request(
        server + path, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": _credential()})
    with _opener.open(request, timeout=_TIMEOUT_S) as response:
        return response.read()
