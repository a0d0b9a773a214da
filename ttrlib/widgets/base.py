"""What every lesson widget shares: whose screen it is, a message line, safe clicks, bots."""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Sequence

import ipywidgets as w

from .. import display
from ..bots import GreedyBot
from ..errors import IllegalMove
from ..game import Game, Phase, PlayerView, seat_name, team_name


def safe(handler: Callable) -> Callable:
    """Wrap a click handler: a rule error shows in the message line; anything else shows a short
    apology instead of a traceback (a learner never sees one)."""

    @functools.wraps(handler)
    def wrapped(self: "LessonWidget", *args, **kwargs):
        try:
            return handler(self, *args, **kwargs)
        except IllegalMove as exc:
            self.say(exc.reason, "error", rule=exc.rule)
        except Exception as exc:  # noqa: BLE001 - the widget must stay usable
            self.say(f"Something went wrong ({type(exc).__name__}: {exc}). "
                     "The game is unchanged; try another step.", "warning")

    return wrapped


def ready_game(game: Game | None, seed: int, players: int = 4) -> Game:
    """A game past the ticket setup (T1), the bots choosing every seat's tickets."""
    if game is None:
        game = Game.new(players=players, seed=seed)
    bots = [GreedyBot(seed=seed + s) for s in range(game.players)]
    while game.phase is Phase.SETUP_TICKETS:
        s = game.to_move
        game.apply(bots[s].choose(game.view(s), game.legal_actions()))
    return game


class LessonWidget(w.VBox):
    """A lesson screen seen from one seat. Subclasses build ``self.body`` and ``render()``."""

    def __init__(self, game: Game, seat: int = 0, *, bots: Sequence | None = None, seed: int = 0):
        super().__init__(layout=w.Layout(width="100%", max_width="980px"))
        self.game = game
        self.seat = seat
        self.bots = list(bots) if bots is not None else [GreedyBot(seed=seed + s)
                                                          for s in range(game.players)]
        self.header = w.HTML()
        self.message = w.HTML()
        self.history = w.HTML()
        self.add_class("ttr-widget")

    # --- the engine --------------------------------------------------------------------------
    def view(self) -> PlayerView:
        return self.game.view(self.seat)

    def act(self, action) -> bool:
        """Apply ``action``; a rule error shows in the message line and changes nothing."""
        try:
            self.game.apply(action)
        except IllegalMove as exc:
            self.say(exc.reason, "error", rule=exc.rule)
            self.render()
            return False
        self.message.value = ""
        self.render()
        return True

    def not_now(self, what: str = "play") -> bool:
        """Say why this seat cannot act now (game over, or another seat's turn)."""
        if self.game.is_over:
            self.say("The game is over: nothing more can be played.", "info", rule="E1")
            return True
        if not self.view().my_turn:
            others = getattr(self, "others", None)
            how = f"press '{others.description}'" if others else "let the other players play"
            self.say(f"It is not your turn to {what} yet: {how}.", "info")
            return True
        return False

    def bot_plays_my_turn(self) -> None:
        """When this lesson's buttons offer nothing legal, a bot plays this seat's whole turn."""
        turns = self.game.turns
        while not self.game.is_over and self.game.turns == turns:
            self.game.apply(self.bots[self.seat].choose(self.view(), self.game.legal_actions()))

    def play_others(self, limit: int = 2000) -> int:
        """Let the bots play until it is this seat's turn again (or the game ends)."""
        done = 0
        while not self.game.is_over and self.game.to_move != self.seat and done < limit:
            s = self.game.to_move
            self.game.apply(self.bots[s].choose(self.game.view(s), self.game.legal_actions()))
            done += 1
        return done

    # --- showing -----------------------------------------------------------------------------
    def say(self, text: str, kind: str = "info", *, rule: str | None = None) -> None:
        self.message.value = display.message_html(text, kind, rule=rule)

    @property
    def message_text(self) -> str:
        """The message line as plain text (what a learner reads)."""
        return _plain(self.message.value)

    def seat_header(self, view: PlayerView) -> str:
        mate = seat_name(view.teammate)
        if view.phase is Phase.OVER:
            turn = "the game is over"
        else:
            turn = "your turn" if view.my_turn else f"{seat_name(view.to_move)} to move"
        return (
            f"<div class='ttr-seat'><b>Screen of {seat_name(self.seat)}</b> "
            f"({team_name(view.team)}) &middot; {turn}. You see your own hand and tickets, "
            f"the {team_name(view.team)} cardholders and the table; "
            f"your teammate {mate}'s hand ({view.hand_sizes[view.teammate]} cards) and private "
            f"tickets ({view.ticket_counts[view.teammate]}) stay hidden (rule I1).</div>"
        )

    def cards_html(self, view: PlayerView) -> str:
        """Your hand, the team cardholder, and the teammate's hand face down (K1, I1)."""
        return display.layout_html(
            display.hand_html(view.hand),
            display.cardholder_html(view.team_cardholder, team_name(view.team).split()[-1]),
            display.offlimits_html(view.hand_sizes[view.teammate],
                                   f"Teammate {seat_name(view.teammate)}'s hand"),
            direction="row",
        )

    def events_html(self, view: PlayerView, last: int = 6, *, hide_last_tunnel: bool = False) -> str:
        events = list(view.events)
        if hide_last_tunnel:
            at = max(i for i, e in enumerate(events) if e["kind"] == "tunnel")
            events[at] = {**events[at], "text": "the tunnel's cards are turned up one by one..."}
            events = events[: at + 1]
        items = "".join(f"<li>{html.escape(e['text'])}</li>" for e in events[-last:])
        return f"<div class='ttr-log'><b>What happened</b><ol>{items}</ol></div>" if items else ""

    def render(self) -> None:  # pragma: no cover - every subclass overrides it
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
