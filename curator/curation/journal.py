"""The journal: every applied plan's before and after bytes, so undo and crash recovery can
restore any file. It lives in `<store>/.curator/journal/` (the loader skips `.curator/`, and a
`.gitignore` there keeps it out of commits): it travels with the store and needs no user state.

Entry layout: `<id>/meta.json` ({id, operation, title, created, state, kind, files: [{path,
before, after}], seal} where before/after name blobs or are null) and `<id>/blobs/<sha256>`.
`kind` is the journal's ("store", or "repository" for instruction-file fixes: `trust.journal_path`
says what each may name); `seal` is this user's HMAC over the rest (`seal.py`), made again at
every state change. States: pending → applied → undoing → undone; pending/undoing entries are
finished on recovery.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import stat
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..base.trust import STORE
from .plan import CurationError, Plan, WriteFailed
from .seal import SEALED, UNSEALED, seal

DIR = ".curator"
GITIGNORE = b"# curator's journal and archive: local undo history, not for commits\n*\n"


def _refuse_link(path: Path, what: str) -> None:
    """A `.curator` part that is a symlink (or not a folder) would send curator's writes
    outside the store: refuse it in one line."""
    if path.is_symlink():
        raise CurationError(f"{what} is a symlink; curator writes its journal only inside the store (remove the link)")
    if path.exists() and not path.is_dir():
        raise CurationError(f"{what} is not a folder; move it away so curator can keep its journal there")


def curator_dir(root: Path) -> Path:
    from ..base.locations import demo_copy, shipped

    if shipped(root) is not None:  # nothing curator ships is written: the demo has a private copy
        raise CurationError(f"{root} is curator's own, never written; the demo's copy is {demo_copy()}")
    d = Path(root) / DIR
    _refuse_link(d, DIR)
    try:
        d.mkdir(parents=True, exist_ok=True)
        ignore = d / ".gitignore"
        if ignore.is_symlink() or not ignore.is_file() or ignore.stat().st_size == 0:
            if ignore.is_symlink():
                ignore.unlink()
            try:  # (a crash's leftover temp file is swept by recovery, under the lock)
                atomic_write(ignore, GITIGNORE)  # never a 0-byte .gitignore on a full disk
            except FileNotFoundError:  # another curator's write of it raced ours: theirs is in place
                if not (ignore.is_file() and not ignore.is_symlink()):
                    raise
    except OSError as exc:
        raise WriteFailed(f"cannot write to {root}: {exc.strerror or exc}; nothing was changed") from None
    return d


def journal_dir(root: Path) -> Path:
    d = curator_dir(root) / "journal"
    _refuse_link(d, f"{DIR}/journal")
    d.mkdir(parents=True, exist_ok=True)
    return d


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


def _open_temp(path: Path, mode: int | None) -> tuple[int, str]:
    """A new temp file beside `path` (`.name.XXXX.tmp`): with `mode`, else as a plain editor
    makes a new file (0666 less the umask: the kernel applies it)."""
    for _ in range(100):
        tmp = str(path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
        except FileExistsError:
            continue
        if mode is not None:
            try:
                os.fchmod(fd, mode)
            except OSError:
                pass  # a file system without modes: the default stays
        return fd, tmp
    raise FileExistsError(f"no free temp name beside {path}")


def file_mode(path: Path) -> int | None:
    """The permission bits a write of `path` keeps (None: no such file; set-id bits dropped)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return stat.S_IMODE(st.st_mode) & ~(stat.S_ISUID | stat.S_ISGID) if stat.S_ISREG(st.st_mode) else None


def write_temp(path: Path, data: bytes, mode: int | None = None) -> str:
    """A synced temp file beside `path` (`.name.XXXX.tmp`), holding `data`, with `path`'s own
    mode (or `mode`; a new file gets the mode a plain editor gives one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _open_temp(path, mode if mode is not None else file_mode(path))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        _unlink(tmp)
        raise
    return tmp


def _unlink(path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def atomic_write(path: Path, data: bytes) -> None:
    """temp file in the same folder + fsync + rename: readers see the old or the new file."""
    tmp = write_temp(path, data)
    try:
        replace(tmp, path)
    except BaseException:
        _unlink(tmp)
        raise
    fsync_dir(path.parent)


def replace(src, dst) -> None:
    """os.replace, behind a name tests can fault-inject."""
    os.replace(src, dst)


def link_new(src, dst) -> None:
    """Give `src` the name `dst` only if nothing holds that name (FileExistsError otherwise):
    a hard link where the file system has them, else a checked rename."""
    try:
        os.link(src, dst)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(dst):
            raise FileExistsError(dst) from None
        os.replace(src, dst)
        return
    _unlink(src)


def _quiet_lease_breaks() -> None:
    """A lease-break notice is SIGIO to the holder, and SIGIO's default action ends the process:
    ignore it (curator uses no SIGIO; the lease is held for microseconds and dropped anyway).
    Only the main thread may set a handler; elsewhere the default stays (an open-for-writing of
    a hidden `.aside` file within those microseconds is the only way to meet it)."""
    import signal

    try:
        if signal.getsignal(signal.SIGIO) == signal.SIG_DFL:
            signal.signal(signal.SIGIO, signal.SIG_IGN)
    except (AttributeError, ValueError, OSError):
        pass


def _no_writers(fd: int, wait: float) -> bool:
    """Take a read lease on `fd` (Linux): it is granted only while no one holds the file open for
    writing, so no handle opened earlier can add bytes until it is released. Waits up to `wait`
    seconds for such a handle to close; False where leases do not exist or are not ours to take."""
    try:
        import fcntl

        setlease, rdlck = fcntl.F_SETLEASE, fcntl.F_RDLCK
    except (ImportError, AttributeError):
        return False
    _quiet_lease_breaks()
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.fcntl(fd, setlease, rdlck)
            return True
        except BlockingIOError:  # someone still has it open for writing
            if time.monotonic() > deadline:
                return False
            time.sleep(0.001)
        except OSError:  # not our file, or a file system without leases: best effort
            return False


def _drop_lease(fd: int) -> None:
    import fcntl

    try:
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
    except OSError:
        pass


def drain(path: Path, wait: float = 2.0) -> bytes | None:
    """Remove `path` and return every byte it ends with, including bytes written through a handle
    someone opened before: wait (a read lease, where the system has them) until no one has it open
    for writing, unlink it, then read it through our own descriptor, so nothing written before
    that read is lost. None if it is gone already."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return None
    try:
        leased = _no_writers(fd, wait)
        try:
            remove(path)
            chunks: list[bytes] = []
            while chunk := os.pread(fd, 1 << 20, sum(map(len, chunks))):
                chunks.append(chunk)
            return b"".join(chunks)
        finally:
            if leased:
                _drop_lease(fd)
    finally:
        os.close(fd)


