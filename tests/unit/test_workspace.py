"""Re-checking one edited file gives the same findings as checking the whole store again."""

from __future__ import annotations

from curator.base.tokens import default_counter
from curator.checks import run_checks
from curator.live.workspace import open_workspace
from curator.model import load_store
from curator.model.loader import LoadOptions


def keys(findings):
    return sorted((f.check, f.path, f.line, f.message) for f in findings)


def test_incremental_recheck_matches_a_full_run(sample_copy):
    ws = open_workspace(sample_copy, LoadOptions(token_counter=default_counter()))
    edits = {
        "git/git-lfs-fixtures.md": lambda t: t + "\n" + "## Extra\n" * 16 + "see [gone](nowhere.md)\n",
        "git/git-signed-commits.md": lambda t: (sample_copy / "git/git-interactive-rebase.md").read_text(),
        "frontend/frontend-a11y-checklist.md": lambda t: t[:2000],
        "memory-index.md": lambda t: t.replace("(212)", "(999)"),
    }
    for path, edit in edits.items():
        p = sample_copy / path
        p.write_text(edit(p.read_text()))
        ws = ws.recheck(path)
        full = run_checks(load_store(sample_copy, token_counter=default_counter()))
        assert keys(ws.findings) == keys(full), path


def test_recheck_of_a_deleted_file(sample_copy):
    ws = open_workspace(sample_copy, LoadOptions(token_counter=default_counter()))
    (sample_copy / "git/git-lfs-fixtures.md").unlink()
    ws = ws.recheck("git/git-lfs-fixtures.md")
    assert "git/git-lfs-fixtures.md" not in ws.store.records
    assert any(f.check == "index.missing-target" and f.target == "git/git-lfs-fixtures.md" for f in ws.findings)


def test_every_kind_of_change_matches_a_full_run(sample_copy):
    """Additions, deletions, renames and index edits re-run only the checks that read what
    changed (CheckSpec.reads); the result is what a whole new run finds."""
    ws = open_workspace(sample_copy, LoadOptions(token_counter=default_counter()))
    index = sample_copy / "memory-index.md"
    steps = [
        ("add", "git/git-new-thing.md", "# New\nsee [lfs](git-lfs-fixtures.md) and mem:nowhere\n"),
        ("add", "notes-index.md", "| Keywords | File |\n|---|---|\n| a b | [git/git-new-thing](git/git-new-thing.md) |\n"),
        ("delete", "git/git-lfs-fixtures.md", None),
        ("rename", "git/git-signed-commits.md", "git/GitSigned.md"),
        ("edit", "memory-index.md", index.read_text().replace("(212)", "(7)") + "| zz: [gone](gone.md) (1)\n"),
        ("delete", "notes-index.md", None),
    ]
    for op, path, arg in steps:
        target = sample_copy / path
        changed = [path]
        if op in ("add", "edit"):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(arg)
        elif op == "delete":
            target.unlink()
        else:
            target.rename(sample_copy / arg)
            changed.append(arg)
        ws = ws.recheck(changed)
        full = run_checks(load_store(sample_copy, token_counter=default_counter()))
        assert keys(ws.findings) == keys(full), (op, path)


def test_transient_copies_and_store_root_links_recheck_as_a_full_run(make_store):
    """Session logs alike are no duplicate.near, a knowledge copy of one is; a Serena link by
    memory name reaches a top-level memory until it is deleted — re-checks agree with full runs."""
    body = "\n## Files Modified (3)\n- /home/u/.claude/hooks/session_init.py\n- /home/u/.claude/lib/state.py\n" \
           "- /home/u/.claude/lib/router_groq.py\n- /home/u/.claude/settings.json and the bench script\n"
    root = make_store({
        "memory_index.md": "- **core_rules** — the rules\n- **notes/linked** — a note\n",
        "core_rules.md": "# Rules\n\nKeep hooks fast.\n",
        "notes/linked.md": "# Linked\n\nSee [core rules](core_rules.md).\n",
        **{f"session_2025-12-17_18-0{i}.md": f"# Session Summary - 2025-12-17 18:0{i}\n{body}" for i in range(4)},
    })
    counter = default_counter()
    ws = open_workspace(root, LoadOptions(token_counter=counter))
    assert not [f for f in ws.findings if f.check in ("duplicate.near", "links.broken")], ws.findings
    steps = [
        ("session_2025-12-17_18-01.md", "# Session Summary - 2025-12-17 18:01\n" + body + "- one more file\n"),
        ("notes/copy.md", "# Copy of a session\n" + body),
        ("core_rules.md", None),
    ]
    for path, text in steps:
        if text is None:
            (root / path).unlink()
        else:
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        ws = ws.recheck(path)
        full = run_checks(load_store(root, token_counter=counter))
        assert keys(ws.findings) == keys(full), path
    near = [f for f in full if f.check == "duplicate.near"]
    assert near and all("notes/copy.md" in (f.path, f.target) for f in near), near
    assert [f.path for f in full if f.check == "links.broken"] == ["notes/linked.md"]


