"""TunnelClaimStepper: claim a route from your hand plus the team cardholder, and for a tunnel
watch the revealed cards one by one, see the extra cost and the odds you had, then pay or take
your cards back (rules K1, K2, U1-U7).

The engine turns a tunnel's cards up the moment the cards are laid down (U1), and settles a
tunnel with no match at once. This widget lets the learner turn them one by one, so until the
last card is turned it shows the table as it was when the cards were laid down: nothing on the
screen (header, route list, log, buttons) depends on a card not yet turned. Pay and take back
both wait for the whole reveal: the choice of U3 is made after seeing it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import ipywidgets as w
from traitlets import Any, Instance, Int, Unicode, observe, validate

from .. import actions as act
from .. import display, odds
from ..cards import CardCounts, Color
from ..errors import IllegalMove
from ..events import TunnelTried
from ..game import Game, Phase, PlayerView
from ..lessons import chance_words
from ..lessons.tunnels import practice_position
from ..rules.payments import matches
from .base import LessonWidget, button, highlight, payment_text, ready_game, safe


@dataclass(frozen=True)
class LaidTunnel:
    """The tunnel being claimed: this seat's view when the cards were laid down, the claim, and
    the engine's event with the revealed cards (kept in the kernel; a card reaches the page
    only once the learner has turned it, U1)."""

    before: PlayerView
    claim: act.Claim
    event: TunnelTried

    @property
    def revealed(self) -> tuple[Color, ...]:
        return self.event.revealed

    @property
    def color(self) -> Color:
        return self.event.color

    @property
    def extra(self) -> int:
        return self.event.extra


class TunnelClaimStepper(LessonWidget):
    """Claim a route step by step from one seat.

    Controls: ``route`` (dropdown), ``payment`` (the legal ways to lay down the cards, ranked by
    the exact chance that you can pay the tunnel's extra cost afterwards), ``lay_down``,
    ``teammate_cards`` (try to use your teammate's cards: the engine refuses, K1), ``turn_next``
    (turn the next revealed card), ``pay_choice`` + ``pay``, ``withdraw``, ``others`` and
    ``new_game_button`` ("New practice" for the practice position). The tunnel controls show
    only while a tunnel is chosen or being claimed.

    ``game=None`` deals lesson 04's practice position
    (:func:`ttrlib.lessons.tunnels.practice_position`); ``deal``
    (``seed -> Game``) says what New game deals.
    """

    def __init__(self, game: Game | None = None, seat: int = 0, *, seed: int | None = None,
                 bots=None, deal=None):
        practice = game is None and deal is None
        if deal is None:
            deal = practice_position if game is None else (lambda s: ready_game(None, s))
        # The screen's state, as plain (unsynced) traits: the chosen route and payment mirror
        # the two dropdowns, ``attempt`` is the tunnel being claimed (``LaidTunnel``) and
        # ``shown`` how many of its revealed cards the learner has turned.
        super().__init__(None if game is None else ready_game(game, seed), seat, bots=bots,
                         seed=seed, deal=deal)
        if practice:
            self.new_game_button.description = "New practice"
            self.new_game_button.tooltip = "Deal the practice position again, with a new deck"
        # Wide enough for the longest label (a payment and its chance in words) in one line.
        self.route = w.Dropdown(description="Route", layout=w.Layout(width="720px",
                                max_width="100%"), style={"description_width": "76px"})
        self.payment = w.Dropdown(description="Lay down", layout=w.Layout(width="960px",
                                  max_width="100%"), style={"description_width": "76px"})
        self.lay_down = button("Lay down the cards", self.claim, width="180px")
        self.teammate_cards = button("Use my teammate's cards", self.use_teammate, width="210px")
        self.turn_next = button("Turn the next card", self.reveal_next, width="180px")
        self.pay_choice = w.Dropdown(description="Pay with", layout=w.Layout(width="520px"),
                                     style={"description_width": "76px"})
        self.pay = button("Pay the extra cards", self.pay_extra, width="180px")
        self.withdraw = button("Take my cards back", self.take_back, width="180px")
        self.others = button("Let the other players play", self.next_turn, width="220px")
        self.odds_panel = w.HTML()
        self.reveal_panel = w.HTML()
        self.cards = w.HTML()
        self.pay_row = w.HBox([self.pay_choice, self.pay, self.withdraw])
        self.turn_row = w.HBox([self.turn_next])
        self.tunnel_box = w.VBox([self.reveal_panel, self.turn_row, self.pay_row])
        # A learner's choice in a dropdown becomes the screen's trait; the trait's observer
        # re-reads the engine (see ``chosen_route`` and ``chosen_claim``).
        self.route.observe(lambda c: setattr(self, "chosen_route", c.new), names="value")
        self.payment.observe(lambda c: setattr(self, "chosen_claim", c.new), names="value")
        self.children = [
            self.top_bar(), self.header, self.route, self.payment, self.odds_panel,
            w.HBox([self.lay_down, self.teammate_cards]), self.message, self.tunnel_box,
            self.cards, self.others, self.history,
        ]
        self.render()

    # --- the screen's state (kernel-side traits: none is synced to the page) ----------------
    chosen_route = Unicode(None, allow_none=True)
    chosen_claim = Any(None, allow_none=True)  # an ``act.Claim`` among the payment options
    attempt = Instance(LaidTunnel, allow_none=True)
    shown = Int(0)

    @validate("shown")
    def _shown_in_range(self, proposal) -> int:
        """Between no card and every revealed card of the attempt (U1)."""
        size = len(self.attempt.revealed) if self.attempt else 0
        return min(max(proposal["value"], 0), size)

    @property
    def turning(self) -> bool:
        """Cards laid on a tunnel and some revealed cards not yet turned by the learner."""
        return self.attempt is not None and self.shown < len(self.attempt.revealed)

    def _screen_view(self) -> PlayerView:
        """What the screen shows: while cards are still face down, the table as it was when the
        cards were laid (minus the laid cards), whatever the engine already settled."""
        if not self.turning:
            return self.view()
        assert self.attempt is not None
        before, claim = self.attempt.before, self.attempt.claim
        return dataclasses.replace(before, hand=before.hand - claim.hand,
                                   team_cardholder=before.team_cardholder - claim.cardholder)

    def reset(self) -> None:
        self.attempt = None
        self.shown = 0
        self._forget_route()

    def _forget_route(self) -> None:
        """A new turn (or game) starts on the first route this seat can pay for, not on the
        one left chosen while another seat was to move (every route was unpayable then)."""
        self.route.value = None

    # --- choices ----------------------------------------------------------------------------
    def _routes(self, view: PlayerView):
        open_routes = self.session.claimable_routes() if view.my_turn else set()
        rows = []
        for r in view.board.routes:
            if r.id in view.claimed:
                continue
            payable = r.id in open_routes
            tag = "" if payable else "  (you cannot pay for it now)"
            rows.append(((not payable, r.tunnel == 0, r.id), r.id, f"{r.describe()}{tag}"))
        rows.sort()
        return [(label, rid) for _, rid, label in rows]

    # Observers act on a real change only: a render holds the notifications while it rebuilds
    # the dropdowns, and the held change arrives once, its old value the one before the render.
    @observe("chosen_route")
    @safe
    def _route_changed(self, change) -> None:
        if change.new != change.old:
            self.refresh_payments()
            self._show_tunnel_controls()

    @observe("chosen_claim")
    @safe
    def _payment_changed(self, change) -> None:
        if change.new != change.old:
            self.show_odds()
            highlight(self.lay_down, self.payment.value is not None and not self.attempt)

    def refresh_payments(self) -> None:
        if self.attempt:  # the laid cards stay shown until the turn is over
            return
        view = self.view()
        rid = self.route.value
        options = []
        if rid and view.my_turn and view.phase is Phase.TURN:
            for o in odds.best_payment(view, rid):
                label = payment_text(o.claim.hand, o.claim.cardholder)
                if view.board.route(rid).is_tunnel:
                    label += f"  ·  P(you can pay the extra) = {chance_words(o.p_can_pay)}"
                options.append((label, o.claim))
        chosen = self.chosen_claim
        values = [claim for _, claim in options]
        with self.hold_trait_notifications():
            self.payment.options = options
            # Keep the learner's choice across a refused click; else offer the best way first.
            self.payment.value = chosen if chosen in values else (values[0] if values else None)
        self.show_odds()
        highlight(self.lay_down, self.payment.value is not None)

    def show_odds(self) -> None:
        if self.attempt:  # the odds the learner had when laying down
            view, claim = self.attempt.before, self.attempt.claim
        else:
            view, claim = self.view(), self.payment.value
        if claim is None or view.phase is not Phase.TURN:
            self.odds_panel.value = self._why_not_html(view)
            return
        route = view.board.route(claim.route)
        if not route.is_tunnel:
            self.odds_panel.value = display.message_html(
                f"{route.a} - {route.b} is not a tunnel: laying down {route.length} cards claims "
                "it at once (K2).", "info", rule="K2")
            return
        o = odds.tunnel_odds(view, route.id, claim)
        colour = "locomotives only (U5)" if o.color is Color.LOCOMOTIVE else \
            f"{o.color.value} or locomotives (U2)"
        when = "When you laid down" if self.attempt else "Before you lay down"
        text = (f"{when}: the tunnel turns up {route.tunnel} cards from a draw pile of "
                f"{view.draw_pile_size}; {len(view.unseen)} cards are unseen from your seat and "
                f"{odds.matching_count(view.unseen, o.color)} of them would match {colour}. "
                f"After laying down you could still pay up to "
                f"{display.plural(o.spare, 'extra card')}, so the chance that you can pay "
                f"whatever is revealed is {chance_words(o.p_can_pay)}.")
        self.odds_panel.value = display.layout_html(
            display.message_html(text, "info", rule="U2"),
            display.distribution_html(o.law, title=f"Extra cards for {route.a} - {route.b}"),
        )

    def _why_not_html(self, view: PlayerView) -> str:
        """Why the chosen route cannot be laid down now (K1-K3), from this seat's view."""
        rid = self.route.value
        if rid is None or not view.my_turn or view.phase is not Phase.TURN:
            return ""
        problem = self.session.claim_problem(rid)
        if problem is None:
            return ""
        rule, reason = problem
        return display.message_html(f"You cannot claim this route now: {reason}.", "info",
                                    rule=rule)

    def _show_tunnel_controls(self) -> None:
        """Tunnel controls only for a tunnel this seat may claim now or is claiming: a plain
        route is claimed in one step (K2)."""
        rid, view = self.route.value, self.view()
        tunnel = bool(self.attempt) or view.phase is Phase.TUNNEL or (
            view.my_turn and rid is not None and view.board.route(rid).is_tunnel)
        self.tunnel_box.layout.display = "flex" if tunnel else "none"

    # --- clicks ------------------------------------------------------------------------------
    def _wait_for_the_reveal(self) -> bool:
        if self.turning:
            assert self.attempt is not None
            left = len(self.attempt.revealed) - self.shown
            self.say(f"Turn the revealed cards first ({left} still face down): you decide to pay "
                     "or to take your cards back once you have seen them all (U1, U3).", "info",
                     rule="U3")
            return True
        return False

    @safe
    def claim(self) -> None:
        if self._wait_for_the_reveal() or self.not_now("claim a route"):
            return
        claim = self.payment.value
        if claim is None:
            rid = self.route.value
            problem = self.session.claim_problem(rid) if rid else None
            if problem is None:
                self.say("Choose a route first, then how to lay down the cards.", "info")
            else:
                self.say(f"You cannot claim this route now: {problem[1]}. Choose a route you "
                         "can pay for.", "error", rule=problem[0])
            return
        before = self.view()
        try:
            events = self.session.apply(claim)
        except IllegalMove as exc:
            self.say(exc.reason, "error", rule=exc.rule)
            self.render()
            return
        tunnel = [e for e in events if isinstance(e, TunnelTried)]
        self.shown = 0
        if not tunnel:
            self.attempt = None
            self.say("Route claimed: the cards you laid down went to the discard pile (K4).",
                     "success", rule="K4")
        else:
            self.attempt = LaidTunnel(before, claim, tunnel[-1])
            if not self.attempt.revealed:
                self.say("There was nothing left to reveal, so the tunnel is yours with no extra "
                         "cost (U6).", "success", rule="U6")
            else:
                self.say("Cards laid down. Now turn the revealed cards one by one "
                         f"({len(self.attempt.revealed)} cards).", "info", rule="U1")
        self.render()

    @safe
    def use_teammate(self) -> None:
        if self._wait_for_the_reveal():
            return
        rid = self.route.value
        if rid is None:
            self.say("Choose a route first.", "info")
            return
        # The engine hears the attempt and names the rule; nothing changes.
        self.act(act.Claim(rid, teammate=CardCounts(locomotive=1)))

    @safe
    def reveal_next(self) -> None:
        if not self.turning or self.attempt is None:
            self.say("There is no tunnel card left to turn.", "info")
            return
        self.shown += 1
        revealed, color = self.attempt.revealed, self.attempt.color
        card = revealed[self.shown - 1]
        hit = matches(card, color)
        rule = "U5" if color is Color.LOCOMOTIVE else "U2"
        text = (f"Card {self.shown} of {len(revealed)}: {card.value}. "
                + ("It matches: one more card is owed." if hit else "No match."))
        kind = "warning" if hit else "info"
        if self.shown == len(revealed):
            extra = self.attempt.extra
            if extra == 0:
                text += " No revealed card matches: the tunnel is claimed with no extra cost."
                kind = "success"
            else:
                agree = "card matches" if extra == 1 else "cards match"
                text += (f" {extra} revealed {agree}: pay "
                         f"{display.plural(extra, 'more card')} of the colour "
                         "you used (or locomotives), or take your cards back (U3).")
                kind = "warning"
        self.say(text, kind, rule=rule)
        self.render()

    @safe
    def pay_extra(self) -> None:
        if self._wait_for_the_reveal():
            return
        choice = self.pay_choice.value
        if choice is None:
            self.act(act.PayTunnel())  # let the engine say why there is nothing to pay
            return
        if self.act(choice):
            self.attempt = None
            self.render()
            self.say("Paid: the laid cards, the extra cards and the revealed cards all go to the "
                     "discard pile, and the tunnel is yours (U2, U4).", "success", rule="U4")

    @safe
    def take_back(self) -> None:
        if self._wait_for_the_reveal():
            return
        if self.act(act.Withdraw()):
            self.attempt = None
            self.render()
            self.say("You took your laid cards back; the revealed cards were discarded and your "
                     "turn is over (U3, U4).", "info", rule="U3")

    @safe
    def next_turn(self) -> None:
        if self._wait_for_the_reveal():
            return
        note = ""
        if self.session.my_turn:
            if any(isinstance(a, (act.Claim, act.PayTunnel)) for a in self.legal()):
                self.say("It is your turn: claim a route first.", "info")
                return
            # No route can be paid: this lesson has nothing to offer, so a bot plays the turn.
            self.bot_plays_my_turn()
            note = "You could not pay for any route, so a bot played your turn. "
        self.attempt = None
        n = self.play_others()
        self._forget_route()
        self.say(note + self.others_played_text(n), "info")
        self.render()

    # --- showing -----------------------------------------------------------------------------
    def paint(self) -> None:
        view = self._screen_view()
        self.header.value = display.seat_line_html(view, self.session.is_over)
        with self.hold_trait_notifications():
            if self.attempt:  # the route and the cards of this attempt, until the turn is over
                claim = self.attempt.claim
                route = view.board.route(claim.route)
                self.route.options = [(f"{route.describe()}  (cards laid down)", route.id)]
                self.route.value = route.id
                self.payment.options = [(payment_text(claim.hand, claim.cardholder), claim)]
                self.payment.value = claim
            else:
                current = self.chosen_route
                options = self._routes(view)
                ids = [rid for _, rid in options]
                self.route.options = options
                self.route.value = current if current in ids else (ids[0] if ids else None)
            self._paint_rest(view)

    def _paint_rest(self, view: PlayerView) -> None:
        turning = self.turning
        for control in (self.route, self.payment):
            control.disabled = bool(self.attempt)
        self.refresh_payments()
        self.show_odds()
        self._paint_reveal()
        self._paint_pay_choices(view)
        self._show_tunnel_controls()
        highlight(self.lay_down, not self.attempt and self.payment.value is not None
                  and view.my_turn and view.phase is Phase.TURN)
        highlight(self.others, not turning and not view.my_turn and not self.session.is_over)
        self.cards.value = self.cards_html(view)
        events, face_down = list(view.events), None
        if turning:  # the log as the cards were laid, then the attempt told face down (U1)
            assert self.attempt is not None
            face_down = self.attempt.event
            events.append(face_down)
        self.history.value = self.events_html(events, face_down=face_down)

    def _paint_reveal(self) -> None:
        highlight(self.turn_next, self.turning)
        # Turning is the only step while cards are face down; once all are up it is gone (U3).
        self.turn_row.layout.display = "flex" if self.turning else "none"
        if not self.attempt:
            self.reveal_panel.value = ""
            return
        n = len(self.attempt.revealed)
        # Cards not yet turned are drawn as backs and carry no colour in the page at all.
        turned = self.attempt.revealed[: self.shown]
        color = self.attempt.color
        hi = {i for i, c in enumerate(turned) if matches(c, color)}
        row = list(turned) + [Color.LOCOMOTIVE] * (n - self.shown)
        labels = ["match" if i in hi else ("" if i < self.shown else "face down")
                  for i in range(n)]
        self.reveal_panel.value = display.card_row_html(
            row, title=f"Tunnel reveal ({self.shown} of {n} turned)", labels=labels,
            highlight=hi, face_down=range(self.shown, n), empty_text="nothing to reveal")

    def _paint_pay_choices(self, view: PlayerView) -> None:
        pays = []
        legal = [] if self.turning else self.legal()
        if view.phase is Phase.TUNNEL:
            # The cheapest way first: locomotives kept, then the team's cards (odds.spend_key).
            ways = odds.cheapest_first(a for a in legal if isinstance(a, act.PayTunnel))
            pays = [(payment_text(a.hand, a.cardholder), a) for a in ways]
        chosen = self.pay_choice.value
        values = [a for _, a in pays]
        self.pay_choice.options = pays
        self.pay_choice.value = chosen if chosen in values else (values[0] if values else None)
        highlight(self.pay, bool(pays))
        # Pay or take back is decided once every card is turned (U3): the row waits until
        # then, and goes once the engine has settled the tunnel with nothing owed.
        settled = bool(self.attempt) and view.phase is not Phase.TUNNEL
        self.pay_row.layout.display = "none" if self.turning or settled else "flex"
        highlight(self.withdraw, any(isinstance(a, act.Withdraw) for a in legal))
