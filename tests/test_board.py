"""The board loader and the bundled teaching board (shared/rules/team-asia.md, "The board").

Part 1 checks that ``ttrlib/boards/teaching.toml`` meets the project's requirements: the cities of
the region, enough routes in all 8 colours (C1) plus gray, Himalaya tunnels revealing 4, 5 and 6
cards (U1), double and triple routes with Hong Kong - Canton as the open group (K3), a connected map
and tickets whose points follow the shortest connection (E3).

Part 2 checks that ``load_board`` rejects malformed files with a ``BoardError`` naming the file, the
entry and the field, and the small API of ``Board``.
"""

from __future__ import annotations

import copy
import heapq
import re
from collections import Counter, deque
from pathlib import Path

import pytest
from mutation_helpers import to_toml, toml_value

from ttrlib.board import (
    MAX_ROUTE_LENGTH,
    TEACHING_BOARD_PATH,
    Board,
    Route,
    Ticket,
    board_from_dict,
    load_board,
    teaching_board,
    tomllib,  # tomllib, or tomli on Python 3.10
)
from ttrlib.cards import TRAIN_COLORS, Color
from ttrlib.errors import BoardError, TTRError

# --------------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------------

REQUIRED_CITIES = {
    "Kabul", "Kashgar", "Rawalpindi", "Lahore", "Karachi", "Delhi", "Kathmandu", "Lhasa",
    "Calcutta", "Dacca", "Bombay", "Madras", "Mandalay", "Rangoon", "Kunming", "Chengdu",
    "Lanchow", "Xi'an", "Peking", "Harbin", "Ulan Bator", "Shanghai", "Hankow", "Foochow",
    "Canton", "Hong Kong", "Nanning", "Hanoi",
}  # fmt: skip

# The mountain side of the Himalaya / Karakoram: every tunnel has an end here (U1).
MOUNTAIN_CITIES = {"Lhasa", "Kashgar", "Kathmandu"}


def city_key(name: str) -> str:
    """'Ulan Bator' -> 'ulanbator', "Xi'an" -> 'xian' (the spelling used in route ids)."""
    return name.lower().replace(" ", "").replace("'", "")


def adjacency(board: Board, *, tunnels: bool = True) -> dict[str, dict[str, int]]:
    """City -> neighbour -> shortest track length (optionally leaving tunnels out)."""
    adj: dict[str, dict[str, int]] = {c: {} for c in board.cities}
    for r in board.routes:
        if r.is_tunnel and not tunnels:
            continue
        for x, y in ((r.a, r.b), (r.b, r.a)):
            adj[x][y] = min(r.length, adj[x].get(y, r.length))
    return adj


def reachable(adj: dict[str, dict[str, int]], start: str) -> set[str]:
    """Breadth-first search."""
    seen = {start}
    queue = deque([start])
    while queue:
        city = queue.popleft()
        for nxt in adj[city]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def shortest(adj: dict[str, dict[str, int]], start: str, goal: str) -> float:
    """Dijkstra: the fewest trains joining ``start`` and ``goal`` (inf if not connected)."""
    dist = {start: 0}
    heap = [(0, start)]
    while heap:
        d, city = heapq.heappop(heap)
        if city == goal:
            return d
        if d > dist[city]:
            continue
        for nxt, length in adj[city].items():
            if d + length < dist.get(nxt, float("inf")):
                dist[nxt] = d + length
                heapq.heappush(heap, (d + length, nxt))
    return float("inf")


@pytest.fixture(scope="module")
def board() -> Board:
    return teaching_board()


# --------------------------------------------------------------------------------------------------
# Part 1: the teaching board
# --------------------------------------------------------------------------------------------------


def test_teaching_board_loads_from_the_bundled_file(board):
    assert isinstance(board, Board)
    assert TEACHING_BOARD_PATH.name == "teaching.toml"
    assert board.source == str(TEACHING_BOARD_PATH)
    assert board == load_board(TEACHING_BOARD_PATH)
    assert teaching_board() is board  # cached
    assert re.fullmatch(r"<Board '.*': 28 cities, \d+ routes, \d+ tickets>", repr(board))


