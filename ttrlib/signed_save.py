"""Saved games a learner can neither read in the page nor forge (issue 10, rule I1).

A save holds the whole game (every hand, the draw pile in order, the random state), so it stays on
the server's side: a named slot in a folder of the learner's working copy (``saves/NAME.ttrsave``
under the kernel's working directory by default). Each file is signed with HMAC-SHA256 under a
key kept on the server, so an edited file, or one made with another key, is refused.

File format (text, UTF-8)::

    TTRSAVE1 <64 hex digits: HMAC-SHA256(key, b"TTRSAVE1\\n" + payload)>
    <payload: Game.to_json()>

The key is 32 random bytes stored as hex in ``~/.local/share/ttrlib/save-key`` (created with mode
0600 on first use); the environment variable ``TTRLIB_SAVE_KEY`` names another key file (tests).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

from .errors import SaveError
from .game import Game

MAGIC = "TTRSAVE1"
SUFFIX = ".ttrsave"
KEY_ENV = "TTRLIB_SAVE_KEY"
DEFAULT_KEY = Path("~/.local/share/ttrlib/save-key")
DEFAULT_FOLDER = "saves"
_SLOT_CHARS = re.compile(r"[^A-Za-z0-9_-]+")


class SaveRefused(SaveError):
    """A save that cannot be loaded; the message says why in words for a learner."""


def key_path() -> Path:
    return Path(os.environ.get(KEY_ENV) or DEFAULT_KEY).expanduser()


def _key() -> bytes:
    """The server's key, made on first use (readable by its owner only)."""
    path = key_path()
    try:
        return bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another kernel made it meanwhile
        return bytes.fromhex(path.read_text().strip())
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32))
    return bytes.fromhex(path.read_text().strip())


def slot_name(name: str) -> str:
    """A safe file name for a slot: letters, digits, ``-`` and ``_`` only (no path, no dots)."""
    clean = _SLOT_CHARS.sub("-", str(name)).strip("-_")[:40]
    return clean or "game"


def slot_path(name: str, folder: str | os.PathLike | None = None) -> Path:
    return Path(folder if folder is not None else Path.cwd() / DEFAULT_FOLDER) / (
        slot_name(name) + SUFFIX)


def _mac(payload: bytes) -> str:
    return hmac.new(_key(), MAGIC.encode() + b"\n" + payload, hashlib.sha256).hexdigest()


def save(game: Game, name: str, folder: str | os.PathLike | None = None) -> str:
    """Write ``game`` to the slot ``name``; returns the slot name actually used."""
    path = slot_path(name, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = game.to_json().encode("utf-8")
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(f"{MAGIC} {_mac(payload)}\n".encode() + payload)
    tmp.replace(path)  # a crash never leaves half a save
    return path.stem


def load(name: str, folder: str | os.PathLike | None = None) -> Game:
    """Read the slot ``name``; ``SaveRefused`` if it is missing, edited or signed elsewhere."""
    path = slot_path(name, folder)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SaveRefused(f"there is no saved game named '{path.stem}'") from None
    head, sep, payload = data.partition(b"\n")
    parts = head.decode("ascii", "replace").split(" ")
    if not sep or len(parts) != 2 or parts[0] != MAGIC:
        raise SaveRefused(f"'{path.stem}' is not a ttrlib saved game")
    if not hmac.compare_digest(parts[1], _mac(payload)):
        raise SaveRefused(f"'{path.stem}' was changed after it was saved, or saved by another "
                          "server: its signature does not match, so it is refused")
    try:
        return Game.from_json(payload.decode("utf-8"))
    except (SaveError, UnicodeDecodeError) as exc:  # signed but unreadable: a newer format?
        raise SaveRefused(f"'{path.stem}' cannot be read: {exc}") from None


def slots(folder: str | os.PathLike | None = None) -> list[str]:
    """The names of the saved games in the folder, sorted."""
    where = Path(folder if folder is not None else Path.cwd() / DEFAULT_FOLDER)
    return sorted(p.stem for p in where.glob("*" + SUFFIX)) if where.is_dir() else []
