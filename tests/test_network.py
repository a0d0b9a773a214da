"""The longest continuous path (E4) split at bridges and cut cities (``ttrlib.rules.network``).

Issue 18 (item 3): "stars of blocks" (small complete graphs, each joined to a hub city by one
route) took the integer program 5-30 s of CPU. A trail leaves a block through a cut city and
comes back through the same city, so the library now solves each block with a table per cut
city (the branch below it, with 0, 1 or 2 trail ends inside) and passes tables up the
block-cut tree; a block is solved by a dynamic programme along a narrow order of its cities, or
by the integer program (with one binary per table entry) when no narrow order is found.

Checked here, every expected value from this file's own brute force (the rule's own words: the
longest walk using each route at most once) or counted by hand:

* the block decomposition against a definition by brute force;
* ``longest_trail`` on random trees of blocks (stars, chains, bridges, parallel routes, rings
  that become loops, loops), by the default path and with every block forced through each of
  the two block methods, so that a fast path cannot hide a slow path's mistake;
* the two block methods against each other on blocks with arbitrary tables;
* the audit's stars of blocks and a 36-city Mobius ladder, by hand, solved without the integer
  program (which took seconds on them: these were red before the block-cut tree). Their speed
  is measured in ``benchmarks/bench_scoring.py``, not here.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from functools import lru_cache
from math import inf
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from quick_profile import examples

from ttrlib.rules import network
from ttrlib.rules.network import longest_trail

# --------------------------------------------------------------------------------------------------
# the brute force
# --------------------------------------------------------------------------------------------------


def brute_force_longest(edges) -> int:
    """E4 by its words: from every city, every route not used yet, remembering the longest
    way on from (city, routes used). Fine up to about 14 routes."""
    routes_at: dict[str, list[int]] = {}
    for i, (a, b, _) in enumerate(edges):
        routes_at.setdefault(a, []).append(i)
        if b != a:
            routes_at.setdefault(b, []).append(i)

    @lru_cache(maxsize=None)
    def onwards(city: str, used: int) -> int:
        best = 0
        for i in routes_at[city]:
            if not used >> i & 1:
                a, b, w = edges[i]
                best = max(best, w + onwards(b if a == city else a, used | 1 << i))
        return best

    return max((onwards(city, 0) for city in routes_at), default=0)


@pytest.mark.parametrize("edges, expected", [
    ([], 0),
    ([("a", "b", 4)], 4),
    ([("c", "x", 1), ("c", "y", 1), ("c", "z", 1), ("c", "w", 1)], 2),  # two arms of a star
    ([("a", "b", 1), ("b", "c", 1), ("c", "a", 1), ("c", "d", 5)], 8),  # round the triangle
    ([("a", "a", 3), ("a", "b", 2)], 5),  # a loop, then on
    ([("a", "b", 2), ("a", "b", 2), ("b", "c", 1)], 5),  # both parallel tracks
    # Two triangles joined by a bridge, crossed once: each triangle walked round, back at the
    # bridge's city: 3 + 1 + 3.
    ([("a", "b", 1), ("b", "c", 1), ("c", "a", 1), ("c", "d", 1), ("d", "e", 1), ("e", "f", 1),
      ("f", "d", 1)], 7),
])
def test_the_brute_force_on_hand_counted_graphs(edges, expected):
    assert brute_force_longest(edges) == expected


# --------------------------------------------------------------------------------------------------
# random trees of blocks
# --------------------------------------------------------------------------------------------------

PART_KINDS = ["route", "ring", "triangle with a tail", "square with a diagonal", "K4",
              "parallel", "triple", "loop", "chord"]


def part(kind: str, at: str, new) -> list[tuple[str, str]]:
    """One block hung from city ``at`` (``new()`` names a new city)."""
    if kind == "route":  # a bridge
        return [(at, new())]
    if kind == "ring":  # a cycle through new cities of degree 2: it becomes a loop at ``at``
        x, y = new(), new()
        return [(at, x), (x, y), (y, at)]
    if kind == "triangle with a tail":
        x, y = new(), new()
        return [(at, x), (x, y), (y, at), (x, new())]
    if kind == "square with a diagonal":
        x, y, z = new(), new(), new()
        return [(at, x), (x, y), (y, z), (z, at), (at, y)]
    if kind == "K4":
        c = [at, new(), new(), new()]
        return [(c[i], c[j]) for i in range(4) for j in range(i + 1, 4)]
    if kind in ("parallel", "triple"):
        x = new()
        return [(at, x)] * (2 if kind == "parallel" else 3)
    if kind == "loop":
        return [(at, at)]
    raise ValueError(kind)


@st.composite
def block_trees(draw, max_routes: int = 12):
    """Blocks hung from cities of the earlier ones: stars, chains, trees, blocks sharing a cut
    city; a chord joins two cities already there (it may merge blocks)."""
    cities = ["c0"]
    pairs: list[tuple[str, str]] = []

    def new() -> str:
        cities.append(f"c{len(cities)}")
        return cities[-1]

    for kind, where in draw(st.lists(st.tuples(st.sampled_from(PART_KINDS),
                                               st.integers(0, 10**6)), min_size=2, max_size=8)):
        at = cities[where % len(cities)]
        mark = len(cities)
        added = ([(at, cities[where // len(cities) % len(cities)])] if kind == "chord"
                 else part(kind, at, new))
        if len(pairs) + len(added) > max_routes:
            del cities[mark:]
            continue
        pairs += added
    lengths = draw(st.lists(st.integers(1, 8), min_size=len(pairs), max_size=len(pairs)))
    if draw(st.booleans()):
        lengths = [1] * len(pairs)  # many ties
    return [(a, b, w) for (a, b), w in zip(pairs, lengths)]


def fresh_longest(edges) -> int:
    network._longest_trail.cache_clear()
    try:
        return longest_trail(edges)
    finally:
        network._longest_trail.cache_clear()  # nothing found under a patch outlives it


@settings(max_examples=examples(200), deadline=None)
@given(block_trees())
def test_trees_of_blocks_match_the_brute_force(edges):
    assert fresh_longest(edges) == brute_force_longest(edges)


@settings(max_examples=examples(80), deadline=None)
@given(block_trees())
def test_every_block_by_the_integer_program_matches_the_brute_force(edges):
    # The frontier programme gives up at once: every block goes to the integer program, with
    # its tables (a piece of one block to the bounded search first).
    with mock.patch.object(network, "FRONTIER_BUDGET", 0):
        assert fresh_longest(edges) == brute_force_longest(edges)


@settings(max_examples=examples(120), deadline=None)
@given(block_trees(max_routes=13))
def test_every_block_by_the_frontier_programme_matches_the_brute_force(edges):
    with mock.patch.multiple(network, FRONTIER_MAX_WIDTH=99, FRONTIER_BUDGET=inf), \
            no_integer_program():
        assert fresh_longest(edges) == brute_force_longest(edges)


@settings(max_examples=examples(60), deadline=None)
@given(block_trees(max_routes=10))
def test_the_whole_piece_by_the_frontier_programme_matches_the_brute_force(edges):
    # Not split into blocks: one order over the whole piece, as for a piece of one block.
    expected = brute_force_longest(edges)
    pieces = network.components((a, b) for a, b, _ in edges)
    found = 0
    for root in set(pieces.values()):
        piece = [e for e in edges if pieces[e[0]] == root]
        order = network._narrow_order(piece, 99)
        found = max(found, network._frontier_block(piece, {}, None, order)[0])
    assert found == expected


# --------------------------------------------------------------------------------------------------
# blocks
# --------------------------------------------------------------------------------------------------


def same_block_by_definition(edges, e: int, f: int) -> bool:
    """Routes e and f lie in one block iff no single city separates them: for every city c,
    f is reached from e through routes that meet at cities other than c. A loop is alone."""
    if e == f:
        return True
    if edges[e][0] == edges[e][1] or edges[f][0] == edges[f][1]:
        return False
    for c in {x for a, b, _ in edges for x in (a, b)}:
        reached, todo = {e}, [e]
        while todo:
            r = todo.pop()
            for s, (a, b, _) in enumerate(edges):
                if s not in reached and a != b and ({a, b} & set(edges[r][:2])) - {c}:
                    reached.add(s)
                    todo.append(s)
        if f not in reached:
            return False
    return True


def test_the_blocks_of_a_hand_made_graph():
    # A triangle, a bridge to a double route, and a loop at its far end: 4 blocks.
    edges = [("a", "b", 1), ("b", "c", 1), ("c", "a", 1), ("c", "d", 1), ("d", "e", 1),
             ("d", "e", 1), ("e", "e", 1)]
    assert sorted(sorted(b) for b in network._blocks(edges)) == [[0, 1, 2], [3], [4, 5], [6]]


@settings(max_examples=examples(100), deadline=None)
@given(block_trees())
def test_blocks_match_the_definition(edges):
    if not edges:
        return
    pieces = network.components((a, b) for a, b, _ in edges)
    piece = [e for e in edges if pieces[e[0]] == pieces[edges[0][0]]]
    blocks = network._blocks(piece)
    assert sorted(i for b in blocks for i in b) == list(range(len(piece)))
    block_of = {i: n for n, b in enumerate(blocks) for i in b}
    for e in range(len(piece)):
        for f in range(len(piece)):
            assert (block_of[e] == block_of[f]) == same_block_by_definition(piece, e, f)


# --------------------------------------------------------------------------------------------------
# the two block methods on blocks with arbitrary tables
# --------------------------------------------------------------------------------------------------


@st.composite
def blocks_with_tables(draw):
    """A connected multigraph on up to 5 cities, a table at some cities (0 to 12 for no end,
    -inf sometimes for 1 and 2 ends), and a parent city without a table (or none)."""
    n = draw(st.integers(2, 5))
    cities = [f"v{i}" for i in range(n)]
    pairs = [(cities[i], cities[i + 1]) for i in range(n - 1)]  # a path keeps it connected
    pairs += draw(st.lists(st.tuples(st.sampled_from(cities), st.sampled_from(cities)),
                           max_size=6))
    edges = [(a, b, draw(st.integers(1, 8))) for a, b in pairs]
    parent = draw(st.sampled_from([None, *cities]))
    tables = {}
    for c in cities:
        if c != parent and draw(st.booleans()):
            entry = st.one_of(st.integers(1, 20), st.just(-inf))
            tables[c] = (draw(st.integers(0, 12)), draw(entry), draw(entry))
    return edges, tables, parent


@settings(max_examples=examples(60), deadline=None)
@given(blocks_with_tables())
def test_the_frontier_programme_and_the_integer_program_agree_on_any_tables(case):
    edges, tables, parent = case
    top, table = network._frontier_block(edges, tables, parent, network._narrow_order(edges, 99))
    assert network._program_value(edges, tables) == top
    if parent is not None:
        assert tuple(network._program_value(edges, tables, parent, k) for k in range(3)) == table


def test_a_table_is_entered_only_where_the_block_is_touched():
    # The block is one route u-v; a rich branch hangs at w, which no route of the block
    # touches (the block's cities are u and v): it cannot be reached. Hand count: 2.
    edges = [("u", "v", 2)]
    tables = {"w": (50, 60, 70)}
    order = network._narrow_order(edges, 99)
    assert network._frontier_block(edges, tables, None, order)[0] == 2


# --------------------------------------------------------------------------------------------------
# the audit's stars of blocks, and the Mobius ladder: by hand, without the integer program
# --------------------------------------------------------------------------------------------------


@contextmanager
def no_integer_program():
    """While active, building the integer program fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("the integer program ran")

    network._longest_trail.cache_clear()
    try:
        with mock.patch.object(network, "_TrailProgram", refuse):
            yield
    finally:
        network._longest_trail.cache_clear()


