"""Issue 29: the user cache cannot break or deceive a run. One damaged byte of the model stamp
(`embeddings/verified-*`) made `retrieve` print a traceback and `check` exit 2; the model's sha256
pin was skipped when size and mtime matched the stamp (both settable: `touch -d`); after one run
whose model was refused, the fast path stayed lexical-only for that store, silently. Now a
damaged cache entry is a cache miss, the stamp is keyed by what a user cannot set back (ctime,
inode), and the fast path never keeps a run whose semantic source was unavailable."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from curator.base import cache as base_cache
from curator.base import kept
from curator.base.locations import cache_dir
from curator.checks import replay
from curator.cli import main
from curator.cli.commands.retrieve import answer_fast
from curator.retrieval import semantic as sem

FILES = {
    "git/rebase.md": "# Rebase\n\nUse interactive rebase with autosquash to fold fixup commits.\n",
    "db/pool.md": "# Pool\n\nSize the postgres pool to the worker count.\n",
    "ci/flaky.md": "# Flaky\n\nQuarantine flaky tests and fix the clock.\n",
}


@pytest.fixture
def semantic_on(monkeypatch):
    monkeypatch.setattr(sem, "_ENCODERS", {})
    monkeypatch.delenv("CURATOR_NO_SEMANTIC", raising=False)
    monkeypatch.delenv("CURATOR_EMBED_MODEL", raising=False)


def stamps() -> list[Path]:
    return sorted((cache_dir() / "embeddings").glob("verified-*"))


def test_a_damaged_model_stamp_is_a_cache_miss(make_store, capsys, semantic_on, monkeypatch):
    root = make_store(FILES, "memories")
    assert main(["retrieve", "rebase fixups", str(root), "--format", "json"]) == 0
    found = stamps()  # the model's and the static vectors' (retrieval/static.py)
    assert found
    damaged = {}
    for stamp in found:
        data = bytearray(stamp.read_bytes())
        data[3] = 0xFF  # one damaged byte: not ASCII any more
        damaged[stamp] = bytes(data)
        stamp.write_bytes(damaged[stamp])
    monkeypatch.setattr(sem, "_ENCODERS", {})
    capsys.readouterr()
    assert main(["retrieve", "rebase fixups", str(root), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "unavailable" not in json.loads(out)
    for stamp, data in damaged.items():
        stamp.write_bytes(data)
    monkeypatch.setattr(sem, "_ENCODERS", {})
    monkeypatch.setenv("CURATOR_NO_REPLAY", "1")
    assert main(["check", str(root)]) in (0, 1)


def test_the_pin_is_checked_again_when_size_and_mtime_are_set_back(tmp_path, monkeypatch):
    real, pinned = sem.find_model()
    model = tmp_path / "model.onnx"
    shutil.copyfile(real, model)
    assert sem._verified(model, pinned) == pinned
    st = model.stat()
    swapped = bytearray(model.read_bytes())
    swapped[len(swapped) // 2] ^= 0x01  # the attacker's model: same size
    model.write_bytes(bytes(swapped))
    os.utime(model, ns=(st.st_atime_ns, st.st_mtime_ns))  # and the same mtime
    with pytest.raises(sem.EncoderUnavailable, match="not the pinned model"):
        sem._verified(model, pinned)


def test_a_refused_model_is_never_kept_by_the_fast_path(make_store, capsys, semantic_on, monkeypatch):
    monkeypatch.setattr(kept, "RACY_SLACK_NS", -3600 * 10**9)  # the test's files are seconds old
    root = make_store(FILES, "memories")
    real = sem.find_model

    def refused():
        raise sem.EncoderUnavailable("the model file was refused")

    monkeypatch.setattr(sem, "find_model", refused)
    argv = ["retrieve", "rebase fixups", str(root), "--format", "json"]
    code, run = answer_fast(argv)
    assert code is None and main(argv, kept=run) == 0
    assert "refused" in json.loads(capsys.readouterr().out)["unavailable"]["semantic"]
    monkeypatch.setattr(sem, "find_model", real)  # the model is back
    monkeypatch.setattr(sem, "_ENCODERS", {})
    code, run = answer_fast(argv)
    if code is None:
        code = main(argv, kept=run)
    data = json.loads(capsys.readouterr().out)
    assert "unavailable" not in data
    assert all("semantic" in hit["sources"] for hit in data["results"])  # ranked by meaning again


# -- one damaged byte anywhere in the cache ------------------------------------------------


def _cold_process_state(monkeypatch) -> None:
    """What a new process starts with: no open caches, no loaded model, nothing kept pending."""
    base_cache.forget_open_caches()
    monkeypatch.setattr(sem, "_ENCODERS", {})


def _run(capsys, monkeypatch, store: Path) -> tuple:
    """(check's exit code and findings, retrieve's ranked paths, eval's verdict) as the entry
    point runs them (`replay` and the fast path first), with what they printed on stderr."""
    _cold_process_state(monkeypatch)
    argv = ["check", str(store), "--format", "json"]
    code, run = replay.begin(argv)
    code = main(argv, kept=run) if code is None else code
    out, err = capsys.readouterr()
    findings = sorted((f["check"], f["path"], f.get("line"), f["message"]) for f in json.loads(out)["findings"])
    _cold_process_state(monkeypatch)
    argv = ["retrieve", "rebase fixups worker pool", str(store), "--format", "json"]
    rcode, run = answer_fast(argv)
    rcode = main(argv, kept=run) if rcode is None else rcode
    out2, err2 = capsys.readouterr()
    ranked = [(h["path"], h["rank"], sorted(h["sources"])) for h in json.loads(out2)["results"]]
    return (code, findings, rcode, ranked), err + err2


@pytest.mark.slow
def test_one_damaged_byte_in_any_cache_file_changes_no_verdict(make_store, capsys, semantic_on, monkeypatch):
    monkeypatch.setattr(kept, "RACY_SLACK_NS", -3600 * 10**9)  # keep what these seconds-old files made
    store = make_store({**FILES, "memory-index.md": "# Memory Index\n\n| Keywords | File |\n|---|---|\n"
                        "| rebase fixup | [git/rebase](git/rebase.md) |\n"}, "memories")
    clean, err = _run(capsys, monkeypatch, store)  # fills every cache
    assert _run(capsys, monkeypatch, store)[0] == clean  # warm: the same
    pristine = cache_dir().with_name("pristine")
    shutil.copytree(cache_dir(), pristine)
    files = sorted(p.relative_to(pristine) for p in pristine.rglob("*") if p.is_file())
    assert any(f.name.startswith("verified-") for f in files) and any(f.suffix == ".npy" for f in files)
    tried = 0
    for rel in files:
        size = (pristine / rel).stat().st_size
        for pos in sorted({0, size // 2, size - 1} - {-1}):
            shutil.rmtree(cache_dir())
            shutil.copytree(pristine, cache_dir())
            data = bytearray((cache_dir() / rel).read_bytes())
            data[pos] ^= 0xFF
            (cache_dir() / rel).write_bytes(bytes(data))
            got, err = _run(capsys, monkeypatch, store)
            assert got == clean, (str(rel), pos)
            assert "Traceback" not in err, (str(rel), pos, err[-500:])
            tried += 1
    assert tried >= 20
