"""The app's encoder reads in a process of its own (retrieval/reader_process.py): the same vectors
as in this process, its progress, one process a query, and a reader that cannot run is no loss."""

from __future__ import annotations

import io
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from curator.retrieval import reader_process as rp
from curator.retrieval import semantic as sem

np = pytest.importorskip("numpy")

TEXTS = ["Deploys go out from main after the checks pass.", "Size the pool to the workers.",
         "The webhook's signature is checked against the raw body, before it is parsed. " * 8, "x"]


def _encoders():
    encoder, why = sem.load_encoder()
    if encoder is None:
        pytest.skip(why)
    return encoder, sem.Encoder(*sem.find_model()).prepare(lean=True)


@given(st.lists(st.lists(st.integers(0, 2**32 - 1), max_size=40), max_size=12))
def test_a_group_of_id_rows_goes_through_the_pipe_frame_unchanged(rows):
    pipe = io.BytesIO()
    rp._send(pipe, rows)
    pipe.seek(0)
    assert rp.receive_rows(pipe) == rows


def test_a_cut_frame_is_the_end_of_input_not_a_wrong_row():
    pipe = io.BytesIO()
    rp._send(pipe, [[1, 2, 3]])
    with pytest.raises(EOFError):
        rp.receive_rows(io.BytesIO(pipe.getvalue()[:-2]))


def test_a_lean_encoder_reads_in_a_child_process_the_same_vectors_with_progress(monkeypatch):
    encoder, lean = _encoders()
    made = []
    monkeypatch.setattr(rp, "GROUP", 2)
    real = rp.Reader.__init__
    monkeypatch.setattr(rp.Reader, "__init__", lambda self, *a: (made.append(self), real(self, *a))[1])
    heard = []
    got = lean.encode(TEXTS, lambda done, total: heard.append((done, total)))
    assert np.allclose(got, encoder.encode(TEXTS), atol=1e-6)
    assert heard == [(0, 4), (2, 4), (4, 4)]  # 0 first: a search superseded while it waited stops there
    assert len(made) == 1 and made[0].proc.returncode == 0  # ended after the read
    assert lean._session is None and lean._reader is None  # nothing of the model kept here


def test_one_reader_process_serves_a_query_held_then_ends():
    _, lean = _encoders()
    with lean.holding():
        lean.encode(TEXTS[:2])
        first = lean._reader
        lean.encode(TEXTS[2:])
        assert lean._reader is first and first.proc.poll() is None  # the heads' reader reads the passages
        if hasattr(os, "getpriority"):  # it gives way to the app: a person typing comes first
            assert os.getpriority(os.PRIO_PROCESS, first.proc.pid) > os.getpriority(os.PRIO_PROCESS, 0)
    assert first.proc.returncode == 0 and lean._reader is None


def test_a_search_stopped_between_frames_keeps_its_reader_one_stopped_mid_frame_gets_a_new_one(monkeypatch):
    encoder, lean = _encoders()
    monkeypatch.setattr(rp, "GROUP", 1)

    def stop_at(at):
        def stop(done, total):
            if done == at:
                raise KeyboardInterrupt  # as lab_engines.Superseded does
        return stop

    with lean.holding():
        with pytest.raises(KeyboardInterrupt):
            lean.encode(TEXTS, stop_at(0))  # stopped before it read: the reader is left for the next search
        with pytest.raises(KeyboardInterrupt):
            lean.encode(TEXTS, stop_at(1))  # stopped between groups: its pipe is clean
        waited = lean._reader
        assert waited.alive
        gone, real = waited, rp._exactly

        def interrupted(inp, n):
            raise KeyboardInterrupt  # stopped while the child was answering: mid-frame

        monkeypatch.setattr(rp, "_exactly", interrupted)
        with pytest.raises(KeyboardInterrupt):
            lean.encode(TEXTS)
        monkeypatch.setattr(rp, "_exactly", real)
        assert not gone.alive and gone.proc.poll() is not None
        assert np.allclose(lean.encode(TEXTS[:2]), encoder.encode(TEXTS[:2]), atol=1e-6)
        assert lean._reader is not gone and not sem.Encoder._reader_failed


def test_a_reader_that_cannot_run_is_no_loss_the_encoder_reads_here(monkeypatch, tmp_path):
    encoder, lean = _encoders()
    monkeypatch.setattr(sem.Encoder, "_reader_failed", False)
    monkeypatch.setattr(rp, "CHILD", "curator.retrieval.no_such_module")
    assert np.allclose(lean.encode(TEXTS[:2]), encoder.encode(TEXTS[:2]), atol=1e-6)
    assert sem.Encoder._reader_failed  # not tried again in this process
    assert lean._session is None  # read here, let go after, as before


def test_a_reader_the_leaving_app_stops_ends_the_read_it_is_never_made_here(monkeypatch):
    from curator.base import children

    _, lean = _encoders()
    monkeypatch.setattr(sem.Encoder, "_reader_failed", False)
    monkeypatch.setattr(rp, "GROUP", 1)

    def leave(done, total):
        if done == 1:
            children.stop_all()  # as CuratorApp.exit does, between two groups

    with pytest.raises(children.Stopped):
        lean.encode(TEXTS, leave)
    assert not sem.Encoder._reader_failed and lean._session is None  # no session made in this process
    assert not children._RUNNING


def test_curator_retrieve_reads_in_a_child_and_leaves_the_encoder_as_it_was(make_store, monkeypatch, capsys):
    from curator.cli import main

    encoder, _ = _encoders()
    monkeypatch.delenv("CURATOR_NO_SEMANTIC", raising=False)
    monkeypatch.setattr(sem.Encoder, "_reader_failed", False)
    made = []
    real = rp.Reader.__init__
    monkeypatch.setattr(rp.Reader, "__init__", lambda self, *a: (made.append(self), real(self, *a))[1])
    root = make_store({f".serena/memories/topic-{i}.md": f"# Topic {i}\n\n{TEXTS[i % 3]}\n" for i in range(6)})
    assert main(["retrieve", "webhook signature raw body", str(root), "--format", "json"]) == 0
    assert "topic-2.md" in capsys.readouterr().out
    assert made and all(r.proc.poll() is not None for r in made)  # the passages read in a child, gone after
    assert not encoder.lean and encoder._session is None  # this process made no session
