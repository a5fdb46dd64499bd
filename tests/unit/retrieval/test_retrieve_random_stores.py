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
# any query, one beginning with - too: after `--` it is the query, never an option
queries = st.one_of(text, st.text(min_size=1, max_size=30), st.builds("-{}".format, text)).filter(str.strip)


def _retrieve(capsys, root: Path, query: str, *extra: str) -> dict:
    code = main(["retrieve", "--format", "json", *extra, "--", query, str(root)])
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
        code = main(["retrieve", "--why", "a.md", "--", query, str(root)])
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


def test_a_query_beginning_with_a_dash_is_the_query_after_double_dash(capsys, tmp_path):
    root = tmp_path / ".serena" / "memories"
    write_tree(root, {"flaky.md": "# Flaky tests\n\nthe -flaky switch reruns a failing test\n", "b.md": "deploy notes\n"})
    data = _retrieve(capsys, root, "-flaky tests", "--no-semantic", "--source", "bm25")
    assert data["query"] == "-flaky tests" and data["results"][0]["path"] == "flaky.md"
    with pytest.raises(SystemExit) as exc:  # without --: an unknown option, said in one line
        main(["retrieve", "--no-semantic", "-flaky", str(root)])
    assert exc.value.code == 2 and "unrecognized arguments: -flaky" in capsys.readouterr().err
