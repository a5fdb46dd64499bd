"""A plan is the list of file edits an operation would make, shown as a diff before anything
is written. Paths are store-relative with "/"; `before`/`after` are bytes, None = absent."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field


class CurationError(Exception):
    """A refused operation: bad name, target outside the store, nothing to do... (exit 2)."""


class NothingToDo(CurationError):
    """The store already is as the operation would leave it (the CLI exits 0, not 2)."""

    def __init__(self, message: str, operation: str = "") -> None:
        super().__init__(message)
        self.operation = operation


class WriteFailed(CurationError):
    """The disk refused a write (full, read-only, permission); the operation was rolled back."""


class Busy(CurationError):
    """Another curator (the app, a CLI run) is writing to this store right now."""


class ChangedOnDisk(CurationError):
    def __init__(self, path: str) -> None:
        super().__init__(f"{path} changed on disk since you looked; re-open it and plan again")
        self.path = path


@dataclass(frozen=True, slots=True)
class FileEdit:
    path: str
    before: bytes | None
    after: bytes | None

    @property
    def action(self) -> str:
        if self.before is None:
            return "create"
        if self.after is None:
            return "delete"
        return "modify"


@dataclass
class Plan:
    operation: str  # promote | fix | keywords | refresh | prune
    title: str
    edits: list[FileEdit] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    kind: str = "store"  # the journal it is written to: a store's, or "repository" (instruction files)

    @property
    def empty(self) -> bool:
        return not any(e.before != e.after for e in self.edits)

    def diff(self, prefix: str = "") -> str:
        """The unified diff; `prefix` (the store's folder in its repository, `.serena/memories/`)
        makes its paths repository-relative."""
        return "".join(diff_lines(self, prefix))

    def to_json(self) -> dict:
        return {
            "operation": self.operation,
            "title": self.title,
            "files": [{"path": e.path, "action": e.action} for e in self.edits],
            "notes": self.notes,
            "diff": self.diff(),
        }


def _text(data: bytes | None) -> list[str]:
    if data is None:
        return []
    return data.decode("utf-8", errors="replace").splitlines(keepends=True)


def _moves(plan: Plan) -> dict[str, FileEdit]:
    """Deleted path → the created file it became: the same bytes (archiving), or the same bytes
    with lines put before them (a flat skill moved into its folder with a drafted frontmatter)."""
    created = [e for e in plan.edits if e.before is None and e.after is not None]
    out: dict[str, FileEdit] = {}
    for e in plan.edits:
        if e.after is None and e.before is not None:
            twin = next((c for c in created if c.after == e.before), None) or next(
                (c for c in created if e.before and c.after is not None and c.after.endswith(e.before)
                 and c not in out.values()), None)
            if twin is not None:
                out[e.path] = twin
    return out


def diff_lines(plan: Plan, prefix: str = ""):
    """Unified diff of every edit; a file moved shows as one rename line (and the lines it
    gained on the way, if any). Paths are the plan's (store-relative), after `prefix`."""
    moved = _moves(plan)
    targets = {c.path for c in moved.values()}
    for e in plan.edits:
        if e.path in moved:
            twin = moved[e.path]
            yield f"rename {prefix}{e.path} → {prefix}{twin.path}\n"
            if twin.after != e.before:
                yield from difflib.unified_diff(_text(e.before), _text(twin.after), f"a/{prefix}{e.path}", f"b/{prefix}{twin.path}", n=2)
            continue
        if e.path in targets:
            continue
        a = f"a/{prefix}{e.path}" if e.before is not None else "/dev/null"
        b = f"b/{prefix}{e.path}" if e.after is not None else "/dev/null"
        lines = list(difflib.unified_diff(_text(e.before), _text(e.after), a, b, n=2))
        for line in lines:
            yield line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"


COUNT = re.compile(r"(\]\([^)\s]*\)) \(\d+\)")  # an L0 link's token count: `[x](x.md) (123)`


def changes(plan: Plan) -> list[tuple[str, str, tuple[str, ...]]]:
    """What a plan changes, without where: per file its action and the lines it removes and adds
    (no context, no line numbers), so an edit elsewhere in a file leaves it the same. An L0
    link's `(N)` is left out: it is recounted from the files as they are, never a choice."""
    out = []
    for e in plan.edits:
        if e.before == e.after:
            continue
        lines = difflib.unified_diff(_text(e.before), _text(e.after), n=0)
        out.append((e.path, e.action, tuple(COUNT.sub(r"\1 (N)", ln) for ln in lines
                                            if ln[:1] in "+-" and ln[:3] not in ("+++", "---"))))
    return sorted(out)


def same_changes(a: Plan, b: Plan) -> bool:
    return changes(a) == changes(b)
