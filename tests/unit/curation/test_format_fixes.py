"""Fixes for Claude Code memory and broken links (issue 23): each planned, applied, re-checked
and undone byte-identically; the safe ones apply unasked, the drafted ones only when asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.base.tokens import EstimateCounter
from curator.checks import run_checks
from curator.curation import NothingToDo, apply_plan, plan_fixes, undo
from curator.model import load_store

FM = "---\nname: {n}\ndescription: {d}\ntype: {t}\n---\n"
CLAUDE = {
    "MEMORY.md": "# Memory\n\n## Feedback\n- [Small commits](feedback_small.md) — keep commits small\n\n"
                 "## Project\n- [Release](project_release.md) — how releases go\n",
    "feedback_small.md": FM.format(n="Small commits", d="keep commits small", t="feedback") + "One change a commit.\n",
    "project_release.md": FM.format(n="Release", d="how releases go", t="project") + "Tag, build, publish.\n",
}


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".curator" not in p.parts}


def load(root):
    return load_store(root, token_counter=EstimateCounter(), use_cache=False)


def fix(root, checks=None):
    """Apply the fixes (of `checks`, else the safe ones); the findings before and after."""
    store = load(root)
    before = run_checks(store)
    apply_plan(root, plan_fixes(store, before, checks, counter=store.counter))
    return before, run_checks(load(root))


def test_an_unlisted_topic_file_gets_a_line_in_its_types_section(make_store):
    root = make_store({**CLAUDE, "feedback_tests.md": FM.format(n="Test style", d="tests assert behaviour",
                                                                t="feedback") + "Assert behaviour.\n"})
    original = snapshot(root)
    before, after = fix(root)  # safe: applied unasked
    assert [f.check for f in before] == ["orphan.unindexed"] and after == []
    lines = (root / "MEMORY.md").read_text().splitlines()
    assert lines[3:5] == ["- [Small commits](feedback_small.md) — keep commits small",
                          "- [Test style](feedback_tests.md) — tests assert behaviour"]
    undo(root)
    assert snapshot(root) == original


def test_invalid_yaml_gets_the_minimal_quoting(make_store):
    bad = "---\nname: No attribution\ndescription: asked 2026-05-14: do not add it\ntype: feedback\n---\nBody.\n"
    root = make_store({**CLAUDE, "feedback_small.md": bad})
    before, after = fix(root)
    assert [f.check for f in before] == ["frontmatter.invalid"] and after == []
    text = (root / "feedback_small.md").read_text()
    assert 'description: "asked 2026-05-14: do not add it"' in text and text.endswith("---\nBody.\n")
    assert load(root).records["feedback_small.md"].frontmatter["description"] == "asked 2026-05-14: do not add it"


def test_missing_frontmatter_is_drafted_only_when_asked(make_store):
    root = make_store({**CLAUDE, "project_release.md": "# Release steps\n\nTag the commit. Then build.\n"})
    with pytest.raises(NothingToDo):
        plan_fixes(load(root), run_checks(load(root)))
    _, after = fix(root, {"frontmatter.missing"})
    assert after == []
    assert (root / "project_release.md").read_text().startswith(
        "---\nname: Release steps\ndescription: Tag the commit.\ntype: project\n---\n# Release steps\n")


def test_a_broken_link_is_relinked_to_the_one_file_of_that_name(make_store):
    root = make_store({**CLAUDE, "project_release.md": CLAUDE["project_release.md"] + "See [notes](notes.md#top).\n",
                       "docs/notes.md": FM.format(n="Notes", d="notes", t="reference") + "Notes.\n"})
    (root / "MEMORY.md").write_text(CLAUDE["MEMORY.md"] + "- [Notes](docs/notes.md) — notes\n")
    original = snapshot(root)
    before, after = fix(root)
    assert [f.check for f in before] == ["links.broken"] and after == []
    assert "See [notes](docs/notes.md#top)." in (root / "project_release.md").read_text()
    undo(root)
    assert snapshot(root) == original


def test_an_ambiguous_broken_link_lists_its_candidates_and_has_no_fix(make_store):
    root = make_store({**CLAUDE, "project_release.md": CLAUDE["project_release.md"] + "See [notes](notes.md).\n",
                       "a/notes.md": "# a\n", "b/notes.md": "# b\n"})
    found = [f for f in run_checks(load(root)) if f.check == "links.broken"]
    assert len(found) == 1 and found[0].fix is None
    assert "2 files have that name: a/notes.md, b/notes.md" in found[0].message


def test_git_rename_history_comes_before_a_guess_by_name(make_store, monkeypatch, tmp_path):
    import subprocess

    for var, value in (("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig")), ("GIT_CONFIG_NOSYSTEM", "1"),
                       ("GIT_AUTHOR_NAME", "t"), ("GIT_AUTHOR_EMAIL", "t@e"), ("GIT_COMMITTER_NAME", "t"),
                       ("GIT_COMMITTER_EMAIL", "t@e")):
        monkeypatch.setenv(var, value)
    body = FM.format(n="Deploy", d="deploy steps", t="project") + "Deploy with the pipeline, never by hand.\n"
    root = make_store({**CLAUDE, "project_deploy.md": body,
                       "project_release.md": CLAUDE["project_release.md"] + "See [deploy](project_deploy.md).\n"})
    (root / "MEMORY.md").write_text(CLAUDE["MEMORY.md"] + "- [Deploy](project_deploy.md) — deploy steps\n")

    def git(*args):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "a")
    git("mv", "project_deploy.md", "project_shipping.md")  # no name in common: no guess by name
    git("commit", "-qm", "rename")
    (root / "MEMORY.md").write_text(CLAUDE["MEMORY.md"] + "- [Deploy](project_shipping.md) — deploy steps\n")
    git("commit", "-qam", "index")
    _, after = fix(root)
    assert after == [] and "See [deploy](project_shipping.md)." in (root / "project_release.md").read_text()


def test_a_memory_md_entry_into_another_machines_home_folder_is_said_so_and_relinked(make_store):
    far = "/Users/alice/.claude/projects/-Users-alice-app/memory/project_release.md"
    index = CLAUDE["MEMORY.md"].replace("](project_release.md)", f"]({far})") + "- [Old](/home/bob/old.md) — old\n"
    root = make_store({**CLAUDE, "MEMORY.md": index})
    found = [f for f in run_checks(load(root)) if f.check == "links.broken"]
    assert [f.message.split(":")[0] for f in found] == [
        f"link to {far} points into one user's Claude Code auto memory (~/.claude/projects/-Users-alice-app/memory/, "
        "in their home folder, never committed)",
        "link to /home/bob/old.md points into another machine's home folder (/home/bob)"]
    assert found[0].fix is not None and found[1].fix is None  # only the first has a file here
    fix(root)
    assert "- [Release](project_release.md) — how releases go" in (root / "MEMORY.md").read_text()


def test_memory_md_past_its_cap_moves_inline_sections_into_topic_files_when_asked(make_store):
    inline = "## Browser commands\n" + "".join(f"- `cmd{i}` — does thing {i}\n" for i in range(150))
    tools = "## Tools\n" + "".join(f"- tool {i} is used for {i}\n" for i in range(80))
    index = CLAUDE["MEMORY.md"] + "\n" + inline + "\n" + tools + "\n## More\n- [Small commits](feedback_small.md) — again\n"
    root = make_store({**CLAUDE, "MEMORY.md": index})
    original = snapshot(root)
    store = load(root)
    past = [f for f in run_checks(store) if f.check == "budget.past-cap"]
    assert past and past[0].fix is not None
    with pytest.raises(NothingToDo):  # a draft: never applied unasked
        plan_fixes(store, run_checks(store))
    before, after = fix(root, {"budget.past-cap"})
    assert not [f for f in after if f.check == "budget.past-cap"]
    # the section past the cap moves; the one before it stays (the index fits again)
    topic = (root / "reference_tools.md").read_text()
    assert topic.startswith("---\nname: Tools\ndescription: tool 0 is used for 0\ntype: reference\n---\n# Tools\n\n- tool 0")
    text = (root / "MEMORY.md").read_text()
    assert "- [Tools](reference_tools.md) — tool 0 is used for 0" in text and "## Browser commands" in text
    assert not (root / "reference_browser_commands.md").exists()
    undo(root)
    assert snapshot(root) == original


def test_an_unlisted_file_is_not_listed_past_the_cap(make_store):
    # abl030/cratedigger: MEMORY.md past its 25 KB cap and 3 topic files unlisted; a line added
    # past the cap is never seen, so listing them would only move them into budget.past-cap
    memory = CLAUDE["MEMORY.md"] + "".join(f"- note {i}: a long-standing fact kept inline\n" for i in range(200))
    root = make_store({**CLAUDE, "MEMORY.md": memory,
                       "feedback_tests.md": FM.format(n="Test style", d="tests assert behaviour", t="feedback") + "Body.\n"})
    store = load(root)
    found = run_checks(store)
    assert {f.check for f in found} == {"orphan.unindexed", "budget.past-cap"}
    for checks in (None, {"orphan.unindexed"}):
        with pytest.raises(NothingToDo, match="past Claude Code's load cap"):
            plan_fixes(store, found, checks, counter=store.counter)
