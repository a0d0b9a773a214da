"""The rules as pure functions, one module per rule family.

Each action has a ``check_*(state, action)`` that may raise ``IllegalMove`` and never changes
anything, an effect ``do_*(state, action)`` that never raises, and ``legal_*(state)``, every
action the check accepts; ``Game.apply`` and ``Game.legal_actions`` look them up for the phase
and action type in ``ttrlib.rules.dispatch``.

``deck``     -- the train deck and the face-up row (C5, C6), and the log.
``draws``    -- drawing train cards (D1-D4).
``tickets``  -- destination tickets (T1-T4).
``claims``   -- claiming routes (K1-K4).
``tunnels``  -- tunnel reveals and payments (U1-U7).
``ending``   -- the end of a turn and of the game (E1).
``passing``  -- passing when nothing else is legal (policy).
``payments`` -- which cards may pay for a route or a tunnel (K1, K2, U2, U5, U7).
``tracks``   -- which parallel tracks are still open (K3).
``scoring``  -- route points, tickets, longest path, end-of-game bonuses (E2-E6).
``table``    -- (phase, action type) -> (check, effect, legal), and the legal actions.

Policies where the rulebook is silent (documented in the lessons and tested):

* C5: at most ``MAX_FACE_UP_RESETS`` resets in a row, and none when the row, draw pile and
  discard together hold fewer than 3 non-locomotives, so a reset could never help. A face-up
  slot left empty because no card was left is refilled at the end of a turn once cards exist.
* D3: the replacement of a face-up card taken first is turned up, and C5 checked, only once the
  card has been placed (``PlaceCard``), so the player decides before seeing anything new (D1:
  "immediately"); until then the slot is empty (``None``) in every view. The second pick sees
  the new row. A face-up card taken second, or a face-up locomotive taken first (D2), is
  replaced at once.
* D2 before D4: a face-up locomotive taken first always goes to the cardholder, even when it is
  the only card that can be drawn.
* C6 reshuffles lazily: the discard becomes the draw pile when a card is needed and the pile is
  empty, so cards discarded meanwhile are shuffled in too.
* D4: when only one card can be drawn the player takes it, chooses its place, and the turn ends.
* I1: a team's train cardholder is seen by both teammates only; face-up cards taken, and tunnel
  cards laid and taken back, are known to all until visibly played.
* T3: rejected tickets go to the bottom of the ticket deck in the order they were offered (at
  setup, when the team reveals: the first teammate's, then the second's).
* A seat with no legal action passes; when every seat passes in a row the game ends.

Seats are numbered 0..n-1 and named A1, A2, B1, B2 (, C1, C2): seat ``s`` plays for team
``seats.team_of(s)`` and its teammate is ``seats.teammate(s)`` (rule C2).
"""
