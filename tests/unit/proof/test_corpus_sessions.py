"""Real repositories (the shared instruction corpus) with sessions written to the documented
transcript schema: every load a session recorded is matched, or reported as a mismatch naming the
rule that predicted otherwise; each session is held against the rules of its own version."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.proof import prove
from curator.proof.verify import GONE, MATCHED, MISMATCHES, OUTSIDE, UNEXPECTED
from curator.transcripts import SessionIndex

from .sessions import Session, sid

CORPUS = Path(os.environ.get("CURATOR_INSTRUCTION_CORPUS", "/work/shared/corpora/instructions"))
needs_corpus = pytest.mark.skipif(not (CORPUS / "materialize.py").exists(), reason="the instruction corpus is not here")


def _repo(tmp_path, name):
    from curator.bench.context_corpus import materialize

    return Path(materialize(str(CORPUS), name, str(tmp_path / name)))


def _prove(tmp_path, root, sessions, **kw):
    projects = tmp_path / "projects"
    for s in sessions:
        s.write(projects)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    index = SessionIndex.for_repo(root, [projects], use_cache=False)
    return prove(root, index.build(), env={"HOME": str(home), "CI": ""}, home=str(home),
                 token_counter=FakeTokenCounter(), **kw)


def _text(root: Path, rel: str) -> str:
    return (root / rel).read_text(encoding="utf-8")


def _accounted(proof) -> None:
    """Every recorded load has its row; every mismatch names the rule at fault (or says no rule
    of curator's loads the file) and what that rule predicted."""
    for c in proof.checks:
        if c.prediction is None:
            continue
        rows = {(r.path, r.when) for r in c.rows}
        root = proof.root
        for load in c.evidence.startup:
            rel = os.path.relpath(load.path, root) if load.path.startswith(root + "/") else load.path
            assert (rel, "start-up") in rows or ("~/" + rel.split("/home/", 1)[-1], "start-up") in rows \
                or any(r.path.startswith("~/") for r in c.rows), (c.evidence.session_id, load.path)
        for load in c.evidence.nested:
            rel = os.path.relpath(load.path, root) if load.path.startswith(root + "/") else load.path
            assert (rel, "on demand") in rows, (c.evidence.session_id, load.path)
        for r in c.rows:
            assert r.status in (MATCHED, GONE, OUTSIDE, "absent", *MISMATCHES), r
            if r.mismatch:
                assert r.predicted and (r.rule or "no rule of curator's" in r.predicted), r


@needs_corpus
def test_2anki_imports_nested_files_commands_and_subagents(tmp_path):
    root = _repo(tmp_path, "2anki__server")
    r = str(root)
    imports = ["src/lib/parser/FEATURE.md", "src/services/NotionService/FEATURE.md",
               "src/services/observability/FEATURE.md", "src/lib/ankify/FEATURE.md", "VOICE.md",
               ".claude/MCP_README.md", ".claude/rules/security.md", ".claude/rules/testing.md",
               ".claude/rules/code-quality.md", ".claude/rules/email-templates.md", ".claude/rules/dependencies.md",
               ".claude/rules/sonar.md", ".claude/rules/parallel-pr-coordination.md"]
    s = Session(sid(1), r, "2.1.300", "2026-11-12")
    s.instructions([(f"{r}/CLAUDE.md", "Project", _text(root, "CLAUDE.md"))]
                   + [(f"{r}/{p}", "Project", _text(root, p), f"{r}/CLAUDE.md") for p in imports]
                   + [("/home/someone/.claude/CLAUDE.md", "User", "be brief")])
    s.prompt("why does the Notion import fail").read("src/services/NotionService/index.ts")
    s.nested(f"{r}/src/services/CLAUDE.md", _text(root, "src/services/CLAUDE.md"))
    s.read("web/src/App.tsx")  # web/CLAUDE.md should attach: this session never recorded it
    s.call("Skill", {"skill": "check"}, "Launching skill: check")
    s.invoked([("changelog", f"{r}/.claude/commands/changelog.md", _text(root, ".claude/commands/changelog.md"))])
    s.call("Task", {"subagent_type": "engineer", "description": "fix", "prompt": "fix it"})
    s.say("done")
    proof = _prove(tmp_path, root, [s])
    _accounted(proof)
    (c,) = proof.checks
    by = {(r.path, r.when): r for r in c.rows}
    assert all(by[(p, "start-up")].status == MATCHED for p in ["CLAUDE.md", *imports])
    assert by[("CLAUDE.md", "start-up")].bytes == "same"
    assert by[("src/services/CLAUDE.md", "on demand")].status == MATCHED
    web = by[("web/CLAUDE.md", "on demand")]
    assert web.status == "not attached" and web.rule == "claude-code/project.nested"
    assert "web/src/App.tsx" in web.detail
    assert by[("/home/someone/.claude/CLAUDE.md", "start-up")].status == OUTSIDE
    assert [m.path for m in c.mismatches] == ["web/CLAUDE.md"]
    contradicted = [f for f in proof.findings if f.check == "sessions.model-contradicted"]
    assert [f.path for f in contradicted] == ["web/CLAUDE.md"]
    assert "2.1.300" in contradicted[0].message and "claude-code/project.nested" in contradicted[0].message
    uses = {i.path: i for i in proof.usage.items}
    assert (uses[".claude/commands/check.md"].uses, uses[".claude/commands/changelog.md"].uses) == (1, 1)
    assert uses[".claude/agents/engineer.md"].uses == 1 and uses[".claude/agents/pm.md"].uses == 0


@needs_corpus
def test_trigger_dev_paths_rules_a_working_folder_and_a_file_no_rule_loads(tmp_path):
    root = _repo(tmp_path, "triggerdotdev__trigger.dev")
    r = str(root)
    start = [(f"{r}/CLAUDE.md", "Project", _text(root, "CLAUDE.md")),
             (f"{r}/AGENTS.md", "Project", _text(root, "AGENTS.md"), f"{r}/CLAUDE.md")]
    a = Session(sid(1), r, "2.1.287", "2026-11-02")
    a.instructions(start).prompt("add a column").read("internal-packages/database/prisma/schema.prisma")
    a.nested(f"{r}/.claude/rules/database-safety.md", _text(root, ".claude/rules/database-safety.md"),
             globs=["internal-packages/database/**"])
    a.nested(f"{r}/internal-packages/database/CLAUDE.md", _text(root, "internal-packages/database/CLAUDE.md"))
    a.skill("drizzle").say("done")
    a.nested(f"{r}/.cursor/rules/repo.mdc", _text(root, ".cursor/rules/repo.mdc"))  # Cursor's: nothing of Claude's
    b = Session(sid(2), f"{r}/apps/webapp", "2.1.287", "2026-11-03")  # run in a subfolder
    b.root = r
    b.instructions(start + [(f"{r}/apps/webapp/CLAUDE.md", "Project", _text(root, "apps/webapp/CLAUDE.md"))])
    b.prompt("fix the route").read("apps/webapp/app/routes/_index.tsx")
    b.nested(f"{r}/.claude/rules/server-apps.md", _text(root, ".claude/rules/server-apps.md"), globs=["apps/**"])
    b.say("fixed")
    proof = _prove(tmp_path, root, [a, b])
    _accounted(proof)
    first, second = sorted(proof.checks, key=lambda c: c.evidence.started)
    rows = {(x.path, x.when): x for x in first.rows}
    assert rows[(".claude/rules/database-safety.md", "on demand")].status == MATCHED
    assert rows[("internal-packages/database/CLAUDE.md", "on demand")].status == MATCHED
    mdc = rows[(".cursor/rules/repo.mdc", "on demand")]
    assert mdc.status == UNEXPECTED and mdc.rule == "" and "no rule of curator's" in mdc.predicted
    assert {m.path for m in first.mismatches} == {".cursor/rules/repo.mdc"}
    assert second.prediction.cwd == "apps/webapp"
    rows = {(x.path, x.when): x for x in second.rows}
    assert rows[("apps/webapp/CLAUDE.md", "start-up")].status == MATCHED  # the working folder's: at start-up
    assert not second.mismatches
    uses = {i.path: i for i in proof.usage.items}
    assert len(uses[".claude/rules/server-apps.md"].sessions) == 1
    assert uses[".claude/skills/drizzle/SKILL.md"].uses == 1


@needs_corpus
def test_pydantic_ai_claude_md_links_to_agents_md(tmp_path):
    root = _repo(tmp_path, "pydantic__pydantic-ai")
    r = str(root)
    s = Session(sid(1), r, "2.1.287", "2026-11-05")
    s.instructions([(f"{r}/CLAUDE.md", "Project", _text(root, "AGENTS.md"))])
    s.prompt("a failing test").read("tests/test_agent.py")
    s.nested(f"{r}/tests/CLAUDE.md", _text(root, "tests/AGENTS.md"))
    s.skill("pre-push-review").say("ok")
    proof = _prove(tmp_path, root, [s])
    _accounted(proof)
    (c,) = proof.checks
    assert not c.mismatches, [(m.path, m.detail) for m in c.mismatches]
    rows = {(x.path, x.when): x for x in c.rows}
    assert rows[("CLAUDE.md", "start-up")].bytes == "same"
    assert rows[("tests/CLAUDE.md", "on demand")].status == MATCHED


@needs_corpus
def test_an_agents_md_only_repository_under_2_1_276_and_2_1_287(tmp_path):
    """sqlfluff has AGENTS.md files only: Claude Code 2.1.276 reads none of them, 2.1.287 reads
    the root's at start-up — each session is held against its own version's rules."""
    root = _repo(tmp_path, "sqlfluff__sqlfluff")
    r = str(root)
    agents = (f"{r}/AGENTS.md", "Project", _text(root, "AGENTS.md"))
    old = Session(sid(1), r, "2.1.276", "2026-09-10").instructions([]).prompt("hi").say("hello")
    new = Session(sid(2), r, "2.1.287", "2026-10-10").instructions([agents]).prompt("hi").say("hello")
    odd = Session(sid(3), r, "2.1.276", "2026-09-11").instructions([agents]).prompt("hi").say("hello")
    missed = Session(sid(4), r, "2.1.287", "2026-10-11").instructions([]).prompt("hi").say("hello")
    proof = _prove(tmp_path, root, [old, new, odd, missed])
    _accounted(proof)
    checks = {c.evidence.session_id: c for c in proof.checks}
    assert checks[sid(1)].rules_version == "2.1.276" and checks[sid(1)].rows == []
    (row,) = checks[sid(2)].rows
    assert (row.path, row.status, row.rule) == ("AGENTS.md", MATCHED, "claude-code/agents-md.fallback@2.1.277")
    (row,) = checks[sid(3)].rows
    assert (row.status, row.rule) == (UNEXPECTED, "claude-code/agents-md.unsupported")
    (row,) = checks[sid(4)].rows
    assert (row.status, row.rule) == ("missing", "claude-code/agents-md.fallback@2.1.277")
    messages = {f.message for f in proof.findings if f.check == "sessions.model-contradicted"}
    assert any("Claude Code 2.1.276" in m and "agents-md.unsupported" in m for m in messages)
    assert any("Claude Code 2.1.287" in m and "did not load it" in m for m in messages)


def test_real_transcripts_of_2_1_38_predate_the_records(tmp_path):
    """Real transcripts (marot/spotter, Claude Code 2.1.38-2.1.39) hold no attachment line: each
    session says it predates the records, none counts as a mismatch."""
    real = Path("/work/shared/corpora/transcripts/marot__spotter")
    if not real.is_dir():
        pytest.skip("the transcript corpus is not here")
    projects = tmp_path / "projects" / "-home-marco-projects-spotter"
    projects.mkdir(parents=True)
    for f in real.glob("*.jsonl"):
        (projects / f.name).write_bytes(f.read_bytes())
    repo = tmp_path / "spotter"
    repo.mkdir()
    (repo / "CLAUDE.md").write_text("# spotter\n")
    index = SessionIndex.for_repo(repo, [tmp_path / "projects"], use_cache=False, match_all=True)
    proof = prove(repo, index.build(), env={"HOME": str(tmp_path), "CI": ""}, home=str(tmp_path),
                  token_counter=FakeTokenCounter())
    assert proof.checks and {c.state for c in proof.checks} == {"predates the records"}
    assert proof.mismatches == 0 and not proof.findings
    assert all("recorded from 2.1.276 on" in c.note for c in proof.checks)
    assert proof.usage.sessions == 0  # no evidence either way


@needs_corpus
def test_each_version_is_shown_with_its_rules_and_a_nested_file_missed_on_demand_is_said(tmp_path):
    """The text report names, per session, the rules its version holds that another session's does
    not (2.1.276 reads no AGENTS.md, 2.1.287 does); a session that recorded no file because its rules
    predict none says so; a nested AGENTS.md read under but never attached is a finding even when a
    session run in its folder loaded it at start-up (that says nothing of attaching)."""
    from curator.reports.proof_report import render_text

    root = _repo(tmp_path, "sqlfluff__sqlfluff")
    r = str(root)
    agents = (f"{r}/AGENTS.md", "Project", _text(root, "AGENTS.md"))
    old = Session(sid(1), r, "2.1.276", "2026-09-10").instructions([]).prompt("hi").say("hello")
    new = Session(sid(2), r, "2.1.287", "2026-10-10").instructions([agents]).prompt("fix")
    new.read("test/core/parser/lexer_test.py").say("ok")
    below = Session(sid(3), f"{r}/test", "2.1.287", "2026-10-12")
    below.root = r
    below.instructions([agents, (f"{r}/test/AGENTS.md", "Project", _text(root, "test/AGENTS.md"))]).say("ok")
    proof = _prove(tmp_path, root, [old, new, below])
    _accounted(proof)
    flat = " ".join(render_text(proof).split())
    assert "Claude Code 2.1.276 rules of 2.1.276, not held by every session's version: agents-md.unsupported" in flat
    assert "rules of 2.1.287, not held by every session's version: agents-md.fallback@2.1.277" in flat
    assert "it recorded no instruction file at start-up, and the rules of 2.1.276 predict none" in flat
    missed = next(row for c in proof.checks for row in c.rows if row.status == "not attached")
    assert missed.path == "test/AGENTS.md" and "instructionFiles" not in missed.hint and "attaches" in missed.hint
    assert [(f.check, f.path) for f in proof.findings if f.check == "sessions.model-contradicted"] == [
        ("sessions.model-contradicted", "test/AGENTS.md")]


def test_one_version_says_no_rules_line(tmp_path):
    from curator.reports.proof_report import differing_rules

    root = tmp_path / "r"
    (root / ".git").mkdir(parents=True)
    (root / "CLAUDE.md").write_text("x\n")
    r = str(root)
    a = Session(sid(1), r, "2.1.287", "2026-10-10").instructions([(f"{r}/CLAUDE.md", "Project", "x\n")]).say("a")
    b = Session(sid(2), r, "2.1.290", "2026-10-11").instructions([(f"{r}/CLAUDE.md", "Project", "x\n")]).say("b")
    proof = _prove(tmp_path, root, [a, b])
    assert differing_rules(proof.checks) == {}  # 2.1.287 and 2.1.290 hold the same rules
