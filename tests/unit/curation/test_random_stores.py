"""Random small stores of realistic parts — memories with and without frontmatter, dated
transient files, domain-index rows pointing at files that exist, are gone or repeat, an L0 with
stale counts, twin rows, near-copies, special names — each run through `check`, `tokens`,
`retrieve`, `fix --dry-run` and a review of the store against an edited copy of it. 0 tracebacks:
every command ends with an exit code, and a dry run writes nothing. Bounded in time (small stores,
in-process calls); CURATOR_RANDOM_STORES=N runs another number than the suite's 100 (each run
draws new stores, and every choice of the strategy comes up many times in 100; 300 made this the
suite's longest test)."""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.cli import main
from curator.model import load_store
from curator.reports.review_report import render_text
from curator.review import Review
from curator.review.diff import review_store

EXAMPLES = int(os.environ.get("CURATOR_RANDOM_STORES", "0")) or 100

words = st.sampled_from("cache key restore flaky retry rebase squash pool size review bot noise pr split alembic "
                        "migration index token budget worktree ci deploy schema lint".split())
slug = st.lists(words, min_size=1, max_size=3, unique=True).map("-".join)
folder = st.sampled_from(["", "ci/", "git/", "db/", "knowledge/", "validation/", "reflexion/", "notes/deep/"])
date = st.sampled_from(["", "2025-01-03-", "2026-11-19-", "2026-02-30-"])
frontmatter = st.sampled_from(["", "---\nname: x\ndescription: y\ntype: project\n---\n", "---\ndate: 2026-01-01\n---\n",
                               "---\nbroken: [\n---\n", "---\n---\n"])
body = st.lists(st.lists(words, min_size=3, max_size=12).map(" ".join), min_size=1, max_size=4).map("\n\n".join)


@st.composite
def stores(draw) -> dict[str, str]:
    files: dict[str, str] = {}
    for _ in range(draw(st.integers(1, 6))):
        rel = draw(folder) + draw(date) + draw(slug) + ".md"
        files[rel] = draw(frontmatter) + f"# {draw(slug)}\n\n" + draw(body) + "\n"
    if draw(st.booleans()) and files:  # a near-copy
        src = draw(st.sampled_from(sorted(files)))
        files[src.replace(".md", "-copy.md")] = files[src] + "\nmore\n"
    targets = sorted(files) + draw(st.lists(st.sampled_from(["ci/gone.md", "../../etc/x.md", "git/old.md"]), max_size=2))
    for name in draw(st.lists(st.sampled_from(["skills-ci-index.md", "db-index.md"]), max_size=2, unique=True)):
        rows = draw(st.lists(st.tuples(st.lists(words, min_size=1, max_size=8), st.sampled_from(targets)), max_size=6))
        rows += [(kw, t) for kw, t in rows[:1]] if draw(st.booleans()) else []  # twin rows for one memory
        files[name] = "| Keywords | File |\n|---|---|\n" + "".join(
            f"| {' '.join(kw)} | [{t.rsplit('/', 1)[-1][:-3]}]({t}) |\n" for kw, t in rows)
        files["memory-index.md"] = files.get("memory-index.md", "# Memory Index\n\n") + \
            f"|{' '.join(draw(st.lists(words, min_size=1, max_size=4)))}: [{name[:-3]}]({name}) ({draw(st.integers(0, 900))})\n"
    return files


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def tree(root: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in root.rglob("*") if p.is_file()}


QUICK = {"CURATOR_TOKENS": "estimate", "CURATOR_NO_REPLAY": "1", "CURATOR_NO_FAST": "1"}  # each store is new


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(stores(), st.data())
def test_random_stores_never_raise(files, data):
    base = Path(tempfile.mkdtemp(prefix="curator-random-"))
    os.environ.update(QUICK)
    try:
        root = base / "store"
        write(root, files)
        before = tree(root)
        for argv in (["check", str(root), "--format", "json"], ["tokens", str(root)],
                     ["retrieve", "--store", str(root), "cache key"], ["fix", str(root), "--dry-run"]):
            code = main(argv)
            assert code in (0, 1, 2), argv
        assert tree(root) == before  # reading commands and a dry run wrote nothing
        edited = base / "edited"  # the store with one file changed, emptied or gone, as a commit would leave it
        victim = data.draw(st.sampled_from(sorted(files)))
        change = data.draw(st.sampled_from([None, "", "# changed\n\nnew words here\n"]))
        edited.mkdir()
        write(edited, {rel: (change if rel == victim else text) for rel, text in files.items()
                       if rel != victim or change is not None})
        review = Review(base, "HEAD", "0" * 40)
        review.stores.append(review_store("store", "store", load_store(root), load_store(edited)))
        from rich.console import Console

        render_text(Console(file=io.StringIO(), width=100), review)
    finally:
        for var in QUICK:
            os.environ.pop(var, None)
        shutil.rmtree(base, ignore_errors=True)