def test_teaching_board_says_it_is_not_the_published_map(board):
    assert "teaching board" in board.name
    assert "Team Asia" in board.name
    assert "not the published map" in board.name
    head = TEACHING_BOARD_PATH.read_text(encoding="utf-8").split("\n\nname =")[0]
    assert all(line.startswith("#") for line in head.splitlines() if line)
    assert "teaching board of our own" in head
    assert "NOT the published" in head


def test_teaching_board_cities(board):
    assert len(board.cities) >= 25
    assert REQUIRED_CITIES <= set(board.cities)
    assert len(set(board.cities)) == len(board.cities)
    assert len({city_key(c) for c in board.cities}) == len(board.cities)  # ids stay unambiguous


def test_teaching_board_route_counts_and_lengths(board):
    assert 60 <= len(board.routes) <= 80
    lengths = Counter(r.length for r in board.routes)
    assert all(1 <= n <= MAX_ROUTE_LENGTH for n in lengths)
    assert sum(count for n, count in lengths.items() if n > 6) <= 2  # "a couple of 7/8"
    assert {1, 2, 3, 4, 5, 6} <= set(lengths)


def test_teaching_board_colours_are_balanced(board):
    colours = Counter(r.color for r in board.routes if not r.is_gray)
    assert set(colours) == set(TRAIN_COLORS)  # all 8 train colours of C1, never locomotive
    assert Color.LOCOMOTIVE not in colours
    assert max(colours.values()) - min(colours.values()) <= 1
    grays = sum(r.is_gray for r in board.routes)
    assert 8 <= grays <= len(board.routes) // 4


def test_teaching_board_route_ids_follow_the_naming_rule(board):
    for r in board.routes:
        first, second = sorted([city_key(r.a), city_key(r.b)])
        base = f"{first}-{second}"
        if r.group:
            assert r.group == base, r.id
            size = len(board.parallel(r)) + 1
            assert re.fullmatch(rf"{re.escape(base)}-[1-{size}]", r.id), r.id
        else:
            assert r.id == base, r.id


def test_teaching_board_has_himalaya_tunnels(board):
    tunnels = [r for r in board.routes if r.is_tunnel]
    assert len(tunnels) >= 8
    assert {r.tunnel for r in tunnels} == {4, 5, 6}  # U1: Team Asia tunnels reveal 4 to 6 cards
    assert any(r.is_gray for r in tunnels)  # U7: a gray tunnel
    assert sum(not r.is_gray for r in tunnels) >= 5
    for r in tunnels:
        assert set(r.cities) & MOUNTAIN_CITIES, r.describe()
        assert r.describe().endswith(f"tunnel (reveals {r.tunnel})")
    # Only the mountains have tunnels: no tunnel between two cities of the plains or the coast.
    for r in board.routes:
        if not set(r.cities) & MOUNTAIN_CITIES:
            assert not r.is_tunnel, r.id


def test_teaching_board_double_and_triple_routes(board):
    groups: dict[str, list[Route]] = {}
    for r in board.routes:
        if r.group:
            groups.setdefault(r.group, []).append(r)
    sizes = Counter(len(tracks) for tracks in groups.values())
    assert set(sizes) <= {2, 3}
    assert sizes[2] >= 10
    assert sizes[3] >= 2  # K3: triple routes
    for name, tracks in groups.items():
        assert len({frozenset(t.cities) for t in tracks}) == 1, name
        assert len({t.length for t in tracks}) == 1, name
        assert len({t.tunnel for t in tracks}) == 1, name
        coloured = [t.color for t in tracks if not t.is_gray]
        assert len(coloured) == len(set(coloured)), f"{name}: two tracks of one colour"
    # K3 policy: two tracks between the same cities are always one group.
    pairs = Counter(frozenset(r.cities) for r in board.routes if not r.group)
    assert all(n == 1 for n in pairs.values())
    grouped = {frozenset(t.cities) for ts in groups.values() for t in ts}
    assert not grouped & set(pairs)


def test_teaching_board_hong_kong_canton_is_the_open_group(board):
    # K3: Hong Kong - Canton stays fully open in a 4-player game.
    assert board.open_groups == frozenset({"canton-hongkong"})
    first = board.route("canton-hongkong-1")
    second = board.route("canton-hongkong-2")
    assert set(first.cities) == set(second.cities) == {"Canton", "Hong Kong"}
    assert first.group == second.group == "canton-hongkong"
    assert board.parallel(first) == [second]
    assert not board.has_route("canton-hongkong-3")
    assert first.group in board.open_groups  # the example of the board.py docstring


