"""Lesson 07's hand-written answer key, checked against the library (not taken from it)."""

from __future__ import annotations

from fractions import Fraction

from ttrlib import CardCounts, Game
from ttrlib import actions as act
from ttrlib.bots import GreedyBot
from ttrlib.experiments import PRESETS, GameResult, TournamentResult, _rows, tournament
from ttrlib.lessons.answers import judge, load_key

KEY = load_key("07")


def test_win_share():
    assert KEY["win-share"].answer == Fraction(58, 100)
    assert judge(KEY["win-share"], "58%").right and judge(KEY["win-share"], "0.58").right


def test_tunnel_threshold_decision_of_the_library_bot():
    game = Game.from_position(hands=[CardCounts(red=3), CardCounts(), CardCounts(), CardCounts()],
                              face_up=["white", "purple", "orange", "black", "yellow"],
                              draw_pile=["blue"] * 10, rest_to=3)
    view = game.view(0)
    assert len(view.unseen) == 102  # the key's count
    assert view.unseen["red"] + view.unseen["locomotive"] == 23
    claims = [c for c in game.legal_actions()
              if isinstance(c, act.Claim) and c.route == "kathmandu-lhasa-1"]
    bot = GreedyBot(seed=0, strategy=PRESETS["odds-aware"])
    tries = bool(bot._tunnel_filter(view, claims))
    assert tries is (KEY["tunnel-threshold"].answer.startswith("Yes"))


def test_interval_reading_of_the_library():
    # 24 wins of 40 games (60%): the library's words must agree with the key's "No".
    results = tuple(GameResult(i, (i % 2, 1 - i % 2),
                               (100, 90) if (i < 24) == (i % 2 == 0) else (90, 100),
                               (1, 2) if (i < 24) == (i % 2 == 0) else (2, 1))
                    for i in range(40))
    strategies = [PRESETS["odds-aware"], PRESETS["greedy"]]
    rows = _rows(strategies, results)
    assert (rows[0].wins, rows[0].games) == (24, 40)
    assert round(rows[0].win_ci.low, 2) == 0.45 and round(rows[0].win_ci.high, 2) == 0.74
    words = TournamentResult(4, 0, results, tuple(rows)).summary(0)
    assert "do not show" in words
    assert KEY["interval"].answer.startswith("No")


def test_seats_taken_in_turn():
    result = tournament([PRESETS["greedy"], PRESETS["ticket-sharer"]], games=4, seed=2,
                        executor="serial", progress=False)
    # Team A's strategy, game by game: the two take turns (counted by hand: 0, 1, 0, 1).
    assert [r.strategies[0] for r in result.results] == [0, 1, 0, 1]
    second_as_a = sum(r.strategies[0] == 1 for r in result.results)
    assert second_as_a * 200 // 4 == KEY["seats"].answer
