"""Seeded fuzzing: 200 random full games (4 and 6 players mixed) with illegal actions mixed in.

For every game:

* on about 10% of the steps an illegal action is generated (a random claim with random cards,
  a draw from slot 7 / "x" / an empty slot, ``PlaceCard("floor")``, unknown tickets, a tunnel
  payment of the wrong size, sharing 3 tickets, actions of the wrong phase, ``Pass`` while other
  actions exist, things that are not actions at all); a generated action that happens to be in
  ``legal_actions()`` is skipped. Each must raise ``IllegalMove`` and change nothing
  (``to_json()`` before and after);
* after every action the invariants hold (``_check_invariants``), and on some steps an
  independent recount of the 110 cards (C1) and the tickets from public attributes, and a
  save/load round trip;
* every game ends (E1 or every seat passing), and the score sheets add up: total = route points
  (E2 over the owned routes) + ticket points (E3, recomputed here) + bonuses (E4, E5), ranks by
  E6.

Ten independent seeds x 20 games each, so pytest-xdist can spread them.
"""

from __future__ import annotations

from collections import Counter, deque

import numpy as np
import pytest

from ttrlib import CardCounts, Game, IllegalMove
from ttrlib import actions as act
from ttrlib.cards import COLORS, Color
from ttrlib.game import Phase

SEEDS = range(10)
GAMES_PER_SEED = 20
ILLEGAL_RATE = 0.10
MAX_ACTIONS = 20_000

E2_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21}
DECK = {**{c: 12 for c in COLORS if c is not Color.LOCOMOTIVE}, Color.LOCOMOTIVE: 14}  # C1


# --------------------------------------------------------------------------------------------------
# illegal actions
# --------------------------------------------------------------------------------------------------


def random_cards(rng) -> CardCounts:
    colours = rng.choice(len(COLORS), size=int(rng.integers(1, 3)), replace=False)
    return CardCounts({COLORS[int(i)]: int(rng.integers(0, 6)) for i in colours})


def bad_claim(game, rng):
    if rng.random() < 0.1:
        return act.Claim("atlantis-elsewhere", random_cards(rng))
    route = game.board.routes[int(rng.integers(len(game.board.routes)))]
    return act.Claim(route.id, random_cards(rng), random_cards(rng) if rng.random() < 0.5 else None)


def bad_draw(game, rng):
    sources = [7, 5, -1, "x", None, "Deck"]
    sources += [i for i, c in enumerate(game.face_up) if c is None]  # empty slots
    if game.phase is Phase.SECOND_CARD:  # D3: no face-up locomotive as the second card
        sources += [i for i, c in enumerate(game.face_up) if c is Color.LOCOMOTIVE] * 3
    if game.phase is not Phase.TURN and game.phase is not Phase.SECOND_CARD:
        sources += ["deck", 0, 1]  # the wrong phase
    return act.DrawCard(sources[int(rng.integers(len(sources)))])


def bad_place(game, rng):
    return act.PlaceCard("floor" if rng.random() < 0.5 else ("hand", "cardholder")[int(rng.integers(2))])


def bad_keep(game, rng):
    offer = game.ticket_offer()
    kind = int(rng.integers(4))
    if kind == 0 or not offer:
        return act.KeepTickets(["T98", "T99"], share="T99")  # unknown ids
    if kind == 1:
        return act.KeepTickets(offer, share="T99")  # shares a ticket it does not keep
    if kind == 2:
        return act.KeepTickets([], share=offer[0])  # keeps too few (T1: 3, T2: 1)
    return act.KeepTickets(offer[:2] + ["T99"], share=offer[0])


def bad_pay(game, rng):
    t = game.tunnel
    if t is None:
        return act.PayTunnel(CardCounts(locomotive=1))  # no tunnel is pending
    n = t.extra + (1 if rng.random() < 0.5 else -1)
    return act.PayTunnel(CardCounts(locomotive=max(n, 0)))  # the wrong amount


def bad_share(game, rng):
    mine = game.tickets[game.to_move]
    if len(mine) >= 3 and rng.random() < 0.6:
        return act.ShareTickets(mine[:3])  # T4: at most 2
    mate = game.tickets[game.to_move ^ 1]
    if mate and rng.random() < 0.5:
        return act.ShareTickets(mate[:1])  # not among your own tickets
    return act.ShareTickets(["T97", "T98", "T99"])


def wrong_phase(game, rng):
    options = [act.Withdraw(), act.DrawTickets(), act.Pass(), act.PlaceCard("hand"),
               act.PayTunnel(), act.ShareTickets([]), act.KeepTickets(["T01"], "T01")]
    return options[int(rng.integers(len(options)))]


def not_an_action(game, rng):
    return [None, "claim kabul-kashgar", 42, ("deck",)][int(rng.integers(4))]


MAKERS = [bad_claim, bad_claim, bad_draw, bad_draw, bad_place, bad_keep, bad_pay, bad_share,
          wrong_phase, wrong_phase, lambda g, r: act.Pass(), not_an_action]


def illegal_action(game, legal, rng):
    for _ in range(5):
        candidate = MAKERS[int(rng.integers(len(MAKERS)))](game, rng)
        try:
            if candidate in legal:
                continue
        except TypeError:  # unhashable or incomparable: certainly not a legal action
            pass
        return candidate
    return None


