"""One word for each thing (issue 31): the places a drawn card goes, the steps of a draw, the
card-count JSON form, an event's one wire name (its saved ``kind`` form). Each guard reads ttrlib's source or drives its readers."""

from __future__ import annotations

import ast
import dataclasses
import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from bot_games import finished_bot_game
from table_fakes import InProcess

from ttrlib import actions as act
from ttrlib import board as board_module
from ttrlib import events as ev
from ttrlib import save as save_module
from ttrlib import tunnel_codec
from ttrlib.bots import GreedyBot
from ttrlib.cards import MOST_CARDS, CardCounts, Color, Place
from ttrlib.errors import ActionError, SaveError, SetupError, TTRError, ViewError
from ttrlib.events import Draw, DrawStep, Event, Placed
from ttrlib.game import Game, Phase
from ttrlib.lessons.answers import Kind
from ttrlib.plain import action_from_plain, public_to_plain, to_plain, view_to_plain
from ttrlib.plain_views import event_from_plain, view_from_plain
from ttrlib.save import state_data
from ttrlib.server.referee import public_snapshot
from ttrlib.server.table_store import seat_body
from ttrlib.state import TunnelAttempt

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

TTRLIB = Path(__file__).resolve().parents[1] / "ttrlib"
PLACE_WORDS = {"hand", "cardholder"}
STEP_WORDS = {"first", "second", "locomotive", "none"}
# The words of the phases and of the exercise kinds, written out from the rules and the answer
# keys' format (test_enum_words_are_the_enums' words checks them against the enums).
PHASE_WORDS = {"setup_tickets", "turn", "place_card", "second_card", "choose_tickets", "tunnel",
               "over"}
KIND_WORDS = {"number", "chance", "share", "choice", "choices"}
# No file spells the places by their words any more (the last three, the card-split lesson and
# its two widgets, moved to ``cards.Place`` in issue 31's second round). A ``Literal[...]`` type
# is a setting's words (bots.Strategy.first_card: "need", "hand", "cardholder"), not a place,
# and is not counted.
PLACE_WORDS_LEFT: set[str] = set()


