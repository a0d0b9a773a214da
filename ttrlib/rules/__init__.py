"""Pure rule functions over cards and routes, one module per rule family.

``payments`` -- which cards may pay for a route or a tunnel (K1, K2, U2, U5, U7).
``tracks``   -- which parallel tracks are still open (K3).
``scoring``  -- route points, tickets, longest path, end-of-game bonuses (E2-E6).
"""
