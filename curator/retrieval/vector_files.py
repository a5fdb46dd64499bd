"""The embedding cache's vector files (`.npy`): mapped so that a query's few rows are all that
becomes resident, and checked against their CRC once per version of the file. A version is what a
write changes and a user cannot set back: the change time and the inode, besides size and mtime
(both of which `touch` sets)."""

from __future__ import annotations

import os
from pathlib import Path

from .blob_file import open_held, read_at

CHUNK = 1 << 20


def file_version(path: Path) -> str:
    st = path.stat()
    return f"{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}\0{st.st_ino}\0{st.st_dev}"


def mapped(npy: Path, rows: bool):
    """(the matrix in place, the offset of its bytes in the file). `rows`: read a row at a time
    (`RowFile`), never mapped: this kernel maps a page cache's large folios whole, so 100 rows of
    160 MB of passage vectors made 115 MB resident through a mapping, 150 KB this way."""
    import mmap

    import numpy as np

    with open(npy, "rb") as fh:
        major, _minor = np.lib.format.read_magic(fh)
        read_header = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
        shape, fortran, dtype = read_header(fh)
        offset = fh.tell()
        if fortran or len(shape) != 2:
            raise ValueError("not a matrix of rows")
        if shape[0] == 0:
            return np.zeros(shape, dtype=dtype), offset
        if rows and hasattr(os, "pread"):
            return RowFile(npy, shape, dtype, offset), offset
        area = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    return np.ndarray(shape, dtype=dtype, buffer=area, offset=offset), offset


class RowFile:
    """A saved matrix whose rows are read one at a time, when asked for (thread-safe: pread)."""

    def __init__(self, path: Path, shape: tuple[int, int], dtype, offset: int) -> None:
        import weakref

        self.shape, self.dtype, self.offset = shape, dtype, offset
        self.width = shape[1] * dtype.itemsize
        self.fd = open_held(path)
        weakref.finalize(self, os.close, self.fd)

    def __len__(self) -> int:
        return self.shape[0]

    def whole(self):
        """Every row, read in one go (to write the file again with a few more)."""
        import numpy as np

        data = read_at(self.fd, self.width * self.shape[0], self.offset)
        return np.frombuffer(data, dtype=self.dtype).reshape(self.shape)

    def __getitem__(self, row: int):
        import numpy as np

        if not 0 <= row < self.shape[0]:
            raise IndexError(row)
        try:
            data = read_at(self.fd, self.width, self.offset + row * self.width)
        except ValueError:
            raise IndexError(f"row {row} is past the end of the vectors file") from None
        return np.frombuffer(data, dtype=self.dtype)


def _stamp_of(npy: Path) -> Path:
    return npy.with_name(f"{npy.name}.ok")


def stamp(npy: Path, crc: int) -> None:
    """Note that this version of a vectors file has the CRC its keys name (`checked`)."""
    try:
        _stamp_of(npy).write_text(f"{file_version(npy)}\0{crc}", encoding="ascii")
    except OSError:
        pass  # checked in full next time


def checked(npy: Path, crc: int, offset: int) -> bool:
    """The vectors (the file's bytes from `offset`) match their CRC: read in full once per
    version of the file, then known by its stamp. Read, not mapped: nothing stays resident."""
    import zlib

    from ..base.safeio import UnsafeFile, read_small_file

    try:
        if read_small_file(_stamp_of(npy), 256) == f"{file_version(npy)}\0{crc}".encode("ascii"):
            return True
    except (OSError, UnsafeFile):
        pass
    got = 0
    with open(npy, "rb") as fh:
        fh.seek(offset)
        while chunk := fh.read(CHUNK):
            got = zlib.crc32(chunk, got)
    if got != crc:
        return False
    stamp(npy, crc)
    return True
