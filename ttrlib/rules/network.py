"""The route network of a team: which cities its routes join (E3) and its longest continuous
path (E4), exact on any board the loader accepts.

Apart from ``ttrlib.rules.scoring`` (which uses and re-exports these) because finding the longest
path fast takes more code than the rest of scoring together.

>>> connected([("a", "b"), ("b", "c")], "a", "c"), connected([("a", "b")], "a", "c")
(True, False)
>>> longest_trail([("a", "b", 2), ("b", "c", 3), ("b", "d", 1)])
5
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from math import inf

from ..board import components  # the one union-find of the library (the loader uses it too)


def connected(edges: Iterable[tuple[str, str]], a: str, b: str) -> bool:
    """Do the given edges join cities ``a`` and ``b``? (E3)"""
    component = components(edges)
    return a in component and b in component and component[a] == component[b]


# --- longest continuous path (E4) -------------------------------------------------------------
#
# A trail (each route once, cities may repeat) is exactly a connected set of routes in which at
# most two cities meet an odd number of them (Euler). So the longest trail of a connected piece is
# its total length when it has at most two odd cities, and otherwise the heaviest such subset:
# found exactly by a bounded search on small pieces and by an integer program on the rest.

Edge = tuple[str, str, int]

SEARCH_BUDGET = 20_000  # walk() calls before the bounded search gives up for the integer program
LOCAL_PARITY_MAX_DEGREE = 8  # list a city's 2**degree parity inequalities only up to this degree


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
    found = _bounded_search(edges, SEARCH_BUDGET)
    if found is not None:
        return found
    return sum(w for _, _, w in _heaviest_trail_routes(edges))


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


def _heaviest_trail_routes(edges: list[Edge]) -> list[Edge]:
    """The routes of a longest trail: the heaviest connected set of routes with at most two odd
    cities, by an integer program whose connectivity cuts are added while its optimum falls
    apart. Each cut holds for every connected set, so the first connected optimum is the answer.

    Between rounds the length is bounded: at most the last optimum (cuts only take away), at
    least its heaviest piece (a piece has at most two odd cities too: a path already found).
    """
    program = _TrailProgram(edges)
    program.tighten()
    length = {program.x + e: w for e, (_, _, w) in enumerate(edges)}
    while True:
        values = program.solve(integral=True)
        taken = [e for e in range(len(edges)) if values[program.x + e] > 0.5]
        pieces = program.pieces(taken)
        if len(pieces) <= 1:
            return [edges[e] for e in taken]
        program.keep_together(pieces, values)
        found = max(sum(edges[e][2] for e in taken if program.ends[e][0] in piece)
                    for piece in pieces)
        program.add(length, found, sum(edges[e][2] for e in taken))


class _TrailProgram:
    """Binary x_e (route e taken), z_v (city v touched), o_v (v odd), integer y_v:
    degree_x(v) = 2 y_v + o_v, sum(o) <= 2, x_e <= z_v at both ends, z_v <= degree_x(v);
    connectivity by cuts (``keep_together``). Solved by HiGHS through scipy's milp."""

    def __init__(self, edges: list[Edge]) -> None:
        self.edges = edges
        cities = sorted({c for a, b, _ in edges for c in (a, b)})
        index = {c: i for i, c in enumerate(cities)}
        self.ends = [(index[a], index[b]) for a, b, _ in edges]
        m, n = len(edges), len(cities)
        self.n = n
        self.x, self.z, self.odd, self.y = 0, m, m + n, m + 2 * n  # where each block starts
        self.size = m + 3 * n
        self.rows: list[tuple[dict[int, int], float, float]] = []
        self.seen_cuts: set[tuple[frozenset[int], int, int]] = set()
        self.degree = [0] * n
        self.whole = set(range(m)) | set(range(self.odd, self.size))  # z follows from x
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
                      self.y + v: -2, self.odd + v: -1}, 0, 0)
            self.add({**{self.x + e: 1 for e in routes}, self.z + v: -1}, 0, inf)
            bits = [self.x + e for e in routes if e not in twice] + [self.odd + v]
            if len(bits) <= LOCAL_PARITY_MAX_DEGREE + 1:
                self.add_parity_hull(bits)  # then o_v, y_v follow from whole x: no branching
                self.whole.difference_update({self.odd + v, self.y + v})
        self.add({self.odd + v: 1 for v in range(n)}, -inf, 2)
        by_pair: dict[tuple[int, int], list[int]] = {}
        for e, pair in enumerate(self.ends):
            by_pair.setdefault(pair, []).append(e)
        for ids in by_pair.values():  # parallel routes are interchangeable: take the heavier first
            ids.sort(key=lambda e: -edges[e][2])
            for heavier, lighter in zip(ids, ids[1:]):
                self.add({self.x + heavier: 1, self.x + lighter: -1}, 0, inf)

    def add(self, row: dict[int, int], low: float, high: float) -> None:
        self.rows.append((row, low, high))

    def add_parity_hull(self, bits: list[int]) -> None:
        """One city's degree parity in full (the convex hull of its even 0/1 vectors): for every
        odd subset F of its bits, x(F) - x(rest) <= |F| - 1. 2y + o alone relaxes far weaker."""
        for mask in range(1 << len(bits)):
            chosen = bin(mask).count("1")
            if chosen % 2:
                row = {b: 1 if mask >> k & 1 else -1 for k, b in enumerate(bits)}
                self.add(row, -inf, chosen - 1)

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
        even number of times unless one path end lies in S: x(cut) >= 2(z_u + z_t - 1) - o(S),
        and the same with o(outside S) (one of the two is 0 if both ends lie on one side).
        "At least twice" makes them strong, as the subtour cuts of the travelling salesman.
        Returns False if this cut is there already."""
        key = (frozenset(inside), u, t)
        if key in self.seen_cuts:
            return False
        self.seen_cuts.add(key)
        crossing = {self.x + e: 1 for e, (a, b) in enumerate(self.ends)
                    if (a in inside) != (b in inside)}
        for side in (inside, set(range(self.n)) - inside):
            self.add({**crossing, self.z + u: -2, self.z + t: -2,
                      **{self.odd + v: 1 for v in side}}, -2, inf)
        return True

    def keep_together(self, pieces: list[set[int]], values) -> bool:
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
            support = [e for e in range(len(self.edges)) if values[self.x + e] > 1e-6]
            pieces = self.pieces(support)
            if len(pieces) > 1:
                if not self.keep_together(pieces, values):
                    return
            elif not self.smallest_cuts(values):
                return

    def smallest_cuts(self, values) -> bool:
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
            ends_in = sum(values[self.odd + v] for v in inside)
            ends_out = sum(values[self.odd + v] for v in range(self.n)) - ends_in
            need = 2 * (z[u] + z[t] - 1) - min(ends_in, ends_out)
            if crossing < need - 1e-6:
                added = self.cut(inside, u, t) or added
        return added

    def solve(self, integral: bool):
        import numpy as np
        from scipy.optimize import Bounds, LinearConstraint, milp
        from scipy.sparse import coo_array

        entries = [(i, j, a) for i, (row, _, _) in enumerate(self.rows) for j, a in row.items()]
        r, c, a = zip(*entries)
        matrix = coo_array((a, (r, c)), shape=(len(self.rows), self.size)).tocsr()
        m = len(self.edges)
        cost = np.zeros(self.size)
        cost[:m] = [-w for _, _, w in self.edges]
        upper = np.ones(self.size)
        upper[self.y:] = [d // 2 for d in self.degree]
        # Lengths are whole numbers: a gap under 1/2 proves the optimum (HiGHS's default: 1e-4).
        gap = min(1e-4, 0.5 / (1 + sum(w for _, _, w in self.edges)))
        integrality = [integral and j in self.whole for j in range(self.size)]
        result = milp(cost, integrality=integrality, bounds=Bounds(0, upper),
                      constraints=LinearConstraint(matrix, [lo for _, lo, _ in self.rows],
                                                   [hi for _, _, hi in self.rows]),
                      options={"mip_rel_gap": gap})
        if result.status != 0:  # not expected: taking no route is always feasible
            raise RuntimeError(f"the longest path program failed: {result.message}")
        return result.x
