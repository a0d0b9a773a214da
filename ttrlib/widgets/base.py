"""What every lesson widget shares: whose screen it is, a message line, safe clicks, bots."""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Sequence

import ipywidgets as w

from .. import display, narration
from ..bots import GreedyBot
from ..errors import IllegalMove, KeyFileError
from ..events import Event
from ..game import Game, PlayerView
from ..i18n import N_, _, ngettext
from ..lessons import page_reports
from ..session import SeatSession


def safe(handler: Callable) -> Callable:
    """The one error guard of every screen: wrap a click or change handler so that a rule error
    shows in the message line and anything else shows a short apology (the screen's
    ``apology``) instead of a traceback (a learner never sees one); ``last_error`` keeps it."""

    @functools.wraps(handler)
    def wrapped(self: "Screen", *args, **kwargs):
        try:
            return handler(self, *args, **kwargs)
        except IllegalMove as exc:
            self.say(exc.reason, "error", rule=exc.rule)
        except Exception as exc:  # noqa: BLE001 - the widget must stay usable
            self.last_error = exc
            self.say(f"Something went wrong ({type(exc).__name__}: {exc}). {self.apology}",
                     "warning")

    return wrapped


class Screen(w.VBox):
    """The one base of every lesson screen: a message line (``say``, ``message_text``) and the
    error guard's apology. A screen's own state is declared as plain traitlets traits on its
    class, never with ``sync=True``: only its controls reach the page (rule I1).
    ``tests/test_widget_secrets.py`` drives every subclass."""

    apology = "The game is unchanged; try another step."

    def __init__(self, layout: w.Layout | None = None) -> None:
        super().__init__(layout=layout or w.Layout(width="100%", max_width="980px"))
        self.add_class("ttr-widget")
        self.message = w.HTML()
        self.last_error: Exception | None = None
        page_reports.listen()  # a lost screen is reported to the teacher (classroom only)

    def say(self, text: str, kind: str = "info", *, rule: str | None = None) -> None:
        self.message.value = display.message_html(text, kind, rule=rule)

    @property
    def message_text(self) -> str:
        """The message line as plain text (what a learner reads)."""
        return _plain(self.message.value)


def ready_game(game: Game | None, seed: int | None, players: int = 4) -> Game:
    """A game past the ticket setup (T1), the bots choosing every seat's tickets. A given
    ``game`` has its bots from its public number ``seed``; ``game=None`` deals one from
    ``seed``, the deal's secret seed (as a session's ``deal`` receives it), and its setup bots
    draw from that secret too (no key needed: a random deal works without one)."""
    if game is None:
        game = Game.new(players=players, seed=seed)
        bots = [GreedyBot(seed=[seed, s]) for s in range(players)]
        SeatSession(game, 0, bots=bots).play_setup(humans=())
    else:
        SeatSession(game, 0, seed=seed).play_setup(humans=())
    return game


#: why a seat may not act now, by what it tried (``LessonWidget.not_now``): whole sentences
_NOT_YOUR_TURN = {
    "play": N_("It is not your turn to play yet: {how}."),
    "draw": N_("It is not your turn to draw yet: {how}."),
    "place a card": N_("It is not your turn to place a card yet: {how}."),
    "claim a route": N_("It is not your turn to claim a route yet: {how}."),
}


def close_all(*widgets: w.Widget) -> None:
    """Close replaced controls, their children, layouts and styles: a closed model leaves the
    browser, so nothing it held (a ticket offer, a choice) stays readable in the page (I1)."""
    for widget in widgets:
        for child in getattr(widget, "children", ()):
            close_all(child)
        for part in ("layout", "style"):
            sub = getattr(widget, part, None)
            if isinstance(sub, w.Widget):
                sub.close()
        widget.close()


def highlight(control: w.Button, legal: bool) -> None:
    """The one rule for every lesson widget: a button is highlighted exactly when pressing it
    is a legal move for this seat now (the engine's legal actions say so)."""
    control.button_style = "primary" if legal else ""


