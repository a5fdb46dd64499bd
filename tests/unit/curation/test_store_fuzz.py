"""Whole stores made of hostile parts — frontmatter values, config, golden files, index rows,
file and folder names — run through check, tokens, retrieve, eval and fix --dry-run in-process:
every command ends with an exit code (0, 1 or 2), never an exception, and a dry run writes
nothing. CURATOR_FUZZ_EXAMPLES=N runs more examples than the suite's few."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.cli import main

EXAMPLES = int(os.environ.get("CURATOR_FUZZ_EXAMPLES", "0")) or 25

yaml_scalars = st.sampled_from([
    "2026-13-45", "2026-02-30", "25:61:00", "!!int 'abc'", "!!timestamp 'nope'", "!!float x", "!!binary zz",
    "[1, 2", "{a: 1}", "&a [*a, *a]", "*nowhere", "~", "yes", "1e999", ".nan", "-.inf", "'[/]'", "\"\\x00\"",
    "!!python/name:os.system", "- a\n- b", "|\n  block", "2026-11-20", "[/] [bold]x", "\t", ":", "---",
])
text_bits = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
fm_line = st.tuples(st.sampled_from(["date", "title", "tags", "type", "metadata", "", "- x", "? k"]),
                    st.one_of(yaml_scalars, text_bits)).map(lambda kv: f"{kv[0]}: {kv[1]}")
# names the file system accepts: no "/" or NUL, at most 255 bytes; anything else is fair game
name = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"), min_size=1, max_size=30).filter(
    lambda s: s not in (".", "..") and len(s.encode()) <= 200)
row_cell = st.one_of(text_bits, st.sampled_from(["[x](x.md)", "[a](../../etc/passwd)", "[b](<a b.md>)", "|", "[[", "]]", "(",
                                                  "[l](" + "y" * 300 + ".md)", "[d](dir/)", "[n](\x07.md)"]))


@st.composite
def stores(draw):
    files: dict[str, str] = {}
    for _ in range(draw(st.integers(1, 5))):
        folder = draw(st.one_of(st.just(""), name))
        rel = (f"{folder}/" if folder else "") + draw(name) + draw(st.sampled_from([".md", "", ".MD", ".md.md"]))
        fm = draw(st.lists(fm_line, max_size=4))
        body = draw(st.lists(st.one_of(text_bits, row_cell), max_size=6))
        head = "---\n" + "\n".join(fm) + "\n---\n" if fm or draw(st.booleans()) else ""
        files[rel] = head + "# " + draw(text_bits) + "\n\n" + "\n".join(body) + "\n"
    rows = draw(st.lists(st.lists(row_cell, min_size=1, max_size=3), max_size=6))
    files["skills-x-index.md"] = "| Keywords | File |\n|---|---|\n" + "".join("| " + " | ".join(r) + " |\n" for r in rows)
    l0 = draw(st.lists(st.one_of(text_bits, row_cell, st.just("|a b c: [skills-x-index](skills-x-index.md) (12)")), max_size=5))
    files["memory-index.md"] = "# Memory Index\n\n" + "\n".join(l0) + "\n"
    if draw(st.booleans()):
        files[".curator.yaml"] = draw(st.one_of(
            st.lists(st.tuples(st.sampled_from(["golden", "thresholds", "budgets", "include", "strict_indexes", "tiers", "x"]),
                               yaml_scalars), max_size=3).map(lambda kv: "\n".join(f"{k}: {v}" for k, v in kv) + "\n"),
            text_bits))
    if draw(st.booleans()):
        files["golden-queries.yaml"] = draw(st.one_of(
            st.lists(st.tuples(yaml_scalars, yaml_scalars), max_size=3).map(
                lambda qs: "".join(f"- query: {q}\n  expect: {e}\n" for q, e in qs)),
            text_bits))
    return files


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text, encoding="utf-8", errors="surrogatepass")
        except (OSError, UnicodeError):
            continue  # a name this file system refuses: the store simply does not hold it


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(stores())
def test_whole_store_fuzz_never_raises(files):
    os.environ["CURATOR_TOKENS"] = "estimate"
    try:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "store"
            root.mkdir()
            _write(root, files)
            before = _tree(root)
            for argv in (["check", str(root), "--format", "json"], ["tokens", str(root)],
                         ["retrieve", "--store", str(root), "a b c"], ["eval", str(root)],
                         ["fix", str(root), "--dry-run"], ["prune", str(root), "--dry-run"]):
                try:
                    code = main(argv)
                except SystemExit as exc:
                    code = exc.code
                assert code in (0, 1, 2), argv
            assert _tree(root) == before  # reading commands and dry runs wrote nothing
    finally:
        os.environ.pop("CURATOR_TOKENS", None)
