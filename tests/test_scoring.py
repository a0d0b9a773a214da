"""End of game and scoring: rules E1-E6, the pass policy, and the longest continuous path.

Every expected number below is worked out by hand from the rules text
(shared/rules/team-asia.md), never copied from ttrlib's output:

* E1  the end trigger and the final round (``game.is_over``);
* E2  route points by length;
* E3  tickets, private and shared, scored over BOTH teammates' routes;
* E4  Asian Express (longest continuous path, ties all score);
* E5  Globetrotter (most completed tickets, ties all score);
* E6  ranking: points, then completed tickets, then the longest path;
* policy: a seat with no legal action passes; every seat passing in a row ends the game;
* ``longest_trail`` against two independent brute forces (each route at most once, cities may
  be revisited), on hand-made graphs and on hypothesis-generated multigraphs, each of its exact
  methods on its own; on hard graphs of 24-70 routes against values argued by hand.

Positions are built with ``Game.from_position`` on small boards made with ``board_from_dict``
(or on the teaching board).
"""

from __future__ import annotations

import random
from itertools import permutations
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from quick_profile import examples
from test_network import AUDIT_STARS, no_integer_program, star

from ttrlib import CardCounts, Game, IllegalMove, standard_deck
from ttrlib import actions as act
from ttrlib.board import board_from_dict, teaching_board
from ttrlib.game import Phase
from ttrlib.rules import network
from ttrlib.rules.scoring import longest_trail

# E2, typed in from the rules text (not imported from ttrlib).
E2_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}
BONUS = 10  # E4 and E5


# --------------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------------


def make_board(routes, tickets, name="scoring test board"):
    """A board from ``(id, a, b, length[, colour])`` routes and ``(id, a, b, points)`` tickets."""
    cities: list[str] = []
    for entry in list(routes) + list(tickets):
        for city in entry[1:3]:
            if city not in cities:
                cities.append(city)
    return board_from_dict({
        "name": name,
        "cities": cities,
        "routes": [{"id": r[0], "a": r[1], "b": r[2], "length": r[3],
                    "color": r[4] if len(r) > 4 else "gray"} for r in routes],
        "tickets": [{"id": t[0], "a": t[1], "b": t[2], "points": t[3]} for t in tickets],
    })


