"""Lesson widgets (ipywidgets). They drive a ``Game`` only through ``apply``, ``legal_actions``
and ``view``; every rule decision, and every message about a wrong click, comes from the engine.

``import ttrlib.widgets`` imports ipywidgets; ``import ttrlib`` does not.
"""

from .base import LessonWidget
from .card_split import CardSplitStepper

__all__ = ["LessonWidget", "CardSplitStepper"]


def __getattr__(name):  # the other widgets load on first use
    if name == "TunnelClaimStepper":
        from .tunnel_claim import TunnelClaimStepper

        return TunnelClaimStepper
    if name == "TicketStepper":
        from .tickets import TicketStepper

        return TicketStepper
    if name == "OddsExplorer":
        from .odds_explorer import OddsExplorer

        return OddsExplorer
    if name == "TeamGame":
        from .team_game import TeamGame

        return TeamGame
    raise AttributeError(name)
