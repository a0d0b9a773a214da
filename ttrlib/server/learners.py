"""Who a record is about, and how much anyone may send (issue 30, finding 2).

A record's learner is never the sender's word. On one machine a lesson kernel first asks
``POST /api/progress/learner`` (with the class secret) for its browser's learner, and the server
answers a signed token ``<id>.<signature>``, where ``id`` is derived from the browser's id, so
the same browser is always the same learner and the records never hold the browser's own id (a
capability for its saves). A report then carries the token; one the server did not sign is
refused. On a Hub the learner is the Hub user asking, derived the same way from the name. The
key is derived from the class secret, so the servers of one class (one PostgreSQL, one secret)
know the same learners.

Every learner is counted in the ``learners`` table when it is issued or first reports (a token
made elsewhere with the secret, or one issued before the class was forgotten, is counted then),
and each door is bounded, refused with a sentence:

- at most ``MAX_LEARNERS`` learners, and ``NEW_PER_MINUTE`` new ones a minute (a class opening
  its lessons together is a few dozen);
- ``REPORTS_PER_MINUTE`` reports a minute per sender (a learner's token, a Hub user);
- ``MAX_TRIES`` records per learner and exercise;
- ``MAX_RECORDS`` records in the store.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time

from .db import transaction

MAX_LEARNERS = 300
NEW_PER_MINUTE = 60
REPORTS_PER_MINUTE = 120  # a Check every half second, all minute long
MAX_TRIES = 100
MAX_RECORDS = 200_000

STEPS = ["CREATE TABLE learners (id TEXT PRIMARY KEY CHECK (length(id) = 32), "
         "issued DOUBLE PRECISION NOT NULL)"]

_BROWSER = re.compile(r"[0-9a-f]{32}")
_TOKEN = re.compile(r"([0-9a-f]{32})\.([0-9a-f]{32})")


class Refused(Exception):
    """A door's bound reached or a learner the server does not know: a status and a sentence."""

    def __init__(self, status: int, sentence: str):
        super().__init__(sentence)
        self.status = status


class Rate:
    """At most ``per_minute`` events a minute per sender (a token bucket, refilled evenly); the
    senders kept are bounded (the oldest forgotten first: a forgotten one starts full)."""

    def __init__(self, per_minute: int, senders: int = 2 * MAX_LEARNERS):
        self.per_minute, self.senders = per_minute, senders
        self.buckets: dict[str, tuple[float, float]] = {}

    def take(self, sender: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        tokens, then = self.buckets.pop(sender, (float(self.per_minute), now))
        tokens = min(self.per_minute, tokens + (now - then) * self.per_minute / 60)
        if len(self.buckets) >= self.senders:
            self.buckets.pop(next(iter(self.buckets)))
        if tokens < 1:
            self.buckets[sender] = (tokens, now)
            return False
        self.buckets[sender] = (tokens - 1, now)
        return True


class Learners:
    """The learners this server issued and the bounds on their records."""

    def __init__(self, conn, class_secret: str):
        self.conn = conn
        self.key = hmac.new(class_secret.encode(), b"ttrlib learner ids v1",
                            hashlib.sha256).digest()
        self.new = Rate(NEW_PER_MINUTE)
        self.reports = Rate(REPORTS_PER_MINUTE)

    def _mac(self, what: bytes) -> str:
        return hmac.new(self.key, what, hashlib.sha256).hexdigest()[:32]

    def issue(self, browser=None, hub_user: str | None = None) -> str:
        """The token of a browser's learner (a classroom kernel's), or of a Hub user."""
        if hub_user is not None:
            learner = self._mac(b"hub user:" + hub_user.encode())
        elif isinstance(browser, str) and _BROWSER.fullmatch(browser):
            learner = self._mac(b"browser:" + browser.encode())
        else:
            raise Refused(400, "field 'browser' must be the browser's learner id "
                               "(32 lowercase hex digits)")
        self._count(learner)
        return f"{learner}.{self._mac(b'token:' + learner.encode())}"

    def _count(self, learner: str) -> None:
        known = self.conn.execute("SELECT 1 FROM learners WHERE id = ?", (learner,)).fetchone()
        if known:
            return
        (count,) = self.conn.execute("SELECT COUNT(*) FROM learners").fetchone()
        if count >= MAX_LEARNERS:
            raise Refused(429, f"the class already has {MAX_LEARNERS} learners, the most this "
                               "server records: the teacher may forget the class's records "
                               "(make classroom-forget) to start again")
        if not self.new.take("new learners"):
            raise Refused(429, f"more than {NEW_PER_MINUTE} new learners in a minute: "
                               "try again in a minute")
        with transaction(self.conn):  # another server on the same PostgreSQL may be first
            self.conn.execute("INSERT INTO learners (id, issued) VALUES (?, ?) "
                              "ON CONFLICT (id) DO NOTHING", (learner, time.time()))

    def learner_of(self, token) -> str:
        """The learner of a token this server signed (counted, within the bounds on new
        learners), else Refused."""
        match = _TOKEN.fullmatch(token) if isinstance(token, str) else None
        if not match or not hmac.compare_digest(
                match.group(2), self._mac(b"token:" + match.group(1).encode())):
            raise Refused(400, "field 'learner' must be a learner this server issued "
                               "(POST /api/progress/learner)")
        self._count(match.group(1))
        return match.group(1)

    def admit(self, sender: str, row: tuple) -> None:
        """Refused unless one more record ``row`` (``records.FIELDS`` order) is within bounds."""
        if not self.reports.take(sender):
            raise Refused(429, f"more than {REPORTS_PER_MINUTE} reports in a minute from one "
                               "learner: this one is not recorded")
        learner, lesson, exercise = row[:3]
        (tries,) = self.conn.execute(
            "SELECT COUNT(*) FROM checks WHERE lesson = ? AND exercise = ? AND learner = ?",
            (lesson, exercise, learner)).fetchone()
        if tries >= MAX_TRIES:
            raise Refused(429, f"this learner has {MAX_TRIES} records of exercise {exercise} "
                               "already, the most this server keeps: this one is not recorded")
        (count,) = self.conn.execute("SELECT COUNT(*) FROM checks").fetchone()
        if count >= MAX_RECORDS:
            raise Refused(507, f"the class's store holds {MAX_RECORDS} records, the most it "
                               "keeps: the teacher may export them and forget them")
