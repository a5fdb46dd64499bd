"""Which journal entries curator trusts, and where the others go.

An entry is trusted only when this user's curator wrote it (its seal, `seal.py`) and it is well
formed: its name, a readable meta.json mapping, a known state, sha256-hex digests and every path
one its journal may name (`trust.journal_path`: a store's records and tier folders, or the
repository's instruction files; never `.git/`, `.curator/`, anything outside or a special file).
A forged seal or a path out of bounds is moved to `.curator/quarantine/` with a `.why` note —
before any byte of the files it names is read or written — and listed by `quarantined` for
`history`, `undo` and the app. An entry without a seal (written before entries were sealed) is
*unverifiable*: listed, never acted on unless the person names it (`curator undo --entry`).
`history` lists the journal: every trusted entry, then the unverifiable, untrusted and
quarantined ones with why.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from ..base.trust import REPOSITORY, STORE, Untrusted, journal_path
from .journal import DIR, HEX64, ID, META_CAP, STATES, Entry, _refuse_link, atomic_write
from .seal import FORGED, UNSEALED, verdict


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


class Gate:
    """Decides, for the journal at `root` read as `kind`, which paths an entry may name; the
    repository's instruction files are looked up (the context model) only when needed."""

    def __init__(self, root: Path, kind: str = STORE) -> None:
        self.root, self.kind = Path(root), kind
        self._known: Callable[[str], bool] | None = None

    def known(self, rel: str) -> bool:
        known = self._known
        if known is None:
            from .instruction_fixes import instruction_files

            known = self._known = instruction_files(self.root)
        return known(rel)

    def path(self, rel: str, kind: str | None = None) -> Path:
        """The absolute path of `rel` if an entry of `kind` may name it (Untrusted otherwise)."""
        return journal_path(kind or self.kind, self.root, rel, self.known)


def _problem(gate: Gate, p: Path) -> tuple[dict | None, str | None, str]:
    """(meta, None, seal verdict) for an entry that is well formed, else (None, why not, …)."""
    from ..base.safeio import UnsafeFile, read_small_file

    if p.is_symlink() or not p.is_dir():
        return None, "not a folder", ""
    if not ID.match(p.name):
        return None, "not an entry name", ""
    meta_path = p / "meta.json"
    try:
        meta = json.loads(read_small_file(meta_path, META_CAP).decode("utf-8"))
    except FileNotFoundError:
        return None, "no meta.json", ""
    except (OSError, UnsafeFile, ValueError):
        return None, "meta.json is not readable JSON", ""
    if not isinstance(meta, dict):
        return None, "meta.json is not a mapping", ""
    sealed = verdict(meta)
    if sealed == FORGED:
        return None, "not written by curator for this user (its seal does not match your key)", sealed
    if meta.get("state") not in STATES:
        return None, "unknown state", sealed
    kind = meta.get("kind") if sealed != UNSEALED else gate.kind  # an unsealed kind is only a claim
    if kind not in (STORE, REPOSITORY):
        return None, "unknown journal kind", sealed
    files = meta.get("files")
    if not isinstance(files, list):
        return None, "no list of files", sealed
    for f in files:
        if not isinstance(f, dict) or not isinstance(f.get("path"), str):
            return None, "a file without a path", sealed
        for key in ("before", "after"):
            d = f.get(key)
            if d is not None and not (isinstance(d, str) and HEX64.match(d)):
                return None, "a digest that is not sha256 hex", sealed
        try:
            gate.path(f["path"], kind)
        except Untrusted as exc:
            return None, f"a path outside the {kind} or not its journal's to name: {exc}"[:200], sealed
    if (p / "blobs").is_symlink():
        return None, "blobs is a symlink", sealed
    for key in ("title", "operation", "created"):
        if key in meta and not isinstance(meta[key], str):
            meta[key] = str(meta[key])
    meta["kind"] = kind
    return meta, None, sealed


class Scan(NamedTuple):
    good: list[Entry]  # sealed by this user and well formed: recovery, undo and history act on them
    bad: list[tuple[Path, str]]  # set aside (quarantined) by the next write, with why
    unsealed: list[Entry]  # well formed but unverifiable: shown, acted on only when named


def scan(root: Path, kind: str = STORE) -> Scan:
    """Every entry of the journal at `root` (read as a journal of `kind`), sorted into trusted,
    untrusted and unverifiable. An entry folder without meta.json is a write that never
    started: none of them."""
    jdir = Path(root) / DIR / "journal"
    if jdir.is_symlink() or (Path(root) / DIR).is_symlink() or not jdir.is_dir():
        return Scan([], [], [])
    out = Scan([], [], [])
    try:
        children = sorted(jdir.iterdir())
    except OSError:
        return out
    gate = Gate(Path(root), kind)
    for p in children:
        meta, why, sealed = _problem(gate, p)
        if meta is not None:
            entry = Entry(p.name, p, meta, trust=sealed)
            (out.unsealed if sealed == UNSEALED else out.good).append(entry)
        elif why == "no meta.json" and p.is_dir() and not p.is_symlink():
            continue
        else:
            out.bad.append((p, why or "not a journal entry"))
    return out


def entries(root: Path, kind: str = STORE) -> list[Entry]:
    """The entries this user's curator wrote (the only ones acted on unasked)."""
    return scan(root, kind).good


def history(root: Path, kind: str = STORE) -> list[dict]:
    """Every operation in the journal, then every entry curator does not act on: `unverifiable`
    (no seal: `curator undo --entry ID` after seeing its diff), `untrusted` (still in the journal:
    the next write sets it aside) and `quarantined` (set aside), with why."""
    good, bad, unsealed = scan(Path(root), kind)
    items = [
        {"id": e.id, "operation": e.meta.get("operation"), "title": e.meta.get("title"),
         "state": e.state, "created": e.meta.get("created"),
         "files": [f["path"] for f in e.meta.get("files", [])]}
        for e in good
    ]
    items += [{"id": e.id, "operation": e.meta.get("operation"), "title": e.meta.get("title"),
               "state": "unverifiable", "was": e.state, "created": e.meta.get("created"),
               "files": [f["path"] for f in e.meta.get("files", [])]} for e in unsealed]
    for state, found in (("untrusted", [(p.name, why) for p, why in bad]), ("quarantined", quarantined(root))):
        items += [{"id": name, "operation": None, "title": f"not trusted: {why}", "state": state,
                   "created": None, "files": []} for name, why in found]
    return items
