"""The rules as pure functions, one module per rule family.

Each action has a ``check_*(state, action)`` that may raise ``IllegalMove`` and never changes
anything, and an effect ``do_*(state, action)`` that never raises; ``Game.apply`` runs the pair
for the phase and action type (see ``ttrlib.game._RULES``).

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
"""
