"""Devin Desktop's skills (listed by name and description, the body when invoked) and workflows
(`/name`, in `.windsurf/workflows/` of the workspace and its subfolders)."""

from __future__ import annotations

from .test_context_model import build, repo


def test_skills_are_listed_and_workflows_wait_for_their_slash_command(tmp_path):
    root = repo(tmp_path, {
        ".windsurf/skills/deploy/SKILL.md": "---\nname: deploy-prod\ndescription: Ship to production safely\n---\n"
                                            + "step\n" * 200,
        ".windsurf/skills/deploy/checklist.md": "a supporting file\n",
        ".windsurf/skills/bare/SKILL.md": "no frontmatter\n",
        ".windsurf/workflows/address-pr-comments.md": "1. checkout\n",
        "services/api/.windsurf/workflows/release.md": "1. tag\n",
        ".windsurf/rules/style.md": "---\ntrigger: always_on\n---\ntabs\n",
    })
    m = build(root, tmp_path, agents=["devin"])
    ctx = m.agents["devin"]
    listed = {e.path: e for e in ctx.startup if "skill listing" in e.why}
    assert sorted(listed) == [".windsurf/skills/bare/SKILL.md", ".windsurf/skills/deploy/SKILL.md"]
    assert listed[".windsurf/skills/deploy/SKILL.md"].text == "- deploy-prod: Ship to production safely"
    assert listed[".windsurf/skills/bare/SKILL.md"].text == "- bare"
    assert listed[".windsurf/skills/deploy/SKILL.md"].loaded_bytes < 60  # the body is not at start-up
    whens = {o.path: o.when for o in ctx.on_demand}
    assert whens[".windsurf/workflows/address-pr-comments.md"] == "when you type /address-pr-comments (workflow)"
    assert whens["services/api/.windsurf/workflows/release.md"] == "when you type /release (workflow)"
    assert whens[".windsurf/skills/deploy/SKILL.md"] == "when the skill is used"
    assert ".windsurf/skills/deploy/checklist.md" not in whens


def test_your_global_skills_are_listed_apart(tmp_path):
    home = tmp_path / "home" / ".codeium" / "windsurf" / "skills" / "mine"
    home.mkdir(parents=True)
    (home / "SKILL.md").write_text("---\nname: mine\ndescription: my own\n---\nbody\n", encoding="utf-8")
    root = repo(tmp_path, {".windsurf/rules/style.md": "---\ntrigger: always_on\n---\ntabs\n"})
    devin = build(root, tmp_path, agents=["devin"]).agents["devin"]
    assert [(u.path, u.text) for u in devin.user] == [("~/.codeium/windsurf/skills/mine/SKILL.md", "- mine: my own")]
