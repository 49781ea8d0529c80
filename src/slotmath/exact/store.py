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

The store is bounded: after each table written, the least recently used tables (a table read
from the store is marked used) are removed while the store holds more than its limit
(default :data:`DEFAULT_MAX_BYTES`; ``SLOTMATH_CACHE_MAX`` sets it: ``2G``, ``500M``,
``64K`` or bytes). The table just written stays even when it alone is larger.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

__all__ = ["DEFAULT_MAX_BYTES", "code_fingerprint", "key_of", "load_or_compute", "max_bytes",
           "store_dir"]

#: the store's size limit unless ``SLOTMATH_CACHE_MAX`` says otherwise (a strip editor session
#: on Gus's Gold Christmas writes tens of MB per move)
DEFAULT_MAX_BYTES = 4 * 1024**3
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}


def store_dir() -> Path | None:
    """The store's folder, or None when the store is off (``SLOTMATH_CACHE=off``)."""
    if os.environ.get("SLOTMATH_CACHE", "").strip().lower() in {"0", "off", "no", "false"}:
        return None
    base = os.environ.get("SLOTMATH_CACHE_DIR")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "slotmath" / "tables"


def max_bytes() -> int:
    """The store's size limit: ``SLOTMATH_CACHE_MAX`` (``2G``, ``500M``, ``64K``, ``1.5G`` or
    bytes; a ``B``/``iB`` after the unit is allowed), else :data:`DEFAULT_MAX_BYTES`; a value
    that is not a size is a ``ValueError`` in one line.

    Examples
    --------
    >>> import os
    >>> os.environ["SLOTMATH_CACHE_MAX"] = "1.5G"
    >>> max_bytes() == 3 * 1024**3 // 2
    True
    >>> os.environ["SLOTMATH_CACHE_MAX"] = "lots"
    >>> max_bytes()
    Traceback (most recent call last):
    ...
    ValueError: SLOTMATH_CACHE_MAX must be a size like 2G, 500M, 64K or a number of bytes, got 'lots'
    >>> del os.environ["SLOTMATH_CACHE_MAX"]
    """
    text = os.environ.get("SLOTMATH_CACHE_MAX", "").strip()
    if not text:
        return DEFAULT_MAX_BYTES
    cleaned = text.upper().removesuffix("IB").removesuffix("B")
    unit = cleaned[-1:] if cleaned[-1:].isalpha() and cleaned[-1:] in _UNITS else ""
    try:
        value = float(cleaned[:-1] if unit else cleaned)
    except ValueError:
        value = -1.0
    if not (0 <= value < float("inf")):  # (NaN fails both)
        raise ValueError(f"SLOTMATH_CACHE_MAX must be a size like 2G, 500M, 64K or a number "
                         f"of bytes, got {text!r}")
    return int(value * _UNITS[unit])


def _evict(folder: Path, keep: Path, limit: int) -> None:
    """Remove the least recently used tables under ``folder`` (by their files' modification
    times: a read marks its table) while the tables there hold more than ``limit`` bytes;
    ``keep`` (the table just written) stays. Files another process removes meanwhile are
    skipped."""
    files = []
    for f in folder.rglob("*.npy"):
        if f.name.startswith(".part-"):  # another process' table being written
            continue
        try:
            st = f.stat()
        except OSError:
            continue
        files.append((st.st_mtime, st.st_size, f))
    total = sum(size for _, size, _ in files)
    for _, size, f in sorted(files, key=lambda t: (t[0], str(t[2]))):
        if total <= limit:
            break
        if f == keep:
            continue
        try:  # (its lock file stays: another process may hold it)
            f.unlink()
        except OSError:
            continue
        total -= size


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
    limit = max_bytes()  # (a bad SLOTMATH_CACHE_MAX is said before any computing)
    stored = _load(path, valid)
    if stored is not None:
        _used(path)
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
            _evict(folder, path, limit)
        except OSError:
            pass  # a store that cannot be written only costs the time
    return value


def _used(path: Path) -> None:
    """Mark a table read from the store as just used (its eviction order)."""
    with contextlib.suppress(OSError):
        os.utime(path)


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
