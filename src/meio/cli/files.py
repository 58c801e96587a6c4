"""The files and folders the ``meio`` commands read and write, checked as the options are read.

Every path option of a command names what it is with one of the parsers below (Typer's
``parser=``), so a file that cannot be read, a folder that cannot be written, a folder given
for a file or ``-`` where no pipe makes sense is refused with one line before any work is
done:

* :class:`InputFile`: a file to read (``-``: standard input, where the command allows it);
* :class:`OutputFile`: a file to write (``-``: standard output, where the command allows it);
  the folder it goes in must exist and take a new file;
* :class:`OutputFolder`: a folder to write into, made if it is missing.

:func:`open_input` and :func:`write_text` then read and write them, ``-`` included, and
:func:`os_error_text` says in the command's language why the system refused a file.
"""

from __future__ import annotations

import errno
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from meio.i18n import N_, _

#: the path that stands for standard input or output
DASH = "-"

#: why the system refused a file, by error number, in the words of the catalogue
REASONS = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EROFS: N_("the file system is read-only"),
    errno.ENOSPC: N_("the disk is full"),
    errno.EDQUOT: N_("the disk is full"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.EEXIST: N_("it already exists"),
}


def os_error_text(exc: OSError) -> str:
    """Why the system refused a file, in the current language.

    >>> os_error_text(FileNotFoundError(2, "No such file or directory"))
    'no such file or folder'
    """
    reason = REASONS.get(exc.errno or 0)
    return _(reason) if reason else str(exc.strerror or exc)


def os_error_line(exc: OSError) -> str:
    """One line for an error of the system about a file: the file, then the reason."""
    name = exc.filename if exc.filename is not None else ""
    text = os_error_text(exc)
    return _("{file}: {reason}").format(file=os.fsdecode(name), reason=text) if name else text


def is_dash(path: Path | str | None) -> bool:
    """Whether ``path`` is ``-``, standard input or output."""
    return path is not None and os.fspath(path) == DASH


def _path(value: object) -> Path:
    if isinstance(value, Path):
        return value
    if not isinstance(value, str) or not value:
        raise ValueError(_("give a file name"))
    return Path(value)


@dataclass(frozen=True, slots=True)
class InputFile:
    """A file to read: it exists, it is not a folder and it can be opened.

    ``dash``: whether ``-`` means standard input for this option.
    """

    dash: bool = False

    def __call__(self, value: object) -> Path:
        path = _path(value)
        if is_dash(path):
            if not self.dash:
                raise ValueError(_("'-' (standard input) cannot be read here; give a file"))
            return path
        if path.is_dir():
            raise ValueError(_("{file}: is a folder, not a file").format(file=path))
        try:
            with path.open("rb"):
                pass
        except FileNotFoundError:
            raise ValueError(_("{file}: no such file").format(file=path)) from None
        except OSError as exc:
            raise ValueError(
                _("{file}: cannot be read ({reason})").format(file=path, reason=os_error_text(exc))
            ) from None
        return path


@dataclass(frozen=True, slots=True)
class OutputFile:
    """A file to write: not a folder, in a folder that exists and takes a new file.

    ``dash``: whether ``-`` means standard output for this option. Checking creates the
    file and removes it again when it did not exist before.
    """

    dash: bool = False

    def __call__(self, value: object) -> Path:
        path = _path(value)
        if is_dash(path):
            if not self.dash:
                raise ValueError(
                    _("'-' (standard output) cannot be written here; give a file name")
                )
            return path
        if path.is_dir():
            raise ValueError(_("{file}: is a folder; give a file name").format(file=path))
        folder = path.parent
        if not folder.exists():
            raise ValueError(
                _("{file}: the folder {folder} does not exist").format(file=path, folder=folder)
            )
        if not folder.is_dir():
            raise ValueError(_("{file}: {folder} is not a folder").format(file=path, folder=folder))
        existed = path.exists()
        try:
            with path.open("ab"):
                pass
        except FileNotFoundError:  # the folder exists but takes no file (/proc)
            raise ValueError(
                _("{file}: no file can be made in {folder}").format(file=path, folder=folder)
            ) from None
        except OSError as exc:
            raise ValueError(
                _("{file}: cannot be written ({reason})").format(
                    file=path, reason=os_error_text(exc)
                )
            ) from None
        if not existed:
            path.unlink(missing_ok=True)
        return path


@dataclass(frozen=True, slots=True)
class OutputFolder:
    """A folder to write into: an existing folder that takes new files, or one that can be
    made (the command makes it). ``-`` is refused."""

    def __call__(self, value: object) -> Path:
        path = _path(value)
        if is_dash(path):
            raise ValueError(_("'-' cannot be used here; give a folder"))
        if path.exists() and not path.is_dir():
            raise ValueError(_("{folder}: is a file, not a folder").format(folder=path))
        existing = path
        while not existing.exists():
            existing = existing.parent
        if not existing.is_dir():
            raise ValueError(
                _("{folder}: {file} is a file, not a folder").format(folder=path, file=existing)
            )
        try:
            with tempfile.TemporaryFile(dir=existing):
                pass
        except FileNotFoundError:  # the folder exists but takes nothing new (/proc)
            raise ValueError(
                _("{folder}: nothing can be made in {parent}").format(folder=path, parent=existing)
            ) from None
        except OSError as exc:
            what = (
                _("{folder}: cannot be written ({reason})")
                if existing == path
                else _("{folder}: cannot be made ({reason})")
            )
            raise ValueError(what.format(folder=path, reason=os_error_text(exc))) from None
        return path


@contextmanager
def open_input(path: Path) -> Iterator[IO[str]]:
    """``path`` opened as UTF-8 text to read (``-``: standard input, left open)."""
    if is_dash(path):
        yield sys.stdin
        return
    with path.open(encoding="utf-8") as fh:
        yield fh


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` (``-``: standard output), or :class:`ValueError` with one
    line saying why not."""
    if is_dash(path):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ValueError(
            _("{file}: cannot be written ({reason})").format(file=path, reason=os_error_text(exc))
        ) from None


__all__ = [
    "DASH",
    "InputFile",
    "OutputFile",
    "OutputFolder",
    "is_dash",
    "open_input",
    "os_error_line",
    "os_error_text",
    "write_text",
]