def _sources():
    for path in sorted(TTRLIB.rglob("*.py")):
        yield path.relative_to(TTRLIB).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _strings(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return set().union(*(_strings(e) for e in node.elts)) if node.elts else set()
    return set()


def place_spellings(name: str, tree: ast.AST) -> list[str]:
    """Where ``tree`` tells the places apart by their words: a comparison with "hand" or
    "cardholder", or a collection naming both."""
    found = []
    types = {id(n.slice) for n in ast.walk(tree) if isinstance(n, ast.Subscript)
             and isinstance(n.value, ast.Name) and n.value.id == "Literal"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            words = set().union(*(_strings(x) for x in [node.left, *node.comparators]))
            if words & PLACE_WORDS:
                found.append(f"{name}:{node.lineno}")
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and PLACE_WORDS <= _strings(node) \
                and id(node) not in types:
            found.append(f"{name}:{node.lineno}")
    return sorted(set(found), key=found.index)


def step_spellings(name: str, tree: ast.AST) -> list[str]:
    """Where ``tree`` compares a ``.step`` or ``step`` with a bare word of a draw's steps."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            named = any(isinstance(x, ast.Attribute) and x.attr == "step"
                        or isinstance(x, ast.Name) and x.id == "step" for x in sides)
            if named and set().union(*(_strings(x) for x in sides)) & STEP_WORDS:
                found.append(f"{name}:{node.lineno}")
        if isinstance(node, ast.keyword) and node.arg == "step" and _strings(node.value):
            found.append(f"{name}:{node.lineno}")
    return found


def word_comparisons(name: str, tree: ast.AST, words: set[str], ends: tuple[str, ...]) -> list[str]:
    """Where ``tree`` compares something whose name ends with one of ``ends`` (``phase``,
    ``.value``, ``kind``) with a bare word of ``words``: an enum told apart by its string."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            named = any(isinstance(x, (ast.Attribute, ast.Name)) and ast.unparse(x).endswith(ends)
                        for x in sides)
            if named and set().union(*(_strings(x) for x in sides)) & words:
                found.append(f"{name}:{node.lineno}")
    return found


def phase_spellings(name: str, tree: ast.AST) -> list[str]:
    return word_comparisons(name, tree, PHASE_WORDS, ("phase", "value"))


def kind_spellings(name: str, tree: ast.AST) -> list[str]:
    return word_comparisons(name, tree, KIND_WORDS, ("kind",))


def test_enum_words_are_the_enums_words():
    assert {p.value for p in Phase} == PHASE_WORDS
    assert {k.value for k in Kind} == KIND_WORDS


def test_phases_are_compared_as_the_enum_only():
    # was remote_session.py (`phase.value == "over"`) and widgets/coach_hint.py ("turn", ...)
    found = [hit for name, tree in _sources() for hit in phase_spellings(name, tree)]
    assert found == []


def test_exercise_kinds_are_compared_as_the_enum_only():
    # was server/records.py (`exercise.kind == "choice"`) and server/progress_page.py
    found = [hit for name, tree in _sources() for hit in kind_spellings(name, tree)]
    assert found == []


def test_places_are_told_apart_by_the_enum_only():
    found = {name: hits for name, tree in _sources() if name != "cards.py"
             for hits in [place_spellings(name, tree)] if hits}
    assert set(found) == PLACE_WORDS_LEFT, found


def test_draw_steps_are_the_enum_only():
    found = [hit for name, tree in _sources() if name != "events.py"
             for hit in step_spellings(name, tree)]
    assert found == []


def test_the_guards_see_each_form():
    tree = ast.parse("a == 'hand'\nb in ('hand', 'cardholder')\nx = ['cardholder', 'hand']\n"
                     "c.step == 'first'\nDraw(step='none')\nd = 'hand'\n"
                     "T = Literal['need', 'hand', 'cardholder']\n")
    assert place_spellings("t", tree) == ["t:1", "t:2", "t:3"]
    assert step_spellings("t", tree) == ["t:4", "t:5"]
    tree = ast.parse("v.phase.value == 'over'\nphase.value in ('turn', 'tunnel')\n"
                     "phase == 'turn'\nv.phase is Phase.OVER\nx.value == 'red'\n"
                     "e.kind == 'choice'\nex.kind in ('chance', 'share')\ne.kind is Kind.SHARE\n")
    assert phase_spellings("t", tree) == ["t:1", "t:2", "t:3"]
    assert kind_spellings("t", tree) == ["t:6", "t:7"]


def test_a_place_is_its_word_on_the_wire_and_in_the_action():
    assert [p.value for p in Place] == ["hand", "cardholder"]
    assert Place.HAND.other is Place.CARDHOLDER and Place.CARDHOLDER.other is Place.HAND
    # the old spelling makes the same action, with the same hash (a set of legal actions)
    assert act.PlaceCard("hand") == act.PlaceCard(Place.HAND)
    assert act.PlaceCard("cardholder").to is Place.CARDHOLDER
    assert len({act.PlaceCard("hand"), act.PlaceCard(Place.HAND)}) == 1
    assert to_plain(act.PlaceCard(Place.HAND)) == {"type": "PlaceCard", "to": "hand"}
    assert action_from_plain({"type": "PlaceCard", "to": "cardholder"}).to is Place.CARDHOLDER
    assert json.dumps(Placed(seat=1, to=Place.HAND).to_dict()) == \
        '{"kind": "place", "seat": 1, "to": "hand"}'
    assert f"{Place.HAND}" == str(Place.HAND) == "hand"


def test_events_and_state_read_back_as_the_enums():
    e = Event.from_dict({"kind": "draw", "seat": 0, "step": "second", "slot": None, "card": None,
                         "to": "cardholder"})
    assert isinstance(e, Draw) and e.step is DrawStep.SECOND and e.to is Place.CARDHOLDER
    assert Event.from_dict(Placed(seat=2, to=Place.CARDHOLDER).to_dict()).to is Place.CARDHOLDER
    game = Game.new(players=4, seed=3)
    while game.phase.value != "place_card":
        game.apply(game.legal_actions()[0])
    game.apply(act.PlaceCard("hand"))
    assert game.first_to is Place.HAND
    again = Game.from_json(game.to_json())
    assert again.first_to is Place.HAND and again.to_json() == game.to_json()
    assert all(isinstance(e.step, DrawStep) for e in again.events if isinstance(e, Draw))


# --- the card-count JSON form: one reader, one bound ---------------------------------------------
def _action(cards):
    return action_from_plain({"type": "Claim", "route": "R01", "hand": cards})


def _event(cards):
    return Event.from_dict({"kind": "claim", "seat": 0, "route": "R01", "a": "A", "b": "B",
                            "cards": cards})


def _start_field(cards):
    """A save whose start gives team 0's cardholder ``cards``."""
    game = Game.new(players=4, seed=1)
    data = json.loads(game.to_json())
    data["start"]["cardholders"][0] = cards
    return Game.from_json(json.dumps(data))


def _position(cards):
    return Game.from_position(players=4, hands=[cards, {}, {}, {}])


def _view(cards):
    """A seat's view from the class server whose hand is ``cards``."""
    game = Game.new(players=4, seed=1)
    data = view_to_plain(game.view(0))
    data["hand"] = cards
    return view_from_plain(data, game.board)


READERS = {"action": (_action, ActionError), "event": (_event, SaveError),
           "save": (_start_field, SaveError), "position": (_position, SetupError),
           "view": (_view, ViewError)}
# Cards the deck of C1 cannot hold, by hand: one count above the whole deck, a fraction, a
# bool, a negative count, a colour that is none, a list, an entry per colour and one more.
JUNK = [{"red": MOST_CARDS + 1}, {"red": 1.5}, {"red": True}, {"red": -1}, {"mauve": 1},
        ["red"], {**{c.value: 0 for c in Color}, "gray": 0}, {1: 2}, {"red": "2"}]


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_every_reader_of_card_counts_refuses_the_same_junk(reader, junk):
    read, error = READERS[reader]
    with pytest.raises(error) as info:
        read(junk)
    assert isinstance(info.value, TTRError)


def test_the_one_bound_is_the_whole_deck():
    assert MOST_CARDS == 12 * 8 + 14  # C1: 110 cards, 12 of each of 8 colours, 14 locomotives
    assert CardCounts.from_plain({"red": MOST_CARDS}) == CardCounts(red=MOST_CARDS)
    assert _action({"red": MOST_CARDS}).hand == CardCounts(red=MOST_CARDS)
    assert _event({"locomotive": MOST_CARDS}).cards == CardCounts(locomotive=MOST_CARDS)
    assert _view({"red": MOST_CARDS}).hand == CardCounts(red=MOST_CARDS)
    assert CardCounts.from_plain(CardCounts(blue=2).to_dict()) == CardCounts(blue=2)


# --- one wire name per event: the save's ``kind`` form, on the class server's wire too ----------
def _events_of_every_kind() -> list[Event]:
    """Each kind once, built from its class (a new kind is in ``KINDS``, so it is here at once),
    and the events of a real game: draws from the row, tunnels, claims, tickets."""
    made = [cls(seat=None if cls is ev.Setup else 1) for cls in ev.KINDS.values()]
    return made + list(finished_bot_game(4, 5, bot=GreedyBot).events)


def test_an_event_on_the_wire_is_its_saved_form_and_reads_back():
    events = _events_of_every_kind()
    assert {e.kind for e in events} == set(ev.KINDS)
    for e in events:
        plain = to_plain(e)
        assert plain == e.to_dict() and plain["kind"] == e.kind and "type" not in plain
        assert event_from_plain(json.loads(json.dumps(plain))) == e
    assert to_plain(events) == [e.to_dict() for e in events]  # the server sends a list


def test_the_class_server_sends_each_event_as_its_saved_form(tmp_path):
    fake = InProcess(tmp_path / "t.sqlite3")
    table = fake.store.create(4, 3, {})
    for _ in range(40):
        game = table.game
        fake.store.move(table, game.to_move, game.legal_actions()[0])
    saved = [e.to_dict() for e in table.game.events]
    assert len({e["kind"] for e in saved}) > 3
    assert seat_body(table, 2)["event_data"] == saved
    assert public_snapshot(table)["event_data"] == saved
    assert [event_from_plain(e) for e in seat_body(table, 0, 5)["event_data"]] == \
        list(table.game.events[5:])


def test_no_event_class_name_is_a_wire_name():
    names = {cls.__name__ for cls in ev.KINDS.values()}
    assert not names & set(ev.KINDS)  # no kind is spelled as its class
    found = [f"{name}:{node.lineno}" for name, tree in _sources() for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and node.value in names]
    assert found == []
    pages = sorted((TTRLIB / "server" / "templates").glob("*.html"))
    assert pages and [p.name for p in pages if any(n in p.read_text() for n in names)] == []


@pytest.mark.parametrize("junk, words", [
    ({"type": "Claimed", "seat": 0, "route": "R01", "a": "A", "b": "B", "cards": {}}, "'kind'"),
    ({"kind": "claim", "seat": 0}, "'route' is missing"),
    ({"kind": "draw", "seat": 0, "step": "third", "slot": None, "card": None, "to": None},
     "'step'"),
    ("x" * 5000, "must be a table"),
])
def test_an_event_the_server_cannot_have_sent_is_a_view_error(junk, words):
    with pytest.raises(ViewError) as info:
        event_from_plain(junk)
    assert words in str(info.value) and len(str(info.value)) < 300


# --- a board's route and ticket entries: read once, by one reader --------------------------------
def test_each_route_and_ticket_entry_is_read_once(monkeypatch):
    """Every field of every entry is read exactly once (no checking pass before a building pass),
    and what a route and a ticket share (id, a, b) by the one reader of entries."""
    reads: Counter[tuple[str, str]] = Counter()
    real = board_module._field

    def counted(entry, key, kind, source, where, default=...):
        reads[where.split(" ")[0], key] += 1
        return real(entry, key, kind, source, where, default)

    shared: Counter[str] = Counter()
    real_entries = board_module._entries

    def entries(data, key, *rest):
        for item in real_entries(data, key, *rest):
            shared[item[0].split(" ")[0]] += 1
            yield item

    monkeypatch.setattr(board_module, "_field", counted)
    monkeypatch.setattr(board_module, "_entries", entries)
    data = tomllib.loads(board_module.TEACHING_BOARD_PATH.read_text(encoding="utf-8"))
    board = board_module.board_from_dict(data)
    names = [f"routes[{i}]" for i in range(len(board.routes))] + \
        [f"tickets[{i}]" for i in range(len(board.tickets))]
    assert shared == Counter(names)
    for where in names:
        for key in ("id", "a", "b", "length" if where.startswith("r") else "points"):
            assert reads[where, key] == 1, (where, key)
    assert max(reads.values()) == 1


def test_the_entry_checks_are_written_once():
    # the words of the checks a route and a ticket share: one place in the loader says each
    tree = ast.parse((TTRLIB / "board.py").read_text(encoding="utf-8"))
    parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    texts = [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)
             or isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in parts]
    for words in ("name the same city", "repeats an earlier", "non-empty list of tables"):
        assert sum(words in t for t in texts) == 1, words
    assert sum(t[:-1].endswith(" is a table") for t in texts) == 1  # "a route/ticket is a table"


