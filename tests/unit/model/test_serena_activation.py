"""What activating a Serena project puts in context, as serena-agent's
`get_project_activation_message` writes it (read in 1.5.3, 1.6.0, 1.7.0 and 2.1.0): the names as
JSON, the project's initial prompt with the memories it embeds (1.7.0), the memories under linked
folders (1.6.0); one number on every face."""

from __future__ import annotations

import json
import os

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.budgets.startup import startup_of
from curator.context import build_context
from curator.model import load_store
from curator.model.loader import LoadOptions
from curator.model.serena_activation import activation
from curator.model.serena_listing import listing, names_text
from curator.model.serena_patterns import read_patterns


def repo(tmp_path, memories: dict[str, str], project: str | None = None, local: str | None = None):
    root = tmp_path / "repo" / ".serena" / "memories"
    for rel, text in memories.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    root.mkdir(parents=True, exist_ok=True)
    (tmp_path / "repo" / ".git").mkdir()
    if project is not None:
        (root.parent / "project.yml").write_text(project)
    if local is not None:
        (root.parent / "project.local.yml").write_text(local)
    return root


def load(root, version: str | None = None):
    opts = LoadOptions(token_counter=FakeTokenCounter())
    if version:
        opts = opts.but(agents=(f"serena@{version}",))
    return load_store(root, opts)


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def test_the_names_are_the_json_serena_writes_read_only_ones_apart(tmp_path):
    root = repo(tmp_path, {"core.md": "# c\n", "topic/ü.md": "# u\n", "rules.md": "# r\n"},
                "read_only_memory_patterns: [rules]\n")
    text = names_text(load(root))
    head, rest = text.split("\n", 1)
    assert json.loads(head) == {"memories": ["core", "topic/ü"], "read_only_memories": ["rules"]}
    assert "\\u00fc" in head  # json.dumps escapes it, and so costs what Serena's listing costs
    assert rest == "Use `read_memory` to read these memories later if they are relevant to the task.\n"
    assert names_text(load(repo(tmp_path / "empty", {}))) == ""


def test_the_initial_prompt_counts_with_the_memory_it_embeds(tmp_path):
    root = repo(tmp_path, {"style.md": "# Style\nUse tabs everywhere.\n", "arch.md": "# Arch\n"},
                "initial_prompt: |\n  Read the style first.\n  {{ embed_memory('style') }}\n"
                "  {{ embed_memory(\"mem:gone.md\") }}\n")
    store = load(root)
    act = activation(store)
    assert act.prompt.startswith("\n<project-instructions>\nRead the style first.\n<memory name=\"style\">")
    assert "Use tabs everywhere." in act.prompt and "embed_memory" not in act.prompt
    assert act.embedded == ["style"] and act.unknown == ["mem:gone.md"]
    st = startup_of(store)
    counter = FakeTokenCounter()
    assert st.tokens == counter.count(act.names) + counter.count(act.prompt)
    assert "initial prompt of .serena/project.yml, which embeds style" in st.what

    model = build_context(tmp_path / "repo", token_counter=counter, env={"HOME": str(tmp_path / "home")})
    ctx = model.agents["serena"]
    assert [e.path for e in ctx.startup] == [".serena/memories", ".serena/project.yml"]
    assert sum(e.tokens for e in ctx.startup) == st.tokens  # the context and the budgets say one number
    assert ctx.startup[1].rule == "serena/project.initial-prompt@1.7.0"
    assert any("'mem:gone.md', which Serena cannot load" in n for n in ctx.notes)


def test_before_1_7_the_prompt_is_given_as_written(tmp_path):
    root = repo(tmp_path, {"style.md": "# Style\nUse tabs.\n"},
                "initial_prompt: \"See {{ embed_memory('style') }}\"\n")
    act = activation(load(root, "1.5.3"))
    assert act.prompt == "\nProject-specific instructions:\n See {{ embed_memory('style') }}"
    assert act.embedded == []


def test_project_local_yml_overrides_the_prompt_and_the_patterns(tmp_path):
    root = repo(tmp_path, {"a.md": "# a\n", "b.md": "# b\n"},
                "initial_prompt: shared words\nignored_memory_patterns: [a]\n",
                "initial_prompt: my own words\nignored_memory_patterns: [b]\n")
    store = load(root)
    act = activation(store)
    assert "my own words" in act.prompt and act.prompt_file == ".serena/project.local.yml"
    assert read_patterns(root).ignored == ("b",)
    assert sorted(store.records) == ["a.md"]