def remove(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        return
    fsync_dir(path.parent)


STATES = ("pending", "applied", "undoing", "undone", "rolled-back")
HEX64 = re.compile(r"[0-9a-f]{64}\Z")
ID = re.compile(r"[0-9]{5,}-[a-z-]{1,40}\Z")
META_CAP = 4_000_000


class JournalCorrupt(CurationError):
    """A journal entry that does not hold what it claims (a blob missing, altered or not a file)."""


class Recovered(list[str]):
    """Ids of the operations recovery rolled back; `notes` says what it set aside and why,
    `restored` the files it put back."""

    def __init__(self, ids=(), notes=(), restored=()) -> None:
        super().__init__(ids)
        self.notes = list(notes)
        self.restored = list(restored)


@dataclass
class Entry:
    id: str
    path: Path
    meta: dict
    notes: list = field(default_factory=list)  # what recovery set aside before this entry was read
    trust: str = SEALED  # UNSEALED: written before entries were sealed; acted on only when named
    recovered: Recovered = field(default_factory=Recovered)  # what recovery put back before this entry was undone

    @property
    def state(self) -> str:
        return self.meta["state"]

    @property
    def kind(self) -> str:
        return self.meta.get("kind") or STORE

    def blob(self, digest: str | None) -> bytes | None:
        """The bytes a digest names, verified: a blob is a regular file in this entry's
        `blobs/` whose sha256 is its name; anything else is JournalCorrupt."""
        if digest is None:
            return None
        if not isinstance(digest, str) or not HEX64.match(digest):
            raise JournalCorrupt(f"journal entry {self.id} names a blob that is not a sha256 digest")
        from ..base.safeio import UnsafeFile, read_small_file

        try:
            data = read_small_file(self.path / "blobs" / digest, cap=1 << 40)
        except (OSError, UnsafeFile):
            raise JournalCorrupt(f"journal entry {self.id} lost the saved copy of a file") from None
        if _digest(data) != digest:
            raise JournalCorrupt(f"journal entry {self.id} holds an altered copy of a file")
        return data

    def files(self):
        for f in self.meta["files"]:
            yield f["path"], self.blob(f["before"]), self.blob(f["after"])

    def check_blobs(self) -> None:
        for f in self.meta["files"]:
            self.blob(f["before"])
            self.blob(f["after"])

    def set_state(self, state: str) -> None:
        self.meta["state"] = state
        self.meta[f"{state}_at"] = _now()
        self.save()

    def save(self) -> None:
        """Write meta.json, sealed again (an unsealed entry stays unsealed until adopted)."""
        if self.trust != UNSEALED:
            self.meta = seal(self.meta)
        atomic_write(self.path / "meta.json", json.dumps(self.meta, indent=1).encode())

    def adopt(self, kind: str) -> None:
        """The person named this unverifiable entry after seeing its diff: from now on it is
        theirs, sealed with their key (as a journal of `kind`)."""
        self.meta["kind"], self.meta["adopted_at"] = kind, _now()
        self.trust = SEALED
        self.save()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _entry_numbers(jdir: Path) -> list[int]:
    out = []
    for p in jdir.iterdir():
        head = p.name.split("-", 1)[0]
        if head.isdigit():
            out.append(int(head))
    return out


def write_entry(root: Path, plan: Plan) -> Entry:
    jdir = journal_dir(root)
    n = max(_entry_numbers(jdir), default=0) + 1
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
    meta = seal({"id": entry_id, "operation": plan.operation, "title": plan.title, "created": _now(),
                 "state": "pending", "kind": plan.kind, "files": files, "notes": plan.notes})
    atomic_write(path / "meta.json", json.dumps(meta, indent=1).encode())
    fsync_dir(jdir)
    return Entry(entry_id, path, meta)


def discard(entry: Entry) -> None:
    """Remove an entry no file was swapped for (its pending state would roll back nothing)."""
    shutil.rmtree(entry.path, ignore_errors=True)
    fsync_dir(entry.path.parent)
