"""A game's history: every step since its start, as a chess score sheet holds the moves.

A game is its start (the deal of ``Game.new``, or the position of ``Game.from_position``) and
the steps taken since, in order. A step is either an action that ``Game.apply`` accepted, or a
chance step, which is the only other way the state can change:

* ``Resample(seat, rng)``: ``Game.resample_hidden(seat, rng)`` dealt the cards and tickets
  ``seat`` cannot see anew with a generator in state ``rng`` (it plays on with that generator);
* ``Reseed(rng)``: ``Game.copy(rng)`` put a generator in state ``rng`` in place of the game's.

A save (``ttrlib.save``) holds the start and the steps; loading replays them, so every fact of a
loaded game comes from a rule applied to an earlier one. Here are the steps in their plain (JSON)
form: an action as ``ttrlib.plain`` writes it, a chance step as ``{"type": "Resample", "seat":
2, "rng": {...}}`` or ``{"type": "Reseed", "rng": {...}}``, where ``rng`` is a numpy bit
generator's state (arrays as lists).

>>> from ttrlib import actions as act
>>> step_from_plain(step_to_plain(act.DrawCard(3)))
DrawCard(source=3)
>>> import numpy as np
>>> step = Reseed(rng_state(np.random.default_rng(1)))
>>> step_from_plain(step_to_plain(step)) == step
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Union

import numpy as np

from . import actions as act
from .errors import SaveError, shown
from .plain import action_from_plain, to_plain
from .state import GameState

#: The bit generators whose state a history can hold (numpy's own).
BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")


@dataclass(frozen=True)
class Resample:
    """``Game.resample_hidden(seat, g)`` with a generator ``g`` in state ``rng`` (I1)."""

    seat: int
    rng: dict[str, Any]


@dataclass(frozen=True)
class Reseed:
    """``Game.copy(g)``: the game plays on with a generator ``g`` in state ``rng``."""

    rng: dict[str, Any]


Step = Union[act.Action, Resample, Reseed]


def first_difference(state: GameState, other: GameState) -> str | None:
    """The first field in which two states differ (generators by their state), or ``None``: a
    history replayed from its start must give the game's state exactly."""
    for f in fields(GameState):
        if f.name == "held":  # always empty between actions
            continue
        mine, theirs = getattr(state, f.name), getattr(other, f.name)
        if f.name == "rng":
            if rng_state(mine) != rng_state(theirs):
                return f.name
        elif mine is not theirs and mine != theirs:
            return f.name
    return None


def rng_state(generator: np.random.Generator) -> dict[str, Any]:
    """The state of ``generator`` as JSON-ready data (``rng_from_state`` builds it again)."""
    plain: dict[str, Any] = _plain_numbers(generator.bit_generator.state)
    return plain


def _plain_numbers(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain_numbers(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.integer):
        return int(value)
    return value


def rng_from_state(state: Any) -> np.random.Generator:
    """A generator in the state ``rng_state`` wrote; ``ValueError`` if ``state`` is none."""
    kind = state.get("bit_generator") if isinstance(state, dict) else None
    if kind not in BIT_GENERATORS:
        raise ValueError(f"a random generator state of {', '.join(BIT_GENERATORS)}")
    try:
        generator = np.random.Generator(getattr(np.random, kind)(0))
        generator.bit_generator.state = state
    except Exception:  # numpy raises several kinds here; any of them means a bad state
        raise ValueError("a valid numpy bit generator state") from None
    return generator


def step_to_plain(step: Step) -> dict[str, Any]:
    """The plain (JSON) form of a step."""
    if isinstance(step, Resample):
        return {"type": "Resample", "seat": step.seat, "rng": step.rng}
    if isinstance(step, Reseed):
        return {"type": "Reseed", "rng": step.rng}
    plain: dict[str, Any] = to_plain(step)
    return plain


def step_from_plain(data: Any) -> Step:
    """The step ``data`` describes; a ``TTRError`` names what is wrong (an ``ActionError`` for
    an action). Whether the step is legal is the game's question (``Game.from_json``)."""
    kind = data.get("type") if isinstance(data, dict) else None
    if kind not in ("Resample", "Reseed"):
        return action_from_plain(data)
    fields = {"type", "rng"} | ({"seat"} if kind == "Resample" else set())
    if set(data) != fields:
        raise SaveError(f"a {kind} step has the fields {sorted(fields)}")
    try:
        rng_from_state(data["rng"])
    except ValueError as exc:
        raise SaveError(f"{kind}.rng: must be {exc}") from None
    if kind == "Reseed":
        return Reseed(data["rng"])
    seat = data["seat"]
    if type(seat) is not int:  # the seat's range is the game's to check
        raise SaveError(f"Resample.seat: a seat number, not {shown(seat)}")
    return Resample(seat, data["rng"])
