"""Which journal entries curator trusts, and where the others go.

An entry is trusted only when it is well formed: its name, a readable meta.json mapping, a known
state, sha256-hex digests and every path inside the store (`trust.store_path`: the store's real
root and its ADR-002 tier folders, never widened by config). Anything else is moved to
`.curator/quarantine/` with a `.why` note — before any byte of the files it names is read or
written — and listed by `quarantined` for `history`, `undo` and the app. `history` lists the
journal: every trusted entry, then the untrusted and quarantined ones with why.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

from .journal import DIR, HEX64, ID, META_CAP, STATES, Entry, _refuse_link, atomic_write
from .plan import CurationError


def quarantine(root: Path, path: Path, reason: str) -> str:
    """Move a journal part curator cannot trust out of the way (into `.curator/quarantine/`),
    never deleting it; returns a one-line message."""
    qdir = Path(root) / DIR / "quarantine"
    _refuse_link(qdir, f"{DIR}/quarantine")
    qdir.mkdir(parents=True, exist_ok=True)
    dest = qdir / f"{path.name}-{datetime.now(UTC).strftime('%Y%m%dT%H%M%S%f')}"
    os.replace(path, dest)
    try:  # why, for `history`, `undo` and the app (the entry itself is never trusted again)
        atomic_write(qdir / f"{dest.name}{WHY}", reason.encode("utf-8", "replace")[:500])
    except OSError:
        pass
    return f"journal entry {path.name} set aside in {DIR}/quarantine ({reason})"


WHY = ".why"


def quarantined(root: Path) -> list[tuple[str, str]]:
    """(name, reason) of every journal part set aside in `.curator/quarantine/` (read only)."""
    qdir = Path(root) / DIR / "quarantine"
    if (Path(root) / DIR).is_symlink() or qdir.is_symlink() or not qdir.is_dir():
        return []
    from ..base.safeio import UnsafeFile, read_small_file

    out = []
    try:
        names = sorted(p.name for p in qdir.iterdir() if not p.name.endswith(WHY))
    except OSError:
        return []
    for name in names:
        try:
            why = read_small_file(qdir / f"{name}{WHY}", 1000).decode("utf-8", "replace").strip()
        except (OSError, UnsafeFile):
            why = "no reason kept"
        out.append((name, " ".join(why.split())))
    return out


def _problem(root: Path, p: Path) -> tuple[dict | None, str | None]:
    """(meta, None) for an entry that is well formed, else (None, why not)."""
    from ..base.safeio import UnsafeFile, read_small_file
    from .validate import inside_store

    if p.is_symlink() or not p.is_dir():
        return None, "not a folder"
    if not ID.match(p.name):
        return None, "not an entry name"
    meta_path = p / "meta.json"
    try:
        meta = json.loads(read_small_file(meta_path, META_CAP).decode("utf-8"))
    except FileNotFoundError:
        return None, "no meta.json"
    except (OSError, UnsafeFile, ValueError):
        return None, "meta.json is not readable JSON"
    if not isinstance(meta, dict):
        return None, "meta.json is not a mapping"
    if meta.get("state") not in STATES:
        return None, "unknown state"
    files = meta.get("files")
    if not isinstance(files, list):
        return None, "no list of files"
    for f in files:
        if not isinstance(f, dict) or not isinstance(f.get("path"), str):
            return None, "a file without a path"
        for key in ("before", "after"):
            d = f.get(key)
            if d is not None and not (isinstance(d, str) and HEX64.match(d)):
                return None, "a digest that is not sha256 hex"
        try:
            inside_store(root, f["path"])
        except CurationError:
            return None, f"a path outside the store: {ascii(f['path'])[1:-1][:70]}"
    if (p / "blobs").is_symlink():
        return None, "blobs is a symlink"
    for key in ("title", "operation", "created"):
        if key in meta and not isinstance(meta[key], str):
            meta[key] = str(meta[key])
    return meta, None


def scan(root: Path) -> tuple[list[Entry], list[tuple[Path, str]]]:
    """Every well-formed entry in order, and every entry curator cannot trust (with why).
    An entry folder without meta.json is a write that never started: neither."""
    jdir = Path(root) / DIR / "journal"
    if jdir.is_symlink() or (Path(root) / DIR).is_symlink() or not jdir.is_dir():
        return [], []
    good, bad = [], []
    try:
        children = sorted(jdir.iterdir())
    except OSError:
        return [], []
    for p in children:
        meta, why = _problem(Path(root), p)
        if meta is not None:
            good.append(Entry(p.name, p, meta))
        elif why == "no meta.json" and p.is_dir() and not p.is_symlink():
            continue
        else:
            bad.append((p, why))
    return good, bad


def entries(root: Path) -> list[Entry]:
    return scan(root)[0]


def history(root: Path) -> list[dict]:
    """Every operation in the journal, then every entry curator does not trust: `untrusted`
    (still in the journal: the next write sets it aside) and `quarantined` (set aside), with why."""
    good, bad = scan(Path(root))
    items = [
        {"id": e.id, "operation": e.meta.get("operation"), "title": e.meta.get("title"),
         "state": e.state, "created": e.meta.get("created"),
         "files": [f["path"] for f in e.meta.get("files", [])]}
        for e in good
    ]
    for state, found in (("untrusted", [(p.name, why) for p, why in bad]), ("quarantined", quarantined(root))):
        items += [{"id": name, "operation": None, "title": f"not trusted: {why}", "state": state,
                   "created": None, "files": []} for name, why in found]
    return items
