"""A tiered (ADR-017) store under `.serena/memories`: Serena lists every memory at activation
whatever index the store keeps, so its start-up is the index (under the store's budget) plus the
names and the initial prompt beside it; one number on every face."""

from __future__ import annotations

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.budgets.startup import startup_of
from curator.context import build_context
from curator.model import formats as fmts
from curator.model import load_store
from curator.model.loader import LoadOptions
from curator.model.serena_activation import activation

INDEX = "# Memory index\n\n| Keywords | File |\n|---|---|\n| deploy release | [deploy](skills-deploy-index.md) |\n"
DOMAIN = "| Keywords | File |\n|---|---|\n| release tag | deploy-release |\n| rollback | deploy-rollback |\n"


def tiered(base, n_extra: int = 0, prompt: str | None = None):
    root = base / ".serena" / "memories"
    root.mkdir(parents=True)
    (base / ".git").mkdir()
    (root / "memory-index.md").write_text(INDEX)
    (root / "skills-deploy-index.md").write_text(DOMAIN)
    for name in ["deploy-release", "deploy-rollback", *(f"note-{i:03}" for i in range(n_extra))]:
        (root / f"{name}.md").write_text(f"# {name}\n\nbody of {name}\n")
    if prompt is not None:
        (root.parent / "project.yml").write_text(f"initial_prompt: {prompt!r}\n")
    return root


def load(root):
    return load_store(root, LoadOptions(token_counter=FakeTokenCounter()))


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def test_the_listing_and_prompt_load_beside_the_index_and_its_budget(tmp_path):
    store = load(tiered(tmp_path / "repo", prompt="Read memory-index first."))
    assert store.format == fmts.SERENA_TIERED
    st = startup_of(store)
    act = activation(store)
    names = FakeTokenCounter().count_many([("", act.names)])[0]
    prompt = FakeTokenCounter().count_many([("", act.prompt)])[0]
    index = dict(st.files)["memory-index.md"]
    assert names > 0 and prompt > 0 and index > 0
    assert st.beside == names + prompt and st.tokens == index + names + prompt and st.capped == index
    assert "the names of 4 memories" in st.beside_what
    assert st.to_json()["budgeted"] == index and st.to_json()["beside"]["tokens"] == st.beside


def test_a_long_listing_never_puts_the_index_over_its_budget(tmp_path):
    root = tiered(tmp_path / "repo", n_extra=400)
    (tmp_path / "repo" / ".curator.yaml").write_text("budgets:\n  startup: 200\n")
    st = startup_of(load(root))
    assert st.cap_tokens == 200 and st.tokens > 200 and st.capped <= 200
    assert not st.over  # the budget is the store's own (ADR-017's index), not Serena's listing


def test_the_agent_s_entries_sum_to_the_store_s_start_up(tmp_path):
    base = tmp_path / "repo"
    store = load(tiered(base, n_extra=3, prompt="Hello"))
    st = startup_of(store)
    ctx = build_context(base, token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")}).agents["serena"]
    assert ctx.startup_tokens == st.tokens
    paths = [e.path for e in ctx.startup]
    assert paths[0] == ".serena/memories" and ".serena/memories/memory-index.md" in paths
    assert ".serena/project.yml" in paths


def test_a_tiered_store_outside_serena_s_folder_lists_nothing_beside(tmp_path):
    root = tmp_path / "repo" / "docs" / "memories"
    root.mkdir(parents=True)
    (root / "memory-index.md").write_text(INDEX)
    (root / "skills-deploy-index.md").write_text(DOMAIN)
    (root / "deploy-release.md").write_text("# r\n")
    st = startup_of(load(root))
    assert st.beside == 0 and st.tokens == st.capped


def test_the_drift_chart_ends_on_the_total_and_carries_the_listing_at_every_commit(tmp_path):
    import subprocess

    from curator.live.drift import startup_history

    base = tmp_path / "repo"
    root = tiered(base, n_extra=5)
    (base / ".git").rmdir()
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run(["git", "init", "-q", str(base)], check=True)
    subprocess.run([*git, "-C", str(base), "add", "-A"], check=True)
    subprocess.run([*git, "-C", str(base), "commit", "-qm", "one"], check=True)
    store = load(root)
    st = startup_of(store)
    history = startup_history(store)
    assert history.points[-1].approx_tokens == st.tokens
    assert history.points[0].offset == st.beside > 0 and "Serena's activation" in history.what
