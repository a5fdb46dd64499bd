"""The GitHub Copilot CLI as its 1.0.102 build loads (/work/research/agents/copilot_cli18.md): every
root AGENTS.md, CLAUDE.md and GEMINI.md (the same text once), `@` imports one level deep, path
instructions without a specific applyTo in every prompt and the others as a table row, excluded
ones never, a subfolder's files once a file there is viewed; shown when asked."""

from __future__ import annotations

from .test_context_model import build, repo

FILES = {
    ".github/copilot-instructions.md": "root copilot\n@docs/extra.md\n", ".github/docs/extra.md": "imported\n@more.md\n",
    ".github/docs/more.md": "two levels down\n", "AGENTS.md": "same text\n", "CLAUDE.md": "same text\n",
    "GEMINI.md": "gemini\n", "CLAUDE.local.md": "mine\n",
    ".github/instructions/all.instructions.md": "no frontmatter: every prompt\n",
    ".github/instructions/star.instructions.md": "---\napplyTo: '**/*'\n---\nevery file\n",
    ".github/instructions/ts.instructions.md": "---\napplyTo: [\"**/*.ts\", \"**/*.tsx\"]\ndescription: ts rules\n---\nstrict\n",
    ".github/instructions/ex.instructions.md": "---\napplyTo: '**'\nexcludeAgent: [coding-agent]\n---\nnot for the cli\n",
    "sub/AGENTS.md": "sub\n", "pkg/.github/instructions/py.instructions.md": "---\napplyTo: '*.py'\n---\npy\n",
}


def _cli(tmp_path, version=None):
    m = build(repo(tmp_path, FILES), tmp_path, agents=["copilot-cli"],
              versions={"copilot-cli": version} if version else None)
    return m.agents["copilot-cli"]


def test_the_cli_loads_every_root_instruction_file_once_and_follows_imports(tmp_path):
    cli = _cli(tmp_path)
    assert [e.path for e in cli.startup] == [
        ".github/copilot-instructions.md", ".github/docs/extra.md", ".github/docs/more.md", "AGENTS.md", "GEMINI.md",
        ".github/instructions/all.instructions.md", ".github/instructions/star.instructions.md",
        ".github/instructions/ts.instructions.md"]
    assert "CLAUDE.md has the text of AGENTS.md: the Copilot CLI sends it once" in cli.notes
    texts = {e.path: e.text for e in cli.startup}
    assert texts["AGENTS.md"] == "<custom_instruction>\nsame text\n\n</custom_instruction>"  # the tags are sent too
    assert texts[".github/docs/extra.md"].startswith('<imported_custom_instruction source=".github/docs/extra.md">')
    row = next(e for e in cli.startup if e.path.endswith("ts.instructions.md"))
    assert row.text.endswith("| **/*.ts, **/*.tsx | '.github/instructions/ts.instructions.md' | ts rules |\n")
    assert row.text.startswith("Here is a list of instruction files")  # the table's head, counted once
    assert {u.path for u in cli.never} == {".github/instructions/ex.instructions.md"}  # imports go 8 levels deep


def test_globbed_instructions_and_a_subfolders_files_load_when_a_file_is_viewed(tmp_path):
    whens = {o.path: o.when for o in _cli(tmp_path).on_demand}
    assert whens == {".github/instructions/ts.instructions.md": "when the agent views a file matching **/*.ts, **/*.tsx",
                     "sub/AGENTS.md": "after the agent views a file under sub/ (once a session)",
                     "pkg/.github/instructions/py.instructions.md": "after the agent views a file under pkg/ (once a "
                                                                   "session), then for a file matching *.py"}
    old = _cli(tmp_path / "o", "1.0.56")  # before on-demand discovery and the root's on-view text
    assert [o.path for o in old.on_demand] == [".github/instructions/ts.instructions.md"]
    assert old.on_demand[0].when.startswith("when the model reads it from the table")


