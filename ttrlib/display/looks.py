"""How each card colour is drawn (fill, ink, letter, name): shared by the card pictures and the
board map (:mod:`ttrlib.maps`), so a colour looks and reads the same everywhere."""

from __future__ import annotations

from typing import NamedTuple

from ..cards import Color


class CardLook(NamedTuple):
    """How a card of one colour is drawn: background, text colour, letter, name."""

    fill: str  # CSS background
    ink: str  # colour of the letter and the little wagon, readable on ``fill``
    symbol: str  # letter shown on the card (colour-blind friendly)
    name: str  # colour name for the tooltip


_RAINBOW = (
    "linear-gradient(160deg, #e53935 0%, #fb8c00 18%, #fdd835 34%, #43a047 52%, "
    "#1e88e5 70%, #8e24aa 88%, #d81b60 100%)"
)

#: The look of each card colour. Fills are distinct; the ink is dark on light fills, white on dark.
CARD_LOOKS: dict[Color, CardLook] = {
    Color.PURPLE: CardLook("#7b3fa0", "#ffffff", "P", "purple"),
    Color.WHITE: CardLook("#f8f8f4", "#1d1d1d", "W", "white"),
    Color.BLUE: CardLook("#1f63c6", "#ffffff", "B", "blue"),
    Color.YELLOW: CardLook("#f7d330", "#1d1d1d", "Y", "yellow"),
    Color.ORANGE: CardLook("#f08a1c", "#1d1d1d", "O", "orange"),
    Color.BLACK: CardLook("#1f1f1f", "#ffffff", "K", "black"),
    Color.RED: CardLook("#d32f2f", "#ffffff", "R", "red"),
    Color.GREEN: CardLook("#218a45", "#ffffff", "G", "green"),
    Color.LOCOMOTIVE: CardLook(_RAINBOW, "#1d1d1d", "L", "locomotive (wild)"),
}

#: The fill of a gray route (paid in any one colour): a gray no card uses.
GRAY_ROUTE = "#9e9e9e"
