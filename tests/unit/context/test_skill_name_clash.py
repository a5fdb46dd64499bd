"""A skill of yours and one of the workspace with one name: the agent lists one of them. The
workspace's wins for Gemini CLI, Copilot (VS Code), Roo Code and Kiro; yours for Cline."""

from __future__ import annotations

from .test_context_model import build, repo


def _skill(name: str, desc: str) -> str:
    return f"---\nname: {name}\ndescription: {desc}\n---\nstep\n"


def _mine(tmp_path, folder: str, name: str) -> None:
    skill = tmp_path / "home" / folder / name
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(_skill(name, "my own way"), encoding="utf-8")


def test_the_workspace_wins_the_name_over_your_skill_and_yours_is_not_shown_as_listed(tmp_path):
    root = repo(tmp_path, {"GEMINI.md": "root\n", ".gemini/skills/lint/SKILL.md": _skill("lint", "the team's way"),
                           ".kiro/skills/lint/SKILL.md": _skill("lint", "the team's way"),
                           ".github/skills/lint/SKILL.md": _skill("lint", "the team's way"),
                           ".roo/skills/lint/SKILL.md": _skill("lint", "the team's way")})
    for folder in (".gemini/skills", ".kiro/skills", ".copilot/skills", ".roo/skills"):
        _mine(tmp_path, folder, "lint")
        _mine(tmp_path, folder, "fmt")  # a name only you have: listed, shown apart
    model = build(root, tmp_path, agents=["gemini", "kiro", "copilot", "roo"], env={"GEMINI_CLI_TRUST_WORKSPACE": "true"})
    for agent, folder in (("gemini", ".gemini"), ("kiro", ".kiro"), ("copilot", ".copilot"), ("roo", ".roo")):
        ctx = model.agents[agent]
        assert [u.path for u in ctx.user if "SKILL.md" in u.path] == [f"~/{folder}/skills/fmt/SKILL.md"], agent
        assert any(n.startswith(f"~/{folder}/skills/lint/SKILL.md is not listed: the workspace's skill lint")
                   for n in ctx.notes), agent
        assert any(e.path.endswith("skills/lint/SKILL.md") for e in ctx.startup), agent


def test_clines_your_skill_replaces_the_workspaces_of_the_same_name_whatever_its_case(tmp_path):
    root = repo(tmp_path, {".clinerules/skills/lint/SKILL.md": _skill("Lint ", "the team's way"),
                           ".clinerules/skills/docs/SKILL.md": _skill("docs", "write docs")})
    _mine(tmp_path, ".cline/skills", "lint")
    cline = build(root, tmp_path, agents=["cline"]).agents["cline"]
    assert [e.text for e in cline.startup if "skill listing" in e.why] == ["docs"]
    (gone,) = [u for u in cline.never if u.path == ".clinerules/skills/lint/SKILL.md"]
    assert gone.reason == "replaced by your skill of the same name (~/.cline/skills/lint/SKILL.md)"
    assert gone.rule.startswith("cline/skills.same-name")
    assert not any(o.path == ".clinerules/skills/lint/SKILL.md" for o in cline.on_demand)
    assert [u.path for u in cline.user] == ["~/.cline/skills/lint/SKILL.md"]


def test_cline_lists_one_skill_a_name_in_any_case_and_replaces_the_workspaces_once(tmp_path):
    root = repo(tmp_path, {".clinerules/skills/foo/SKILL.md": _skill("foo", "the team's way"),
                           ".cline/skills/FOO/SKILL.md": _skill("FOO", "the same name to Cline")})
    _mine(tmp_path, ".cline/skills", "foo")
    _mine(tmp_path, ".agents/skills", "foo")
    cline = build(root, tmp_path, agents=["cline"]).agents["cline"]
    assert [e.text for e in cline.startup if "skill listing" in e.why] == []  # yours replaced the one listed
    assert [u.path for u in cline.never if "replaced by your skill" in u.reason] == [".cline/skills/FOO/SKILL.md"]
    assert [u.path for u in cline.user] == ["~/.agents/skills/foo/SKILL.md"]  # ~/.agents is read last: it wins
    assert any("~/.cline/skills/foo/SKILL.md is your skill foo again" in n for n in cline.notes)