def complete(n: int, tag: str):
    return [(f"{tag}{i}", f"{tag}{j}", 1) for i in range(n) for j in range(i + 1, n)]


def star(sizes: list[int]):
    """A complete graph of each size, joined to the hub by one route from its city 0."""
    edges = []
    for k, n in enumerate(sizes):
        edges += complete(n, f"b{k}.") + [("hub", f"b{k}.0", 1)]
    return edges


# Hand count, every route of length 1. A trail crosses each bridge at most once, so besides the
# hub it meets at most two blocks: it comes out of one through its bridge and goes into
# another. Inside the block it must end at the bridge's city. K5 (every city of degree 4, even):
# all 10 routes, a round trip from that city. K4 (every city of degree 3): 4 odd cities, so one
# route stays unused; leaving out the one between the two cities other than the bridge's city
# and one more leaves a walk of 5 ending at the bridge's city. A triangle: 3, round. With its
# bridge, a side is worth K5 11, K4 6, triangle 4; the best two sides make the path. One block
# alone is at most 10.
AUDIT_STARS = [
    ("7 K4 and a triangle, 53 routes", [4] * 7 + [3], 53, 6 + 6),
    ("3 K5 and 3 K4, 54 routes", [5] * 3 + [4] * 3, 54, 11 + 11),
    ("4 K5, 44 routes", [5] * 4, 44, 11 + 11),
]


