"""Pictures of the game's things as self-contained HTML strings.

Every public function returns one HTML fragment (inline CSS and SVG, no JavaScript, no external
files) that a notebook can show with ``IPython.display.HTML(...)`` or put in an
``ipywidgets.HTML(value=...)``. Each fragment carries the shared stylesheet (:func:`style`) once,
and every class name starts with ``ttr-`` so nothing leaks into the rest of the page. Colours that
depend on the page (text, frames) follow the JupyterLab theme variables, or the surrounding text
colour, so the pictures read well in the light and the dark themes and in Voila.

Every card shows a letter as well as a colour, for learners who cannot tell the colours apart:

====== ========== ======
letter colour     fill
====== ========== ======
P      purple     purple
W      white      white (with a gray border)
B      blue       blue
Y      yellow     yellow
O      orange     orange
K      black      black (K as in CMYK, because B is blue)
R      red        red
G      green      green
L      locomotive rainbow, with a star in the corner
====== ========== ======

All text is escaped with ``html.escape``, and every fragment is well-formed XML (no named
entities, no unclosed tags), so it can also be checked or post-processed with ``xml.etree``.

The package's modules say what they hold: :mod:`.looks` (each colour's fill and letter, also used
by the board map), :mod:`.css` (the stylesheet), :mod:`.frames` (escaping, frames, messages,
layout), :mod:`.cards`, :mod:`.tickets`, :mod:`.routes`, :mod:`.chances` (distributions),
:mod:`.game_sheets` (players, routes, score sheet), :mod:`.explorer` (the odds
explorer's panels), :mod:`.tables` (the lessons' plain tables) and :mod:`.views` (a whole
seat's view). Every public name is importable from ``ttrlib.display``.
Display sits just above the rules: it reads a ``PlayerView`` by its attributes and never imports
the engine (``tests/test_layers.py``).

>>> from ttrlib.cards import CardCounts
>>> "×2" in cards_html(CardCounts(red=2, locomotive=1))
True
"""

from __future__ import annotations

from ..words import plural
from .cards import (
    card_back_html,
    card_html,
    card_row_html,
    cardholder_html,
    cards_html,
    hand_html,
    offlimits_html,
)
from .chances import distribution_html
from .css import STYLE, style
from .explorer import (
    EXPLORER_CSS,
    convergence_html,
    convergence_png,
    law_facts_html,
    simulation_html,
    simulation_table_html,
    sub_html,
)
from .frames import layout_html, message_html
from .game_sheets import (
    draw_pile_html,
    players_html,
    routes_html,
    score_sheet_html,
    seat_line_html,
    trains_each,
)
from .looks import CARD_LOOKS, GRAY_ROUTE, CardLook
from .routes import route_html
from .tables import Markup, table_html
from .tickets import hidden_tickets_html, ticket_html, ticket_table_html, tickets_html
from .views import seat_cards_html, view_html

__all__ = [
    "CARD_LOOKS",
    "EXPLORER_CSS",
    "GRAY_ROUTE",
    "Markup",
    "STYLE",
    "CardLook",
    "card_back_html",
    "card_html",
    "card_row_html",
    "cardholder_html",
    "cards_html",
    "convergence_html",
    "convergence_png",
    "distribution_html",
    "draw_pile_html",
    "hand_html",
    "hidden_tickets_html",
    "law_facts_html",
    "layout_html",
    "message_html",
    "offlimits_html",
    "players_html",
    "plural",
    "route_html",
    "routes_html",
    "score_sheet_html",
    "seat_line_html",
    "style",
    "table_html",
    "ticket_html",
    "ticket_table_html",
    "trains_each",
    "tickets_html",
    "seat_cards_html",
    "simulation_html",
    "simulation_table_html",
    "sub_html",
    "view_html",
]