def test_teaching_board_is_connected(board):
    adj = adjacency(board)
    assert reachable(adj, board.cities[0]) == set(board.cities)
    assert all(adj[c] for c in board.cities)


def test_teaching_board_ticket_ids_and_counts(board):
    assert 40 <= len(board.tickets) <= 50
    assert [t.id for t in board.tickets] == [f"T{n:02d}" for n in range(1, len(board.tickets) + 1)]
    pairs = [frozenset((t.a, t.b)) for t in board.tickets]
    assert all(len(p) == 2 for p in pairs)
    assert len(set(pairs)) == len(pairs), "two tickets for the same cities"
    assert all(4 <= t.points <= 22 for t in board.tickets)
    on_tickets = {c for t in board.tickets for c in (t.a, t.b)}
    assert on_tickets == set(board.cities)


def test_teaching_board_ticket_points_spread(board):
    points = [t.points for t in board.tickets]
    assert sum(p <= 8 for p in points) >= 10
    assert sum(9 <= p <= 14 for p in points) >= 10
    assert sum(p >= 15 for p in points) >= 10
    assert max(points) >= 20


def test_teaching_board_ticket_points_match_shortest_connection(board):
    adj = adjacency(board)
    for t in board.tickets:
        length = shortest(adj, t.a, t.b)
        assert length < float("inf"), f"{t.id}: {t.describe()} cannot be completed"
        assert length <= t.points <= 2 * length + 4, f"{t.id}: {t.describe()}, shortest {length}"


def test_teaching_board_ticket_points_follow_the_documented_rule(board):
    # The file's header: points = shortest connection in trains, plus 1 when every shortest
    # connection needs a tunnel.
    adj = adjacency(board)
    no_tunnels = adjacency(board, tunnels=False)
    for t in board.tickets:
        length = shortest(adj, t.a, t.b)
        bonus = 1 if shortest(no_tunnels, t.a, t.b) > length else 0
        assert t.points == length + bonus, f"{t.id}: {t.describe()}, shortest {length}"


def test_teaching_board_some_tickets_need_a_tunnel(board):
    no_tunnels = adjacency(board, tunnels=False)
    adj = adjacency(board)
    assert sum(shortest(no_tunnels, t.a, t.b) > shortest(adj, t.a, t.b) for t in board.tickets) >= 5


# --------------------------------------------------------------------------------------------------
# Part 2: the loader
# --------------------------------------------------------------------------------------------------


def tiny_board() -> dict:
    """A small valid board, in the layout of the TOML file."""
    return {
        "name": "tiny",
        "cities": ["Delhi", "Lahore", "Kathmandu", "Lhasa"],
        "open_groups": ["delhi-lahore"],
        "routes": [
            {"id": "delhi-lahore-1", "a": "Delhi", "b": "Lahore", "length": 2, "color": "red",
             "group": "delhi-lahore"},
            {"id": "delhi-lahore-2", "a": "Lahore", "b": "Delhi", "length": 2, "color": "gray",
             "group": "delhi-lahore"},
            {"id": "delhi-kathmandu", "a": "Delhi", "b": "Kathmandu", "length": 3,
             "color": "orange", "tunnel": 0},
            {"id": "kathmandu-lhasa", "a": "Kathmandu", "b": "Lhasa", "length": 3,
             "color": "gray", "tunnel": 5},
        ],
        "tickets": [
            {"id": "T01", "a": "Lahore", "b": "Lhasa", "points": 8},
            {"id": "T02", "a": "Delhi", "b": "Kathmandu", "points": 3},
        ],
    }  # fmt: skip


def write_board(tmp_path: Path, data: dict, name: str = "board.toml") -> Path:
    path = tmp_path / name
    path.write_text(to_toml(data), encoding="utf-8")
    return path


def test_tiny_board_is_valid_and_the_writer_round_trips(tmp_path):
    loaded = load_board(write_board(tmp_path, tiny_board()))
    direct = board_from_dict(tiny_board())
    assert direct.source == "<memory>"
    assert loaded.source == str(tmp_path / "board.toml")
    for attr in ("name", "cities", "routes", "tickets", "open_groups"):
        assert getattr(loaded, attr) == getattr(direct, attr)


