"""Review identity on real stores: each corpus store copied into a fresh git repository and
committed, then changed the ways a maintainer does — a rename (every reference updated), a move
into a new folder (every link re-pointed), a reordered index — and `review` asked what is new.
Each must be 0 new findings; a real regression (one new broken link, one row given another
index's keywords: a new collision) exactly 1.

    python -m curator.bench.identity CORPORA_DIR [--seeds N] [--only NAME]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import tempfile
from pathlib import Path

# corpus store → its memory folder inside the copied repository
STORES = {
    "tiered/skogai__ai-agents": ".serena/memories", "tiered/michellepellon__baez": ".serena/memories",
    "claude/0x0wRangler__stockerly": ".claude/memory", "claude/Aleslammer__deathwatch_foundryvtt": ".claude/memory",
    "claude/AnotherSava__bga-assistant": ".claude/memory", "claude/abl030__cratedigger": ".claude/memory",
    "claude/vidarc__recommendarr": ".claude/memory", "claude/lmchoi__learning-tool": ".claude/memory",
    "serena/madeindigio__remembrances-mcp": ".serena/memories", "serena/kynesyslabs__node": ".serena/memories",
    "serena/blakemckinniss__confident-claude": ".serena/memories", "serena/fizic37__Delcampe": ".serena/memories",
    "serena/ChrisRoyse__Pheromind-RAG": ".serena/memories", "experience/cklxx__elephant.ai": "docs/error-experience",
}
KINDS = ("rename", "move", "reorder", "broken", "collision")
_INDEX_NAMES = ("MEMORY.md", "memory-index.md", "_index.md", "INDEX.md", "README.md", "memory_index.md")
_LINK = re.compile(r"(\]\()([^)\s#]+\.md)\)")
_TABLE_RULE = re.compile(r"^\|[\s:|-]*-[\s:|-]*$")


def _git(folder: Path, *args: str) -> None:
    from ..base.git import run

    run(folder, "-c", "user.email=bench@curator", "-c", "user.name=bench", *args)


def make_repo(corpus: Path, dest: Path) -> None:
    copy_repo(corpus, dest)
    _git(dest, "init", "-q")
    _git(dest, "add", "-A")
    _git(dest, "commit", "-qm", "base")
    _git(dest, "repack", "-adq")  # one pack, not a loose object a file: each copy is half the files
    _git(dest, "prune")


def copy_repo(base: Path, dest: Path) -> None:
    """`base` copied to `dest` (emptied first): a committed repository made by `make_repo` is
    copied for each change, every change of one store starting from the same commit (a copy is
    a third of the CPU of adding and committing 1,000 files)."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(base, dest, symlinks=True)


def _is_index(p: Path) -> bool:
    return p.name in _INDEX_NAMES or p.name.endswith("-index.md")


def memories(store: Path) -> list[str]:
    return sorted(p.relative_to(store).as_posix() for p in store.rglob("*.md") if not _is_index(p))


def replace_word(store: Path, old: str, new: str) -> None:
    """`old` → `new` as a whole word in every file (names, `mem:` references, index rows)."""
    pat = re.compile(rf"(?<![\w-]){re.escape(old)}(?![\w-])")
    for p in store.rglob("*.md"):
        t = p.read_text(errors="surrogateescape")
        if pat.search(t):
            p.write_text(pat.sub(new, t), errors="surrogateescape")


def relink(store: Path, old: str, new: str) -> None:
    """Every relative markdown link that reached `old` now reaches `new`."""
    for p in store.rglob("*.md"):
        folder = p.parent.relative_to(store).as_posix() if p.parent != store else ""
        t = p.read_text(errors="surrogateescape")

        def fix(m, folder=folder):
            if os.path.normpath(os.path.join(folder, m.group(2))) == old:
                return m.group(1) + os.path.relpath(new, folder or ".") + ")"
            return m.group(0)

        u = _LINK.sub(fix, t)
        if u != t:
            p.write_text(u, errors="surrogateescape")


