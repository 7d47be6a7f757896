"""Reading a file a user named, at the edge, without ever blocking on it.

A path from a plan or the command line may name a FIFO, a device or a directory: ``open`` on a
FIFO waits for a writer forever, and ``/dev/zero`` never ends. :func:`read_regular` opens without
blocking, refuses anything but a regular file before reading a byte, and reads at most ``limit``
bytes, so each such path fails at once with an ``OSError`` whose ``strerror`` says why in a few
words, which every reader (datasets, plans, strategy files) puts in its own one-line error.
"""

from __future__ import annotations

import errno
import os
import stat


class NotRegularFile(OSError):
    """A path naming a FIFO, a device or a socket: refused before it is read."""


class FileTooLarge(OSError):
    """A regular file longer than its reader's limit."""


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path``, of at most ``limit`` bytes. Raises
    ``FileNotFoundError``, ``IsADirectoryError``, :class:`NotRegularFile`, :class:`FileTooLarge` or
    another ``OSError``; none waits for a writer."""
    with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as file:
        mode = os.fstat(file.fileno()).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
        if not stat.S_ISREG(mode):
            raise NotRegularFile(
                errno.EINVAL, "not a regular file (a FIFO, device or socket)", os.fspath(path)
            )
        data = file.read(limit + 1)
    if len(data) > limit:
        raise FileTooLarge(errno.EFBIG, f"larger than {limit:,} bytes", os.fspath(path))
    return data
