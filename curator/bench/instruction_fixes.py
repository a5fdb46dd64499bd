"""Judge the instruction-file fixes on the instruction corpus: for every repository, the findings
of each fixable check, how many have a fix, what applying them all does (no new finding
allowed), and whether `undo` gives back every byte.

    python -m curator.bench.instruction_fixes [--corpus DIR] [--work DIR]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .context_corpus import CORPUS, materialize


def _snapshot(root: Path) -> dict[str, bytes]:
    out = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in (".curator", ".git")]
        for name in files:
            p = Path(folder) / name
            out[p.relative_to(root).as_posix()] = p.read_bytes() if not p.is_symlink() else os.readlink(p).encode()
    return out


@dataclass
class Judged:
    """One repository: its fixable findings, what applying every fix did, whether undo restored it."""

    findings: int
    fixable: int
    fixed: int = 0
    new: list[str] = field(default_factory=list)
    undo: bool | None = None  # None: nothing applied
    notes: list[str] = field(default_factory=list)
    diff: str = ""


def judge(root: Path, env: dict, home: str) -> Judged:
    from ..context import build_context
    from ..curation import NothingToDo, apply_plan, undo
    from ..curation.instruction_fixes import FIXABLE, _key, plan_instruction_fixes

    model = build_context(root, count=False, env=env, home=home)
    before = {_key(f) for f in model.findings}
    found = [f for f in model.findings if f.check in FIXABLE]
    row = Judged(findings=len(found), fixable=sum(f.fix is not None for f in found))
    if not row.fixable:
        return row
    snap = _snapshot(root)
    try:
        plan = plan_instruction_fixes(root, set(FIXABLE), env=env, home=home)
    except NothingToDo as exc:
        row.notes.append(str(exc))
        return row
    row.notes = list(plan.notes)
    row.diff = plan.diff()
    apply_plan(root, plan)
    after = build_context(root, count=False, env=env, home=home)
    row.fixed = len(found) - sum(f.check in FIXABLE for f in after.findings)
    row.new = [f"{f.check} {f.path}: {f.message}" for f in after.findings if _key(f) not in before]
    undo(root)
    row.undo = _snapshot(root) == snap
    return row


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m curator.bench.instruction_fixes", description=__doc__.splitlines()[0])
    p.add_argument("--corpus", default=CORPUS)
    p.add_argument("--work", default=None, help="where to materialize (default: a new temporary folder)")
    p.add_argument("--diff", action="store_true", help="print each plan's diff")
    args = p.parse_args(argv)
    work = Path(args.work or tempfile.mkdtemp(prefix="curator-ifix-"))
    home = work / "home"
    home.mkdir(parents=True, exist_ok=True)
    env = {"CI": "1", "HOME": str(home)}
    names = sorted(n for n in os.listdir(args.corpus) if os.path.isdir(os.path.join(args.corpus, n)))
    total = {"findings": 0, "fixable": 0, "fixed": 0, "new": 0, "undo_ok": 0, "applied": 0}
    print(f"{'repository':<42} {'found':>5} {'fixable':>7} {'fixed':>5} {'new':>3} undo")
    for name in names:
        root = work / name
        if not root.exists():
            materialize(args.corpus, name, str(root))
        row = judge(root, env, str(home))
        undo_txt = "-" if row.undo is None else ("same" if row.undo else "DIFFERS")
        print(f"{name:<42} {row.findings:>5} {row.fixable:>7} {row.fixed:>5} {len(row.new):>3} {undo_txt}")
        for line in row.new + row.notes:
            print(f"    {line}")
        if args.diff and row.diff:
            print(row.diff)
        total["findings"] += row.findings
        total["fixable"] += row.fixable
        total["fixed"] += row.fixed
        total["new"] += len(row.new)
        total["applied"] += row.undo is not None
        total["undo_ok"] += bool(row.undo)
    print(f"total: {total['findings']} findings of the fixable checks, {total['fixable']} with a fix, "
          f"{total['fixed']} fixed, {total['new']} new findings after; undo byte-identical in "
          f"{total['undo_ok']} of {total['applied']} repositories")
    return 0 if total["new"] == 0 and total["undo_ok"] == total["applied"] else 1


if __name__ == "__main__":
    sys.exit(main())
