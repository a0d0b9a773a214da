"""Mutated saves: each one is refused with a short ``SaveError`` naming a field, or it is a game
that is valid by the checks written here, whose log explains its state, and that can go on
(issue 11, item 6; issue 18, item 4).

The saves (format 4: a start and a history) come from seeded games in every phase, with 4 and 6
players, from deals and from positions, with chance steps (``resample_hidden``, ``copy(rng)``).
A mutation deletes a field or an entry, changes a type or a number, swaps two lists or two
entries, puts a ticket in a second place, moves a card, sets a huge value, nests deeply, writes a
5,000-digit number, renames a key to a non-ASCII one, breaks the UTF-8 bytes, or changes the
history: drops, repeats, swaps or cuts steps, takes a step from another save, adds a chance step.
Then either

* ``Game.from_json`` raises ``SaveError`` (nothing else), with a message of at most
  ``MAX_MESSAGE`` characters that names a field of the save (``field 'start.hands[2]'``,
  ``field 'history[31]'``) or says the text itself is broken; or
* the loaded game passes the checks below, written apart from ``ttrlib.validity``: the 110 cards
  by colour (C1, counted here), 27 trains a seat (C3), every ticket in one place, K3 ownership,
  the face-up row (C5), offer sizes (T1, T2), the final round (E1), readable events; its log
  explains its state (``log_oracle``: routes owned, turns, the seat to move, cards per team,
  known cards, a card waiting to be placed); and it can go on: a legal action unless it is
  over, random legal actions apply, and it saves and loads again.

The listed cases of the issue are regression tests at the end.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from log_oracle import log_contradictions
from mutation_helpers import at, paths, put
from quick_profile import examples

from ttrlib import CardCounts, Game, SaveError, narration
from ttrlib import actions as act
from ttrlib.bots import RandomBot
from ttrlib.cards import Color
from ttrlib.errors import MAX_MESSAGE
from ttrlib.game import Phase
from ttrlib.save import start_to_dict

L = Color.LOCOMOTIVE
COLOURS = ["purple", "white", "blue", "yellow", "orange", "black", "red", "green"]
DECK = {**{c: 12 for c in COLOURS}, "locomotive": 14}  # C1, written out here
TRAINS = 27  # C3
TICKETS_DEALT, TICKETS_DRAWN = 5, 4  # T1, T2
FIELDS = set(json.loads(Game.new(players=4, seed=1).to_json()))

# --------------------------------------------------------------------------------------------------
# real saves in every phase
# --------------------------------------------------------------------------------------------------


def _collect(players: int, seeds: range) -> dict[str, str]:
    """The first save of each phase (and of the final round, of a hidden setup choice) seen in
    seeded random games."""
    found: dict[str, str] = {}
    for seed in seeds:
        game = Game.new(players=players, seed=seed)
        bots = [RandomBot(seed=seed * 10 + s) for s in range(players)]
        while True:
            kind = game.phase.value
            if game.phase is Phase.SETUP_TICKETS and game.setup_choices:
                kind = "setup_hidden_choice"
            elif game.phase is Phase.PLACE_CARD and game.taken_slot is not None:
                kind = "place_face_up_card"
            elif game.phase is Phase.TURN and game.final_turns_left is not None:
                kind = "final_round"
            found.setdefault(f"{players}p-{kind}", game.to_json())
            if game.is_over:
                break
            game.apply(bots[game.to_move].choose(game.view(game.to_move), game.legal_actions()))
        if len(found) == 10:
            break
    return found


def _positions() -> dict[str, str]:
    """Saves of positions (``from_position``), and of games with chance steps."""
    bots = [RandomBot(seed=70 + s) for s in range(6)]

    def go(game: Game, steps: int) -> str:
        for _ in range(steps):
            if not game.is_over:
                game.apply(bots[game.to_move].choose(game.view(game.to_move), game.legal_actions()))
        return game.to_json()

    board = Game.new().board
    trigger, used = {}, set()
    for seat in (0, 1):  # team A at the E1 trigger: 25 trains each on the board
        left = 25
        for r in sorted(board.routes, key=lambda r: -r.length):
            if r.length <= left and (r.group or r.id) not in used:
                trigger[r.id], left = seat, left - r.length
                used.add(r.group or r.id)
    mid = Game.new(players=4, seed=71)
    go(mid, 90)
    chance = mid.resample_hidden(1, np.random.default_rng(72)).copy(np.random.default_rng(73))
    return {
        "4p-position": go(Game.from_position(
            seed=74, claimed={"kabul-karachi": 0, "hanoi-kunming": 3},
            hands=[CardCounts(red=3, locomotive=1), CardCounts(green=2), CardCounts(),
                   CardCounts(blue=4)], to_move=2), 6),
        "6p-position": go(Game.from_position(players=6, seed=75, to_move=4), 9),
        "4p-position-trigger": go(Game.from_position(seed=76, claimed=trigger), 5),
        "4p-chance-steps": go(chance, 7),
    }


SAVES = {**_collect(4, range(40)), **_collect(6, range(40)), **_positions()}


def test_every_phase_has_saves_for_both_player_counts():
    kinds = ["setup_tickets", "setup_hidden_choice", "turn", "place_card", "place_face_up_card",
             "second_card", "choose_tickets", "tunnel", "final_round", "over"]
    dealt = sorted(k for k in SAVES if "position" not in k and "chance" not in k)
    assert dealt == sorted(f"{p}p-{k}" for p in (4, 6) for k in kinds)
    origins = {json.loads(text)["origin"] for text in SAVES.values()}
    steps = {s["type"] for text in SAVES.values() for s in json.loads(text)["history"]}
    assert origins == {"new", "position"} and {"Resample", "Reseed"} <= steps


# --------------------------------------------------------------------------------------------------
# the checks a loaded game must pass, written apart from ttrlib.validity
# --------------------------------------------------------------------------------------------------


def counted_cards(game: Game) -> Counter:
    count: Counter = Counter()
    for card in game.draw_pile + game.discard + [c for c in game.face_up if c is not None]:
        count[card.value] += 1
    for cards in game.hands + game.holders:
        for colour in Color:
            count[colour.value] += cards[colour]
    if game.drawn is not None:
        count[game.drawn.value] += 1
    if game.tunnel is not None:
        for colour in Color:
            count[colour.value] += game.tunnel.laid_hand[colour] + game.tunnel.laid_holder[colour]
        for card in game.tunnel.revealed:
            count[card.value] += 1
    return count


def assert_valid(game: Game) -> None:
    board, n = game.board, game.players
    assert counted_cards(game) == Counter(DECK)  # C1
    for seat in range(n):  # C3
        laid = sum(board.route(r).length for r, s in game.owners.items() if s == seat)
        assert game.trains[seat] >= 0 and game.trains[seat] + laid == TRAINS
    places = game.ticket_deck + [t for x in game.tickets + game.team_tickets + game.offers for t in x]
    assert sorted(places) == sorted(t.id for t in board.tickets)
    groups: dict[str, list[str]] = {}  # K3
    for r in board.routes:
        if r.group:
            groups.setdefault(r.group, []).append(r.id)
    for group, ids in groups.items():
        seats = [game.owners[r] for r in ids if r in game.owners]
        assert len(set(seats)) == len(seats), group  # one seat never holds two parallel tracks
        if n == 4 and group not in board.open_groups:
            assert len(seats) <= len(ids) - 1, group  # double: 1 of 2; triple: 2 of 3
    row = [c for c in game.face_up if c is not None]
    if row.count(L) >= 3:  # C5: the policy keeps such a row only when no reset helps, or 5 failed
        row_events = [e.kind for e in game.events if e.kind in ("reset", "no_reset")
                      or e.kind == "draw" and e.card is not None]
        if game.taken_slot is not None:
            row_events = row_events[:-1]  # the face-up card waiting to be placed (D3)
        assert sum(c is not L for c in game.draw_pile + game.discard + row) < 3 or \
            row_events[-1:] == ["no_reset"] or row_events[-5:] == ["reset"] * 5
    phase = game.phase
    for seat, offer in enumerate(game.offers):
        if phase is Phase.SETUP_TICKETS:
            assert len(offer) in (0, TICKETS_DEALT)  # T1
        elif phase is Phase.CHOOSE_TICKETS and seat == game.to_move:
            assert len(offer) == TICKETS_DRAWN or 1 <= len(offer) and not game.ticket_deck  # T2
        else:
            assert offer == []
    if phase is not Phase.OVER:  # E1
        assert game.final_turns_left is None or 1 <= game.final_turns_left <= n
        assert game.passes_in_a_row < n
    for logged in game.events:  # every later reader (the log, the widgets) can read each one
        assert isinstance(logged.kind, str) and isinstance(narration.text(logged), str)
        assert logged.seat is None or logged.seat in range(n)


def assert_can_go_on(game: Game, seed: int, steps: int = 4) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        actions = game.legal_actions()
        if game.is_over:
            assert actions == []
            return
        assert actions, f"no legal action in the {game.phase.value} phase"
        game.apply(actions[int(rng.integers(len(actions)))])
        assert_valid(game)
        game.view(game.to_move)  # what the widgets read


FIELD_NAMED = re.compile(r"field [\"']([a-z_]+)")  # quoted by repr: "..." when the path holds a '


def assert_refusal_is_good(error: SaveError) -> str:
    message = str(error)
    assert len(message) <= MAX_MESSAGE, len(message)
    named = FIELD_NAMED.search(message)
    if message.endswith("is not a field of a saved game"):
        pass  # the field named is the unknown one
    elif named:
        assert named.group(1) in FIELDS, message
    else:
        assert message.startswith(("saved game: the text", "saved game: the top level",
                                   "saved game: a save is")), message
    return message


def assert_log_explains(game: Game, text: str | bytes) -> None:
    data = json.loads(text)  # it loaded, so it is JSON
    problems = log_contradictions(game, dict(data["start"], origin=data["origin"]))
    assert not problems, problems


def outcome(text: str | bytes, seed: int = 0) -> str:
    try:
        game = Game.from_json(text)
    except SaveError as error:
        assert_refusal_is_good(error)
        return "refused"
    assert_valid(game)
    assert_log_explains(game, text)
    assert_can_go_on(game, seed)
    again = game.to_json()  # what was played on saves and loads again
    assert Game.from_json(again).to_json() == again
    return "accepted"


# --------------------------------------------------------------------------------------------------
# mutations
# --------------------------------------------------------------------------------------------------


HUGE_INT, DEEP = "@@huge-int@@", "@@deep@@"
OTHER_VALUES = [None, True, False, 0, -1, 1.5, "x", "", [], {}, [[]], [["T01"]], {"a": 1},
                "red", "turn", float("nan"), float("inf")]


def m_delete(tree, data):
    path = data.draw(st.sampled_from([p for p in paths(tree) if p]))
    parent = at(tree, path[:-1])
    del parent[path[-1]]


def m_retype(tree, data):
    path = data.draw(st.sampled_from([p for p in paths(tree) if p]))
    put(tree, path, copy.deepcopy(data.draw(st.sampled_from(OTHER_VALUES))))


def m_renumber(tree, data):
    ints = [p for p in paths(tree) if p and isinstance(at(tree, p), int)
            and not isinstance(at(tree, p), bool)]
    path = data.draw(st.sampled_from(ints))
    v = at(tree, path)
    put(tree, path, data.draw(st.sampled_from([v + 1, v - 1, 0, -1, 2 * v + 1, 2**64, 2**200])))


def m_swap(tree, data):
    lists = [p for p in paths(tree) if p and isinstance(at(tree, p), list) and len(at(tree, p)) > 1]
    if data.draw(st.booleans()):  # two entries of one list
        path = data.draw(st.sampled_from(lists))
        items = at(tree, path)
        i = data.draw(st.integers(0, len(items) - 1))
        j = data.draw(st.integers(0, len(items) - 1))
        items[i], items[j] = items[j], items[i]
    else:  # two whole fields
        a = data.draw(st.sampled_from(sorted(tree)))
        b = data.draw(st.sampled_from(sorted(tree)))
        tree[a], tree[b] = tree[b], tree[a]


def m_duplicate_ticket(tree, data):
    tree = tree["start"]
    places = [("ticket_deck",)] + [(f, i) for f in ("tickets", "team_tickets", "offers")
                                    for i in range(len(tree[f]))]
    ids = [t for p in places for t in at(tree, p)]
    at(tree, data.draw(st.sampled_from(places))).append(data.draw(st.sampled_from(ids)))


def m_move_card(tree, data):
    """A card leaves one place and appears in another (or changes colour)."""
    tree = tree["start"]
    lists = [("draw_pile",), ("discard",)]
    tables = [(f, i) for f in ("hands", "cardholders") for i in range(len(tree[f]))]
    sources = [p for p in lists if at(tree, p)] + [p for p in tables if at(tree, p)]
    src = data.draw(st.sampled_from(sources))
    if isinstance(at(tree, src), list):
        card = at(tree, src).pop()
    else:
        counts = at(tree, src)
        card = data.draw(st.sampled_from(sorted(counts)))
        counts[card] -= 1
    if data.draw(st.booleans()):
        card = data.draw(st.sampled_from(sorted(DECK)))
    dst = data.draw(st.sampled_from(lists + tables + [("face_up",), ("drawn",)]))
    if dst == ("face_up",):
        tree["face_up"][data.draw(st.integers(0, 4))] = card
    elif dst == ("drawn",):
        tree["drawn"] = card
    elif isinstance(at(tree, dst), list):
        at(tree, dst).append(card)
    else:
        at(tree, dst)[card] = at(tree, dst).get(card, 0) + 1


def m_huge(tree, data):
    path = data.draw(st.sampled_from([p for p in paths(tree) if p]))
    put(tree, path, data.draw(st.sampled_from(["x" * 1_000_000, list(range(100_000)), HUGE_INT,
                                               {str(i): i for i in range(10_000)}])))


def m_deep(tree, data):
    path = data.draw(st.sampled_from([p for p in paths(tree) if p]))
    put(tree, path, DEEP)


def m_non_ascii_key(tree, data):
    tables = [p for p in paths(tree) if isinstance(at(tree, p), dict) and at(tree, p)]
    table = at(tree, data.draw(st.sampled_from(tables)))
    key = data.draw(st.sampled_from(sorted(table)))
    table[data.draw(st.sampled_from(["\u0663", "\u00b2", "\uff10", key + "\u00e9", "\ud800"]))] = \
        table.pop(key)


def m_other_string(tree, data):
    strings = [p for p in paths(tree) if p and isinstance(at(tree, p), str)]
    path = data.draw(st.sampled_from(strings))
    others = sorted({at(tree, p) for p in strings[:400]})
    put(tree, path, data.draw(st.sampled_from(others)))


def m_history(tree, data):
    """Steps dropped, repeated, swapped or cut off, a step of another save put in, a chance step
    added."""
    steps = tree["history"]
    kind = data.draw(st.sampled_from(["drop", "repeat", "swap", "cut", "foreign", "chance"]))
    i = data.draw(st.integers(0, max(len(steps) - 1, 0)))
    if kind == "drop" and steps:
        del steps[i]
    elif kind == "repeat" and steps:
        steps.insert(i, copy.deepcopy(steps[i]))
    elif kind == "swap" and steps:
        j = data.draw(st.integers(max(i - 3, 0), min(i + 3, len(steps) - 1)))
        steps[i], steps[j] = steps[j], steps[i]
    elif kind == "cut":
        del steps[i:]
    elif kind == "foreign":
        other = json.loads(SAVES[data.draw(st.sampled_from(sorted(SAVES)))])["history"]
        if other:
            steps.insert(i, data.draw(st.sampled_from(other)))
    else:
        rng = np.random.default_rng(data.draw(st.integers(0, 99))).bit_generator.state
        step = data.draw(st.sampled_from([{"type": "Reseed", "rng": rng}, {
            "type": "Resample", "seat": data.draw(st.integers(-1, 6)), "rng": rng}]))
        steps.insert(data.draw(st.integers(0, len(steps))), step)


MUTATIONS = [m_delete, m_retype, m_renumber, m_swap, m_duplicate_ticket, m_move_card, m_huge,
             m_deep, m_non_ascii_key, m_other_string, m_history, m_history]


def serialise(tree, data) -> str | bytes:
    text = json.dumps(tree, sort_keys=True)
    depth = data.draw(st.sampled_from([40, 2_000, 100_000]))
    text = text.replace(json.dumps(DEEP), "[" * depth + "]" * depth)
    text = text.replace(json.dumps(HUGE_INT), "9" * 5000)
    if data.draw(st.integers(0, 9)) == 0:  # bad UTF-8 bytes somewhere
        raw = text.encode("utf-8")
        where = data.draw(st.integers(0, len(raw)))
        bad = data.draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x82"]))
        return raw[:where] + bad + raw[where:]
    return text


@settings(max_examples=examples(800), deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_mutated_save_is_refused_naming_a_field_or_is_valid_and_goes_on(data):
    name = data.draw(st.sampled_from(sorted(SAVES)))
    tree = json.loads(SAVES[name])
    for mutation in data.draw(st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=2)):
        try:
            mutation(tree, data)
        except (KeyError, IndexError, TypeError, AttributeError, ValueError):
            pass  # the first mutation broke what the second one looks for (not ttrlib's code)
    event(outcome(serialise(tree, data), seed=data.draw(st.integers(0, 2**32 - 1))))


@settings(max_examples=examples(300), deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_mutated_history_is_refused_naming_its_step_or_replays_to_a_game_its_log_explains(data):
    """Only the history changed: a refusal names the step (``history[i]``), else the game is
    valid, its log explains it (``log_oracle``) and it goes on."""
    name = data.draw(st.sampled_from(sorted(SAVES)))
    tree = json.loads(SAVES[name])
    for _ in range(data.draw(st.integers(1, 3))):
        m_history(tree, data)
    text = json.dumps(tree)
    try:
        Game.from_json(text)
    except SaveError as error:
        assert re.search(r"field 'history\[\d+\]'", assert_refusal_is_good(error)), str(error)
    event(outcome(text, seed=data.draw(st.integers(0, 2**32 - 1))))


@pytest.mark.parametrize("name", sorted(SAVES))
def test_every_unmutated_save_loads_and_goes_on(name):
    assert outcome(SAVES[name]) == "accepted"


# --------------------------------------------------------------------------------------------------
# the cases listed in the issue
# --------------------------------------------------------------------------------------------------
# (issue 11's cases; a state no start may hold is written whole as the start by ``as_start``,
# where the check of every position refuses it first, naming the field)
# --------------------------------------------------------------------------------------------------


def tree_of(name: str) -> dict:
    return json.loads(SAVES[name])


def as_start(name: str) -> dict:
    """The save ``name`` with the whole state it loads into as its start (but its log: a start
    holds at most 6 events), and no history."""
    tree = tree_of(name)
    tree["start"], tree["history"] = start_to_dict(Game.from_json(SAVES[name]).state), []
    tree["start"]["events"] = []
    return tree


def refused(tree_or_text, *words: str) -> str:
    text = tree_or_text if isinstance(tree_or_text, (str, bytes)) else json.dumps(tree_or_text)
    with pytest.raises(SaveError) as info:
        Game.from_json(text)
    message = assert_refusal_is_good(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return message


def free_parallel_tracks(tree: dict, players: int) -> tuple[str, str, int]:
    """Two tracks of a double route that nobody owns, not an open group, and their length."""
    board = Game.from_json(json.dumps(tree)).board
    claimed = tree["start"]["claimed"]
    for r in board.routes:
        others = board.parallel(r)
        if len(others) == 1 and r.group not in board.open_groups and \
                r.id not in claimed and others[0].id not in claimed:
            return r.id, others[0].id, r.length
    raise AssertionError("no free double route")


def give_routes(tree: dict, claims: dict[str, int], length: int) -> None:
    for rid, seat in claims.items():
        tree["start"]["claimed"][rid] = seat
        tree["start"]["trains"][seat] -= length


@pytest.mark.parametrize("seats", [(0, 2), (0, 1), (1, 1)])
def test_K3_both_tracks_of_a_double_route_with_4_players_are_refused(seats):
    tree = tree_of("4p-position")
    one, two, length = free_parallel_tracks(tree, 4)
    give_routes(tree, {one: seats[0], two: seats[1]}, length)
    refused(tree, "'start.claimed'", "K3")


def test_K3_with_6_players_both_tracks_are_fine_for_two_seats_but_not_for_one():
    tree = tree_of("6p-position")
    one, two, length = free_parallel_tracks(tree, 6)
    good = copy.deepcopy(tree)
    give_routes(good, {one: 0, two: 3}, length)
    good["history"] = []
    assert outcome(json.dumps(good)) == "accepted"
    give_routes(tree, {one: 4, two: 4}, length)
    refused(tree, "'start.claimed'", "K3")


@pytest.mark.parametrize("name", ["4p-position", "4p-turn"])
def test_C5_three_face_up_locomotives_are_refused(name):
    tree = tree_of(name)
    row, pile = tree["start"]["face_up"], tree["start"]["draw_pile"]
    for slot in range(3):
        if row[slot] is None:  # a position's row may be empty
            pile.remove("locomotive")
            row[slot] = "locomotive"
        elif row[slot] != "locomotive":
            i = pile.index("locomotive")
            pile[i], row[slot] = row[slot], "locomotive"
    refused(tree, "'start.face_up'", "C5")


def test_C5_three_face_up_locomotives_stay_when_fewer_than_3_other_cards_are_left():
    # C5 policy: every other card sits in hands; the row, pile and discard hold 3 locomotives
    # and 1 red card, so no reset could ever give a row with fewer than 3 locomotives.
    game = Game.from_position(face_up=[L, L, L, Color.RED, None], draw_pile=[],
                              discard=CardCounts(), rest_to=0)
    assert outcome(game.to_json()) == "accepted"


def test_T1_T2_offers_of_the_wrong_size_are_refused():
    tree = as_start("4p-choose_tickets")
    s = tree["start"]
    s["ticket_deck"].append(s["offers"][s["to_move"]].pop())  # 3 drawn while the deck has more
    refused(tree, "'start.offers'", "T2")
    tree = tree_of("6p-setup_tickets")
    tree["start"]["ticket_deck"].append(tree["start"]["offers"][4].pop())
    refused(tree, "'start.offers'", "T1")


def test_no_legal_action_and_not_over_is_refused():
    # The second card is due (D1), but no card is left to draw: the deck, the discard and the
    # face-up row are moved into an opponent's hand.
    tree = as_start("4p-second_card")
    s = tree["start"]
    dump = s["hands"][(s["to_move"] + 1) % 4]
    for card in s["draw_pile"] + s["discard"] + [c for c in s["face_up"] if c]:
        dump[card] = dump.get(card, 0) + 1
    s["draw_pile"], s["discard"], s["face_up"] = [], [], [None] * 5
    refused(tree, "'start.phase'", "no legal action")


@pytest.mark.parametrize("name", ["4p-turn", "6p-final_round", "4p-position"])
def test_E1_final_turns_left_0_that_never_ends_is_refused(name):
    tree = tree_of(name) if name == "4p-position" else as_start(name)
    tree["start"]["final_turns_left"] = 0
    refused(tree, "E1")


@pytest.mark.parametrize("events", [[{}], [{"seat": 0, "kind": "draw"}], ["draw"], {"0": {}},
                                    [{"seat": 9, "kind": "x", "text": "y"}]])
def test_events_that_later_readers_cannot_read_are_refused(events):
    tree = tree_of("4p-turn")
    tree["start"]["events"] = events
    refused(tree, "'start.events'")


@pytest.mark.parametrize("key", ["\u0663", "\u00b2", "\uff10", "00", " 0", "\ud800"])
def test_a_non_ascii_or_odd_setup_choices_key_is_refused(key):
    tree = as_start("4p-setup_hidden_choice")
    (seat, choice), = tree["start"]["setup_choices"].items()
    tree["start"]["setup_choices"] = {key: choice}
    refused(tree, "'start.setup_choices'")


def test_a_list_of_lists_as_keep_is_refused():
    tree = as_start("6p-setup_hidden_choice")
    (seat, choice), = tree["start"]["setup_choices"].items()
    choice["keep"] = [[t] for t in choice["keep"]]
    refused(tree, "'start.setup_choices'")


@pytest.mark.parametrize("bad", [b"\xff", b"\xc3", b"\xed\xa0\x80"])
def test_invalid_utf8_is_refused(bad):
    raw = SAVES["4p-turn"].encode()
    refused(raw[:100] + bad + raw[100:], "UTF-8")


def test_nesting_100000_deep_is_refused():
    text = SAVES["4p-turn"].replace('"history": [', '"history": [' + "[" * 100_000 + "]" * 100_000
                                    + ", ", 1)
    refused(text)
    tree = tree_of("4p-turn")
    tree["start"]["turns"] = json.loads("[" * 40 + "]" * 40)
    refused(tree, "field 'start.turns[0]", "deeper")


def test_a_5000_digit_integer_is_refused_naming_its_field():
    text = SAVES["4p-turn"].replace('"turns": ', '"turns": ' + "9" * 5000 + ", \"x\": ", 1)
    text = re.sub(r'"turns": (9{5000}), "x": \d+', r'"turns": \1', text)
    refused(text, "'start.turns'", "5000 digits")


def test_a_50_mb_value_is_never_echoed():
    tree = tree_of("4p-turn")
    tree["start"]["phase"] = "x" * 50_000_000
    message = refused(tree, "longer than")
    assert len(message) <= MAX_MESSAGE
    tree["start"]["phase"] = "x" * 900_000  # under the text bound: read, and named
    message = refused(tree, "'start.phase'")
    assert len(message) <= MAX_MESSAGE


def test_a_seat_playing_with_a_ticket_choice_of_another_seat_is_refused():
    # T1: only the seat just before the one to move, whose teammate has not chosen, can have a
    # hidden choice.
    tree = as_start("4p-setup_hidden_choice")
    (seat, choice), = tree["start"]["setup_choices"].items()
    tree["start"]["setup_choices"] = {str(int(seat) + 1): choice}
    refused(tree, "'start.setup_choices'")


def test_a_tunnel_asking_for_nothing_is_refused():
    # U2: a tunnel whose revealed cards match nothing is claimed at once; it never waits.
    tree = as_start("4p-tunnel")
    s = tree["start"]
    t = s["tunnel"]
    colour = t["color"]
    for i, card in enumerate(t["revealed"]):
        if card in (colour, "locomotive"):
            other = next(c for c in COLOURS if c != colour and c in s["draw_pile"])
            j = s["draw_pile"].index(other)
            s["draw_pile"][j], t["revealed"][i] = card, other
    t["extra"] = 0
    refused(tree, "'start.tunnel'", "U2")


def test_a_pass_count_that_should_have_ended_the_game_is_refused():
    tree = tree_of("6p-position")
    tree["start"]["passes_in_a_row"] = 6
    refused(tree, "'start.phase'")


def test_KeepTickets_from_a_loaded_game_still_work():
    # A loaded hidden choice is a real KeepTickets: seat 1 chooses and both are placed (T1).
    game = Game.from_json(SAVES["4p-setup_hidden_choice"])
    offer = game.ticket_offer()
    game.apply(act.KeepTickets(offer[:3], share=offer[0]))
    assert_valid(game)
