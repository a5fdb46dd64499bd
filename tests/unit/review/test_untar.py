"""review/untar.py writes a `git archive` tar as tarfile's "data" filter extracts it, writing plain
files directly: the same tree (names, bytes, modes, mtimes, links) as the filter gives on hostile
archives — links out, files through a link, absolute names, `..`, devices, FIFOs, names
repeated — and on a folder that already holds a link out."""

from __future__ import annotations

import io
import os
import stat
import sys
import tarfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.review.untar import untar

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="links and modes as POSIX has them")


def _tar(members: list[tuple]) -> bytes:
    """(kind, name, extra) → a tar as `git archive` writes it (mtime, mode) with hostile parts."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for kind, name, extra in members:
            info = tarfile.TarInfo(name)
            info.mtime = 1_700_000_000
            if kind == "file":
                data = extra.encode() if isinstance(extra, str) else extra
                info.size, info.mode = len(data), 0o664
                tar.addfile(info, io.BytesIO(data))
                continue
            if kind == "exe":
                info.size, info.mode = 3, 0o4777  # setuid and world-writable: both dropped
                tar.addfile(info, io.BytesIO(b"#!\n"))
                continue
            info.type = {"dir": tarfile.DIRTYPE, "sym": tarfile.SYMTYPE, "hard": tarfile.LNKTYPE,
                         "fifo": tarfile.FIFOTYPE, "dev": tarfile.CHRTYPE}[kind]
            info.mode = 0o755
            if kind in ("sym", "hard"):
                info.linkname = extra
            tar.addfile(info)
    return buf.getvalue()


def _tree(root: Path) -> dict[str, tuple]:
    out = {}
    for dirpath, dirs, files in os.walk(root):
        for name in dirs + files:
            p = Path(dirpath) / name
            st_ = p.lstat()
            rel = p.relative_to(root).as_posix()
            if stat.S_ISLNK(st_.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISDIR(st_.st_mode):
                out[rel] = ("dir",)
            else:
                out[rel] = ("file", p.read_bytes(), stat.S_IMODE(st_.st_mode), st_.st_mtime)
    return out


def _both(tmp_path: Path, data: bytes, prepare=None) -> tuple[dict, dict, dict]:
    """(untar's tree, the filter's tree, the outside folder's tree after both)."""
    outside = tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "keep.md").write_text("mine\n")
    trees = []
    for name, run in (("ours", untar), ("filter", _filtered)):
        dest = tmp_path / name
        dest.mkdir()
        if prepare:
            prepare(dest, outside)
        run(data, dest)
        trees.append(_tree(dest))
    return trees[0], trees[1], _tree(outside)


def _filtered(data: bytes, dest: Path) -> None:
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for member in tar:
            try:
                tar.extract(member, dest, filter="data")
            except (tarfile.TarError, OSError):
                continue


HOSTILE = [
    ("dir", "store", None), ("file", "store/a.md", "# A\n"), ("dir", "store/deep", None),
    ("file", "store/deep/b.md", "# B\n"), ("file", "store/new/c.md", "no folder member\n"),
    ("exe", "store/run.sh", None), ("file", "/etc/abs.md", "absolute\n"), ("file", "../up.md", "up\n"),
    ("file", "store/../../up2.md", "up\n"), ("fifo", "store/fifo", None), ("dev", "store/dev", None),
    ("file", "store/a.md", "# A again\n"),  # a name repeated: the later one wins, as tarfile has it
    ("sym", "store/in", "deep"), ("file", "store/in/through.md", "through a link inside\n"),
    ("sym", "store/out", "../../outside"), ("file", "store/out/evil.md", "through a link out\n"),
    ("sym", "store/abs", "/etc"), ("hard", "store/hard", "store/a.md"),
    ("file", "store/later.md", "after the links\n"),
]


def test_a_hostile_archive_gives_the_filters_tree_and_nothing_outside(tmp_path):
    ours, filtered, outside = _both(tmp_path, _tar(HOSTILE))
    assert ours == filtered
    assert outside == {"keep.md": ("file", b"mine\n", 0o644, outside["keep.md"][3])}
    assert ours["store/a.md"][1] == b"# A again\n" and ours["store/run.sh"][2] == 0o755
    assert ours["store/deep/b.md"][3] == 1_700_000_000  # the commit's time: the cache stays warm


def test_a_link_out_already_in_the_folder_is_never_written_through(tmp_path):
    def prepare(dest: Path, outside: Path) -> None:
        (dest / "store").symlink_to(outside, target_is_directory=True)

    data = _tar([("file", "store/evil.md", "x\n"), ("file", "store/keep.md", "over\n")])
    ours, filtered, outside = _both(tmp_path, data, prepare)
    assert ours == filtered
    assert set(outside) == {"keep.md"} and outside["keep.md"][1] == b"mine\n"


# names as a git tree has them (the fixed archive above holds the absolute ones and the `..`s;
# names of `.`, `..` and empty parts sent tarfile itself into a RecursionError, both ways)
names = st.lists(st.sampled_from(["a", "b", "c.md", "d"]), min_size=1, max_size=4).map("/".join)
members = st.lists(st.one_of(
    st.tuples(st.just("file"), names, st.text(max_size=5)),
    st.tuples(st.just("dir"), names, st.none()),
    st.tuples(st.just("sym"), names, st.sampled_from(["a", "../..", "/tmp", "b/c.md", "..", "a/.."])),
), max_size=10).map(lambda parts: _as_a_tree(parts))


def _as_a_tree(parts: list[tuple]) -> list[tuple]:
    """One entry a path and nothing below a file or a link, as in a git tree (a link where files
    made a folder sent tarfile itself into a RecursionError, both ways); no hard links: git stores
    none (tarfile raises KeyError for one to a name it lacks)."""
    kept: list[tuple] = []
    for m in parts:
        if not any(m[1] == k[1] or (k[1].startswith(m[1] + "/") and m[0] != "dir")
                   or (m[1].startswith(k[1] + "/") and k[0] != "dir") for k in kept):
            kept.append(m)
    return kept


@settings(max_examples=60)
@given(members)
def test_any_archive_of_files_folders_and_links_gives_the_filters_tree(tmp_path_factory, parts):
    ours, filtered, outside = _both(tmp_path_factory.mktemp("any"), _tar(parts))
    assert ours == filtered
    assert set(outside) == {"keep.md"}
