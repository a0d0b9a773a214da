"""Saved games that belong to one learner and one game, which nobody can read in the page or
forge (issues 10 and 18, rule I1).

A save holds the whole game (every hand, the draw pile in order, the random state), so it stays on
the server's side, in a named slot of the learner's own folder: ``saves/NAME.ttrsave`` under the
kernel's working directory for the local user (JupyterLab), ``saves/<learner>/NAME.ttrsave`` in
the classroom app, where ``<learner>`` is a digest of the learner's id (the id itself is a
capability and never appears in a path). Each file is signed with HMAC-SHA256 under a key kept
on the server; the signature covers the learner, the slot and the game's public name with the
game, so a file edited, signed elsewhere, copied into another learner's folder or renamed to
another slot is refused.

File format (text, UTF-8)::

    TTRSAVE2 <64 hex digits: the signature>
    <the game's public name as a JSON string ("game 4821"), or null>
    <payload: Game.to_json()>

    signature = HMAC-SHA256(key, b"TTRSAVE2\\n" + learner + b"\\n" + slot + b"\\n"
                                 + name line + b"\\n" + payload)

with ``learner`` the learner's id (32 hex digits) or empty for the local user, and ``slot`` the
file's slot name. None of these fields can hold a newline, so the message reads one way only.
Version 1 files (``TTRSAVE1``, signed over the payload alone) are refused with a sentence.

The key is 32 random bytes stored as hex in ``~/.local/share/ttrlib/save-key`` (made with mode
0600 on first use, see :mod:`ttrlib.keyfile`); the environment variable ``TTRLIB_SAVE_KEY``
names another key file (tests). A save is written under a unique temporary name in the same
folder and renamed into place, so two kernels saving one slot at once never collide and a crash
never leaves half a save.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import tempfile
from pathlib import Path
from typing import NamedTuple

from . import keyfile
from .errors import KeyFileError, SaveError
from .game import Game

MAGIC = "TTRSAVE2"
OLD_MAGIC = "TTRSAVE1"
SUFFIX = ".ttrsave"
KEY_ENV = "TTRLIB_SAVE_KEY"
DEFAULT_KEY = Path("~/.local/share/ttrlib/save-key")
DEFAULT_FOLDER = "saves"
_SLOT_CHARS = re.compile(r"[^A-Za-z0-9_-]+")
_LEARNER = re.compile(r"[0-9a-f]{32}")
_NUMBERED = re.compile(r"game ([0-9]{1,9})")
_TAGGED = re.compile(r"random game ([0-9a-f]{1,16})")
MAX_NAME = 60  # characters of a game's public name


class SaveRefused(SaveError):
    """A save that cannot be loaded or written; the message says why in words for a learner."""


class Saved(NamedTuple):
    game: Game
    game_name: str | None  # the game's public name when it was saved ("game 4821")
    slot: str


def key_path() -> Path:
    return Path(os.environ.get(KEY_ENV) or DEFAULT_KEY).expanduser()


def _key() -> bytes:
    """The server's key, made on first use (readable by its owner only)."""
    try:
        return keyfile.read_or_make(key_path(), "save key", KEY_ENV)
    except KeyFileError as exc:
        raise SaveRefused(str(exc)) from None


def slot_name(name: str) -> str:
    """A safe file name for a slot: letters, digits, ``-`` and ``_`` only (no path, no dots)."""
    clean = _SLOT_CHARS.sub("-", str(name)).strip("-_")[:40]
    return clean or "game"


def learner_folder(learner: str) -> str:
    """The folder name of ``learner``'s saves: a digest, so no page or listing shows the id."""
    return hashlib.sha256(b"ttrlib learner folder v1\0" + learner.encode()).hexdigest()[:32]


def folder_of(folder: str | os.PathLike | None = None, learner: str | None = None) -> Path:
    """Where ``learner``'s saves live: ``folder`` (default ``saves/`` under the working
    directory) for the local user, a folder of their own under it for a classroom learner."""
    base = Path(folder if folder is not None else Path.cwd() / DEFAULT_FOLDER)
    return base if learner is None else base / learner_folder(_checked_learner(learner))


def slot_path(name: str, folder: str | os.PathLike | None = None, *,
              learner: str | None = None) -> Path:
    return folder_of(folder, learner) / (slot_name(name) + SUFFIX)


def _checked_learner(learner: str | None) -> str:
    if learner is None:
        return ""
    if not isinstance(learner, str) or not _LEARNER.fullmatch(learner):
        raise SaveError("learner: a learner id is 32 lowercase hex digits (see "
                        "ttrlib.lessons.learner)")
    return learner


