"""CLI text at 80 columns: nothing past the edge, no stemmer internals, headers whole."""

from __future__ import annotations

from curator.cli import main


def _lines(capsys) -> list[str]:
    return capsys.readouterr().out.splitlines()


def test_retrieve_reads_at_80_columns(capsys, sample_copy, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["retrieve", "rebasing charges twice", str(sample_copy)]) == 0
    lines = _lines(capsys)
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    text = "\n".join(lines)
    assert "terms: rebasing charges twice" in text
    assert "ranks are within" not in text  # one memory system: nothing to say
    assert "charg " not in text and "rebas " not in text
    hits = [line for line in lines if line[:2].strip().isdigit()]
    assert hits and all(len(line.split()) >= 5 for line in hits)  # rank path tokens score ranks
    assert any(line.startswith("    keywords: ") or line.startswith("    text: ") for line in lines)


def test_retrieve_on_a_repository_says_whose_ranks_the_columns_hold(capsys, sample_repo_copy, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["retrieve", "how are releases tagged", str(sample_repo_copy)]) == 0
    lines = _lines(capsys)
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    said = [line for line in lines if line.startswith("ranks are within each result's memory system")]
    assert len(said) == 1 and "fused by rank" in said[0]


def test_check_text_wraps_messages_under_their_path(capsys, sample_copy, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    main(["check", str(sample_copy)])
    lines = _lines(capsys)
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    # a long message goes on its own lines, indented under its path, at full width
    under = [line for line in lines if line.startswith("      ") and line.strip()]
    assert under and max(len(line.rstrip()) for line in under) > 60
    assert not any(line.rstrip().endswith("…") for line in lines if not line.startswith("    "))


def test_tokens_headers_are_whole_words_with_a_key(capsys, sample_copy, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["tokens", str(sample_copy)]) == 0
    lines = _lines(capsys)
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    header = next(line for line in lines if line.startswith("index "))
    assert header.split() == ["index", "n", "tiered", "+L0", "whole", "saves", "even", "at"]
    text = "\n".join(lines)
    assert "even at = entries retrieved" in " ".join(text.split())
    assert "name/ = a folder" in text
