"""TeamGame: play a whole Team Asia game from one seat, bots in the other seats, up to the score
sheet (rules E2-E6). Save and load the game in a signed file on the server's side (never in
the page: a save holds every hand, rule I1).

The widget shows only what the seat may know (rule I1) and offers the engine's legal actions;
any click the rules forbid is still sent to the engine, whose rule and reason show in the message
line.
"""

from __future__ import annotations

import html

import ipywidgets as w
from traitlets import Unicode, observe

from .. import actions as act
from .. import display, hints, narration
from ..board import Board
from ..cards import Color, Place
from ..errors import TableError, TTRError
from ..game import (
    DRAW_TICKETS,
    FACE_UP,
    TRAINS_PER_PLAYER,
    Game,
    Phase,
    PlayerView,
)
from ..odds import best_payment, cheapest_first
from ..rules.scoring import TeamScore
from ..rules.tracks import closed_reason
from ..seats import seat_name
from ..words import article
from .base import LessonWidget, board_map_html, button, highlight, payment_text, safe
from .coach_hint import CoachHint
from .tickets import TicketChooser, judge_choices, refuse_incomplete


def _fitting(width: str) -> w.Layout:
    """A control ``width`` wide on a wide screen and no wider than a narrow one."""
    return w.Layout(width="100%", max_width=width)


def _pay_words(hand, holder) -> str:
    """A way to pay in few words, so that it fits the Pay with box on a phone:
    ``"hand 2 red · cardholder 1 red"`` (K1: only these two places)."""
    parts = [f"{where} {c.describe()}" for c, where in ((hand, Place.HAND), (holder, Place.CARDHOLDER))
             if c]
    return " · ".join(parts) or "nothing"


def _news(events, seat: int) -> str:
    """The public log's new lines as sentences for the message line: some start in lower case
    ("the game is over"), written to follow a seat's name or a list bullet."""
    return " ".join(t[:1].upper() + t[1:].rstrip(".") + "."
                    for t in narration.lines(events, seat))


def score_sheet_html(game: Game | Board, sheets: list[TeamScore] | None = None) -> str:
    """The end-of-game score sheet per team (E2-E6): ``score_sheet_html(game)`` for a finished
    game, or ``score_sheet_html(board, sheets)`` for sheets a seat may read
    (``display.score_sheet_html`` draws it)."""
    if isinstance(game, Game):
        return display.score_sheet_html(game.view(0).board, game.scores())
    if sheets is None:
        raise TypeError("score_sheet_html(board, sheets): a board needs its score sheets")
    return display.score_sheet_html(game, sheets)


