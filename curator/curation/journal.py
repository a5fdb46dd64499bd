"""The journal: every applied plan's before and after bytes, so undo and crash recovery can
restore any file. It lives in `<store>/.curator/journal/` (the loader skips `.curator/`, and a
`.gitignore` there keeps it out of commits): it travels with the store and needs no user state.

Entry layout: `<id>/meta.json` ({id, operation, title, created, state, files: [{path, before,
after}]} where before/after name blobs or are null) and `<id>/blobs/<sha256>`.
States: pending → applied → undoing → undone; pending/undoing entries are finished on recovery.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from .plan import Busy, Plan

DIR = ".curator"


def curator_dir(root: Path) -> Path:
    d = root / DIR
    if not d.exists():
        d.mkdir(parents=True, exist_ok=True)
        (d / ".gitignore").write_text("# curator's journal and archive: local undo history, not for commits\n*\n")
    return d


def journal_dir(root: Path) -> Path:
    d = curator_dir(root) / "journal"
    d.mkdir(parents=True, exist_ok=True)
    return d


@contextmanager
def locked(root: Path, wait: float = 5.0):
    """Hold the store's write lock (an flock on `.curator/lock`); where flock does not exist
    (Windows) the journal alone has to do."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    fd = os.open(curator_dir(Path(root)) / "lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise Busy("another curator is writing to this store; try again in a moment") from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes) -> None:
    """temp file in the same folder + fsync + rename: readers see the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_dir(path.parent)


def replace(src, dst) -> None:
    """os.replace, behind a name tests can fault-inject."""
    os.replace(src, dst)


def remove(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        return
    fsync_dir(path.parent)


@dataclass
class Entry:
    id: str
    path: Path
    meta: dict

    @property
    def state(self) -> str:
        return self.meta["state"]

    def blob(self, digest: str | None) -> bytes | None:
        return None if digest is None else (self.path / "blobs" / digest).read_bytes()

    def files(self):
        for f in self.meta["files"]:
            yield f["path"], self.blob(f["before"]), self.blob(f["after"])

    def set_state(self, state: str) -> None:
        self.meta["state"] = state
        self.meta[f"{state}_at"] = _now()
        atomic_write(self.path / "meta.json", json.dumps(self.meta, indent=1).encode())


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_entry(root: Path, plan: Plan) -> Entry:
    jdir = journal_dir(root)
    existing = sorted(p.name for p in jdir.iterdir() if p.is_dir())
    n = int(existing[-1].split("-", 1)[0]) + 1 if existing else 1
    entry_id = f"{n:05d}-{plan.operation}"
    path = jdir / entry_id
    (path / "blobs").mkdir(parents=True)
    files = []
    for e in plan.edits:
        rec = {"path": e.path, "before": None, "after": None}
        for key, data in (("before", e.before), ("after", e.after)):
            if data is not None:
                digest = _digest(data)
                blob = path / "blobs" / digest
                if not blob.exists():
                    atomic_write(blob, data)
                rec[key] = digest
        files.append(rec)
    meta = {"id": entry_id, "operation": plan.operation, "title": plan.title, "created": _now(),
            "state": "pending", "files": files, "notes": plan.notes}
    atomic_write(path / "meta.json", json.dumps(meta, indent=1).encode())
    fsync_dir(jdir)
    return Entry(entry_id, path, meta)


def entries(root: Path) -> list[Entry]:
    jdir = root / DIR / "journal"
    if not jdir.is_dir():
        return []
    out = []
    for p in sorted(jdir.iterdir()):
        meta_path = p / "meta.json"
        if not meta_path.is_file():
            continue  # an entry whose meta never got written: nothing was applied from it
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        out.append(Entry(p.name, p, meta))
    return out