def test_board_from_dict_builds_the_tiny_board():
    board = board_from_dict(tiny_board(), source="tiny.toml")
    assert board.name == "tiny"
    assert board.source == "tiny.toml"
    assert board.cities == ("Delhi", "Lahore", "Kathmandu", "Lhasa")
    assert board.open_groups == frozenset({"delhi-lahore"})
    assert [r.id for r in board.routes] == [
        "delhi-lahore-1", "delhi-lahore-2", "delhi-kathmandu", "kathmandu-lhasa",
    ]  # fmt: skip
    assert board.route("delhi-lahore-1") == Route(
        "delhi-lahore-1", "Delhi", "Lahore", 2, Color.RED, 0, "delhi-lahore"
    )
    gray = board.route("delhi-lahore-2")
    assert gray.color is None and gray.is_gray
    assert (gray.a, gray.b) == ("Lahore", "Delhi")  # endpoints keep the file's order
    tunnel = board.route("kathmandu-lhasa")
    assert tunnel.is_tunnel and tunnel.tunnel == 5 and tunnel.group == ""
    assert not board.route("delhi-kathmandu").is_tunnel
    assert board.tickets == (
        Ticket("T01", "Lahore", "Lhasa", 8),
        Ticket("T02", "Delhi", "Kathmandu", 3),
    )
    assert board.ticket("T02").describe() == "Delhi - Kathmandu (3)"
    assert board.has_ticket("T01") and not board.has_ticket("T03")
    described = board.route("kathmandu-lhasa").describe()
    assert described == "Kathmandu - Lhasa, 3 gray tunnel (reveals 5)"
    assert board.route("delhi-kathmandu").describe() == "Delhi - Kathmandu, 3 orange"


def test_board_from_dict_round_trip():
    data = tiny_board()
    first = board_from_dict(copy.deepcopy(data))
    back = {
        "name": first.name,
        "cities": list(first.cities),
        "open_groups": sorted(first.open_groups),
        "routes": [
            {"id": r.id, "a": r.a, "b": r.b, "length": r.length,
             "color": "gray" if r.color is None else r.color.value, "tunnel": r.tunnel,
             "group": r.group}
            for r in first.routes
        ],
        "tickets": [{"id": t.id, "a": t.a, "b": t.b, "points": t.points} for t in first.tickets],
    }  # fmt: skip
    assert board_from_dict(back) == first
    assert data == tiny_board()  # building a board does not change its input


def test_parallel_returns_the_other_tracks_of_a_group():
    board = board_from_dict(tiny_board())
    one, two = board.route("delhi-lahore-1"), board.route("delhi-lahore-2")
    assert board.parallel(one) == [two]
    assert board.parallel(two) == [one]
    assert board.parallel(board.route("kathmandu-lhasa")) == []


def test_parallel_on_the_teaching_board_triples(board):
    triples = [r for r in board.routes if len(board.parallel(r)) == 2]
    assert len(triples) >= 6  # two triple routes, three tracks each
    for r in triples:
        others = board.parallel(r)
        assert r not in others
        assert all(o.group == r.group for o in others)


def test_unknown_route_and_ticket_raise_key_error():
    board = board_from_dict(tiny_board())
    with pytest.raises(KeyError, match="no route 'delhi-peking'"):
        board.route("delhi-peking")
    with pytest.raises(KeyError, match="no ticket 'T99'"):
        board.ticket("T99")
    assert not board.has_route("delhi-peking")
    assert board.has_route("delhi-kathmandu")


# Each case breaks one thing in the tiny board and names the fragments the message must hold,
# besides the file name.


def _set(section, index, key, value):
    def change(data):
        data[section][index][key] = value

    return change


def _delete(section, index, key):
    def change(data):
        del data[section][index][key]

    return change


def _append(section, entry):
    def change(data):
        data[section].append(entry)

    return change


def _top(key, value):
    def change(data):
        data[key] = value

    return change


def _drop_top(key):
    def change(data):
        del data[key]

    return change


_EXTRA = {"a": "Delhi", "b": "Lahore", "length": 2, "color": "blue", "group": "delhi-lahore"}

