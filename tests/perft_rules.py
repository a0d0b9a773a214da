"""Every legal action of a Team Asia position, listed from the rules reference alone.

This is the independent half of the perft test: it reads the game only as the
saved JSON (``json.loads(game.to_json())``) and the rule text of ``docs/team-asia-rules.md``, and
imports nothing from ttrlib, so a mistake in the engine's move generator cannot hide here too.

Actions come out in a canonical form, plain tuples that are easy to compare:

=================================================  ==========================================
``("keep", frozenset(kept), shared)``               T1 at setup, T2 after drawing tickets
``("draw", "deck" | slot)``                         D1-D4, C6
``("place", "hand" | "cardholder")``                D1
``("claim", route, hand, cardholder, teammate)``    K1-K3 (cards as ``cards(...)`` tuples)
``("pay", hand, cardholder)``                       U2, U5, U7
``("withdraw",)``                                   U3
``("draw_tickets",)``                               T2
``("share", frozenset(tickets))``                   T4
``("pass",)``                                       only when nothing else is legal (policy)
=================================================  ==========================================
"""

from __future__ import annotations

from itertools import combinations

# C1: the eight colours of the train cards, and the wild locomotive.
COLOURS = ("purple", "white", "blue", "yellow", "orange", "black", "red", "green")
LOCO = "locomotive"
FACE_UP_SLOTS = 5  # C5
SETUP_KEEP = 3  # T1: keep at least 3 of the 5 dealt
DRAWN_KEEP = 1  # T2: keep at least 1 of those drawn
MOST_SHARED = 2  # T4: up to 2 tickets in one turn
OPEN_DOUBLE = frozenset({"Hong Kong", "Canton"})  # K3: both tracks stay open with 4 players
NO_CARDS: tuple = ()


def cards(counts: dict) -> tuple:
    """A card multiset as a sorted tuple of ``(colour, count)``, counts above zero only."""
    return tuple(sorted((c, n) for c, n in counts.items() if n))


