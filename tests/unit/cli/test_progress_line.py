"""The progress line of a store's first `curator retrieve` (issue 32): on a terminal, one line on
stderr says how indexing and the first embedding go and is erased before the answer; piped or
with --format json, nothing."""

from __future__ import annotations

import io
import json

from curator.cli import main, progress
from curator.cli.progress import ERASE, ProgressLine, progress_line
from tests.fake_encoder import use_fake_encoder


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_line_waits_a_moment_then_overwrites_itself_and_is_erased():
    out, clock = io.StringIO(), Clock()
    line = ProgressLine(out, clock)
    line.indexing(10, 1000)  # a quick update shows nothing
    assert out.getvalue() == ""
    clock.now = 1.0
    line.indexing(430, 1000)
    line.indexing(431, 1000)  # the same percentage: not written again
    line(8, 117)  # the engine's `progress`: the first embedding
    assert out.getvalue() == (ERASE + "indexing 1,000 memories… 43%"
                              + ERASE + "embedding 8/117 texts… (the first time only; kept after)")
    line.close()
    assert out.getvalue().endswith(ERASE) and line.shown == ""
    line.close()  # closing twice writes nothing more
    assert out.getvalue().count(ERASE) == 3


def test_a_closed_terminal_never_fails_the_command():
    stream = io.StringIO()
    stream.close()
    line = ProgressLine(stream, lambda: 10.0)
    line.indexing(1, 2)  # ValueError on a closed stream: swallowed
    line.close()


def test_only_on_a_terminal_and_only_for_text(monkeypatch):
    monkeypatch.setattr("sys.stdout", Terminal())
    monkeypatch.setattr("sys.stderr", Terminal())
    assert isinstance(progress_line("text"), ProgressLine)
    assert progress_line("json") is None
    monkeypatch.setattr("sys.stdout", io.StringIO())  # `curator retrieve … > file`
    assert progress_line("text") is None
    monkeypatch.setattr("sys.stdout", Terminal())
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert progress_line("text") is None


def _store(make_store):
    files = {f"notes/topic-{i}.md": f"# Topic {i}\n\nThe cache retry lock of service {i} waits "
             f"{i} seconds.\n\n## More\n\n" + "Words about deploys and queues. " * 40 for i in range(30)}
    return make_store(files, "memories")


def _retrieve(monkeypatch, root, *extra):
    err, out = Terminal(), Terminal()
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stderr", err)
    code = main(["retrieve", "cache retry lock", str(root), *extra])
    return code, out.getvalue(), err.getvalue()


def test_first_retrieve_on_a_terminal_shows_indexing_and_embedding_then_erases(monkeypatch, make_store):
    use_fake_encoder(monkeypatch)
    monkeypatch.setattr(progress, "DELAY", 0.0)
    root = _store(make_store)
    code, out, err = _retrieve(monkeypatch, root)
    assert code == 0 and "topic-" in out
    assert "indexing 30 memories… 100%" in err
    assert "embedding 0/" in err  # as soon as the model starts loading, not after its first batch
    assert err.endswith(ERASE)  # nothing left on the line when the answer prints
    code, out, err = _retrieve(monkeypatch, root)  # the index is saved: nothing to say
    assert code == 0 and "topic-" in out and "indexing" not in err and "embedding" not in err


def test_json_or_a_pipe_gets_no_progress(monkeypatch, make_store):
    monkeypatch.setenv("CURATOR_NO_SEMANTIC", "1")
    monkeypatch.setattr(progress, "DELAY", 0.0)
    root = _store(make_store)
    code, out, err = _retrieve(monkeypatch, root, "--format", "json")
    assert code == 0 and json.loads(out)["results"] and "indexing" not in err
    out_pipe, err_tty = io.StringIO(), Terminal()
    monkeypatch.setattr("sys.stdout", out_pipe)
    monkeypatch.setattr("sys.stderr", err_tty)
    from curator.retrieval import persist

    persist.forget(root)  # built again, with stdout a pipe
    assert main(["retrieve", "cache retry lock", str(root)]) == 0
    assert "topic-" in out_pipe.getvalue() and "indexing" not in err_tty.getvalue()
