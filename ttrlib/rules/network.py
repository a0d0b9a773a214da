"""The route network of a team: which cities its routes join (E3) and its longest continuous
path (E4), exact on any board the loader accepts.

Apart from ``ttrlib.rules.scoring`` (which uses and re-exports these) because finding the longest
path fast takes more code than the rest of scoring together. Speed: ``benchmarks/bench_scoring.py``.

>>> connected([("a", "b"), ("b", "c")], "a", "c"), connected([("a", "b")], "a", "c")
(True, False)
>>> longest_trail([("a", "b", 2), ("b", "c", 3), ("b", "d", 1)])
5
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from math import inf
from typing import TYPE_CHECKING

from ..board import components  # the one union-find of the library (the loader uses it too)

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    #: A solution of the program: one value per variable (scipy's ``milp``).
    Values = NDArray[np.float64]



def connected(edges: Iterable[tuple[str, str]], a: str, b: str) -> bool:
    """Do the given edges join cities ``a`` and ``b``? (E3)"""
    component = components(edges)
    return a in component and b in component and component[a] == component[b]


# --- longest continuous path (E4) -------------------------------------------------------------
#
# A trail (each route once, cities may repeat) is exactly a connected set of routes in which at
# most two cities meet an odd number of them (Euler). So the longest trail of a connected piece is
# its total length when it has at most two odd cities. Otherwise the piece is split into its
# blocks (the largest parts without a cut city; a bridge is a block of one route) and solved up
# the tree they form (``_block_tree_trail``). A block is solved by a dynamic programme along an
# order of its cities in which few are open at once (``_frontier_block``; time grows steeply
# with that number), or, when no such order is found, by an integer program (for a piece of one
# block, a bounded search first).

Edge = tuple[str, str, int]
Table = tuple[float, float, float]  # a branch's best length with 0, 1, 2 trail ends; -inf: none

SEARCH_BUDGET = 20_000  # walk() calls before the bounded search gives up for the integer program
LOCAL_PARITY_MAX_DEGREE = 8  # list a city's 2**degree parity inequalities only up to this degree
FRONTIER_MAX_WIDTH = 5  # cities open at once in an order for _frontier_block, at most
FRONTIER_BUDGET = 100_000  # states carried (about 0.3 s) before it gives up for the integer program


def longest_trail(edges: Iterable[Edge]) -> int:
    """Length (sum of route lengths) of the longest continuous path (E4).

    Each route is used at most once; cities may be revisited (as in the base game). Policy: two
    parallel tracks between the same cities (teammates may own both, K3) are two routes, and the
    path may use both. Route lengths must be positive (the loader allows 1 to 8). Exact; computed
    once per set of routes (the team game asks on every render).
    """
    key = tuple(sorted((min(a, b), max(a, b), w) for a, b, w in edges))
    if any(w <= 0 for _, _, w in key):
        raise ValueError("route lengths must be positive")
    return _longest_trail(key)


@lru_cache(maxsize=4096)
def _longest_trail(edges: tuple[Edge, ...]) -> int:
    pieces: dict[str, list[Edge]] = {}
    component = components((a, b) for a, b, _ in edges)
    for edge in edges:
        pieces.setdefault(component[edge[0]], []).append(edge)
    return max((_piece_trail(piece) for piece in pieces.values()), default=0)


def _odd_cities(edges: list[Edge]) -> int:
    degree: dict[str, int] = {}
    for a, b, _ in edges:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    return sum(d % 2 for d in degree.values())


def _piece_trail(edges: list[Edge]) -> int:
    """Longest trail of one connected piece."""
    if _odd_cities(edges) <= 2:
        return sum(w for _, _, w in edges)  # an Euler trail walks every route
    edges = _suppress_degree_two(edges)
    blocks = _blocks(edges)
    if len(blocks) > 1:
        return _block_tree_trail(edges, blocks)
    order = _narrow_order(edges, FRONTIER_MAX_WIDTH)
    solved = None if order is None else _frontier_block(edges, {}, None, order, FRONTIER_BUDGET)
    if solved is not None:
        return int(solved[0])
    found = _bounded_search(edges, SEARCH_BUDGET)
    if found is not None:
        return found
    trail = _program_trail(edges)
    assert trail is not None  # without a parent every set of routes qualifies (the empty one)
    return int(trail[1])


def _suppress_degree_two(edges: list[Edge]) -> list[Edge]:
    """Join the two routes at each city met by exactly two (a loop may result).

    Exact: a best trail uses both or neither, since one alone would end there and could go on
    along the other. Loops stay as (city, city, length): a trail through the city takes them.
    """
    edges = list(edges)
    changed = True
    while changed:
        changed = False
        at: dict[str, list[int]] = {}
        for i, (a, b, _) in enumerate(edges):
            at.setdefault(a, []).append(i)
            if b != a:
                at.setdefault(b, []).append(i)
        for city, ids in at.items():
            if len(ids) == 2 and all(edges[i][0] != edges[i][1] for i in ids):
                (a1, b1, w1), (a2, b2, w2) = edges[ids[0]], edges[ids[1]]
                u = b1 if a1 == city else a1
                v = b2 if a2 == city else a2
                edges = [e for i, e in enumerate(edges) if i not in ids]
                edges.append((min(u, v), max(u, v), w1 + w2))
                changed = True
                break
    return edges


def _bounded_search(edges: list[Edge], budget: int) -> int | None:
    """Depth-first search over trails, or None after ``budget`` steps.

    Parallel routes are taken heaviest first: a trail using k of the routes between two cities may
    as well use the k heaviest, so the search never tries them in another order.
    """
    tracks: dict[tuple[str, str], list[int]] = {}
    for a, b, w in edges:
        tracks.setdefault((a, b), []).append(w)
        if a != b:
            tracks.setdefault((b, a), []).append(w)
    for ws in tracks.values():
        ws.sort(reverse=True)
    used = {pair: 0 for pair in tracks}
    neighbours: dict[str, list[str]] = {}
    for a, b in tracks:
        neighbours.setdefault(a, []).append(b)
    best = 0
    steps = 0

    def walk(city: str, length: int) -> bool:
        nonlocal best, steps
        steps += 1
        if steps > budget:
            return False
        best = max(best, length)
        for nxt in neighbours[city]:
            pair = (city, nxt)
            k = used[pair]
            if k < len(tracks[pair]):
                used[pair] = used[(nxt, city)] = k + 1
                ok = walk(nxt, length + tracks[pair][k])
                used[pair] = used[(nxt, city)] = k
                if not ok:
                    return False
        return True

    return best if all(walk(city, 0) for city in neighbours) else None


# --- blocks ----------------------------------------------------------------------------------
#
# A trail that leaves a block through a cut city c and comes back must come back through c (the
# blocks and cut cities form a tree), so in a branch hanging from c (a block below c and all
# below it) the trail's routes are one connected set through c, and all the rest of the trail
# needs to know about them is how many of the trail's two ends lie inside, beyond c: 0 (a round
# trip from c; c stays even), 1 (the trail ends inside; c is left odd) or 2 (both ends inside,
# passing through c). So a branch is summed up by three numbers, its table: the longest such set
# with 0, 1, 2 ends. A bridge is the block of one route: crossed once, it leaves c odd. Each block
# is solved with every cut city below it carrying the combined table of the branches there (a
# door into them), and passes its own table up. The stars of small blocks that took the integer
# program seconds take milliseconds so.


def _blocks(edges: list[Edge]) -> list[list[int]]:
    """The blocks of a connected multigraph, as lists of route indices (Tarjan's algorithm,
    iterative). Parallel routes share a block; a loop is a block of its own."""
    at: dict[str, list[tuple[int, str]]] = {}
    blocks = []
    for i, (a, b, _) in enumerate(edges):
        if a == b:
            blocks.append([i])
        else:
            at.setdefault(a, []).append((i, b))
            at.setdefault(b, []).append((i, a))
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    for root in at:
        if root in order:
            continue
        order[root] = low[root] = len(order)
        stack = [(root, -1, iter(at[root]))]
        path: list[int] = []  # tree and back routes not yet given to a block
        while stack:
            city, via, rest = stack[-1]
            for i, other in rest:
                if i == via:
                    continue
                if other not in order:
                    order[other] = low[other] = len(order)
                    path.append(i)
                    stack.append((other, i, iter(at[other])))
                    break
                if order[other] < order[city]:  # a back route (seen once, from below)
                    path.append(i)
                    low[city] = min(low[city], order[other])
            else:
                stack.pop()
                if stack:
                    up = stack[-1][0]
                    low[up] = min(low[up], low[city])
                    if low[city] >= order[up]:  # up cuts city's subtree off: a block ends
                        block: list[int] = []
                        while not block or block[-1] != via:
                            block.append(path.pop())
                        blocks.append(block)
    return blocks


def _block_tree_trail(edges: list[Edge], blocks: list[list[int]]) -> int:
    """Longest trail of a connected piece of several blocks, by tables up the block-cut tree.

    Rooted at the largest block with no narrow order, if any (it goes to the integer program,
    and the root is solved once, with no table to pass up), else at the largest block. A block
    whose frontier programme runs out of budget goes to the integer program too. A trail's
    blocks form a subtree; its highest point is a block (the trail is found when that block is
    solved with the tables below it) or a cut city (found from that city's combined table)."""
    routes = [[edges[i] for i in block] for block in blocks]
    orders = [_narrow_order(r, FRONTIER_MAX_WIDTH) for r in routes]
    cities = [{c for a, b, _ in r for c in (a, b)} for r in routes]
    blocks_at: dict[str, list[int]] = {}
    for b, inside in enumerate(cities):
        for c in inside:
            blocks_at.setdefault(c, []).append(b)
    root = max(range(len(blocks)), key=lambda b: (orders[b] is None, len(blocks[b])))
    parent: dict[int, str | None] = {root: None}
    below: dict[int, dict[str, list[int]]] = {}
    downwards = [root]
    for b in downwards:  # grows while read: breadth first from the root
        below[b] = {}
        for c in cities[b]:
            if c != parent[b] and len(blocks_at[c]) > 1:
                below[b][c] = [d for d in blocks_at[c] if d != b]
                for d in below[b][c]:
                    parent[d] = c
                    downwards.append(d)
    tables: dict[int, Table] = {}
    branch_length: dict[int, int] = {}
    best: float = 0
    wide = []  # (block, tables below) of blocks left to the integer program: their best waits
    for b in reversed(downwards):
        branch_length[b] = sum(w for _, _, w in routes[b]) + sum(
            branch_length[d] for ds in below[b].values() for d in ds)
        combined = {c: _combine(tables[d] for d in ds) for c, ds in below[b].items()}
        for table in combined.values():
            best = max(best, *table)  # trails whose highest point is that cut city
        order = orders[b]
        solved = None if order is None else _frontier_block(routes[b], combined, parent[b],
                                                            order, FRONTIER_BUDGET)
        if solved is not None:
            top, tables[b] = solved
            best = max(best, top)
        else:
            if parent[b] is not None:
                no_end, one, two = (_program_value(routes[b], combined, parent[b], k)
                                    for k in range(3))
                tables[b] = (no_end, one, two)
            wide.append((b, combined))
    for b, combined in reversed(wide):  # the root first: a branch too light to beat what is
        if branch_length[b] > best:  # found already is skipped
            best = max(best, _program_value(routes[b], combined))
    return int(best)


def _combine(tables: Iterable[Table]) -> Table:
    """The table of all the branches hanging from one cut city: their ends add up (at most 2),
    and a branch may be left out (length 0, no end)."""
    total: Table = (0, -inf, -inf)
    for table in tables:
        table = (max(0, table[0]), table[1], table[2])
        total = (total[0] + table[0], max(total[0] + table[1], total[1] + table[0]),
                 max(total[0] + table[2], total[1] + table[1], total[2] + table[0]))
    return total


def _narrow_order(edges: list[Edge], most: int) -> list[str] | None:
    """An order of a block's cities in which as few as found, and at most ``most``, are open at
    once (the city being placed, and those placed before it with routes to cities not yet
    placed), for ``_frontier_block``; None if none is found. Greedy, from every city in turn:
    next, the neighbour of the open cities that opens the fewest new routes and closes the most
    open cities."""
    near: dict[str, set[str]] = {}
    for a, b, _ in edges:
        near.setdefault(a, set()).add(b)
        near.setdefault(b, set()).add(a)
    for city, others in near.items():
        others.discard(city)
    best, narrowest = None, most + 1
    for start in sorted(near):
        waiting = {c: len(others) for c, others in near.items()}  # neighbours not yet placed
        order: list[str] = []
        open_: set[str] = set()
        city, width = start, 0
        while True:
            order.append(city)
            open_.add(city)
            width = max(width, len(open_))
            if width >= narrowest:
                break
            for c in near[city]:
                waiting[c] -= 1
            open_ = {c for c in open_ if waiting[c]}
            if len(order) == len(near):
                best, narrowest = order, width
                break
            placed = set(order)
            candidates = {c for o in open_ for c in near[o]} - placed or set(near) - placed
            city = min(sorted(candidates), key=lambda c: len(near[c] - placed)
                       - sum(waiting[o] == 1 for o in near[c] & open_))
    return best


def _frontier_block(edges: list[Edge], below: dict[str, Table], parent: str | None,
                    order: list[str], budget: float = inf) -> tuple[float, Table] | None:
    """The best trail using this block with the tables ``below`` (its highest point here), and
    the block's own table at ``parent`` (all -inf for the root), exactly, by dynamic programming
    along ``order``: the cities are placed one by one, each with its routes to those placed
    before, and closed after its last route. What the rest needs to know about a set of routes
    taken so far is, for each open city, whether it is touched, its parity and which of the
    pieces taken it lies in, and how many trail ends are closed already (at most 2; a door's
    table entry adds its ends when the door closes). A piece whose last city closes is the whole
    trail (nothing taken later could join it) and is scored then. Time grows with the number of
    such states, steeply with the number of open cities: None once more than ``budget`` states
    have been carried over a route or a closing city."""
    step = {city: i for i, city in enumerate(order)}
    routes_at: list[list[Edge]] = [[] for _ in order]
    for a, b, w in edges:
        routes_at[max(step[a], step[b])].append((a, b, w))
    last: dict[str, int] = {}  # the step of each city's last route, after which it closes
    for i, routes in enumerate(routes_at):
        for a, b, _ in routes:
            last[a] = last[b] = i
    open_: list[str] = []
    # (per open city 0 or 2 * piece + parity, ends closed, parent touched) -> the longest such
    # set. The parent's parity needs no keeping: the number of ends beyond it has the same.
    states: dict[tuple[tuple[int, ...], int, int], float] = {((), 0, 0): 0}
    top: float = -inf
    table = [-inf, -inf, -inf]
    spent = 0
    for i, city in enumerate(order):
        open_.append(city)
        states = {(codes + (0,), ends, p): length for (codes, ends, p), length in states.items()}
        for a, b, w in routes_at[i]:
            spent += len(states)
            if spent > budget:
                return None
            ia, ib = open_.index(a), open_.index(b)
            grown = dict(states)  # the route left out
            taken: dict[tuple[int, ...], tuple[int, ...]] = {}  # states share their codes
            for (codes, ends, p), length in states.items():
                if codes not in taken:
                    taken[codes] = _take(codes, ia, ib)
                key = (taken[codes], ends, p)
                if grown.get(key, -inf) < length + w:
                    grown[key] = length + w
            states = grown
        for j in reversed(range(len(open_))):
            if last[open_[j]] != i:
                continue
            closing = open_.pop(j)
            spent += len(states)
            closed: dict[tuple[tuple[int, ...], int, int], float] = {}
            renamed: dict[tuple[int, ...], tuple[int, ...]] = {}
            for (codes, ends, p), length in states.items():
                code, rest = codes[j], codes[:j] + codes[j + 1:]
                odd = code & 1
                if not code:
                    options = [(ends, length)]
                elif closing == parent:
                    options, p = [(ends, length)], 1
                elif closing in below:
                    options = [(ends + k + (odd + k) % 2, length + entry)
                               for k, entry in enumerate(below[closing]) if entry > -inf]
                else:
                    options = [(ends + odd, length)]
                whole = code and not any(c >> 1 == code >> 1 for c in rest)
                if whole and any(rest):
                    continue  # another piece is left open: the set would fall apart
                for more, value in options:
                    if more > 2:
                        continue
                    if whole:
                        top = max(top, value)
                        if p:
                            table[more] = max(table[more], value)
                    else:
                        if rest not in renamed:
                            renamed[rest] = _canonical(rest)
                        key = (renamed[rest], more, p)
                        if closed.get(key, -inf) < value:
                            closed[key] = value
            states = closed
    return top, (table[0], table[1], table[2])


def _take(codes: tuple[int, ...], ia: int, ib: int) -> tuple[int, ...]:
    """The open cities' codes after taking a route between open cities ``ia`` and ``ib``."""
    c = list(codes)
    fresh = max(c) // 2 + 1
    if not c[ia]:
        c[ia] = 2 * fresh
        fresh += 1
    if ia != ib:  # a loop changes no parity
        if not c[ib]:
            c[ib] = 2 * fresh
        c[ia] ^= 1
        c[ib] ^= 1
        keep, gone = c[ia] >> 1, c[ib] >> 1
        if keep != gone:
            c = [2 * keep + (x & 1) if x >> 1 == gone else x for x in c]
    return _canonical(c)


def _canonical(codes: Iterable[int]) -> tuple[int, ...]:
    """The same codes with the pieces numbered in order of first appearance, so that equal
    states are one dictionary key."""
    names: dict[int, int] = {}
    return tuple(2 * names.setdefault(c >> 1, len(names) + 1) + (c & 1) if c else 0
                 for c in codes)


# --- the integer program ----------------------------------------------------------------------


def _program_value(edges: list[Edge], below: dict[str, Table], parent: str | None = None,
                   ends: int | None = None) -> float:
    """``_program_trail``'s length, or -inf when no set of routes qualifies."""
    found = _program_trail(edges, below, parent, ends)
    return -inf if found is None else found[1]


def _program_trail(edges: list[Edge], below: dict[str, Table] | None = None,
                   parent: str | None = None, ends: int | None = None
                   ) -> tuple[list[Edge], float] | None:
    """The routes and the length (tables included) of a longest trail by an integer program:
    the heaviest connected set of routes with at most two ends, whose connectivity cuts are
    added while its optimum falls apart. Each cut holds for every connected set, so the first
    connected optimum is the answer. With ``parent`` and ``ends``: a block's table entry (the
    set must touch ``parent`` and leave exactly ``ends`` ends beyond it), None if there is none.

    Between rounds the length is bounded: at most the last optimum (cuts only take away), at
    least its heaviest piece (a piece has at most two ends too: a path already found; not for a
    table entry, where a piece may miss the parent).
    """
    program = _TrailProgram(edges, below or {}, parent, ends)
    program.tighten()
    while True:
        values = program.solve(integral=True)
        if values is None:
            return None
        taken = [e for e in range(len(edges)) if values[program.x + e] > 0.5]
        pieces = program.pieces(taken)
        if len(pieces) <= 1:
            return [edges[e] for e in taken], program.length(values, None)
        program.keep_together(pieces, values)
        found = -inf if parent is not None else max(program.length(values, piece)
                                                    for piece in pieces)
        program.add(program.weight, found, program.length(values, None))


class _TrailProgram:
    """Binary x_e (route e taken), z_v (city v touched), o_v (v odd), integer y_v, and at each
    city v with a table below it binary g_vk (its entry with k ends taken): degree_x(v) + g_v1
    = 2 y_v + o_v, at most one g_vk and only if z_v, x_e <= z_v at both ends, z_v <= degree_x(v),
    ends: sum(o) + sum(g_v1 + 2 g_v2) <= 2 (for a table entry: o_parent left out, = k, and
    z_parent = 1); connectivity by cuts (``keep_together``). Solved by HiGHS through scipy's
    milp."""

    def __init__(self, edges: list[Edge], below: dict[str, Table], parent: str | None,
                 ends: int | None) -> None:
        self.edges = edges
        cities = sorted({c for a, b, _ in edges for c in (a, b)})
        index = {c: i for i, c in enumerate(cities)}
        self.ends = [(index[a], index[b]) for a, b, _ in edges]
        m, n = len(edges), len(cities)
        self.n = n
        self.x, self.z, self.odd, self.y = 0, m, m + n, m + 2 * n  # where each block starts
        self.g = m + 3 * n
        self.entries = [(index[c], k, table[k]) for c, table in sorted(below.items())
                        for k in range(3) if table[k] > -inf]
        self.size = self.g + len(self.entries)
        self.weight: dict[int, float] = {self.x + e: w for e, (_, _, w) in enumerate(edges)}
        self.weight.update({self.g + j: value for j, (_, _, value) in enumerate(self.entries)})
        self.rows: list[tuple[Mapping[int, float], float, float]] = []
        self.seen_cuts: set[tuple[frozenset[int], int, int]] = set()
        self.degree = [0] * n
        self.whole = set(range(m)) | set(range(self.odd, self.size))  # z follows from x
        door: list[dict[int, int]] = [{} for _ in range(n)]  # k -> its g at each city
        for j, (v, k, _) in enumerate(self.entries):
            door[v][k] = self.g + j
        # The ends of the trail at each city, as seen by a cut: its parity and a branch's end.
        self.end_vars = [[self.odd + v] + [door[v][k] for k in (1,) if k in door[v]]
                         for v in range(n)]
        touching: list[list[int]] = [[] for _ in range(n)]  # a loop once, counted twice
        for e, (a, b) in enumerate(self.ends):
            self.degree[a] += 1
            self.degree[b] += 1
            for v in {a, b}:
                touching[v].append(e)
                self.add({self.x + e: 1, self.z + v: -1}, -inf, 0)
        for v, routes in enumerate(touching):
            twice = {e for e in routes if self.ends[e][0] == self.ends[e][1]}
            self.add({**{self.x + e: 2 if e in twice else 1 for e in routes},
                      **{door[v][k]: 1 for k in (1,) if k in door[v]},
                      self.y + v: -2, self.odd + v: -1}, 0, 0)
            self.add({**{self.x + e: 1 for e in routes}, self.z + v: -1}, 0, inf)
            if door[v]:
                self.add({**{g: 1 for g in door[v].values()}, self.z + v: -1}, -inf, 0)
            bits = [self.x + e for e in routes if e not in twice] + self.end_vars[v]
            if len(bits) <= LOCAL_PARITY_MAX_DEGREE + 1:
                self.add_parity_hull(bits)  # then o_v, y_v follow from whole x: no branching
                self.whole.difference_update({self.odd + v, self.y + v})
        self.doors = door
        counted = {**{self.odd + v: 1 for v in range(n) if parent is None or v != index[parent]},
                   **{g: k for v in range(n) for k, g in door[v].items() if k}}
        if parent is None:
            self.add(counted, -inf, 2)
        else:
            assert ends is not None  # a block's table entry: so many ends beyond its parent
            self.add(counted, ends, ends)
            self.add({self.z + index[parent]: 1}, 1, inf)
        by_pair: dict[tuple[int, int], list[int]] = {}
        for e, pair in enumerate(self.ends):
            by_pair.setdefault(pair, []).append(e)
        for ids in by_pair.values():  # parallel routes are interchangeable: take the heavier first
            ids.sort(key=lambda e: -edges[e][2])
            for heavier, lighter in zip(ids, ids[1:]):
                self.add({self.x + heavier: 1, self.x + lighter: -1}, 0, inf)

    def add(self, row: Mapping[int, float], low: float, high: float) -> None:
        self.rows.append((row, low, high))

    def add_parity_hull(self, bits: list[int]) -> None:
        """One city's degree parity in full (the convex hull of its even 0/1 vectors): for every
        odd subset F of its bits, x(F) - x(rest) <= |F| - 1. 2y + o alone relaxes far weaker."""
        for mask in range(1 << len(bits)):
            chosen = bin(mask).count("1")
            if chosen % 2:
                row = {b: 1 if mask >> k & 1 else -1 for k, b in enumerate(bits)}
                self.add(row, -inf, chosen - 1)

    def length(self, values: Values, piece: set[int] | None) -> float:
        """The length a solution takes (routes and table entries), in one piece or in all."""
        total = 0.0
        for e, (a, _) in enumerate(self.ends):
            if values[self.x + e] > 0.5 and (piece is None or a in piece):
                total += self.edges[e][2]
        for j, (v, _, value) in enumerate(self.entries):
            if values[self.g + j] > 0.5 and (piece is None or v in piece):
                total += value
        return round(total)

    def pieces(self, routes: list[int]) -> list[set[int]]:
        """The cities of each connected piece of the given routes."""
        group = list(range(self.n))

        def root(v: int) -> int:
            while group[v] != v:
                group[v] = group[group[v]]
                v = group[v]
            return v

        for e in routes:
            a, b = self.ends[e]
            group[root(a)] = root(b)
        found: dict[int, set[int]] = {}
        for e in routes:
            for v in self.ends[e]:
                found.setdefault(root(v), set()).add(v)
        return list(found.values())

    def cut(self, inside: set[int], u: int, t: int) -> bool:
        """Add: if the path touches u (in S) and t (outside), it crosses the cut of S, and an
        even number of times unless an end lies in S (an odd city of S, or a branch below one
        with an end in it): x(cut) >= 2(z_u + z_t - 1) - ends(S), and the same with ends(outside
        S) (one of the two is 0 if both ends lie on one side). "At least twice" makes them
        strong, as the subtour cuts of the travelling salesman. Returns False if this cut is
        there already."""
        key = (frozenset(inside), u, t)
        if key in self.seen_cuts:
            return False
        self.seen_cuts.add(key)
        crossing = {self.x + e: 1 for e, (a, b) in enumerate(self.ends)
                    if (a in inside) != (b in inside)}
        for side in (inside, set(range(self.n)) - inside):
            self.add({**crossing, self.z + u: -2, self.z + t: -2,
                      **{j: 1 for v in side for j in self.end_vars[v]}}, -2, inf)
        return True

    def keep_together(self, pieces: list[set[int]], values: Values) -> bool:
        """Cuts between every two pieces of a solution that fell apart, each through its most
        touched city. Returns whether any cut is new."""
        hub = [max(piece, key=lambda v: values[self.z + v]) for piece in pieces]
        new = [self.cut(piece, hub[s], hub[t])
               for s, piece in enumerate(pieces) for t in range(len(pieces)) if t != s]
        return any(new)

    def tighten(self, rounds: int = 30) -> None:
        """Cuts that the relaxation (fractional x) breaks, added before any branching: between
        the pieces of its routes if they fall apart, else across the smallest cuts (max flow)
        between its most touched city and each other city."""
        for _ in range(rounds):
            values = self.solve(integral=False)
            if values is None:
                return
            support = [e for e in range(len(self.edges)) if values[self.x + e] > 1e-6]
            pieces = self.pieces(support)
            if len(pieces) > 1:
                if not self.keep_together(pieces, values):
                    return
            elif not self.smallest_cuts(values):
                return

    def smallest_cuts(self, values: Values) -> bool:
        """For the relaxation's most touched city u and each other city t, the side of u in a
        smallest cut between them (capacities x, scaled to whole numbers for max flow): add its
        cut if the relaxation breaks it. Returns whether any cut is new."""
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import breadth_first_order, maximum_flow

        scale = 10**6
        capacity: dict[tuple[int, int], int] = {}
        for e, (a, b) in enumerate(self.ends):
            flow = round(values[self.x + e] * scale)
            if a != b and flow > 0:
                capacity[a, b] = capacity.get((a, b), 0) + flow
                capacity[b, a] = capacity.get((b, a), 0) + flow
        if not capacity:
            return False
        (r, c), w = zip(*capacity), list(capacity.values())
        graph = csr_matrix((w, (r, c)), shape=(self.n, self.n), dtype="int32")
        z = [values[self.z + v] for v in range(self.n)]
        u = max(range(self.n), key=z.__getitem__)
        ends_at = [sum(values[j] for j in self.end_vars[v]) for v in range(self.n)]
        added = False
        for t in range(self.n):
            if t == u or z[u] + z[t] - 1 < 1e-6:
                continue
            flow = maximum_flow(graph, u, t).flow
            residual = (graph - flow).tocsr()
            residual.data[residual.data < 0] = 0
            residual.eliminate_zeros()
            inside = set(breadth_first_order(residual, u, return_predecessors=False).tolist())
            crossing = sum(values[self.x + e] for e, (a, b) in enumerate(self.ends)
                           if (a in inside) != (b in inside))
            ends_in = sum(ends_at[v] for v in inside)
            ends_out = sum(ends_at) - ends_in
            need = 2 * (z[u] + z[t] - 1) - min(ends_in, ends_out)
            if crossing < need - 1e-6:
                added = self.cut(inside, u, t) or added
        return added

    def solve(self, integral: bool) -> Values | None:
        """The optimum's values (of the relaxation unless ``integral``), or None if there is no
        solution (a table entry that no set of routes reaches)."""
        import numpy as np
        from scipy.optimize import Bounds, LinearConstraint, milp
        from scipy.sparse import coo_array

        entries = [(i, j, a) for i, (row, _, _) in enumerate(self.rows) for j, a in row.items()]
        r, c, a = zip(*entries)
        matrix = coo_array((a, (r, c)), shape=(len(self.rows), self.size)).tocsr()
        cost = np.zeros(self.size)
        for j, w in self.weight.items():
            cost[j] = -w
        upper = np.ones(self.size)
        upper[self.y:self.g] = [(d + (1 in door)) // 2 for d, door in zip(self.degree, self.doors)]
        # Lengths are whole numbers: a gap under 1/2 proves the optimum (HiGHS's default: 1e-4).
        gap = min(1e-4, 0.5 / (1 + sum(self.weight.values())))
        integrality = [integral and j in self.whole for j in range(self.size)]
        result = milp(cost, integrality=integrality, bounds=Bounds(0, upper),
                      constraints=LinearConstraint(matrix, [lo for _, lo, _ in self.rows],
                                                   [hi for _, _, hi in self.rows]),
                      options={"mip_rel_gap": gap})
        if result.status == 2:
            return None
        if result.status != 0:
            raise RuntimeError(f"the longest path program failed: {result.message}")
        values: Values = result.x
        return values
