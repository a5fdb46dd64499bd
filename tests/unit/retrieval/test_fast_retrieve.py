"""`curator retrieve` on an unchanged store answers from the saved index and a kept state,
without loading the store — and only then: an edit (even one keeping size and mtime), an
addition, a deletion, a rename, a new config, another store, or a damaged kept file all take the
full path. Whatever the fast path prints is byte-identical to what the full path prints."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.base import kept
from curator.base.safeio import with_checksum, without_checksum
from curator.cli import main
from curator.cli.commands.retrieve import answer_fast
from curator.retrieval import fast

FILES = {
    "memory-index.md": (
        "# Memory Index\n\n[Git]\n|git rebase worktree hotfix: [skills-git-index](skills-git-index.md) (2)\n"
        "[Cache]\n|cache retry lock: [skills-cache-index](skills-cache-index.md) (2)\n"
    ),
    "skills-git-index.md": (
        "| Keywords | File |\n|---|---|\n"
        "| rebase squash fixup reword onto | [git/rebase](git/rebase.md) |\n"
        "| worktree hotfix checkout prune venv | [git/worktree](git/worktree.md) |\n"
    ),
    "skills-cache-index.md": (
        "| Keywords | File |\n|---|---|\n"
        "| cache invalidation stale ttl | [cache/stale](cache/stale.md) |\n"
        "| retry lock backoff contention | [cache/lock](cache/lock.md) |\n"
    ),
    "git/rebase.md": "# Rebase\n\nSquash the fixups before review; reword the messages.\n",
    "git/worktree.md": "# Worktree\n\nA second checkout for a hotfix, its own venv.\n",
    "cache/stale.md": "---\ndate: 2026-10-01\n---\n# Stale cache\n\nA ttl keeps the cache from going stale.\n",
    "cache/lock.md": "# Lock retry\n\nRetry with backoff when the lock is held; contention shows in the log.\n",
    "cache/lock-copy.md": "# Lock retry\n\nRetry with backoff when the lock is held; contention shows in the log.\n",
}
WORDS = ["rebase", "squash", "worktree", "hotfix", "cache", "stale", "ttl", "retry", "lock", "backoff",
         "review", "venv", "checkout", "contention", "log", "nothing", "messages"]
OPTIONS = [[], ["--format", "json"], ["--k", "2"], ["--source", "bm25"], ["--source", "route", "--format", "json"],
           ["--source", "prior", "--k", "7"], ["--source", "fused-lexical", "--format", "json"]]


@pytest.fixture
def trusting(monkeypatch):
    """Files written by the test are seconds old; let the racy rule trust them."""
    monkeypatch.setattr(kept, "RACY_SLACK_NS", -3600 * 10**9)


def retrieve(capsys, *argv: str) -> tuple[bool, int, str]:
    """(answered fast, exit code, stdout) of one `curator retrieve` as the entry point runs it."""
    argv = ["retrieve", *argv]
    code, run = answer_fast(argv)  # as the entry point: the run it opens is handed to the command
    answered = code is not None
    if not answered:
        code = main(argv, kept=run)
    return answered, code, capsys.readouterr().out


def full(capsys, *argv: str) -> tuple[int, str]:
    """The full path only (nothing kept: the entry point did not start this run)."""
    code = main(["retrieve", *argv])
    return code, capsys.readouterr().out


def test_an_unchanged_store_is_answered_fast_with_the_same_bytes(capsys, make_store, trusting):
    root = make_store(FILES)
    first = retrieve(capsys, "cache retry lock", str(root))
    again = retrieve(capsys, "cache retry lock", str(root))
    assert not first[0] and again[0]
    assert again[1:] == first[1:]
    assert "cache/lock" in again[2]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=4), options=st.sampled_from(OPTIONS))
def test_fast_and_full_print_the_same_for_any_query_and_option(capsys, make_store, trusting, words, options):
    root = make_store(FILES)
    query = " ".join(words)
    retrieve(capsys, "warm up", str(root))  # keeps the state (or finds it kept)
    answered, code, out = retrieve(capsys, query, *options, str(root))
    assert answered
    assert (code, out) == full(capsys, query, *options, str(root))


def test_options_may_sit_between_query_and_store(capsys, make_store, trusting):
    root = make_store(FILES)
    retrieve(capsys, "lock", str(root))
    answered, code, out = retrieve(capsys, "lock", "--source", "bm25", str(root), "--format=json")
    assert answered and (code, out) == full(capsys, "lock", "--source", "bm25", str(root), "--format=json")
    answered, _, out2 = retrieve(capsys, "lock", "--store", str(root), "--format", "json")
    assert answered and out2 == full(capsys, "lock", "--store", str(root), "--format", "json")[1]


def _same_size_same_mtime_edit(root: Path) -> None:
    path = root / "git" / "rebase.md"
    st = path.stat()
    path.write_text(path.read_text().replace("Squash", "Retry"))  # same size, a query word now
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # only the ctime tells


def _add(root: Path) -> None:
    (root / "cache" / "retry-budget.md").write_text("# Retry budget\n\nRetry a lock three times.\n")


def _delete(root: Path) -> None:
    (root / "cache" / "lock.md").unlink()


def _rename(root: Path) -> None:
    (root / "cache" / "lock.md").rename(root / "cache" / "lock-retry.md")


def _config(root: Path) -> None:
    (root / ".curator.yaml").write_text("retrieval:\n  k: 2\n")


@pytest.mark.parametrize("change", [_same_size_same_mtime_edit, _add, _delete, _rename, _config])
def test_a_change_after_the_state_was_kept_takes_the_full_path(capsys, make_store, trusting, change):
    root = make_store(FILES)
    retrieve(capsys, "retry lock", str(root))
    assert retrieve(capsys, "retry lock", str(root))[0]
    change(root)
    answered, code, out = retrieve(capsys, "retry lock", str(root), "--format", "json")
    assert not answered
    assert (code, out) == full(capsys, "retry lock", str(root), "--format", "json")
    # the full run kept a new state: the changed store is then answered fast, and right
    assert retrieve(capsys, "retry lock", str(root), "--format", "json") == (True, code, out)


def test_an_edit_in_the_run_s_timestamp_tick_is_never_kept(capsys, make_store):
    root = make_store(FILES)  # just written: newer than the run's start minus the slack
    assert not retrieve(capsys, "retry lock", str(root))[0]
    assert not retrieve(capsys, "retry lock", str(root))[0]


def test_another_day_takes_the_full_path(capsys, make_store, trusting, monkeypatch):
    root = make_store(FILES)
    retrieve(capsys, "stale cache", str(root), "--source", "prior")
    assert retrieve(capsys, "stale cache", str(root), "--source", "prior")[0]
    monkeypatch.setenv("CURATOR_TODAY", "2027-03-01")  # the dated memory's recency changes
    answered, code, out = retrieve(capsys, "stale cache", str(root), "--source", "prior")
    assert not answered and (code, out) == full(capsys, "stale cache", str(root), "--source", "prior")


def test_two_stores_never_share_a_state(capsys, make_store, trusting):
    a = make_store(FILES, name="a")
    b = make_store(FILES, name="b")
    retrieve(capsys, "retry lock", str(a))
    assert retrieve(capsys, "retry lock", str(a))[0]
    assert not retrieve(capsys, "retry lock", str(b))[0]  # identical files, its own state
    _delete(a)
    assert retrieve(capsys, "retry lock", str(b))[0]
    answered, _, out = retrieve(capsys, "retry lock", str(a), "--format", "json")
    assert not answered and "cache/lock.md" not in out


def _state_files() -> list[Path]:
    folder = Path(os.environ["CURATOR_CACHE_DIR"]) / "retrieval" / "fast"
    return sorted(folder.glob("*.marshal"))


@pytest.mark.parametrize("damage", [b"", b"not marshal at all", b"\xe9\x00\x00"])
def test_a_damaged_state_falls_back_without_a_traceback(capsys, make_store, trusting, damage):
    root = make_store(FILES)
    first = retrieve(capsys, "retry lock", str(root))
    [state] = _state_files()
    state.write_bytes(damage)
    again = retrieve(capsys, "retry lock", str(root))
    assert again == (False, *first[1:])


def test_a_foreign_state_layout_falls_back(capsys, make_store, trusting):
    import marshal

    root = make_store(FILES)
    first = retrieve(capsys, "retry lock", str(root))
    [state] = _state_files()
    data = marshal.loads(without_checksum(state.read_bytes()))
    data["records"] = [("x",)]  # right key, wrong shape
    state.write_bytes(with_checksum(marshal.dumps(data)))  # well formed: the check behind the checksum
    assert retrieve(capsys, "retry lock", str(root)) == (False, *first[1:])


def test_a_damaged_saved_index_falls_back(capsys, make_store, trusting):
    from curator.retrieval import persist

    root = make_store(FILES)
    first = retrieve(capsys, "retry lock", str(root))
    for f in persist.folder_for(root).glob("data-*.npy"):
        f.write_bytes(b"\x93NUMPY broken")
    assert retrieve(capsys, "retry lock", str(root)) == (False, *first[1:])
    assert retrieve(capsys, "retry lock", str(root)) == (True, *first[1:])  # rebuilt, kept again


def test_a_new_generation_of_the_index_is_not_mixed_with_an_old_state(capsys, make_store, trusting):
    from curator.retrieval import persist

    root = make_store(FILES)
    first = retrieve(capsys, "retry lock", str(root))
    persist.forget(root)
    assert retrieve(capsys, "retry lock", str(root)) == (False, *first[1:])


@pytest.mark.parametrize("argv", [
    ["retrieve", "q", "S", "--why", "a.md"], ["retrieve", "q", "S", "--semantic"], ["retrieve", "q", "S", "--source", "semantic"],
    ["retrieve", "q", "S", "--source", "claude"], ["retrieve", "q", "S", "--config", "c.yaml"], ["retrieve", "q"],
    ["retrieve", "q", "S", "--k", "0"], ["retrieve", "q", "S", "--k", "x"], ["retrieve", " ", "S"], ["retrieve", "q", "S", "-h"],
    ["retrieve", "q", "S", "--sou", "bm25"], ["retrieve", "q", "S", "--format", "sarif"], ["retrieve", "q", "S", "--k"],
    ["retrieve", "q", "S", "extra"], ["retrieve", "q", "S", "--store", "T"], ["check", "S"], [],
])
def test_options_the_fast_path_does_not_serve_go_to_the_full_parser(argv):
    assert fast.parse(argv) is None


def test_a_repository_with_several_sources_takes_the_full_path(capsys, sample_repo_copy, trusting):
    first = retrieve(capsys, "memory", str(sample_repo_copy))
    assert retrieve(capsys, "memory", str(sample_repo_copy)) == (False, *first[1:])


def test_transcripts_found_keep_no_state(capsys, make_store, trusting, monkeypatch):
    root = make_store(FILES)
    retrieve(capsys, "retry lock", str(root))
    assert retrieve(capsys, "retry lock", str(root))[0]
    projects = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects"
    (projects / "some-project").mkdir(parents=True)  # a transcript root appears: not the state's world
    assert not retrieve(capsys, "retry lock", str(root))[0]


@pytest.mark.parametrize("semantic", [False, True])
def test_the_fast_path_imports_no_heavy_module(make_store, tmp_path, semantic):
    """Lexical: nothing heavy. With the semantic source: numpy for the query's vector, and never
    onnxruntime (the query is embedded from the int8 file itself: minilm_numpy.py)."""
    import subprocess
    import sys

    root = make_store(FILES)
    code = (
        "import sys; from curator.base import kept; kept.RACY_SLACK_NS = -3600 * 10**9\n"
        "from curator.cli.commands.retrieve import answer_fast\n"
        f"argv = ['retrieve', 'retry lock', {str(root)!r}, '--format', 'json']\n"
        "code, run = answer_fast(argv)\n"
        "answered = code is not None\n"
        "if not answered:\n"
        "    from curator.cli import main; main(argv, kept=run)\n"
        "heavy = [m for m in ('numpy', 'onnxruntime', 'tiktoken', 'textual', 'rich.console', 'curator.base.tokens')\n"
        "         if m in sys.modules]\n"
        "print('FAST', answered, heavy, file=sys.stderr)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CURATOR_NO_SEMANTIC"}
    if not semantic:
        env["CURATOR_NO_SEMANTIC"] = "1"
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env)
            for _ in range(2)]
    assert "FAST False" in runs[0].stderr, runs[0].stderr
    assert ("FAST True ['numpy']" if semantic else "FAST True []") in runs[1].stderr, runs[1].stderr


def test_a_state_kept_on_another_day_is_not_used(capsys, make_store, trusting):
    import marshal

    root = make_store(FILES)
    first = retrieve(capsys, "stale cache", str(root), "--source", "prior")
    [state] = _state_files()
    data = marshal.loads(without_checksum(state.read_bytes()))
    data["today"] = "2026-01-01"  # kept just before midnight: same key, another day's recency
    state.write_bytes(with_checksum(marshal.dumps(data)))  # well formed: the check behind the checksum
    assert retrieve(capsys, "stale cache", str(root), "--source", "prior") == (False, *first[1:])