# --- a pending tunnel attempt: one codec of its fields, for the save and the server's view ------
def _pending_tunnel() -> Game:
    """Seat 0 lays 2 green from its hand and 2 from its team's cardholder on Kabul - Kashgar
    (tunnel 5): every field of the attempt holds something."""
    game = Game.from_position(
        seed=35, hands=[CardCounts(green=4, locomotive=1), CardCounts(red=2), CardCounts(),
                        CardCounts()],
        cardholders=[CardCounts(green=2), CardCounts()],
        draw_pile=["green", "red", "locomotive", "blue", "white", "black"])
    game.apply(act.Claim("kabul-kashgar", hand=CardCounts(green=2),
                         cardholder=CardCounts(green=2)))
    assert game.phase is Phase.TUNNEL
    return game


def test_the_tunnel_codec_is_the_attempts_fields():
    declared = dataclasses.fields(TunnelAttempt)
    assert tunnel_codec.FIELDS == declared
    assert list(tunnel_codec.KEYS) == [f.name for f in declared]
    t = _pending_tunnel().tunnel
    assert all(getattr(t, f.name) not in ("", (), CardCounts()) for f in declared) and t.extra, t
    assert list(tunnel_codec.tunnel_to_dict(t)) == list(tunnel_codec.KEYS.values())
    # the save's keys of format 4, which must not change (laid_holder is saved as laid_cardholder)
    assert sorted(tunnel_codec.KEYS.values()) == ["color", "extra", "laid_cardholder",
                                                 "laid_hand", "revealed", "route", "seat"]


