"""Every `curator.bench` command runs at a tiny size and prints its table, so a rename breaks a
test, not the next measurement (issue 34: `bench.sessions` crashed on `app.sessions` for a round).

Each bench runs in-process through its `main(argv)` on small synthetic stores (a few runs) or on a
tiny corpus made here (a copy of the sample store under a name the corpus benches know, a
two-file instruction repository); what is asserted is the line that heads or closes its output.
The ones that start the app or embed memories are marked slow (they run first)."""

from __future__ import annotations

import importlib
import pkgutil
import shutil
import textwrap
from pathlib import Path

import pytest

import curator.bench

SAMPLE = Path(__file__).resolve().parents[2] / "sample_memories"
CLAUDE_STORE = "claude/0x0wRangler__stockerly"  # a name bench.identity / fixes / topical know
GOLDEN = """\
store: {store}
seed: 12
queries:
- {{query: "rebase squash fixups before review", expect: [{a}], kind: literal, split: fit}}
- {{query: "how do we roll back a failed migration", expect: [{b}], kind: paraphrase, split: held}}
"""


# the benches that embed the sample's Claude memory with the model (~2.5 s of CPU each) read one
# corpus and share its embedding cache: the vectors are the same whichever computes them (the
# cache is keyed by the store's folder and the model), what each prints is unchanged
EMBEDDING = {"golden.loso", "golden.reliability"}


@pytest.fixture(scope="module")
def embedded_corpus(tmp_path_factory):
    """(corpora, cache folder) the EMBEDDING benches share; neither writes into the corpus."""
    root = tmp_path_factory.mktemp("embedded")
    shutil.copytree(SAMPLE / ".claude", root / "corpora" / CLAUDE_STORE / ".claude")
    return root / "corpora", root / "cache"


@pytest.fixture
def bench_dirs(request, tmp_path, monkeypatch):
    """Synthetic stores in a folder of this test's own; the corpus benches get a tiny corpus."""
    monkeypatch.setenv("CURATOR_BENCH_DIR", str(tmp_path / "bench"))
    for name in ("CURATOR_TOKENS", "CURATOR_NO_REPLAY", "CURATOR_TODAY"):  # bench.races sets them: restored after
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    if getattr(request.node, "callspec", None) and request.node.callspec.params.get("name") in EMBEDDING:
        corpora, cache = request.getfixturevalue("embedded_corpus")
        monkeypatch.setenv("CURATOR_CACHE_DIR", str(cache))
        return tmp_path, corpora
    corpora = tmp_path / "corpora"
    shutil.copytree(SAMPLE / ".claude", corpora / CLAUDE_STORE / ".claude")
    return tmp_path, corpora


def _instruction_corpus(tmp_path: Path) -> Path:
    """A corpus folder as /work/shared/corpora/instructions is: a `materialize.py` and one
    repository (its `.files.txt`), here a CLAUDE.md importing a file and an AGENTS.md."""
    corpus = tmp_path / "instructions"
    repo = corpus / "tiny__repo"
    (repo / "notes").mkdir(parents=True)
    # an import of a file that moved (one file of that name: the fix re-points it)
    (repo / "CLAUDE.md").write_text("# Tiny\n\n@docs/testing.md\n")
    (repo / "notes" / "testing.md").write_text("Run the tests with pytest.\n")
    (repo / "AGENTS.md").write_text("# Agents\n\nKeep commits small.\n")
    (repo / ".files.txt").write_text("")
    (corpus / "materialize.py").write_text(textwrap.dedent("""\
        import shutil, sys
        shutil.copytree(sys.argv[1], sys.argv[2], ignore=shutil.ignore_patterns(".files.txt"), dirs_exist_ok=True)
        """))
    return corpus


def _golden(tmp_path: Path, corpora: Path) -> list[str]:
    """Two golden files (loso leaves one out) over the sample's small Claude Code memory."""
    claude = sorted(p.name for p in (corpora / CLAUDE_STORE / ".claude/memory").glob("*.md") if p.name != "MEMORY.md")
    files = []
    for name, (a, b) in (("one", claude[:2]), ("two", claude[2:4])):
        path = tmp_path / f"{name}.yaml"
        path.write_text(GOLDEN.format(store=f"{CLAUDE_STORE}/.claude/memory", a=a, b=b))
        files.append(str(path))
    return files


def _argv(name: str, tmp_path: Path, corpora: Path) -> list[str]:
    tiny = {
        "app": ["--files", "20", "--lab-files", "20", "--runs", "1"],
        "check": ["--sizes", "20", "--repeat", "1", "--cold-repeat", "1"],
        "context": ["--files", "5", "--repeat", "1", "--cold-repeat", "1"],
        "curate": ["--sizes", "20", "--repeat", "1"],
        "floor": ["--files", "20", "--repeat", "1"],
        "live": ["--files", "20", "--edits", "2"],
        "live_context": ["--files", "5", "--edits", "2"],
        "races": ["--runs", "1"],
        "retrieve": ["--files", "20", "--queries", "3", "--whole", "20", "--runs", "1", "--no-targets"],
        "sessions": ["--mb", "1", "--app-runs", "1"],
        "synth": [str(tmp_path / "synth"), "--files", "20"],
        "fixes": [str(corpora), "--only", CLAUDE_STORE],
        "identity": [str(corpora), "--only", CLAUDE_STORE, "--seeds", "1"],
        "topical": [str(corpora), "--only", CLAUDE_STORE],
        "golden.sample": [str(corpora / CLAUDE_STORE / ".claude/memory"), "--n", "2"],
        "distill_static": ["--out", str(tmp_path / "static"), "--pieces", "300"],
    }
    if name in ("context_corpus", "instruction_fixes"):
        return ["--corpus", str(_instruction_corpus(tmp_path)), "--work", str(tmp_path / "work")]
    if name in ("golden.table", "golden.loso"):
        return [str(corpora), "--golden", *_golden(tmp_path, corpora)]
    if name == "golden.reliability":
        return [str(corpora), "--golden", *_golden(tmp_path, corpora), "--n", "2"]
    return tiny[name]


