"""Imports flow downward only (the layers are explained in docs/architecture.md).

Every ttrlib module has a layer rank in ``LAYERS``, the one table of the layering. The test reads
each module's imports with ``ast`` (at module level and inside functions, relative and absolute,
``if TYPE_CHECKING`` ones too: a type is a dependency) and fails on

- a module that is not in the table (add it there, in the layer it belongs to);
- an import of a higher layer (an upward edge);
- a cycle among modules of one layer.

The one upward edge allowed is a lazy import of ``ttrlib.display`` inside a function named
``_repr_html_``: a value shows itself as a picture in a notebook, the pictures stay above it.
Edges listed in ``KNOWN_EXCEPTIONS`` are tolerated until the owner of that file removes them; an
exception that no longer occurs fails too, so that the list only shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "ttrlib"

# Bottom to top. A name ending in ".*" is a package: its __init__ and every module under it.
# Every name is a module (or package) of ttrlib: a test checks that none is stale.
LAYER_NAMES = [
    # 0: no ttrlib imports but the errors: seat names, plain English, the library's errors, the
    #    key files (the save key, the deal key), results shared between kernels (a folder), and
    #    the reader's language (gettext catalogues, numbers; issue 35)
    ["errors", "seats", "words", "keyfile", "result_cache", "i18n"],
    # 1: train cards and their counts (C1)
    ["cards"],
    # 2: the map: cities, routes, tickets (board files)
    ["board"],
    # 3: the vocabulary of the game: moves, and typed events (what happened), both plain data
    ["actions", "events"],
    # 4: the declared game state (plain data the rule families read and change), its fields as
    #    typed attributes of the game, and the words of each phase (the rules refuse in them)
    ["state", "tunnel_codec", "plain", "history", "state_fields", "hints"],
    # 5: rule families (pure functions over a state: check, effect, legal), their table, the
    #    tunnel reveal's chance object, and the one validity check they serve
    ["rules", "rules.payments", "rules.tracks", "rules.scoring", "rules.draws", "rules.tickets",
     "rules.claims", "rules.tunnels", "rules.ending", "rules.deck", "rules.passing",
     "rules.check_mode",
     "rules.network", "rules.dispatch", "chance", "validity"],
    # 6: pictures (HTML fragments, the board map): they take duck-typed views and never import
    #    the engine above the rules; the observer (what a seat sees of a state, I1) and a
    #    position built by hand (a checked state)
    ["display.*", "maps", "observer", "positions"],
    # 7: the English text of the events, and a state as JSON
    ["narration", "save"],
    # 8: the facade that dispatches actions to the rule families, and the reading back of a
    #    seat's plain view, events and score sheets (it builds the game's PlayerView)
    ["game", "plain_views"],
    # 9: built on the engine: saving, sessions, exact odds, simulation, bots, experiments, and
    #    the package's public names
    ["ttrlib", "signed_save", "session", "deals", "odds", "simulate", "bots", "experiments",
     "remote_session", "coach.*"],
    # 10: practice positions and the notebooks' helpers
    ["lessons.*"],
    # 11: the widgets, which use the lessons' practice positions (never the other way round),
    #     and the class server, which checks the class's records against the lessons' answer
    #     keys and serves the teacher's guide (neither imports the other)
    ["widgets.*", "server.*"],
]

# (importer, imported): edges tolerated although they break the layering. None: the list may
# only shrink, and an entry that no longer occurs fails the test.
KNOWN_EXCEPTIONS: set[tuple[str, str]] = set()

ALLOWED_REPR = "display"  # lazy imports of this package inside ``_repr_html_`` are allowed


def rank_of(module: str, layers=LAYER_NAMES) -> int | None:
    """The layer of ``module`` (``"rules.payments"``, ``"display.cards"``), None if unlisted."""
    for rank, names in enumerate(layers):
        for name in names:
            if name == module or (name.endswith(".*") and (
                    module == name[:-2] or module.startswith(name[:-1]))):
                return rank
    return None


def module_name(path: Path, root: Path) -> str:
    """``ttrlib/rules/payments.py`` -> ``"rules.payments"``; ``ttrlib/__init__.py`` -> ``"ttrlib"``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or "ttrlib"


def is_module(name: str, root: Path) -> bool:
    rel = Path(*name.split(".")) if name != "ttrlib" else Path()
    return (root / rel).with_suffix(".py").is_file() or (root / rel / "__init__.py").is_file()


def _absolute(target: str) -> str | None:
    """``"ttrlib.cards"`` -> ``"cards"``, ``"ttrlib"`` -> ``"ttrlib"``; None outside ttrlib."""
    if target == "ttrlib":
        return "ttrlib"
    return target[len("ttrlib."):] if target.startswith("ttrlib.") else None