def test_a_folder_of_expired_session_logs_is_one_finding_and_rechecks_as_a_full_run(make_store):
    # confident-claude: 266 session logs past the transient tier's 30 days were 266 lines
    logs = {f"session_2025-12-0{d}_10-00.md": f"# Session {d}\n\nDid things.\n" for d in range(1, 7)}
    root = make_store({"architecture.md": "# Architecture\n", "memory_index.md": "- **architecture** — how it fits\n",
                       ".curator.yaml": "tiers:\n  - {glob: 'reflection/**', tier: transient}\n", **logs})  # tiers declared
    counter = default_counter()
    ws = open_workspace(root, LoadOptions(token_counter=counter))
    expired = [f for f in ws.findings if f.check == "transient.expired"]
    assert [f.path for f in expired] == ["."]
    assert expired[0].message.startswith("6 transient records are past the transient tier's 30 days "
                                         "(oldest session_2025-12-01_10-00.md, ")
    assert expired[0].fix.paths == tuple(sorted(logs))
    steps = [("session_2025-12-02_10-00.md", "# Session 2\n\nDid more.\n"), ("session_2025-12-03_10-00.md", None),
             ("session_2025-12-04_10-00.md", None), ("session_2025-12-09_10-00.md", "# Session 9\n")]
    for path, text in steps:
        if text is None:
            (root / path).unlink()
        else:
            (root / path).write_text(text)
        ws = ws.recheck(path)
        full = run_checks(load_store(root, token_counter=counter))
        assert keys(ws.findings) == keys(full), path
    # 5 again after the last step: one finding (with 4, before it, each log was its own)
    assert [f.path for f in full if f.check == "transient.expired"] == ["."]


def test_an_orphans_text_edits_recheck_it_alone_and_match_a_full_run(sample_copy):
    """In a tiered store an edited memory's text decides only its own orphan finding (retired
    by a SUPERSEDED line, or a likelier index by its words): the others are kept, not re-run."""
    orphan = sample_copy / "git/git-orphan-notes.md"
    orphan.write_text("# Orphan notes\n\nRebase and bisect notes nobody listed.\n")
    ws = open_workspace(sample_copy, LoadOptions(token_counter=default_counter())).recheck("git/git-orphan-notes.md")
    assert any(f.check == "orphan.unindexed" and f.path == "git/git-orphan-notes.md" for f in ws.findings)
    others = [f for f in ws.findings if f.check == "orphan.unindexed" and f.path != "git/git-orphan-notes.md"]
    for text in ("# Orphan notes\n\nFrontend accessibility checklist, contrast and focus order.\n",
                 "# Orphan notes\n\nSUPERSEDED by git/git-interactive-rebase.md\n\nOld rebase notes.\n"):
        orphan.write_text(text)
        ws = ws.recheck("git/git-orphan-notes.md")
        full = run_checks(load_store(sample_copy, token_counter=default_counter()))
        assert keys(ws.findings) == keys(full), text
    assert not any(f.check == "orphan.unindexed" and f.path == "git/git-orphan-notes.md" for f in ws.findings)
    assert [f for f in ws.findings if f.check == "orphan.unindexed"] == others  # the same objects: kept


def test_opening_reports_each_family_of_checks_and_a_cached_open_skips_them(sample_copy):
    """A large store's checks take seconds: the loading pane hears after each family, in order;
    an unchanged store's findings come from the cache, with no check step to report."""
    heard: list[tuple[str, float]] = []
    ws = open_workspace(sample_copy, LoadOptions(token_counter=default_counter()),
                        progress=lambda what, fraction: heard.append((what, fraction)))
    fractions = [f for _, f in heard]
    assert fractions == sorted(fractions) and fractions[0] > 0 and fractions[-1] == 1.0
    steps = [f for what, f in heard if what == "running the checks"]
    assert len(set(steps)) >= 5 and 0.65 <= min(steps) and max(steps) <= 0.9, heard
    assert ws.findings

    heard.clear()
    again = open_workspace(sample_copy, LoadOptions(token_counter=default_counter()),
                           progress=lambda what, fraction: heard.append((what, fraction)))
    assert keys(again.findings) == keys(ws.findings)
    assert [f for what, f in heard if what == "running the checks"] == [0.65]


def test_the_loading_steps_name_the_source_unless_it_is_the_folder_opened(sample_copy, sample_repo_copy):
    from curator.live.workbench import open_workbench
    from curator.model.sources import discover

    def said(root) -> list[str]:
        heard: list[str] = []
        open_workbench(discover(root), progress=lambda what, _fraction: heard.append(what))
        return heard

    assert "running the checks" in said(sample_copy)  # the store itself: not ".: running the checks"
    repo = said(sample_repo_copy)
    assert ".serena/memories: running the checks" in repo and ".claude/memory: running the checks" in repo, repo


def test_the_walk_reports_how_many_files_it_has_read(sample_copy, monkeypatch):
    import curator.model.loader as loader

    monkeypatch.setattr(loader, "READ_STEP", 8)
    heard: list[str] = []
    ws = open_workspace(sample_copy, LoadOptions(token_counter=default_counter()),
                        progress=lambda what, _fraction: heard.append(what))
    counts = [int(w.split(": ")[1].split()[0].replace(",", "")) for w in heard if w.startswith("reading the store: ")]
    assert counts == list(range(8, len(ws.store.records) + 1, 8)) and len(counts) >= 3, heard
