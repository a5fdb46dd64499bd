"""Which skills Claude Code lists to the model (read in its code up to 2.1.332): not those with
`disable-model-invocation` (its booleans read as YAML 1.2 did, widened in 2.1.218), a `paths:`
skill only once a matching file is read, and `skillOverrides` from the settings (2.1.129)."""

from __future__ import annotations

import json

from .test_context_model import build, repo


def _skill(name: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: does {name} things\n{extra}---\nbody of {name}\n"


def _listed(model) -> list[str]:
    return [e.text for e in model.agents["claude-code"].startup if "listing" in e.why]


def test_a_skill_that_disables_model_invocation_is_run_by_you_and_never_listed(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "x\n", ".claude/skills/deploy/SKILL.md": _skill("deploy", "disable-model-invocation: true\n"),
                           ".claude/skills/lint/SKILL.md": _skill("lint"),
                           ".claude/skills/ship/SKILL.md": _skill("ship", "disable-model-invocation: yes\n"),
                           ".claude/commands/release.md": "---\ndescription: cut a release\n"
                                                          "disable-model-invocation: 'TRUE'\n---\nsteps\n"})
    model = build(root, tmp_path)
    assert _listed(model) == ["- lint: does lint things"]
    ctx = model.agents["claude-code"]
    (deploy,) = [o for o in ctx.on_demand if o.path.endswith("deploy/SKILL.md")]
    assert deploy.when.startswith("only when you type /deploy") and deploy.rule == "claude-code/skills.manual-only"
    # before 2.1.218 only `true` counted: `yes` and a quoted 'TRUE' were words
    old = build(root, tmp_path, versions={"claude-code": "2.1.200"})
    assert sorted(_listed(old)) == ["- lint: does lint things", "- release: cut a release", "- ship: does ship things"]


def test_a_skill_with_paths_is_listed_once_a_matching_file_is_read(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "x\n", "src/app.py": "x\n",
                           ".claude/skills/py/SKILL.md": _skill("py", "paths: src/**/*.py, tests/**\n"),
                           ".claude/skills/all/SKILL.md": _skill("all", "paths: '**'\n")})
    model = build(root, tmp_path)
    assert _listed(model) == ["- all: does all things"]  # `**` alone: listed at start-up
    (py,) = [o for o in model.agents["claude-code"].on_demand if o.rule.startswith("claude-code/skills.paths")]
    assert py.globs == ("src/**/*.py", "tests/**") and py.text == "- py: does py things"
    assert "tests" in next(f.message for f in model.findings if f.path.endswith("py/SKILL.md"))  # matches no file
    assert sorted(_listed(build(root, tmp_path, versions={"claude-code": "2.1.80"}))) == [
        "- all: does all things", "- py: does py things"]


def test_skill_overrides_in_the_settings_name_only_or_hide_a_skill(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "x\n", ".claude/skills/a/SKILL.md": _skill("a"),
                           ".claude/skills/b/SKILL.md": _skill("b"), ".claude/skills/c/SKILL.md": _skill("c")})
    (root / ".claude" / "settings.json").write_text(json.dumps({"skillOverrides": {"a": "name-only", "b": "off"}}))
    (root / ".claude" / "settings.local.json").write_text(json.dumps({"skillOverrides": {"b": "on"}}))
    model = build(root, tmp_path)
    assert sorted(_listed(model)) == ["- a", "- b: does b things", "- c: does c things"]  # local outranks project
    (root / ".claude" / "settings.local.json").write_text(json.dumps({"skillOverrides": {"c": "user-invocable-only"}}))
    hidden = build(root, tmp_path)
    assert sorted(_listed(hidden)) == ["- a"]
    (c,) = [o for o in hidden.agents["claude-code"].on_demand if o.path.endswith("c/SKILL.md") and "type /c" in o.when]
    assert "skillOverrides is user-invocable-only in .claude/settings.local.json" in c.when
    assert len(_listed(build(root, tmp_path, versions={"claude-code": "2.1.120"}))) == 3  # before 2.1.129


def test_a_nested_skills_folder_joins_once_a_file_under_it_is_touched_scoped_on_a_clash(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "x\n", ".claude/skills/deploy/SKILL.md": _skill("deploy"),
                           "packages/web/.claude/skills/deploy/SKILL.md": _skill("deploy"),
                           "packages/web/.claude/skills/storybook/SKILL.md": _skill("storybook"),
                           "node_modules/x/.claude/skills/evil/SKILL.md": _skill("evil")})
    model = build(root, tmp_path)
    assert _listed(model) == ["- deploy: does deploy things"]  # only the root's at start-up
    nested = {o.path: o for o in model.agents["claude-code"].on_demand if o.rule.startswith("claude-code/skills.nested")}
    assert sorted(nested) == ["packages/web/.claude/skills/deploy/SKILL.md", "packages/web/.claude/skills/storybook/SKILL.md"]
    book = nested["packages/web/.claude/skills/storybook/SKILL.md"]
    assert book.globs == ("packages/web/**",) and book.text == (
        "- storybook: does storybook things (from packages/web/.claude/skills — applies when working on files under "
        "packages/web/)")
    assert nested["packages/web/.claude/skills/deploy/SKILL.md"].text.startswith(
        "- packages/web:deploy: does deploy things (scoped to packages/web/")
    before = build(root, tmp_path, versions={"claude-code": "2.1.100"})  # no scoped names before 2.1.178
    assert [u.path for u in before.agents["claude-code"].never if "not offered" in u.reason] == [
        "packages/web/.claude/skills/deploy/SKILL.md"]
    assert not [o for o in build(root, tmp_path, versions={"claude-code": "2.1.5"}).agents["claude-code"].on_demand
                if "packages/web" in o.path]


def test_a_skill_is_listed_and_overridden_by_its_folders_name_not_its_frontmatter_name(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "x\n", ".claude/skills/dirname/SKILL.md": _skill("pretty"),
                           ".claude/skills/other/SKILL.md": _skill("on")})  # `on`: YAML 1.1's true, a word here
    assert sorted(_listed(build(root, tmp_path))) == ["- dirname: does pretty things", "- other: does on things"]
    (root / ".claude" / "settings.json").write_text(json.dumps({"skillOverrides": {"dirname": "off"}}))
    assert _listed(build(root, tmp_path)) == ["- other: does on things"]


def test_nested_skills_are_compared_by_their_own_descriptions_not_where_they_apply(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "x\n",
                           "pkg/.claude/skills/a/SKILL.md": "---\nname: a\ndescription: squash commits\n---\nbody\n",
                           "pkg/.claude/skills/b/SKILL.md": "---\nname: b\ndescription: rotate logs\n---\nbody\n"})
    assert not [f for f in build(root, tmp_path).findings if f.check == "instructions.description-collision"]