# --------------------------------------------------------------------------------------------
# the parts of a position the rules talk about
# --------------------------------------------------------------------------------------------
def seat_cards(state: dict, seat: int) -> tuple[dict, dict]:
    """K1: the cards a seat may pay with: its own hand and its team's train cardholder."""
    return dict(state["hands"][seat]), dict(state["cardholders"][seat // 2])


def can_draw_from_deck(state: dict) -> bool:
    return bool(state["draw_pile"]) or bool(state["discard"])  # C6


def tracks_between(state: dict, route: dict) -> list[dict]:
    """Every track joining the two cities of ``route`` (itself included): a double or triple
    route is simply several tracks between the same two cities."""
    ends = {route["a"], route["b"]}
    return [r for r in state["board"]["routes"] if {r["a"], r["b"]} == ends]


def route_is_open(state: dict, route: dict, seat: int) -> bool:
    """Unclaimed, and K3 leaves it open to ``seat``."""
    claimed = state["claimed"]
    if route["id"] in claimed:
        return False
    others = [r for r in tracks_between(state, route) if r["id"] != route["id"]]
    taken = [r for r in others if r["id"] in claimed]
    if any(claimed[r["id"]] == seat for r in taken):
        return False  # K3 policy: never two tracks between the same cities for one player
    if state["players"] == 6 or not taken:
        return True  # K3: every track is open with 6 players
    if {route["a"], route["b"]} == OPEN_DOUBLE:
        return True  # K3: Hong Kong - Canton stays open with 4 players
    if len(others) == 1:
        return False  # K3: a double route, its other track is claimed
    return len(taken) < 2  # K3: only 2 of the 3 tracks of a triple route


def ways_to_pay(hand: dict, holder: dict, colour: str, n: int) -> set:
    """Every way to take exactly ``n`` cards that count as ``colour`` (the colour itself or a
    locomotive; only locomotives when ``colour`` is the locomotive) from hand and cardholder,
    each as ``(hand part, cardholder part)``."""
    out = set()
    hl, gl = hand.get(LOCO, 0), holder.get(LOCO, 0)
    hc = 0 if colour == LOCO else hand.get(colour, 0)
    gc = 0 if colour == LOCO else holder.get(colour, 0)
    for a in range(min(hc, n) + 1):
        for b in range(min(gc, n - a) + 1):
            for x in range(min(hl, n - a - b) + 1):
                y = n - a - b - x
                if y > gl:
                    continue
                from_hand = {colour: a} if colour != LOCO else {}
                from_holder = {colour: b} if colour != LOCO else {}
                from_hand[LOCO] = from_hand.get(LOCO, 0) + x
                from_holder[LOCO] = from_holder.get(LOCO, 0) + y
                out.add((cards(from_hand), cards(from_holder)))
    return out


def route_payments(state: dict, seat: int, route: dict) -> set:
    """K2 with K1: ``length`` cards of one colour (the route's, any for gray) and locomotives,
    in every split between the seat's hand and the team cardholder."""
    hand, holder = seat_cards(state, seat)
    colours = COLOURS if route["color"] == "gray" else (route["color"],)
    out = set()
    for colour in colours:
        out |= ways_to_pay(hand, holder, colour, route["length"])
    return out


def legal_claims(state: dict, seat: int) -> set:
    out = set()
    for route in state["board"]["routes"]:
        if state["trains"][seat] < route["length"] or not route_is_open(state, route, seat):
            continue  # K2: the player places L of their own trains; K3
        for hand, holder in route_payments(state, seat, route):
            out.add(("claim", route["id"], hand, holder, NO_CARDS))
    return out


def tunnel_colour(tunnel: dict) -> str:
    """U7: the colour used is the one laid; U5: locomotives only when nothing else was laid."""
    laid = set(tunnel["laid_hand"]) | set(tunnel["laid_cardholder"])
    colours = laid - {LOCO}
    assert len(colours) <= 1, f"a tunnel laid with two colours: {tunnel}"
    return colours.pop() if colours else LOCO


def tunnel_extra(tunnel: dict) -> int:
    """U2: each revealed card of the colour used, locomotives included; U5: only locomotives."""
    colour = tunnel_colour(tunnel)
    return sum(card in (colour, LOCO) for card in tunnel["revealed"])


def keep_choices(offer: list, minimum: int) -> set:
    """T1, T2: keep at least ``minimum`` of the offer (all of it if it is shorter) and place one
    of the kept tickets in the team's ticket cardholder."""
    out = set()
    for k in range(min(minimum, len(offer)), len(offer) + 1):
        for keep in combinations(offer, k):
            out |= {("keep", frozenset(keep), share) for share in keep}
    return out


# --------------------------------------------------------------------------------------------
# the legal actions
# --------------------------------------------------------------------------------------------
def legal_actions(state: dict) -> set:
    """Every action the rules allow the seat to move in ``state`` (a ``to_json`` dict)."""
    phase, seat = state["phase"], state["to_move"]
    face_up = state["face_up"]
    if phase == "over":
        return set()
    if phase == "setup_tickets":
        return keep_choices(state["offers"][seat], SETUP_KEEP)
    if phase == "choose_tickets":
        return keep_choices(state["offers"][seat], DRAWN_KEEP)
    if phase == "place_card":
        return {("place", "hand"), ("place", "cardholder")}  # D1, D4: the player chooses
    if phase == "second_card":
        out = {("draw", "deck")} if can_draw_from_deck(state) else set()
        # D3: never a face-up locomotive as the second card
        return out | {("draw", i) for i, c in enumerate(face_up) if c is not None and c != LOCO}
    if phase == "tunnel":
        tunnel = state["tunnel"]
        hand, holder = seat_cards(state, tunnel["seat"])
        pays = ways_to_pay(hand, holder, tunnel_colour(tunnel), tunnel_extra(tunnel))
        return {("pay", h, g) for h, g in pays} | {("withdraw",)}  # U2, U5, U7; U3
    assert phase == "turn", phase
    out = {("draw", "deck")} if can_draw_from_deck(state) else set()  # C6, D4
    out |= {("draw", i) for i, c in enumerate(face_up) if c is not None}  # D1, D2
    out |= legal_claims(state, seat)
    if state["ticket_deck"]:
        out.add(("draw_tickets",))  # T2: fewer than 4 if the deck is short, none if empty
    mine = state["tickets"][seat]
    for k in range(1, MOST_SHARED + 1):
        out |= {("share", frozenset(pick)) for pick in combinations(mine, k)}  # T4
    return out or {("pass",)}
