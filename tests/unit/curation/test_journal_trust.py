"""The journal is not trusted: a digest that is a path, a symlinked `.curator`, a malformed
entry, a lock that is a folder — each is refused or set aside in one line, never copies an
outside file into the store, never blocks every writer; and `--dry-run` writes nothing at all."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from curator.cli import main
from curator.curation import CurationError, apply_plan, history, journal, plan_prune, recover, undo
from curator.curation.quarantine import entries
from curator.model import load_store


def tree(root: Path) -> dict[str, bytes | str]:
    """Every file and link under root, .curator included (a dry run must not change any)."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            if p.is_symlink():
                out[rel] = "-> " + os.readlink(p)
            elif p.is_file():
                out[rel] = p.read_bytes()
            else:
                out[rel] = "dir"
    return out


def store_files(root: Path) -> dict[str, bytes]:
    return {k: v for k, v in tree(root).items() if not k.startswith(".curator") and isinstance(v, bytes)}


def applied_prune(root: Path) -> journal.Entry:
    apply_plan(root, plan_prune(load_store(root)))
    return entries(root)[-1]


def rewrite_meta(entry: journal.Entry, **changes) -> None:
    """Change an entry and seal it again with this user's key: what follows tests the checks
    behind the seal (as if the key had leaked), not the seal itself."""
    meta = json.loads((entry.path / "meta.json").read_text())
    meta.update(changes)
    entry.meta = meta
    entry.save()


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, " ".join(out.split(" \n")), err  # a narrow terminal wraps a long line after a space


@pytest.mark.parametrize("digest", ["../../../../secret.txt", "/SECRET", "a" * 63 + "/"])
def test_a_digest_that_is_a_path_never_copies_an_outside_file_in(sample_copy, tmp_path, digest):
    secret = tmp_path / "secret.txt"
    secret.write_bytes(b"outside the store\n")
    entry = applied_prune(sample_copy)
    files = entry.meta["files"]
    files[0]["before"] = str(secret) if digest == "/SECRET" else digest
    rewrite_meta(entry, files=files)
    after_apply = store_files(sample_copy)
    with pytest.raises(CurationError):
        undo(sample_copy)
    assert store_files(sample_copy) == after_apply
    assert not any(b"outside the store" in v for v in store_files(sample_copy).values())
    assert (sample_copy / ".curator" / "quarantine").is_dir()  # set aside, not deleted


def test_a_blob_that_does_not_match_its_digest_is_refused(sample_copy):
    entry = applied_prune(sample_copy)
    digest = entry.meta["files"][0]["before"]
    (entry.path / "blobs" / digest).write_bytes(b"tampered\n")
    after_apply = store_files(sample_copy)
    with pytest.raises(CurationError, match="altered"):
        undo(sample_copy)
    assert store_files(sample_copy) == after_apply


def test_a_blob_that_is_a_symlink_to_an_outside_file_is_refused(sample_copy, tmp_path):
    entry = applied_prune(sample_copy)
    digest = entry.meta["files"][0]["before"]
    blob = entry.path / "blobs" / digest
    outside = tmp_path / "outside.md"
    outside.write_bytes(blob.read_bytes())  # even with the right bytes: never read through a link
    blob.unlink()
    blob.symlink_to(outside)
    with pytest.raises(CurationError, match="lost the saved copy"):
        undo(sample_copy)


@pytest.mark.parametrize("part", [".curator", ".curator/journal"])
def test_a_symlinked_curator_folder_is_refused_and_nothing_is_written_outside(sample_copy, tmp_path, capsys, part):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    if part == ".curator/journal":
        (sample_copy / ".curator").mkdir()
    (sample_copy / part).symlink_to(outside, target_is_directory=True)
    for argv in (["prune", str(sample_copy)], ["fix", str(sample_copy), "--dry-run"], ["undo", str(sample_copy)]):
        code, _, err = run(capsys, *argv)
        assert code == 2 and "symlink" in err and "Traceback" not in err, argv
        assert len(err.strip().splitlines()) == 1
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("damage", ["no-state", "meta-is-a-list", "missing-blob", "stray-folder", "stray-file",
                                    "lock-is-a-folder", "bad-json", "path-outside"])
