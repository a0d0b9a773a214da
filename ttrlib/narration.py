"""The log in English: one sentence per event (``ttrlib.events``), as every seat reads it.

The rules produce facts; this module words them. Every event in the log is public (I1), so
every seat reads the same sentence, with one exception decided here: a tunnel attempt whose
revealed cards a screen still shows face down is told without them (``reveal=False``).

>>> from ttrlib.events import Passed, Reshuffle
>>> text(Passed(seat=2))
'B1 has no legal action and passes'
>>> text(Reshuffle(count=1))
'the draw pile is empty: 1 discarded card shuffled into a new draw pile (C6)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from . import events as ev
from .cards import Place
from .seats import seat_name, team_name
from .state import END_TRIGGER_TRAINS, FACE_UP, SETUP_TICKETS_DEALT, STARTING_HAND
from .words import number_word, plural


def text(event: ev.Event, seat: int | None = None, *, reveal: bool = True) -> str:
    """The sentence for ``event``, the same for every reader (every event is public, I1).
    ``reveal=False`` tells a tunnel attempt with its revealed cards still face down (U1).
    ``seat`` is not read: it stays only for the callers that still pass their reader."""
    if not reveal and isinstance(event, ev.TunnelTried):
        return (f"{_who(event)} lays down {event.cards.describe()} for the tunnel "
                f"{event.a} - {event.b}; its cards are turned up one by one... (U1)")
    return _WORDS[type(event)](event)


def lines(events: Iterable[ev.Event], seat: int | None = None) -> list[str]:
    """The sentences of several events, in order (``seat``: as in ``text``, not read)."""
    return [text(e) for e in events]


def _who(e: ev.Event) -> str:
    """The name of the seat that acted (every event worded this way has one)."""
    assert e.seat is not None, e
    return seat_name(e.seat)


def _where(slot: int | None) -> str:
    return "the deck" if slot is None else f"face-up slot {slot}"


def _place(to: Place | None) -> str:
    return "their hand" if to is Place.HAND else "the team cardholder"


def _draw(e: ev.Draw) -> str:
    who = _who(e)
    if e.step is ev.DrawStep.LOCOMOTIVE:
        return (f"{who} takes the face-up locomotive; it goes to the team cardholder and ends "
                "the draw (D2)")
    if e.step is ev.DrawStep.NONE:
        return "no second card can be drawn, so the draw ends (D4)"
    if e.step is ev.DrawStep.SECOND:
        return f"{who} draws the second card from {_where(e.slot)}; it goes to {_place(e.to)} (D1)"
    return f"{who} draws a card from {_where(e.slot)}"


def _tunnel(e: ev.TunnelTried) -> str:
    shown = ", ".join(c.value for c in e.revealed) or "nothing (no cards left, U6)"
    return (f"{_who(e)} tries the tunnel {e.a} - {e.b}: revealed {shown}; "
            f"{plural(e.extra, 'extra card')} owed (U1, U2)")


_WORDS: dict[type[ev.Event], Callable[[Any], str]] = {
    ev.Setup: lambda e: (f"{e.players} players; each is dealt {STARTING_HAND} train cards and "
                         f"{SETUP_TICKETS_DEALT} tickets"),
    ev.Reshuffle: lambda e: (f"the draw pile is empty: {plural(e.count, 'discarded card')} "
                             "shuffled into a new draw pile (C6)"),
    ev.NoReset: lambda e: ("three face-up locomotives stay: the cards left could never make a "
                           "row with fewer, so there is no reset (C5 policy)"),
    ev.Reset: lambda e: ("three face-up locomotives: the row is discarded and "
                         f"{number_word(FACE_UP)} new cards are turned up (C5)"),
    ev.Draw: _draw,
    ev.Placed: lambda e: f"{seat_name(e.seat)} puts the first card in {_place(e.to)} (D1)",
    ev.TicketsPlaced: lambda e: f"{team_name(e.team)} places its 2 shared tickets (T1)",
    ev.TicketsDrawn: lambda e: f"{seat_name(e.seat)} draws {plural(e.count, 'ticket')}",
    ev.TicketsKept: lambda e: (f"{seat_name(e.seat)} keeps {plural(e.kept, 'ticket')}, shares "
                               f"1, returns {e.returned} (T2, T3)"),
    ev.TicketsShared: lambda e: f"{seat_name(e.seat)} shares {plural(e.count, 'ticket')} (T4)",
    ev.TunnelTried: _tunnel,
    ev.Claimed: lambda e: f"{seat_name(e.seat)} claims {e.a} - {e.b} with {e.cards.describe()}",
    ev.Withdrew: lambda e: (f"{seat_name(e.seat)} takes the cards back from {e.a} - {e.b}; the "
                            "revealed cards are discarded (U3, U4)"),
    ev.Passed: lambda e: f"{seat_name(e.seat)} has no legal action and passes",
    ev.FinalRound: lambda e: (f"{team_name(e.team)} has {END_TRIGGER_TRAINS} or fewer trains: "
                              "every player gets one final turn (E1)"),
    ev.Over: lambda e: "the game is over",
}