def sheet(game: Game, team: int):
    rows = {s.team: s for s in game.scores()}
    assert sorted(rows) == list(range(game.players // 2))
    return rows[team]


def draw_two(game: Game) -> None:
    """One whole turn of drawing two blind cards (D1): deck, place in hand, deck."""
    game.apply(act.DrawCard("deck"))
    assert game.phase is Phase.PLACE_CARD
    game.apply(act.PlaceCard("hand"))
    assert game.phase is Phase.SECOND_CARD
    game.apply(act.DrawCard("deck"))


# --------------------------------------------------------------------------------------------------
# E1: the end trigger and the final round
# --------------------------------------------------------------------------------------------------

# Long routes to "use up" trains (seats own them from the start), and short gray routes to play.
E1_LONG = [(f"long{i}", f"N{i}", f"N{i + 1}", 8) for i in range(18)]
E1_SHORT = [(f"short{i}", f"M{i}", f"M{i + 1}", 1) for i in range(8)]
E1_BOARD = make_board(E1_LONG + E1_SHORT, [("T1", "N0", "N1", 5)], name="E1 board")


def e1_position(extra_short: dict[str, int], *, players: int = 4, to_move: int = 0) -> Game:
    """Every seat owns three 8-long routes (3 trains left); ``extra_short`` gives short routes
    (1 train each) already owned. Every seat holds 2 red cards to claim short routes."""
    claimed = {f"long{3 * s + i}": s for s in range(players) for i in range(3)}
    claimed.update(extra_short)
    return Game.from_position(players=players, board=E1_BOARD, claimed=claimed,
                              hands=[CardCounts(red=2)] * players, to_move=to_move)


def test_E1_trigger_gives_every_player_one_final_turn_including_the_trigger():
    # Team A: seat 0 has 3 trains, seat 1 has 2 (it owns short0): 5 in all, no trigger yet.
    game = e1_position({"short0": 1})
    assert [game.team_trains(t) for t in range(2)] == [5, 6]
    assert not game.view(0).final_round
    game.apply(act.Claim("short1", CardCounts(red=1)))  # seat 0: team A down to 4 -> E1
    assert game.team_trains(0) == 4
    assert not game.is_over
    assert game.view(1).final_round and game.view(3).final_round
    played = []
    while not game.is_over:
        played.append(game.to_move)
        draw_two(game)
    # A final turn for every player, the one who triggered it (seat 0) included, in seat order.
    assert played == [1, 2, 3, 0]
    assert game.phase is Phase.OVER
    assert game.legal_actions() == []
    with pytest.raises(IllegalMove):
        game.apply(act.DrawCard("deck"))


def test_E1_five_trains_do_not_trigger_and_four_do_at_the_end_of_that_turn():
    # Team A holds 6 trains (3 + 3): seat 0 claims one route -> 5 left, still no final round.
    game = e1_position({})
    game.apply(act.Claim("short0", CardCounts(red=1)))
    assert game.team_trains(0) == 5
    assert not game.view(0).final_round
    for _ in range(3):  # seats 1, 2, 3 draw
        draw_two(game)
    assert game.to_move == 0 and not game.is_over and not game.view(0).final_round
    draw_two(game)  # seat 0
    assert game.to_move == 1
    game.apply(act.Claim("short1", CardCounts(red=1)))  # seat 1: team A now at 4 -> E1
    assert game.view(2).final_round
    played = []
    while not game.is_over:
        played.append(game.to_move)
        draw_two(game)
    assert played == [2, 3, 0, 1]


def test_E1_a_second_team_reaching_four_does_not_extend_the_final_round():
    game = e1_position({"short0": 1, "short1": 3})  # both teams at 5
    game.apply(act.Claim("short2", CardCounts(red=1)))  # seat 0: team A -> 4, final round
    draw_two(game)  # seat 1
    assert game.to_move == 2
    game.apply(act.Claim("short3", CardCounts(red=1)))  # seat 2: team B -> 4 as well
    assert game.team_trains(1) == 4
    played = []
    while not game.is_over:
        played.append(game.to_move)
        draw_two(game)
    assert played == [3, 0]  # the round started by seat 0 simply finishes


def test_E1_already_at_four_triggers_at_the_end_of_the_first_turn():
    # A position that starts with team A at 4 trains: the trigger is checked "at the end of a
    # player's turn", so seat 0's turn is played, then every seat (seat 0 again) gets one more.
    game = e1_position({"short0": 1, "short1": 0})
    assert game.team_trains(0) == 4
    assert not game.view(0).final_round
    played = []
    while not game.is_over:
        played.append(game.to_move)
        draw_two(game)
    assert played == [0, 1, 2, 3, 0]


def test_E1_another_team_already_at_four_triggers_at_the_end_of_the_first_turn():
    # The same with the low team not the mover's: team B (seats 2, 3) starts at 4 trains and
    # seat 0 (team A) plays the first turn; E1 is checked at the end of every turn, so this
    # one ends with the final round announced, and every seat gets one more turn. (The engine
    # checks only the mover's team after the first turn: this test goes red without the
    # first-turn check of every team.)
    game = e1_position({"short0": 2, "short1": 3})
    assert [game.team_trains(t) for t in range(2)] == [6, 4]
    played = []
    while not game.is_over:
        played.append(game.to_move)
        draw_two(game)
    assert played == [0, 1, 2, 3, 0]


def test_E1_six_players_trigger_by_the_last_team():
    game = e1_position({"short0": 5}, players=6, to_move=4)  # team C at 5, seat 4 to move
    game.apply(act.Claim("short1", CardCounts(red=1)))
    assert game.team_trains(2) == 4
    played = []
    while not game.is_over:
        played.append(game.to_move)
        draw_two(game)
    assert played == [5, 0, 1, 2, 3, 4]


def test_E1_a_multi_step_turn_counts_once_and_the_final_turn_may_be_any_action():
    game = e1_position({"short0": 1, "short1": 2})
    game.apply(act.Claim("short2", CardCounts(red=1)))  # seat 0 triggers
    game.apply(act.DrawCard("deck"))  # seat 1: first card
    assert game.phase is Phase.PLACE_CARD and not game.is_over
    game.apply(act.PlaceCard("cardholder"))
    game.apply(act.DrawCard("deck"))  # seat 1's turn ends here
    assert game.to_move == 2
    game.apply(act.Claim("short3", CardCounts(red=1)))  # seat 2
    game.apply(act.DrawTickets())  # seat 3 draws tickets: two decisions, one turn
    assert game.phase is Phase.CHOOSE_TICKETS and not game.is_over
    offer = game.ticket_offer()
    game.apply(act.KeepTickets(offer[:1], share=offer[0]))
    assert game.to_move == 0 and not game.is_over
    game.apply(act.Claim("short4", CardCounts(red=1)))  # seat 0, its final turn
    assert game.is_over


# --------------------------------------------------------------------------------------------------
# Pass policy: a seat with no legal action passes; every seat passing in a row ends the game
# --------------------------------------------------------------------------------------------------

EMPTY_ = CardCounts()

PASS_BOARD = make_board(
    [("r0", "P0", "P1", 3), ("r1", "P1", "P2", 3), ("r2", "P2", "P3", 3), ("r3", "P3", "P4", 3)],
    [("T1", "P0", "P4", 9), ("T2", "P0", "P2", 5), ("T3", "P1", "P3", 5)],
    name="pass board",
)


def stuck_position(private: list[list[str]] | None = None) -> Game:
    """Every route claimed, no card to draw anywhere (all 110 in hands and cardholders), the
    ticket deck empty. Only private tickets could still be shared (T4)."""
    deck = standard_deck()
    half = CardCounts({c: n // 2 for c, n in deck.items()})
    private = private or [[], [], [], []]
    placed = {t for ts in private for t in ts}
    shared = [[t for t in ("T1", "T2", "T3") if t not in placed], []]
    return Game.from_position(
        board=PASS_BOARD,
        claimed={"r0": 0, "r1": 1, "r2": 2, "r3": 3},
        hands=[half, EMPTY_, deck - half, EMPTY_],
        face_up=[None] * 5, draw_pile=[], discard=EMPTY_,
        tickets=private, team_tickets=shared, ticket_deck=[],
    )


def test_pass_is_the_only_legal_action_when_nothing_else_is_possible():
    game = stuck_position()
    assert game.legal_actions() == [act.Pass()]


def test_every_seat_passing_in_a_row_ends_the_game():
    game = stuck_position()
    for seat in range(4):
        assert not game.is_over
        assert game.to_move == seat
        assert game.legal_actions() == [act.Pass()]
        game.apply(act.Pass())
    assert game.is_over
    assert game.legal_actions() == []


def test_a_real_turn_between_passes_restarts_the_count():
    game = stuck_position([[], [], ["T2"], []])  # seat 2 can still share a ticket (T4)
    game.apply(act.Pass())  # seat 0
    game.apply(act.Pass())  # seat 1
    assert act.Pass() not in game.legal_actions()
    game.apply(act.ShareTickets(["T2"]))  # seat 2: a real turn
    game.apply(act.Pass())  # seat 3
    game.apply(act.Pass())  # seat 0: 4 passes since the game began, but only 2 in a row
    assert not game.is_over
    game.apply(act.Pass())  # seat 1
    assert not game.is_over
    game.apply(act.Pass())  # seat 2: 4 in a row
    assert game.is_over


def test_pass_is_illegal_when_another_action_exists_and_changes_nothing():
    game = stuck_position([[], [], ["T2"], []])
    game.apply(act.Pass())
    game.apply(act.Pass())
    before = game.to_json()
    with pytest.raises(IllegalMove):
        game.apply(act.Pass())  # seat 2 could share T2
    assert game.to_json() == before

    fresh = Game.new(players=4, seed=11)
    for _ in range(4):
        offer = fresh.ticket_offer()
        fresh.apply(act.KeepTickets(offer[:3], share=offer[0]))
    assert fresh.phase is Phase.TURN
    assert act.Pass() not in fresh.legal_actions()
    before = fresh.to_json()
    with pytest.raises(IllegalMove):
        fresh.apply(act.Pass())
    assert fresh.to_json() == before


def test_a_pass_during_the_final_round_is_a_final_turn():
    # Every route is claimed and team A starts at 2 + 2 = 4 trains (E1). Only seat 1 has a real
    # action (sharing T2, T4). Seat 0 passes: the final round starts. Seats 1 (shares), 2, 3 and 0
    # (pass) play their final turns and the game ends by E1, with only 3 passes in a row.
    board = make_board([("a", "X0", "X1", 8), ("b", "X1", "X2", 8), ("c", "X2", "X3", 8),
                        ("d", "X3", "X4", 1), ("e", "X4", "X5", 8), ("f", "X5", "X6", 8),
                        ("g", "X6", "X7", 8), ("h", "X7", "X8", 1)],
                       [("T1", "X0", "X8", 5), ("T2", "X0", "X4", 5)])
    claimed = {"a": 0, "b": 0, "c": 0, "d": 0, "e": 1, "f": 1, "g": 1, "h": 1}
    game = Game.from_position(board=board, claimed=claimed, face_up=[None] * 5,
                              draw_pile=[], discard=EMPTY_,
                              cardholders=[EMPTY_, standard_deck()],
                              tickets=[[], ["T2"], [], []], team_tickets=[["T1"], []],
                              ticket_deck=[])
    assert game.team_trains(0) == 4
    played = []
    while not game.is_over:
        played.append(game.to_move)
        legal = game.legal_actions()
        game.apply(legal[0])
        assert len(played) <= 5
    assert played == [0, 1, 2, 3, 0]
    assert game.passes_in_a_row == 3


# --------------------------------------------------------------------------------------------------
# E2: route points by length
# --------------------------------------------------------------------------------------------------

E2_BOARD = make_board(
    [(f"len{n}", f"L{n}a", f"L{n}b", n) for n in range(1, 9)],
    [("T1", "L1a", "L1b", 3)],
    name="E2 board",
)


@pytest.mark.parametrize("length", range(1, 9))
def test_E2_one_route_of_each_length(length):
    game = Game.from_position(board=E2_BOARD, claimed={f"len{length}": 1})
    assert sheet(game, 0).route_points == E2_POINTS[length]
    assert sheet(game, 1).route_points == 0


def test_E2_route_points_add_over_both_teammates():
    # Seat 0: 8 + 7 + 6 + 5 = 26 trains; seat 1: 4 + 3 + 2 + 1 = 10 trains (C3: 27 each).
    claimed = {f"len{n}": 0 for n in (8, 7, 6, 5)} | {f"len{n}": 1 for n in (4, 3, 2, 1)}
    game = Game.from_position(board=E2_BOARD, claimed=claimed)
    assert sheet(game, 0).route_points == 21 + 18 + 15 + 10 + 7 + 4 + 2 + 1  # 78
    assert sheet(game, 1).route_points == 0


def test_E2_each_team_scores_its_own_routes_six_players():
    claimed = {"len8": 0, "len1": 1, "len6": 2, "len3": 3, "len2": 5, "len4": 5}
    game = Game.from_position(players=6, board=E2_BOARD, claimed=claimed)
    assert [sheet(game, t).route_points for t in range(3)] == [21 + 1, 15 + 4, 2 + 7]


def test_E2_on_the_teaching_board():
    # kabul-karachi (5, purple), kashgar-lanchow (8), delhi-kathmandu (3, tunnel),
    # calcutta-dacca-1 (1): 10 + 21 + 4 + 1.
    claimed = {"kabul-karachi": 0, "kashgar-lanchow": 1, "delhi-kathmandu": 1,
               "calcutta-dacca-1": 0, "harbin-ulanbator": 2}
    game = Game.from_position(claimed=claimed)
    assert sheet(game, 0).route_points == 36
    assert sheet(game, 1).route_points == 15


# --------------------------------------------------------------------------------------------------
# E3: tickets, private and shared, over both teammates' routes
# --------------------------------------------------------------------------------------------------

E3_BOARD = make_board(
    [("ab", "A", "B", 2), ("bc", "B", "C", 3), ("cd", "C", "D", 1), ("de", "D", "E", 4),
     ("ef", "E", "F", 2)],
    [("AC", "A", "C", 7), ("AB", "A", "B", 3), ("CD", "C", "D", 5), ("DC", "D", "C", 6),
     ("DE", "D", "E", 4), ("AF", "A", "F", 11), ("EF", "E", "F", 2)],
    name="E3 board",
)


def test_E3_private_and_shared_tickets_over_both_teammates_routes():
    game = Game.from_position(
        board=E3_BOARD,
        claimed={"ab": 0, "bc": 1, "cd": 2, "ef": 3},
        # AC needs ab (seat 0) AND bc (seat 1); seat 1's AB is joined by seat 0's route only.
        tickets=[["AC"], ["AB"], ["DE"], []],
        # CD is joined only by team B's route cd: it fails for team A. DC: team B, by seat 2.
        team_tickets=[["CD"], ["DC"]],
    )
    a, b = sheet(game, 0), sheet(game, 1)
    res_a = {t.ticket: t for t in a.tickets}
    assert set(res_a) == {"AC", "AB", "CD"}
    assert res_a["AC"].completed and res_a["AB"].completed and not res_a["CD"].completed
    assert res_a["CD"].shared and not res_a["AC"].shared and not res_a["AB"].shared
    assert a.ticket_points == 7 + 3 - 5
    assert a.completed == 2
    res_b = {t.ticket: t for t in b.tickets}
    assert set(res_b) == {"DE", "DC"}
    assert res_b["DC"].completed and not res_b["DE"].completed  # de is owned by nobody
    assert b.ticket_points == 6 - 4
    assert b.completed == 1


def test_E3_a_ticket_joined_across_a_chain_of_both_players_routes():
    # A - B - C - D - E - F alternating owners within team A: every link is needed.
    game = Game.from_position(
        board=E3_BOARD,
        claimed={"ab": 0, "bc": 1, "cd": 0, "de": 1, "ef": 0},
        tickets=[[], ["AF"], [], []], team_tickets=[["EF"], []],
    )
    a = sheet(game, 0)
    assert a.ticket_points == 11 + 2 and a.completed == 2


def test_E3_a_missing_link_fails_the_ticket_and_tickets_in_the_deck_do_not_score():
    game = Game.from_position(
        board=E3_BOARD,
        claimed={"ab": 0, "bc": 1, "de": 1, "ef": 0},  # cd is missing
        tickets=[["AF"], [], [], []], team_tickets=[[], []],
    )
    a, b = sheet(game, 0), sheet(game, 1)
    assert a.ticket_points == -11 and a.completed == 0
    assert b.tickets == () and b.ticket_points == 0  # team B holds no ticket


def test_E3_totals_on_the_teaching_board():
    # Team A: karachi-lahore (4 orange, seat 0) + delhi-lahore-1 (2 red, seat 1) join Karachi
    # and Delhi: T09 (6) held privately by seat 1 scores; T05 Kabul - Delhi (5), shared, fails.
    # Team B: kabul-rawalpindi (2) + lahore-rawalpindi-1 (1) join Kabul and Lahore but not
    # Kashgar: T10 Lahore - Kashgar (6), private to seat 3, fails.
    game = Game.from_position(
        claimed={"karachi-lahore": 0, "delhi-lahore-1": 1,
                 "kabul-rawalpindi": 2, "lahore-rawalpindi-1": 3},
        tickets=[[], ["T09"], [], ["T10"]], team_tickets=[["T05"], []],
    )
    a, b = sheet(game, 0), sheet(game, 1)
    assert a.route_points == 7 + 2 and a.ticket_points == 6 - 5
    assert b.route_points == 2 + 1 and b.ticket_points == -6
    # Paths: A 4 + 2 = 6 (Karachi - Lahore - Delhi), B 2 + 1 = 3: Asian Express to A only.
    # Globetrotter: A completed 1, B 0.
    assert a.total == 9 + 1 + BONUS + BONUS
    assert b.total == 3 - 6
    assert (a.rank, b.rank) == (1, 2)


# --------------------------------------------------------------------------------------------------
# E4: Asian Express
# --------------------------------------------------------------------------------------------------

E4_BOARD = make_board(
    [("xy", "X", "Y", 3), ("yz", "Y", "Z", 3), ("uv", "U", "V", 5), ("vw", "V", "W", 1),
     ("s1", "S", "S1", 3), ("s2", "S", "S2", 3), ("s3", "S", "S3", 3), ("q", "Q0", "Q1", 7),
     ("p", "P0", "P1", 2), ("p2", "P1", "P2", 4)],
    [("T1", "X", "Z", 4)],
    name="E4 board",
)


def test_E4_the_path_joins_both_teammates_routes():
    # Team A: xy (seat 0) + yz (seat 1) = one path of 6. Team B: uv (5). Each player alone
    # would have 3 < 5; the team's path is 6 > 5.
    game = Game.from_position(board=E4_BOARD, claimed={"xy": 0, "yz": 1, "uv": 2})
    a, b = sheet(game, 0), sheet(game, 1)
    assert (a.longest_path, b.longest_path) == (6, 5)
    assert (a.asian_express, b.asian_express) == (BONUS, 0)


def test_E4_ties_all_score():
    # Team A: xy + yz = 6; team B: uv + vw = 6 (seats 2 and 3).
    game = Game.from_position(board=E4_BOARD, claimed={"xy": 0, "yz": 1, "uv": 2, "vw": 3})
    a, b = sheet(game, 0), sheet(game, 1)
    assert a.longest_path == b.longest_path == 6
    assert a.asian_express == b.asian_express == BONUS


def test_E4_is_the_longest_path_not_the_total_length():
    # Team A: a star of three 3-long branches: 9 trains, but the longest path is 6.
    # Team B: one 7-long route. B wins the Asian Express.
    game = Game.from_position(board=E4_BOARD, claimed={"s1": 0, "s2": 0, "s3": 1, "q": 2})
    a, b = sheet(game, 0), sheet(game, 1)
    assert (a.longest_path, b.longest_path) == (6, 7)
    assert (a.asian_express, b.asian_express) == (0, BONUS)


def test_E4_six_players_two_teams_tie_the_third_does_not_score():
    game = Game.from_position(players=6, board=E4_BOARD,
                              claimed={"xy": 0, "yz": 1, "p": 2, "p2": 3, "uv": 4})
    rows = [sheet(game, t) for t in range(3)]
    assert [r.longest_path for r in rows] == [6, 6, 5]
    assert [r.asian_express for r in rows] == [BONUS, BONUS, 0]


# Parallel tracks: Hong Kong - Canton stays open with 4 players (K3, ``open_groups``), the
# Lhasa - Kathmandu double only with 6.
E4_PARALLEL_BOARD = board_from_dict({
    "name": "E4 parallel board",
    "cities": ["Hong Kong", "Canton", "Nanning", "Lhasa", "Kathmandu", "Delhi"],
    "open_groups": ["hk-canton"],
    "routes": [
        {"id": "hkc-1", "a": "Hong Kong", "b": "Canton", "length": 2, "color": "gray",
         "group": "hk-canton"},
        {"id": "hkc-2", "a": "Hong Kong", "b": "Canton", "length": 2, "color": "gray",
         "group": "hk-canton"},
        {"id": "canton-nanning", "a": "Canton", "b": "Nanning", "length": 3, "color": "gray"},
        {"id": "lk-1", "a": "Lhasa", "b": "Kathmandu", "length": 4, "color": "gray",
         "group": "lhasa-kathmandu"},
        {"id": "lk-2", "a": "Lhasa", "b": "Kathmandu", "length": 4, "color": "gray",
         "group": "lhasa-kathmandu"},
        {"id": "kathmandu-delhi", "a": "Kathmandu", "b": "Delhi", "length": 1, "color": "gray"},
    ],
    "tickets": [{"id": "T1", "a": "Hong Kong", "b": "Nanning", "points": 4}],
})


def test_E4_policy_teammates_parallel_hong_kong_canton_tracks_both_count():
    """E4 policy, 4 players: A1 owns one Hong Kong - Canton track and Canton - Nanning; A2 claims
    the parallel track (K3 leaves it open). The path Nanning - Canton - Hong Kong - Canton uses
    each track once: 3 + 2 + 2 = 7 (by hand), where one track alone gives 3 + 2 = 5."""
    game = Game.from_position(board=E4_PARALLEL_BOARD, claimed={"hkc-1": 0, "canton-nanning": 0},
                              hands=[CardCounts(), CardCounts(red=2), CardCounts(), CardCounts()],
                              to_move=1)
    assert sheet(game, 0).longest_path == 5
    game.apply(act.Claim("hkc-2", hand=CardCounts(red=2)))
    assert game.owners["hkc-2"] == 1
    assert sheet(game, 0).longest_path == 7
    assert sheet(game, 0).asian_express == BONUS


def test_E4_policy_six_players_any_double_route_both_tracks_count():
    """6 players: every double is open (K3); teammates on both Lhasa - Kathmandu tracks have the
    path Delhi - Kathmandu - Lhasa - Kathmandu: 1 + 4 + 4 = 9 (by hand). Team B, owning one
    track and the Delhi link, has 5; team C, both tracks split between opponents, none."""
    claimed = {"lk-1": 0, "lk-2": 1, "kathmandu-delhi": 0, "hkc-1": 2, "canton-nanning": 3}
    game = Game.from_position(players=6, board=E4_PARALLEL_BOARD, claimed=claimed)
    rows = [sheet(game, t) for t in range(3)]
    assert [r.longest_path for r in rows] == [9, 5, 0]
    assert [r.asian_express for r in rows] == [BONUS, 0, 0]


def test_E4_policy_parallel_tracks_in_longest_trail_are_two_edges():
    assert longest_trail([("A", "B", 4), ("A", "B", 4)]) == 8
    assert longest_trail([("A", "B", 4), ("A", "B", 4), ("A", "B", 1)]) == 9


# --------------------------------------------------------------------------------------------------
# E5: Globetrotter
# --------------------------------------------------------------------------------------------------

E5_BOARD = make_board(
    [("ab", "A", "B", 1), ("bc", "B", "C", 1), ("cd", "C", "D", 1), ("de", "D", "E", 1),
     ("ef", "E", "F", 1), ("fg", "F", "G", 1)],
    [("AB", "A", "B", 2), ("BC", "B", "C", 2), ("AC", "A", "C", 2), ("CD", "C", "D", 2),
     ("DE", "D", "E", 2), ("EF", "E", "F", 2), ("FG", "F", "G", 2), ("AG", "A", "G", 20)],
    name="E5 board",
)


def test_E5_most_completed_tickets_private_and_shared_count():
    # Team A completes AB (private, seat 0), BC (private, seat 1) and AC (shared): 3.
    # Team B completes DE (private) and EF (shared) and fails AG (20): 2.
    game = Game.from_position(
        board=E5_BOARD, claimed={"ab": 0, "bc": 1, "de": 2, "ef": 3},
        tickets=[["AB"], ["BC"], ["DE"], ["AG"]], team_tickets=[["AC"], ["EF"]],
    )
    a, b = sheet(game, 0), sheet(game, 1)
    assert (a.completed, b.completed) == (3, 2)
    assert (a.globetrotter, b.globetrotter) == (BONUS, 0)


def test_E5_failed_tickets_do_not_count_and_ties_all_score():
    # Team A: 2 completed + 1 failed; team B: 2 completed. Holding more tickets is not enough.
    game = Game.from_position(
        board=E5_BOARD, claimed={"ab": 0, "bc": 1, "de": 2, "ef": 3},
        tickets=[["AB", "FG"], ["BC"], ["DE"], []], team_tickets=[[], ["EF"]],
    )
    a, b = sheet(game, 0), sheet(game, 1)
    assert (a.completed, b.completed) == (2, 2)
    assert a.globetrotter == b.globetrotter == BONUS
    # Routes 2 each; path 2 each (tie: both Asian Express).
    assert a.total == 2 + (2 + 2 - 2) + BONUS + BONUS
    assert b.total == 2 + (2 + 2) + BONUS + BONUS


def test_E5_six_players_ties_all_score():
    game = Game.from_position(
        players=6, board=E5_BOARD,
        claimed={"ab": 0, "bc": 1, "cd": 2, "de": 3, "fg": 4},
        tickets=[["AB"], ["BC"], ["CD"], ["DE"], ["FG"], []],
        team_tickets=[[], [], ["EF"]],  # team C fails EF
    )
    rows = [sheet(game, t) for t in range(3)]
    assert [r.completed for r in rows] == [2, 2, 1]
    assert [r.globetrotter for r in rows] == [BONUS, BONUS, 0]


# --------------------------------------------------------------------------------------------------
# E6: ranking tie-breaks
# --------------------------------------------------------------------------------------------------

E6A_BOARD = make_board(
    [("a12", "a1", "a2", 2), ("a23", "a2", "a3", 2), ("b12", "b1", "b2", 4)],
    [("TA1", "a1", "a2", 3), ("TA2", "a2", "a3", 3), ("TB1", "b1", "b2", 13)],
    name="E6 board A",
)


@pytest.mark.parametrize("mirror", [False, True], ids=["A-has-more-tickets", "B-has-more-tickets"])
def test_E6_equal_points_more_completed_tickets_wins(mirror):
    # The "two tickets" side: routes 2 + 2 = 4, tickets 3 + 3, path 4, 2 completed.
    # The "one ticket" side: route 7 (length 4), ticket 13, path 4, 1 completed.
    # Both paths are 4: both get the Asian Express; Globetrotter to the two-ticket side only.
    # Two-ticket side: 4 + 6 + 10 + 10 = 30. One-ticket side: 7 + 13 + 10 = 30.
    two, one = (1, 0) if mirror else (0, 1)
    claimed = {"a12": 2 * two, "a23": 2 * two + 1, "b12": 2 * one}
    tickets = [[], [], [], []]
    tickets[2 * two], tickets[2 * two + 1], tickets[2 * one] = ["TA1"], ["TA2"], ["TB1"]
    game = Game.from_position(board=E6A_BOARD, claimed=claimed, tickets=tickets)
    s_two, s_one = sheet(game, two), sheet(game, one)
    assert s_two.total == s_one.total == 30
    assert (s_two.completed, s_one.completed) == (2, 1)
    assert (s_two.rank, s_one.rank) == (1, 2)


E6B_BOARD = make_board(
    [("a12", "a1", "a2", 1), ("a23", "a2", "a3", 1), ("a34", "a3", "a4", 1),
     ("a45", "a4", "a5", 1), ("b12", "b1", "b2", 3)],
    [("TA", "a1", "a5", 5), ("TB", "b1", "b2", 15)],
    name="E6 board B",
)


@pytest.mark.parametrize("mirror", [False, True], ids=["A-longer", "B-longer"])
def test_E6_equal_points_and_tickets_longest_path_wins(mirror):
    # The "long" side: four 1-long routes (4 points, path 4), ticket 5, Asian Express 10,
    # Globetrotter 10 (1 ticket each: tie) = 29. The "short" side: one 3-long route (4 points,
    # path 3), ticket 15, Globetrotter 10 = 29.
    long_, short = (1, 0) if mirror else (0, 1)
    claimed = {"a12": 2 * long_, "a23": 2 * long_ + 1, "a34": 2 * long_, "a45": 2 * long_ + 1,
               "b12": 2 * short + 1}
    tickets = [[], [], [], []]
    tickets[2 * long_], tickets[2 * short] = ["TA"], ["TB"]
    game = Game.from_position(board=E6B_BOARD, claimed=claimed, tickets=tickets)
    s_long, s_short = sheet(game, long_), sheet(game, short)
    assert s_long.total == s_short.total == 29
    assert s_long.completed == s_short.completed == 1
    assert (s_long.longest_path, s_short.longest_path) == (4, 3)
    assert (s_long.rank, s_short.rank) == (1, 2)


E6D_BOARD = make_board(
    [("x12", "x1", "x2", 1), ("x34", "x3", "x4", 1), ("y12", "y1", "y2", 2)],
    [("X1", "x1", "x2", 3), ("X2", "x3", "x4", 3), ("Y1", "y1", "y2", 6)],
    name="E6 board D",
)


@pytest.mark.parametrize("mirror", [False, True], ids=["A-more-tickets", "B-more-tickets"])
def test_E6_completed_tickets_come_before_the_longest_path(mirror):
    # The "tickets" side: two separate 1-long routes (2 points, path 1), X1 + X2 (6), 2 tickets:
    # Globetrotter: 2 + 6 + 10 = 18. The "path" side: one 2-long route (2 points, path 2: Asian
    # Express), Y1 (6), 1 ticket: 2 + 6 + 10 = 18. Points tie; tickets decide before the path.
    tix, path = (1, 0) if mirror else (0, 1)
    claimed = {"x12": 2 * tix, "x34": 2 * tix + 1, "y12": 2 * path}
    tickets = [[], [], [], []]
    tickets[2 * tix], tickets[2 * tix + 1], tickets[2 * path + 1] = ["X1"], ["X2"], ["Y1"]
    game = Game.from_position(board=E6D_BOARD, claimed=claimed, tickets=tickets)
    s_tix, s_path = sheet(game, tix), sheet(game, path)
    assert s_tix.total == s_path.total == 18
    assert (s_tix.completed, s_path.completed) == (2, 1)
    assert (s_tix.longest_path, s_path.longest_path) == (1, 2)
    assert (s_tix.rank, s_path.rank) == (1, 2)


E6C_BOARD = make_board(
    [("big", "Z1", "Z2", 8)] + [(f"c{i}", f"C{i}", f"C{i + 1}", 1) for i in range(9)],
    [("TZ", "Z1", "Z2", 30), ("TC1", "C0", "C1", 1), ("TC2", "C1", "C2", 1)],
    name="E6 board C",
)


def test_E6_points_come_before_tickets_and_path():
    # Team A: one 8-long route (21) and ticket TZ (30): 51, 1 ticket, path 8.
    # Team B: nine 1-long routes in a line (9), TC1 + TC2 (2), path 9: Asian Express, and 2
    # tickets: Globetrotter: 9 + 2 + 10 + 10 = 31. B leads on tickets and path; A on points.
    claimed = {"big": 0} | {f"c{i}": 2 + i % 2 for i in range(9)}
    game = Game.from_position(board=E6C_BOARD, claimed=claimed,
                              tickets=[["TZ"], [], ["TC1"], ["TC2"]])
    a, b = sheet(game, 0), sheet(game, 1)
    assert (a.total, b.total) == (51, 31)
    assert (a.completed, b.completed) == (1, 2)
    assert (a.longest_path, b.longest_path) == (8, 9)
    assert (a.rank, b.rank) == (1, 2)


def test_E6_a_complete_tie_shares_the_first_rank():
    board = make_board([("a", "A1", "A2", 3), ("b", "B1", "B2", 3), ("c", "C1", "C2", 2)],
                       [("TA", "A1", "A2", 6), ("TB", "B1", "B2", 6), ("TC", "C1", "C2", 6)])
    game = Game.from_position(players=6, board=board, claimed={"a": 0, "b": 3, "c": 4},
                              tickets=[["TA"], [], [], ["TB"], [], ["TC"]])
    rows = [sheet(game, t) for t in range(3)]
    # A and B: 4 + 6 + 10 + 10 = 30 each, 1 ticket, path 3. C: 2 + 6 + 10 = 18.
    assert [r.total for r in rows] == [30, 30, 18]
    assert rows[0].rank == rows[1].rank == 1
    assert rows[2].rank > 1


# --------------------------------------------------------------------------------------------------
# longest_trail: each route at most once, cities may be revisited (E4)
# --------------------------------------------------------------------------------------------------
#
# Two independent brute forces: every sequence of distinct routes that forms a walk (the rule's
# own words, for up to 7 routes), and every subset of routes that is connected with at most two
# odd cities (Euler's theorem, for up to 11). The first checks the second on small graphs. Each
# exact method of network.py (bounded search, degree-2 joining, integer program) is checked
# against them on its own, so a fast path cannot hide a slow path's mistake.


def brute_force_longest(edges: list[tuple[str, str, int]]) -> int:
    """Try every sequence of distinct edges and keep those that form a walk."""
    best = 0
    n = len(edges)
    for k in range(1, n + 1):
        for seq in permutations(range(n), k):
            a, b, w = edges[seq[0]]
            here = {a, b}  # the walk may start at either end of its first edge
            total = w
            for i in seq[1:]:
                u, v, w = edges[i]
                nxt = ({v} if u in here else set()) | ({u} if v in here else set())
                if not nxt:
                    break
                here, total = nxt, total + w
            else:
                best = max(best, total)
    return best


def is_trail_set(edges) -> bool:
    """Connected, and at most two cities meet an odd number of the edges (a loop counts twice)."""
    degree: dict[str, int] = {}
    group = {}

    def root(city):
        while group.setdefault(city, city) != city:
            city = group[city]
        return city

    for a, b, _ in edges:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
        group[root(a)] = root(b)
    return sum(d % 2 for d in degree.values()) <= 2 and len({root(c) for c in degree}) <= 1


def subset_brute_force_longest(edges) -> int:
    """The heaviest subset of edges that one walk can cover (Euler): 2**len(edges) subsets."""
    n = len(edges)
    assert n <= 14, "keep the brute force small"
    best = 0
    for mask in range(1, 1 << n):
        chosen = [edges[i] for i in range(n) if mask >> i & 1]
        if is_trail_set(chosen):
            best = max(best, sum(w for _, _, w in chosen))
    return best


def walk_through(edges) -> list[str]:
    """A walk using every edge once (Hierholzer), or AssertionError: a certificate that the
    edges really form one continuous path."""
    if not edges:
        return []
    at: dict[str, list[int]] = {}
    for i, (a, b, _) in enumerate(edges):
        at.setdefault(a, []).append(i)
        at.setdefault(b, []).append(i)
    odd = [c for c, ids in at.items() if len(ids) % 2]
    assert len(odd) <= 2
    used = [False] * len(edges)
    stack, walk = [odd[0] if odd else edges[0][0]], []
    while stack:
        city = stack[-1]
        while at[city] and used[at[city][-1]]:
            at[city].pop()
        if at[city]:
            i = at[city].pop()
            used[i] = True
            a, b, _ = edges[i]
            stack.append(b if a == city else a)
        else:
            walk.append(stack.pop())
    assert all(used), "the edges are not connected"
    return walk


def program(edges) -> int:
    """The integer program alone, without the closed forms and the search in front of it."""
    taken, length = network._program_trail(edges)
    assert length == sum(w for _, _, w in taken)
    return length


def search(edges) -> int:
    """The depth-first search alone, with no budget."""
    found = network._bounded_search(edges, 10**9)
    assert found is not None
    return found


HAND_MADE = {
    "empty": ([], 0),
    "one route": ([("a", "b", 4)], 4),
    "branch: the two longest arms": ([("a", "b", 2), ("b", "c", 3), ("b", "d", 1)], 5),
    "four arms of 1: only two usable": ([("c", "x", 1), ("c", "y", 1), ("c", "z", 1),
                                        ("c", "w", 1)], 2),
    "triangle with a tail: the loop is walked": ([("a", "b", 1), ("b", "c", 1), ("c", "a", 1),
                                                  ("c", "d", 5)], 8),
    # Tail ends are path ends, so two tails at most: f-b-a-c-d (4 + 1 + 1 + 5) beats the whole
    # triangle with one tail (3 + 5).
    "triangle with three tails: two tails, the long way round": (
        [("a", "b", 1), ("b", "c", 1), ("c", "a", 1), ("c", "d", 5), ("a", "e", 2),
         ("b", "f", 4)], 4 + 1 + 1 + 5),
    "figure eight: a city visited twice": ([("m", "a", 2), ("a", "b", 2), ("b", "m", 2),
                                            ("m", "c", 3), ("c", "d", 3), ("d", "m", 3)], 15),
    "parallel tracks used both": ([("a", "b", 2), ("a", "b", 2), ("b", "c", 1)], 5),
    # Four odd cities (a, b, c, d): one route stays unused; the lightest track costs least.
    "three parallel tracks and two spurs: the lightest track stays": (
        [("a", "b", 3), ("a", "b", 2), ("a", "b", 1), ("b", "c", 4), ("b", "d", 2)],
        3 + 2 + 4 + 2),
    "two components: the longer": ([("a", "b", 3), ("b", "c", 3), ("x", "y", 5)], 6),
    "two components: a star loses to a line": ([("s", "a", 3), ("s", "b", 3), ("s", "c", 3),
                                                ("x", "y", 4), ("y", "z", 3)], 7),
    "square with both diagonals": ([("a", "b", 1), ("b", "c", 1), ("c", "d", 1), ("d", "a", 1),
                                    ("a", "c", 1), ("b", "d", 1)], 5),
}


@pytest.mark.parametrize("edges, expected", HAND_MADE.values(), ids=HAND_MADE.keys())
def test_longest_trail_hand_made(edges, expected):
    assert brute_force_longest(edges) == expected  # the oracles agree with the reasoning
    assert subset_brute_force_longest(edges) == expected
    assert longest_trail(edges) == expected
    assert search(edges) == expected
    if edges:
        assert program(edges) == expected
        assert program(network._suppress_degree_two(edges)) == expected  # loops may appear


@st.composite
def multigraphs(draw, max_cities=5, max_edges=7):
    cities = [f"c{i}" for i in range(draw(st.integers(2, max_cities)))]
    edge = st.tuples(st.sampled_from(cities), st.sampled_from(cities), st.integers(1, 8))
    edges = draw(st.lists(edge.filter(lambda e: e[0] != e[1]), max_size=max_edges))
    return edges


@settings(max_examples=examples(150), deadline=None)
@given(multigraphs())
def test_longest_trail_matches_brute_force(edges):
    assert longest_trail(edges) == brute_force_longest(edges)


@settings(max_examples=examples(60), deadline=None)
@given(multigraphs(max_cities=3, max_edges=7))
def test_longest_trail_dense_multigraphs_match_brute_force(edges):
    # Few cities, many edges: lots of parallel tracks and loops.
    assert longest_trail(edges) == brute_force_longest(edges)


@settings(max_examples=examples(80), deadline=None)
@given(multigraphs(max_cities=6, max_edges=7))
def test_the_two_brute_forces_agree(edges):
    # Euler's theorem, which the subset brute force (and network.py) rely on, checked against
    # the walk-by-walk definition.
    assert subset_brute_force_longest(edges) == brute_force_longest(edges)


@settings(max_examples=examples(120), deadline=None)
@given(multigraphs(max_cities=7, max_edges=11))
def test_every_exact_method_matches_the_subset_brute_force(edges):
    expected = subset_brute_force_longest(edges)
    assert longest_trail(edges) == expected
    assert search(edges) == expected
    assert search(network._suppress_degree_two(edges)) == expected  # joining changes nothing
    if edges:
        taken, _ = network._program_trail(edges)
        walk_through(taken)  # the program's routes are one continuous path
        assert sum(w for _, _, w in taken) == expected


@settings(max_examples=examples(60), deadline=None)
@given(multigraphs(max_cities=4, max_edges=11))
def test_the_program_on_dense_multigraphs_matches_the_subset_brute_force(edges):
    if edges:
        assert program(edges) == subset_brute_force_longest(edges)


@settings(max_examples=examples(40), deadline=None)
@given(multigraphs(max_cities=6, max_edges=11))
def test_a_search_out_of_budget_hands_over_to_the_program(edges):
    network._longest_trail.cache_clear()
    try:
        with mock.patch.object(network, "SEARCH_BUDGET", 0):
            assert longest_trail(edges) == subset_brute_force_longest(edges)
    finally:
        network._longest_trail.cache_clear()  # no answer found under the patch outlives it


@settings(max_examples=examples(60), deadline=None)
@given(multigraphs(), st.randoms(use_true_random=False))
def test_longest_trail_ignores_edge_order_and_direction(edges, rnd):
    flipped = [(b, a, w) if rnd.random() < 0.5 else (a, b, w) for a, b, w in edges]
    rnd.shuffle(flipped)
    assert longest_trail(flipped) == longest_trail(edges)


def test_longest_trail_refuses_lengths_below_one():
    with pytest.raises(ValueError, match="positive"):
        longest_trail([("a", "b", 0)])


# Hard graphs, 36-70 routes: too big for a brute force, so each expected value is argued by hand.
# The bound used throughout: a path's routes leave at most two cities odd, and leaving out one
# route changes the parity of two cities, so with k odd cities at least (k - 2) / 2 routes stay
# unused. A path that leaves out exactly that many, found by hand, proves the bound is reached.


def unit(pairs):
    return [(f"c{a}", f"c{b}", 1) for a, b in pairs]


def cycle_with_chords(n: int, seed: int):
    """A cubic graph of n cities: a cycle through all of them (0, 1, ..., n-1 relabelled at
    random) plus a random perfect matching of chords (a chord may double a cycle route)."""
    rnd = random.Random(seed)
    order = list(range(n))
    rnd.shuffle(order)
    pairs = [(order[i], order[(i + 1) % n]) for i in range(n)]
    rest = list(range(n))
    rnd.shuffle(rest)
    pairs += [(rest[i], rest[i + 1]) for i in range(0, n, 2)]
    rnd.shuffle(pairs)
    return unit(pairs)


def grid(rows: int, cols: int):
    return [(f"{r},{c}", f"{r},{c + 1}", 1) for r in range(rows) for c in range(cols - 1)] + \
           [(f"{r},{c}", f"{r + 1},{c}", 1) for r in range(rows - 1) for c in range(cols)]


@pytest.mark.parametrize("seed", range(4))
def test_cubic_36_city_graphs_leave_out_17_routes(seed):
    # 36 odd cities -> at least 17 of the 54 routes unused; the 36-cycle plus one chord is a
    # path of 37 (two odd cities, the chord's ends).
    edges = cycle_with_chords(36, seed)
    assert len(edges) == 54
    assert program(edges) == 37
    assert longest_trail(edges) == 37


def test_the_36_city_mobius_ladder():
    # Rim 0..35 (a cycle through every city) and 18 rungs i - (i + 18): cubic, so 37 as above.
    edges = unit([(i, (i + 1) % 36) for i in range(36)] + [(i, i + 18) for i in range(18)])
    assert program(edges) == longest_trail(edges) == 37


@pytest.mark.parametrize("rows, cols, expected", [
    # 4 x 4: 24 routes, 8 odd cities (2 inside each side) -> at least 3 unused; dropping the
    # middle route of three sides pairs them up: 21.
    (4, 4, 21),
    # 6 x 5: 49 routes, 14 odd cities (4 inside each long side, 3 inside each short one) -> at
    # least 6 unused; dropping 2 routes on each long side and 1 on each short side pairs 12 of
    # them and keeps the grid joined: 43.
    (6, 5, 43),
])
def test_grids(rows, cols, expected):
    edges = grid(rows, cols)
    assert program(edges) == longest_trail(edges) == expected


def test_the_complete_graph_of_10_cities():
    # 45 routes, every city of degree 9 (odd): at least 4 unused; dropping 4 disjoint routes
    # leaves 2 odd cities and all joined: 41.
    edges = unit([(a, b) for a in range(10) for b in range(a + 1, 10)])
    assert program(edges) == longest_trail(edges) == 41


@pytest.mark.parametrize("seed", range(3))
def test_a_dense_10_city_multigraph_with_even_cities_is_walked_whole(seed):
    # K10, plus a perfect matching (every city even), plus 4 doubled routes (still even): 54
    # routes of random lengths, an Euler circuit. The program must find all of them.
    rnd = random.Random(seed)
    pairs = [(a, b) for a in range(10) for b in range(a + 1, 10)]
    pairs += [(2 * i, 2 * i + 1) for i in range(5)] + [rnd.choice(pairs) for _ in range(2)] * 2
    edges = [(f"c{a}", f"c{b}", rnd.randint(1, 8)) for a, b in pairs]
    assert len(edges) == 54
    assert program(edges) == sum(w for _, _, w in edges)


def test_the_teaching_board_fully_owned():
    # No hand count here: the program's routes are checked to be one walk, and the score must
    # not depend on the order the routes come in.
    board = teaching_board()
    edges = [(r.a, r.b, r.length) for r in board.routes]
    taken, _ = network._program_trail(edges)
    assert len(walk_through(taken)) == len(taken) + 1
    assert longest_trail(edges[::-1]) == sum(w for _, _, w in taken)


def test_E4_a_saved_game_on_a_grid_of_length_1_routes():
    # The case: a team owning dozens of 1-long routes (here all 49 of a 6 x 5 grid,
    # seats 0 and 1 take turns). Hand count as in test_grids: 43.
    edges = grid(6, 5)
    board = make_board([(f"g{i}", a, b, 1) for i, (a, b, _) in enumerate(edges)],
                       [("T1", "0,0", "5,4", 9)], name="grid board")
    claimed = {f"g{i}": i % 2 for i in range(len(edges))}
    game = Game.from_position(board=board, claimed=claimed)
    a, b = sheet(game, 0), sheet(game, 1)
    assert (a.longest_path, b.longest_path) == (43, 0)
    assert a.asian_express == BONUS
    game2 = Game.from_json(game.to_json())
    assert sheet(game2, 0).longest_path == 43


def test_E4_six_players_three_teams_each_owning_a_star_of_blocks():
    # Issue 18: a legal 6-player position in which each team owns one of the audit's stars of
    # blocks (53, 54 and 44 routes of length 1, alternating between the team's two seats, at
    # most 27 trains each) took 15 s of CPU to score. Hand count in tests/test_network.py
    # (AUDIT_STARS): 12, 22, 22; the two teams on 22 tie for the Asian Express. Scored without
    # the integer program (the block-cut tree needs none here); the speed is in the benchmark.
    routes, claimed = [], {}
    for team, (_, sizes, count, _) in enumerate(AUDIT_STARS):
        edges = star(sizes)
        assert len(edges) == count
        for i, (a, b, w) in enumerate(edges):
            routes.append((f"t{team}r{i}", f"t{team}.{a}", f"t{team}.{b}", w))
            claimed[f"t{team}r{i}"] = 2 * team + i % 2
    board = make_board(routes, [("T1", "t0.hub", "t0.b0.1", 5)], name="three stars")
    game = Game.from_position(players=6, board=board, claimed=claimed)
    assert game.trains == [0, 1, 0, 0, 5, 5]  # trains used: 27 + 26, 27 + 27, 22 + 22 (C3)
    with no_integer_program():
        rows = [sheet(game, t) for t in range(3)]
    assert [r.longest_path for r in rows] == [12, 22, 22]
    assert [r.asian_express for r in rows] == [0, BONUS, BONUS]


def test_the_longest_path_is_computed_once_per_set_of_routes():
    # The team game asks for the scores on every render: the second time, no search runs.
    game = Game.from_position(board=E4_BOARD, claimed={"s1": 0, "s2": 0, "s3": 1, "q": 2})
    network._longest_trail.cache_clear()
    first = game.scores()
    misses = network._longest_trail.cache_info().misses
    assert misses == 2  # one per team
    assert game.scores() == first
    assert network._longest_trail.cache_info().misses == misses