BAD_BOARDS = [
    pytest.param(_drop_top("name"), ["top level", "'name'", "missing"], id="missing-name"),
    pytest.param(_top("author", "me"), ["top level", "unknown field", "'author'"], id="unknown-top"),
    pytest.param(_top("cities", []), ["top level", "'cities'"], id="no-cities"),
    pytest.param(_top("cities", ["Delhi", "Lahore", "Delhi", "Kathmandu", "Lhasa"]),
                 ["cities[2]", "'Delhi'", "twice"], id="city-twice"),
    pytest.param(_delete("routes", 2, "length"),
                 ["routes[2] (id 'delhi-kathmandu')", "'length'", "missing"], id="missing-length"),
    pytest.param(_delete("routes", 1, "id"), ["routes[1]", "'id'", "missing"], id="missing-id"),
    pytest.param(_set("routes", 3, "colour", "red"),
                 ["routes[3] (id 'kathmandu-lhasa')", "unknown field", "'colour'"],
                 id="unknown-route-field"),
    pytest.param(_set("routes", 3, "b", "Atlantis"),
                 ["routes[3] (id 'kathmandu-lhasa')", "'b'", "'Atlantis'", "'cities'"],
                 id="city-not-listed"),
    pytest.param(_set("routes", 2, "a", "Kathmandu"),
                 ["routes[2] (id 'delhi-kathmandu')", "'a' and 'b'", "same city"],
                 id="route-a-equals-b"),
    pytest.param(_set("routes", 3, "id", "delhi-kathmandu"),
                 ["routes[3] (id 'delhi-kathmandu')", "'id'", "repeats"], id="duplicate-route-id"),
    pytest.param(_set("routes", 3, "length", 0),
                 ["routes[3] (id 'kathmandu-lhasa')", "'length'", "1 to 8", "not 0"],
                 id="length-0"),
    pytest.param(_set("routes", 3, "length", 9),
                 ["routes[3] (id 'kathmandu-lhasa')", "'length'", "1 to 8", "not 9"],
                 id="length-9"),
    pytest.param(_set("routes", 0, "length", "2"),
                 ["routes[0] (id 'delhi-lahore-1')", "'length'", "integer"], id="length-string"),
    pytest.param(_set("routes", 0, "length", True),
                 ["routes[0] (id 'delhi-lahore-1')", "'length'", "integer"], id="length-bool"),
    pytest.param(_set("routes", 2, "color", "pink"),
                 ["routes[2] (id 'delhi-kathmandu')", "'color'", "'pink'"], id="colour-pink"),
    pytest.param(_set("routes", 2, "color", "locomotive"),
                 ["routes[2] (id 'delhi-kathmandu')", "'color'", "'locomotive'"],
                 id="colour-locomotive"),
    pytest.param(_set("routes", 3, "tunnel", -1),
                 ["routes[3] (id 'kathmandu-lhasa')", "'tunnel'", "-1"], id="negative-tunnel"),
    pytest.param(_set("routes", 3, "group", 7),
                 ["routes[3] (id 'kathmandu-lhasa')", "'group'", "7"], id="group-not-string"),
    # K3: the tracks of a group join the same two cities, and there are at most 3 of them.
    pytest.param(_set("routes", 2, "group", "delhi-lahore"),
                 ["routes (group 'delhi-lahore')", "'group'", "different cities"],
                 id="group-different-cities"),
    pytest.param(lambda d: [_append("routes", {"id": f"delhi-lahore-{n}", **_EXTRA})(d)
                            for n in (3, 4)],
                 ["routes (group 'delhi-lahore')", "2 or 3 parallel tracks"], id="group-of-4"),
    pytest.param(_top("open_groups", ["delhi-lahore", "canton-hongkong"]),
                 ["open_groups[1]", "'canton-hongkong'", "not the group"],
                 id="unknown-open-group"),
    pytest.param(_top("open_groups", "delhi-lahore"), ["top level", "'open_groups'"],
                 id="open-groups-not-list"),
    pytest.param(_set("tickets", 1, "id", "T01"), ["tickets[1] (id 'T01')", "'id'", "repeats"],
                 id="duplicate-ticket-id"),
    pytest.param(_set("tickets", 0, "points", 0),
                 ["tickets[0] (id 'T01')", "'points'", "positive", "not 0"], id="points-0"),
    pytest.param(_set("tickets", 1, "points", -3),
                 ["tickets[1] (id 'T02')", "'points'", "not -3"], id="points-negative"),
    pytest.param(_set("tickets", 0, "b", "Lahore"),
                 ["tickets[0] (id 'T01')", "'a' and 'b'", "same city"], id="ticket-a-equals-b"),
    pytest.param(_set("tickets", 1, "a", "Peking"),
                 ["tickets[1] (id 'T02')", "'a'", "'Peking'", "'cities'"],
                 id="ticket-city-not-listed"),
    pytest.param(_delete("tickets", 1, "points"), ["tickets[1] (id 'T02')", "'points'", "missing"],
                 id="ticket-missing-points"),
    pytest.param(_set("tickets", 0, "value", 8), ["tickets[0] (id 'T01')", "unknown field",
                                                  "'value'"], id="ticket-unknown-field"),
]  # fmt: skip


