"""What a seat's screen tells the learner to do next, per phase of the turn (the lessons' hints).

Each lesson screen offers some moves: the team game all of them, the tickets lesson only the
ticket moves, the card split lesson only the card draw. A hint names the rule it follows and
quotes the game's own constants (``ttrlib.state``), so a changed rule changes its hint.
"""

from __future__ import annotations

from .state import DRAW_TICKETS, SETUP_TICKETS_DEALT, SETUP_TICKETS_KEEP, Phase

#: The team game (lessons 00, 06 and 08): every move of a turn.
TEAM_GAME = {
    Phase.SETUP_TICKETS: (f"Choose your tickets: keep at least {SETUP_TICKETS_KEEP} of the "
                          f"{SETUP_TICKETS_DEALT} and share 1 of them (T1)."),
    Phase.TURN: ("Your turn: draw train cards, claim a route, draw "
                 f"{DRAW_TICKETS} tickets, or share 1-2 of your tickets (D1, K1, T2, T4)."),
    Phase.PLACE_CARD: ("Where does the card you drew go: your hand or the team cardholder? The "
                       "second card goes to the other place (D1)."),
    Phase.SECOND_CARD: ("Draw your second card (a face-up slot or the deck); it goes to the other "
                        "place (D1). A face-up locomotive may not be the second card (D3)."),
    Phase.CHOOSE_TICKETS: "Keep at least 1 of the tickets you drew and share 1 of them (T2).",
    Phase.TUNNEL: "The tunnel asks for more cards: pay them, or take your cards back (U2, U3).",
}

#: The tickets lesson (02): drawing and sharing tickets.
TICKETS = {
    Phase.TURN: (f"Your turn. Draw {DRAW_TICKETS} tickets (keep at least 1, share 1 of them: "
                 "T2), or share 1 or 2 of your private tickets, which takes the whole turn "
                 "(T4)."),
    Phase.CHOOSE_TICKETS: ("Tick the tickets you keep (at least 1) and pick one of them to share "
                           "with your team (T2). The others go to the bottom of the deck (T3)."),
}

#: What the game waits for, as lesson 01 says it after each step of a draw ("The game waits
#: for the second card (D1).").
WAITS_FOR = {
    Phase.TURN: "a new turn",
    Phase.PLACE_CARD: "where the first card goes (D1)",
    Phase.SECOND_CARD: "the second card (D1)",
}

#: The card split lesson (01): the two cards of a draw.
CARD_SPLIT = {
    Phase.TURN: ("Pick your first card: a face-up card or the top of the deck. A face-up "
                 "locomotive taken first is your whole draw and goes to the team cardholder (D2)."),
    Phase.PLACE_CARD: ("You have seen your first card. Decide now where it goes: your hand or the "
                       "team cardholder. The second card will go to the other place (D1)."),
    Phase.SECOND_CARD: ("Pick your second card. It goes to the other place. A face-up locomotive "
                        "may not be taken as the second card (D3)."),
}
