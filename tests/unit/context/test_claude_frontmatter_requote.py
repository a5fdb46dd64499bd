"""Claude Code reads frontmatter YAML cannot parse a second time, each risky one-line value quoted
(2.1.69 on; `qd`/`_u` in the code of 2.1.332): the description its own subagent generator writes
("… Examples: <example>Context: …") loads, and so does trigger.dev's drizzle skill."""

from __future__ import annotations

import pytest

from curator.context.parse import claude_meta

from .test_context_model import build, repo

AGENT = ("---\nname: refactor\ndescription: Use this agent after a change. Examples: <example>Context: the user "
         "finished a feature. user: 'done' assistant: 'I will use the refactor agent'</example>\n"
         "tools: Glob, Grep, Read\nmodel: opus\n---\n\nYou review code.\n")
SKILL = ("---\nname: drizzle\ndescription: Use this skill for the `@internal/db` package — covers schema: tables, "
         "queries\nallowed-tools: Read, Write\n---\n\n# Drizzle\n")
COMMAND = "---\ndescription: Validate the work\nargument-hint: [feature-name] [task-numbers]\n---\n\nRun it.\n"


def test_the_second_reading_quotes_only_what_it_must():
    meta = claude_meta(AGENT, requote=True)
    assert meta.error is None and meta.data["description"].startswith("Use this agent after a change. Examples:")
    assert meta.data["tools"] == "Glob, Grep, Read" and meta.data["model"] == "opus"
    assert claude_meta(COMMAND, requote=True).data["argument-hint"] == "[feature-name] [task-numbers]"
    assert claude_meta("---\npaths: [src/**, lib/**]\nx: a: b\n---\n", requote=True).data["paths"] == ["src/**", "lib/**"]
    before = claude_meta(AGENT, requote=False)
    assert before.error and before.data == {}  # no line-by-line reading: Claude Code reads YAML or nothing
    nested = claude_meta("---\nname: a\n  b: c\n---\n", requote=True)  # not a one-line value: still lost
    assert nested.error and nested.data == {}


@pytest.mark.parametrize(("version", "lost"), [("2.1.332", False), ("2.1.68", True)])
def test_a_subagent_skill_and_command_with_colons_are_listed_since_2_1_69(tmp_path, version, lost):
    root = repo(tmp_path, {".claude/agents/refactor.md": AGENT, ".claude/skills/drizzle/SKILL.md": SKILL,
                           ".claude/commands/validate.md": COMMAND, "CLAUDE.md": "# Repo\n"})
    m = build(root, tmp_path, agents=[f"claude-code@{version}"])
    broken = sorted(f.path for f in m.findings if f.check == "instructions.frontmatter")
    listed = {x.path: x.description for x in m.agents["claude-code"].listing}
    if lost:
        assert broken == [".claude/agents/refactor.md", ".claude/commands/validate.md", ".claude/skills/drizzle/SKILL.md"]
    else:
        assert broken == []
        assert listed[".claude/agents/refactor.md"].startswith("Use this agent after a change. Examples:")
        assert listed[".claude/skills/drizzle/SKILL.md"].startswith("Use this skill for the `@internal/db` package")
        assert listed[".claude/commands/validate.md"] == "Validate the work"


def test_a_byte_order_mark_is_left_to_its_own_rule():
    # review19 M3: the quoted second try must not clear a file Claude Code ignores for its BOM
    assert claude_meta("\ufeff" + AGENT, requote=True).error
