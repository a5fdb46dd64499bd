"""Reading small user files (config, golden queries) without trusting them: a regular file only
(never a FIFO, a device or a symlink), at most `cap` bytes, optionally inside given folders; and
the checksum every cache file is written with."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .paths import is_within

SMALL_FILE_CAP = 1_000_000


class UnsafeFile(Exception):
    """The file is not a small regular file inside the allowed folders (message is one line)."""


def read_small_file(path: Path | str, cap: int = SMALL_FILE_CAP, inside: tuple[Path, ...] = ()) -> bytes:
    """The bytes of a regular file of at most `cap` bytes. Raises FileNotFoundError when it is
    absent, UnsafeFile when it is a symlink, not regular, too large or outside `inside`, and
    OSError for the rest. Opening never blocks (O_NONBLOCK: a FIFO cannot hang the reader)."""
    path = Path(path)
    if "\x00" in str(path):
        raise UnsafeFile(f"{ascii(str(path))[:80]} is not a usable file name")
    if inside:
        real = path.resolve()
        if not any(is_within(real, Path(d).resolve()) for d in inside):
            raise UnsafeFile(f"{path} is outside the store and its repository")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        if path.is_symlink():
            raise UnsafeFile(f"{path} is a symlink; curator reads it only as a regular file") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeFile(f"{path} is not a regular file")
        if st.st_size > cap:
            raise UnsafeFile(f"{path} is larger than {cap:,} bytes")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            total += len(chunk)
            if total > cap:
                raise UnsafeFile(f"{path} is larger than {cap:,} bytes")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def one_line(exc: BaseException, limit: int = 160) -> str:
    """An exception as one short line (OSError: its strerror)."""
    if isinstance(exc, OSError) and exc.strerror:
        text = exc.strerror + (f": {exc.filename}" if exc.filename else "")
    else:
        text = str(exc) or type(exc).__name__
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- cache files: a checksum ahead of the bytes ---------------------------------------------
# A cache file in the user cache folder is curator's own, but a disk, a crash or a restored CI
# cache can damage it: each is written with a checksum of its bytes and read back only when it
# matches, so one damaged byte is a cache miss — never a traceback, never another verdict. (A
# checksum is no defence against someone who can write the cache folder: never share one across
# trust levels.)
CHECKED = b"CURC1"  # CRC-32 finds every damaged byte (and any burst up to 32 bits) at ~1 GB/s


def with_checksum(payload: bytes) -> bytes:
    """`payload` behind a magic and its CRC-32."""
    return checksum_head(payload) + payload


def checksum_head(payload: bytes) -> bytes:
    """What `with_checksum` puts before `payload` (a large payload is written after it, not
    copied behind it)."""
    import zlib

    return CHECKED + zlib.crc32(payload).to_bytes(4, "little")


def without_checksum(data: bytes) -> bytes | None:
    """The payload of `with_checksum`'s bytes, or None when they are damaged or of another kind."""
    import zlib

    head = len(CHECKED) + 4
    if len(data) < head or not data.startswith(CHECKED):
        return None
    payload = memoryview(data)[head:]
    if zlib.crc32(payload).to_bytes(4, "little") != data[len(CHECKED):head]:
        return None
    return bytes(payload)
