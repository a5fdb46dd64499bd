"""The yardstick of the check benchmarks: walk a store, read every markdown file, sha256 it.

    python -m curator.bench.readhash STORE
"""

from __future__ import annotations

import hashlib
import os
import sys


def read_and_hash(root: str, suffixes: tuple[str, ...] = (".md",), hidden: bool = False) -> int:
    """Files read and hashed: those ending in `suffixes`, below `root` (hidden folders too when
    `hidden`; `.git` never)."""
    n = 0
    stack = [root]
    while stack:
        folder = stack.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith(".") and (not hidden or entry.name == ".git"):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.name.endswith(suffixes):
                    with open(entry.path, "rb") as fh:
                        hashlib.sha256(fh.read()).hexdigest()
                    n += 1
    return n


if __name__ == "__main__":
    print(read_and_hash(sys.argv[1]))
