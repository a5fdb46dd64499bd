"""A full disk or a refused permission half-way through an operation: the operation is rolled
back and the one-line message says so — which file failed, and that no file was changed."""

from __future__ import annotations

import errno

import pytest

from curator.cli import main
from curator.curation import journal

INDEX = "skills-review-index.md"


def files(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*.md") if ".curator" not in p.parts}


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES])
def test_a_write_that_fails_half_way_is_rolled_back_and_said_so(sample_copy, capsys, monkeypatch, code):
    before = files(sample_copy)
    real, calls = journal.link_new, []

    def failing(src, dst):
        calls.append(dst)
        if len(calls) == 2:  # the operation's second file
            raise OSError(code, errno.errorcode[code] if code != errno.ENOSPC else "No space left on device", str(dst))
        return real(src, dst)

    monkeypatch.setattr(journal, "link_new", failing)
    rc = main(["keywords", INDEX, "review/review-pr-size.md", "--set", "pr", "size", "split", "--store", str(sample_copy)])
    err = " ".join(capsys.readouterr().err.split())
    assert rc == 2 and len(calls) >= 2
    assert "write failed on" in err and "rolled back: no file was changed" in err and "Traceback" not in err
    monkeypatch.setattr(journal, "link_new", real)
    assert files(sample_copy) == before