class LessonWidget(Screen):
    """A lesson screen seen from one seat. Subclasses build their controls and ``render()``.

    Everything the widget knows comes from ``self.session``, a ``SeatSession`` (its view, its
    legal actions, ``apply``, its events, its scores); it never reads the game itself (I1).
    ``seed`` is a public game number: the deal comes from it through the installation's key
    (:mod:`ttrlib.deals`), so the number on screen ("game 4821") deals the same game on this
    server and nowhere else. ``seed=None`` deals from 128 random bits ("random game 5c1e0a").
    **New game** (``new_game_button``) deals a random game with ``deal(secret seed)``.
    """

    def __init__(self, game: Game | None = None, seat: int = 0, *, bots: Sequence | None = None,
                 seed: int | None = None, deal: Callable[[int], Game] | None = None,
                 players: int = 4, session=None):
        super().__init__()
        problem = None
        try:
            if session is not None:  # a seat of a class table (ttrlib.remote_session)
                self.session = session
            elif game is None:  # players: game 7 for 6 players is another deal than for 4
                self.session = SeatSession.new(seed, seat, players=players, deal=deal, bots=bots)
            else:
                self.session = SeatSession(game, seat, bots=bots, seed=seed, deal=deal)
        except KeyFileError as exc:  # a numbered game needs the deal key; a random one does not
            problem = (f"Game {seed} cannot be dealt here, so a random game was dealt instead "
                       f"(tell your teacher: {exc}).")
            self.session = SeatSession.new(None, seat, players=players, deal=deal, bots=bots)
        self.header = w.HTML()
        if problem:
            self.say(problem, "warning")
        self.history = w.HTML()
        self.game_label = w.HTML()
        self.new_game_button = button(_("New game"), self.start_new_game, width="auto",
                                      tooltip=_("Deal a new random game"))

    @property
    def seat(self) -> int:
        return self.session.seat

    # --- the engine, through the session ------------------------------------------------------
    def view(self) -> PlayerView:
        return self.session.view()

    def legal(self) -> list:
        """This seat's legal actions (empty when another seat is to move)."""
        return self.session.legal_actions()

    def act(self, action) -> bool:
        """Apply ``action``; a rule error shows in the message line and changes nothing."""
        try:
            self.session.apply(action)
        except IllegalMove as exc:
            self.say(exc.reason, "error", rule=exc.rule)
            self.render()
            return False
        self.message.value = ""
        self.render()
        return True

    def not_now(self, what: str = "play") -> bool:
        """Say why this seat cannot act now (game over, or another seat's turn)."""
        if self.session.is_over:
            self.say(_("The game is over: nothing more can be played."), "info", rule="E1")
            return True
        if not self.session.my_turn:
            others = getattr(self, "others", None)
            how = (_("press '{button}'").format(button=others.description) if others
                   else _("let the other players play"))
            self.say(_(_NOT_YOUR_TURN.get(what, _NOT_YOUR_TURN["play"])).format(how=how), "info")
            return True
        return False

    def bot_plays_my_turn(self) -> None:
        """When this lesson's buttons offer nothing legal, a bot plays this seat's whole turn."""
        self.session.bot_plays_my_turn()

    def play_others(self, limit: int = 2000) -> int:
        """Let the bots play until it is this seat's turn again (or the game ends)."""
        return self.session.play_others(limit)

    def others_played_text(self, steps: int) -> str:
        """What the message line says once the bots have played ``steps`` steps."""
        if self.session.is_over:
            return _("The game is over.")
        return ngettext("The bots played {n} step; it is your turn again.",
                        "The bots played {n} steps; it is your turn again.", steps).format(n=steps)

    @safe
    def start_new_game(self) -> None:
        """Deal a new random game, close the old game's controls, start again."""
        self.deal(None)
        self.say(_("A new game is dealt: {name}.").format(name=self.session.game_name), "success")

    def deal(self, seed: int | None) -> None:
        """Deal game ``seed`` (a public number; ``None``: a random game) in place of this one and
        start again (lesson 06 deals a random game ahead of the class, and game ``seed`` if the
        learner's address asks for it). Without the deal key a numbered game cannot be dealt:
        the game stays as it is and the screen says why."""
        try:
            self.session.new_game(seed)
        except KeyFileError as exc:
            self.say(_("Game {number} cannot be dealt here, so this random game stays (tell "
                       "your teacher: {problem}).").format(number=seed, problem=exc), "warning")
            return
        self.reset()
        self.render()

    def reset(self) -> None:
        """Forget everything about the old game (subclasses close their replaced controls)."""

    def game_label_html(self) -> str:
        table = getattr(self.session, "label", None)  # a class table: "table 3f2a9c1b"
        name = table or self.session.game_name
        if name is None:
            text, title = _("a set position"), _("A position set up by the lesson")
        elif table:
            text, title = name, _("The class table you sit at")
        elif self.session.seed is not None:
            text, title = name, _("The number of this game: on this server the same number "
                                  "deals the same game")
        else:
            text, title = name, _("A random deal: no number deals it again")
        return (f"<span class='ttr-game-no' title='{html.escape(title)}'>{html.escape(text)}"
                "</span>")

    def top_bar(self) -> w.HBox:
        """The game number and the New game button (every game widget shows both)."""
        return w.HBox([self.game_label, self.new_game_button],
                      layout=w.Layout(align_items="center"))

    # --- showing -----------------------------------------------------------------------------
    def cards_html(self, view: PlayerView) -> str:
        """Your hand, the team cardholder, and the teammate's hand face down (K1, I1)."""
        return display.seat_cards_html(view)

    def events_html(self, events: Sequence[Event], last: int = 6, *,
                    face_down: Event | None = None) -> str:
        """The last events of the public log as this seat reads them (newest last); the tunnel
        attempt ``face_down`` is told without the cards still face down on the screen (U1)."""
        items = "".join(
            f"<li>{html.escape(narration.text(e, self.seat, reveal=e is not face_down))}</li>"
            for e in list(events)[-last:])
        title = html.escape(_("What happened"))  # gettext outside the f-string (pybabel)
        return f"<div class='ttr-log'><b>{title}</b><ol>{items}</ol></div>" if items else ""

    def render(self) -> None:
        """Subclasses draw their screen in ``paint()``; the game number is drawn here."""
        self.game_label.value = self.game_label_html()
        self.paint()

    def paint(self) -> None:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError


