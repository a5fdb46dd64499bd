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
    assert "charg " not in text and "rebas " not in text
    hits = [line for line in lines if line[:2].strip().isdigit()]
    assert hits and all(len(line.split()) >= 5 for line in hits)  # rank path tokens score ranks
    assert any(line.startswith("    keywords: ") or line.startswith("    text: ") for line in lines)
