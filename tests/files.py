"""A tree of files from {relative path: text or bytes}: the `make_store` fixture's, and the
property tests' (hypothesis cannot take a function-scoped fixture)."""

from __future__ import annotations

from pathlib import Path


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")
    return root
