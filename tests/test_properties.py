"""Property tests: random legal games keep every invariant, rejected actions change nothing.

Hypothesis draws a seed (and the board and the number of players); a ``random.Random`` seeded
with it plays legal actions. After every action:

* C1: the 110 train cards are all somewhere: draw pile, discard, face-up row, hands, cardholders,
  the card drawn and not yet placed, the laid and revealed cards of a pending tunnel
  (``game.total_cards()`` and an independent recount of the public attributes);
* C3: each player's 27 trains are in the supply or on the board;
* T1-T4: every ticket is in exactly one place;
* I1: known cards are really there, and the draw pile is part of every seat's unseen pool.

Between actions, random illegal actions (claims with random cards, draws at the wrong time,
unknown tickets, wrong tunnel payments, actions of the wrong phase, ...) must raise
``IllegalMove`` and leave a deep snapshot of the game unchanged; every action of
``legal_actions()`` tried (on a copy) must be accepted.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from quick_profile import examples

from ttrlib import actions as act
from ttrlib.board import board_from_dict
from ttrlib.cards import COLORS, CardCounts, Color, standard_deck
from ttrlib.errors import IllegalMove
from ttrlib.game import Game, Phase

_CITIES = ["Alma", "Bata", "Cora", "Dena", "Enna", "Fara", "Canton", "Hong Kong"]


def _r(rid, a, b, length, color, **kw):
    return {"id": rid, "a": a, "b": b, "length": length, "color": color, **kw}


# A crowded little board: every kind of track, few routes, so claims, K3 closures, tunnels and
# running out of cards and tickets all happen within a few hundred actions.
SMALL = board_from_dict(
    {
        "name": "property test board",
        "cities": _CITIES,
        "open_groups": ["canton-hongkong"],
        "routes": [
            _r("alma-bata-1", "Alma", "Bata", 2, "red", group="alma-bata"),
            _r("alma-bata-2", "Alma", "Bata", 2, "blue", group="alma-bata"),
            _r("bata-cora-1", "Bata", "Cora", 1, "gray", group="bata-cora"),
            _r("bata-cora-2", "Bata", "Cora", 1, "gray", group="bata-cora"),
            _r("bata-cora-3", "Bata", "Cora", 1, "gray", group="bata-cora"),
            _r("cora-dena", "Cora", "Dena", 3, "green", tunnel=4),
            _r("dena-enna", "Dena", "Enna", 2, "gray", tunnel=5),
            _r("enna-fara", "Enna", "Fara", 4, "yellow", tunnel=6),
            _r("alma-fara", "Alma", "Fara", 6, "gray"),
            _r("alma-cora", "Alma", "Cora", 3, "purple"),
            _r("dena-fara", "Dena", "Fara", 5, "white"),
            _r("cora-canton", "Cora", "Canton", 4, "orange"),
            _r("canton-hongkong-1", "Canton", "Hong Kong", 2, "gray", group="canton-hongkong"),
            _r("canton-hongkong-2", "Canton", "Hong Kong", 2, "gray", group="canton-hongkong"),
            _r("hongkong-enna", "Hong Kong", "Enna", 3, "black", tunnel=4),
            _r("bata-dena", "Bata", "Dena", 8, "gray"),
        ],
        "tickets": [
            {"id": f"S{i:02d}", "a": _CITIES[i % 8], "b": _CITIES[(i + 1 + i // 8) % 8],
             "points": 3 + i % 7}
            for i in range(32)
        ],
    }
)
BOARDS = {"small": SMALL, "teaching": None}  # None: Game.new uses the teaching board

FACE_UP_SOURCES = ["deck", 0, 1, 2, 3, 4]


# --------------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------------


def snapshot(g: Game) -> tuple:
    """A deep, immutable copy of every public attribute of the game's state."""
    return (
        tuple(g.draw_pile), tuple(g.discard), tuple(g.face_up),
        tuple(h.as_tuple() for h in g.hands), tuple(h.as_tuple() for h in g.holders),
        tuple(h.as_tuple() for h in g.known_hand), tuple(h.as_tuple() for h in g.known_holder),
        tuple(g.trains), tuple(sorted(g.owners.items())), tuple(g.ticket_deck),
        tuple(tuple(t) for t in g.tickets), tuple(tuple(t) for t in g.team_tickets),
        tuple(tuple(o) for o in g.offers), tuple(sorted(g.setup_choices.items(), key=str)),
        g.phase, g.to_move, g.drawn, g.first_to, g.tunnel, g.final_turns_left,
        g.passes_in_a_row, g.turns, len(g.events), repr(g.rng.bit_generator.state),
    )


