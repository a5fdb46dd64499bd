"""Special files (FIFOs, sockets) in a store are never opened: each is one finding, skipped by
every command; `fix` works beside them and names them (it copied the whole store, FIFOs
included, and died with a raw shutil.Error)."""

from __future__ import annotations

import json
import os
import socket

import pytest

from curator.cli import main
from curator.curation.gate import Scratch
from curator.model import load_store

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


@pytest.fixture
def with_specials(sample_copy):
    os.mkfifo(sample_copy / "ci" / "pipe.md")
    os.mkfifo(sample_copy / "notes-fifo")
    (sample_copy / "ci" / "link.md").symlink_to("pipe.md")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sample_copy / "agent.sock"))
    yield sample_copy
    sock.close()


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, " ".join(err.split())


def test_each_special_file_is_one_finding_and_never_a_record(with_specials):
    store = load_store(with_specials)
    special = {f.path: f.message for f in store.load_findings if "never opened" in f.message}
    assert set(special) == {"ci/pipe.md", "notes-fifo", "ci/link.md", "agent.sock"}
    assert "FIFO" in special["ci/pipe.md"] and "socket" in special["agent.sock"]
    assert not set(special) & set(store.records)


@pytest.mark.parametrize("argv", [["check", "--format", "json"], ["tokens"], ["fix", "--dry-run"], ["prune", "--dry-run"]])
def test_every_command_skips_them(with_specials, capsys, argv):
    code, out, err = run(capsys, argv[0], str(with_specials), *argv[1:])
    assert code in (0, 1) and "Traceback" not in err and "shutil" not in err, err
    if argv[0] == "check":
        found = [f for f in json.loads(out)["findings"] if "never opened" in f["message"]]
        assert len(found) == 4


def test_fix_works_beside_a_fifo_and_names_it(with_specials, capsys):
    code, out, err = run(capsys, "fix", str(with_specials))
    assert code == 0 and "applied as" in out
    assert "skipped ci/pipe.md: a FIFO (named pipe)" in err and "Error" not in err


def test_the_gate_copies_only_the_records(with_specials):
    (with_specials / "big.bin").write_bytes(b"\0" * 100_000)
    store = load_store(with_specials)
    with Scratch(store) as scratch:
        copied = {str(p.relative_to(scratch.root)) for p in scratch.root.rglob("*") if p.is_file()}
    assert copied == {r for r in store.records if not r.startswith("../")}
