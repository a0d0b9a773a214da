"""SeatSession, the one way a widget reaches the game (issue 10 item 3, rule I1)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ttrlib import Game, Phase
from ttrlib import actions as act
from ttrlib.cards import CardCounts
from ttrlib.errors import WrongPhase
from ttrlib.session import SeatSession

WIDGETS = Path(__file__).resolve().parents[1] / "ttrlib" / "widgets"


def test_widgets_never_touch_the_game_itself():
    """The grep of the issue: no widget module reads ``self.game`` / ``session.game`` /
    ``session._game``, the whole event log (``game.events``) or another seat's view."""
    bad = re.compile(r"self\.game\b|session\.game\b|\._game\b|\bgame\.events\b|"
                     r"game\.view\((?!0\)\.board)|(?<!session)\.legal_actions\(|\.bots\[")
    hits = []
    for path in sorted(WIDGETS.glob("*.py")):
        if path.name == "exercise.py":  # the coordinator's, and it holds no game
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if bad.search(line):
                hits.append(f"{path.name}:{n}: {line.strip()}")
    assert hits == [], "\n".join(hits)


def position() -> Game:
    """A1 holds T01-T03, A2 holds T04 (private), B1 T07, B2 T08; A shares T05, B T06."""
    return Game.from_position(
        seed=2, tickets=[["T01", "T02", "T03"], ["T04"], ["T07"], ["T08"]],
        team_tickets=[["T05"], ["T06"]],
        hands=[CardCounts(red=5, blue=1, locomotive=2), CardCounts(green=2, white=2),
               CardCounts(black=2, yellow=2), CardCounts(orange=3, purple=1)],
        cardholders=[CardCounts(red=2, blue=2, locomotive=1), CardCounts(white=2)],
        face_up=["green", "purple", "white", "orange", "black"])


def test_legal_actions_only_on_the_seats_move_and_apply_refuses_other_turns():
    game = position()
    a1, a2 = SeatSession(game, 0), SeatSession(game, 1)
    assert a1.legal_actions() and a2.legal_actions() == []
    before = game.to_json()
    with pytest.raises(WrongPhase) as exc:
        a2.apply(act.DrawCard("deck"))
    assert exc.value.rule == "C2" and "A1's move" in exc.value.reason
    assert game.to_json() == before  # nothing changed
    news = a1.apply(act.DrawCard("deck"))
    assert [e.kind for e in news] == ["draw"] and a1.events() == a1.view().events


def test_scores_count_other_seats_private_tickets_only_at_the_end():
    game = position()
    s = SeatSession(game, 0)
    seen = {t.ticket for sheet in s.scores() for t in sheet.tickets}
    # A1 reads its own T01-T03 and the team's T05; A2's T04 and team B's are not scored yet
    assert seen == {"T01", "T02", "T03", "T05"}
    game.phase = Phase.OVER  # (set by hand: the end of the game, E1)
    seen = {t.ticket for sheet in s.scores() for t in sheet.tickets}
    assert seen == {"T01", "T02", "T03", "T04", "T05", "T06", "T07", "T08"}


def test_bots_play_the_other_seats_from_their_own_views():
    s = SeatSession.new(seed=11)
    assert s.view().phase is Phase.SETUP_TICKETS and s.my_turn
    offer = s.view().ticket_offer
    s.apply(act.KeepTickets(offer[:3], offer[0]))
    s.play_setup()
    assert s.view().phase is Phase.TURN  # A2, B1, B2 chose (T1)
    s.apply(act.DrawCard("deck"))
    s.apply(act.PlaceCard("hand"))
    s.apply(act.DrawCard("deck"))
    steps = s.play_others()
    assert steps >= 3 and s.my_turn
    turns = s.turns
    s.bot_plays_my_turn()
    assert s.turns == turns + 1


def test_new_game_deals_with_the_sessions_deal():
    """``deal`` receives the deal's seed, a keyed function of the number (not the number)."""
    got = []

    def deal(seed):
        got.append(seed)
        return Game.new(players=6, seed=seed)

    s = SeatSession.new(seed=5, deal=deal)
    assert s.view().players == 6 and s.seed == 5 and got[0] not in (5, None)
    assert s.new_game(77) == 77 and s.game.to_json() == Game.new(players=6, seed=got[1]).to_json()
    assert got[1] not in (5, 77, got[0]) and len(s.bots) == 6
    assert s.new_game() is None and s.game_name.startswith("random game ") and len(got) == 3
