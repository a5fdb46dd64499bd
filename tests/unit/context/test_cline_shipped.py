"""Cline as its shipped code loads (`cline` 2.18.0, the extension core 3.82.0, and 3.0.65 with
`@cline/core` 0.0.86 on npm): the Memory Bank only where a rule tells the model to read it, rules
sorted by name since 4.0, a turned-off rule keeping its name, AGENTS.md read as a rule, `paths:`
before 4.0 as the extension read it, and Cursor's and Windsurf's rules beside `.clinerules`."""

from __future__ import annotations

from .test_cline_loading import NEW, OLD, _cline
from .test_context_model import build, repo

BANK = {"memory-bank/projectbrief.md": "# Brief\n", "memory-bank/progress.md": "# Progress\n"}


def test_the_memory_bank_loads_only_where_a_loaded_rule_tells_cline_to_read_it(tmp_path):
    alone = build(repo(tmp_path / "a", BANK), tmp_path / "a")
    startup, on_demand, _ = _cline(alone)
    assert startup == [] and on_demand == ["memory-bank/progress.md", "memory-bank/projectbrief.md"]
    assert not [f for f in alone.findings if f.check == "instructions.startup-budget"]
    told = {**BANK, ".clinerules/memory-bank.md": "I MUST read ALL memory bank files at the start of EVERY task.\n"}
    m = build(repo(tmp_path / "b", told), tmp_path / "b")
    cline = m.agents["cline"]
    assert [e.path for e in cline.startup] == [".clinerules/memory-bank.md", "memory-bank/progress.md",
                                               "memory-bank/projectbrief.md"]
    assert cline.startup[1].why == "Memory Bank: .clinerules/memory-bank.md tells Cline to read it at every task " \
                                   "start (read_file)"


def test_a_rule_of_yours_that_names_the_memory_bank_is_your_cost_not_the_repositorys(tmp_path):
    home = tmp_path / "home"
    (home / "Documents" / "Cline" / "Rules").mkdir(parents=True)
    (home / "Documents" / "Cline" / "Rules" / "bank.md").write_text("Read memory-bank/ first.\n")
    root = repo(tmp_path, BANK)
    cline = build(root, tmp_path).agents["cline"]
    assert [e.path for e in cline.startup] == []  # the repository's number does not depend on your rules
    assert {o.when for o in cline.on_demand} == {"Memory Bank: your ~/Documents/Cline/Rules/bank.md tells Cline to "
                                                 "read it at every task start (read_file; yours, not the repository's)"}
    ci = build(root, tmp_path, env={"CI": "true"}).agents["cline"]  # your files are not read in CI
    assert {o.when for o in ci.on_demand} == {"Memory Bank: read only when the model chooses to (no rule that loads "
                                              "tells it to; Cline itself does not)"}


def test_since_4_0_rules_load_sorted_by_name_as_text_and_agents_md_is_one_of_them(tmp_path):
    files = {".clinerules/2-style.md": "two\n", ".clinerules/10-tests.md": "ten\n", ".cline/rules/Zed.md": "z\n",
             ".clinerules/beta.md": "---\nname: alpha\n---\nnamed alpha\n", "AGENTS.md": "root\n"}
    startup = _cline(build(repo(tmp_path, files), tmp_path, versions={"cline": NEW}))[0]
    assert startup == [".clinerules/10-tests.md", ".clinerules/2-style.md", ".clinerules/beta.md", "AGENTS.md",
                       ".cline/rules/Zed.md"]  # "alpha", then "Workspace AGENTS.md" before "Zed"
    old = _cline(build(repo(tmp_path / "o", files), tmp_path / "o", versions={"cline": OLD}))[0]
    assert old == [".clinerules/10-tests.md", ".clinerules/2-style.md", ".clinerules/beta.md", "AGENTS.md"]


