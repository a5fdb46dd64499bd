"""Claude Code's output styles: the one `outputStyle` names joins the start-up (as `# Output
Style: <name>` and its body), the others are never read."""

from __future__ import annotations

import json

from .test_context_model import build, repo


def test_the_output_style_the_settings_name_loads_and_the_others_never_do(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "x\n",
                           ".claude/output-styles/terse.md": "---\nname: Terse\ndescription: short answers\n---\n"
                                                             "Answer in one line.\n",
                           ".claude/output-styles/teacher.md": "---\nkeep-coding-instructions: true\n---\nExplain.\n"})
    plain = build(root, tmp_path).agents["claude-code"]
    assert not [e for e in plain.startup if "output style" in e.why]
    assert sorted(u.path for u in plain.never if "output style" in u.reason) == [
        ".claude/output-styles/teacher.md", ".claude/output-styles/terse.md"]
    (root / ".claude" / "settings.local.json").write_text(json.dumps({"outputStyle": "Terse"}))
    chosen = build(root, tmp_path).agents["claude-code"]
    (style,) = [e for e in chosen.startup if "output style" in e.why]
    assert style.path == ".claude/output-styles/terse.md" and style.text == "# Output Style: Terse\nAnswer in one line.\n"
    assert style.rule == "claude-code/output-styles.folder@1.0.81"
    assert any("leaves its own coding instructions out" in n for n in chosen.notes)
    (root / ".claude" / "settings.local.json").write_text(json.dumps({"outputStyle": "teacher"}))
    teacher = build(root, tmp_path).agents["claude-code"]
    assert [e.path for e in teacher.startup if "output style" in e.why] == [".claude/output-styles/teacher.md"]
    assert not any("coding instructions" in n for n in teacher.notes)
    (root / ".claude" / "settings.local.json").write_text(json.dumps({"outputStyle": "Explanatory"}))
    builtin = build(root, tmp_path).agents["claude-code"]
    assert any("outputStyle is Explanatory" in n and "built-in" in n for n in builtin.notes)
