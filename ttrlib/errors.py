"""Errors raised by ttrlib. Every one is a ``ValueError`` with a single meaning.

``IllegalMove`` and its subclasses name the rule id from ``shared/rules/team-asia.md`` and the
reason; a rejected action never changes the game.

>>> str(IllegalClaim("K1", "cards in your teammate's hand cannot pay for your route"))
"rule K1: cards in your teammate's hand cannot pay for your route"
"""

from __future__ import annotations


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


class BoardError(TTRError):
    """A malformed board file: the message names the file, the entry and the field."""


class SaveError(TTRError):
    """A malformed or tampered saved game: the message names what is wrong."""


class SetupError(TTRError):
    """An impossible position given to ``Game.from_position``."""