@pytest.mark.parametrize("name, sizes, routes, expected", AUDIT_STARS,
                         ids=[s[0] for s in AUDIT_STARS])
def test_the_audits_stars_of_blocks_by_hand_without_the_integer_program(name, sizes, routes,
                                                                      expected):
    edges = star(sizes)
    assert len(edges) == routes
    with no_integer_program():
        assert longest_trail(edges) == expected
        assert longest_trail(edges[::-1]) == expected


@pytest.mark.parametrize("edges, expected", [
    # Two K6 sharing city s (degree 10); the 10 others have degree 5: at least 4 routes unused
    # (each makes at most two cities even, and two may stay odd); leaving out two disjoint
    # routes among the five others of each K6 leaves one odd city in each, all joined: 30 - 4.
    ([(a.replace("x0", "s"), b.replace("x0", "s"), w) for a, b, w in complete(6, "x")]
     + [(a.replace("y0", "s"), b.replace("y0", "s"), w) for a, b, w in complete(6, "y")], 26),
    # Two K6 each bridged to the hub: from the far end of one K6 through its bridge city (degree
    # 6 with the bridge), the hub and into the other: in each K6, two of the routes among the
    # five cities other than the bridge city unused (they are odd; one stays odd, the end):
    # 13 + 1 + 1 + 13.
    (star([6, 6]), 28),
], ids=["two K6 sharing a city", "two K6 bridged to a hub"])
def test_blocks_too_wide_for_the_frontier_programme_by_hand(edges, expected):
    # K6 has no order with 5 open cities: the integer program solves each, one with its table.
    assert fresh_longest(edges) == expected


