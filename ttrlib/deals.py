"""Deals a learner cannot recompute: the game number on screen is public, the deal is not.

Two doors lead to a shuffled game, on purpose:

* **The learner's door** (this module; every lesson widget, through ``SeatSession``). A game
  number ("game 4821", ``?seed=4821``) is a public *name*. The deal's seed is a keyed function
  of it, HMAC-SHA256 under the installation's **deal key**::

      seed = first 16 bytes, big-endian, of
             HMAC-SHA256(deal key, b"ttrlib deal v1\\0" + b"4" + b"\\0" + b"4821")
                                       label              players        name

  so on one server the same number deals the same game (a class on ``?seed=7`` plays one
  game), and nobody without the key can deal it offline: knowing the number, or seeing A1's
  cards, says nothing about the teammate's hand or the draw pile. The bots' seeds come from the
  same function with the label ``bots`` (the bot of seat ``s`` draws from ``[that seed, s]``). A deal without a
  number (a learner's own game, **New game**) takes 128 bits from the operating system's
  generator and shows a short random tag instead of a number ("random game 5c1e0a"); no number
  deals it again. The key file is ``~/.local/share/ttrlib/deal-key`` (``TTRLIB_DEAL_KEY`` names
  another), made like the save key (:mod:`ttrlib.keyfile`). In JupyterLab alone the key sits on
  the learner's own machine: they can read it and so deal their own games in advance; that is
  fine, since nobody else plays those games. In the classroom app the key stays on the server.

* **The research door**: ``Game.new(seed=N)`` and ``Game.from_position(seed=N)`` deal from the
  plain seed, the same on every machine, for golden games, tests and tournaments
  (:mod:`ttrlib.experiments`), where a replayable seed is the point and nobody plays a hidden
  hand.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from numbers import Integral
from pathlib import Path
from typing import NamedTuple

from . import keyfile
from .errors import ArgumentError, ArgumentTypeError, shown
from .i18n import _
from .seats import PLAYER_COUNTS

KEY_ENV = "TTRLIB_DEAL_KEY"
DEFAULT_KEY = Path("~/.local/share/ttrlib/deal-key")
SEED_BITS = 128
TAG_HEX = 6  # hex digits of a random deal's public tag
#: A game number is a whole number below this (the class server's table numbers are too).
MAX_NUMBER = 2**63


def key_path() -> Path:
    return Path(os.environ.get(KEY_ENV) or DEFAULT_KEY).expanduser()


def keyed_seed(label: str, players: int, name: str, *more: str) -> int:
    """``SEED_BITS`` bits of HMAC-SHA256(deal key, "ttrlib LABEL v1" NUL players NUL name
    [NUL more]...) as an int (numpy's ``default_rng`` takes it whole)."""
    fields = [f"ttrlib {label} v1", str(players), str(name), *map(str, more)]
    mac = hmac.new(keyfile.read_or_make(key_path(), "deal key", KEY_ENV),
                   "\0".join(fields).encode("utf-8"), hashlib.sha256)
    return int.from_bytes(mac.digest()[:SEED_BITS // 8], "big")


class Deal(NamedTuple):
    """A deal's public name (``number`` or ``tag``) and its secret seeds (never shown)."""

    number: int | None  # the public game number, None for a random deal
    tag: str | None  # a random deal's public tag
    seed: int  # the deal's seed (secret)
    bots: int  # the bots' root seed (secret): the bot of seat s draws from [bots, s]

    @property
    def name(self) -> str:
        """What the screen shows: ``"game 4821"`` or ``"random game 5c1e0a"`` (in the reader's
        language: «партия 4821»)."""
        if self.number is not None:
            return _("game {number}").format(number=self.number)
        return _("random game {tag}").format(tag=self.tag)


def check_number(number: object, what: str = "number") -> int:
    """``number`` as an int if it is a game number (a whole number 0 to ``MAX_NUMBER`` - 1, a
    numpy integer too, never a bool); else an ``ArgumentError`` naming the argument ``what``
    (an ``ArgumentTypeError`` for a value that is no whole number at all)."""
    if isinstance(number, bool) or not isinstance(number, Integral):
        raise ArgumentTypeError(f"{what}: a game number is a whole number, not {shown(number)}")
    n = int(number)
    if not 0 <= n < MAX_NUMBER:
        raise ArgumentError(f"{what}: a game number is 0 to 2**63 - 1, not {shown(number)}")
    return n


def check_deal_players(players: object) -> int:
    """``players`` as an int if Team Asia is played by that many (C2); else an ``ArgumentError``
    naming the argument."""
    if isinstance(players, bool) or not isinstance(players, Integral) \
            or int(players) not in PLAYER_COUNTS:
        counts = " or ".join(map(str, PLAYER_COUNTS))
        raise ArgumentError(f"players: Team Asia is played by {counts} players (rule C2), not "
                            f"{shown(players)}")
    return int(players)


def named(number: int, players: int) -> Deal:
    """The deal of game ``number`` for ``players`` players on this installation (its key)."""
    number, players = check_number(number), check_deal_players(players)
    return Deal(number, None, keyed_seed("deal", players, str(number)),
                keyed_seed("bots", players, str(number)))


def unnamed() -> Deal:
    """A deal nobody can recompute: 128 fresh random bits (and fresh bots), a random tag."""
    return Deal(None, secrets.token_hex(TAG_HEX // 2), random_bits(), random_bits())


def random_bits() -> int:
    """``SEED_BITS`` bits from the operating system's generator."""
    return secrets.randbits(SEED_BITS)
