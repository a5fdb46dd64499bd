"""Shared fixtures. Tests never read the developer's config or cache: XDG folders go to tmp."""

from __future__ import annotations

import gc
import itertools
import os
import shutil
import sys
from pathlib import Path

import pytest

# Bytecode is kept even where PYTHONDONTWRITEBYTECODE is set (as bench/run.py keeps it): without it
# every xdist worker rewrites and compiles every test module on every run (~6 s of CPU a worker)
# and every `python -m curator` a test starts compiles curator again (~0.35 s each)
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# one BLAS thread, as `python -m curator` sets before numpy loads (curator/__main__.py): the tests
# run the commands in-process, and on a busy machine a thread pool waking for each small matrix
# took 4x the CPU (a one-shot query's numpy embedding 0.5 s instead of 0.13 s, load ~9); set
# before anything imports numpy, and inherited by every child a test starts
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
# A worker lives for the whole suite and every Pilot test leaves a dead app's cycles behind: at
# the default thresholds the cyclic collector took ~10% of a Pilot test's CPU (3.8 s of 36 s on
# test_app + test_view_after_write), at these 1.3 s. Nothing a test asserts depends on when a
# cycle is collected; the app and the CLI keep their own settings.
gc.set_threshold(20_000, 50, 100)

from hypothesis import HealthCheck, settings  # noqa: E402

from curator.base.locations import sample_repository, sample_store  # noqa: E402  (after the switch above)
from tests.textual_patches import parse_css_once, skip_unread_frames  # noqa: E402

# No per-example deadline and no too-slow health check anywhere: on two cores shared by four
# workers (and, in CI, a pip install) an example's time says nothing about the code, and deadlines
# failed runs at random (the date styles of test_memory_fixes, the fusion scores). Tests that bound
# time or memory (bounded parsing) measure it themselves.
settings.register_profile("curator", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("curator")

SAMPLE = sample_store()
SAMPLE_REPO = sample_repository()


def pytest_xdist_auto_num_workers(config):
    """`-n auto` (the README's `pytest`): three workers a core. Part of the suite waits without
    working — Textual's Pilot sleeps in 20 ms slices until the process is idle after every key and
    pause, subprocess tests wait on their child — so with one worker a core the cores sat idle a
    quarter of the time (433 s of CPU in 323 s on 2 cores). On 2 idle cores: 3 workers 201 s
    wall, 4 workers 176 s. On the same 2 cores shared with other work (load 2-5), two pairs back
    to back, in both orders: 4 workers 232 s and 240 s, 6 workers 207 s and 202 s (and less CPU:
    378+45 s and 392+61 s against 355+32 s and 348+33 s). PYTEST_XDIST_AUTO_NUM_WORKERS still
    decides when set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return 3 * cores


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """In xdist's main process, before it starts the workers (its own `pytest_sessionstart` runs
    last): the caches each worker would otherwise make for itself on a fresh checkout."""
    config = session.config
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        from tests.warm_caches import warm

        warm(config)


def pytest_collection_modifyitems(config, items):
    """Slow tests first: with xdist one worker takes each while the others run the rest, so the
    suite does not end waiting on a minute-long test started last."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: the rest keep their order


@pytest.fixture(scope="session")
def _homes(tmp_path_factory):
    """(the folder of every test's user folders, a counter naming the next): `mktemp("home")` for
    each test listed and parsed every name already in the worker's temporary folder to number the
    new one, so the n-th test of a process read n names (~1 s of CPU over the unit tests in one
    process, `-n0`; a few hundredths of a second a worker under xdist)."""
    return tmp_path_factory.mktemp("homes"), itertools.count()


