"""Drift: what is out of step in a repository's memory, and how each memory system's start-up
load grew over its git history. Pure (no Textual, no Rich); the app's drift screen and
`curator drift` show it.

- `drift_findings(bench, scope)`: the findings that say two things disagree — an index row and
  the files (`index.*` targets, orphans), a stale `(N)` token count, `MEMORY.md` and its topic
  files, an experience entry and its summary, a link, and instruction files that were copies and
  diverged (any check whose id starts with one of `COPY_PREFIXES`, when such checks exist).
- `startup_history(store)`: the start-up load at each commit of the store's history (≈ tokens
  from the size of what `startup_of` loads now — the always-loaded index and auto-loaded tiers,
  `MEMORY.md` whole when imported else capped, Serena's memory names — at the work tree's tokens
  per byte; the work tree's point is the exact number) and the commits that grew it most. Cheap like `budgets.growth`: one
  `git log`, one `git ls-tree` per sampled commit; never raises.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..base.git import GitError
from ..base.git import run as git
from ..budgets.growth import (
    BYTES_PER_TOKEN,
    CALL_TIMEOUT,
    SAMPLES,
    TOTAL_TIMEOUT,
    is_memory_file,
    sample,
)
from ..model import formats as fmts

if TYPE_CHECKING:
    from .scope import Scope

# check id → what is out of step with what, in a few words
KINDS = {
    "index.missing-target": "index row → no file",
    "index.unrouted": "index → not routed",
    "index.duplicate-entry": "index row twice",
    "orphan.unindexed": "file → no index row",
    "tokens.stale-count": "stale token count",
    "budget.past-cap": "past the load cap",
    "experience.unpaired": "entry ↔ summary",
    "links.broken": "link → nothing",
    # instruction files (the context model's checks): what they name and what is there disagree
    "instructions.missing-path": "path named → none",
    "instructions.import-broken": "import → no file",
    "instructions.dead-glob": "glob → no file",
}
COPY_PREFIXES = ("instructions.", "context.")  # instruction files that were copies and diverged
COPY_KIND = "copies diverged"


def drift_kind(check: str, fmt: str | None = None) -> str | None:
    """What a finding of `check` says is out of step (None: not drift)."""
    if check.startswith(COPY_PREFIXES) and ("diverg" in check or "copy" in check or "drift" in check):
        return COPY_KIND
    kind = KINDS.get(check)
    if kind and fmt == fmts.CLAUDE and check in ("index.missing-target", "orphan.unindexed"):
        return "MEMORY.md ↔ topic file"
    return kind


def drift_findings(bench, scope: Scope):
    """The scope's findings that are drift, as `scope.Scoped`, with their kind."""
    from .scope import scoped_findings

    out = []
    for x in scoped_findings(bench, scope):
        fmt = bench.sources[x.source].spec.fmt if x.source is not None else None
        kind = drift_kind(x.finding.check, fmt)
        if kind:
            out.append((kind, x))
    return out


def kind_id(kind: str) -> str:
    """A kind as typed on the command line: `index row → no file` → `index-row-no-file`."""
    return re.sub(r"[^a-z0-9.]+", "-", kind.lower()).strip("-")


# every kind there is, as `curator drift --kind` and the drift screen's t names them
ALL_KINDS = tuple(dict.fromkeys([*KINDS.values(), "MEMORY.md ↔ topic file", COPY_KIND]))


def match_kinds(wanted: str) -> list[str]:
    """The kinds `wanted` names: its id, its words, or part of its id (`stale`, `memory.md`);
    several comma-separated. Raises ValueError naming the kinds when one matches none."""
    out: list[str] = []
    for part in (w.strip() for w in wanted.split(",")):
        if not part:
            continue
        key = kind_id(part)
        hits = [k for k in ALL_KINDS if kind_id(k) == key] or [k for k in ALL_KINDS if key in kind_id(k)]
        if not hits:
            raise ValueError(f"no kind of drift {part!r} (there are: {', '.join(kind_id(k) for k in ALL_KINDS)})")
        out += [k for k in hits if k not in out]
    return out


def filter_drift(items, kinds=(), text: str = ""):
    """The (kind, Scoped) items of the given kinds (none: every kind) whose kind, check, place
    or message hold every word of `text` — the drift screen's t and / filters, and the CLI's
    --kind and --text."""
    words = text.lower().split()
    out = []
    for kind, x in items:
        if kinds and kind not in kinds:
            continue
        f = x.finding
        hay = f"{kind} {kind_id(kind)} {f.check} {x.where} {f.message}".lower()
        if all(w in hay for w in words):
            out.append((kind, x))
    return out


@dataclass(frozen=True)
class LoadPoint:
    date: str
    commit: str | None  # None: the work tree
    subject: str
    bytes: int
    per_byte: float = 1 / BYTES_PER_TOKEN  # tokens a byte, measured on the work tree's load
    tokens: int | None = None  # the work tree: THE start-up number (`budgets.startup.startup_of`)
    offset: int = 0  # tokens every commit carries as the work tree does (a Serena project's initial prompt)

    @property
    def approx_tokens(self) -> int:
        """The start-up load in tokens: exact for the work tree, estimated for a commit from its
        bytes at the work tree's own tokens-per-byte (so the chart ends on the number every
        other screen shows)."""
        return self.tokens if self.tokens is not None else round(self.bytes * self.per_byte) + self.offset


