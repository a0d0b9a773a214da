"""Errors raised by ttrlib. Every one is a ``ValueError`` with a single meaning.

``IllegalMove`` and its subclasses name the rule id from ``docs/team-asia-rules.md`` and the
reason; a rejected action never changes the game.

>>> str(IllegalClaim("K1", "cards in your teammate's hand cannot pay for your route"))
"rule K1: cards in your teammate's hand cannot pay for your route"
"""

from __future__ import annotations

import reprlib

MAX_MESSAGE = 400  # characters: an error message never echoes a huge value whole
MAX_SHOWN = 80  # characters of a value quoted in a message

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = MAX_SHOWN
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 6
_SHORT.maxlevel = 3
_SHORT.maxlong = 40


def shown(value: object) -> str:
    """A short repr of ``value`` for an error message, whatever its size, depth or kind.

    >>> len(shown("x" * 10_000))
    80
    >>> shown(10 ** 5000)
    'an integer too large to show'
    """
    try:
        text = _SHORT.repr(value)
    except (ValueError, RecursionError, TypeError):  # a >4300-digit int, a cycle, a bad __repr__
        return "an integer too large to show" if isinstance(value, int) else \
            f"a {type(value).__name__} that cannot be shown"
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 3] + "..."


def clip(text: str, limit: int = 120) -> str:
    """``text`` cut to ``limit`` characters (a list of many ids in a message)."""
    return text if len(text) <= limit else text[:limit] + "..."


def bounded(message: str) -> str:
    """``message`` cut to ``MAX_MESSAGE`` characters."""
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE - 3] + "..."


class TTRError(ValueError):
    """Base of every error ttrlib raises on bad input."""


class IllegalMove(TTRError):
    """An action the rules forbid. ``rule`` is the rule id, ``reason`` a sentence for a learner."""

    def __init__(self, rule: str, reason: str):
        self.rule = rule
        self.reason = reason
        super().__init__(f"rule {rule}: {reason}")


class WrongPhase(IllegalMove):
    """The action does not fit the pending decision (or it is not that seat's turn)."""


class IllegalDraw(IllegalMove):
    """A train-card draw or placement that breaks D1-D4 or C6."""


class IllegalClaim(IllegalMove):
    """A route claim that breaks K1-K3 (wrong cards, closed track, too few trains)."""


class IllegalTunnelPayment(IllegalMove):
    """A tunnel payment that does not cover the extra cost exactly (U2, U5, U7)."""


class IllegalTickets(IllegalMove):
    """A ticket choice or share that breaks T1-T4."""


class _BoundedError(TTRError):
    """An error about outside data: its message is cut to ``MAX_MESSAGE`` characters."""

    def __init__(self, message: str = ""):
        super().__init__(bounded(str(message)))


class BoardError(_BoundedError):
    """A malformed board file: the message names the file, the entry and the field."""


class SaveError(_BoundedError):
    """A malformed or tampered saved game: the message names what is wrong."""


class KeyFileError(_BoundedError):
    """A key file (the save key, the deal key) that cannot be read or made: the message names
    the file and what to do."""


class SetupError(_BoundedError):
    """An impossible position given to ``Game.from_position`` (or an impossible new game)."""


class ActionError(_BoundedError):
    """A malformed action in its plain (JSON) form: the message names the field."""


class ArgumentError(_BoundedError):
    """An argument of a library call that names nothing in this game (a seat that is not there,
    a route that is not on the board, a generator that is not one): the message names the
    argument."""


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong kind (a string or a float for a game number, a bool for a
    seat): an ``ArgumentError`` naming the argument, and a ``TypeError`` for callers that catch
    one."""


class ViewError(_BoundedError):
    """A seat's view, event or score sheet in plain (JSON) form that cannot be read back."""


class TableError(_BoundedError):
    """A class table (``ttrlib.server``) that refuses a request or cannot be reached: the
    message says what to do (a wrong key, an unknown table, a server that does not answer)."""
