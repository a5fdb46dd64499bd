"""Special files — FIFOs, sockets, devices — are never opened: opening a FIFO blocks until
someone writes to it, a device can be endless. The walk reports each one as a finding and
every command skips it."""

from __future__ import annotations

import os
import stat

from .findings import Finding, Severity

KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
         (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def special_kind(mode: int) -> str | None:
    """What a special file is, from its stat mode (None: a regular file, folder or link)."""
    return next((what for test, what in KINDS if test(mode)), None)


def special_finding(rel: str, path, follow: bool = False) -> Finding | None:
    """The finding for `path` when it is a special file (through a link with `follow`)."""
    try:
        mode = os.stat(path, follow_symlinks=follow).st_mode
    except OSError:
        return None
    what = special_kind(mode)
    if what is None:
        return None
    severity = Severity.ERROR if rel.endswith(".md") else Severity.WARNING  # a memory that cannot be read
    return Finding("parse.error", severity, rel,
                   f"{what}, not a regular file: never opened, skipped by every command")
