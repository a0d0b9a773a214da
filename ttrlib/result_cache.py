"""Results computed once and shared between processes: a folder of JSON files with a lock each.

A classroom server runs one kernel per learner; when thirty of them ask for the same long
computation (a lesson's tournament with its default seed), one computes it and the others wait
for its result and read it. The cache folder is ``$TTR_CACHE_DIR`` if set (a classroom can point
every kernel at one folder), else the user's cache folder (``$XDG_CACHE_HOME/ttrlib``,
``~/.cache/ttrlib``; ``~/Library/Caches/ttrlib`` on macOS, ``%LOCALAPPDATA%\\ttrlib`` on
Windows).

- The key is a hash of a JSON-able description of the computation, which names everything the
  result depends on (the caller adds :func:`code_digest`: the library's code and boards).
- The lock is ``fcntl.flock`` on a ``.lock`` file per key: the system releases it when its
  process ends, however it ends, so a killed kernel leaves no stale lock. Without ``fcntl``
  (Windows) there is no lock: each process computes, and the result is still stored whole.
- A result is written to a temporary file and renamed into place, so a reader sees a whole
  result or none; a computation that raises (a Stop) writes nothing.
- A file that cannot be read back (cut short, edited, another format) counts as missing: it is
  computed again and replaced, never shown as an error. Results are JSON, never pickles, so a
  file in a shared folder cannot run code.
- A folder that cannot be used (read-only, full) only turns the sharing off.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows: no lock, see the module's docstring
    fcntl = None  # type: ignore[assignment]

__all__ = ["ENV", "cache_folder", "code_digest", "shared"]

ENV = "TTR_CACHE_DIR"
POLL = 0.1  # seconds between two looks at another process's progress while waiting


def cache_folder() -> Path:
    """Where results are kept (see the module's docstring)."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", Path.home())) / "ttrlib" / "cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "ttrlib"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ttrlib"


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A hash of the library's rules, bots and boards (every module outside the widgets, the
    lessons, the pictures and the server, and the board files): a result computed by other code
    is never read back as this code's."""
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted([*root.glob("*.py"), *root.glob("rules/*.py"), *root.glob("boards/*")]):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def shared(key: dict, compute: Callable[[Callable[[int, int], None]], Any], *,
           decode: Callable[[Any], Any] = lambda v: v,
           wait: Callable[[int, int], None] | None = None, folder: Path | None = None) -> Any:
    """The result for ``key``: read from the cache, or computed once by whichever process asks
    first while the others wait for it.

    ``compute(report)`` returns a JSON-able value and may call ``report(done, total)`` as it goes;
    processes waiting for it call ``wait(done, total)`` with that progress about ten times a
    second (``(0, 0)`` before the first report), and an exception ``wait`` raises stops the
    waiting and goes to the caller (a Stop button). ``decode`` turns the stored value back into
    the result; a value it refuses (any exception) is computed again.
    """
    folder = cache_folder() if folder is None else Path(folder)
    name = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:32]
    result_path = folder / f"{name}.json"
    found = _read(result_path, key, decode)
    if found is not None:
        return found[0]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = os.open(folder / f"{name}.lock", os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:  # an unusable folder: compute, unshared
        return decode(compute(lambda done, total: None))
    progress_path = folder / f"{name}.progress"
    try:
        _acquire(lock, progress_path, wait)
    except BaseException:  # stopped while another process computes: its files stay
        os.close(lock)
        raise
    try:
        found = _read(result_path, key, decode)  # computed while this process waited
        if found is not None:
            return found[0]
        value = compute(_reporter(progress_path))
        result = decode(value)
        _write(result_path, {"key": key, "value": value})
        return result
    finally:
        _remove(progress_path)
        os.close(lock)  # releases the lock


def _acquire(lock: int, progress_path: Path, wait) -> None:
    if fcntl is None:
        return
    while True:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        if wait is not None:
            wait(*_progress(progress_path))
        time.sleep(POLL)


def _reporter(path: Path) -> Callable[[int, int], None]:
    last = [0.0]

    def report(done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - last[0] < POLL:
            return
        last[0] = now
        try:
            _write_text(path, f"{int(done)} {int(total)}")
        except OSError:
            pass  # the waiting processes only show less progress
    return report


def _progress(path: Path) -> tuple[int, int]:
    try:
        done, total = (int(x) for x in path.read_text().split())
        return done, total
    except (OSError, ValueError):
        return 0, 0


def _read(path: Path, key: dict, decode) -> tuple[Any] | None:
    """``(result,)``, or None when there is no usable result for ``key`` at ``path``."""
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(stored, dict) or stored.get("key") != key:
            return None
        return (decode(stored["value"]),)
    except Exception:  # noqa: BLE001 - missing, cut short or foreign: computed again
        return None


def _write(path: Path, data: Any) -> None:
    try:
        _write_text(path, json.dumps(data, sort_keys=True, separators=(",", ":")))
    except OSError:
        pass  # not shared this time; the result itself is fine


def _write_text(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)  # atomic: a reader sees the old file or the whole new one
    except BaseException:
        _remove(Path(tmp))
        raise


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