def _package_of(importer: str, path: Path) -> list[str]:
    """The package a relative import of ``importer`` starts from, as a list of name parts."""
    parts = [] if importer == "ttrlib" else importer.split(".")
    return parts if path.name == "__init__.py" else parts[:-1]


class Edge(tuple):
    """(importer, imported, line, function the import sits in or None)."""

    importer = property(lambda self: self[0])
    imported = property(lambda self: self[1])
    line = property(lambda self: self[2])
    function = property(lambda self: self[3])


def imports_of(path: Path, root: Path) -> list[Edge]:
    """Every ttrlib module ``path`` imports, with the line and the enclosing function."""
    me = module_name(path, root)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    edges: list[Edge] = []

    def add(target: str | None, node: ast.AST, function: str | None) -> None:
        if target is not None and target != me:
            edges.append(Edge((me, target, node.lineno, function)))

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef,
                                                     ast.AsyncFunctionDef)) else function
            if isinstance(child, ast.Import):
                for alias in child.names:
                    add(_absolute(alias.name), child, function)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base, up = _package_of(me, path), child.level - 1
                    assert up <= len(base), f"{path}:{child.lineno}: an import above ttrlib"
                    parts = base[:len(base) - up] + (child.module.split(".") if child.module
                                                     else [])
                    source = ".".join(parts) or "ttrlib"
                else:
                    source = _absolute(child.module or "")
                    if source is None:
                        continue
                for alias in child.names:
                    sub = alias.name if source == "ttrlib" else f"{source}.{alias.name}"
                    # ``from pkg import mod`` imports the module mod; ``from pkg import name``
                    # imports the package pkg
                    add(sub if is_module(sub, root) else source, child, function)
            visit(child, inner)

    visit(tree, None)
    return edges


def all_edges(root: Path = ROOT) -> list[Edge]:
    """Each import once per line (``from .x import a, b`` is one edge)."""
    edges = [e for path in sorted(root.rglob("*.py")) for e in imports_of(path, root)]
    return list(dict.fromkeys(edges))


def _allowed_repr(edge: Edge, layers) -> bool:
    return edge.function == "_repr_html_" and rank_of(edge.imported, layers) == rank_of(
        ALLOWED_REPR, layers)


