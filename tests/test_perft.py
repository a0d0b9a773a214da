"""Perft-style completeness check: in hundreds of positions of 4- and 6-player
games, the engine's ``legal_actions()`` is exactly the set that ``perft_rules`` lists from the
rules reference alone; ``apply`` accepts every one of them (on a copy) and refuses near misses
(one card more or less, the wrong place, a locomotive moved between hand and cardholder, a
teammate's card, a closed or claimed route, a ticket not offered ...) with an ``IllegalMove``,
leaving the saved game byte for byte as it was. The legal actions also stay the same when
everything the seat cannot see is dealt anew (I1).

The positions come from seeded random play (every phase: setup, turn, place card, second card,
choose tickets, tunnel) and from a few exact positions for the corners random play rarely
reaches (an empty deck, Pass, U5 and U6 tunnels, many hand/cardholder splits)."""

from __future__ import annotations

from functools import cache

import numpy as np
import perft_rules as rules
import pytest

from ttrlib import CardCounts, Game, IllegalMove, Phase
from ttrlib import actions as act
from ttrlib.rules import dispatch
from ttrlib.save import state_data

# --------------------------------------------------------------------------------------------
# the canonical form: engine actions <-> perft_rules tuples
# --------------------------------------------------------------------------------------------


def _cards(counts: CardCounts) -> tuple:
    return rules.cards(counts.to_dict())


def canonical(a: act.Action) -> tuple:
    """The ``perft_rules`` tuple of an engine action."""
    if isinstance(a, act.KeepTickets):
        return ("keep", frozenset(a.keep), a.share)
    if isinstance(a, act.DrawCard):
        return ("draw", a.source)
    if isinstance(a, act.PlaceCard):
        return ("place", a.to)
    if isinstance(a, act.Claim):
        return ("claim", a.route, _cards(a.hand), _cards(a.cardholder), _cards(a.teammate))
    if isinstance(a, act.PayTunnel):
        return ("pay", _cards(a.hand), _cards(a.cardholder))
    if isinstance(a, act.ShareTickets):
        return ("share", frozenset(a.tickets))
    simple = {act.Withdraw: "withdraw", act.DrawTickets: "draw_tickets", act.Pass: "pass"}
    return (simple[type(a)],)


def build(c: tuple) -> act.Action:
    """The engine action of a ``perft_rules`` tuple."""
    kind, *args = c
    if kind == "keep":
        return act.KeepTickets(args[0], args[1])
    if kind == "draw":
        return act.DrawCard(args[0])
    if kind == "place":
        return act.PlaceCard(args[0])
    if kind == "claim":
        route, hand, holder, mate = args
        return act.Claim(route, CardCounts(dict(hand)), CardCounts(dict(holder)),
                         CardCounts(dict(mate)))
    if kind == "pay":
        return act.PayTunnel(CardCounts(dict(args[0])), CardCounts(dict(args[1])))
    if kind == "share":
        return act.ShareTickets(args[0])
    return {"withdraw": act.Withdraw, "draw_tickets": act.DrawTickets, "pass": act.Pass}[kind]()


def test_the_canonical_form_goes_both_ways():
    samples = [act.KeepTickets(["T01", "T02"], "T02"), act.DrawCard("deck"), act.DrawCard(3),
               act.PlaceCard("cardholder"), act.Claim("r", CardCounts(red=1, locomotive=2),
                                                      CardCounts(locomotive=1)),
               act.PayTunnel(CardCounts(blue=1), CardCounts()), act.Withdraw(), act.DrawTickets(),
               act.ShareTickets(["T03", "T04"]), act.Pass()]
    assert [build(canonical(a)) for a in samples] == samples
    assert canonical(samples[3]) == ("place", "cardholder")
    assert canonical(samples[4]) == ("claim", "r", (("locomotive", 2), ("red", 1)),
                                     (("locomotive", 1),), ())


# --------------------------------------------------------------------------------------------
# positions: seeded random play, the choice weighted so that every phase is reached
# --------------------------------------------------------------------------------------------
# How often a seat in TURN picks each kind of action (the kinds present), per playing style:
# "hoard" runs the deck and the discard dry, "build" claims (and tries tunnels) a lot.
STYLES = {
    "mixed": {"draw": 6, "claim": 3, "draw_tickets": 1, "share": 1, "pass": 1},
    "hoard": {"draw": 40, "claim": 1, "draw_tickets": 0.3, "share": 0.3, "pass": 1},
    "build": {"draw": 3, "claim": 8, "draw_tickets": 1, "share": 1, "pass": 1},
}
# The chance that a position of each phase is kept for the check (rare phases more often).
KEEP = {"setup_tickets": 0.4, "turn": 0.07, "place_card": 0.08, "second_card": 0.08,
        "choose_tickets": 0.5, "tunnel": 1.0}
