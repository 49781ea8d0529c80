"""A disk store for exact tables that take long to compute, keyed by the computation's input.

Some exact tables take tens of seconds (a place modifier's table on a 20-line 5 x 3 game:
every stop combination with every set of chosen positions). They depend only on what the
kernel reads, so the key is a SHA-256 over exactly that: the arrays handed to the kernel
(reel windows, automaton tables, packing) and the source text of the modules that compute
it. Another game, another strip, another pay or a change in the kernel's code is another
key, so a stored table can never stand for a different computation; a file that cannot be
read is computed again and replaced.

The store is a folder (default ``~/.cache/slotmath/tables``; the environment variable
``SLOTMATH_CACHE_DIR`` moves it; ``SLOTMATH_CACHE=off`` turns the store off). Files are
written to a temporary name beside the destination and renamed, so a reader never sees half
a file. A process that finds the table absent takes a lock beside it (a POSIX record lock) before
computing, so a second process asking for the same table at the same time waits and reads the
first one's file instead of computing it again (where there is no ``fcntl``, both compute and
both end with the same file).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

__all__ = ["code_fingerprint", "key_of", "load_or_compute", "store_dir"]


def store_dir() -> Path | None:
    """The store's folder, or None when the store is off (``SLOTMATH_CACHE=off``)."""
    if os.environ.get("SLOTMATH_CACHE", "").strip().lower() in {"0", "off", "no", "false"}:
        return None
    base = os.environ.get("SLOTMATH_CACHE_DIR")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "slotmath" / "tables"


def _feed(h, part) -> None:
    if isinstance(part, np.ndarray):
        arr = np.ascontiguousarray(part)
        h.update(f"array{arr.dtype.str}{arr.shape}".encode())
        h.update(arr.tobytes())
    elif isinstance(part, (tuple, list)):
        h.update(f"seq{len(part)}(".encode())
        for p in part:
            _feed(h, p)
        h.update(b")")
    elif isinstance(part, (bool, int, str, bytes, type(None))):
        h.update(f"{type(part).__name__}:{part!r};".encode())
    else:
        raise TypeError(f"cannot key a {type(part).__name__}")


def key_of(*parts) -> str:
    """SHA-256 of ``parts`` (arrays with their dtype and shape, ints, strings, nested
    sequences), in hex.

    Examples
    --------
    >>> a = key_of("kind", np.arange(3), (1, "x"))
    >>> a == key_of("kind", np.arange(3), (1, "x")), a == key_of("kind", np.arange(4), (1, "x"))
    (True, False)
    >>> key_of(np.arange(3, dtype=np.int32)) == key_of(np.arange(3, dtype=np.int64))
    False
    """
    h = hashlib.sha256()
    for p in parts:
        _feed(h, p)
    return h.hexdigest()


def code_fingerprint(*modules) -> str:
    """SHA-256 of the source files of ``modules``: a change in the code that computes a
    table is another key. Call it when the module is imported, so that the fingerprint is
    the code that runs even if the files change later in a long session."""
    return key_of(*(Path(m.__file__).read_text() for m in modules))


def load_or_compute(kind: str, key: str, compute: Callable[[], np.ndarray],
                    valid: Callable[[np.ndarray], bool] | None = None) -> np.ndarray:
    """The array stored under ``kind``/``key``, or ``compute()`` stored there and returned.

    A stored file that cannot be read, or whose array ``valid`` refuses, is computed again
    and replaced.

    Examples
    --------
    >>> import os, tempfile
    >>> before = os.environ.get("SLOTMATH_CACHE_DIR")
    >>> os.environ["SLOTMATH_CACHE_DIR"] = tempfile.mkdtemp()
    >>> calls = []
    >>> def compute():
    ...     calls.append(1)
    ...     return np.arange(4)
    >>> k = key_of("doc", 1)
    >>> load_or_compute("doc", k, compute), load_or_compute("doc", k, compute), len(calls)
    (array([0, 1, 2, 3]), array([0, 1, 2, 3]), 1)
    >>> if before is None:
    ...     del os.environ["SLOTMATH_CACHE_DIR"]
    ... else:
    ...     os.environ["SLOTMATH_CACHE_DIR"] = before
    """
    folder = store_dir()
    if folder is None:
        return compute()
    path = folder / kind / f"{key}.npy"
    stored = _load(path, valid)
    if stored is not None:
        return stored
    with _locked(path):
        stored = _load(path, valid)  # another process may have stored it while we waited
        if stored is not None:
            return stored
        value = np.asarray(compute())
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".part-", suffix=".npy", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as f:
                    np.save(f, value, allow_pickle=False)
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            pass  # a store that cannot be written only costs the time
    return value


def _load(path: Path, valid: Callable[[np.ndarray], bool] | None) -> np.ndarray | None:
    try:
        stored = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError):
        return None  # absent or unreadable: compute it again
    return stored if valid is None or valid(stored) else None


@contextlib.contextmanager
def _locked(path: Path):
    """Hold an exclusive lock on ``path``'s lock file; without ``fcntl`` (Windows) or a
    folder that cannot be written, go on unlocked. A POSIX record lock (``lockf``), not
    ``flock``: it belongs to this process, so the workers it forks while computing never
    hold it past its release."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = path.with_suffix(".lock").open("a")
    except OSError:
        yield
        return
    with handle:  # closing the file releases the lock
        try:
            fcntl.lockf(handle.fileno(), fcntl.LOCK_EX)
        except OSError:
            pass
        yield