def change(store: Path, kind: str, rnd: random.Random) -> str | None:
    """Make one change of `kind`; what it changed (None when the store offers nothing to do)."""
    files = memories(store)
    names: dict[str, int] = {}
    for f in files:
        names[f.rsplit("/", 1)[-1]] = names.get(f.rsplit("/", 1)[-1], 0) + 1
    if kind == "rename":  # a name no other file shares, in the store's own style
        f = rnd.choice([f for f in files if names[f.rsplit("/", 1)[-1]] == 1])
        stem = f.rsplit("/", 1)[-1][:-3]
        new = stem + ("-renamed" if "-" in stem else "_renamed")
        (store / f).rename(store / f.replace(stem + ".md", new + ".md"))
        replace_word(store, stem, new)
        return f
    if kind == "move":  # into a new folder: a file with no relative links of its own
        flat = [f for f in files if "/" not in f and "](" not in (store / f).read_text(errors="replace")]
        # a name no other file shares, as for a rename: an experience entry moved away from its
        # summary twin (the same name under summary/entries/) is unpaired, a real new finding
        unique = [f for f in files if names[f.rsplit("/", 1)[-1]] == 1]
        f = rnd.choice(flat or unique or files)
        base = f.rsplit("/", 1)[-1]
        (store / "moved").mkdir(exist_ok=True)
        (store / f).rename(store / "moved" / base)
        replace_word(store, f[:-3], "moved/" + base[:-3])
        relink(store, f, "moved/" + base)
        return f
    if kind == "reorder":  # shuffle the longest block of rows of one index (never a table's header)
        indexes = sorted(p for p in store.rglob("*.md") if _is_index(p))
        if not indexes:
            return None
        p = rnd.choice(indexes)
        lines = p.read_text(errors="surrogateescape").splitlines(keepends=True)
        rows = [i for i, ln in enumerate(lines) if ln.startswith(("- ", "* ", "|")) and not _TABLE_RULE.match(ln)
                and not (i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1]))]
        runs: list[list[int]] = []
        for i in rows:
            if runs and i == runs[-1][-1] + 1:
                runs[-1].append(i)
            else:
                runs.append([i])
        block = max(runs, key=len, default=[])
        values = [lines[i] if lines[i].endswith("\n") else lines[i] + "\n" for i in block]
        rnd.shuffle(values)
        for i, v in zip(block, values, strict=True):
            lines[i] = v
        p.write_text("".join(lines), errors="surrogateescape")
        return p.relative_to(store).as_posix()
    if kind == "collision":  # a real regression: one row takes the keywords of a row in another index
        return _collide(store, rnd)
    f = rnd.choice(files)  # broken: a real regression, one new broken link
    p = store / f
    p.write_text(p.read_text(errors="surrogateescape") + "\n\nSee [gone](no_such_memory_xyz.md).\n",
                 errors="surrogateescape")
    return f


def _collide(store: Path, rnd: random.Random) -> str | None:
    """Give a row of one domain index the keywords of a row in another (tiered stores only)."""
    from ..base.tokens import EstimateCounter
    from ..checks.keyword_checks import collision_rows
    from ..model import load_store

    loaded = load_store(store, token_counter=EstimateCounter(), use_cache=False)
    can: dict[str, list] = {}
    for p, r in collision_rows(loaded):  # rows the check compares (memories, not sidecars)
        can.setdefault(p, []).append(r)
    indexes = sorted((p, rows) for p, rows in can.items() if len(rows) >= 2)
    if len(indexes) < 2:
        return None
    (pa, a), (pb, b) = rnd.sample(indexes, 2)
    row = rnd.choice(a)
    # a donor that already shares most of its keywords with no other row (else the change
    # collides with that row too: two real new collisions, not one)
    others = [(p, r.keyword_set) for p, rows in indexes for r in rows if p not in (pa, pb)]
    donors = [d for d in b if d.keyword_set and all(
        len(d.keyword_set & k) < 0.5 * min(len(d.keyword_set), len(k) or 1) for _, k in others)]
    if not donors:
        return None
    donor = rnd.choice(donors)
    lines = (store / pa).read_text(errors="surrogateescape").splitlines(keepends=True)
    cells = lines[row.line - 1].split("|")
    if len(cells) < 4:
        return None
    cells[1] = " " + " ".join(donor.keywords) + " "
    lines[row.line - 1] = "|".join(cells)
    (store / pa).write_text("".join(lines), errors="surrogateescape")
    return f"{pa}:{row.line}"


def run_one(corpora: Path, name: str, kind: str, seed: int, work: Path, base: Path | None = None):
    """(what changed, new findings, resolved findings) of one change to one corpus store;
    `base`: that store already committed by `make_repo` (copied, not made again)."""
    from ..base.tokens import EstimateCounter, estimating
    from ..review import review_repository

    dest = work / name.replace("/", "__")
    if base is None:
        make_repo(corpora / name, dest)
    else:
        copy_repo(base, dest)
    store = dest / STORES[name]
    what = change(store, kind, random.Random(seed))
    if what is None:
        return None
    review = review_repository(store, "HEAD", token_counter=EstimateCounter(), persist=not estimating())
    return what, [f for s in review.stores for f in s.introduced], [f for s in review.stores for f in s.resolved]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m curator.bench.identity", description=__doc__.split("\n\n")[0])
    ap.add_argument("corpora", type=Path)
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--only", default="")
    args = ap.parse_args(argv)
    bad = total = 0
    with tempfile.TemporaryDirectory(prefix="curator-identity-") as tmp:
        for name in STORES:
            if args.only not in name or not (args.corpora / name).is_dir():
                continue
            base = Path(tmp) / "base"
            make_repo(args.corpora / name, base)
            for kind in KINDS:
                for seed in range(args.seeds):
                    out = run_one(args.corpora, name, kind, seed, Path(tmp), base)
                    if out is None:
                        continue
                    what, new, gone = out
                    ok = len(new) == (1 if kind in ("broken", "collision") else 0)
                    bad += not ok
                    total += 1
                    print(f"{'ok ' if ok else 'BAD'} {name:42} {kind:8} {what[:48]:48} new={len(new)} resolved={len(gone)}")
                    for f in [] if ok else new[:5]:
                        print(f"      + {f.check} {f.path}: {f.message[:100]}")
    print(f"{total - bad} of {total} changes gave the expected new findings")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