# --------------------------------------------------------------------------------------------------
# independent checks
# --------------------------------------------------------------------------------------------------


def recount(game: Game) -> None:
    """C1: the 110 cards, counted from the public attributes; tickets each in one place."""
    count: Counter = Counter(game.draw_pile)
    count.update(game.discard)
    count.update(c for c in game.face_up if c is not None)
    for cards in list(game.hands) + list(game.holders):
        count.update(cards.elements())
    if game.drawn_card is not None:
        count[game.drawn_card] += 1
    if game.tunnel is not None:
        count.update(game.tunnel.laid.elements())
        count.update(game.tunnel.revealed)
    assert dict(count) == DECK
    ids = list(game.ticket_deck)
    for lists in (game.tickets, game.team_tickets, game.offers):
        for ts in lists:
            ids += ts
    assert Counter(ids) == Counter(t.id for t in game.board.tickets)
    assert all(0 <= t <= 27 for t in game.trains)


def joined(edges, a, b) -> bool:
    adj: dict[str, list[str]] = {}
    for u, v in edges:
        adj.setdefault(u, []).append(v)
        adj.setdefault(v, []).append(u)
    seen, todo = {a}, deque([a])
    while todo:
        city = todo.popleft()
        if city == b:
            return True
        for nxt in adj.get(city, []):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def check_scores(game: Game) -> None:
    board, teams = game.board, game.players // 2
    sheets = {s.team: s for s in game.scores()}
    assert sorted(sheets) == list(range(teams))
    best_path = max(s.longest_path for s in sheets.values())
    best_done = max(s.completed for s in sheets.values())
    for team, s in sheets.items():
        routes = [board.route(r) for r, seat in game.owners.items() if seat // 2 == team]
        assert s.route_points == sum(E2_POINTS[r.length] for r in routes)  # E2
        edges = [(r.a, r.b) for r in routes]
        private = [t for seat in (2 * team, 2 * team + 1) for t in game.tickets[seat]]
        shared = list(game.team_tickets[team])
        assert sorted(t.ticket for t in s.tickets) == sorted(private + shared)  # E3
        ticket_points = 0
        for res in s.tickets:
            ticket = board.ticket(res.ticket)
            done = joined(edges, ticket.a, ticket.b)
            assert res.completed == done
            assert res.shared == (res.ticket in shared)
            ticket_points += ticket.points if done else -ticket.points
        assert s.ticket_points == ticket_points
        assert s.completed == sum(r.completed for r in s.tickets)
        if routes:
            assert max(r.length for r in routes) <= s.longest_path <= sum(r.length for r in routes)
        else:
            assert s.longest_path == 0
        if best_path > 0:  # E4: ties all score
            assert s.asian_express == (10 if s.longest_path == best_path else 0)
        if best_done > 0:  # E5: ties all score
            assert s.globetrotter == (10 if s.completed == best_done else 0)
        assert s.total == s.route_points + ticket_points + s.asian_express + s.globetrotter
    key = {t: (s.total, s.completed, s.longest_path) for t, s in sheets.items()}  # E6
    for t, s in sheets.items():
        assert s.rank == 1 + sum(k > key[t] for k in key.values())


# --------------------------------------------------------------------------------------------------
# the fuzz loop
# --------------------------------------------------------------------------------------------------


def fuzz_game(game: Game, rng) -> int:
    """Play ``game`` to the end at random with illegal actions mixed in; returns how many
    illegal actions were tried."""
    tried = 0
    for step in range(MAX_ACTIONS):
        if game.is_over:
            break
        legal = game.legal_actions()
        assert legal, f"no legal action in phase {game.phase} (the policy is to Pass)"
        if rng.random() < ILLEGAL_RATE:
            bad = illegal_action(game, legal, rng)
            if bad is not None:
                before = game.to_json()
                with pytest.raises(IllegalMove):
                    game.apply(bad)
                assert game.to_json() == before, f"{bad!r} was rejected but changed the game"
                tried += 1
        if step % 25 == 0:
            assert len(set(legal)) == len(legal)
        game.apply(legal[int(rng.integers(len(legal)))])
        game._check_invariants()
        if step % 10 == 0:
            recount(game)
        if step % 97 == 0:
            text = game.to_json()
            assert Game.from_json(text).to_json() == text
    assert game.is_over, f"the game did not end within {MAX_ACTIONS} actions"
    assert game.legal_actions() == []
    low = min(game.team_trains(t) for t in range(game.players // 2))
    assert low <= 4 or game.passes_in_a_row >= game.players  # E1 or the pass policy
    recount(game)
    check_scores(game)
    return tried


@pytest.mark.parametrize("seed", SEEDS)
def test_fuzz_games(seed):
    rng = np.random.default_rng([2024, seed])
    tried = 0
    kinds = Counter()
    for g in range(GAMES_PER_SEED):
        players = 4 if (g + seed) % 2 == 0 else 6
        kinds[players] += 1
        game = Game.new(players=players, seed=int(rng.integers(2**31)))
        tried += fuzz_game(game, rng)
    assert kinds[4] == kinds[6] == GAMES_PER_SEED // 2
    assert tried > 20 * GAMES_PER_SEED  # illegal actions really were tried
