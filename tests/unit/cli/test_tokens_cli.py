"""`curator tokens`: JSON contract, start-up load past the cap, cost model numbers."""

from __future__ import annotations

import json

from curator.cli import main


def test_tokens_json_on_sample(capsys, sample_copy):
    assert main(["tokens", str(sample_copy), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["encoding"] == "cl100k_base"
    assert data["total"] == sum(data["tiers"].values())
    sizes = [f["tokens"] for f in data["files"]]
    assert sizes == sorted(sizes, reverse=True)
    st = data["startup"]
    assert st["budget"] == 2500 and st["over"] is True  # the sample's .curator.yaml
    assert [f["path"] for f in st["files"]][0] == "memory-index.md"
    assert st["tokens"] == sum(f["tokens"] for f in st["files"])
    assert st["past_cap"] and all(c["cumulative"] > 2500 for c in st["past_cap"])
    costs = {c["index"]: c for c in data["cost_model"]}
    assert set(costs) == {"database-index.md", "frontend-index.md", "skills-ci-index.md",
                          "skills-git-index.md", "skills-review-index.md"}


def test_cost_model_by_hand(capsys, make_store):
    # L0 "x" and index/memory texts sized by the estimate counter (chars / 4).
    root = make_store({
        "memory-index.md": "[A]\n|alpha: [skills-a-index](skills-a-index.md)\n",
        "skills-a-index.md": "| Keywords | File |\n|---|---|\n| a b c d e | [a/a-one](a/a-one.md) |\n| f g h i j | [a/a-two](a/a-two.md) |\n",
        "a/a-one.md": "w" * 400,
        "a/a-two.md": "w" * 800,
    })
    import os
    os.environ["CURATOR_TOKENS"] = "estimate"
    try:
        assert main(["tokens", str(root), "--format", "json"]) == 0
    finally:
        del os.environ["CURATOR_TOKENS"]
    data = json.loads(capsys.readouterr().out)
    assert data["encoding"] == "estimate"
    c = data["cost_model"][0]
    assert c["entries"] == 2 and c["consolidated_tokens"] == c["avg_entry_tokens"] * 2
    assert c["tiered_cached"] == c["index_tokens"] + c["avg_entry_tokens"]
    assert c["tiered_uncached"] == c["tiered_cached"] + c["l0_tokens"]
    expected = round((1 - c["tiered_cached"] / c["consolidated_tokens"]) * 100, 1)
    assert c["savings_cached_pct"] == expected


def test_tokens_text_names_lines_past_cap(capsys, sample_copy):
    assert main(["tokens", str(sample_copy)]) == 0
    out = capsys.readouterr().out
    assert "over budget" in out and "fall past the cap" in out and "ADR-017 cost model" in out


def test_tokens_and_check_follow_the_claude_code_version_asked_or_pinned(capsys, make_store, monkeypatch):
    """`--agent claude-code@2.1.80` reaches `tokens` as it reaches `check`; the repository's
    `.curator.yaml` pin wins over a store's own config file (review18b #5, #6)."""
    monkeypatch.delenv("CI", raising=False)
    rows = "".join(f"- [T{i}](t{i}.md) — a note\n" for i in range(205))
    root = make_store({".claude/memory/MEMORY.md": "---\nname: index\n---\n# Memory\n" + rows,
                       ".claude/memory/.curator.yaml": "budgets: {}\n",
                       ".claude/memory/t1.md": "---\nname: t\ndescription: d\ntype: project\n---\n# T\n"}, name="repo")
    (root / ".claude" / "settings.local.json").write_text(json.dumps({"autoMemoryDirectory": str(root / ".claude/memory")}))
    store = str(root / ".claude" / "memory")

    def past_cap(*extra) -> int:
        assert main(["tokens", store, "--format", "json", *extra]) == 0
        return json.loads(capsys.readouterr().out)["startup"]["past_cap"][0]["line"]

    assert past_cap() == 204  # the newest rules strip the frontmatter first
    assert past_cap("--agent", "claude-code@2.1.80") == 201
    (root / ".curator.yaml").write_text("agents:\n  claude-code:\n    version: 2.1.80\n")
    assert past_cap() == 201  # the repository's pin, though the store has a .curator.yaml of its own
    (root / ".curator.yaml").write_text("agents:\n  claude-code:\n    version: 2.1.50\n")  # before auto memory
    assert main(["tokens", store, "--format", "json"]) == 0
    st = json.loads(capsys.readouterr().out)["startup"]
    assert st["tokens"] == 0 and "2.1.50, the version pinned, had no auto memory" in st["what"]