@pytest.fixture(autouse=True)
def _isolated_user_dirs(_homes):
    # a MonkeyPatch of its own: a test's `monkeypatch.undo()` (restoring what it patched
    # mid-test) never takes the isolation away — the journal key, caches and settings stay in tmp
    monkeypatch = pytest.MonkeyPatch()
    home = _homes[0] / f"home{next(_homes[1])}"
    home.mkdir()
    for var, sub in (
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_STATE_HOME", "state"),
    ):
        monkeypatch.setenv(var, str(home / sub))
    monkeypatch.setenv("CURATOR_CACHE_DIR", str(home / "cache" / "curator"))
    monkeypatch.delenv("CURATOR_CONFIG", raising=False)
    monkeypatch.delenv("CURATOR_TOKENS", raising=False)
    # CI set (as on the CI machine) turns off reading your own files and says so in the notes the
    # screens show: unset, a run reads the same on a laptop and in CI (tests wanting it pass env=)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("CURATOR_TODAY", "2026-11-20")  # fixed clock for TTLs and recency
    monkeypatch.setenv("NO_COLOR", "1")
    # Rich sizes a console from these when it is not a terminal: the same width whatever runs
    # the tests (a terminal, CI, an xdist worker)
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LINES", "40")
    # the app's file watcher is off (snapshots stay deterministic); tests that drive it give the
    # app their own event source (`app.watch_events`) or unset this
    monkeypatch.setenv("CURATOR_NO_WATCH", "1")
    # the semantic source is off unless a test turns it on (test_semantic.py and the retrieval
    # tests that read its ranks unset this): its background embedding would race snapshots
    # and Pilot tests that read a fused list, and lexical expectations stay what they test
    monkeypatch.setenv("CURATOR_NO_SEMANTIC", "1")
    # never pick up the developer's own Claude Code or Serena folders
    monkeypatch.setenv("HOME", str(home / "user"))
    # never the developer's transcripts; ~/.claude itself, so the context model reads no moved folder
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / "user" / ".claude"))
    monkeypatch.setenv("CURATOR_MANAGED_DIR", str(home / "managed"))  # nor this machine's managed policy
    yield
    monkeypatch.undo()


class _SharedSessionsOnImport:
    """Puts `_one_session_per_model_file` in place the moment onnxruntime is first imported, so the
    test that loads it first shares its sessions too (the shim was put in place by the next
    test's set-up: the cache-damage test, run first as a slow test, built 13 sessions, ~2 s of
    CPU). onnxruntime is never imported here (importing it costs every worker)."""

    searching = False

    def find_spec(self, name, path=None, target=None):
        if name != "onnxruntime" or self.searching:
            return None
        import importlib.util

        self.searching = True  # the search below asks every finder again, this one included
        try:
            spec = importlib.util.find_spec(name)
        finally:
            self.searching = False
        if spec is not None and spec.loader is not None:
            run = spec.loader.exec_module

            def exec_module(module, run=run):
                run(module)
                _one_session_per_model_file(module)
                if self in sys.meta_path:
                    sys.meta_path.remove(self)

            spec.loader.exec_module = exec_module
        return spec


def _one_session_per_model_file(ort) -> None:
    """onnxruntime's session for one version of a model file, with the same options, built once
    a worker (~0.2 s of CPU each; a dozen tests load the model afresh, as a new process does:
    `semantic._ENCODERS` emptied). A session only maps inputs to outputs; every test still
    verifies the model and reads its caches. Another file, a changed file (size, times, inode)
    or other options build a session of their own, and a file that fails to load is never kept."""
    if getattr(ort.InferenceSession, "_curator_tests", False):
        return
    real, made = ort.InferenceSession, {}

    def session(path, sess_options=None, *args, **kwargs):
        if not isinstance(path, (str, os.PathLike)) or args:
            return real(path, sess_options, *args, **kwargs)
        st = os.stat(path)
        opts = sess_options and (sess_options.intra_op_num_threads, sess_options.inter_op_num_threads,
                                 sess_options.graph_optimization_level, sess_options.log_severity_level)
        key = (os.fspath(path), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, opts,
               repr(sorted(kwargs.items())))
        if key not in made:
            made[key] = real(path, sess_options, **kwargs)
        return made[key]

    session._curator_tests = True
    ort.InferenceSession = session


if "onnxruntime" in sys.modules:
    _one_session_per_model_file(sys.modules["onnxruntime"])
else:
    sys.meta_path.insert(0, _SharedSessionsOnImport())


parse_css_once()
skip_unread_frames()


@pytest.fixture
def sample_copy(tmp_path) -> Path:
    """A private, writable copy of the bundled sample store."""
    dest = tmp_path / "memories"
    shutil.copytree(SAMPLE, dest, symlinks=True)
    return dest


@pytest.fixture
def sample_repo_copy(tmp_path) -> Path:
    """A private, writable copy of the bundled sample repository (Serena store, Claude Code
    memory folder, experience entries)."""
    dest = tmp_path / "sample_memories"
    shutil.copytree(SAMPLE_REPO, dest, symlinks=True)
    return dest


@pytest.fixture
def make_store(tmp_path):
    """Build a small store from {relative path: text or bytes}; returns its root."""

    from tests.files import write_tree

    def build(files: dict[str, str | bytes], name: str = "store") -> Path:
        return write_tree(tmp_path / name, files)

    return build