def test_a_pending_tunnel_round_trips_through_the_save_and_the_servers_view():
    game = _pending_tunnel()
    t = game.tunnel
    saved = json.loads(game.to_json())["start"]["tunnel"]
    assert saved is None  # a position's start waits for a turn: the attempt is in the history
    assert Game.from_json(game.to_json()).tunnel == t
    written = tunnel_codec.tunnel_to_dict(t)
    assert state_data(game.state)["tunnel"] == written  # what a save's start holds
    for seat in range(4):
        plain = json.loads(json.dumps(view_to_plain(game.view(seat))))
        assert plain["tunnel"] == written  # one form on the server's wire and in a save
        assert view_from_plain(plain, game.board).tunnel == t
    assert public_to_plain(game.view(0))["tunnel"] == written
    assert tunnel_codec.tunnel_from_dict(written, game.board, 4) == t


def test_a_saved_start_with_a_tunnel_reads_back_by_the_codec():
    game = _pending_tunnel()
    data = state_data(game.state)
    board = board_module.board_from_dict(data["board"])
    start = {k: v for k, v in data.items() if k not in ("board", "players")}
    assert save_module._start(start, board, 4).tunnel == game.tunnel


@pytest.mark.parametrize("key", sorted(tunnel_codec.KEYS.values()))
def test_a_bad_tunnel_field_is_refused_naming_it(key):
    game = _pending_tunnel()
    data = state_data(game.state)
    board = board_module.board_from_dict(data["board"])
    start = {k: v for k, v in data.items() if k not in ("board", "players")}
    start["tunnel"] = {**start["tunnel"], key: [["junk"] * 500]}
    with pytest.raises(SaveError) as info:
        save_module._start(start, board, 4)
    message = str(info.value)
    assert "'start.tunnel'" in message and repr(key) in message and len(message) < 300
    plain = view_to_plain(game.view(0))
    plain["tunnel"] = start["tunnel"]
    with pytest.raises(ViewError) as info:
        view_from_plain(plain, game.board)
    assert "view.tunnel" in str(info.value) and repr(key) in str(info.value)
    assert len(str(info.value)) < 400


def test_only_the_codec_spells_the_attempts_fields():
    # the saved key, and a TunnelAttempt built field by field: the rules make one (U1), the
    # codec reads one back; nothing else lists its fields
    spelled = sorted({name for name, tree in _sources() for node in ast.walk(tree)
                      if isinstance(node, ast.Constant) and node.value in ("laid_cardholder",
                                                                           "laid_holder")})
    built = sorted({name for name, tree in _sources() for node in ast.walk(tree)
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "TunnelAttempt"})
    assert spelled == ["tunnel_codec.py"]
    assert built == ["rules/tunnels.py", "tunnel_codec.py"]