@pytest.mark.parametrize(("breaker", "fragments"), BAD_BOARDS)
def test_load_board_names_the_file_entry_and_field(tmp_path, breaker, fragments):
    data = tiny_board()
    breaker(data)
    path = write_board(tmp_path, data)
    with pytest.raises(BoardError) as info:
        load_board(path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert isinstance(info.value, TTRError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('name = "unterminated\n', id="unterminated-string"),
        pytest.param("this is not toml at all\n", id="prose"),
        pytest.param('[[routes]]\nid = "a"\nid = "b"\n', id="duplicate-key"),
    ],
)
def test_load_board_rejects_text_that_is_not_toml(tmp_path, text):
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BoardError, match="not valid TOML") as info:
        load_board(path)
    assert str(info.value).startswith(f"{path}: ")


@pytest.mark.parametrize("kind", ["missing", "directory"])
def test_load_board_rejects_an_unreadable_path(tmp_path, kind):
    path = tmp_path / "nowhere.toml"
    if kind == "directory":
        path.mkdir()
    with pytest.raises(BoardError, match="cannot read the board file") as info:
        load_board(str(path))  # a str path works as well as a Path
    assert str(info.value).startswith(f"{path}: ")


def _teaching_data() -> dict:
    return tomllib.loads(TEACHING_BOARD_PATH.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("edit", "field", "message_part"),
    [
        pytest.param(("length", 0), "'length'", "not 0", id="length"),
        pytest.param(("color", "violet"), "'color'", "'violet'", id="colour"),
        pytest.param(("tunnel", -4), "'tunnel'", "not -4", id="tunnel"),
    ],
)
def test_breaking_the_teaching_board_text(tmp_path, board, edit, field, message_part):
    # Break the purple route nearest the end of the bundled file, in its text.
    key, value = edit
    index = max(i for i, r in enumerate(board.routes) if r.color == Color.PURPLE)
    route = board.routes[index]
    text = TEACHING_BOARD_PATH.read_text(encoding="utf-8")
    block = f'id = "{route.id}"\n'
    start = text.index(block)
    end = text.index("\n\n", start)
    old = text[start:end]
    new_line = f"{key} = {toml_value(value)}"
    if f"\n{key} = " in old:
        new = re.sub(rf"\n{key} = [^\n]*", "\n" + new_line, old)
    else:
        new = old + "\n" + new_line
    path = tmp_path / "teaching.toml"
    path.write_text(text[:start] + new + text[end:], encoding="utf-8")
    with pytest.raises(BoardError) as info:
        load_board(path)
    message = str(info.value)
    assert message.startswith(f"{path}: routes[{index}] (id '{route.id}'): "), message
    assert field in message and message_part in message


def test_the_teaching_board_data_is_accepted_by_board_from_dict(board):
    rebuilt = board_from_dict(_teaching_data(), source=str(TEACHING_BOARD_PATH))
    assert rebuilt == board


def test_K3_a_replaced_board_leaves_the_original_s_parallel_tracks_alone():
    """``dataclasses.replace`` of a board (tests and lessons rename boards) must not add the
    copy's routes to the original's tables: it once shared their dicts, so the teaching board
    listed each parallel track twice and K3 closed a triple route after one claim."""
    import dataclasses

    from ttrlib.board import teaching_board

    board = teaching_board()
    route = board.route("delhi-lahore-3")
    dataclasses.replace(board, name="another board")
    assert [r.id for r in board.parallel(route)] == ["delhi-lahore-1", "delhi-lahore-2"]
    assert [r.id for r in board.routes].count("delhi-lahore-1") == 1
