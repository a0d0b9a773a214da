"""The coach (issue 34): every move judged from its own seat's knowledge, by determinized
playouts, with a tunnel's risk by its exact law.

- ``evaluate(view, legal, *, seed, budget)``: each action's win share and points, with 95%
  intervals, best first (``evaluate``);
- ``CoachBot(seed=...)``: a bot that plays by it where decisions matter (``bot``);
- ``review(game, *, seed)``: a finished game's actions, each judged from its seat's view at the
  time (``review``).

The coach reads a view, never a game (I1): a hint can never tell what its seat may not know.
Its numbers are estimates from samples, never proofs.
"""

from .bot import CoachBot, CoachStrategy
from .evaluate import Estimate, Evaluation, evaluate
from .review import Review, ReviewEntry, review

__all__ = ["CoachBot", "CoachStrategy", "Estimate", "Evaluation", "Review", "ReviewEntry", "evaluate",
           "review"]