def test_small_stars_of_blocks_match_the_brute_force():
    # The same shape, small enough for the brute force, with lengths: 2 triangles and a
    # square, bridged to the hub.
    rnd = random.Random(7)
    for _ in range(5):
        edges = [(a, b, rnd.randint(1, 8)) for a, b, _ in star([3, 3, 3])]
        with no_integer_program():
            assert longest_trail(edges) == brute_force_longest(edges)


def mobius(n: int = 36, lengths=None):
    pairs = [(i, (i + 1) % n) for i in range(n)] + [(i, i + n // 2) for i in range(n // 2)]
    return [(f"c{a}", f"c{b}", 1 if lengths is None else lengths[k])
            for k, (a, b) in enumerate(pairs)]


def test_the_mobius_ladder_by_hand_without_the_integer_program():
    # Cubic, 36 odd cities: at least 17 of the 54 routes unused (each unused route makes two
    # cities even, and a path leaves at most two odd); the rim plus one rung is a path of 37.
    with no_integer_program():
        assert longest_trail(mobius()) == 37


def test_the_mobius_ladder_with_lengths_agrees_with_the_integer_program():
    # No hand count: two independent exact methods (the program took over 1 s of CPU on some
    # of these) must agree, and the narrow order is narrow.
    rnd = random.Random(3)
    lengths = [rnd.randint(1, 8) for _ in range(54)]
    edges = mobius(lengths=lengths)
    order = network._narrow_order(edges, network.FRONTIER_MAX_WIDTH)
    assert order is not None
    with no_integer_program():
        found = longest_trail(edges)
    assert found == network._program_trail(edges)[1]


def open_at_most(edges, order) -> int:
    """The most cities open at once along ``order``: the city being placed, and those placed
    before it with a route to a city not placed before it."""
    most = 0
    for i, city in enumerate(order):
        before = set(order[:i])
        open_ = {c for a, b, _ in edges for c in (a, b) if c in before and {a, b} - before}
        most = max(most, len(open_ | {city}))
    return most


@pytest.mark.parametrize("edges, narrow", [(mobius(), True), (complete(5, "k"), True),
                                           (complete(6, "k"), False)],
                         ids=["Mobius ladder", "K5", "K6"])
def test_the_narrow_order_keeps_its_promise(edges, narrow):
    # K6: whatever the order, when its sixth city is placed the five others are open.
    order = network._narrow_order(edges, 5)
    assert (order is not None) == narrow
    if narrow:
        assert sorted(order) == sorted({c for a, b, _ in edges for c in (a, b)})
        assert open_at_most(edges, order) <= 5