# what each bench prints (a table's header or its closing line)
PRINTS = {
    "app": "app on 20 files (warm): first screen",
    "check": "| cold check, meaning on ÷ off (CURATOR_NO_SEMANTIC=1) |",
    "context": "| `curator context` |",
    "context_corpus": "| repository | claude-code 2.1.276 | claude-code 2.1.332 | codex |",
    "curate": "20",
    "fixes": "all fixes clean",
    "floor": "20",
    "identity": "changes gave the expected new findings",
    "instruction_fixes": "total: 1 findings of the fixable checks, 1 with a fix, 1 fixed, 0 new",
    "live": "20",
    "live_context": "edit",
    "races": "operation",
    "retrieve": "whole-process `curator retrieve` warm at 20 files",
    "sessions": '"mode": "app"',
    "synth": "20",
    "topical": "store (left out)",
    "golden.sample": "### ",
    "golden.table": "all files  (4 queries)",
    "golden.loso": "overall",
    "golden.reliability": "| store | memories | asked |",
    "distill_static": "minilm-static",
}
SLOW = {"distill_static", "app", "sessions", "retrieve", "topical", "golden.loso", "golden.reliability", "golden.table", "races", "check"}
HELPERS = {"run", "readhash", "semantic"}  # imported by the commands above (semantic: retrieve's targets, below)


def commands() -> list[str]:
    """Every module of curator.bench with a `main` (a command), as `name` or `golden.name`."""
    out = []
    for info in pkgutil.walk_packages(curator.bench.__path__, "curator.bench."):
        name = info.name.removeprefix("curator.bench.")
        if not info.ispkg and name not in HELPERS and hasattr(importlib.import_module(info.name), "main"):
            out.append(name)
    return sorted(out)


def test_every_bench_command_is_smoke_tested():
    assert set(commands()) == set(PRINTS), sorted(set(commands()) ^ set(PRINTS))


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in sorted(PRINTS)])
def test_a_bench_runs_at_a_tiny_size_and_prints_its_table(name, bench_dirs, capsys):
    tmp_path, corpora = bench_dirs
    module = importlib.import_module(f"curator.bench.{name}")
    code = module.main(_argv(name, tmp_path, corpora))
    out = capsys.readouterr().out
    assert PRINTS[name] in out, out[-2000:]
    assert "Traceback" not in out, out[-2000:]
    assert code in (0, 1, None), code  # 1: a bench that judges (fixes, identity, …) found a problem


@pytest.mark.slow
def test_the_semantic_targets_run_at_a_tiny_size(bench_dirs):
    """`bench.retrieve`'s semantic targets (bench/semantic.py: each measure in a child that loads
    the model), at 10 files and one timed run: every measure runs as at 20 (a sample, an edit, a
    query, the fill and both whole-process runs), on half the texts to embed (10.1 s -> 7.1 s of CPU),
    the in-process query's median over 5 queries, not 50 (each runs the same path)."""
    from curator.bench.semantic import report

    lines = report(10, runs=1, queries=5)
    assert not lines[0].startswith("semantic source unavailable"), lines
    text = "\n".join(lines)
    for part in ("first embedding:", "an edit re-reads", "fused query with semantic at 10", "lean as the app", "after the lab's debounce",
                 "one-shot `curator retrieve` warm at 10 with semantic", "without (CURATOR_NO_SEMANTIC=1)"):
        assert part in text, text


def test_a_benchs_temporary_cache_folders_are_gone_when_it_exits(tmp_path):
    """Each timed run gets a fresh cache folder; they are removed at exit, not left in /tmp."""
    import os
    import subprocess
    import sys

    code = ("from curator.bench.run import fresh_cache_env, scratch\n"
            "a = fresh_cache_env()['CURATOR_CACHE_DIR']; b = scratch('curator-test-')\n"
            "open(a + '/x', 'w').write('kept until exit')\n"
            "print(a); print(b)")
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    made = out.stdout.split()
    assert len(made) == 2 and all(Path(p).parent == tmp_path for p in made)
    assert not any(Path(p).exists() for p in made)


@pytest.mark.slow
def test_loso_scores_the_defaults_unfitted_and_prints_groups(embedded_corpus, tmp_path, monkeypatch, capsys):
    """`--fixed` (the product's weights, `--set` overriding) and `--group`: the golden README's
    tables of the sets first run untouched come from these, not from a script of one session."""
    from curator.bench.golden import loso

    corpora, cache = embedded_corpus
    monkeypatch.setenv("CURATOR_CACHE_DIR", str(cache))
    files = _golden(tmp_path, corpora)
    assert loso.main([str(corpora), "--golden", *files, "--fixed", "--set", "unsure=0", "--group", "both=one,two"]) == 0
    out = capsys.readouterr().out
    assert "cells where fused (fixed)" in out and "nothing fitted): weights {" in out  # labelled as unfitted
    assert "'unsure': 0.0" in out and "'lead': 0.1" in out  # the defaults, one of them overridden
    assert "group both all        n=4" in out and "stores below their best single source" in out