def test_a_malformed_journal_is_set_aside_in_one_line_and_writers_go_on(sample_copy, capsys, damage):
    entry = applied_prune(sample_copy)
    jdir = sample_copy / ".curator" / "journal"
    if damage == "no-state":
        meta = dict(entry.meta)
        meta.pop("state")
        (entry.path / "meta.json").write_text(json.dumps(meta))
    elif damage == "meta-is-a-list":
        (entry.path / "meta.json").write_text("[1, 2]")
    elif damage == "missing-blob":
        entry.set_state("pending")  # as after a crash: recovery needs the blobs
        for blob in (entry.path / "blobs").iterdir():
            blob.unlink()
    elif damage == "stray-folder":
        (jdir / "notes").mkdir()
    elif damage == "stray-file":
        (jdir / "README").write_text("hello")
    elif damage == "lock-is-a-folder":
        (sample_copy / ".curator" / "lock").unlink(missing_ok=True)
        (sample_copy / ".curator" / "lock").mkdir()
    elif damage == "bad-json":
        (entry.path / "meta.json").write_text("{not json")
    elif damage == "path-outside":
        files = entry.meta["files"]
        files[0]["path"] = "../../outside.md"
        rewrite_meta(entry, files=files)
    code, out, err = run(capsys, "fix", str(sample_copy), "--format", "json")
    assert "Traceback" not in err
    assert code == 0, err
    if damage not in ("lock-is-a-folder",):
        assert "quarantine" in err and all(len(line) < 300 for line in err.splitlines())
    # and the next writer is not blocked
    code, _, err = run(capsys, "fix", str(sample_copy), "--format", "json")
    assert code == 0 and "quarantine" not in err
    history(sample_copy)  # never a traceback either


def test_dry_run_writes_nothing_even_with_recovery_pending(sample_copy, capsys):
    entry = applied_prune(sample_copy)
    entry.set_state("pending")  # a crash left it: a real writer would roll it back
    before = tree(sample_copy)
    code, _, err = run(capsys, "fix", str(sample_copy), "--dry-run")
    assert code == 2 and "waiting to be rolled back" in err
    assert tree(sample_copy) == before
    code, _, err = run(capsys, "prune", str(sample_copy), "--dry-run")
    assert tree(sample_copy) == before


def test_dry_run_on_a_store_never_written_creates_no_curator_folder(sample_copy, capsys):
    before = tree(sample_copy)
    code, out, _ = run(capsys, "fix", str(sample_copy), "--dry-run")
    assert code == 0 and "dry run" in out
    assert tree(sample_copy) == before


def test_history_and_undo_print_titles_as_text_and_show_a_pending_entry(sample_copy, capsys):
    entry = applied_prune(sample_copy)
    rewrite_meta(entry, title="[/] [bold]not markup[/bold] [red")
    code, out, err = run(capsys, "history", str(sample_copy))
    assert code == 0 and "[/] [bold]not markup[/bold] [red" in out
    code, out, err = run(capsys, "undo", str(sample_copy))
    assert code == 0 and "[/] [bold]not markup" in out
    entry = applied_prune(sample_copy)
    entry.set_state("pending")
    code, out, err = run(capsys, "history", str(sample_copy))
    assert code == 0 and "pending" in out


def test_recovery_quarantines_a_pending_entry_it_cannot_verify_and_keeps_the_files(sample_copy):
    entry = applied_prune(sample_copy)
    entry.set_state("pending")
    files_now = store_files(sample_copy)
    for blob in (entry.path / "blobs").iterdir():
        blob.write_bytes(b"garbage")
    done = recover(sample_copy)
    assert list(done) == [] and any("check its files by hand" in n for n in done.notes)
    assert store_files(sample_copy) == files_now  # nothing restored from blobs it cannot trust
