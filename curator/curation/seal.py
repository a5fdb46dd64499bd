"""Which journal entries this user's curator wrote: each entry's metadata (its files' paths and
blob digests, state, kind, title) carries an HMAC-SHA256 made with a per-user key.

The key is 32 random bytes in the user's config folder (`journal-key`, mode 0600, made on first
use; platformdirs like every other user folder). A journal that came with a clone, a tarball or
another user's checkout has no seal this key makes: it is data, never instructions. An entry
with a seal that does not match is set aside before any blob is read; one without a seal
(written before entries were sealed) is "unverifiable": shown, never acted on unless the person
names it after seeing its diff (`curator undo --entry ID`, the app's history).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
from pathlib import Path
from typing import Literal, overload

KEY_FILE = "journal-key"
DOMAIN = b"curator journal entry v1\0"
SEALED, FORGED, UNSEALED = "sealed", "forged", "unsealed"

_keys: dict[str, bytes] = {}


class KeyUnavailable(OSError):
    """The key cannot be read or made (a read-only or foreign config folder); message is one line."""


def key_path() -> Path:
    from ..base.locations import config_dir

    return config_dir() / KEY_FILE


def _read(path: Path) -> bytes:
    """The key file's bytes: a regular file of ours (never through a link), group and others
    shut out (a file they could read is tightened to 0600 first)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > 4096:
            raise KeyUnavailable(f"{path} is not curator's key file; move it away")
        if hasattr(os, "getuid") and st.st_uid != os.getuid():
            raise KeyUnavailable(f"{path} belongs to another user; curator trusts only a key of yours")
        if st.st_mode & 0o077:
            os.fchmod(fd, 0o600)
        return os.read(fd, 4096)
    finally:
        os.close(fd)


def _make(path: Path) -> None:
    """Write a new key, atomically and never over one another process made meanwhile."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(f".{KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.write(fd, secrets.token_hex(32).encode() + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)
    except FileExistsError:
        pass  # another curator made it first: theirs is the key
    finally:
        os.unlink(tmp)


@overload
def key(create: Literal[True]) -> bytes: ...


@overload
def key(create: bool = False) -> bytes | None: ...


def key(create: bool = False) -> bytes | None:
    """This user's key (made when `create` and there is none yet); None when there is none."""
    path = key_path()
    cached = _keys.get(str(path))
    if cached is not None:
        return cached
    try:
        try:
            data = _read(path)
        except FileNotFoundError:
            if not create:
                return None
            _make(path)
            data = _read(path)
    except KeyUnavailable:
        raise
    except OSError as exc:
        raise KeyUnavailable(f"cannot keep curator's journal key in {path.parent}: {exc.strerror or exc}") from None
    try:
        value = bytes.fromhex(data.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        value = b""
    if len(value) != 32:
        raise KeyUnavailable(f"{path} is damaged; move it away (the journal entries it sealed become unverifiable)")
    _keys[str(path)] = value
    return value


def _message(meta: dict) -> bytes:
    body = {k: v for k, v in meta.items() if k != "seal"}
    return DOMAIN + json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def seal(meta: dict) -> dict:
    """`meta` with its seal (made with this user's key, created on first use)."""
    k = key(create=True)
    return {**{k2: v for k2, v in meta.items() if k2 != "seal"},
            "seal": hmac.new(k, _message(meta), hashlib.sha256).hexdigest()}


def verdict(meta: dict) -> str:
    """SEALED (this user's curator wrote it), FORGED (a seal this user's key did not make) or
    UNSEALED (no seal: written before entries were sealed, or by hand)."""
    given = meta.get("seal")
    if given is None:
        return UNSEALED
    try:
        k = key()
    except KeyUnavailable:
        k = None
    if k is None or not isinstance(given, str):
        return FORGED
    return SEALED if hmac.compare_digest(given, hmac.new(k, _message(meta), hashlib.sha256).hexdigest()) else FORGED
