"""TunnelClaimStepper: claim a route from your hand plus the team cardholder, and for a tunnel
watch the revealed cards one by one, see the extra cost and the odds you had, then pay or take
your cards back (rules K1, K2, U1-U7)."""

from __future__ import annotations

import ipywidgets as w

from .. import actions as act
from .. import display, odds
from ..cards import CardCounts, Color
from ..game import Game, Phase
from ..rules.payments import matches
from .base import LessonWidget, button, ready_game, safe


def practice_position(seed: int = 0) -> Game:
    """A position made for the lesson: A1 holds red cards and locomotives, the team cardholder
    some more, and the Himalaya tunnels are all open."""
    return Game.from_position(
        seed=seed,
        hands=[CardCounts(red=3, blue=1, locomotive=1), CardCounts(green=2, white=2),
               CardCounts(black=2, yellow=2), CardCounts(orange=3, purple=1)],
        cardholders=[CardCounts(red=1, blue=2, locomotive=1), CardCounts(white=2)],
        face_up=["green", "purple", "white", "orange", "black"],
    )


def _describe_payment(hand: CardCounts, holder: CardCounts) -> str:
    parts = []
    if hand:
        parts.append(f"{hand.describe()} from your hand")
    if holder:
        parts.append(f"{holder.describe()} from the cardholder")
    return " + ".join(parts) or "nothing"