def problems(root: Path = ROOT, layers=LAYER_NAMES,
             exceptions: set[tuple[str, str]] = frozenset()) -> list[str]:
    """Everything wrong with the layering of the package at ``root``, one line each."""
    out = []
    modules = sorted(module_name(p, root) for p in root.rglob("*.py"))
    out += [f"{m}: not in LAYER_NAMES of tests/test_layers.py; add it to its layer"
            for m in modules if rank_of(m, layers) is None]
    edges = all_edges(root)
    seen = set()
    same_layer: dict[str, set[str]] = {}
    for e in edges:
        mine, theirs = rank_of(e.importer, layers), rank_of(e.imported, layers)
        if mine is None:
            continue  # reported above as not in the table
        if theirs is None:
            out.append(f"{e.importer} line {e.line} imports {e.imported}, which is not in "
                       "LAYER_NAMES")
            continue
        if (e.importer, e.imported) in exceptions:
            seen.add((e.importer, e.imported))
            continue
        if theirs > mine and not _allowed_repr(e, layers):
            where = f" (inside {e.function})" if e.function else ""
            out.append(f"upward edge: {e.importer} (layer {mine}) line {e.line} imports "
                       f"{e.imported} (layer {theirs}){where}")
        elif theirs == mine:
            same_layer.setdefault(e.importer, set()).add(e.imported)
    out += [f"known exception {a} -> {b} no longer occurs: remove it from KNOWN_EXCEPTIONS"
            for a, b in sorted(set(exceptions) - seen)]
    out += [f"import cycle inside layer {rank_of(c[0], layers)}: {' -> '.join(c)}"
            for c in cycles(same_layer)]
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a closed path) for each strongly connected group of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def connect(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    out = []
    for group in groups:  # walk from the first module back to itself inside the group
        members, path = set(group), [group[0]]
        while True:
            nxt = min(w for w in graph[path[-1]] if w in members)
            if nxt in path:
                out.append(path[path.index(nxt):] + [nxt])
                break
            path.append(nxt)
    return out


# --- the package ---------------------------------------------------------------------------------
def test_imports_flow_downward():
    found = problems(exceptions=KNOWN_EXCEPTIONS)
    assert not found, "\n".join(found)


def test_the_table_names_each_module_once():
    names = [n for layer in LAYER_NAMES for n in layer]
    assert len(names) == len(set(names))
    assert all(rank_of(a) is not None and rank_of(b) is not None for a, b in KNOWN_EXCEPTIONS)


def test_every_name_in_the_table_is_a_module():
    stale = [n for layer in LAYER_NAMES for n in layer if not is_module(n.removesuffix(".*"), ROOT)]
    assert not stale, f"no such module in ttrlib/: {stale}"


def test_known_edges_are_read():
    """The reader sees the kinds of import the package uses (counted by hand in the files)."""
    edges = {(e.importer, e.imported, e.function) for e in all_edges()}
    assert ("cards", "display", "_repr_html_") in edges  # from . import display, in a method
    assert ("maps", "rules.network", None) in edges  # from .rules.network import connected
    assert ("lessons.tickets", "lessons", None) in edges  # from . import attempt, ... (names)
    assert ("lessons.handouts", "lessons.catalog", None) in edges  # absolute: from ttrlib.lessons
    assert ("widgets.tunnel_claim", "lessons.tunnels", None) in edges  # from ..lessons.tunnels


# --- the checker on made-up packages (so that it can fail) --------------------------------------
TOY_LAYERS = [["low"], ["display.*"], ["mid", "mid2", "mid3"], ["top"]]


def toy(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "ttrlib"
    for name, text in {"__init__.py": "", **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def toy_problems(root: Path, exceptions=frozenset()) -> list[str]:
    return problems(root, [["ttrlib"], *TOY_LAYERS], exceptions)


def test_a_clean_toy_package_passes(tmp_path):
    root = toy(tmp_path, {
        "low.py": "import math\n",
        "display/__init__.py": "from .looks import X\n",
        "display/looks.py": "from ..low import Y\n",
        "mid.py": "from . import low\nfrom .mid2 import f\n",
        "mid2.py": "import ttrlib.low\n",
        "mid3.py": "from .mid import g\n",
        "top.py": "from ttrlib import mid\ndef f():\n    from .display import looks\n",
    })
    assert toy_problems(root) == []


def test_upward_edges_are_found_at_module_level_and_in_functions(tmp_path):
    root = toy(tmp_path, {
        "low.py": "from .mid import x\n",
        "display/__init__.py": "", "display/looks.py": "",
        "mid.py": "def run():\n    import ttrlib.top\n",
        "mid2.py": "", "mid3.py": "",
        "top.py": "",
    })
    found = toy_problems(root)
    assert len(found) == 2
    assert "upward edge: low (layer 1) line 1 imports mid (layer 3)" in found[0]
    assert "mid (layer 3) line 2 imports top (layer 4) (inside run)" in found[1]


def test_only_a_repr_html_may_import_display_upward(tmp_path):
    root = toy(tmp_path, {
        "low.py": ("class C:\n    def _repr_html_(self):\n        from . import display\n"
                   "    def show(self):\n        from .display import looks\n"),
        "display/__init__.py": "", "display/looks.py": "",
        "mid.py": "", "mid2.py": "", "mid3.py": "",
        "top.py": "",
    })
    assert toy_problems(root) == [
        "upward edge: low (layer 1) line 5 imports display.looks (layer 2) (inside show)"]


def test_cycles_inside_a_layer_and_unlisted_modules_fail(tmp_path):
    root = toy(tmp_path, {
        "low.py": "", "display/__init__.py": "", "display/looks.py": "",
        "mid.py": "from .mid2 import a\n",
        "mid2.py": "from .mid3 import b\n",
        "mid3.py": "def later():\n    from . import mid\n",
        "top.py": "", "stray.py": "",
    })
    found = toy_problems(root)
    assert found == ["stray: not in LAYER_NAMES of tests/test_layers.py; add it to its layer",
                     "import cycle inside layer 3: mid -> mid2 -> mid3 -> mid"]


def test_exceptions_are_tolerated_until_they_go(tmp_path):
    files = {"low.py": "from .top import z\n", "display/__init__.py": "",
             "display/looks.py": "", "mid.py": "", "mid2.py": "", "mid3.py": "", "top.py": ""}
    root = toy(tmp_path, files)
    assert toy_problems(root, {("low", "top")}) == []
    (root / "low.py").write_text("", encoding="utf-8")
    assert toy_problems(root, {("low", "top")}) == [
        "known exception low -> top no longer occurs: remove it from KNOWN_EXCEPTIONS"]


def test_a_table_is_a_class_table():
    """'table' meant the rules' dispatch, a class table and an HTML table (issue 31): a module
    named for a table is the class table's, or the one HTML-table builder."""
    named = sorted(p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*table*.py"))
    html = ["display/tables.py"]
    assert [n for n in named if n not in html and not n.startswith(("server/", "lessons/"))] == []
    assert html[0] in named and "rules/dispatch.py" in [p.relative_to(ROOT).as_posix()
                                                         for p in ROOT.rglob("*.py")]
