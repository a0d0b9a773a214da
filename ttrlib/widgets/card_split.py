"""CardSplitStepper: draw two train cards and split them between your hand and the team
cardholder, one decision at a time (rules D1-D4, with C5 and C6 happening on the way)."""

from __future__ import annotations

import ipywidgets as w

from .. import actions as act
from .. import display, hints
from ..cards import Color, Place
from ..game import FACE_UP, Game, Phase
from ..i18n import N_, _
from ..words import colour_word, count
from .base import LessonWidget, button, highlight, ready_game, safe


class CardSplitStepper(LessonWidget):
    """Step through a Team Asia card draw from one seat.

    Buttons: ``take[0..4]`` (face-up slots), ``deck``, ``to_hand``, ``to_cardholder`` and
    ``others`` (let the bots play until your next turn). Every click goes to the engine; a click
    the rules forbid shows the rule and the reason in the message line.
    """

    def __init__(self, game: Game | None = None, seat: int = 0, *, seed: int | None = None,
                 bots=None, deal=None):
        deal = deal or (lambda s: ready_game(None, s))
        super().__init__(None if game is None else ready_game(game, seed), seat, bots=bots,
                         seed=seed, deal=deal)
        self.step = w.HTML()
        self.row = w.HTML()
        self.take = [button(_("Take slot {slot}").format(slot=i), lambda i=i: self.draw(i),
                            width="112px") for i in range(FACE_UP)]
        self.deck = button(_("Draw from deck"), lambda: self.draw("deck"), width="210px")
        self.drawn = w.HTML()
        self.to_hand = button(_("→ my hand"), lambda: self.place(Place.HAND), width="140px")
        self.to_cardholder = button(_("→ team cardholder"), lambda: self.place(Place.CARDHOLDER),
                                    width="160px")
        self.others = button(_("Let the other players play"), self.next_turn, width="220px")
        self.cards = w.HTML()
        self.children = [
            self.top_bar(), self.header, self.step, self.row, w.HBox(self.take + [self.deck]),
            w.HBox([self.drawn, w.VBox([self.to_hand, self.to_cardholder],
                                       layout=w.Layout(justify_content="center"))]),
            self.message, self.cards, self.others, self.history,
        ]
        self.render()

    # --- clicks ------------------------------------------------------------------------------
    @safe
    def draw(self, source) -> None:
        if self.not_now("draw"):
            return
        view = self.view()
        slot = None if source == "deck" else source
        before = view.face_up[slot] if slot is not None else None
        if self.act(act.DrawCard(source)):
            after = self.view()
            if before is Color.LOCOMOTIVE and after.phase is not Phase.SECOND_CARD \
                    and after.phase is not Phase.PLACE_CARD:
                self.say(_("You took a face-up locomotive as your first card: it went to the "
                           "team cardholder and your draw is over (D2)."), "success", rule="D2")
            elif after.drawn_card is not None:
                self.say(_("You drew this card: {card}. Where does it go?").format(
                    card=colour_word(after.drawn_card)), "info", rule="D1")
            else:
                self.say(_("Your second card went to the other place. Your turn is over."),
                         "success", rule="D1")

    @safe
    def place(self, to: Place) -> None:
        if self.not_now("place a card"):
            return
        if self.act(act.PlaceCard(to)):
            if self.view().phase is Phase.SECOND_CARD:
                self.say(_("Placed. Your second card will go to the team cardholder.")
                         if to == Place.HAND else
                         _("Placed. Your second card will go to your hand."), "success", rule="D1")
            else:
                self.say(_("Placed. No second card can be drawn, so your draw ends here."),
                         "success", rule="D4")

    @safe
    def next_turn(self) -> None:
        if self.session.is_over:
            self.say(_("The game is over: nothing more can be played."), "info", rule="E1")
            return
        legal = self.legal()
        if self.session.my_turn:
            if any(isinstance(a, (act.DrawCard, act.PlaceCard)) for a in legal):
                self.say(_("It is your turn: the others are waiting for you."), "info")
                return
            # D4: no card can be drawn, so this lesson cannot play the turn: a bot does.
            self.bot_plays_my_turn()
            self.say(_("No card can be drawn (D4), so a bot played your turn for you."), "info",
                     rule="D4")
        n = self.play_others()
        if n or not self.session.is_over:
            self.say(self.others_played_text(n), "info")
        self.render()

    # --- showing -----------------------------------------------------------------------------
    def paint(self) -> None:
        view = self.view()
        self.header.value = display.seat_line_html(view, self.session.is_over)
        self.step.value = display.message_html(
            _(hints.CARD_SPLIT.get(view.phase, N_("Wait for your turn."))), "info"
        ) if view.my_turn else display.message_html(
            _("Not your turn: let the other players play."), "info")
        legal_now = self.legal()
        legal = {a.source for a in legal_now if isinstance(a, act.DrawCard)}
        places = {a.to for a in legal_now if isinstance(a, act.PlaceCard)}
        labels = [_("slot {slot}").format(slot=i) for i in range(FACE_UP)]
        self.row.value = display.card_row_html(list(view.face_up), title=_("Face-up cards"),
                                               labels=labels)
        for i, b in enumerate(self.take):
            highlight(b, i in legal)
        highlight(self.deck, "deck" in legal)
        self.deck.description = _("Draw from deck ({cards})").format(
            cards=count(view.draw_pile_size, "card"))
        placing = bool(places)
        highlight(self.to_hand, Place.HAND in places)
        highlight(self.to_cardholder, Place.CARDHOLDER in places)
        highlight(self.others, not view.my_turn and not self.session.is_over)
        self.drawn.value = display.card_row_html(
            [view.drawn_card], title=_("Card you drew"), labels=[_("where to?")]) if placing else ""
        self.cards.value = self.cards_html(view)
        self.history.value = self.events_html(view.events)
