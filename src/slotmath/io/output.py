"""Writing report files whole or not at all.

Every output is written to a temporary file beside its destination, then renamed onto it
(``os.replace``, atomic on one file system), so a reader never sees half a file and a failure
leaves nothing behind. Several outputs are renamed only once all of them are written.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from slotmath.errors import GameFileError

__all__ = ["check_writable", "write_files"]


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_writable(path: str | os.PathLike, label: str) -> Path:
    """``path`` as a Path, or a :class:`~slotmath.errors.GameFileError` when it cannot be
    written (its folder missing or read-only, or it is a folder); ``label`` names the option.

    Examples
    --------
    >>> check_writable("/no/such/folder/out.xlsx", "--xlsx")
    Traceback (most recent call last):
    ...
    slotmath.errors.GameFileError: --xlsx: cannot write /no/such/folder/out.xlsx: folder /no/such/folder does not exist
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise GameFileError(None, label, f"cannot write {path}: folder {folder} does not exist")
    if path.is_dir():
        raise GameFileError(None, label, f"cannot write {path}: it is a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise GameFileError(None, label, f"cannot write {path}: folder {folder} is not writable")
    return path


def write_files(outputs: Mapping[str, tuple[str | os.PathLike, bytes]]) -> None:
    """Write each ``label -> (path, data)`` whole: all are written to temporary files in their
    folders first, then renamed. On any failure every temporary file is removed, no
    destination is touched, and a :class:`~slotmath.errors.GameFileError` names the output.
    """
    written: list[tuple[str, Path, str]] = []
    try:
        for label, (path, data) in outputs.items():
            path = check_writable(path, label)
            try:
                fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part",
                                           dir=path.parent)
                written.append((label, path, tmp))
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                os.chmod(tmp, 0o666 & ~_umask())  # as open() would (mkstemp makes it 0600)
            except OSError as exc:
                raise GameFileError(None, label, f"cannot write {path}: {_reason(exc)}") from None
        for label, path, tmp in written:
            try:
                os.replace(tmp, path)
            except OSError as exc:
                raise GameFileError(None, label, f"cannot write {path}: {_reason(exc)}") from None
    finally:
        for _, _, tmp in written:
            if os.path.exists(tmp):
                os.unlink(tmp)
