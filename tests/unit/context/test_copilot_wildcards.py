"""Copilot's `applyTo` wildcards (VS Code's `_matches`): `**`, `**/*` and `*` attach the
instructions to every request, so they count toward the start-up budget; a narrower glob does not."""

from __future__ import annotations

import pytest

from .test_context_model import build, repo

_BIG = "- keep handlers small and pure, log every failure with its cause\n" * 300  # ~3,300 words


def _budget(tmp_path, apply_to: str):
    root = repo(tmp_path, {".curator.yaml": "budgets:\n  agent-startup: 2000\n",
                           ".github/copilot-instructions.md": "# Repo\n",
                           ".github/instructions/devops.instructions.md": f"---\napplyTo: '{apply_to}'\n---\n{_BIG}",
                           "Dockerfile": "FROM x\n", "src/app.ts": "x\n"})
    return [f.message for f in build(root, tmp_path).findings if f.check == "instructions.startup-budget"]


@pytest.mark.parametrize("apply_to", ["*", "**", "**/*"])
def test_a_wildcard_applyto_is_loaded_at_every_start(tmp_path, apply_to):
    (msg,) = _budget(tmp_path, apply_to)
    assert msg.startswith("GitHub Copilot loads") and ".github/instructions/" in msg


def test_the_finding_names_the_start_up_number_context_shows(tmp_path):
    """Path instructions on every file come with the first file, not at start-up: the finding
    says the two apart, and its start-up number is the context model's (one number, two faces)."""
    (msg,) = _budget(tmp_path, "**")
    startup = build(tmp_path / "repo", tmp_path).agents["copilot"].startup_tokens
    assert "with any file it works on (start-up " in msg and "before any work" not in msg
    assert f"(start-up {startup:,} + " in msg


@pytest.mark.parametrize("apply_to", ["*.ts", "src/**", "**/Dockerfile"])
def test_a_narrower_applyto_is_not(tmp_path, apply_to):
    assert _budget(tmp_path, apply_to) == []


def test_the_wildcards_are_a_rule_with_its_source():
    from curator.agents import rules_for

    rules = rules_for("copilot")
    assert set(rules.value("path.every-file")) == {"**", "**/*", "*"}
    assert "computeAutomaticInstructions" in rules.held["path.every-file"].source.page


@pytest.mark.parametrize("front, said", [
    ('applyTo:\n  - "docs/**/*.md"\n  - "src/**"', 'a YAML list'),
    ("applyTo: [docs/**/*.md]", "a YAML list"),
    ("applyTo: {docs/**/*.md,src/**}", "a YAML mapping"),
])
def test_an_applyto_that_is_not_a_string_applies_nothing(tmp_path, front, said):
    root = repo(tmp_path, {".github/instructions/docs.instructions.md": f"---\n{front}\n---\nCheck the style.\n",
                           "docs/a.md": "# A\n", "src/x.ts": "x\n"})
    m = build(root, tmp_path)
    (f,) = [f for f in m.findings if f.check == "instructions.frontmatter"]
    assert (f.path, f.line) == (".github/instructions/docs.instructions.md", 2) and said in f.message
    assert "never apply by themselves" in f.message
    copilot = m.agents["copilot"]
    assert [o.trigger for o in copilot.on_demand] == ["manual"]


def test_the_same_globs_as_one_string_apply(tmp_path):
    root = repo(tmp_path, {".github/instructions/docs.instructions.md": '---\napplyTo: "docs/**/*.md,src/**"\n---\nx\n',
                           "docs/a.md": "# A\n", "src/x.ts": "x\n"})
    m = build(root, tmp_path)
    assert [f for f in m.findings if f.check == "instructions.frontmatter"] == []
    copilot = m.agents["copilot"]
    assert [o.globs for o in copilot.on_demand] == [("**/docs/**/*.md", "**/src/**")]  # as VS Code reads them


def test_a_glob_not_anchored_matches_at_any_depth_and_is_not_dead(tmp_path):
    from curator.context.build import loads_for

    root = repo(tmp_path, {".github/instructions/ts.instructions.md": '---\napplyTo: "src/**/*.ts, /build/*.sh"\n---\nx\n',
                           "packages/app/src/x.ts": "x\n", "package.json": "{}\n"})
    m = build(root, tmp_path)
    (o,) = m.agents["copilot"].on_demand
    assert o.globs == ("**/src/**/*.ts",) and "(at any depth)" in o.when
    assert [i.path for i in loads_for(m, "packages/app/src/x.ts")["copilot"]] == [".github/instructions/ts.instructions.md"]
    (dead,) = [f for f in m.findings if f.check.startswith("instructions.dead-glob")]
    assert dead.check == "instructions.dead-glob" and dead.line == 2
    assert dead.message.startswith("`applyTo: /build/*.sh` starts with `/`") and "the other globs still apply" in \
        dead.message and dead.message.endswith("(write `build/*.sh`)")


def test_a_glob_starting_with_a_slash_matches_no_file_in_vs_code(tmp_path):
    from curator.context.build import loads_for

    root = repo(tmp_path, {".github/instructions/b.instructions.md": '---\napplyTo: "/build/**"\n---\nx\n',
                           "build/run.sh": "x\n", "package.json": "{}\n"})
    m = build(root, tmp_path)
    copilot = m.agents["copilot"]
    assert copilot.on_demand == [] and loads_for(m, "build/run.sh")["copilot"] == []
    (never,) = copilot.never
    assert never.path == ".github/instructions/b.instructions.md" and never.rule == "copilot/path.whole-path"
    (dead,) = [f for f in m.findings if f.check.startswith("instructions.dead-glob")]
    assert "the instructions never apply (write `build/**`)" in dead.message


def test_a_misplaced_path_instruction_is_also_told_its_applyto_list_would_not_apply_once_moved(tmp_path):
    # deephaven: .github/copilot-instructions/docs.instructions.md, applyTo a YAML list
    root = repo(tmp_path, {".github/copilot-instructions/docs.instructions.md":
                           '---\napplyTo:\n  - "docs/**/*.md"\n---\nCheck the style.\n', "docs/a.md": "# A\n"})
    m = build(root, tmp_path)
    got = sorted((f.check, f.line) for f in m.findings if f.path == ".github/copilot-instructions/docs.instructions.md")
    assert got == [("instructions.frontmatter", 2), ("instructions.misplaced", None)]
    (msg,) = [f.message for f in m.findings if f.check == "instructions.frontmatter"]
    assert 'moved, these instructions would still never apply — write applyTo: "docs/**/*.md"' in msg