def test_no_prompt_and_a_broken_project_file_cost_nothing_and_are_said(tmp_path):
    root = repo(tmp_path, {"a.md": "# a\n"}, "initial_prompt: [unclosed\n")
    act = activation(load(root))
    assert act.prompt == "" and any("not valid YAML" in n for n in act.notes)
    assert startup_of(load(root)).files == []


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_a_linked_folder_in_the_repository_is_listed_since_1_6(tmp_path):
    root = repo(tmp_path, {"a.md": "# a\n"})
    shared = tmp_path / "repo" / "backend" / ".serena" / "memories"
    (shared / "deep").mkdir(parents=True)
    (shared / "b.md").write_text("# b\n")
    (shared / "deep" / "c.md").write_text("# c\n")
    os.symlink("..", shared / "deep" / "loop")  # Serena's walk would go round: curator's stops
    os.symlink("../../backend/.serena/memories", root / "backend")
    os.symlink(str(tmp_path / "elsewhere"), root / "out")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "x.md").write_text("# x\n")

    store = load(root)
    assert sorted(store.records) == ["a.md"]  # curator reads no body through a link
    assert json.loads(names_text(store).split("\n")[0]) == {"memories": ["a", "backend/b", "backend/deep/c"]}
    unsafe = [f.path for f in store.load_findings if f.check == "index.unsafe-target"]
    assert unsafe == ["out"]  # the link out of the repository stays an error; the shared one is not

    old = load(root, "1.5.3")  # before 1.6.0 Serena did not walk it
    assert json.loads(names_text(old).strip().split("\n")[0]) == {"memories": ["a"]}
    assert sorted(f.path for f in old.load_findings if f.check == "index.unsafe-target") == ["backend", "out"]

    model = build_context(tmp_path / "repo", token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")})
    assert any("2 memories Serena lists have no record in curator (linked folders .serena/memories/backend)" in n
               for n in model.agents["serena"].notes)


def test_the_version_a_repository_pins_is_the_one_read(tmp_path):
    root = repo(tmp_path, {"s.md": "# s\n"}, "initial_prompt: \"{{ embed_memory('s') }}\"\n")
    (tmp_path / "repo" / ".curator.yaml").write_text("agents:\n  serena: {version: 1.6.0}\n")
    assert activation(load(root)).embedded == []


def test_an_edit_to_the_project_files_is_one_the_live_view_follows():
    from curator.context.watched import instruction_path

    assert instruction_path(".serena/project.yml") and instruction_path(".serena/project.local.yml")


def test_the_listing_line_is_each_version_s_own(tmp_path):
    root = repo(tmp_path, {"a.md": "# a\n"})
    assert names_text(load(root, "1.5.3")) == (
        '\n{"memories": ["a"]}\nUse the `read_memory` tool to read these memories later if they are relevant to the task.')
    assert names_text(load(root, "1.7.0")) == (
        '{"memories": ["a"]}\nUse the `read_memory` tool to read these memories later if they are relevant to the task.\n')
    assert names_text(load(root, "2.0.0")).startswith('{"memories": ["a"]}\nUse `read_memory` to read')


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_serena_s_walk_hidden_names_two_links_to_one_folder_and_no_way_out(tmp_path):
    root = repo(tmp_path, {"a.md": "# a\n", ".drafts/h.md": "# h\n"})
    shared = tmp_path / "repo" / "shared"
    (shared / "inner").mkdir(parents=True)
    (shared / "t.md").write_text("# t\n")
    os.symlink("../../shared", root / "l1")
    os.symlink("../../shared", root / "l2")
    os.symlink("/", shared / "inner" / "root")  # a way out of the repository, below a followed link
    os.symlink("..", shared / "inner" / "up")  # a loop
    names = listing(load(root)).names
    assert names == [".drafts/h.md", "a.md", "l1/t.md", "l2/t.md"]  # the loop's names once, as Serena first meets them
    assert not any("root" in n for n in names)


def test_a_tree_deeper_than_the_cap_is_cut_and_said_never_a_crash(tmp_path):
    root = repo(tmp_path, {"a.md": "# a\n"})
    deep = root / "d"
    path = deep
    for _ in range(100):
        path = path / "a"
    path.mkdir(parents=True)
    (path / "x.md").write_text("# x\n")
    found = listing(load(root))
    assert found.names == ["a.md"] and any("deeper than" in n for n in found.notes)


def test_embed_names_resolve_as_serena_resolves_them(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / ".serena" / "memories" / "global").mkdir(parents=True)
    (home / ".serena" / "memories" / "global" / "g.md").write_text("# G\nglobal words\n")
    root = repo(tmp_path, {"core.md": "# core\ncore words\n"},
                "initial_prompt: |\n  {{ embed_memory('global/g') }}\n  {{ embed_memory('../core') }}\n"
                "  {{ embed_memory(' core ') }}\n  {{ embed_memory('mem:core.md') }}\n")
    act = activation(load(root))
    assert "global words" in act.prompt and act.prompt.count("core words") == 1
    assert act.unknown == ["../core", " core "] and act.embedded == ["global/g", "mem:core.md"]
    monkeypatch.setenv("CI", "1")  # the user's own files are not read in CI
    assert "global words" not in activation(load(root)).prompt


def test_comments_and_trimming_are_read_as_jinja_reads_them(tmp_path):
    root = repo(tmp_path, {"big.md": "# big\n" + "word " * 2000, "s.md": "# s\nsmall\n"},
                "initial_prompt: \"A {# {{ embed_memory('big') }} #} B\\n\\n{{- embed_memory('s') -}}\\n\\nC "
                "{{ tool_names['find_symbol'] }}\"\n")
    act = activation(load(root))
    assert "word" not in act.prompt and act.embedded == ["s"]
    assert "A  B<memory name=\"s\">\n# s\nsmall\n</memory>C find_symbol\n" in act.prompt


def test_a_prompt_that_embeds_one_memory_thousands_of_times_is_counted_not_built(tmp_path):
    import time

    root = repo(tmp_path, {"m.md": "# m\n" + "x" * 200_000}, "initial_prompt: |\n" +
                "  {{ embed_memory('m') }}\n" * 3000)
    start = time.process_time()
    store = load(root)
    act = activation(store)
    assert len(act.prompt) < 5_000_000 and sum(k for _, k in act.copies) > 2900
    tokens = startup_of(store).tokens
    assert time.process_time() - start < 20
    counter = FakeTokenCounter()
    assert tokens > 3000 * counter.count("x" * 200_000) * 0.99


def test_a_project_yml_without_a_memories_folder_still_loads_its_prompt(tmp_path):
    (tmp_path / "repo" / ".serena").mkdir(parents=True)
    (tmp_path / "repo" / ".git").mkdir()
    (tmp_path / "repo" / ".serena" / "project.yml").write_text("initial_prompt: Always run the tests.\n")
    model = build_context(tmp_path / "repo", token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")})
    ctx = model.agents["serena"]
    assert [e.path for e in ctx.startup] == [".serena/project.yml"] and ctx.startup[0].tokens > 0


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_an_index_row_naming_a_linked_memory_is_not_dead(tmp_path):
    from curator.checks import run_checks

    root = repo(tmp_path, {"memory_index.md": "# Index\n\n- **backend/b** — the backend notes\n- **a** — x\n",
                           "a.md": "# a\n"})
    shared = tmp_path / "repo" / "backend"
    shared.mkdir()
    (shared / "b.md").write_text("# b\n")
    os.symlink("../../backend", root / "backend")
    found = [(f.check, f.target or f.path) for f in run_checks(load(root)) if f.check.startswith("index.")]
    assert found == []  # before 1.6.0 Serena did not list it: the row is dead, and said so
    assert ("index.missing-target", "backend/b.md") in [(f.check, f.target) for f in run_checks(load(root, "1.5.3"))]


def test_the_drift_chart_ends_on_the_start_up_number_and_carries_the_prompt(tmp_path, monkeypatch):
    import subprocess

    from curator.live.drift import startup_history

    for var, value in (("GIT_AUTHOR_NAME", "t"), ("GIT_AUTHOR_EMAIL", "t@example.com"), ("GIT_COMMITTER_NAME", "t"),
                       ("GIT_COMMITTER_EMAIL", "t@example.com"), ("GIT_CONFIG_NOSYSTEM", "1"),
                       ("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))):
        monkeypatch.setenv(var, value)
    root = repo(tmp_path, {"a.md": "# a\n"}, "initial_prompt: " + "Read every memory first. " * 40 + "\n")
    top = tmp_path / "repo"
    (top / ".git").rmdir()

    def git(*args):
        subprocess.run(["git", *args], cwd=top, check=True, capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("commit", "-q", "-m", "one memory")
    for i in range(20):
        (root / f"topic-{i:02}.md").write_text(f"# t{i}\n")
    git("add", "-A")
    git("commit", "-q", "-m", "twenty more")
    store = load(root)
    st = startup_of(store)
    prompt = dict(st.files)["../project.yml"]
    points = startup_history(store).points
    assert points[-1].approx_tokens == st.tokens
    first, second = points[0].approx_tokens, points[1].approx_tokens
    assert prompt < first < second  # the names grew; the prompt is carried at every commit
    assert second - first < prompt  # the step is twenty names' worth, not the prompt again


def test_global_memories_are_listed_as_the_system_prompt_lists_them(tmp_path):
    root = tmp_path / "home" / ".serena" / "memories" / "global"
    root.mkdir(parents=True)
    (root / "style.md").write_text("# style\n")
    (root / "it's.md").write_text("# q\n")
    assert names_text(load(root)) == ("The following global (not project-specific) memories are available to you: "
                                      "memories=[\"global/it's\", 'global/style']")


def test_a_repository_with_no_commit_yet_is_said_so_by_the_drift_chart(tmp_path):
    import subprocess

    from curator.live.drift import startup_history

    root = repo(tmp_path, {"a.md": "# a\n"})
    (tmp_path / "repo" / ".git").rmdir()
    subprocess.run(["git", "init", "-q"], cwd=tmp_path / "repo", check=True)
    assert startup_history(load(root)).reason == "the store has no commits yet"


def test_a_path_the_initial_prompt_names_that_is_gone_is_found(tmp_path):
    root = repo(tmp_path, {"a.md": "# a\n"}, "initial_prompt: |\n  Read `docs/architecture.md` before any change.\n")
    (tmp_path / "repo" / "docs").mkdir()
    (tmp_path / "repo" / "docs" / "overview.md").write_text("# o\n")
    model = build_context(tmp_path / "repo", token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")})
    found = [(f.check, f.path, f.line) for f in model.findings if f.check == "instructions.missing-path"]
    assert found == [("instructions.missing-path", ".serena/project.yml", 2)]
    assert root.exists()


@pytest.mark.parametrize("setting", ["excluded_tools: [read_memory]", "added_modes: [no-memories]",
                                     "default_modes: [editing, no-memories]"])
def test_a_project_that_takes_the_memory_tools_away_lists_no_memory(tmp_path, setting):
    root = repo(tmp_path, {"a.md": "# a\n", "b.md": "# b\n"}, setting + "\n")
    store = load(root)
    st = startup_of(store)
    assert st.tokens == 0 and "takes Serena's memory tools away" in st.what
    model = build_context(tmp_path / "repo", token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")})
    ctx = model.agents["serena"]
    assert sum(e.tokens for e in ctx.startup) == 0 and not ctx.on_demand
    assert any("none can be read through Serena" in n for n in ctx.notes)
    assert startup_of(load(repo(tmp_path / "on", {"a.md": "# a\n"}, "excluded_tools: [find_symbol]\n"))).tokens > 0


def test_a_name_embedded_a_thousand_times_is_read_once_and_said_once(tmp_path):
    many = "{{ embed_memory('core') }}" * 1000 + "{{ embed_memory('gone') }}" * 1000
    root = repo(tmp_path, {"core.md": "# Core\n\nthe core facts\n"}, f"initial_prompt: \"{many}\"\n")
    act = activation(load(root))
    assert act.unknown == ["gone"] and act.embedded == ["core"]  # once each, not a thousand times
    assert act.prompt.count('<memory name="core">') == 1000
