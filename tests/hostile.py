"""What the trust tests share: a tree's hash (byte for byte, names included) and sha256 hex."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path


def tree_hash(root: Path) -> str:
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in sorted(os.walk(root)):
        dirnames.sort()
        for name in sorted(filenames):
            p = Path(dirpath) / name
            h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
