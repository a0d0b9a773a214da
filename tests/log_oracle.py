"""An oracle of the save tests, written apart from ``ttrlib.validity``: does a game's state say
what its log says (issue 18, item 4)?

``log_contradictions(game, start)`` reads the public log (``game.events``) and the start the
save claims (``start``: the start's fields as a save holds them, with its ``origin``), and lists
every fact of the state the log does not explain:

* the routes owned are those of the start plus one per claim in the log, by the claiming seat;
* the turn counter is the start's plus one per turn the log ends (a second card, a face-up
  locomotive, "no second card", a claim, a withdrawal, a mid-game ticket choice, a share, a
  pass);
* the seat to move: during setup, the seat after the teams that placed their tickets (and one
  more when a choice is pending); in a turn, the seat after the one that ended the last turn
  (the start's seat when none has); in the middle of a turn, the seat that began it;
* the cards each team holds (two hands and the cardholder) are the start's plus one per card
  drawn by its seats, less the cards of its claims, less the cards laid on a pending tunnel
  and the card drawn and not yet placed;
* a card known to all in a team's hands or cardholder was seen: a face-up card taken by the team
  or a tunnel card laid by it and taken back, colour by colour;
* a card waiting to be placed came from the face-up slot the log names, or from the deck (then
  no slot is named, and no other seat knows it).

A save of format 3 (the state itself) has no start: it is read as a new deal (``start=None``).
"""

from __future__ import annotations

from collections import Counter

from ttrlib.game import Game, Phase

TURN_ENDS = {"claim", "withdraw", "keep_tickets", "share_tickets", "pass"}
DRAW_ENDS = {"second", "locomotive", "none"}
DEALT = 4  # C4: cards in each hand of a new deal
DECK = 110  # C1


def _total(cards) -> int:
    return sum(cards.values()) if isinstance(cards, dict) else len(cards)


def log_contradictions(game: Game, start: dict | None) -> list[str]:
    """Every fact of ``game``'s state that its log and ``start`` do not explain."""
    n, events = game.players, game.events
    found: list[str] = []
    new = start is None or start.get("origin") == "new"
    owners0 = {} if new else dict(start["claimed"])
    turns0 = 0 if new else start["turns"]
    mover0 = 0 if new else start["to_move"]
    if new:
        team0 = [2 * DEALT] * (n // 2)
    else:
        team0 = [_total(start["hands"][2 * t]) + _total(start["hands"][2 * t + 1])
                 + _total(start["cardholders"][t]) for t in range(n // 2)]

    owners = dict(owners0)
    turns, last_end, drawn, paid = turns0, None, Counter(), Counter()
    seen = Counter()  # (team, colour) -> cards the table saw go into that team's cards
    tried = None
    placed_teams = 0
    for e in events:
        team = None if e.seat is None else e.seat // 2
        if e.kind == "claim":
            owners[e.route] = e.seat
            paid[team] += _total(e.cards.to_dict())
        if e.kind == "tickets":
            placed_teams += 1
        if e.kind == "draw" and e.step != "none":
            drawn[team] += 1
            if e.card is not None:
                seen[team, e.card.value] += 1
        if e.kind == "tunnel":
            tried = e
        if e.kind == "withdraw" and tried is not None:
            for colour, k in tried.cards.to_dict().items():
                seen[team, colour] += k
        if e.kind in TURN_ENDS or (e.kind == "draw" and e.step in DRAW_ENDS):
            turns += 1
            last_end = e.seat

    if owners != game.owners:
        found.append(f"routes owned {game.owners} but the log claims {owners}")
    if turns != game.turns:
        found.append(f"turn counter {game.turns} but the log ends {turns} turns")

    phase, to_move = game.phase, game.to_move
    if phase is Phase.SETUP_TICKETS:
        expected = {2 * placed_teams + bool(game.setup_choices)}
    elif phase is Phase.TURN:
        expected = {mover0 if last_end is None else (last_end + 1) % n}
    elif phase is Phase.OVER:
        expected = {to_move}  # the seat that ended the game stays; nothing is to be played
    else:
        acted = [e.seat for e in events if e.seat is not None]
        expected = {acted[-1]} if acted else set()
    if to_move not in expected:
        found.append(f"seat {to_move} to move but the log says {sorted(expected)}")

    for t in range(n // 2):
        held = len(game.hands[2 * t]) + len(game.hands[2 * t + 1]) + len(game.holders[t])
        out = 0
        if game.tunnel is not None and game.tunnel.seat // 2 == t:
            out += len(game.tunnel.laid)
        if phase is Phase.PLACE_CARD and to_move // 2 == t:
            out += 1
        if held != team0[t] + drawn[t] - paid[t] - out:
            found.append(f"team {t} holds {held} cards; the log explains "
                         f"{team0[t] + drawn[t] - paid[t] - out}")
        known = game.known_hand[2 * t] + game.known_hand[2 * t + 1] + game.known_holder[t]
        for colour, k in known.to_dict().items():
            if k > seen[t, colour]:
                found.append(f"team {t}: {k} {colour} known to all, {seen[t, colour]} seen")

    public_drawn = False  # the card waiting to be placed is known to all (taken face up)
    if phase is Phase.PLACE_CARD:
        first = [e for e in events if e.kind == "draw" and e.step == "first"]
        slot = first[-1].slot if first else "none"
        public_drawn = slot is not None
        if game.taken_slot != slot:
            found.append(f"the card to place came from slot {game.taken_slot}; the log says {slot}")
    for s in range(n):  # I1: what each seat cannot see, counted here from what it may see
        visible = len(game.hands[s]) + len(game.holders[s // 2]) + len(game.discard)
        visible += sum(c is not None for c in game.face_up)
        visible += sum(len(game.known_hand[o]) for o in range(n) if o != s)
        visible += sum(len(game.known_holder[t]) for t in range(n // 2) if t != s // 2)
        if game.tunnel is not None:
            visible += len(game.tunnel.laid) + len(game.tunnel.revealed)
        if game.drawn is not None and (public_drawn or s == to_move):
            visible += 1
        if len(game.view(s).unseen) != DECK - visible:
            found.append(f"seat {s} sees {DECK - len(game.view(s).unseen)} cards; the log "
                         f"shows it {visible}")
    return found
