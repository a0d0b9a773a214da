"""TicketStepper: choose, keep, share and return destination tickets (rules T1-T4, I1).

Setup (T1) is a hot-seat flow for the learner's team: the first teammate chooses, a curtain hides
the choice while the screen passes, the second teammate chooses, and only then do both shared
tickets land in the team's ticket cardholder, at the same moment (the engine does that). Mid-game
the learner draws 4 tickets and keeps at least 1 (T2), sees the rejected ones go to the bottom of
the ticket deck (T3), or spends a turn sharing 1 or 2 private tickets (T4).

``TicketChooser`` (checkboxes and a radio group over a list of tickets) is also used by
``TeamGame``.
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import ipywidgets as w
from traitlets import Enum

from .. import actions as act
from .. import display, hints, narration
from ..board import Board
from ..display import hidden_tickets_html, ticket_table_html  # kept importable from here
from ..events import TicketsKept
from ..game import (
    DRAW_TICKETS,
    SETUP_TICKETS_DEALT,
    SETUP_TICKETS_KEEP,
    Game,
    Phase,
    PlayerView,
)
from ..i18n import N_, _, ngettext
from ..seats import seat_name, team_name, team_of, team_seats, teammate
from ..words import city, count
from .base import LessonWidget, board_map_html, button, close_all, highlight, safe

#: a ticket's checkbox, by the chooser's verb ("keep T07", "share T07")
_VERB_LABELS = {"keep": N_("keep {ticket}"), "share": N_("share {ticket}")}


def _box_layout() -> w.Layout:
    return w.Layout(width="200px", margin="0 8px 6px 0")  # one each: closed with its box


class TicketChooser(w.VBox):
    """Ticket pictures, a checkbox under each, and (with ``share=True``) a radio group to pick
    the one to share. It only collects a choice; the engine judges it.

    Controls: ``boxes`` (one ``Checkbox`` per ticket, in ``tickets`` order), ``share_choice``
    (``RadioButtons`` of ticket ids, ``None`` until the learner picks one), ``confirm`` and
    ``missing``, beside it: what the choice still lacks, in the words of the rule, redrawn at
    every tick (``problem()``; ``judge`` is set by the screen: ``hints.keep_problem`` or
    ``hints.share_problem``), and in the button's tooltip.
    """

    def __init__(self, board: Board, verb: str, on_confirm: Callable[[], None], *,
                 share: bool = True, pictures: bool = True, confirm_label: str = "Confirm",
                 title: str = ""):
        super().__init__()
        self.board = board
        self.verb = verb
        self.pictures = pictures
        self.tickets: tuple[str, ...] = ()
        self.boxes: list[w.Checkbox] = []
        #: (ticked, share choice) -> (rule, what is missing) or None
        self.judge: Callable[[list[str], str | None], tuple[str, str] | None] | None = None
        self.active = True  # the choice is a move the seat may make now (the screen says)
        self.missing = w.HTML()
        self.row = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.share_choice = w.RadioButtons(
            options=[], value=None, description=_("Share"),
            layout=w.Layout(width="auto", display="flex" if share else "none"),
            style={"description_width": "50px"})
        self.confirm = button(confirm_label, on_confirm, width="auto")
        self.confirm.button_style = "primary"
        self.title = w.HTML(f"<b>{html.escape(title)}</b>")
        self.share_choice.observe(lambda _c: self.show_missing(), names="value")
        self.children = [self.title, self.row, self.share_choice,
                         w.HBox([self.confirm, self.missing],
                                layout=w.Layout(align_items="center", flex_flow="row wrap"))]

    def problem(self) -> tuple[str, str] | None:
        """``(rule, what is missing)`` of the choice as ticked now, ``None`` when complete."""
        return None if self.judge is None else self.judge(self.checked(), self.share_choice.value)

    def show_missing(self, active: bool | None = None) -> None:
        """Say beside the button what the choice still lacks. The screen says whether the
        choice is a move open to the seat now (``active``, kept): the button is lit then."""
        if active is not None:
            self.active = active
        on = self.active and bool(self.tickets)
        problem = self.problem() if on else None
        self.missing.value = "" if problem is None else display.message_html(
            _("Still missing: {what}.").format(what=problem[1]), "info", rule=problem[0])
        self.confirm.tooltip = (_("Still missing: {what}.").format(what=problem[1]) if problem
                                else self.confirm.description)
        # lit while the choice is the seat's move (the engine's legal actions say so), as every
        # button; what is still missing is said beside it, not by dimming it
        highlight(self.confirm, on)

    def set_tickets(self, tickets: Sequence[str]) -> None:
        """Show ``tickets``; the checkboxes and the share choice reset when the list changes."""
        tickets = tuple(tickets)
        if tickets == self.tickets:
            return
        # The old checkboxes name the old tickets (and hold their ticks): close them, so that
        # nothing of a previous screen (a teammate's offer, T1) stays in the page (I1).
        close_all(*self.row.children)
        self.row.children = ()
        self.tickets = tickets
        if self.pictures:
            self.boxes = [w.Checkbox(value=False, indent=False,
                                     description=_(_VERB_LABELS[self.verb]).format(ticket=t),
                                     layout=w.Layout(width="auto")) for t in tickets]
            self.row.children = [
                w.VBox([w.HTML(display.ticket_html(self.board.ticket(t))), box], layout=_box_layout())
                for t, box in zip(tickets, self.boxes)
            ]
        else:
            self.boxes = [w.Checkbox(value=False, indent=False, layout=w.Layout(width="auto"),
                                     description=_(_VERB_LABELS[self.verb]).format(
                                         ticket=_ticket_label(self.board, t)))
                          for t in tickets]
            self.row.children = self.boxes
        for box in self.boxes:
            box.observe(lambda _c: self.show_missing(), names="value")
        self.share_choice.options = [(_ticket_label(self.board, t), t) for t in tickets]
        self.share_choice.value = None
        self.show_missing()

    def checked(self) -> list[str]:
        return [t for t, box in zip(self.tickets, self.boxes) if box.value]

    def keep_action(self) -> act.KeepTickets:
        """The choice as the engine's action (``share`` may be ``None``: the engine says why)."""
        return act.KeepTickets(self.checked(), self.share_choice.value)


