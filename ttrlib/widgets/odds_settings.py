"""The odds explorer's settings as a traitlets model: one tunnel reveal (U1, U2, U5, U6, C6) and
the deck's limits (C1), kept possible by ``@validate`` and by observers, without a page.

A validator clamps the number just set (it gives way); an observer then makes the other numbers
follow (a full draw pile follows N; K and the draw pile never exceed N; the matching cards in
the discard pile never exceed the pile). Each clamp adds a sentence to ``notes``, which the
explorer shows in its message line. None of these traits is synced to a page.
"""

from __future__ import annotations

from traitlets import Bool, HasTraits, Int, List, Unicode, observe, validate

from ..cards import DECK_SIZE, LOCOMOTIVES, CardCounts, Color, standard_deck
from ..chance import TunnelReveal

#: Matching cards a full deck holds (rule C1): one colour plus the locomotives, or the
#: locomotives alone for a claim paid with locomotives only (U5).
PER_COLOUR = standard_deck()[Color.RED]  # C1: every colour has as many cards
COLOUR_MATCHING = PER_COLOUR + LOCOMOTIVES
LOCO_MATCHING = LOCOMOTIVES
MAX_REVEAL = 8  # more than any tunnel turns (Team Asia: 4-6, Europe: 3; U1)
_FILLER = Color.BLUE  # the non-matching cards: any colour that matches neither red nor U5 claims


def matching_cap(locomotives_only: bool) -> int:
    """Most matching cards the deck holds for a kind of claim (C1): 26, or 14 under U5."""
    return LOCO_MATCHING if locomotives_only else COLOUR_MATCHING


class TunnelSettings(HasTraits):
    """``reveal`` n, ``unseen`` N, ``matching`` K, ``draw_pile``, ``discard``,
    ``discard_matching`` KD and ``locomotives_only`` (U5); ``notes`` says what was clamped."""

    reveal = Int(4)
    unseen = Int(DECK_SIZE)
    matching = Int(COLOUR_MATCHING)
    draw_pile = Int(DECK_SIZE)
    discard = Int(0)
    discard_matching = Int(0)
    locomotives_only = Bool(False)
    notes = List(Unicode())

    @property
    def cap(self) -> int:
        return matching_cap(self.locomotives_only)

    def _note(self, text: str) -> None:
        self.notes = [*self.notes, text]

    # --- the number just set gives way ---------------------------------------------------------
    @validate("reveal")
    def _reveal_in_range(self, proposal) -> int:
        return min(max(proposal["value"], 0), MAX_REVEAL)

    @validate("unseen")
    def _unseen_fits_the_deck(self, proposal) -> int:
        # unseen + discard <= 110: the discard pile is face up, so its cards are not unseen (C1)
        value = min(max(proposal["value"], 0), DECK_SIZE)
        if value + self.discard > DECK_SIZE:
            value = DECK_SIZE - self.discard
            self._note(f"The deck has {DECK_SIZE} cards (C1) and the {self.discard} in the "
                       f"discard pile are seen, so at most {value} cards can be unseen.")
        return value

    @validate("discard")
    def _discard_fits_the_deck(self, proposal) -> int:
        value = min(max(proposal["value"], 0), DECK_SIZE)
        if value + self.unseen > DECK_SIZE:
            value = DECK_SIZE - self.unseen
            self._note(f"The deck has {DECK_SIZE} cards (C1) and {self.unseen} of them are "
                       f"unseen, so the discard pile can hold at most {value}. Lower the unseen "
                       "cards N first.")
        return value

    @validate("draw_pile")
    def _pile_is_unseen_cards(self, proposal) -> int:
        value = max(proposal["value"], 0)
        if value > self.unseen:
            value = self.unseen
            self._note(f"The draw pile is made of unseen cards, so it holds at most "
                       f"N = {value}.")
        return value

    @validate("matching")
    def _matching_fits(self, proposal) -> int:
        value = max(proposal["value"], 0)
        if value > self.unseen:
            value = self.unseen
            self._note(f"The matching cards are among the unseen ones, so K is at most "
                       f"N = {value}.")
        if value + self.discard_matching > self.cap:
            value = self.cap - self.discard_matching
            self._note(f"The deck has only {self.cap} {self._what()} (C1) and "
                       f"{self.discard_matching} lie in the discard pile, so at most "
                       f"K = {value} can be unseen.")
        return value

    @validate("discard_matching")
    def _discard_matching_fits(self, proposal) -> int:
        value = max(proposal["value"], 0)
        if value > self.discard:
            value = self.discard
            self._note(f"The discard pile holds {value} cards, so at most {value} of them "
                       "can match.")
        if value + self.matching > self.cap:
            value = self.cap - self.matching
            self._note(f"The deck has only {self.cap} {self._what()} (C1) and {self.matching} "
                       f"are unseen, so at most {value} can lie in the discard pile.")
        return value

    def _what(self) -> str:
        return ("locomotives (U5)" if self.locomotives_only
                else "cards of one colour plus locomotives")

    # --- the others follow ------------------------------------------------------------------------
    @observe("unseen")
    def _follow_unseen(self, change) -> None:
        n = change["new"]
        if self.draw_pile == change["old"]:  # a full draw pile stays full
            self.draw_pile = n
        elif self.draw_pile > n:
            self.set_trait("draw_pile", n)
            self._note(f"The draw pile is made of unseen cards: it now holds all {n} of them.")
        if self.matching > n:
            self.matching = self.matching  # re-validated against the new N, with its note

    @observe("discard")
    def _follow_discard(self, change) -> None:
        if self.discard_matching > change["new"]:
            self.discard_matching = self.discard_matching

    @observe("locomotives_only")
    def _follow_the_kind_of_claim(self, change) -> None:
        before = self.matching, self.discard_matching
        old_cap = matching_cap(change["old"])
        # K at the fresh-deck count of the old kind of claim follows to the new kind's count
        if before[0] == min(old_cap - before[1], self.unseen):
            self.set_trait("matching", min(self.cap - self.discard_matching, self.unseen))
        elif self.matching + self.discard_matching > self.cap:
            self.set_trait("matching", self.cap - self.discard_matching)
        if self.discard_matching > self.cap:
            self.set_trait("discard_matching", self.cap)
            self.set_trait("matching", 0)
        if (self.matching, self.discard_matching) == before:
            return
        if self.locomotives_only:
            self._note(f"A locomotives-only claim is matched only by locomotives (U5), and the "
                       f"deck has {LOCO_MATCHING} (C1): K is now {self.matching}.")
        else:
            self._note(f"A colour claim is matched by its colour and by locomotives (U2): "
                       f"{PER_COLOUR} + {LOCOMOTIVES} = {COLOUR_MATCHING} in the deck (C1), so "
                       f"K is now {self.matching}.")

    # --- the chance node ------------------------------------------------------------------------
    def color(self) -> Color:
        return Color.LOCOMOTIVE if self.locomotives_only else Color.RED

    def tunnel(self) -> TunnelReveal:
        """The reveal the settings describe: the unseen pool and the discard pile hold ``K``
        and ``KD`` cards of the claim's colour (locomotives for a U5 claim) and the rest of a
        colour that matches neither claim; only those counts matter for the law."""
        c = self.color()
        pool = CardCounts({c: self.matching, _FILLER: self.unseen - self.matching})
        pile = CardCounts({c: self.discard_matching, _FILLER: self.discard - self.discard_matching})
        return TunnelReveal(pool, self.draw_pile, pile, c, self.reveal)
