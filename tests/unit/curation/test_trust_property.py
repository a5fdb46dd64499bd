"""Generated hostile repositories: configs whose paths leave the repository and journals whose
entries name files outside the store (by `..`, absolute paths, symlinked folders inside the
store or beside it), in every state. Whatever curator is then asked to do — undo, history, a
keyword edit, fix, prune — no file outside the store's folder changes (a decoy tree's hash)
and every command ends with an exit code, never a traceback."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from curator.cli import main

EXAMPLES = int(os.environ.get("CURATOR_FUZZ_EXAMPLES", "0")) or 30

STORE = {
    "memory-index.md": "# Memory Index\n\n| Keywords | Index |\n|---|---|\n| ci build | [skills-ci-index](skills-ci-index.md) |\n",
    "skills-ci-index.md": "| Keywords | File |\n|---|---|\n| cache key restore warm | [ci/cache](ci/cache.md) |\n"
                          "| flaky retry rerun quarantine | [ci/flaky](ci/flaky.md) |\n",
    "ci/cache.md": "# Cache\n\nKeys and restore.\n",
    "ci/flaky.md": "# Flaky\n\nRetry, then quarantine.\n",
    "validation/2026-01-01-old.md": "# Old check\n",
}

# where a hostile path can point: {decoy} is the decoy tree's absolute path (no leading slash)
hostile = st.sampled_from([
    "../../../../../../../../..{decoy}/victim.txt", "/{decoy}/victim.txt", "../../../outside/victim.txt",
    "linked/victim.txt", "../knowledge/victim.txt", "../validation/victim.txt", "ci/../../../../outside/victim.txt",
    "../../outside/victim.txt", "ci/cache.md", "../linkedtier/victim.txt", "./../../outside/victim.txt",
])
include = st.sampled_from(["../../../../../../../../..", "/{decoy}", "../../outside", "linked", "../knowledge",
                           "../linkedtier", "ci/../../..", "~/x", "../validation"])
states = st.sampled_from(["pending", "applied", "undoing", "undone", "rolled-back"])
commands = st.lists(st.sampled_from(["undo", "history", "keywords", "fix", "prune", "check"]), min_size=1, max_size=4)


def tree_hash(root: Path) -> str:
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in sorted(os.walk(root)):
        dirnames.sort()
        for name in sorted(filenames):
            p = Path(dirpath) / name
            h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def build(base: Path, includes, entries) -> tuple[Path, Path]:
    outside = base / "outside"
    outside.mkdir()
    (outside / "victim.txt").write_bytes(b"the user's own file\n")
    repo = base / "repo"
    (repo / ".git").mkdir(parents=True)
    store = repo / ".serena" / "memories"
    for rel, text in STORE.items():
        (store / rel).parent.mkdir(parents=True, exist_ok=True)
        (store / rel).write_text(text)
    (store / "linked").symlink_to(outside, target_is_directory=True)  # a symlinked folder inside
    (repo / ".serena" / "linkedtier").symlink_to(outside, target_is_directory=True)
    (repo / ".serena" / "knowledge").symlink_to(outside, target_is_directory=True)  # a tier folder that is a link
    decoy = str(outside).lstrip("/")
    if includes:
        (store / ".curator.yaml").write_text("include:\n" + "".join(f'  - "{i.format(decoy=decoy)}"\n' for i in includes))
    jdir = store / ".curator" / "journal"
    for n, (state, paths) in enumerate(entries, 1):
        entry = jdir / f"{n:05d}-fix"
        (entry / "blobs").mkdir(parents=True)
        planted, current = b"planted by the repository\n", b"the user's own file\n"
        for data in (planted, current):
            (entry / "blobs" / sha(data)).write_bytes(data)
        files = [{"path": p.format(decoy=decoy), "before": sha(planted), "after": sha(current)} for p in paths]
        (entry / "meta.json").write_text(json.dumps({"id": entry.name, "operation": "fix", "title": "t",
                                                     "created": "2026-11-19", "state": state, "files": files}))
    return store, outside


UP = "../../../../../../../../..{decoy}/victim.txt"


@example(["../../../../../../../../.."], [("applied", [UP])], ["undo"])  # issue 20's attacks, always tried
@example(["../../../../../../../../.."], [("pending", [UP])], ["keywords"])
@example([], [("pending", ["../knowledge/victim.txt"])], ["undo"])  # a tier folder that is a symlink out
@example([], [("applied", ["linked/victim.txt"])], ["undo"])
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(include, max_size=3), st.lists(st.tuples(states, st.lists(hostile, min_size=1, max_size=3)),
                                                 min_size=1, max_size=3), commands)
def test_hostile_journals_and_configs_never_change_a_file_outside_the_store(includes, entries, cmds):
    os.environ["CURATOR_TOKENS"] = "estimate"
    base = Path(tempfile.mkdtemp(prefix="curator-trust-"))
    try:
        store, outside = build(base, includes, entries)
        before = tree_hash(outside)
        for cmd in cmds:
            argv = {"keywords": ["keywords", "skills-ci-index.md", "ci/cache.md", "--set", "cache", "key", "warm",
                                 "--store", str(store)],
                    "check": ["check", str(store), "--format", "json"]}.get(cmd, [cmd, str(store)])
            code = main(argv)
            assert code in (0, 1, 2), argv
            assert tree_hash(outside) == before, (cmd, includes, entries)
    finally:
        os.environ.pop("CURATOR_TOKENS", None)
        shutil.rmtree(base, ignore_errors=True)
