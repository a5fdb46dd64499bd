"""Consoles print text, never markup: no command may print rich's tag syntax literally."""

from __future__ import annotations

import re

import pytest

from curator.cli import main

TAG = re.compile(r"\[/?(bold|dim|yellow|red|green|cyan|/)\]|\[/\]")


@pytest.mark.parametrize(
    "argv",
    [
        ["tiers"],
        ["usage"],
        ["retrieve", "redis eviction"],
        ["retrieve", "redis eviction", "{store}", "--source", "bm25"],
        ["check"],
        ["tokens"],
    ],
)
def test_no_markup_tags_in_output(capsys, sample_repo_copy, argv):
    store = sample_repo_copy / ".serena" / "memories" if argv[0] in ("tiers", "usage") else sample_repo_copy
    args = [a.replace("{store}", str(store)) for a in argv]
    main(args if any("{store}" in a for a in argv) else [*args, str(store)])
    out, err = capsys.readouterr()
    assert not TAG.search(out + err), (out + err)[:2000]
