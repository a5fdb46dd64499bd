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


def test_a_rule_of_yours_that_names_the_memory_bank_is_one_that_tells_it(tmp_path):
    home = tmp_path / "home"
    (home / "Documents" / "Cline" / "Rules").mkdir(parents=True)
    (home / "Documents" / "Cline" / "Rules" / "bank.md").write_text("Read memory-bank/ first.\n")
    m = build(repo(tmp_path, BANK), tmp_path)
    assert _cline(m)[0] == ["memory-bank/progress.md", "memory-bank/projectbrief.md"]
    ci = build(repo(tmp_path / "ci", BANK), tmp_path / "ci", env={"CI": "true"})  # your files are not read in CI
    assert _cline(ci)[0] == []


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
    assert startup == [] and never == [".clinerules/style.md", ".cline/rules/style.md", "AGENTS.md"]
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
    old = build(repo(tmp_path / "o", {".clinerules": "r\n"}), tmp_path / "o", versions={"cline": "4.1.13"})
    assert [u.path for u in old.agents["cline"].user] == []  # ~/Cline/Rules came with the CLI 3.0.61 (2026-09-05)