def _name_line(game_name: str | None) -> bytes:
    if game_name is not None and (not isinstance(game_name, str) or len(game_name) > MAX_NAME):
        raise SaveError(f"game_name: a game's public name is text of at most {MAX_NAME} "
                        "characters")
    return json.dumps(game_name).encode("ascii")  # ASCII escapes: never a newline in the line


def _mac(learner: str | None, slot: str, name_line: bytes, payload: bytes) -> str:
    message = b"\n".join([MAGIC.encode(), _checked_learner(learner).encode(), slot.encode(),
                          name_line, payload])
    return hmac.new(_key(), message, hashlib.sha256).hexdigest()


def save(game: Game, name: str, folder: str | os.PathLike | None = None, *,
         learner: str | None = None, game_name: str | None = None) -> str:
    """Write ``game`` (publicly named ``game_name``) to ``learner``'s slot ``name``; returns
    the slot name actually used."""
    path = slot_path(name, folder, learner=learner)
    slot = path.stem
    line = _name_line(game_name)
    payload = game.to_json().encode("utf-8")
    data = f"{MAGIC} {_mac(learner, slot, line, payload)}\n".encode() + line + b"\n" + payload
    if path.is_dir():
        raise SaveRefused(f"'{slot}' cannot be saved: a folder of that name is in the way")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{slot}.", suffix=".tmp")
    except OSError as exc:
        raise SaveRefused(f"'{slot}' cannot be saved: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)  # whole or not at all; the last of two saves at once wins
    except OSError as exc:
        _remove(tmp)
        raise SaveRefused(f"'{slot}' cannot be saved: {exc.strerror or exc}") from None
    return slot


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def open_save(name: str, folder: str | os.PathLike | None = None, *,
              learner: str | None = None) -> Saved:
    """Read ``learner``'s slot ``name``: the game, its public name and the slot.
    ``SaveRefused`` if it is missing, edited, signed elsewhere, or another learner's or
    slot's."""
    path = slot_path(name, folder, learner=learner)
    slot = path.stem
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SaveRefused(f"there is no saved game named '{slot}'") from None
    except IsADirectoryError:
        raise SaveRefused(f"'{slot}' is a folder, not a saved game") from None
    except OSError as exc:
        raise SaveRefused(f"'{slot}' cannot be read: {exc.strerror or exc}") from None
    head, _, rest = data.partition(b"\n")
    line, sep, payload = rest.partition(b"\n")
    parts = head.split(b" ")
    if parts[0] == OLD_MAGIC.encode():
        raise SaveRefused(f"'{slot}' was saved by an older ttrlib, which did not tie a save to "
                          "its learner and its game; it cannot be loaded: start a new game")
    if not sep or len(parts) != 2 or parts[0] != MAGIC.encode():
        raise SaveRefused(f"'{slot}' is not a ttrlib saved game")
    # Compared as bytes: a signature with other characters simply does not match.
    if not hmac.compare_digest(parts[1], _mac(learner, slot, line, payload).encode()):
        raise SaveRefused(f"'{slot}' was changed after it was saved, saved by another server, "
                          "or saved by another learner or under another name: its signature "
                          "does not match, so it is refused")
    try:
        game_name = json.loads(line)
        if game_name is not None and not isinstance(game_name, str):
            raise SaveError("the game's name is not text")
        return Saved(Game.from_json(payload.decode("utf-8")), game_name, slot)
    except (SaveError, UnicodeDecodeError, ValueError) as exc:  # signed but unreadable: newer?
        raise SaveRefused(f"'{slot}' cannot be read: {exc}") from None


def load(name: str, folder: str | os.PathLike | None = None, *,
         learner: str | None = None) -> Game:
    """The game in ``learner``'s slot ``name`` (see ``open_save``)."""
    return open_save(name, folder, learner=learner).game


def parse_game_name(game_name: str | None) -> tuple[int | None, str | None]:
    """``"game 4821"`` -> ``(4821, None)``, ``"random game 5c1e0a"`` -> ``(None, "5c1e0a")``."""
    if game_name is None:
        return None, None
    if m := _NUMBERED.fullmatch(game_name):
        return int(m.group(1)), None
    if m := _TAGGED.fullmatch(game_name):
        return None, m.group(1)
    return None, None  # not a name this module writes


def slots(folder: str | os.PathLike | None = None, *, learner: str | None = None) -> list[str]:
    """The names of ``learner``'s saved games, sorted."""
    where = folder_of(folder, learner)
    return sorted(p.stem for p in where.glob("*" + SUFFIX) if p.is_file()) \
        if where.is_dir() else []