def recount(g: Game) -> CardCounts:
    """Every train card, counted from the public attributes (independent of total_cards)."""
    cards: list[Color] = list(g.draw_pile) + list(g.discard)
    cards += [c for c in g.face_up if c is not None]
    for pile in list(g.hands) + list(g.holders):
        for colour in COLORS:
            cards += [colour] * pile[colour]
    if g.drawn is not None:
        cards.append(g.drawn)
    if g.tunnel is not None:
        cards += g.tunnel.laid_hand.elements() + g.tunnel.laid_holder.elements()
        cards += list(g.tunnel.revealed)
    return CardCounts(Counter(cards))


def check_invariants(g: Game) -> None:
    deck = standard_deck()
    assert g.total_cards() == deck  # C1
    assert recount(g) == deck  # C1, independently
    assert len(g.face_up) == 5
    # C3: 27 trains per player, in the supply or on the board
    for seat in range(g.players):
        placed = sum(g.board.route(r).length for r, s in g.owners.items() if s == seat)
        assert g.trains[seat] >= 0
        assert g.trains[seat] + placed == 27
    # every ticket in exactly one place
    where = list(g.ticket_deck)
    for lists in (g.tickets, g.team_tickets, g.offers):
        for ts in lists:
            where += ts
    assert Counter(where) == Counter(t.id for t in g.board.tickets)
    # the phase and the pending objects agree
    assert (g.phase is Phase.PLACE_CARD) == (g.drawn is not None)
    assert (g.phase is Phase.TUNNEL) == (g.tunnel is not None)
    if g.phase is Phase.CHOOSE_TICKETS:
        assert g.offers[g.to_move]
    # I1: what others "know" is really there; the draw pile is part of every unseen pool
    for seat in range(g.players):
        assert g.known_hand[seat] <= g.hands[seat]
    for team in range(g.teams):
        assert g.known_holder[team] <= g.holders[team]
    pile = CardCounts.of(g.draw_pile)
    for seat in range(g.players):
        v = g.view(seat)
        assert pile <= v.unseen
        assert v.hand == g.hands[seat] and v.team_cardholder == g.holders[seat // 2]


def random_cards(rng: random.Random) -> CardCounts:
    return CardCounts({c: rng.choice([0, 1, 1, 2, 3, 4]) for c in rng.sample(COLORS, 2)})


def nudge(rng: random.Random, cards: CardCounts) -> CardCounts:
    """One card more or (when possible) one less."""
    if cards and rng.random() < 0.5:
        return cards - CardCounts.of([rng.choice(cards.elements())])
    return cards + CardCounts.of([rng.choice(COLORS)])


def random_action(rng: random.Random, g: Game, legal: list):
    """A random action, often close to a legal one, often of the wrong phase."""
    seat = g.to_move
    ticket_ids = [t.id for t in g.board.tickets] + ["no-such-ticket"]
    route_ids = [r.id for r in g.board.routes] + ["no-such-route"]
    kind = rng.randrange(12)
    if kind == 0:
        teammate = random_cards(rng) if rng.random() < 0.2 else CardCounts()
        return act.Claim(rng.choice(route_ids), random_cards(rng), random_cards(rng), teammate)
    if kind == 1:
        claims = [a for a in legal if isinstance(a, (act.Claim, act.PayTunnel))]
        if claims:
            a = rng.choice(claims)
            if isinstance(a, act.Claim) and rng.random() < 0.3:
                return act.Claim(rng.choice(route_ids), a.hand, a.cardholder)
            if rng.random() < 0.5:
                return type(a)(**{**_fields(a), "hand": nudge(rng, a.hand)})
            return type(a)(**{**_fields(a), "cardholder": nudge(rng, a.cardholder)})
        return act.Claim(rng.choice(route_ids), g.hands[seat], g.holders[seat // 2])
    if kind == 2:
        return act.DrawCard(rng.choice(FACE_UP_SOURCES + [5, -1, "top", None]))
    if kind == 3:
        return act.PlaceCard(rng.choice(["hand", "cardholder", "bag"]))
    if kind == 4:
        pool = list(g.offers[seat]) + rng.sample(ticket_ids, 2)
        keep = rng.sample(pool, rng.randint(0, len(pool)))
        return act.KeepTickets(keep, share=rng.choice(pool))
    if kind == 5:
        return act.PayTunnel(random_cards(rng), random_cards(rng))
    if kind == 6:
        return act.Withdraw()
    if kind == 7:
        return act.DrawTickets()
    if kind == 8:
        pool = list(g.tickets[seat]) + list(g.tickets[seat ^ 1]) + rng.sample(ticket_ids, 2)
        return act.ShareTickets(rng.sample(pool, rng.randint(0, min(4, len(pool)))))
    if kind == 9:
        return act.Pass()
    if kind == 10:
        return rng.choice(["draw", None, 42, act])  # not an action at all
    # a legal action of another phase, or a legal action with its details changed
    if legal and rng.random() < 0.5:
        a = rng.choice(legal)
        if isinstance(a, act.KeepTickets) and a.keep:
            return act.KeepTickets(a.keep, share=rng.choice(ticket_ids))
        if isinstance(a, act.ShareTickets):
            return act.ShareTickets(set(a.tickets) | {rng.choice(ticket_ids)})
    return rng.choice([act.DrawCard("deck"), act.PlaceCard("hand"), act.Withdraw(),
                       act.PayTunnel(), act.DrawTickets(), act.Pass(),
                       act.KeepTickets(g.offers[seat][:1], share=(g.offers[seat] or ["x"])[0])])


def _fields(a) -> dict:
    return {"hand": a.hand, "cardholder": a.cardholder, **({"route": a.route}
                                                            if isinstance(a, act.Claim) else {})}


def choose(rng: random.Random, legal: list):
    """A legal action, biased towards claims and tunnel payments so routes get built."""
    keen = [a for a in legal if isinstance(a, (act.Claim, act.PayTunnel))]
    if keen and rng.random() < 0.6:
        return rng.choice(keen)
    return rng.choice(legal)


def new_game(board_name: str, players: int, seed: int) -> Game:
    return Game.new(players=players, seed=seed, board=BOARDS[board_name])


GAMES = dict(
    seed=st.integers(0, 2**32 - 1),
    board_name=st.sampled_from(sorted(BOARDS)),
    players=st.sampled_from([4, 6]),
)


# --------------------------------------------------------------------------------------------------
# the properties
# --------------------------------------------------------------------------------------------------


@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.integers(1, 300), **GAMES)
def test_random_legal_games_keep_every_invariant_and_reject_illegal_actions(
        seed, board_name, players, steps):
    rng = random.Random(seed)
    g = new_game(board_name, players, seed)
    check_invariants(g)
    for _ in range(steps):
        if g.is_over:
            assert g.legal_actions() == []
            break
        legal = g.legal_actions()
        assert legal, "a game that is not over always offers an action (Pass at worst)"
        before = snapshot(g)
        # illegal actions raise IllegalMove and change nothing
        for _ in range(3):
            bad = random_action(rng, g, legal)
            if isinstance(bad, act.Action.__args__) and bad in legal:
                continue
            try:
                g.apply(bad)
            except IllegalMove as err:
                assert err.rule and str(err).startswith(f"rule {err.rule}: ")
            else:
                raise AssertionError(f"{bad!r} was accepted but is not in legal_actions()")
            assert snapshot(g) == before, f"the rejected {bad!r} changed the game"
        # legal actions are accepted (on copies, which leave the original alone)
        for a in rng.sample(legal, min(4, len(legal))):
            c = g.copy()
            c.apply(a)
            check_invariants(c)
        assert snapshot(g) == before
        g.apply(choose(rng, legal))
        check_invariants(g)


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAMES)
def test_same_seed_and_same_actions_give_the_same_game(seed, board_name, players):
    a, b = new_game(board_name, players, seed), new_game(board_name, players, seed)
    assert snapshot(a) == snapshot(b)
    rng = random.Random(seed)
    for _ in range(200):
        if a.is_over:
            break
        action = choose(rng, a.legal_actions())
        a.apply(action)
        b.apply(action)
        assert snapshot(a) == snapshot(b)
    for seat in range(players):
        assert a.view(seat) == b.view(seat)
    assert a.events == b.events


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**GAMES)
def test_every_legal_action_is_accepted(seed, board_name, players):
    """legal_actions() is exactly what apply accepts: every one of them, at every step."""
    rng = random.Random(seed)
    g = new_game(board_name, players, seed)
    for _ in range(60):
        if g.is_over:
            break
        legal = g.legal_actions()
        assert len(set(legal)) == len(legal)  # each once
        before = snapshot(g)
        for a in legal[:150]:
            g.copy().apply(a)
        assert snapshot(g) == before
        g.apply(choose(rng, legal))


