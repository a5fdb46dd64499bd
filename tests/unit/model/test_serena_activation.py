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
from curator.model.serena_activation import READ_LINE, activation, names_text
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
    assert rest == READ_LINE
    assert names_text(load(repo(tmp_path / "empty", {}))) == ""


def test_the_initial_prompt_counts_with_the_memory_it_embeds(tmp_path):
    root = repo(tmp_path, {"style.md": "# Style\nUse tabs everywhere.\n", "arch.md": "# Arch\n"},
                "initial_prompt: |\n  Read the style first.\n  {{ embed_memory('style') }}\n"
                "  {{ embed_memory(\"mem:gone.md\") }}\n")
    store = load(root)
    act = activation(store)
    assert act.prompt.startswith("\n<project-instructions>\nRead the style first.\n<memory name=\"style\">")
    assert "Use tabs everywhere." in act.prompt and "embed_memory" not in act.prompt
    assert act.embedded == ["style.md"] and act.unknown == ["mem:gone.md"]
    st = startup_of(store)
    counter = FakeTokenCounter()
    assert st.tokens == counter.count(act.names) + counter.count(act.prompt)
    assert "initial prompt of .serena/project.yml, which embeds style.md" in st.what

    model = build_context(tmp_path / "repo", token_counter=counter, env={"HOME": str(tmp_path / "home")})
    ctx = model.agents["serena"]
    assert [e.path for e in ctx.startup] == [".serena/memories", ".serena/project.yml"]
    assert sum(e.tokens for e in ctx.startup) == st.tokens  # the context and the budgets say one number
    assert ctx.startup[1].rule == "serena/project.initial-prompt@1.7.0"
    assert any("'mem:gone.md', which is no memory here" in n for n in ctx.notes)


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
    assert json.loads(names_text(old).split("\n")[0]) == {"memories": ["a"]}
    assert sorted(f.path for f in old.load_findings if f.check == "index.unsafe-target") == ["backend", "out"]

    model = build_context(tmp_path / "repo", token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")})
    assert any("2 memories under linked folders (.serena/memories/backend)" in n for n in model.agents["serena"].notes)


def test_the_version_a_repository_pins_is_the_one_read(tmp_path):
    root = repo(tmp_path, {"s.md": "# s\n"}, "initial_prompt: \"{{ embed_memory('s') }}\"\n")
    (tmp_path / "repo" / ".curator.yaml").write_text("agents:\n  serena: {version: 1.6.0}\n")
    assert activation(load(root)).embedded == []


def test_an_edit_to_the_project_files_is_one_the_live_view_follows():
    from curator.context.watched import instruction_path

    assert instruction_path(".serena/project.yml") and instruction_path(".serena/project.local.yml")