def test_a_turned_off_rule_keeps_its_name_and_hides_an_earlier_rule_of_that_name(tmp_path):
    files = {".clinerules/style.md": "tabs\n", ".cline/rules/style.md": "---\ndisabled: true\n---\nspaces\n",
             ".clinerules": "", "AGENTS.md": "---\ndisabled: true\n---\nroot\n"}
    m = build(repo(tmp_path, {k: v for k, v in files.items() if k != ".clinerules"}), tmp_path, versions={"cline": NEW})
    startup, _, never = _cline(m)
    assert startup == [] and never == ["AGENTS.md", ".clinerules/style.md", ".cline/rules/style.md"]
    reasons = {u.path: u.reason for u in m.agents["cline"].never}
    assert reasons[".clinerules/style.md"] == "hidden by .cline/rules/style.md, a rule of the same name read after " \
                                              "it and turned off"


def test_the_clinerules_file_is_the_rule_named_clinerules(tmp_path):
    files = {".clinerules": "the file\n", ".cline/rules/.clinerules.md": "---\nname: .clinerules\n---\nlater\n",
             ".cline/rules/other.md": "other\n"}
    m = build(repo(tmp_path, files), tmp_path, versions={"cline": NEW})
    startup, _, never = _cline(m)
    assert startup == [".cline/rules/.clinerules.md", ".cline/rules/other.md"] and never == [".clinerules"]


def test_before_4_0_paths_is_read_as_the_extension_read_it(tmp_path):
    files = {".clinerules/none.md": "---\npaths: []\n---\nfor no file\n",
             ".clinerules/text.md": "---\npaths: src/**\n---\na string: always\n",
             ".clinerules/list.md": "---\npaths:\n  - src/**\n---\nfor src\n",
             ".clinerules/broken.md": "---\npaths: [src/**\n---\nbroken yaml: loads whole\n", "src/a.ts": ""}
    startup, on_demand, never = _cline(build(repo(tmp_path, files), tmp_path, versions={"cline": OLD}))
    assert startup == [".clinerules/broken.md", ".clinerules/text.md"]
    assert on_demand == [".clinerules/list.md"] and never == [".clinerules/none.md"]


def test_before_4_0_cursor_and_windsurf_rules_load_beside_clinerules(tmp_path):
    files = {".clinerules/a.md": "a\n", ".cursorrules": "cursor\n", ".windsurfrules": "windsurf\n",
             ".cursor/rules/ts.mdc": "---\nglobs: src/**\n---\nts\n", ".cursor/rules/readme.md": "not a rule\n"}
    old = _cline(build(repo(tmp_path, files), tmp_path, versions={"cline": OLD}))[0]
    assert old == [".clinerules/a.md", ".cursorrules", ".windsurfrules", ".cursor/rules/ts.mdc"]
    assert _cline(build(repo(tmp_path / "n", files), tmp_path / "n", versions={"cline": NEW}))[0] == [".clinerules/a.md"]


def test_since_4_0_your_rules_folders_are_read_one_level_deep(tmp_path):
    home = tmp_path / "home"
    rules = home / "Cline" / "Rules"
    (rules / "sub").mkdir(parents=True)
    (rules / "top.TXT").write_text("top\n")
    (rules / "sub" / "deep.md").write_text("deep\n")
    (rules / "image.png").write_bytes(b"png")
    m = build(repo(tmp_path, {".clinerules": "r\n"}), tmp_path, versions={"cline": NEW})
    assert [u.path for u in m.agents["cline"].user] == ["~/Cline/Rules/top.TXT"]
    old = build(repo(tmp_path / "o", {".clinerules": "r\n"}), tmp_path, versions={"cline": "4.1.13"})
    assert [u.path for u in old.agents["cline"].user] == []  # ~/Cline/Rules came with the CLI 3.0.61 (2026-09-05)