def test_before_0_0_385_only_the_first_file_found_loaded_and_before_1_0_66_imports_stayed_text(tmp_path):
    assert [e.path for e in _cli(tmp_path, "0.0.384").startup][:1] == [".github/copilot-instructions.md"]
    assert "AGENTS.md" not in [e.path for e in _cli(tmp_path / "a", "0.0.384").startup]
    assert ".github/docs/extra.md" not in [e.path for e in _cli(tmp_path / "b", "1.0.65").startup]


def test_the_cli_is_shown_when_asked_and_vs_codes_entry_points_to_it(tmp_path):
    m = build(repo(tmp_path, FILES), tmp_path)
    assert "copilot-cli" not in m.agents and any("--agent copilot-cli" in n for n in m.agents["copilot"].notes)


def test_your_copilot_home_files_are_shown_apart(tmp_path):
    home = tmp_path / "home" / ".copilot"
    (home / "instructions").mkdir(parents=True)
    (home / "copilot-instructions.md").write_text("mine\n")
    (home / "instructions" / "go.instructions.md").write_text("go\n")
    (home / "instructions" / "notes.md").write_text("not an instructions file\n")
    (home / "instructions" / "ts.instructions.md").write_text("---\napplyTo: '**/*.ts'\n---\n" + "ts rule\n" * 50)
    cli = _cli(tmp_path)
    assert [u.path for u in cli.user] == ["~/.copilot/copilot-instructions.md", "~/.copilot/instructions/go.instructions.md",
                                          "~/.copilot/instructions/ts.instructions.md"]
    assert cli.user[2].text == "| **/*.ts | '~/.copilot/instructions/ts.instructions.md' |  |\n"  # a row, not the text


def test_a_rule_claude_md_imports_is_sent_again_as_path_instructions(tmp_path):
    root = repo(tmp_path, {"CLAUDE.md": "see @.claude/rules/style.md\n", ".claude/rules/style.md": "tabs\n"})
    cli = build(root, tmp_path, agents=["copilot-cli"]).agents["copilot-cli"]
    assert [e.path for e in cli.startup] == ["CLAUDE.md", ".claude/rules/style.md", ".claude/rules/style.md"]
    assert ".claude/rules/style.md is sent twice: imported, and as path instructions" in cli.notes


def test_each_root_files_imports_are_its_own(tmp_path):
    """`CLAUDE.md` holding only `@AGENTS.md` sends AGENTS.md's text twice (review18b #1, the 1.0.102 binary)."""
    root = repo(tmp_path, {"AGENTS.md": "rules\n" * 50, "CLAUDE.md": "@AGENTS.md\n"})
    cli = build(root, tmp_path, agents=["copilot-cli"]).agents["copilot-cli"]
    assert [e.path for e in cli.startup] == ["AGENTS.md", "CLAUDE.md", "AGENTS.md"]


def test_frontmatter_is_read_as_the_cli_reads_it(tmp_path):
    """review18b #8: only a string or the strings of a list are `applyTo`; an `excludeAgent` entry
    must be `coding-agent` or `cloud-agent` itself; braces stay one glob; `paths:` works in either folder."""
    root = repo(tmp_path, {
        ".github/instructions/two.instructions.md": "---\napplyTo: '**'\nexcludeAgent: 'code-review, coding-agent'\n---\nx\n",
        ".github/instructions/num.instructions.md": "---\napplyTo: 5\n---\nevery prompt\n",
        ".github/instructions/brace.instructions.md": "---\napplyTo: '**/*.{ts,tsx}'\n---\nts\n",
        ".github/instructions/paths.instructions.md": "---\npaths: ['src/**']\n---\nsrc\n",
        ".github/instructions/bom.instructions.md": "\ufeff---\napplyTo: 'docs/**'\n---\ndocs\n"})
    cli = build(root, tmp_path, agents=["copilot-cli"]).agents["copilot-cli"]
    whole = [e.path for e in cli.startup if e.cut is None]
    assert whole == [".github/instructions/num.instructions.md", ".github/instructions/two.instructions.md"]
    globs = {o.path: o.globs for o in cli.on_demand}
    assert globs == {".github/instructions/bom.instructions.md": ("docs/**",),
                     ".github/instructions/brace.instructions.md": ("**/*.{ts,tsx}",),
                     ".github/instructions/paths.instructions.md": ("src/**",)}


