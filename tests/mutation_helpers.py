"""What the save and board tests share: walking a parsed JSON or TOML tree, and writing board
data as TOML text (floats, inline tables with quoted keys, arrays of tables)."""

from __future__ import annotations

import json
import math


def paths(tree, prefix=()) -> list[tuple]:
    """Every place in the tree, as the keys and indexes that lead to it."""
    out = [prefix]
    if isinstance(tree, dict):
        for k, v in tree.items():
            out += paths(v, prefix + (k,))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            out += paths(v, prefix + (i,))
    return out


def at(tree, path):
    """The value at ``path`` (from ``paths``)."""
    for key in path:
        tree = tree[key]
    return tree


def put(tree, path, value) -> None:
    """Set the value at ``path``."""
    at(tree, path[:-1])[path[-1]] = value


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, (int, str)):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + "}"
    if v is None:
        return '"null"'  # TOML has no null; a string stands in for it
    raise TypeError(v)


def to_toml(data: dict) -> str:
    """Board data as a TOML file: scalars first, then arrays of tables."""
    lines, tables = [], {}
    for key, value in data.items():
        if isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            tables[key] = value
        else:
            lines.append(f"{json.dumps(key)} = {toml_value(value)}")
    for key, entries in tables.items():
        for entry in entries:
            lines += ["", f"[[{json.dumps(key)}]]"] + [f"{json.dumps(k)} = {toml_value(x)}"
                                                        for k, x in entry.items()]
    return "\n".join(lines) + "\n"