def judge_choices(screen: LessonWidget, chooser: TicketChooser, sharer: TicketChooser) -> None:
    """Give a screen's two choosers their judges: the keep choice by T1 or T2 (the phase of the
    screen's seat), the share by T4 (``hints``)."""
    chooser.judge = lambda keep, share: hints.keep_problem(screen.view().phase, chooser.tickets,
                                                           keep, share)
    sharer.judge = lambda picked, _share: hints.share_problem(picked)


def refuse_incomplete(screen: LessonWidget, chooser: TicketChooser) -> bool:
    """Say what a ticket choice still lacks, as the rule words it (and send nothing): ``True``
    when it was refused so."""
    if not chooser.tickets and chooser.verb == "share":
        problem: tuple[str, str] | None = ("T4", _("you hold no private ticket to share"))
    else:  # nothing offered to keep: the rules say what the game waits for
        problem = chooser.problem() if chooser.tickets else None
    if problem is None:
        return False
    screen.say(_("Not yet: {what}.").format(what=problem[1]), "error", rule=problem[0])
    return True


def _ticket_label(board: Board, tid: str) -> str:
    t = board.ticket(tid)
    points = ngettext("{n} point", "{n} points", t.points).format(n=t.points)
    return f"{tid}: {city(t.a)} - {city(t.b)} ({points})"


@dataclass(frozen=True)
class TicketDraw:
    """What the learner saw of their last ticket draw (T2, T3): the ticket deck's size before
    the draw (``None``: drawn before this screen showed), while choosing and after the choice,
    the tickets returned to the bottom of the deck and the public log's line about it."""

    before: int | None
    during: int
    after: int | None = None
    rejected: tuple[str, ...] = ()
    log: str = ""


