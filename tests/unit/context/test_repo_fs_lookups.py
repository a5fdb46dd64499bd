"""The repository listing's lookups (files of a name, paths written from a folder further down)
answer as the scans they replaced did — also after a planned move edits the listing."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from curator.context.fs import RepoFS

parts = st.sampled_from(["a", "b", "src", "x.py", "README.md", "docs", "y.md"])
paths = st.lists(parts, min_size=1, max_size=4).map("/".join)


@given(files=st.lists(paths, max_size=30, unique=True), probe=paths)
def test_lookups_match_a_scan_of_every_file(files, probe):
    fs = RepoFS("/repo", files=sorted(files))
    name = probe.rsplit("/", 1)[-1]
    assert fs.named(name) == [f for f in fs.files if f.rsplit("/", 1)[-1] == name]
    assert fs.ends_with(probe) == any(f.endswith("/" + probe) for f in fs.files)


def test_an_edited_listing_is_looked_up_again():
    fs = RepoFS("/repo", files=["docs/guide.md"])
    assert fs.named("guide.md") == ["docs/guide.md"] and fs.ends_with("guide.md")
    fs.files[:] = ["notes/other.md"]
    fs.changed()
    assert fs.named("guide.md") == [] and not fs.ends_with("guide.md") and fs.ends_with("other.md")
