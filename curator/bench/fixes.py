"""Every fix on every corpus store where it applies: a copy of the store, `fix --check ID` for
each check id that has fixes, then `check` (no finding may be new, by review's identity) and
`undo` (the store must be byte-identical to before).

    python -m curator.bench.fixes CORPORA_DIR [--only NAME] [--show]

Prints a table per store: findings, fixable, fixed (by check), new after the fix, undo identical.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import tempfile
from collections import Counter
from pathlib import Path

from .identity import STORES


def tree_hash(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if ".curator" in p.relative_to(root).parts or not p.is_file():
            continue
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def _new(store, before, after) -> list:
    from ..review.identity import fingerprints, multiset_minus

    return multiset_minus(after, fingerprints(store, after), fingerprints(store, before))


def fix_store(folder: Path, show: bool = False) -> list[tuple[str, int, int, int, int, bool | None]]:
    """(check, findings, fixable, fixed, new after, undo identical) per check with fixes."""
    from ..base.tokens import EstimateCounter
    from ..checks import run_checks
    from ..curation import NothingToDo, apply_plan, plan_fixes, undo
    from ..model import load_store

    def load():
        return load_store(folder, token_counter=EstimateCounter(), use_cache=False)

    store = load()
    findings = run_checks(store)
    by_check = Counter(f.check for f in findings)
    fixable = Counter(f.check for f in findings if f.fix is not None)
    rows: list[tuple[str, int, int, int, int, bool | None]] = []
    for check in sorted(by_check):
        if not fixable[check]:
            rows.append((check, by_check[check], 0, 0, 0, None))
            continue
        original = tree_hash(folder)
        try:
            plan = plan_fixes(store, findings, {check}, counter=store.counter)
        except NothingToDo as exc:
            rows.append((check, by_check[check], fixable[check], 0, 0, None))
            if show:
                print(f"    {check}: {exc}")
            continue
        if show:
            print(plan.diff())
            print("\n".join(plan.notes))
        apply_plan(folder, plan)
        after_store = load()
        after = run_checks(after_store)
        new = _new(after_store, findings, after)
        fixed = sum(1 for f in findings if f.check == check) - sum(1 for f in after if f.check == check)
        for f in new[:3]:
            print(f"    new after {check}: {f.check} {f.path}:{f.line} {f.message[:90]}")
        undo(folder)
        rows.append((check, by_check[check], fixable[check], fixed, len(new), tree_hash(folder) == original))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m curator.bench.fixes", description=__doc__.split("\n\n")[0])
    ap.add_argument("corpora", type=Path)
    ap.add_argument("--only", default="")
    ap.add_argument("--show", action="store_true", help="print each plan's diff")
    args = ap.parse_args(argv)
    bad = 0
    with tempfile.TemporaryDirectory(prefix="curator-fixes-") as tmp:
        for name, sub in STORES.items():
            src = args.corpora / name / sub
            if args.only not in name or not src.is_dir():
                continue
            folder = Path(tmp) / name.replace("/", "__") / sub
            shutil.copytree(args.corpora / name, folder.parents[len(Path(sub).parts) - 1], symlinks=True)
            rows = fix_store(folder, args.show)
            print(f"\n{name}  ({sub})")
            print(f"  {'check':<24}{'findings':>9}{'fixable':>9}{'fixed':>7}{'new':>5}  undo")
            for check, n, fixable, fixed, new, same in rows:
                undo_txt = "—" if same is None else ("identical" if same else "DIFFERS")
                print(f"  {check:<24}{n:>9}{fixable:>9}{fixed:>7}{new:>5}  {undo_txt}")
                bad += bool(new) + (same is False)
    print(f"\n{'all fixes clean' if not bad else f'{bad} problem(s)'}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