@dataclass(frozen=True)
class LoadHistory:
    what: str  # what the agent loads, in words
    points: tuple[LoadPoint, ...] = ()  # oldest first; the last is the work tree
    reason: str = ""  # why there are no points

    def grew_most(self, n: int = 3) -> list[tuple[LoadPoint, int]]:
        """The commits whose start-up load grew most (≈ tokens added, as the chart draws them),
        largest first."""
        steps = [(b, b.approx_tokens - a.approx_tokens) for a, b in zip(self.points, self.points[1:], strict=False)]
        return sorted((s for s in steps if s[1] > 0), key=lambda s: -s[1])[:n]


def _loaded_bytes(fmt: str, files: tuple[str, ...], cap: int | None, listing: list[tuple[str, int]]) -> int:
    """What the agent loads at start-up, in bytes, from a tree listing (path, size): Serena's
    memory names, else the start-up files (`cap`: Claude Code's auto-memory cap in bytes)."""
    if fmt == fmts.SERENA:  # list_memories: the names (each with its quotes and comma in the JSON)
        return sum(len(p.rsplit(".", 1)[0]) + 4 for p, _ in listing if is_memory_file(p))
    wanted = set(files)
    size = sum(n for p, n in listing if p in wanted)
    return min(size, cap) if cap is not None else size


def startup_history(store, *, samples: int = SAMPLES) -> LoadHistory:
    """The store's start-up load over its git history; never raises. What is measured at each
    commit is what `budgets.startup.startup_of` loads now (the same files; Claude Code's cap
    only for a MEMORY.md no instruction file imports), and the last point is its number."""
    from ..budgets.startup import startup_of
    from ..model.imports import startup_import

    fmt = store.format
    st = startup_of(store)
    files = tuple(p for p, _ in st.store_files)
    prompt = st.beside or st.prompt_tokens  # charted as it is now, not by commit
    what = st.what
    if st.beside:  # a tiered store: Serena's activation beside its index
        what += f"; {st.beside_what}: {prompt:,} tokens, as it is now at every commit"
    elif prompt:
        what += f" (its initial prompt, {prompt:,} tokens, as it is now at every commit)"
    if fmt != fmts.SERENA and not files:
        return LoadHistory("", reason="no single always-loaded file in this format")
    cap = (fmts.claude_cap(store)["bytes"] or None) if fmt == fmts.CLAUDE and startup_import(store) is None \
        else None  # (0: the version cut no bytes, only lines)
    try:
        return _history(Path(store.root), fmt, files, cap, what, (st.tokens, prompt), samples, str(store.today))
    except Exception as exc:  # noqa: BLE001 - a picture is never worth a crash
        return LoadHistory(st.what, reason=f"git history unreadable: {exc}")


def _history(root: Path, fmt: str, files: tuple[str, ...], cap: int | None, what: str, now_and_fixed: tuple[int, int],
             samples: int, today: str) -> LoadHistory:
    tokens_now, fixed = now_and_fixed
    deadline = time.monotonic() + TOTAL_TIMEOUT
    try:
        top = Path(git(root, "rev-parse", "--show-toplevel", timeout=CALL_TIMEOUT).strip()).resolve()
        rel = root.resolve().relative_to(top).as_posix()
        log = git(top, "--literal-pathspecs", "log", "--format=%H %cs %s", "--", rel, timeout=CALL_TIMEOUT)
    except (GitError, ValueError) as exc:
        said = str(exc)
        reason = said if "git is not" in said else "the store has no commits yet" if "any commits" in said \
            else "not in a git repository"
        return LoadHistory(what, reason=reason)
    commits = [ln.split(" ", 2) for ln in log.splitlines() if ln.count(" ") >= 1]
    if not commits:
        return LoadHistory(what, reason="the store has no commits yet")
    rel = "" if rel == "." else rel
    if fmt == fmts.SERENA:
        now = [(p.relative_to(root).as_posix(), 0) for p in root.rglob("*.md") if p.is_file()]
    else:
        now = [(f, (root / f).stat().st_size) for f in files if (root / f).is_file()]
    now_bytes = _loaded_bytes(fmt, files, cap, now)
    per_byte = (tokens_now - fixed) / now_bytes if now_bytes else 1 / BYTES_PER_TOKEN
    points = []
    for parts in sample(commits[::-1], samples):
        commit, day, subject = parts[0], parts[1], parts[2] if len(parts) > 2 else ""
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            out = git(top, "ls-tree", "-r", "-l", "-z", f"{commit}:{rel}" if rel else commit,
                       timeout=min(CALL_TIMEOUT, left))
        except GitError:
            points.append(LoadPoint(day, commit, subject, 0, per_byte, offset=fixed))
            continue
        listing = []
        for entry in out.split("\0"):
            meta, _, path = entry.partition("\t")
            fields = meta.split()
            if len(fields) == 4 and fields[1] == "blob" and fields[3].isdigit():
                listing.append((path, int(fields[3])))
        points.append(LoadPoint(day, commit, subject, _loaded_bytes(fmt, files, cap, listing), per_byte, offset=fixed))
    points.append(LoadPoint(today, None, "the work tree now", now_bytes, per_byte, tokens_now))
    return LoadHistory(what, tuple(points))