def _plain(markup: str) -> str:
    import re

    text = re.sub(r"<style.*?</style>", "", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", text)).strip()


def button(description: str, handler: Callable, *, tooltip: str = "", width: str = "auto") -> w.Button:
    b = w.Button(description=description, tooltip=tooltip or description,
                 layout=w.Layout(width=width))
    b.on_click(lambda _b: handler())
    return b


def board_map_html(view: PlayerView, tickets=None, *, ticket_label: str = "Your tickets") -> str:
    """The board as this seat sees it (claimed tracks, the given tickets ringed), as wide as the
    screen and never too small to read (``maps.map_html`` scrolls it on a narrow screen), with
    its text description for everyone (and screen readers)."""
    from ..maps import board_description, map_html

    tickets = list(view.tickets) + list(view.team_tickets) if tickets is None else list(tickets)
    args = dict(seat=view.seat, tickets=tickets, ticket_label=ticket_label)
    frame = map_html(view.board, view.claimed, title=f"The board now: "
                     f"{display.plural(len(view.claimed), 'track')} claimed", **args)
    words = html.escape(board_description(view.board, view.claimed, **args))
    return (f"<div class='ttr-map' style='width:100%'>{frame}</div>"
            f"<details><summary>The map in words</summary><p>{words}</p></details>")


def payment_text(hand, holder) -> str:
    """Cards laid or paid, in words: ``"2 red from your hand + 1 red from the team cardholder"``
    (K1: only these two places)."""
    parts = [f"{c.describe()} from {where}" for c, where in
             ((hand, "your hand"), (holder, "the team cardholder")) if c]
    return " + ".join(parts) or "nothing"

