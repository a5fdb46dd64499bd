"""`curator retrieve` with meaning on, over any store: an empty folder, one with no .md, files
that are not text, frontmatter that does not parse, queries of any characters. It answers (exit
0, JSON that parses, hits that are memories of the store) and never prints a traceback.

Random stores run with the fake encoder (tests/fake_encoder.py: the real model is too slow for a
hundred examples); the edge stores that crashed (issue 32: `IndexError` in `fusion.fuse`) run
with the bundled model too."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.cli import main
from curator.retrieval import semantic as sem
from curator.retrieval.fusion import fuse
from tests.fake_encoder import use_fake_encoder
from tests.files import write_tree

WORDS = ["cache", "retry", "lock", "deploy", "rebase", "session", "2025-01-31", "the", "ünïcode", "日本",
         "pnpm-lock", "x", "", "#", "---", "|", "[link](other.md)", "mem:other"]
NAMES = ["a.md", "b.md", "notes.txt", "memory-index.md", "MEMORY.md", "sub/c.md", "sub/deeper/d.md",
         "session_2025-01-31_10-00.md", "skills-x-index.md", "data.bin", "README.md", ".hidden.md"]
text = st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join)
content = st.one_of(
    text,
    st.builds(lambda h, b: f"# {h}\n\n{b}\n", text, text),
    st.builds(lambda fm, b: f"---\n{fm}\n---\n{b}\n", st.sampled_from(["date: 2025-01-31", "name: [", "a: b: c", ""]), text),
    st.binary(max_size=64),
    st.just(""),
)
stores = st.dictionaries(st.sampled_from(NAMES), content, max_size=8)
# a query beginning with - is an option to argparse, even after -- (its subcommands): not a query here
queries = st.one_of(text, st.text(min_size=1, max_size=30)).filter(lambda q: q.strip() and not q.startswith("-"))


def _retrieve(capsys, root: Path, query: str, *extra: str) -> dict:
    code = main(["retrieve", query, str(root), "--format", "json", *extra])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "Traceback" not in out.err
    return json.loads(out.out)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=stores, query=queries)
def test_retrieve_with_meaning_answers_on_any_store(capsys, monkeypatch, files, query):
    use_fake_encoder(monkeypatch)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / ".serena" / "memories"
        write_tree(root, files)
        data = _retrieve(capsys, root, query)
        hits = [h["path"] for h in data["results"]]
        assert all(h.endswith(".md") and (root / h).is_file() for h in hits)
        assert len(hits) == len(set(hits)) <= 5
        code = main(["retrieve", query, str(root), "--why", "a.md"])
        out = capsys.readouterr()
        assert code in (0, 2) and "Traceback" not in out.err


@pytest.mark.parametrize("files", [{}, {"notes.txt": "cache retry"}, {"a.md": ""}, {"a.md": b"\xff\xfe\x00"}],
                         ids=["empty", "no-md", "empty-md", "not-text"])
def test_retrieve_with_the_bundled_model_on_a_store_with_nothing_to_rank(capsys, monkeypatch, tmp_path, files):
    monkeypatch.delenv("CURATOR_NO_SEMANTIC", raising=False)
    monkeypatch.setattr(sem, "_ENCODERS", {})
    encoder, why = sem.load_encoder()
    assert encoder is not None, why
    root = tmp_path / ".serena" / "memories"
    write_tree(root, files)
    data = _retrieve(capsys, root, "how do we retry a held cache lock")
    assert [h["path"] for h in data["results"]] == (["a.md"] if isinstance(files.get("a.md"), str) else [])
    main(["retrieve", "how do we retry a held cache lock", str(root)])  # the text face too
    assert "Traceback" not in capsys.readouterr().err


def test_fuse_of_nothing_is_nothing():
    """The crash itself: every list empty, the semantic one present, a sure margin set."""
    assert fuse({"bm25": [], "semantic": [], "route": [], "prior": []}, {"semantic": 8.0}, 0.75) == []
    assert [p for p, _ in fuse({"semantic": [("a.md", 0.3)], "bm25": []}, {"semantic": 8.0}, 0.75)] == ["a.md"]