def test_the_sdk_reads_rules_as_its_own_parser_does(tmp_path):
    """A BOM, an unclosed `---`, frontmatter that is not a mapping, blank `name:`/`disabled:`, YAML 1.2
    scalars (`yes` is text) and `disabled:` deciding before `enabled:` all load; a file named `.md`
    has no ending and is not read; a linked rule file is not listed (review18, against the SDK's code)."""
    files = {".clinerules/bom.md": "\ufeff---\ndescription: w\n---\nBOM rule\n", ".clinerules/hr.md": "---\n# H\n\nbody\n",
             ".clinerules/blank.md": "---\nname:\ndisabled:\n---\nbody\n",
             ".clinerules/both.md": "---\ndisabled: false\nenabled: maybe\n---\nbody\n",
             ".clinerules/scalar.md": "---\nA rule about style\n---\nbody\n", ".clinerules/yes.md": "---\nname: yes\n---\nbody\n",
             ".clinerules/odd.md": "---\ndisabled: yes\n---\nbody\n", ".clinerules/.md": "plain\n", "docs/style.md": "s\n"}
    root = repo(tmp_path, files)
    (root / ".clinerules" / "linked.md").symlink_to(root / "docs" / "style.md")
    m = build(root, tmp_path, versions={"cline": NEW})
    startup, _, never = _cline(m)
    assert startup == [".clinerules/blank.md", ".clinerules/bom.md", ".clinerules/both.md", ".clinerules/hr.md",
                       ".clinerules/scalar.md", ".clinerules/yes.md"]
    reasons = {u.path: u.reason for u in m.agents["cline"].never}
    assert reasons == {".clinerules/odd.md": "`disabled:` is not true or false: the SDK drops the rule",
                       ".clinerules/linked.md": "a symbolic link: Cline reads only the regular files of a rules folder"}


def test_your_turned_off_or_dropped_rules_are_not_shown_loaded_and_hide_or_leave_the_projects(tmp_path):
    home = tmp_path / "home" / ".cline" / "rules"
    home.mkdir(parents=True)
    (home / "alpha.md").write_text("---\ndisabled: true\n---\nmine, off\n")
    (home / "numeric.md").write_text("---\nname: 42\n---\nmine\n")
    (home / "bank.md").write_text("---\nenabled: false\n---\nread the memory bank\n")
    root = repo(tmp_path, {".clinerules/alpha.md": "project alpha\n", ".clinerules/numeric.md": "project numeric\n",
                           **BANK})
    cline = build(root, tmp_path, versions={"cline": NEW}).agents["cline"]
    assert [u.path for u in cline.user] == [] and [e.path for e in cline.startup] == [".clinerules/numeric.md"]
    assert {u.path: u.reason for u in cline.never} == {
        ".clinerules/alpha.md": "hidden by your turned-off ~/.cline/rules/alpha.md, a rule of the same name read after it"}
    assert "your ~/.cline/rules/numeric.md: `name:` is not text: the SDK drops the rule" in cline.notes
    assert {o.path for o in cline.on_demand} >= set(BANK)  # a turned-off rule tells the model nothing


def test_agents_md_in_a_rules_folder_is_that_folders_rule_and_a_link_loads_twice(tmp_path):
    root = repo(tmp_path, {"AGENTS.md": "shared\n", ".clinerules/AGENTS.md": "a rule named AGENTS\n"})
    startup, _, never = _cline(build(root, tmp_path, versions={"cline": NEW}))
    assert startup == [".clinerules/AGENTS.md", "AGENTS.md"] and never == []
    assert _cline(build(root, tmp_path, versions={"cline": OLD}))[0] == [".clinerules/AGENTS.md", "AGENTS.md"]
    linked = repo(tmp_path / "l", {"AGENTS.md": "shared\n"})
    (linked / ".clinerules").symlink_to(linked / "AGENTS.md")
    assert _cline(build(linked, tmp_path, versions={"cline": NEW}))[0] == [".clinerules", "AGENTS.md"]


def test_an_alias_bomb_in_a_rules_frontmatter_is_refused_at_once():
    """The SDK's reader goes through safeyaml's alias budget, as every repository YAML does."""
    import time

    from curator.context.cline_sdk import read_rule

    levels = ["a: &a [x,x,x,x,x,x,x,x,x]"] + [f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]"
                                              for p, c in zip("abcdef", "bcdefg", strict=False)]
    started = time.monotonic()
    got = read_rule("---\n" + "\n".join(levels) + "\nname: *g\n---\nbody\n", "stem")
    assert got.state == "drop" and time.monotonic() - started < 1.0