GAMES = [(players, seed, style) for players in (4, 6) for seed, style in
         enumerate(["mixed", "hoard", "build", "mixed", "hoard", "build", "mixed", "build"])]
MAX_STEPS = 1500


def choose(rng: np.random.Generator, game: Game, legal: list, style: str) -> act.Action:
    if game.phase is Phase.TUNNEL:
        pays = [a for a in legal if isinstance(a, act.PayTunnel)]
        return pays[int(rng.integers(len(pays)))] if pays and rng.random() < 0.8 else act.Withdraw()
    if game.phase is not Phase.TURN:
        return legal[int(rng.integers(len(legal)))]
    by_kind: dict[str, list] = {}
    for a in legal:
        by_kind.setdefault(canonical(a)[0], []).append(a)
    kinds = sorted(by_kind)
    weights = np.array([STYLES[style][k] for k in kinds], dtype=float)
    kind = kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]
    pool = by_kind[kind]
    if kind == "claim":  # a route first, then one of its payments: long routes get a fair chance
        routes = sorted({a.route for a in pool})
        route = routes[int(rng.integers(len(routes)))]
        pool = [a for a in pool if a.route == route]
    return pool[int(rng.integers(len(pool)))]


def play(players: int, seed: int, style: str) -> list[tuple[str, Game]]:
    """The positions kept from one seeded random game, each a copy."""
    game = Game.new(players, seed=seed)
    rng = np.random.default_rng(10_000 + seed)
    kept = []
    for step in range(MAX_STEPS):
        if game.is_over:
            break
        if rng.random() < KEEP[game.phase.value]:
            kept.append((f"{players}p-{seed}-{style}-step{step}", game.copy()))
        game.apply(choose(rng, game, game.legal_actions(), style))
    return kept


def exact(players=4, **kw) -> Game:
    return Game.from_position(players=players, **kw)


def after(game: Game, *actions) -> Game:
    game = game.copy()
    for a in actions:
        game.apply(a)
    return game


def all_tickets() -> list[str]:
    return [t.id for t in Game.new(4, seed=0).board.tickets]


