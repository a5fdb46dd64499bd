"""Issue 29: the session tier reads untrusted bytes within bounds. `sessions.pickle` in the user
cache was unpickled (a shared or restored CI cache runs code); a transcript with one 500 MB line
made every `sessions` command take 1–1.6 GB. The scans are now kept as plain marshalled data
with a checksum, and a line longer than the cap is skipped and counted, never held."""

from __future__ import annotations

import json
import os
import pickle
import tracemalloc
from pathlib import Path

from curator.base.locations import cache_dir
from curator.cli import main
from curator.model.sources import claude_slug
from curator.transcripts import reader
from curator.transcripts.lines import LINE_CAP

from .transcripts import SID, well_formed, write


class Planted:
    """What an attacker puts in a shared cache: unpickling it runs a command."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def transcript_of(repo: Path) -> Path:
    projects = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects" / claude_slug(repo.resolve())
    return write(projects / f"{SID}.jsonl", well_formed(cwd=str(repo.resolve())))


def test_nothing_in_the_cache_is_unpickled(tmp_path, capsys):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    transcript_of(repo)
    marker = tmp_path / "pwned"
    cache_dir().mkdir(parents=True, exist_ok=True)
    for name in ("sessions.pickle", "sessions.marshal"):
        (cache_dir() / name).write_bytes(pickle.dumps((3, {"x": Planted(str(marker))})))
    assert main(["sessions", str(repo), "--format", "json"]) == 0
    assert not marker.exists()
    assert json.loads(capsys.readouterr().out)["sessions"]  # and the sessions are listed
    assert main(["sessions", str(repo), "--format", "json"]) == 0  # again, from the cache it wrote
    assert not marker.exists() and json.loads(capsys.readouterr().out)["sessions"]


def test_a_line_longer_than_the_cap_is_skipped_and_counted_never_held(tmp_path):
    path = tmp_path / "big.jsonl"
    objs = well_formed()
    long_line = b'{"type": "user", "message": {"content": "' + b"x" * (3 * LINE_CAP) + b'"}}\n'
    write(path, [objs[0], objs[1], long_line, *objs[2:]])
    tracemalloc.start()
    try:
        scan = reader.scan(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert scan.stats.too_long == 1 and scan.user_messages == 2  # the rest is read as before
    assert peak < 2 * LINE_CAP + (4 << 20) < len(long_line), peak  # what reading up to the cap takes, not the line