class TeamGame(LessonWidget):
    """A whole game from one seat; the other seats are played by bots (``GreedyBot``).

    Controls: ``take[0..4]`` (face-up slots), ``deck``, ``to_hand`` / ``to_cardholder``
    (where the first card goes), ``route`` + ``payment`` (dropdowns) and ``claim_button``,
    ``tunnel_payment`` + ``pay_button`` and ``withdraw_button``, ``draw_tickets``,
    ``chooser`` (``chooser.boxes``, ``chooser.share_choice``, ``chooser.confirm``: the setup and
    mid-game ticket choice), ``sharer`` (``sharer.boxes``, ``sharer.confirm``: share 1-2 private
    tickets), ``others`` (let the bots play until your next turn), ``save_slot`` (a name, at
    first the game's: "game-4821"), ``save_button`` and ``load_button``: the game goes to
    ``save_folder/NAME.ttrsave`` (default ``saves/`` under the kernel's working directory), in
    a folder of the learner's own in the classroom app (``learner_id``), signed, never into
    the page. Loading goes on exactly as saved, the unseen cards included, so a reload is no
    free retry (``SeatSession.load``, issue 32.14).
    ``score_sheet`` shows once the game is over; ``new_game_button`` deals a new game.
    """

    def __init__(self, game: Game | None = None, seat: int = 0, *, players: int = 4,
                 seed: int | None = None, bots=None, deal=None, save_folder=None,
                 session=None, trains: int = TRAINS_PER_PLAYER):
        from ..session import new_game

        # trains: per player, fewer for a short game (C3 short-game policy)
        deal = deal or (lambda s: new_game(s, players, trains))
        super().__init__(game, seat, bots=bots, seed=seed, deal=deal, players=players,
                         session=session)
        self.save_folder = save_folder
        self.step = w.HTML()
        self.score_sheet = w.HTML()
        self.row = w.HTML()
        self.cards = w.HTML()
        self.tickets = w.HTML()
        self.table = w.HTML()
        # Slots are numbered 0-4, as in the engine's log ("draws a card from face-up slot 2").
        # "auto": as wide as the words, so the five slots and the deck wrap less on a phone
        self.take = [button(f"Take slot {i}", lambda i=i: self.draw(i), width="auto")
                     for i in range(FACE_UP)]
        self.deck = button("Deck", lambda: self.draw("deck"), width="150px")
        self.to_hand = button("→ my hand", lambda: self.place(Place.HAND), width="120px")
        self.to_cardholder = button("→ team cardholder", lambda: self.place(Place.CARDHOLDER),
                                    width="150px")
        # at most 400 px, and no wider than the screen: on a 400 px phone the box and its
        # text fit (issue 32.13); the ways to pay are short words (_pay_words)
        self.route = w.Dropdown(description="Route", layout=_fitting("400px"),
                                style={"description_width": "50px"})
        self.payment = w.Dropdown(description="Pay with", layout=_fitting("400px"),
                                  style={"description_width": "60px"})
        self.claim_button = button("Claim the route", self.claim, width="140px")
        self.tunnel_view = w.HTML()
        self.tunnel_payment = w.Dropdown(description="Pay with", layout=_fitting("470px"),
                                         style={"description_width": "60px"})
        self.pay_button = button("Pay the extra cards", self.pay, width="170px")
        self.withdraw_button = button("Take my cards back", self.withdraw, width="170px")
        self.tunnel_box = w.VBox([self.tunnel_view, w.HBox(
            [self.tunnel_payment, self.pay_button, self.withdraw_button])])
        board = self.view().board
        self.chooser = TicketChooser(board, "keep", self.keep)
        self.draw_tickets = button(f"Draw {DRAW_TICKETS} tickets", self.draw_ticket_cards, width="150px")
        self.sharer = TicketChooser(board, "share", self.share, share=False, pictures=False,
                                    confirm_label="Share the ticked tickets",
                                    title="Or share 1 or 2 private tickets (your whole turn, T4):")
        self.others = button("Let the others play", self.next_turn, width="200px")
        judge_choices(self, self.chooser, self.sharer)
        self.board_map = w.HTML()
        # what the drawn map shows: redrawn only when that changes
        self._map_key: tuple | None = None
        self.save_slot = w.Text(value=self._slot_for_game(), description="Save name",
                                style={"description_width": "80px"},
                                layout=w.Layout(width="260px"))
        self.save_button = button("Save", self.save, width="90px")
        self.load_button = button("Load", self.load, width="90px")
        self.route_note = w.HTML()
        # the chosen way to pay in full words, wrapping: a phone's box may show less of it
        self.pay_note = w.HTML()
        self.payment.observe(lambda c: self._show_payment(c.new), names="value")
        self.route.observe(lambda c: setattr(self, "chosen_route", c.new), names="value")
        # issue 34: the coach's hint, from this seat's view, against the move chosen so far
        self.coach = CoachHint(self.view, self.legal, lambda: self.tunnel_payment.value if
                               self.view().phase is Phase.TUNNEL else self.payment.value)
        label = w.HTML
        self.children = [
            self.top_bar(), self.header, self.step, self.score_sheet, self.message,
            w.HBox([self.others]), self.coach,
            self.chooser, self.tunnel_box, self.row,
            label("<b>Draw train cards</b> (D1-D4)"), w.HBox(self.take + [self.deck]),
            w.HBox([self.to_hand, self.to_cardholder]),
            # the hand right under the cards and buttons it is played with (on a phone the
            # face-up row, the buttons and the hand fit one screen, issue 32.13)
            self.cards,
            label("<b>Claim a route</b> (K1-K3, U1)"),
            w.HBox([self.route, self.payment, self.claim_button]), self.pay_note, self.route_note,
            self.tickets,
            label("<b>Tickets</b> (T2-T4)"), w.HBox([self.draw_tickets]), self.sharer,
            self.table, label("<b>The board</b>"), self.board_map, self.history,
            label("<b>Save / load</b> (kept on the server, signed: a changed file is refused)"),
            w.HBox([self.save_slot, self.save_button, self.load_button]),
        ]
        if getattr(self.session, "remote", False):
            self._at_a_table()
        self.session.play_setup()
        self.render()

    def _at_a_table(self) -> None:
        """A seat of a class table (lesson 08): the other seats play at their own screens and
        the class server keeps the game, so no "Let the others play", no New game and no
        Save / Load (the rows after the log); the screen follows the table by itself."""
        self.others.layout.display = "none"
        self.new_game_button.layout.display = "none"
        self.children = self.children[:self.children.index(self.history) + 1]
        self.session.start(self.table_moved)

    def table_moved(self, events) -> None:
        """The class table moved on (another seat played): draw it again and say what happened.
        Moves of this very seat that did not come from this screen were a bot's, playing the
        seat while the teacher had handed it over: say so, and what it did (issue 32.6)."""
        self.render()
        news = _news(events, self.seat)
        mine = [e for e in events if getattr(e, "seat", None) == self.seat]
        if mine:
            self.say(f"A bot played your seat {seat_name(self.seat)} for you: "
                     f"{_news(mine, self.seat)} The table since: {news}", "warning")
        elif news:
            self.say(news, "info")

    # --- helpers -----------------------------------------------------------------------------
    def reset(self) -> None:
        for chooser in (self.chooser, self.sharer):
            chooser.set_tickets(())
        self._map_key = None
        self.save_slot.value = self._slot_for_game()
        self.session.play_setup()

    def _slot_for_game(self) -> str:
        """The Save box starts with the game's name: each game its own slot."""
        from ..signed_save import slot_name

        return slot_name(self.session.game_name or "set position")

    def _my_move(self) -> bool:
        view = self.view()
        if not self.session.is_over and not view.my_turn:
            wait = ("wait until they have played" if getattr(self.session, "remote", False)
                    else f"press '{self.others.description}'")
            self.say(f"It is {seat_name(view.to_move)}'s move, not yours: {wait}.")
            return False
        return True

    def _do(self, action, success: str = "") -> bool:
        """Send ``action`` to the engine; on success report what the public log says."""
        if not self._my_move():
            return False
        n = len(self.view().events)
        try:
            if not self.act(action):
                return False
        except TableError as exc:
            if "(400:" not in str(exc):  # not a field of the move: the server is away, a key...
                raise
            # The class server names a field of a malformed move (its JSON codec answers 400
            # before the rules are asked): say instead what the rules wait for now.
            rule, words = hints.FINISH_FIRST[self.view().phase]
            self.say(f"The class server did not take this move: {words}.", "error", rule=rule)
            return False
        text = _news(self.view().events[n:], self.seat)
        self.coach.clear()  # the hint was for the move just made
        self.say(f"{success} {text}".strip() or "Done.", "success")
        return True

    # --- clicks ------------------------------------------------------------------------------
    @safe
    def draw(self, source) -> None:
        if self._do(act.DrawCard(source)):
            drawn = self.view().drawn_card
            if drawn is not None:
                self.say(f"You drew {article(drawn.value)} card. Where does it go?", rule="D1")

    @safe
    def place(self, to: Place) -> None:
        self._do(act.PlaceCard(to))

    @safe
    def claim(self) -> None:
        choice = self.payment.value
        if choice is None and self.view().phase is Phase.TURN:
            if self._my_move():
                text, kind, rule = self._why_not(self.route.value)
                self.say(text, kind, rule=rule)
            return
        if choice is None and self.route.value is None:  # an empty list (every track claimed)
            if self._my_move():
                rule, words = hints.FINISH_FIRST[self.view().phase]
                self.say(f"No route can be claimed now: {words}.", "error", rule=(
                    "K3" if self.view().phase is Phase.TURN else rule))
            return
        self._do(choice or act.Claim(self.route.value))  # the engine names the phase rule

    @safe
    def pay(self) -> None:
        self._do(self.tunnel_payment.value or act.PayTunnel())

    @safe
    def withdraw(self) -> None:
        self._do(act.Withdraw())

    @safe
    def keep(self) -> None:
        if self._my_move() and refuse_incomplete(self, self.chooser):
            return
        if self.view().phase is not Phase.SETUP_TICKETS:
            self._do(self.chooser.keep_action())
        elif self._do(self.chooser.keep_action()):
            self.session.play_setup()
            self.render()
            self.say("Tickets chosen. Once both teammates had chosen, both shared tickets went "
                     "into the team's ticket cardholder at the same moment.", "success", rule="T1")

    @safe
    def draw_ticket_cards(self) -> None:
        self._do(act.DrawTickets())

    @safe
    def share(self) -> None:
        if self._my_move() and refuse_incomplete(self, self.sharer):
            return
        self._do(act.ShareTickets(self.sharer.checked()))

    @safe
    def next_turn(self) -> None:
        if self.session.is_over:
            self.say("The game is over: see the score sheet.")
            return
        if self.view().my_turn:
            self.say("It is your move: the others are waiting for you.")
            return
        n = self.play_others()
        self.say(self.others_played_text(n))
        self.render()

    @safe
    def save(self) -> None:
        from ..signed_save import slot_name

        learner = self._learner()
        if learner is False:
            return
        try:
            name = self.session.save(slot_name(self.save_slot.value), self.save_folder,
                                     learner=learner)
        except TTRError as exc:  # the save key, the folder: said in words
            self.say(f"This game cannot be saved: {exc}.", "error")
            return
        self.save_slot.value = name
        self.say(f"Saved as '{name}' on the server (signed, so it cannot be changed). Press "
                 "Load with this name to resume.", "success")

    @safe
    def load(self) -> None:
        from ..signed_save import slot_name

        learner = self._learner()
        if learner is False:
            return
        name = slot_name(self.save_slot.value)
        try:
            self.session.load(name, self.save_folder, learner=learner)
        except TTRError as exc:
            self.say(f"This saved game cannot be loaded: {exc}.", "error")
            return
        board = self.view().board
        for chooser in (self.chooser, self.sharer):
            chooser.board = board
            chooser.set_tickets(())
        self._map_key = None
        self.session.play_setup()
        self.render()
        view = self.view()
        self.say(f"Loaded '{name}' ({self.session.game_name or 'a set position'}): "
                 f"{view.players} players, {seat_name(view.to_move)} to move. The game goes "
                 "on exactly as it was saved, the cards nobody has seen too: loading it again "
                 "gives the same game, so what comes next is not a new draw.", "success")

    def _learner(self) -> str | None | bool:
        """Whose saves: the classroom's learner id, ``None`` for the local user (JupyterLab),
        ``False`` (said on screen) for a classroom page that has no id."""
        from ..lessons.learner import in_classroom, learner_id

        learner = learner_id()
        if learner is None and in_classroom():
            self.say("Saving needs this site's cookie, which keeps your saves apart from the "
                     "other learners': allow cookies for this classroom server and reload the "
                     "page.", "error")
            return False
        return learner

    #: The route chosen in the dropdown (a kernel-side trait, never synced). A render holds
    #: its notification while it rebuilds the list, so only a real change re-reads the ways
    #: to pay.
    chosen_route = Unicode(None, allow_none=True)

    @observe("chosen_route")
    @safe
    def _route_changed(self, change) -> None:
        if change.new != change.old:
            self._refresh_payments(self.legal())

    # --- showing -----------------------------------------------------------------------------
    def _refresh_payments(self, legal: list) -> None:
        rid = self.route.value
        claims = {a for a in legal if isinstance(a, act.Claim) and a.route == rid}
        # The cheapest way first, as in lessons 03-05 (odds.best_payment: the one ranking).
        ranked = [o.claim for o in best_payment(self.view(), rid)] if claims else []
        options = [(_pay_words(c.hand, c.cardholder), c) for c in ranked if c in claims]
        self.payment.options = options
        self.payment.value = options[0][1] if options else None
        highlight(self.claim_button, bool(options))
        # "Pay with" is empty only for a route this seat cannot pay: say why (K1-K3).
        rule_reason = None if options or rid is None else self._why_not(rid)
        self.route_note.value = "" if rule_reason is None else display.message_html(
            rule_reason[0], "info", rule=rule_reason[2])

    def _show_payment(self, claim) -> None:
        self.pay_note.value = "" if claim is None else (
            "<div class='ttr-pay-note'><small>You lay "
            f"{html.escape(payment_text(claim.hand, claim.cardholder))} (K1).</small></div>")

    def _why_not(self, rid: str | None) -> tuple[str, str, str | None]:
        """``(text, kind, rule)`` for the message line: why this route cannot be claimed now."""
        view = self.view()
        if rid is None:
            return "Choose a route first.", "info", None
        if self.session.is_over or not view.my_turn:
            return (f"You claim on your own move; it is {seat_name(view.to_move)}'s now.", "info",
                    "C2")
        if view.phase is not Phase.TURN:
            return "Finish what your move asks first (see above).", "info", None
        problem = self.session.claim_problem(rid)
        if problem is None:  # pragma: no cover - a payable route always has a payment
            return "Choose how to pay.", "info", None
        return f"You cannot claim this route now: {problem[1]}.", "error", problem[0]

    def paint(self) -> None:
        view = self.view()
        legal = self.legal()
        over = self.session.is_over
        self.header.value = display.seat_line_html(view, self.session.is_over)
        self.step.value = display.message_html(self._hint(view), "info")
        self.score_sheet.value = (score_sheet_html(view.board, self.session.scores())
                                  if over else "")
        self.row.value = display.layout_html(
            display.card_row_html(list(view.face_up), title="Face-up cards",
                                  labels=[f"slot {i}" for i in range(FACE_UP)]),
            display.card_row_html([view.drawn_card], title="The card you drew",
                                  labels=["where to?"]) if view.drawn_card else "",
            display.draw_pile_html(view.draw_pile_size, len(view.discard)),
            direction="row")
        sources = {a.source for a in legal if isinstance(a, act.DrawCard)}
        places = {a.to for a in legal if isinstance(a, act.PlaceCard)}
        for i, b in enumerate(self.take):
            highlight(b, i in sources)
        highlight(self.deck, "deck" in sources)
        self.deck.description = f"Deck ({display.plural(view.draw_pile_size, 'card')})"
        highlight(self.to_hand, Place.HAND in places)
        highlight(self.to_cardholder, Place.CARDHOLDER in places)
        highlight(self.others, not view.my_turn and not over)
        highlight(self.draw_tickets, any(isinstance(a, act.DrawTickets) for a in legal))
        payable = {a.route for a in legal if isinstance(a, act.Claim)}
        self._render_routes(view, payable, legal)
        self._render_tunnel(view, legal)
        self.cards.value = self.cards_html(view)
        self.tickets.value = display.ticket_table_html(view, self._ticket_statuses(view))
        choosing = view.my_turn and view.phase in (Phase.SETUP_TICKETS, Phase.CHOOSE_TICKETS)
        self.chooser.set_tickets(view.ticket_offer if choosing else ())
        self.chooser.layout.display = "flex" if choosing else "none"
        self.chooser.title.value = "<b>Your ticket offer (only you see it)</b>"
        self.chooser.confirm.description = ("Confirm my setup tickets" if view.phase is
                                            Phase.SETUP_TICKETS else "Keep the ticked tickets")
        # T4 shares kept tickets: nothing to share while the setup offer is still open (T1)
        self.sharer.set_tickets(view.tickets if view.phase is not Phase.SETUP_TICKETS else ())
        self.chooser.show_missing(choosing)
        self.sharer.show_missing(any(isinstance(a, act.ShareTickets) for a in legal))
        self.table.value = display.layout_html(display.players_html(view),
                                              display.routes_html(view, payable))
        self.history.value = self.events_html(view.events, last=8)
        self._render_map(view, choosing)

    def _render_map(self, view: PlayerView, choosing: bool) -> None:
        """The map after every move: claimed tracks, and this seat's tickets (or its offer)."""
        tickets = tuple(view.ticket_offer) if choosing else tuple(view.tickets + view.team_tickets)
        key = (tuple(sorted(view.claimed.items())), tickets, choosing)
        if key != self._map_key:
            self._map_key = key
            self.board_map.value = board_map_html(
                view, tickets, ticket_label="Tickets on offer" if choosing else "Your tickets")

    def _render_routes(self, view: PlayerView, payable: set[str], legal: list) -> None:
        board = view.board
        # K3: a closed track (claimed, or closed by its parallel one) is no choice: not listed,
        # so never preselected either (public facts of the view: any seat may be told, I1)
        rows = sorted((r.id not in payable, r.a, r.b, r.id) for r in board.routes
                      if not closed_reason(board, r, view.claimed, view.seat, view.players))
        options = [((("✓ " if r[0] is False else "") + board.route(r[3]).describe()), r[3])
                   for r in rows]
        current = self.chosen_route
        ids = [rid for _, rid in options]
        # Start on a route this seat can pay (the list puts them first); keep the learner's
        # choice while it stays payable, or while nothing is payable at all.
        keep = current in ids and (current in payable or not payable)
        with self.hold_trait_notifications():
            self.route.options = options
            self.route.value = current if keep else (ids[0] if ids else None)
            if self.chosen_route == current:  # else the held change re-reads them
                self._refresh_payments(legal)

    def _render_tunnel(self, view: PlayerView, legal: list) -> None:
        t = view.tunnel
        show = t is not None and view.phase is Phase.TUNNEL
        self.tunnel_box.layout.display = "flex" if show else "none"
        pays = [(_pay_words(a.hand, a.cardholder), a) for a in
                cheapest_first(a for a in legal if isinstance(a, act.PayTunnel))]
        self.tunnel_payment.options = pays
        self.tunnel_payment.value = pays[0][1] if pays else None
        highlight(self.pay_button, bool(pays))
        highlight(self.withdraw_button, any(isinstance(a, act.Withdraw) for a in legal))
        if t is None or not show:
            self.tunnel_view.value = ""
            return
        route = view.board.route(t.route)
        colour = "locomotives only (U5)" if t.color is Color.LOCOMOTIVE else \
            f"{t.color.value} cards or locomotives"
        self.tunnel_view.value = display.layout_html(
            display.card_row_html(list(t.revealed), title=f"Tunnel {route.a} - {route.b}: "
                                  f"{len(t.revealed)} cards revealed (U1)",
                                  empty_text="nothing left to reveal (U6)"),
            display.message_html(f"{seat_name(t.seat)} owes {display.plural(t.extra, 'more card')}: {colour}. "
                                 "Pay, or take the laid cards back (U3).", "warning", rule="U2"))

    def _ticket_statuses(self, view: PlayerView) -> dict:
        """Tickets this seat can see that its team has already joined (read from the score)."""
        visible = set(view.tickets) | set(view.team_tickets)
        sheet = self.session.scores()[view.team]
        over = self.session.is_over
        return {t.ticket: "completed" if t.completed else ("failed" if over else None)
                for t in sheet.tickets if t.ticket in visible}

    def _hint(self, view: PlayerView) -> str:
        if self.session.is_over:
            return ("The game is over: the score sheet is at the top of the game, right under "
                    "this line.")
        if not view.my_turn and getattr(self.session, "remote", False):
            return (f"{seat_name(view.to_move)} is to move. This screen changes by itself when "
                    "they have played.")
        if not view.my_turn:
            return (f"{seat_name(view.to_move)} is to move. Press '{self.others.description}' "
                    "to let the bots play until your next move.")
        hint = hints.TEAM_GAME.get(view.phase, "Your move.")
        if view.final_round:
            hint += " Final round: every player gets one last turn (E1)."
        return hint
