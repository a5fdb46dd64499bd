"""A `git archive` tar written out under a folder, as tarfile's "data" filter extracts it: names
that are absolute or leave the folder, links that leave it, devices and FIFOs are refused; a
file's mode loses its high and group/other write bits; its mtime is the commit's (the store
cache keys a file by its stat: an extracted base revision stays warm review after review).

The filter resolves every member's path (`realpath`) to see that no link leads it out: ~3/4 of
the time of extracting a 1,000-file store. Until the archive has brought a link, a plainly
named file under folders known to be real (made by this extraction, or found not to be links)
cannot lead out, so it is written directly; anything else, or a write that fails, goes through
tarfile with the filter, as before."""

from __future__ import annotations

import io
import os
import stat
import tarfile

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)
_ODD = ("\0", "\\", ":") if os.name == "nt" else ("\0",)  # in a name: a path or a drive there


def untar(data: bytes, dest: str | os.PathLike) -> None:
    """Every member of the tar `data` that the "data" filter lets through, under `dest`."""
    real: set[str] = {os.fspath(dest)}  # folders under dest known to be folders, not links
    plain = True  # no link extracted yet: a real folder stays one
    view = memoryview(data)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for member in tar:
            if plain and member.isreg() and _write_plain(member, view, os.fspath(dest), real):
                continue
            if member.islnk() or member.issym():
                plain = False
            try:
                tar.extract(member, dest, filter="data")
            except (tarfile.TarError, OSError):
                continue  # such a file is not read on the other side either


def _write_plain(member: tarfile.TarInfo, data: memoryview, dest: str, real: set[str]) -> bool:
    """Write one regular file whose path stays under real folders; False: leave it to tarfile."""
    parts = member.name.split("/")
    if any(p in ("", ".", "..") or any(c in p for c in _ODD) for p in parts):
        return False  # absolute, `..`, or a name another system reads as a path
    folder = dest
    for part in parts[:-1]:
        folder = os.path.join(folder, part)
        if folder in real:
            continue
        try:
            st = os.lstat(folder)
        except FileNotFoundError:
            try:
                os.mkdir(folder)  # as tarfile makes a folder the archive does not list
            except OSError:
                return False
        except OSError:
            return False
        else:
            if not stat.S_ISDIR(st.st_mode):
                return False  # a link (or a file) in the way: the filter judges it
        real.add(folder)
    mode = member.mode & 0o755
    if not mode & 0o100:
        mode &= ~0o111
    mode |= 0o600
    path = os.path.join(folder, parts[-1])
    try:  # never over anything already there (tarfile replaces it: left to it)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _BINARY, 0o600)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data[member.offset_data:member.offset_data + member.size])
        os.chmod(path, mode)
        os.utime(path, (member.mtime, member.mtime))
    except OSError:
        try:
            os.unlink(path)
        except OSError:
            pass
        return False
    return True