def crafted() -> list[tuple[str, Game]]:
    """Exact positions for what random play seldom reaches."""
    out = []
    for n in (4, 6):
        # Nothing at all for seat 0: no card to draw, no cards, no tickets anywhere to draw: Pass.
        tickets = [[] for _ in range(n)]
        tickets[n - 1] = all_tickets()
        out.append((f"{n}p-pass", exact(n, draw_pile=[], discard=CardCounts(), rest_to=n - 1,
                                        tickets=tickets, ticket_deck=[])))
        # Locomotives and a colour in both places: many splits of every route (K1, K2).
        rich = [CardCounts(red=2, blue=1, locomotive=2)] + [CardCounts()] * (n - 1)
        holders = [CardCounts(red=2, green=3, locomotive=2)] + [CardCounts()] * (n // 2 - 1)
        out.append((f"{n}p-rich", exact(n, hands=rich, cardholders=holders)))
    # The deck and discard empty; face up two locomotives and one red (D2, D3, D4, C6).
    dry = exact(4, draw_pile=[], discard=CardCounts(), rest_to=3,
                face_up=["locomotive", "locomotive", "red", None, None],
                hands=[CardCounts(red=1)] + [CardCounts()] * 3)
    out += [("dry-turn", dry), ("dry-place", after(dry, act.DrawCard(2)))]
    # One card in the deck: it can be drawn first, and then no second card is left (D4).
    one = exact(4, draw_pile=["blue"], discard=CardCounts(), rest_to=3,
                face_up=["locomotive", None, None, None, None])
    out += [("one-card", one), ("one-card-place", after(one, act.DrawCard("deck")))]
    # A gray tunnel (U7) laid with red and locomotives from both places; revealed: a locomotive
    # and two reds, so 3 more red or locomotives are owed, in every hand/cardholder split (U2).
    gray = exact(4, hands=[CardCounts(red=3, locomotive=2)] + [CardCounts()] * 3,
                 cardholders=[CardCounts(red=2, locomotive=3), CardCounts()],
                 draw_pile=["locomotive", "red", "red", "green"])
    laid = act.Claim("kashgar-rawalpindi", CardCounts(red=1, locomotive=1),
                     CardCounts(red=1, locomotive=1))
    out += [("gray-tunnel-turn", gray), ("gray-tunnel", after(gray, laid))]
    # U5: a tunnel laid with locomotives only; only revealed locomotives count (2 of 4 here).
    locos = exact(4, hands=[CardCounts(orange=2, locomotive=3)] + [CardCounts()] * 3,
                  cardholders=[CardCounts(orange=1, locomotive=3), CardCounts()],
                  draw_pile=["locomotive", "orange", "locomotive", "red"])
    out.append(("u5-tunnel", after(locos, act.Claim("delhi-kathmandu", CardCounts(locomotive=1),
                                                   CardCounts(locomotive=2)))))
    # U6: one card in the draw pile, then the reshuffled discard: 3 of the 4 can be revealed.
    short = exact(4, hands=[CardCounts(black=4, locomotive=2)] + [CardCounts()] * 3,
                  cardholders=[CardCounts(black=2, locomotive=2), CardCounts()],
                  draw_pile=["black"], discard=CardCounts(locomotive=1, red=1),
                  rest_to=3)
    out.append(("u6-tunnel", after(short, act.Claim("kunming-lhasa", CardCounts(black=3),
                                                   CardCounts(black=1, locomotive=1)))))
    # K3 with 4 players: one track of a double and two of a triple claimed; Hong Kong - Canton.
    closed = exact(4, hands=[CardCounts(locomotive=8)] + [CardCounts()] * 3,
                   cardholders=[CardCounts(locomotive=6), CardCounts()],
                   claimed={"lahore-rawalpindi-1": 2, "bombay-delhi-1": 1})
    out.append(("k3-4p", closed))
    out.append(("k3-6p", exact(6, hands=[CardCounts(locomotive=8)] + [CardCounts()] * 5,
                               cardholders=[CardCounts(locomotive=6)] + [CardCounts()] * 2,
                               claimed={"lahore-rawalpindi-1": 2, "bombay-delhi-1": 0})))
    # T2 with a short ticket deck: 2 tickets drawn, keep 1 or both.
    tickets = all_tickets()
    short_deck = exact(4, tickets=[tickets[:-2], [], [], []], ticket_deck=tickets[-2:])
    out.append(("t2-short", after(short_deck, act.DrawTickets())))
    # C5 policy: three face-up locomotives stay (no other card is left to break the cycle).
    stuck = exact(4, face_up=["locomotive", "locomotive", "locomotive", "red", None],
                  draw_pile=[], discard=CardCounts(), rest_to=3)
    out += [("c5-stuck", stuck), ("c5-stuck-place", after(stuck, act.DrawCard(3)))]
    # K3 policy with 6 players at Hong Kong - Canton: not both tracks for one seat.
    out.append(("k3-6p-hk", exact(6, hands=[CardCounts(locomotive=2)] + [CardCounts()] * 5,
                                  claimed={"canton-hongkong-1": 0})))
    return out


# --------------------------------------------------------------------------------------------
# near misses: actions next to the legal ones (never legal themselves) that must be refused
# --------------------------------------------------------------------------------------------
def _plus(part: tuple, colour: str, k: int) -> tuple:
    counts = dict(part)
    counts[colour] = counts.get(colour, 0) + k
    return rules.cards(counts)


def _card_changes(hand: tuple, holder: tuple, colours: list[str]) -> list[tuple[tuple, tuple]]:
    """One card more or less in either place, one card moved between the places (a locomotive
    too), one card swapped for another colour."""
    out = []
    for colour in colours:
        for k in (1, -1):
            if k > 0 or dict(hand).get(colour):
                out.append((_plus(hand, colour, k), holder))
            if k > 0 or dict(holder).get(colour):
                out.append((hand, _plus(holder, colour, k)))
        if dict(hand).get(colour):
            out.append((_plus(hand, colour, -1), _plus(holder, colour, 1)))
            for other in colours:
                if other != colour:
                    out.append((_plus(_plus(hand, colour, -1), other, 1), holder))
        if dict(holder).get(colour):
            out.append((_plus(hand, colour, 1), _plus(holder, colour, -1)))
    return out


def near_misses(state: dict, legal: set, rng: np.random.Generator, most: int = 30) -> list:
    phase, seat = state["phase"], state["to_move"]
    tickets_around = [t for ts in state["tickets"] + state["team_tickets"] for t in ts]
    tickets_around += state["ticket_deck"]
    wrong = [("place", "hand"), ("withdraw",), ("pay", (), ()), ("draw_tickets",), ("pass",),
             ("draw", "deck"), ("keep", frozenset({"T-none"}), "T-none"),
             ("claim", "nowhere", (("red", 1),), (), ()), ("draw", 5), ("draw", -1),
             ("place", "teammate"), ("share", frozenset())]
    out = set(wrong)
    out |= {("draw", i) for i in range(rules.FACE_UP_SLOTS)}  # empty slots, D3 locomotives
    if phase == "turn" and state["tickets"][seat]:
        mine = state["tickets"][seat]
        mate = state["tickets"][seat ^ 1]
        team = state["team_tickets"][seat // 2]
        if len(mine) >= 3:
            out.add(("share", frozenset(mine[:3])))  # T4: at most 2
        out |= {("share", frozenset([t])) for t in mate[:2] + team[:2]}  # not this seat's own
        out |= {("share", frozenset([mine[0], t])) for t in mate[:1] + state["ticket_deck"][:1]}
    if phase in ("setup_tickets", "choose_tickets"):
        offer = state["offers"][seat]
        strangers = [t for t in tickets_around if t not in offer][:3]
        keeps = sorted(legal, key=repr)
        for kind, keep, share in [keeps[i] for i in rng.permutation(len(keeps))[:6]]:
            for t in keep:
                out.add((kind, keep - {t}, share))  # one ticket fewer (or the shared one gone)
                for s in strangers:
                    out.add((kind, (keep - {t}) | {s}, share if share != t else s))  # not offered
            out |= {(kind, keep, t) for t in offer if t not in keep}  # shares one it does not keep
            out |= {(kind, keep | {s}, share) for s in strangers}
    claims = [c for c in legal if c[0] == "claim"]
    if phase == "turn":
        picked = [claims[i] for i in rng.permutation(len(claims))[:6]] if claims else []
        mate_hand = state["hands"][seat ^ 1]
        own = set().union(*rules.seat_cards(state, seat))
        for _, route, hand, holder, _mate in picked:
            colours = sorted({c for c, _ in hand + holder} | {rules.LOCO, "red"} | own)
            out |= {("claim", route, h, g, ()) for h, g in _card_changes(hand, holder, colours)}
            # K1: one card from the teammate's hand instead of one's own
            for colour, _n in hand:
                if mate_hand.get(colour) or not mate_hand:
                    out.add(("claim", route, _plus(hand, colour, -1), holder, ((colour, 1),)))
            out.add(("claim", route, hand, holder, ((rules.LOCO, 1),)))
        # Routes closed to this seat (claimed, K3, too few trains) with cards that would pay.
        for route in state["board"]["routes"]:
            if any(c[1] == route["id"] for c in claims):
                continue
            pays = sorted(rules.route_payments(state, seat, route))
            if pays:
                h, g = pays[int(rng.integers(len(pays)))]
                out.add(("claim", route["id"], h, g, ()))
    if phase == "tunnel":
        pays = sorted(c for c in legal if c[0] == "pay")
        hand, holder = rules.seat_cards(state, seat)
        colours = sorted({rules.LOCO, rules.tunnel_colour(state["tunnel"]), "red"}
                         | set(hand) | set(holder))  # U5: a colour the seat could pay with
        for _, hand, holder in [pays[i] for i in rng.permutation(len(pays))[:6]]:
            out |= {("pay", h, g) for h, g in _card_changes(hand, holder, colours)}
    misses = sorted((c for c in out if c not in legal), key=repr)
    return [misses[i] for i in sorted(rng.permutation(len(misses))[:most])]


# --------------------------------------------------------------------------------------------
# the check
# --------------------------------------------------------------------------------------------
def check(name: str, game: Game, rng: np.random.Generator) -> None:
    before = game.to_json()
    state = state_data(game.state)
    expected = rules.legal_actions(state)
    offered = [canonical(a) for a in game.legal_actions()]
    assert len(offered) == len(set(offered)), f"{name}: an action is offered twice"
    missing, extra = expected - set(offered), set(offered) - expected
    assert not missing and not extra, (
        f"{name} ({state['phase']}): the engine lacks {sorted(missing, key=repr)[:5]} "
        f"({len(missing)}) and offers {sorted(extra, key=repr)[:5]} ({len(extra)}) that the rules "
        "do not allow")
    if state["phase"] != "over":
        assert expected, f"{name}: no legal action though the game is not over"
        # I1: what the seat may do depends only on what it may know: dealing everything hidden
        # from it anew (the teammate's hand too) changes none of its legal actions.
        redealt = game.resample_hidden(state["to_move"], np.random.default_rng(len(offered)))
        assert {canonical(a) for a in redealt.legal_actions()} == expected, name
    just_claimed = None
    for c in expected:  # apply accepts each, on a copy
        trial = game.copy()
        trial.apply(build(c))
        if c[0] == "claim" and trial.phase is Phase.TURN and just_claimed is None:
            just_claimed = c[1], trial
    if just_claimed:
        refuse_the_route_just_claimed(name, *just_claimed)
    for c in near_misses(state, expected, rng):
        trial = game.copy()  # a wrongly accepted action must not spoil the shared position
        try:
            trial.apply(build(c))
        except IllegalMove:
            pass
        else:
            pytest.fail(f"{name} ({state['phase']}): the near miss {c} was accepted")
        assert trial.to_json() == before, f"{name}: the refused {c} changed the game"
    assert game.to_json() == before


def refuse_the_route_just_claimed(name: str, route_id: str, game: Game) -> None:
    """The next seat may not claim the route just claimed, whatever cards it lays."""
    state = state_data(game.state)
    seat = state["to_move"]
    assert state["claimed"][route_id] != seat
    route = next(r for r in state["board"]["routes"] if r["id"] == route_id)
    for hand, holder in sorted(rules.route_payments(state, seat, route))[:3]:
        with pytest.raises(IllegalMove):
            game.apply(build(("claim", route_id, hand, holder, ())))
        assert state_data(game.state) == state, f"{name}: a refused claim changed the game"


@cache
def game_positions(game: tuple) -> tuple[tuple[str, Game], ...]:
    return tuple(crafted() if game == "crafted" else play(*game))


def positions() -> list[tuple[str, Game]]:
    return [p for game in [*GAMES, "crafted"] for p in game_positions(game)]


@pytest.mark.parametrize("game", [*GAMES, "crafted"], ids=str)
def test_legal_actions_are_exactly_those_the_rules_list(game):
    """Every kept position of one seeded game (or the exact positions)."""
    rng = np.random.default_rng([*GAMES, "crafted"].index(game))  # picks the near misses
    kept = game_positions(game)
    assert len(kept) >= 10
    for name, position in kept:
        check(name, position, rng)


def test_the_positions_cover_every_phase_and_both_player_counts():
    seen = {(g.players, g.phase.value) for _, g in positions()}
    phases = {"setup_tickets", "turn", "place_card", "second_card", "choose_tickets", "tunnel"}
    assert {(n, p) for n in (4, 6) for p in phases} <= seen
    assert 300 <= len(positions()) <= 600


def test_the_positions_reach_the_corners():
    """The rare cases the enumerator has branches for do occur among the positions."""
    states = [state_data(g.state) for _, g in positions()]
    turn = [s for s in states if s["phase"] == "turn"]
    assert any(rules.legal_actions(s) == {("pass",)} for s in turn)
    assert any(not rules.can_draw_from_deck(s) for s in turn)  # C6
    both_locos = [c for s in turn for c in rules.legal_claims(s, s["to_move"])
                  if dict(c[2]).get(rules.LOCO) and dict(c[3]).get(rules.LOCO)]
    assert len(both_locos) >= 50  # locomotives from hand and cardholder in one claim (K1)
    tunnels = [s["tunnel"] for s in states if s["phase"] == "tunnel"]
    assert any(rules.tunnel_colour(t) == rules.LOCO for t in tunnels)  # U5
    assert any(len(t["revealed"]) == 3 for t in tunnels)  # U6: the 4-card tunnel reveals 3


def test_each_family_lists_exactly_its_own_actions():
    """The perft run against the families directly (``rules.dispatch``): at every kept position,
    each row of the phase lists, on the bare state, exactly the actions of its type that the
    independent enumerator allows, and no row lists an action of another type."""
    for name, game in positions():
        state = state_data(game.state)
        expected = rules.legal_actions(state)
        rows = [(kind, rule) for (phase, kind), rule in dispatch.RULES.items()
                if phase is game.state.phase]
        listed: set = set()
        for kind, rule in rows:
            own = [a for a in rule.legal(game.state)]
            assert all(type(a) is kind for a in own), f"{name}: {kind.__name__} lists others"
            got = {canonical(a) for a in own}
            assert len(got) == len(own), f"{name}: {kind.__name__} lists an action twice"
            listed |= got
        assert listed == expected, (name, sorted(listed ^ expected, key=repr)[:5])
