"""The log in words: one sentence per event (``ttrlib.events``), as every seat reads it.

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
from .i18n import SOURCE_LANGUAGE, _, language, ngettext, number
from .seats import seat_name, team_name
from .state import END_TRIGGER_TRAINS, FACE_UP, SETUP_TICKETS_DEALT, STARTING_HAND
from .words import city, colour_word, number_word


def text(event: ev.Event, seat: int | None = None, *, reveal: bool = True) -> str:
    """The sentence for ``event``, the same for every reader (every event is public, I1), in the
    reader's language (``ttrlib.i18n``). ``reveal=False`` tells a tunnel attempt with its
    revealed cards still face down (U1). ``seat`` is not read: it stays only for the callers
    that still pass their reader."""
    if not reveal and isinstance(event, ev.TunnelTried):
        return _("{who} lays down {cards} for the tunnel {a} - {b}; its cards are turned up one "
                 "by one... (U1)").format(who=_who(event), cards=event.cards.describe(),
                                          **_route(event))
    return _WORDS[type(event)](event)


def lines(events: Iterable[ev.Event], seat: int | None = None) -> list[str]:
    """The sentences of several events, in order (``seat``: as in ``text``, not read)."""
    return [text(e) for e in events]


# One whole sentence per event and case, never joined from fragments (a translation needs the
# whole sentence: Russian words change with their place in it). A seat acts in the present tense.
def _who(e: ev.Event) -> str:
    """The name of the seat that acted (every event worded this way has one)."""
    assert e.seat is not None, e
    return seat_name(e.seat)


def _route(e: Any) -> dict[str, str]:
    return {"a": city(e.a), "b": city(e.b)}


def _draw(e: ev.Draw) -> str:
    who = _who(e)
    if e.step is ev.DrawStep.LOCOMOTIVE:
        return _("{who} takes the face-up locomotive; it goes to the team cardholder and ends "
                 "the draw (D2)").format(who=who)
    if e.step is ev.DrawStep.NONE:
        return _("no second card can be drawn, so the draw ends (D4)")
    if e.step is ev.DrawStep.SECOND:
        if e.slot is None:
            said = (_("{who} draws the second card from the deck; it goes to their hand (D1)")
                    if e.to is Place.HAND else
                    _("{who} draws the second card from the deck; it goes to the team "
                      "cardholder (D1)"))
        else:
            said = (_("{who} draws the second card from face-up slot {slot}; it goes to their "
                      "hand (D1)") if e.to is Place.HAND else
                    _("{who} draws the second card from face-up slot {slot}; it goes to the team "
                      "cardholder (D1)"))
        return said.format(who=who, slot=e.slot)
    if e.slot is None:
        return _("{who} draws a card from the deck").format(who=who)
    return _("{who} draws a card from face-up slot {slot}").format(who=who, slot=e.slot)


def _tunnel(e: ev.TunnelTried) -> str:
    if not e.revealed:
        return ngettext("{who} tries the tunnel {a} - {b}: revealed nothing (no cards left, U6); "
                        "{n} extra card owed (U1, U2)",
                        "{who} tries the tunnel {a} - {b}: revealed nothing (no cards left, U6); "
                        "{n} extra cards owed (U1, U2)", e.extra).format(
            who=_who(e), n=e.extra, **_route(e))
    return ngettext("{who} tries the tunnel {a} - {b}: revealed {cards}; {n} extra card owed "
                    "(U1, U2)",
                    "{who} tries the tunnel {a} - {b}: revealed {cards}; {n} extra cards owed "
                    "(U1, U2)", e.extra).format(
        who=_who(e), n=e.extra, cards=", ".join(colour_word(c) for c in e.revealed),
        **_route(e))


def _reset(e: ev.Reset) -> str:
    # English says the count in a word, as the rule does ("five new cards"); another language
    # in figures (its number words agree with the noun)
    count = number_word(FACE_UP) if language() == SOURCE_LANGUAGE else number(FACE_UP)
    return _("three face-up locomotives: the row is discarded and {count} new cards are turned "
             "up (C5)").format(count=count)


_WORDS: dict[type[ev.Event], Callable[[Any], str]] = {
    ev.Setup: lambda e: ngettext(
        "{players} player; each is dealt {hand} train cards and {tickets} tickets",
        "{players} players; each is dealt {hand} train cards and {tickets} tickets",
        e.players).format(players=e.players, hand=STARTING_HAND, tickets=SETUP_TICKETS_DEALT),
    ev.Reshuffle: lambda e: ngettext(
        "the draw pile is empty: {n} discarded card shuffled into a new draw pile (C6)",
        "the draw pile is empty: {n} discarded cards shuffled into a new draw pile (C6)",
        e.count).format(n=e.count),
    ev.NoReset: lambda e: _("three face-up locomotives stay: the cards left could never make a "
                            "row with fewer, so there is no reset (C5 policy)"),
    ev.Reset: _reset,
    ev.Draw: _draw,
    ev.Placed: lambda e: (_("{who} puts the first card in their hand (D1)") if e.to is Place.HAND
                          else _("{who} puts the first card in the team cardholder (D1)")
                          ).format(who=_who(e)),
    ev.TicketsPlaced: lambda e: _("{team} places its 2 shared tickets (T1)").format(
        team=team_name(e.team)),
    ev.TicketsDrawn: lambda e: ngettext("{who} draws {n} ticket", "{who} draws {n} tickets",
                                        e.count).format(who=_who(e), n=e.count),
    ev.TicketsKept: lambda e: ngettext(
        "{who} keeps {n} ticket, shares 1, returns {returned} (T2, T3)",
        "{who} keeps {n} tickets, shares 1, returns {returned} (T2, T3)",
        e.kept).format(who=_who(e), n=e.kept, returned=e.returned),
    ev.TicketsShared: lambda e: ngettext("{who} shares {n} ticket (T4)",
                                         "{who} shares {n} tickets (T4)",
                                         e.count).format(who=_who(e), n=e.count),
    ev.TunnelTried: _tunnel,
    ev.Claimed: lambda e: _("{who} claims {a} - {b} with {cards}").format(
        who=_who(e), cards=e.cards.describe(), **_route(e)),
    ev.Withdrew: lambda e: _("{who} takes the cards back from {a} - {b}; the revealed cards are "
                             "discarded (U3, U4)").format(who=_who(e), **_route(e)),
    ev.Passed: lambda e: _("{who} has no legal action and passes").format(who=_who(e)),
    ev.FinalRound: lambda e: ngettext(
        "{team} has {n} or fewer trains: every player gets one final turn (E1)",
        "{team} has {n} or fewer trains: every player gets one final turn (E1)",
        END_TRIGGER_TRAINS).format(team=team_name(e.team), n=END_TRIGGER_TRAINS),
    ev.Over: lambda e: _("the game is over"),
}
