"""What lesson 03 (claiming routes, rules K1-K4, E2) shows: exact positions, the ways to pay for a
route as pictures, the engine's refusals as a table, and the K3 cases.

Lesson 04 (tunnels) builds its positions with :func:`position` too. Every page element here is a
picture or an HTML table with its numbers computed from the engine or the board, never typed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .. import actions as act
from .. import display as pics
from ..cards import CardCounts, Color
from ..errors import IllegalMove
from ..game import Game
from ..odds import best_payment
from ..rules.payments import claim_color
from ..rules.scoring import ROUTE_POINTS
from ..seats import seat_name
from ..words import plural
from . import QUIET_ROW, position

FACE_UP = QUIET_ROW  # no red, no locomotive: out of the way


def lesson_position(seed: int = 0) -> Game:
    """The position at the top of lesson 03 (and of its widget): A1 holds 2 red, 1 blue and a
    locomotive, the Team A cardholder a red card and a locomotive, A2 three red cards."""
    return position(hands=[CardCounts(red=2, blue=1, locomotive=1), CardCounts(red=3)],
                    cardholders=[CardCounts(red=1, locomotive=1)], seed=seed)


# --- tables -------------------------------------------------------------------------------------
def table_html(headers: Sequence[str], rows: Iterable[Sequence[object]], *,
               caption: str = "") -> str:
    """A plain HTML table (cells are escaped text), left-aligned, with an optional caption."""
    return pics.table_html(headers, rows, caption=caption, padded=True)


def cards_words(cards: CardCounts) -> str:
    """``2 red, 3 locomotives`` or ``none``."""
    return cards.describe() if cards else "none"


def payment_words(hand: CardCounts, cardholder: CardCounts) -> str:
    """One way to pay in words: what comes from the hand and what from the cardholder."""
    parts = [f"{cards_words(hand)} from the hand"] if hand else []
    parts += [f"{cards_words(cardholder)} from the cardholder"] if cardholder else []
    return " + ".join(parts) or "nothing"


def ways(game: Game, route_id: str) -> list[act.Claim]:
    """Every legal way the seat to move can pay for ``route_id`` (the engine's list, K1, K2),
    the cheapest first: the order of ``odds.best_payment``, which the widgets offer too."""
    legal = {c for c in game.legal_claims() if c.route == route_id}
    if not legal:
        return []
    return [o.claim for o in best_payment(game.view(game.to_move), route_id) if o.claim in legal]


def ways_html(claims: Sequence[act.Claim | act.PayTunnel]) -> str:
    """The ways to pay (claims, or tunnel payments) as a table: one row per way, the cards from the hand and from the
    cardholder drawn as pictures, and the way in words (for screen readers too)."""
    rows = [(i, pics.Markup(pics.cards_html(c.hand, empty_text="none")),
             pics.Markup(pics.cards_html(c.cardholder, empty_text="none")),
             payment_words(c.hand, c.cardholder)) for i, c in enumerate(claims, 1)]
    return pics.table_html(("way", "from the hand", "from the cardholder", "in words"), rows,
                           padded=True)


def seat_html(game: Game, seat: int = 0) -> str:
    """What ``seat`` may use (its hand and the team cardholder) and its teammate's hand face
    down, as pictures (K1, I1)."""
    view = game.view(seat)
    return pics.seat_cards_html(view, hand_title=f"{view.name}'s hand",
                                mate_title=f"{seat_name(view.teammate)}'s hand")


def refusals_html(game: Game, attempts: dict[str, act.Action]) -> str:
    """Try each action on ``game`` and table the engine's answer: the rule and its reason.

    A refused action leaves the game unchanged; the last column checks it (the saved game
    before and after are compared)."""
    rows = []
    for what, action in attempts.items():
        before = game.to_json()
        try:
            game.apply(action)
        except IllegalMove as err:
            unchanged = "yes" if game.to_json() == before else "NO"
            rows.append((what, err.rule, err.reason, unchanged))
        else:
            raise ValueError(f"the engine accepted {what!r}: it is not a refusal")
    return table_html(("what A1 tries", "rule", "the engine says", "game unchanged"), rows)


def gray_ways_html(game: Game, route_id: str) -> str:
    """The ways to pay for a gray route, counted by the one colour each uses (K2)."""
    counts: dict[str, int] = {}
    for c in ways(game, route_id):
        colour = claim_color(c.cards)
        assert colour is not None  # a legal claim is of one colour (K2)
        name = "locomotives only" if colour is Color.LOCOMOTIVE else f"{colour.value} (+ locomotives)"
        counts[name] = counts.get(name, 0) + 1
    rows = list(counts.items()) + [("in all", sum(counts.values()))]
    return table_html(("paid in", "ways"), rows)


def claim_story(game: Game, claim: act.Claim) -> str:
    """Apply a plain route's ``claim`` and tell, in Markdown, what happened: trains, owner,
    points to come (E2) and where the cards went (K4). Everything is read from the game."""
    seat = game.to_move
    route = game.board.route(claim.route)
    trains, discard = game.trains[seat], len(game.view(seat).discard)
    game.apply(claim)
    after = game.view(seat)
    who = seat_name(seat)
    return (f"{who} claims {route.a} – {route.b} with {cards_words(claim.cards)} "
            f"({payment_words(claim.hand, claim.cardholder)}). The route is now "
            f"{seat_name(after.claimed[route.id])}'s, and at the end of the game it scores "
            f"**{ROUTE_POINTS[route.length]} points** (E2). {who} placed {plural(route.length, 'train')} "
            f"and has {after.trains[seat]} left of {trains}. The {_cards(len(claim.cards))} laid "
            f"down went to the discard pile (K4), which held {_cards(discard)} before and holds "
            f"{_cards(len(after.discard))} now; it is {seat_name(after.to_move)}'s turn.")


def _cards(n: int) -> str:
    return "no cards" if n == 0 else ("1 card" if n == 1 else f"{n} cards")


def open_groups_words(board) -> str:
    """Which parallel routes stay fully open with 4 players (K3), read from the board file."""
    names = [f"{r.a} – {r.b}" for r in board.routes if r.group in board.open_groups
             and r.id.endswith("-1")]
    return ("On this board the parallel route whose tracks all stay open with 4 players is "
            + ", ".join(f"**{n}**" for n in names) + " (K3).")


def points_table_html(lengths: Iterable[int] | None = None) -> str:
    """Rule E2 as a table: route length, points, points per train."""
    lengths = sorted(ROUTE_POINTS) if lengths is None else lengths
    return table_html(("route length (trains)", "points at the end (E2)", "points per train"),
                      [(n, ROUTE_POINTS[n], f"{ROUTE_POINTS[n] / n:.2f}") for n in lengths])


# --- K3: parallel tracks ------------------------------------------------------------------------
#: The cases of lesson 03's K3 table: players, tracks already claimed (by seat), the track A1
#: tries, and what the case shows. The verdict column is the engine's answer, computed.
K3_CASES = (
    (4, {"bombay-delhi-1": 2}, "bombay-delhi-2",
     "with 4 players, B1's claim on one track of a double route closes the other"),
    (6, {"bombay-delhi-1": 2}, "bombay-delhi-2", "with 6 players the same track is open"),
    (4, {"bombay-delhi-1": 1}, "bombay-delhi-2",
     "closed even when A1's own teammate built the first track: one line per double route"),
    (4, {"delhi-lahore-1": 1}, "delhi-lahore-2",
     "a triple route: a second track may be claimed, here by A2's teammate A1"),
    (4, {"delhi-lahore-1": 1, "delhi-lahore-2": 2}, "delhi-lahore-3",
     "but not a third track with 4 players"),
    (6, {"delhi-lahore-1": 1, "delhi-lahore-2": 2}, "delhi-lahore-3",
     "with 6 players all three tracks are open"),
    (4, {"canton-hongkong-1": 2}, "canton-hongkong-2",
     "Hong Kong - Canton is the exception: both tracks stay open with 4 players"),
    (6, {"delhi-lahore-1": 0}, "delhi-lahore-2",
     "nobody claims two tracks between the same two cities, even with 6 players (policy)"),
)


def try_track(players: int, claimed: dict[str, int], route_id: str) -> tuple[bool, str]:
    """A1 holds locomotives enough, so only K3 decides: (claimed?, the engine's words)."""
    game = position(players=players, hands=[CardCounts(locomotive=8)], claimed=claimed)
    length = game.board.route(route_id).length
    try:
        game.apply(act.Claim(route_id, hand=CardCounts(locomotive=length)))
    except IllegalMove as err:
        return False, str(err)
    return True, "claimed"


def _track(game_or_board, route_id: str) -> str:
    r = game_or_board.route(route_id)
    return f"{r.a} - {r.b}, {r.color.value if r.color else 'gray'} track"


def k3_table_html(cases=K3_CASES) -> str:
    """The K3 cases tried on the engine, one row each."""
    board = position().board
    rows = []
    for n, (players, claimed, route_id, why) in enumerate(cases, 1):
        ok, words = try_track(players, claimed, route_id)
        owners = ", ".join(f"{_track(board, r)} by {seat_name(s)}" for r, s in claimed.items())
        rows.append((n, players, owners, _track(board, route_id),
                     ("yes: " if ok else "no: ") + words, why))
    return table_html(("#", "players", "already claimed", "A1 tries", "the engine says",
                       "what it shows"), rows)


# --- the exercises' fixed positions -------------------------------------------------------------
# Written once here: the lesson pictures them and tests/test_answer_key_03.py checks the key.
def exercise_position(name: str) -> Game:
    """The fixed position of lesson 03's exercise ``name`` (the same for every learner)."""
    if name == "pay-from-position":  # green Chengdu - Hankow (4): A2's greens do not count
        return position(hands=[CardCounts(green=1, locomotive=1, blue=2), CardCounts(green=3)],
                        cardholders=[CardCounts(green=1, yellow=2)])
    if name == "legal-payments":  # red Hanoi - Kunming (3)
        return position(hands=[CardCounts(red=1, locomotive=1, blue=2), CardCounts(red=2)],
                        cardholders=[CardCounts(red=1, locomotive=1)])
    if name == "locomotives-needed":  # gray Lanchow - Lhasa (6)
        return position(hands=[CardCounts(red=3, blue=2, locomotive=2)],
                        cardholders=[CardCounts(red=1, blue=3, locomotive=1)])
    raise KeyError(f"lesson 03 has no exercise position {name!r}")


#: The payments offered in exercise "legal-payments" (Hanoi - Kunming), by the option's text.
LEGAL_PAYMENT_OPTIONS = {
    "1 red + 1 locomotive from the hand, 1 red from the cardholder":
        act.Claim("hanoi-kunming", hand=CardCounts(red=1, locomotive=1),
                  cardholder=CardCounts(red=1)),
    "1 red from the hand, 1 red + 1 locomotive from the cardholder":
        act.Claim("hanoi-kunming", hand=CardCounts(red=1),
                  cardholder=CardCounts(red=1, locomotive=1)),
    "1 locomotive from the hand, 1 red + 1 locomotive from the cardholder":
        act.Claim("hanoi-kunming", hand=CardCounts(locomotive=1),
                  cardholder=CardCounts(red=1, locomotive=1)),
    "2 blue from the hand, 1 locomotive from the cardholder":
        act.Claim("hanoi-kunming", hand=CardCounts(blue=2), cardholder=CardCounts(locomotive=1)),
    "1 red + 1 blue from the hand, 1 red from the cardholder":
        act.Claim("hanoi-kunming", hand=CardCounts(red=1, blue=1), cardholder=CardCounts(red=1)),
    "1 red from the hand, 1 red from the cardholder, 1 red from A2's hand":
        act.Claim("hanoi-kunming", hand=CardCounts(red=1), cardholder=CardCounts(red=1),
                  teammate=CardCounts(red=1)),
    "1 red + 1 locomotive from the hand":
        act.Claim("hanoi-kunming", hand=CardCounts(red=1, locomotive=1)),
}


def is_legal(game: Game, action: act.Action) -> bool:
    """Whether the engine accepts ``action`` (tried on a copy: ``game`` is not changed)."""
    try:
        game.copy().apply(action)
    except IllegalMove:
        return False
    return True
