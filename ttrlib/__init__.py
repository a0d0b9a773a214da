"""ttrlib: exact rules, tunnel odds and lessons for Ticket to Ride: Team Asia.

``import ttrlib`` stays light: scipy, sympy, matplotlib and ipywidgets load only where used.
"""

from . import actions
from .board import Board, Route, Ticket, load_board, teaching_board
from .cards import COLORS, TRAIN_COLORS, CardCounts, Color, standard_deck
from .errors import BoardError, IllegalMove, SaveError, TTRError
from .game import Game, Phase, PlayerView, seat_name

__all__ = [
    "actions", "Board", "Route", "Ticket", "load_board", "teaching_board", "COLORS",
    "TRAIN_COLORS", "CardCounts", "Color", "standard_deck", "BoardError", "IllegalMove",
    "SaveError", "TTRError", "Game", "Phase", "PlayerView", "seat_name",
]
__version__ = "0.1.0"