class TunnelClaimStepper(LessonWidget):
    """Claim a route step by step from one seat.

    Controls: ``route`` (dropdown), ``payment`` (the legal ways to lay down the cards, ranked by
    the exact chance that you can pay the tunnel's extra cost afterwards), ``lay_down``,
    ``teammate_cards`` (try to use your teammate's cards: the engine refuses, K1), ``turn_next``
    (turn the next revealed card), ``pay_choice`` + ``pay``, ``withdraw`` and ``others``.
    """

    def __init__(self, game: Game | None = None, seat: int = 0, *, seed: int = 0, bots=None):
        game = practice_position(seed) if game is None else ready_game(game, seed)
        super().__init__(game, seat, bots=bots, seed=seed)
        self.route = w.Dropdown(description="Route", layout=w.Layout(width="520px"),
                                style={"description_width": "76px"})
        self.payment = w.Dropdown(description="Lay down", layout=w.Layout(width="720px"),
                                  style={"description_width": "76px"})
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
        self.shown = 0  # how many revealed cards the learner has turned so far
        self.attempt: dict | None = None  # the last tunnel attempt, from the public events
        # A change of choice re-reads the engine; `safe` keeps any error in the message line.
        self.route.observe(lambda _c: safe(TunnelClaimStepper.refresh_payments)(self),
                           names="value")
        self.payment.observe(lambda _c: safe(TunnelClaimStepper.show_odds)(self), names="value")
        self.children = [
            self.header, self.route, self.payment, self.odds_panel,
            w.HBox([self.lay_down, self.teammate_cards]), self.message, self.reveal_panel,
            w.HBox([self.turn_next]), w.HBox([self.pay_choice, self.pay, self.withdraw]),
            self.cards, self.others, self.history,
        ]
        self.render()

    # --- choices ----------------------------------------------------------------------------
    def _routes(self):
        view = self.view()
        open_routes = {r.id for r in self.game.claimable_routes(self.seat)} if view.my_turn else set()
        rows = []
        for r in view.board.routes:
            if r.id in view.claimed:
                continue
            payable = r.id in open_routes
            tag = "" if payable else "  (you cannot pay for it now)"
            rows.append(((not payable, r.tunnel == 0, r.id), r.id, f"{r.describe()}{tag}"))
        rows.sort()
        return [(label, rid) for _, rid, label in rows]

    def refresh_payments(self) -> None:
        view = self.view()
        rid = self.route.value
        options = []
        if rid and view.my_turn and view.phase is Phase.TURN:
            for o in odds.best_payment(view, rid):
                label = _describe_payment(o.claim.hand, o.claim.cardholder)
                if view.board.route(rid).is_tunnel:
                    label += f"  ·  P(you can pay the extra) = {float(o.p_can_pay):.1%}"
                options.append((label, o.claim))
        chosen = self.payment.value
        self.payment.options = options
        values = [claim for _, claim in options]
        # Keep the learner's choice across a refused click; else offer the best way first.
        self.payment.value = chosen if chosen in values else (values[0] if values else None)
        self.show_odds()

    def show_odds(self) -> None:
        view = self.view()
        claim = self.payment.value
        if claim is None or view.phase is not Phase.TURN:
            self.odds_panel.value = ""
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
        text = (f"Before you lay down: the tunnel turns up {route.tunnel} cards from a draw pile of "
                f"{view.draw_pile_size}; {len(view.unseen)} cards are unseen from your seat and "
                f"{odds.matching_count(view.unseen, o.color)} of them would match {colour}. "
                f"After laying down you could still pay up to {o.spare} extra card(s), so you can "
                f"pay whatever is revealed with probability {o.p_can_pay} "
                f"≈ {float(o.p_can_pay):.2%}.")
        self.odds_panel.value = display.layout_html(
            display.message_html(text, "info", rule="U2"),
            display.distribution_html(o.law, title=f"Extra cards for {route.a} - {route.b}"),
        )

    # --- clicks ------------------------------------------------------------------------------
    @safe
    def claim(self) -> None:
        claim = self.payment.value
        if claim is None:
            self.say("Choose a route you can pay for, then how to lay down the cards.", "info")
            return
        n_events = len(self.game.events)
        if self.act(claim):
            self._after_claim(n_events)

    @safe
    def use_teammate(self) -> None:
        rid = self.route.value
        if rid is None:
            self.say("Choose a route first.", "info")
            return
        # The engine hears the attempt and names the rule; nothing changes.
        self.act(act.Claim(rid, teammate=CardCounts(locomotive=1)))

    def _after_claim(self, n_events: int) -> None:
        tunnel_events = [e for e in self.game.events[n_events:] if e["kind"] == "tunnel"]
        if not tunnel_events:
            self.say("Route claimed: the cards you laid down went to the discard pile (K4).",
                     "success", rule="K4")
            self.attempt = None
            return
        e = tunnel_events[-1]
        self.attempt = {"revealed": [Color(c) for c in e["revealed"]], "extra": e["extra"],
                        "color": Color(e["color"])}
        self.shown = 0
        if not self.attempt["revealed"]:
            self.say("There was nothing left to reveal, so the tunnel is yours with no extra "
                     "cost (U6).", "success", rule="U6")
        else:
            self.say("Cards laid down. Now turn the revealed cards one by one.", "info", rule="U1")
        self.render()

    @safe
    def reveal_next(self) -> None:
        if not self.attempt or self.shown >= len(self.attempt["revealed"]):
            self.say("There is no tunnel card left to turn.", "info")
            return
        self.shown += 1
        card = self.attempt["revealed"][self.shown - 1]
        hit = matches(card, self.attempt["color"])
        self.say(f"Card {self.shown} of {len(self.attempt['revealed'])}: {card.value}. "
                 + ("It matches: one more card is owed." if hit else "No match."),
                 "warning" if hit else "info", rule="U5" if self.attempt["color"] is
                 Color.LOCOMOTIVE else "U2")
        if self.shown == len(self.attempt["revealed"]):
            extra = self.attempt["extra"]
            last = f"Card {self.shown} of {self.shown}: {card.value}. "
            if extra == 0:
                self.say(last + "No revealed card matches: the tunnel is claimed with no extra "
                         "cost.", "success", rule="U2")
            else:
                self.say(last + f"{extra} revealed card(s) match: pay {extra} more card(s) of the "
                         "colour you used (or locomotives), or take your cards back.", "warning",
                         rule="U2")
        self.render()

    @safe
    def pay_extra(self) -> None:
        if self.attempt and self.shown < len(self.attempt["revealed"]):
            self.say("Turn all the revealed cards first.", "info", rule="U1")
            return
        choice = self.pay_choice.value
        if choice is None:
            self.act(act.PayTunnel())  # let the engine say why there is nothing to pay
            return
        if self.act(choice):
            self.say("Paid: the laid cards, the extra cards and the revealed cards all go to the "
                     "discard pile, and the tunnel is yours (U2, U4).", "success", rule="U4")

    @safe
    def take_back(self) -> None:
        if self.act(act.Withdraw()):
            self.say("You took your laid cards back; the revealed cards were discarded and your "
                     "turn is over (U3, U4).", "info", rule="U3")

    @safe
    def next_turn(self) -> None:
        if self.view().my_turn and not self.game.is_over:
            self.say("It is your turn: claim a route first.", "info")
            return
        self.attempt = None
        n = self.play_others()
        self.say(f"The bots played {n} step(s); it is your turn again.", "info")
        self.render()

    # --- showing -----------------------------------------------------------------------------
    def render(self) -> None:
        view = self.view()
        self.header.value = self.seat_header(view)
        current = self.route.value
        options = self._routes()
        self.route.options = options
        ids = [rid for _, rid in options]
        self.route.value = current if current in ids else (ids[0] if ids else None)
        self.refresh_payments()
        if self.attempt:
            revealed = self.attempt["revealed"]
            color = self.attempt["color"]
            hi = {i for i, c in enumerate(revealed[: self.shown]) if matches(c, color)}
            labels = ["match" if i in hi else ("" if i < self.shown else "face down")
                      for i in range(len(revealed))]
            # Cards not yet turned are drawn as backs, and carry no colour in the page at all.
            row = [c if i < self.shown else Color.LOCOMOTIVE for i, c in enumerate(revealed)]
            self.reveal_panel.value = display.card_row_html(
                row, title=f"Tunnel reveal ({self.shown} of {len(revealed)} turned)",
                labels=labels, highlight=hi, face_down=range(self.shown, len(revealed)),
                empty_text="nothing to reveal")
        else:
            self.reveal_panel.value = ""
        pays = []
        all_turned = not self.attempt or self.shown >= len(self.attempt["revealed"])
        if view.phase is Phase.TUNNEL and view.my_turn and all_turned:
            ways = [a for a in self.game.legal_actions() if isinstance(a, act.PayTunnel)]
            # Spend locomotives last, then the shared cards before your own (a suggestion only).
            ways.sort(key=lambda a: (a.cards[Color.LOCOMOTIVE], len(a.hand)))
            pays = [(_describe_payment(a.hand, a.cardholder), a) for a in ways]
        chosen = self.pay_choice.value
        self.pay_choice.options = pays
        values = [a for _, a in pays]
        self.pay_choice.value = chosen if chosen in values else (values[0] if values else None)
        self.cards.value = self.cards_html(view)
        turning = self.attempt and self.shown < len(self.attempt["revealed"])
        # While the learner turns the cards one by one, the log must not give the reveal away.
        self.history.value = self.events_html(view, hide_last_tunnel=bool(turning))
