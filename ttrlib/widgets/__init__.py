"""Lesson widgets (ipywidgets). Each reaches its game only through a ``ttrlib.session.SeatSession``
(the seat's view, its legal actions, ``apply``, its events and scores), so what a widget holds,
and so what reaches the browser, is what its seat may know (rule I1). Every rule decision, and
every message about a wrong click, comes from the engine. Every game widget shows its game's
public name ("game 4821": dealt from that number through the installation's key, ttrlib.deals;
"random game 5c1e0a" for ``seed=None``: 128 random bits) and has a New game button.

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
