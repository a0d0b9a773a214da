"""What the lesson notebooks share: the learner's game seed, teacher mode, pictures shown in a
cell, and chances in words.

The notebooks import from here instead of pasting helpers into every lesson. The answer keys of
the exercises are in :mod:`ttrlib.lessons.answers`; each lesson's practice positions live in a
module of this package named after the lesson's topic.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from fractions import Fraction
from urllib.parse import parse_qs

from .. import display as pics
from .. import narration
from ..cards import EMPTY
from ..errors import IllegalMove
from ..game import Game
from ..i18n import _, number
from ..seats import team_count
from ..words import percent, plural

__all__ = ["CLASS_GAME", "session_seed", "teacher_mode", "query", "show", "say", "log_markdown", "attempt",
           "plural", "words_list", "position", "QUIET_ROW", "chance_words", "percent"]

#: The game of the lessons' worked examples (00's first look, 02's tickets, 05's experiments, 06's
#: bot game): the same for every learner, so that a class talks about the same cards and numbers.
#: Fixed examples also let the classroom app run and render them ahead of time, before any
#: learner opens the page (see query).
#:
#: It stays a plain seed (``Game.new(seed=CLASS_GAME)``, the research door of ttrlib.deals), which
#: anybody can deal offline, because what it deals is public anyway: these games are shown, not
#: played. No learner holds a hand in them: the pages show the whole of 02's walk-through and
#: 06's finished game, 00's first look and 05's experiments are read, not answered, and no widget
#: deals them (a widget deals game 4817 through the keyed function, another game than this one).
#: The learners' own games (session_seed, the widgets) never come from a plain seed.
CLASS_GAME = 4817

_waited = False


def preheated() -> bool:
    """Whether this kernel was started ahead of its page (the classroom app's pool): it learns
    the learner's request (``?seed=``, the cookie) only when a page takes it."""
    return os.environ.get("VOILA_PREHEAT", "False") != "False"


def query() -> dict[str, str]:
    """The URL parameters of the classroom app page (``?seed=7``), else ``{}``.

    Voila passes the page's query string to the kernel; a preheated kernel (``make classroom``)
    receives it only when a learner opens the page, so ``voila.utils.wait_for_request`` waits
    for that moment. Outside Voila (JupyterLab, tests) there is no query string.

    Why a lesson asks as late as it can: Voila runs and renders a preheated lesson ahead of
    time only up to the cell that waits here; every cell after it is run and rendered when the
    learner opens the page, and with a class opening a lesson together that work is done 30
    times at once on the server. So the seed is asked for where a lesson first deals a game.
    """
    global _waited
    if preheated() and not _waited:
        _waited = True  # the request is delivered once: waiting again would hang
        _wait_for_request()
    text = os.environ.get("QUERY_STRING")
    parsed = parse_qs(text or "", keep_blank_values=False)
    return {k: v[-1] for k, v in parsed.items() if v}


#: How often a preheated kernel asks Voila again for the learner's request. Voila's
#: ``wait_for_request`` gives up when its socket to the server is not open within 5 s (a busy
#: classroom server), and the lesson then lost the learner's ``?seed=`` and cookie. Voila keeps
#: the request for the kernel until it is fetched, so asking again is safe.
REQUEST_TRIES = 6


def _wait_for_request() -> None:
    """Put the page's request (QUERY_STRING, HTTP_COOKIE) into ``os.environ``, if Voila has it."""
    try:  # only inside the classroom app
        from voila.utils import wait_for_request
    except ImportError:
        return
    for _attempt in range(REQUEST_TRIES):
        try:
            with warnings.catch_warnings():  # Voila warns "Failed to connect" on each miss
                warnings.simplefilter("ignore")
                wait_for_request()
        except Exception:  # noqa: BLE001 - no query string is the safe answer
            return
        if "QUERY_STRING" in os.environ:  # Voila sends it, empty or not, with every request
            return


def session_seed(seed: int | None = None, *, wait: bool = True) -> int | None:
    """The public number of this learner's games, or ``None`` for a random game of their own.

    - ``session_seed(7)``: the teacher's one line in JupyterLab puts everyone on game 7;
    - ``?seed=7`` in the classroom app's address does the same for a whole class;
    - ``TTR_SEED=7`` in the environment (used by the tests);
    - otherwise ``None``: every widget deals its learner a random game (128 random bits).

    The number is public; the widgets deal from it through the installation's key
    (:mod:`ttrlib.deals`), so game 7 is the same game on this server and cannot be dealt
    anywhere else. A mistyped ``?seed=12a`` does not fail the page: it says so on the page
    and the learner gets a random game.

    ``wait=False``: a preheated classroom kernel does not wait here for the learner's request
    (its ``?seed=``): the lesson deals ahead of time and asks again in its last cell
    (``deal_from_the_address``), so nothing above that cell is run per page.
    """
    if seed is not None:
        return _seed_value(seed)
    asked = query().get("seed") if wait or not preheated() else None
    for source in (asked, os.environ.get("TTR_SEED")):
        if source is not None:
            try:
                return _seed_value(source)
            except ValueError:
                _not_a_number(source)
                return None
    return None


def deal_from_the_address(*screens) -> int | None:
    """A lesson's last cell, where a preheated classroom kernel waits for the learner's request
    (issue 36): every cell above it, its games dealt at random (``session_seed(wait=False)``),
    was run before a class opened the page, not 30 times at once when it did. If the address
    asks for a game (``?seed=7``) each of ``screens`` (lesson widgets) is dealt it now; returns
    that number, or ``None`` when the games dealt ahead stay (and outside the classroom pool,
    where the seed was read at the top of the lesson)."""
    if not preheated():
        return None
    seed = session_seed()
    if seed is not None:
        for screen in screens:
            if screen.session.seed != seed:
                screen.deal(seed)
    return seed


def _not_a_number(text: str) -> None:
    """Say on the page that the address's game number was not one (never silently)."""
    shown_text = str(text).strip()
    shown_text = shown_text if len(shown_text) <= 20 else shown_text[:17] + "..."
    show(pics.message_html(f"{shown_text or '(nothing)'} is not a game number: a new game was "
                           "dealt. A game number is a whole number, like ?seed=7.", "warning"))


def _seed_value(value) -> int:
    text = str(value).strip()
    if not text.isdigit() or len(text) > 9:
        raise ValueError(f"a game number is a whole number of at most 9 digits, not {text[:20]!r}")
    return int(text)


def teacher_mode() -> bool:
    """Teacher mode shows every exercise's answer: ``TTR_TEACHER=1`` in the kernel's environment
    (the teacher's JupyterLab). Nothing in a page's address turns it on: in the classroom app a
    learner could type ``?teacher=1`` as well as the teacher (issue 20); the teacher's answers
    are on the class server's pages, behind the teacher's login."""
    return os.environ.get("TTR_TEACHER", "").strip().lower() in ("1", "yes", "true", "on")


def show(*pictures: str, direction: str = "row") -> None:
    """Show ttrlib pictures (HTML from :mod:`ttrlib.display`) side by side or one under another."""
    from IPython.display import HTML, display

    display(HTML(pics.layout_html(*pictures, direction=direction)))


def say(markdown: str) -> None:
    """Show a paragraph of Markdown on the page (prose, never a raw Python value)."""
    from IPython.display import Markdown, display

    display(Markdown(markdown))


def log_markdown(game, since: int = 0) -> str:
    """What the engine reported since event number ``since`` (the public log), as a list."""
    lines = [f"- {line}" for line in narration.lines(game.events[since:])]
    return "\n".join(lines) or "- (nothing happened)"


def attempt(game, action) -> None:
    """Try ``action``: a move the rules forbid is shown as the engine's message (rule and reason)
    and changes nothing. Returns nothing, so that a cell ending with it shows no raw value."""
    try:
        game.apply(action)
    except IllegalMove as err:
        show(pics.message_html(f"Refused: {err.reason}. Nothing changed.", "error",
                               rule=err.rule))


def words_list(items: Sequence[str], last: str = "and") -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


#: A face-up row with no red and no locomotive: out of the way of the lessons' examples.
QUIET_ROW = ("white", "purple", "orange", "black", "yellow")


def position(*, hands: Sequence | None = (), cardholders: Sequence | None = (),
             face_up: Sequence = QUIET_ROW, draw_pile: Sequence = (), discard=None,
             claimed: dict[str, int] | None = None, players: int = 4, seed: int = 0) -> Game:
    """An exact position with A1 to move; ``draw_pile`` lists the pile from the TOP down.

    Every card not named goes to the last seat's hand (an opponent, out of the way), so the
    draw pile and discard pile are exactly as given and every one of the 110 cards (C1) is
    placed; ``seed`` only orders what nobody looks at."""
    hands, holders = list(hands or ()), list(cardholders or ())
    return Game.from_position(
        players=players, hands=hands + [EMPTY] * (players - len(hands)),
        cardholders=holders + [EMPTY] * (team_count(players) - len(holders)),
        face_up=list(face_up),
        draw_pile=list(draw_pile), discard=EMPTY if discard is None else discard,
        claimed=claimed, seed=seed, rest_to=players - 1)


def chance_words(p) -> str:
    """A chance as a board-game player reads it: the exact fraction, a percentage and "about 1 in
    N" (N rounded to a whole number from 3 on, to one decimal below). A chance above one half
    is read by how rarely it does not happen ("1 in 1.1" says little).

    >>> chance_words(Fraction(3, 7))
    '3/7 = 42.9%, about 1 in 2.3'
    >>> chance_words(Fraction(35, 36))
    '35/36 = 97.2%: all but about 1 in 36 times'
    >>> chance_words(Fraction(1, 500))
    '1/500 = 0.2%, about 1 in 500'
    >>> chance_words(Fraction(0))
    '0 = 0%: never'
    """
    p = Fraction(p).limit_denominator(10**12) if not isinstance(p, Fraction) else p
    if not 0 <= p <= 1:
        raise ValueError(f"a chance lies between 0 and 1, not {p}")
    if p == 0:
        return _("{fraction} = {percent}: never").format(fraction=0, percent=percent(0))
    if p == 1:
        return _("{fraction} = {percent}: always").format(fraction=1, percent=percent(1))
    if p > Fraction(1, 2):
        return _("{fraction} = {percent}: all but about 1 in {n} times").format(
            fraction=p, percent=percent(p), n=_one_in(1 - p))
    return _("{fraction} = {percent}, about 1 in {n}").format(fraction=p, percent=percent(p),
                                                              n=_one_in(p))


def _one_in(p: Fraction) -> str:
    one_in = 1 / p
    if one_in < 3:  # one decimal, none when it is 0 ("1 in 2", "1 in 2.3")
        tenths = round(float(one_in), 1)
        return number(tenths, decimals=0 if tenths == int(tenths) else 1)
    return number(round(float(one_in)))
