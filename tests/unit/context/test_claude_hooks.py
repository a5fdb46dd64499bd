"""Claude Code hooks that print into the context: a SessionStart hook that only prints a file of
the repository is counted as that file; any other hook is named in a note."""

from __future__ import annotations

import json

from .test_context_model import build, repo


def _hooks(event: str, *commands: str) -> dict:
    return {"hooks": {event: [{"matcher": "", "hooks": [{"type": "command", "command": c} for c in commands]}]}}


def test_a_session_start_hook_that_prints_a_file_counts_it_and_another_is_named(tmp_path):
    settings = _hooks("SessionStart", 'cat "$CLAUDE_PROJECT_DIR"/.claude/context.md', "./scripts/branch-info.sh")
    root = repo(tmp_path, {"CLAUDE.md": "project\n", ".claude/context.md": "# Today\nship the release\n",
                           ".claude/settings.json": json.dumps(settings)})
    ctx = build(root, tmp_path).agents["claude-code"]
    (hooked,) = [e for e in ctx.startup if e.path == ".claude/context.md"]
    assert hooked.why == "printed by a SessionStart hook (.claude/settings.json)"
    assert hooked.rule == "claude-code/hooks.context@2.1.332"
    assert any(n.startswith("a SessionStart hook in .claude/settings.json runs `./scripts/branch-info.sh`: what it "
                            "prints joins the context at start-up") for n in ctx.notes)


def test_a_prompt_hook_is_named_for_every_prompt_and_hooks_that_print_nothing_are_not(tmp_path):
    settings = {**_hooks("UserPromptSubmit", "cat .claude/context.md"),
                "hooks": {**_hooks("UserPromptSubmit", "cat .claude/context.md")["hooks"],
                          **_hooks("PreToolUse", "./lint.sh")["hooks"]}}
    root = repo(tmp_path, {"CLAUDE.md": "project\n", ".claude/context.md": "ctx\n",
                           ".claude/settings.local.json": json.dumps(settings)})
    ctx = build(root, tmp_path).agents["claude-code"]
    assert ".claude/context.md" not in [e.path for e in ctx.startup]
    notes = [n for n in ctx.notes if " hook in " in n]
    assert notes == ["a UserPromptSubmit hook in .claude/settings.local.json runs `cat .claude/context.md`: what it "
                     "prints joins the context with every prompt (not counted: known only when it runs)"]
    old = build(root, tmp_path, versions={"claude-code": "1.0.50"}).agents["claude-code"]
    assert not [n for n in old.notes if " hook in " in n]


def test_clines_hooks_are_named_as_each_era_treats_what_they_print(tmp_path):
    """Before 4.0 a TaskStart hook's output joined the conversation; on the SDK it never does, and
    since 4.1.11 a PreToolUse hook's does (`cline` 2.18.0 and 3.0.65 on npm, hooks-adapter.ts)."""
    root = repo(tmp_path, {".clinerules/rules.md": "be brief\n", ".clinerules/hooks/TaskStart": "#!/bin/sh\necho '{}'\n",
                           ".cline/hooks/pretooluse.py": "print('{}')\n", ".clinerules/hooks/README.md": "ours\n"})

    def notes(version=None):
        cline = build(root, tmp_path, agents=["cline"], versions={"cline": version} if version else None).agents["cline"]
        return [n for n in cline.notes if "hooks/" in n]

    assert notes() == [".clinerules/hooks/TaskStart runs, but what it prints never reaches the model in this Cline "
                       "version", ".cline/hooks/pretooluse.py runs before each tool call: the context it prints joins "
                       "the conversation (not counted: known only when it runs)"]
    assert notes("4.0.0") == [".clinerules/hooks/TaskStart runs, but what it prints never reaches the model in this "
                              "Cline version", ".cline/hooks/pretooluse.py runs, but what it prints never reaches the "
                              "model in this Cline version"]
    assert notes("3.89.2") == [".clinerules/hooks/TaskStart runs at task start: the context it prints joins the "
                               "conversation (not counted: known only when it runs)"]  # `.cline/hooks` is the SDK's


def test_a_printed_file_past_the_versions_cut_is_not_counted_as_loaded(tmp_path):
    """Output over the cut goes to a file (a preview joins): 10,000 characters in 2.1.332's code,
    50,000 by 2.1.89's changelog."""
    settings = _hooks("SessionStart", "cat .claude/context.md")
    root = repo(tmp_path, {"CLAUDE.md": "project\n", ".claude/context.md": "x" * 20_000 + "\n",
                           ".claude/settings.json": json.dumps(settings)})
    now = build(root, tmp_path).agents["claude-code"]
    assert ".claude/context.md" not in [e.path for e in now.startup]
    before = build(root, tmp_path, versions={"claude-code": "2.1.300"}).agents["claude-code"]
    assert [e.rule for e in before.startup if e.path == ".claude/context.md"] == ["claude-code/hooks.context@1.0.62"]
