"""Request bodies read as JSON with bounds: every JSON endpoint of the class server reads here.

``json.loads`` recurses once per nesting level, so a body of a thousand ``[`` raises
``RecursionError`` (not a ``ValueError``) and became a 500 with a traceback. No body of this API
nests deeper than a few levels (an action, a progress record), so the depth is counted on the
text first, and anything deeper is refused as the rest of a bad body is: a ``BadBody`` whose
sentence names the body and never quotes it.
"""

from __future__ import annotations

import json

MAX_DEPTH = 32  # an action or a record nests 3 to 4 levels; a margin for other clients


class BadBody(ValueError):
    """A request body that is not the JSON its endpoint reads (the handlers answer 400)."""


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in a JSON text, brackets inside strings not counted."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def read_json(body: bytes | None, what: str = "the body", max_depth: int = MAX_DEPTH):
    """``body`` decoded as JSON (an empty body is ``None``), or ``BadBody`` saying why."""
    if not body:
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BadBody(f"{what} is not UTF-8 text") from None
    if nesting_depth(text) > max_depth:
        raise BadBody(f"{what} nests deeper than {max_depth} levels")
    try:
        return json.loads(text)
    except ValueError:
        raise BadBody(f"{what} is not JSON") from None