class TicketStepper(LessonWidget):
    """Destination tickets from one seat, from the setup choice (T1) to mid-game draws and shares.

    Controls: ``chooser`` (a ``TicketChooser``; shortcuts ``keep_boxes``, ``share_choice`` and
    ``confirm``), ``continue_button`` (pass the screen to the teammate), ``start_button`` (start
    playing after setup), ``draw_tickets``, ``sharer`` (shortcuts ``share_boxes`` and
    ``share_button``) and ``others`` (let the bots play until your next turn). ``stage`` is
    ``"setup"``, ``"curtain"``, ``"revealed"`` or ``"play"``.
    """

    def __init__(self, game: Game | None = None, seat: int = 0, *, seed: int | None = None,
                 bots=None, deal=None):
        super().__init__(game, seat, bots=bots, seed=seed, deal=deal)
        self.home_seat = seat
        self.team_seats = team_seats(team_of(seat))
        self.last_draw: TicketDraw | None = None
        self.step = w.HTML()
        self.table = w.HTML()
        self.notes = w.HTML()
        self.board_map = w.HTML()  # the offer's cities on the board, redrawn with each offer
        board = self.view().board
        self.chooser = TicketChooser(board, "keep", self.confirm_choice)
        self.continue_button = button(_("Continue"), self.pass_screen, width="auto")
        self.start_button = button(_("Start the game"), self.start, width="auto")
        self.draw_tickets = button(_("Draw {n} tickets").format(n=DRAW_TICKETS), self.draw,
                                   width="160px")
        self.sharer = TicketChooser(board, "share", self.share, share=False, pictures=False,
                                    confirm_label=_("Share the ticked tickets"),
                                    title=_("Share 1 or 2 private tickets with your team; it "
                                            "takes your whole turn (T4)"))
        self.others = button(_("Let the other players play"), self.next_turn, width="220px")
        judge_choices(self, self.chooser, self.sharer)
        for b in (self.continue_button, self.start_button):
            highlight(b, True)  # the only move there is on that screen
        self._advance_setup()
        self.stage = self._setup_or_play()
        self.render()

    # shortcuts for tests and teachers
    keep_boxes = property(lambda self: self.chooser.boxes)
    share_choice = property(lambda self: self.chooser.share_choice)
    confirm = property(lambda self: self.chooser.confirm)
    share_boxes = property(lambda self: self.sharer.boxes)
    share_button = property(lambda self: self.sharer.confirm)

    #: Which screen shows (a kernel-side trait, never synced): a seat choosing its setup
    #: tickets, the curtain between the two teammates' choices, the team's shared tickets
    #: revealed together (T1), then play.
    stage = Enum(("setup", "curtain", "revealed", "play"), default_value="setup")

    def _setup_or_play(self) -> str:
        return "setup" if self.view().phase is Phase.SETUP_TICKETS else "play"

    # --- setup (T1) --------------------------------------------------------------------------
    def _advance_setup(self) -> None:
        """Bots choose for the other teams' seats; the screen goes to the team seat to choose."""
        self.session.play_setup(humans=self.team_seats)
        view = self.view()
        if view.phase is Phase.SETUP_TICKETS and view.to_move != self.seat:
            self.session = self.session.at_seat(view.to_move)  # the screen passes (T1)

    @safe
    def confirm_choice(self) -> None:
        stage = self.stage
        if stage != "setup" and not self._my_move():
            return
        chooser = self.seat
        offer = self.view().ticket_offer
        if refuse_incomplete(self, self.chooser):
            return
        action = self.chooser.keep_action()
        if not self.act(action):
            return
        if stage == "setup":
            self._after_setup_choice(chooser)
        else:
            self._after_draw_choice(offer, action)
        self.render()
        # The setup screen was long and the curtain (or the reveal) is short: the page would
        # keep its scroll position and show what lies below the widget. Focusing the one
        # button of the new screen scrolls it into view, at the top of the window when the
        # page has to scroll up: so that button comes first on those screens, the text after.
        if self.stage in ("curtain", "revealed"):
            (self.continue_button if self.stage == "curtain" else self.start_button).focus()

    def _after_setup_choice(self, chooser: int) -> None:
        mate = teammate(chooser)
        view = self.view()
        if view.phase is Phase.SETUP_TICKETS and view.to_move == mate:
            self.stage = "curtain"
            self.say(_("{seat}'s choice is locked in and hidden. The {team} ticket cardholder "
                       "still holds {tickets}: the shared tickets wait until {mate} has chosen "
                       "too.").format(seat=seat_name(chooser), team=team_name(view.team),
                                      tickets=count(len(view.team_tickets), "ticket"),
                                      mate=seat_name(mate)), "success", rule="T1")
            return
        self.stage = "revealed"
        shared = ", ".join(view.team_tickets)
        self.say(_("Both teammates have chosen. At this moment both shared tickets ({shared}) "
                   "appeared together in the {team} ticket cardholder; neither of you saw the "
                   "other's choice before making your own.").format(
                       shared=shared, team=team_name(view.team)), "success", rule="T1")
        self._advance_setup()

    @safe
    def pass_screen(self) -> None:
        if self.stage != "curtain":
            self.say(_("There is no screen to pass right now."))
            return
        self._advance_setup()
        self.stage = self._setup_or_play()
        self.say(_("{seat}: choose your tickets. Your teammate's choice is hidden from "
                   "you.").format(seat=seat_name(self.seat)), rule="T1")
        self.render()

    @safe
    def start(self) -> None:
        if self.stage != "revealed":
            self.say(_("Finish the ticket choice first."))
            return
        self.session = self.session.at_seat(self.home_seat)
        self.stage = "play"
        self.message.value = ""
        self.render()

    # --- mid-game (T2-T4) --------------------------------------------------------------------
    def _my_move(self) -> bool:
        stage = self.stage
        if stage != "play":
            hint = {"setup": _("finish the ticket choice first"),
                    "curtain": _("pass the screen first: press '{button}'").format(
                        button=self.continue_button.description),
                    "revealed": _("press '{button}' first").format(
                        button=self.start_button.description)}[stage]
            self.say(_("Not yet: {what}.").format(what=hint), rule="T1")
            return False
        if not self.session.is_over and not self.view().my_turn:
            self.say(_("It is not your turn yet: press '{button}'.").format(
                button=self.others.description))
            return False
        return True

    @safe
    def draw(self) -> None:
        if not self._my_move():
            return
        before = self.view().ticket_deck_size
        if self.act(act.DrawTickets()):
            view = self.view()
            self.last_draw = TicketDraw(before, view.ticket_deck_size)
            self.say(_("You drew {tickets}: the ticket deck went from {before} to {after}.").format(
                tickets=count(len(view.ticket_offer), "ticket"), before=before,
                after=view.ticket_deck_size), rule="T2")
            self.render()

    def _after_draw_choice(self, offer: Sequence[str], action: act.KeepTickets) -> None:
        view = self.view()
        rejected = [t for t in offer if t not in action.keep]
        drawn = self.last_draw or TicketDraw(None, view.ticket_deck_size + len(rejected))
        mine = [e for e in view.events if isinstance(e, TicketsKept) and e.seat == view.seat]
        self.last_draw = dataclasses.replace(
            drawn, after=view.ticket_deck_size, rejected=tuple(rejected),
            log=narration.text(mine[-1], view.seat) if mine else "")
        self.say(ngettext("You kept {kept} and shared {share}; {n} went to the bottom of the "
                          "ticket deck.",
                          "You kept {kept} and shared {share}; {n} went to the bottom of the "
                          "ticket deck.", len(rejected)).format(
                     kept=count(len(action.keep), "ticket"), share=action.share, n=len(rejected)),
                 "success", rule="T3")

    @safe
    def share(self) -> None:
        if not self._my_move():
            return
        picked = self.sharer.checked()
        if refuse_incomplete(self, self.sharer):
            return
        if self.act(act.ShareTickets(picked)):
            self.say(_("You shared {tickets}: that was your whole turn.").format(
                tickets=", ".join(picked)), "success", rule="T4")

    @safe
    def next_turn(self) -> None:
        if self.stage != "play":
            self._my_move()
            return
        note = ""
        if self.session.my_turn:
            ticket_moves = (act.DrawTickets, act.ShareTickets, act.KeepTickets)
            if any(isinstance(a, ticket_moves) for a in self.legal()):
                self.say(_("It is your turn: the others are waiting for you."))
                return
            # No ticket can be drawn or shared: this lesson has nothing to offer, so a bot plays.
            self.bot_plays_my_turn()
            note = _("You had no ticket to draw or share, so a bot played your turn.") + " "
        self.last_draw = None
        n = self.play_others()
        self.say(note + self.others_played_text(n))
        self.render()

    # --- showing -----------------------------------------------------------------------------
    def reset(self) -> None:
        """A new game: back to the setup of the learner's team, nothing of the old game kept."""
        self.last_draw = None
        self.session = self.session.at_seat(self.home_seat)
        for chooser in (self.chooser, self.sharer):
            chooser.set_tickets(())
        self._advance_setup()
        self.stage = self._setup_or_play()

    def paint(self) -> None:
        stage = self.stage
        build = {"setup": self._render_setup, "curtain": self._render_curtain,
                 "revealed": self._render_revealed, "play": self._render_play}[stage]
        if stage in ("curtain", "revealed"):
            # Between two private screens nothing private stays open: the chooser that showed
            # the last seat's offer is emptied (its checkboxes closed), the sharer too (T1, I1).
            self.chooser.set_tickets(())
            self.sharer.set_tickets(())
        if stage in ("curtain", "revealed"):
            self.board_map.value = ""  # the last seat's offer must not stay in the page (I1)
        self.children = [self.top_bar(), *build()]

    def _render_setup(self) -> list:
        view = self.view()
        name = seat_name(self.seat)
        self.header.value = display.seat_line_html(view, self.session.is_over)
        self.step.value = display.message_html(
            _("{seat}: you were dealt {dealt} tickets. Tick at least {keep} to keep and pick 1 "
              "of the kept ones to share with your team. Your teammate will not see your "
              "choice, and you will not see theirs (T1).").format(
                  seat=name, dealt=SETUP_TICKETS_DEALT, keep=SETUP_TICKETS_KEEP), "info",
            rule="T1")
        self.chooser.set_tickets(view.ticket_offer)
        self.chooser.confirm.description = _("Confirm {seat}'s choice").format(seat=name)
        self.chooser.title.value = "<b>{}</b>".format(html.escape(
            _("{seat}'s {dealt} tickets (only {seat} sees them)").format(
                seat=name, dealt=SETUP_TICKETS_DEALT)))
        self.table.value = display.layout_html(
            display.tickets_html([view.board.ticket(t) for t in view.team_tickets],
                                 _("{team} ticket cardholder (shared)").format(
                                     team=team_name(view.team)),
                                 empty_text=_("empty until both teammates have chosen")),
            hidden_tickets_html(view.ticket_counts[view.teammate],
                                _("Teammate {seat}'s tickets").format(
                                    seat=seat_name(view.teammate))),
            direction="row")
        self.board_map.value = board_map_html(view, view.ticket_offer,
                                              ticket_label=_("{seat}'s {dealt} tickets").format(
                                                  seat=name, dealt=SETUP_TICKETS_DEALT))
        return [self.header, self.step, self.chooser, self.message, self.table, self.board_map]

    def _render_curtain(self) -> list:
        done, nxt = seat_name(self.seat), seat_name(teammate(self.seat))
        self.header.value = display.message_html(
            _("Pass the screen to {next} — {done}'s choice stays hidden. Nothing private is "
              "shown on this screen: {next} will see only their own tickets and the team's "
              "cardholder (rules T1, I1).").format(next=nxt, done=done), "warning", rule="T1")
        self.continue_button.description = _("I am {seat}: show my tickets").format(seat=nxt)
        return [self.continue_button, self.header, self.message]

    def _render_revealed(self) -> list:
        view = self.view()
        home = seat_name(self.home_seat)
        self.header.value = display.seat_line_html(view, self.session.is_over)
        self.table.value = display.tickets_html(
            [view.board.ticket(t) for t in view.team_tickets],
            _("{team} ticket cardholder (shared): both tickets arrived together").format(
                team=team_name(view.team)))
        self.start_button.description = (
            _("Start the game") if self.seat == self.home_seat else
            _("Pass the screen to {seat} and start the game").format(seat=home))
        return [self.start_button, self.header, self.message, self.table]

    def _render_play(self) -> list:
        view = self.view()
        self.header.value = display.seat_line_html(view, self.session.is_over)
        if self.session.is_over:
            hint = _("The game is over.")
        elif view.my_turn:
            hint = hints.tickets_hint(view.phase)
        else:
            hint = _("{seat} is to move: let the other players play.").format(
                seat=seat_name(view.to_move))
        self.step.value = display.message_html(hint, "info")
        self.table.value = ticket_table_html(view)
        choosing = view.my_turn and view.phase is Phase.CHOOSE_TICKETS
        self.chooser.set_tickets(view.ticket_offer if choosing else ())
        self.chooser.confirm.description = _("Keep the ticked tickets")
        self.chooser.title.value = "<b>{}</b>".format(
            html.escape(_("The tickets you drew (only you see them)")))
        self.chooser.layout.display = "flex" if choosing else "none"
        self.sharer.set_tickets(view.tickets)
        legal = self.legal()
        self.chooser.show_missing(choosing)
        highlight(self.draw_tickets, any(isinstance(a, act.DrawTickets) for a in legal))
        self.sharer.show_missing(any(isinstance(a, act.ShareTickets) for a in legal))
        highlight(self.others, not view.my_turn and not self.session.is_over)
        self.notes.value = self._t3_html(view)
        self.history.value = self.events_html(view.events)
        self.board_map.value = board_map_html(
            view, view.ticket_offer if choosing else None,
            ticket_label=_("Tickets on offer") if choosing else _("Your tickets"))
        return [self.header, self.step, self.table, self.chooser,
                w.HBox([self.draw_tickets]), self.sharer, self.message, self.board_map,
                self.notes, self.others, self.history]

    def _t3_html(self, view: PlayerView) -> str:
        info = self.last_draw
        if info is None or info.after is None:
            return ""
        sizes = [str(n) for n in (info.before, info.during, info.after) if n is not None]
        parts = [display.message_html(
            _("Ticket deck: {sizes} tickets (before the draw → while choosing → now). Public "
              "log: “{log}”. Nobody else learns which tickets you returned.").format(
                  sizes=" → ".join(sizes), log=info.log), "info", rule="T3")]
        if info.rejected:
            parts.append(display.tickets_html(
                [view.board.ticket(t) for t in info.rejected],
                _("Returned to the bottom of the ticket deck")))
        return display.layout_html(*parts)