def test_copy_is_independent():
    g = new_game("small", 4, 7)
    rng = random.Random(7)
    for _ in range(40):
        g.apply(choose(rng, g.legal_actions()))
    c = g.copy()
    before = snapshot(g)
    for _ in range(40):
        if c.is_over:
            break
        c.apply(choose(rng, c.legal_actions()))
    assert snapshot(g) == before
    assert snapshot(c) != before
    assert g.total_cards() == standard_deck() and c.total_cards() == standard_deck()


def _claims_by_brute_force(g: Game, seat: int) -> list:
    """Every Claim for ``seat`` from the uncached rule functions: each route in board order that
    is open under K3 and fits the trains (K2), with every split ``payments.route_payments``
    lists. This checks the caches against no cache; the rule functions themselves are checked
    against hand-listed payments in ``tests/test_rules_claims.py``."""
    from ttrlib.rules import payments, tracks

    hand, holder = g.hands[seat], g.holders[seat // 2]
    out = []
    for r in g.board.routes:
        if r.length > g.trains[seat]:
            continue
        if tracks.closed_reason(g.board, r, g.owners, seat, g.players) is not None:
            continue
        out += [act.Claim(r.id, h, c)
                for h, c in payments.route_payments(hand, holder, r.color, r.length)]
    return out


@pytest.mark.parametrize("players,seed", [(4, 11), (4, 12), (6, 13)])
def test_K1_K3_cached_legal_claims_equal_the_uncached_rule_functions_at_every_turn(players, seed):
    """The legal-action caches (open routes per seat, claims per small key) give exactly the
    claims the rules give, in the same order, at every turn of whole random games."""
    from ttrlib.bots import RandomBot

    g = Game.new(players=players, seed=seed)
    bots = [RandomBot(seed=seed * 10 + s) for s in range(players)]
    turns = 0
    while not g.is_over:
        if g.phase is Phase.TURN:
            assert g.legal_claims() == _claims_by_brute_force(g, g.to_move)
            turns += 1
        g.apply(bots[g.to_move].choose(None, g.legal_actions()))
    assert turns > 50
