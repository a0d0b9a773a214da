"""The words of each phase of a turn, in every register, in one place (issue 31).

- What a seat's screen tells the learner to do next (the lessons' hints). Each lesson screen
  offers some moves: the team game all of them, the tickets lesson only the ticket moves, the
  card split lesson only the card draw.
- What a seat must finish first (``FINISH_FIRST``): the engine's refusal of an action out of its
  phase (``rules.dispatch.phase_error``) and the widgets' note before they send one.
- What the seat to move is doing, seen from the projected board (``DOING``).

A hint names the rule it follows and quotes the game's own constants (``ttrlib.state``), so a
changed rule changes its hint. It sits below the rules (they refuse in these words), so it
imports nothing above the state. A test keeps every table of words keyed by a phase here.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import actions as act
from .i18n import N_, _, ngettext
from .state import (
    CHOOSE_TICKETS_KEEP,
    DRAW_TICKETS,
    SETUP_TICKETS_DEALT,
    SETUP_TICKETS_KEEP,
    SHARE_MOST,
    Phase,
)
from .words import count

#: The team game (lessons 00, 06 and 08): every move of a turn.
TEAM_GAME = {
    Phase.SETUP_TICKETS: (f"Choose your tickets: keep at least {SETUP_TICKETS_KEEP} of the "
                          f"{SETUP_TICKETS_DEALT} and share 1 of them (T1)."),
    Phase.TURN: ("Your turn: draw train cards, claim a route, draw "
                 f"{DRAW_TICKETS} tickets, or share 1-2 of your tickets (D1, K1, T2, T4)."),
    Phase.PLACE_CARD: ("Where does the card you drew go: your hand or the team cardholder? The "
                       "second card goes to the other place (D1)."),
    Phase.SECOND_CARD: ("Draw your second card (a face-up slot or the deck); it goes to the other "
                        "place (D1). A face-up locomotive may not be the second card (D3)."),
    Phase.CHOOSE_TICKETS: "Keep at least 1 of the tickets you drew and share 1 of them (T2).",
    Phase.TUNNEL: "The tunnel asks for more cards: pay them, or take your cards back (U2, U3).",
}

#: The tickets lesson (02): drawing and sharing tickets (``tickets_hint`` says them, translated,
#: with the rules' numbers: ``{draw}`` tickets drawn, T2).
TICKETS = {
    Phase.TURN: N_("Your turn. Draw {draw} tickets (keep at least 1, share 1 of them: T2), or "
                   "share 1 or 2 of your private tickets, which takes the whole turn (T4)."),
    Phase.CHOOSE_TICKETS: N_("Tick the tickets you keep (at least 1) and pick one of them to "
                             "share with your team (T2). The others go to the bottom of the "
                             "deck (T3)."),
}


def tickets_hint(phase: Phase) -> str:
    """The tickets lesson's hint for ``phase`` in the reader's language."""
    return _(TICKETS.get(phase, N_("Finish your turn."))).format(draw=DRAW_TICKETS)

#: What the game waits for, as lesson 01 says it after each step of a draw ("The game waits
#: for the second card (D1).").
WAITS_FOR = {
    Phase.TURN: "a new turn",
    Phase.PLACE_CARD: "where the first card goes (D1)",
    Phase.SECOND_CARD: "the second card (D1)",
}

#: The card split lesson (01): the two cards of a draw.
#: (English, marked for the catalogue: the screen shows ``i18n.gettext`` of it)
CARD_SPLIT = {
    Phase.TURN: N_("Pick your first card: a face-up card or the top of the deck. A face-up "
                   "locomotive taken first is your whole draw and goes to the team cardholder "
                   "(D2)."),
    Phase.PLACE_CARD: N_("You have seen your first card. Decide now where it goes: your hand or "
                         "the team cardholder. The second card will go to the other place (D1)."),
    Phase.SECOND_CARD: N_("Pick your second card. It goes to the other place. A face-up "
                          "locomotive may not be taken as the second card (D3)."),
}


# --- what a ticket choice still lacks, in the words of the rules (issue 32, item 1) -------------
# The widgets ask these before sending a choice, so a learner reads the rule ("choose the ticket
# you share with your teammate"), never the engine's or the class server's words about a field
# of an action (``KeepTickets.share``), and the confirm button can say what is missing before
# it is pressed.
def keep_problem(phase: Phase, offer: Sequence[str], keep: Sequence[str],
                 share: str | None) -> tuple[str, str] | None:
    """``(rule, what is missing)`` of a choice of tickets to keep and share (T1 at setup, T2
    mid-game), or ``None`` when the choice is complete."""
    setup = phase is Phase.SETUP_TICKETS
    rule = "T1" if setup else "T2"
    need = min(SETUP_TICKETS_KEEP if setup else CHOOSE_TICKETS_KEEP, len(offer))
    kept = [t for t in keep if t in offer]
    offered = count(len(offer), "ticket")
    if not kept:
        return rule, _("tick the tickets you keep: at least {need} of the {offered}").format(
            need=need, offered=offered)
    if len(kept) < need:
        more = need - len(kept)
        return rule, ngettext("keep at least {need} of the {offered}: tick {n} more ticket",
                              "keep at least {need} of the {offered}: tick {n} more tickets",
                              more).format(need=need, offered=offered, n=more)
    if share is None:
        return rule, _("choose the ticket you share with your teammate (one of those you keep)")
    if share not in kept:
        return rule, _("the shared ticket ({share}) must be one of the tickets you keep: tick "
                       "it, or choose another to share").format(share=share)
    return None


def share_problem(picked: Sequence[str]) -> tuple[str, str] | None:
    """``(rule, what is missing)`` of a T4 share of private tickets, ``None`` when it is whole."""
    if not picked:
        return "T4", _("tick the private tickets you share with your teammate: 1 or {most} of "
                       "them").format(most=SHARE_MOST)
    if len(picked) > SHARE_MOST:
        over = len(picked) - SHARE_MOST
        return "T4", ngettext("share 1 or {most} tickets in one turn, not more: untick {n} ticket",
                              "share 1 or {most} tickets in one turn, not more: untick {n} "
                              "tickets", over).format(most=SHARE_MOST, n=over)
    return None


#: What a seat must finish before anything else, per pending phase: ``(rule, words)``. The
#: engine refuses an action out of its phase in these words ("Placing a drawn card is not
#: possible now: first ..."), and the widgets say them before sending one (a class server
#: names only the field of such an action).
FINISH_FIRST = {
    Phase.SETUP_TICKETS: ("T1", "first choose your setup tickets: keep at least "
                                f"{SETUP_TICKETS_KEEP} and share 1"),
    Phase.TURN: ("C2", "choose one thing to do this turn: draw cards, claim a route, draw "
                       "tickets or share tickets"),
    Phase.PLACE_CARD: ("D1", "first say where the card you drew goes: your hand or the team "
                             "cardholder"),
    Phase.SECOND_CARD: ("D1", "first draw your second card, from a face-up slot or the deck"),
    Phase.CHOOSE_TICKETS: ("T2", "first choose which of the tickets you drew to keep"),
    Phase.TUNNEL: ("U3", "first pay the tunnel's extra cards or take your cards back"),
    Phase.OVER: ("E1", "the game is over: nothing more can be played"),
}

#: An action's name in a refusal ("Drawing a train card is not possible now: ...").
ACTION_WORDS = {
    act.KeepTickets: "Keeping tickets", act.DrawCard: "Drawing a train card",
    act.PlaceCard: "Placing a drawn card", act.Claim: "Claiming a route",
    act.PayTunnel: "Paying a tunnel's extra cards", act.Withdraw: "Taking tunnel cards back",
    act.DrawTickets: "Drawing tickets", act.ShareTickets: "Sharing tickets", act.Pass: "Passing",
}

#: What the seat to move is doing, on the projected board (named before it: "A1 (Team A) ...").
DOING = {
    Phase.SETUP_TICKETS: "chooses setup tickets (T1)",
    Phase.TURN: "takes a turn",
    Phase.PLACE_CARD: "places the card just drawn (D1)",
    Phase.SECOND_CARD: "draws a second card (D1)",
    Phase.CHOOSE_TICKETS: "chooses among drawn tickets (T2)",
    Phase.TUNNEL: "pays the tunnel's extra cards or takes the cards back (U2, U3)",
}