def test_copilot_home_moves_your_files_and_skills_and_ci_reads_none(tmp_path):
    alt = tmp_path / "alt"
    (alt / "skills" / "mine").mkdir(parents=True)
    (alt / "copilot-instructions.md").write_text("moved\n")
    (alt / "skills" / "mine" / "SKILL.md").write_text("---\nname: mine\ndescription: d\n---\nbody\n")
    (tmp_path / "home" / ".agents" / "skills" / "agx").mkdir(parents=True)
    (tmp_path / "home" / ".agents" / "skills" / "agx" / "SKILL.md").write_text("---\nname: agx\ndescription: d\n---\nb\n")
    root = repo(tmp_path, {"AGENTS.md": "a\n"})
    env = {"HOME": str(tmp_path / "home"), "COPILOT_HOME": str(alt)}
    cli = build(root, tmp_path, agents=["copilot-cli"], env=env).agents["copilot-cli"]
    assert str(alt / "copilot-instructions.md") in [u.path for u in cli.user]
    assert not any("agx" in u.path for u in cli.user) and any("mine" in u.path for u in cli.user)
    ci = build(root, tmp_path, agents=["copilot-cli"], env={**env, "CI": "true"}).agents["copilot-cli"]
    assert ci.user == []


def test_a_subfolders_path_instructions_are_read_as_the_roots(tmp_path):
    """review18b #7: excluded ones never, `.claude/rules` too, globbed ones by their globs."""
    root = repo(tmp_path, {"sub/.github/instructions/ex.instructions.md": "---\nexcludeAgent: coding-agent\n---\nx\n",
                           "sub/.github/instructions/all.instructions.md": "every view\n",
                           "sub/.claude/rules/r.md": "---\npaths: ['**/*.py']\n---\npy\n", ".GitHub/copilot-instructions.md": "x\n"})
    cli = build(root, tmp_path, agents=["copilot-cli"]).agents["copilot-cli"]
    assert {o.path: o.globs for o in cli.on_demand} == {"sub/.github/instructions/all.instructions.md": ("sub/**",),
                                                        "sub/.claude/rules/r.md": ("**/*.py",)}
    assert [u.path for u in cli.never] == ["sub/.github/instructions/ex.instructions.md"]
    assert cli.startup == []  # a folder spelt otherwise is not .github


def test_what_loads_for_a_file_follows_the_clis_glob_matching(tmp_path):
    """review18b #12: picomatch of the path from the root or of the file's name, case-sensitive; a
    folder's pattern takes nothing below it; a leading `/` matches nothing; braces are one glob."""
    from curator.context.build import loads_for

    def inst(globs: str) -> str:
        return f"---\napplyTo: '{globs}'\n---\nrule\n"

    root = repo(tmp_path, {".github/instructions/rooted.instructions.md": inst("/pkg/**"),
                           ".github/instructions/folder.instructions.md": inst("src/lib"),
                           ".github/instructions/star.instructions.md": inst("src/*"),
                           ".github/instructions/brace.instructions.md": inst("**/*.{ts,tsx}"),
                           ".github/instructions/name.instructions.md": inst("x*.py"),
                           ".github/instructions/upper.instructions.md": inst("**/*.TS")})
    m = build(root, tmp_path, agents=["copilot-cli"])

    def loaded(rel: str) -> set[str]:
        return {o.path.split("/")[-1].split(".")[0] for o in loads_for(m, rel)["copilot-cli"]}

    assert loaded("pkg/a.py") == set() and loaded("src/lib/xq.py") == {"name"}
    assert loaded("src/lib/y.py") == set() and loaded("src/y.py") == {"star"}
    assert loaded("src/a.tsx") == {"brace", "star"} and loaded("lib/a.ts") == {"brace"}  # `**/*.TS`: case counts
