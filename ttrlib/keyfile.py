"""Secret keys kept in files: made on first use, readable by their owner only.

ttrlib keeps two keys on the server (or on the learner's own machine in JupyterLab): the save
key signs saved games (:mod:`ttrlib.signed_save`), the deal key turns a public game number into
a deal (:mod:`ttrlib.deals`). Each is 32 random bytes written as 64 hex digits in a file of its
own (mode 0600).

Two kernels may ask for a key that does not exist yet at the same moment. The key is written
whole under a unique temporary name and then linked into place (``os.link`` fails if the name
exists), so a kernel reading it sees either no file or the whole key, never an empty or half
written one, and every kernel ends up with the one key that won. A file that is not a key (a
folder in its place, other text) is refused with a sentence and never replaced: replacing a key
would silently invalidate every save, or change every game number's deal.
"""

from __future__ import annotations

import os
import re
import secrets
import tempfile
from pathlib import Path

from .errors import KeyFileError

KEY_BYTES = 32
_HEX_KEY = re.compile(r"[0-9a-fA-F]{%d}" % (2 * KEY_BYTES))


def read_or_make(path: str | os.PathLike, what: str, env: str) -> bytes:
    """The key in ``path`` (made on first use). ``what`` names the key in messages ("save key"),
    ``env`` the environment variable that points to another file."""
    path = Path(path).expanduser()
    key = _read(path, what, env)
    if key is not None:
        return key
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".new")
    except OSError as exc:
        raise KeyFileError(f"the {what} cannot be made in {path.parent}: {exc.strerror or exc}; "
                           f"set {env} to a file in a writable folder") from None
    try:
        with os.fdopen(fd, "w") as f:  # mkstemp made it 0600: only its owner reads the key
            f.write(secrets.token_hex(KEY_BYTES))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another kernel made the key first: use theirs
        except OSError:  # a file system without hard links: the old way (O_EXCL)
            _write_exclusive(path, Path(tmp).read_text())
    finally:
        os.unlink(tmp)
    key = _read(path, what, env)
    if key is None:  # pragma: no cover - removed again between our link and our read
        raise KeyFileError(f"the {what} {path} vanished as it was made; try again")
    return key


def _write_exclusive(path: Path, text: str) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "w") as f:
        f.write(text)


def _read(path: Path, what: str, env: str) -> bytes | None:
    """The key, ``None`` if there is no file yet; ``KeyFileError`` if the file is no key."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise KeyFileError(f"the {what} {path} is a folder, not a key file: move the folder away "
                           f"(a new key is then made) or set {env} to another file") from None
    except OSError as exc:
        raise KeyFileError(f"the {what} {path} cannot be read: {exc.strerror or exc}") from None
    text = data.decode("ascii", "replace").strip()
    if not _HEX_KEY.fullmatch(text):
        raise KeyFileError(f"the {what} {path} does not hold a key ({2 * KEY_BYTES} hex digits); "
                           "it is left as it is: move it away (a new key is then made) or set "
                           f"{env} to another file")
    return bytes.fromhex(text)
