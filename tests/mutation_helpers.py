"""What the save and board mutation tests share: walking a parsed JSON or TOML tree."""

from __future__ import annotations


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
