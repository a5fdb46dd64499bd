"""A plan never makes the store worse: run the checks on the store as the plan would leave it
and keep only the items that add no finding.

The planned result is a scratch copy of the store (in a temporary folder, never the store
itself) with the plan's edits written into it; after a first full load each candidate is
evaluated by re-reading only the files it changes. Findings are compared as multisets of
(check, severity, path, target) — line numbers move when rows are added or dropped, and the
numbers in messages change with every edit, so neither says whether a finding is new.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..base.paths import is_below
from ..model.findings import Finding
from ..model.loader import LoadOptions, load_store
from ..model.store import Store
from .plan import Plan

# checks whose findings an edit to index files alone cannot change
INDEX_ONLY_SKIP = frozenset({"duplicate.near", "transient.expired"})


def finding_key(f: Finding) -> tuple:
    return (f.check, str(f.severity), f.path, f.target or "")


def added_findings(before: Sequence[Finding], after: Sequence[Finding]) -> list[Finding]:
    """The findings of `after` that `before` does not have (as a multiset of keys)."""
    extra = Counter(finding_key(f) for f in after) - Counter(finding_key(f) for f in before)
    out = []
    for f in after:
        k = finding_key(f)
        if extra.get(k, 0) > 0:
            extra[k] -= 1
            out.append(f)
    return out


def describe(f: Finding) -> str:
    where = f"{f.path}:{f.line}" if f.line else f.path
    return f"{f.check} at {where} ({f.message})"


@dataclass
class Dropped:
    item: Any  # what the caller gated (a finding with its fix, a keyword edit, ...)
    reasons: list[Finding]

    def text(self, label: str) -> str:
        first = self.reasons[0]
        more = f" and {len(self.reasons) - 1} more" if len(self.reasons) > 1 else ""
        return f"dropped {label}: it would add {describe(first)}{more}"


def _regular_bytes(path) -> bytes | None:
    """A record's bytes if it is (still) a regular file; never opens a FIFO or a device."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(os.dup(fd), "rb") as fh:
            return fh.read()
    except OSError:
        return None
    finally:
        os.close(fd)


class Scratch:
    """The store's records copied into a temporary folder, on which plans are tried one at a
    time. Only what the checks read is copied — the regular files the store loaded (the plan's
    own files among them) — never special files, `.git`, `.curator` or anything else."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._tmp = tempfile.TemporaryDirectory(prefix="curator-gate-")
        base = Path(self._tmp.name)
        self.root = base / "store"
        self.root.mkdir()
        for rel, rec in store.records.items():  # `../knowledge/x.md` lands beside the copy, as beside the store
            dest = Path(os.path.normpath(self.root / rel))
            if not is_below(dest, base):
                continue  # an included folder further out: the same on both sides of the comparison
            data = _regular_bytes(rec.abspath)
            if data is not None:
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(data)
        self.result = load_store(self.root, LoadOptions(config=store.config, today=store.today, token_counter=store.counter,
                                                        meaning=store.meaning, fmt=store.format, use_cache=False))

    def close(self) -> None:
        from ..base.cache import forget_store

        forget_store(self.root)  # the checks may have cached a scratch run: it is never reused
        self._tmp.cleanup()

    def __enter__(self) -> Scratch:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _write(self, edits: list[tuple[str, bytes | None]]) -> None:
        for rel, data in edits:
            path = self.root / rel
            if data is None:
                path.unlink(missing_ok=True)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
        self.result = self.result.evolve([rel for rel, _ in edits])  # counts the changed files too

    def findings_after(self, plan: Plan, run) -> list[Finding]:
        """The findings of the store as `plan` would leave it (the scratch copy is put back)."""
        self._write([(e.path, e.after) for e in plan.edits])
        try:
            return run(self.result)
        finally:
            self._write([(e.path, e.before) for e in plan.edits])


def affected_checks(plan: Plan) -> set[str] | None:
    """The checks worth re-running for a plan (None: all of them)."""
    from ..checks import CHECKS

    index_only = all(e.before is not None and e.after is not None and _is_index(e.path) for e in plan.edits)
    return set(CHECKS) - INDEX_ONLY_SKIP if index_only else None


def _is_index(path: str) -> bool:
    return path == "memory-index.md" or ("/" not in path and path.endswith("-index.md"))


def gate(store: Store, items: list, build: Callable[[list], Plan], label: Callable[[Any], str]) -> tuple[Plan, list[Dropped]]:
    """The plan of the largest set of `items` (greedy, in order) whose result adds no finding.

    `build(items)` drafts a plan; an item whose plan adds a finding is dropped with the findings
    it would add. Most plans pass whole, costing one evaluation."""
    from ..checks import run_checks

    plan = build(items)
    if plan.empty or not items:
        return plan, []
    only = affected_checks(plan)

    def run(s: Store) -> list[Finding]:
        return run_checks(s, only)

    with Scratch(store) as scratch:
        before = run(scratch.result)
        worse = added_findings(before, scratch.findings_after(plan, run))
        if not worse:
            return plan, []
        if len(items) == 1:
            return build([]), [Dropped(items[0], worse)]
        kept: list = []
        dropped: list[Dropped] = []
        # each item alone first: most bad items are bad on their own
        for item in items:
            alone = build([item])
            worse = added_findings(before, scratch.findings_after(alone, run)) if not alone.empty else []
            (dropped.append(Dropped(item, worse)) if worse else kept.append(item))
        plan = build(kept)
        if not kept or not added_findings(before, scratch.findings_after(plan, run)):
            return plan, dropped
        # together they still add one (e.g. two rows that share words): grow the set greedily
        accepted: list = []
        for item in kept:
            trial = build(accepted + [item])
            worse = added_findings(before, scratch.findings_after(trial, run))
            (dropped.append(Dropped(item, worse)) if worse else accepted.append(item))
        return build(accepted), dropped
