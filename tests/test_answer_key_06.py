"""Lesson 06 (play a team game): the library against the hand-written answer key, and the
lesson's helpers against the engine.

The key (``notebooks/answers/06-play-a-team-game.toml``) was worked out on paper; these tests
compute each answer with ttrlib from the lesson's fixed positions and assert it equals the key.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from ttrlib.bots import GreedyBot
from ttrlib.game import Phase, seat_name
from ttrlib.lessons import team_game as lesson
from ttrlib.lessons.answers import load_key
from ttrlib.rules.scoring import ROUTE_POINTS

KEY = load_key("06")


def test_route_points():
    game = lesson.ticket_position()
    route = game.board.route("kashgar-lhasa")
    assert route.length == 6
    assert Fraction(ROUTE_POINTS[route.length]) == KEY["route-points"].answer


def test_ticket_points():
    sheet = lesson.ticket_position().scores()[0]
    assert {t.ticket for t in sheet.tickets} == {"T12", "T07", "T21"}
    assert Fraction(sheet.ticket_points) == KEY["ticket-points"].answer


def test_who_plays_last():
    """Play the case through the engine: B1 claims, then bots play until the game is over; the
    seat of the last action is the one that played last."""
    game = lesson.last_turn_position()
    assert seat_name(game.to_move) == "B1"
    game.apply(lesson.last_turn_claim())
    assert any(e.kind == "final_round" for e in game.events)
    bots = [GreedyBot(seed=s) for s in range(game.players)]
    seats = []
    while game.phase is not Phase.OVER:
        seat = game.to_move
        seats.append(seat)
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    turns = [s for i, s in enumerate(seats) if i == 0 or seats[i - 1] != s]
    assert [seat_name(s) for s in turns] == ["B2", "A1", "A2", "B1"]
    assert seat_name(seats[-1]) == KEY["who-plays-last"].answer


def test_watched_game_and_its_tables():
    game, sheets, notes = lesson.watched_game(4)
    assert game.is_over and notes
    assert "(This does not match rule E1!)" not in lesson.final_round_html(game, notes)
    check = lesson.score_check_html(game, sheets)
    assert check.count("yes ✓") == game.teams and "NO ✗" not in check
    assert "wins" in lesson.ranking_html(sheets) or "tie" in lesson.ranking_html(sheets)


def test_resume_story_says_the_games_match_and_shows_no_json():
    story = lesson.resume_story(21, turns=12)
    assert "exactly the same, move for move" in story and "was refused" in story
    assert "{" not in story and '"players"' not in story


# Deals whose bot game once never ended (found by sampling 2,000 random deals: every seat retried
# the same tunnel it could not pay, the draw pile holding just the cards that cost it more).
STALLED_ROOTS = (114737707665363063858824242106125509253,
                 79489868811767120949435305230699781778,
                 179258024805682475161302639059822688064)


@pytest.mark.parametrize("root", STALLED_ROOTS)
def test_resume_story_of_a_deal_that_once_never_ended(root):
    """The lesson once failed with "the game did not end within 100000 actions" (CI, 7 Dec);
    these deals now end (``GreedyBot`` does not retry a tunnel it has just withdrawn from)."""
    from ttrlib.lessons.team_game import _resume_story

    story = _resume_story(root, 40)
    assert "were played to the end" in story and "ended exactly the same, move for move" in story
    assert "was refused" in story


def test_resume_story_of_a_game_that_does_not_end_in_the_moves_allowed(monkeypatch):
    """The guard: copies still going after ``RESUME_MOVES`` are compared, and the page says so."""
    from ttrlib.lessons import team_game

    monkeypatch.setattr(team_game, "RESUME_MOVES", 5)
    story = team_game._resume_story(STALLED_ROOTS[0], 40)
    assert "for 5 moves. Neither ended" in story
    assert "exactly the same, move for move" in story and "was refused" in story
