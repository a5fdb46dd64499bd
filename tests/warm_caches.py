"""What every xdist worker would otherwise make for itself on a fresh checkout (CI's clone), made
once by the main process before the workers start: curator's and the tests' bytecode, the tests'
assertion-rewritten bytecode, and Hypothesis's cache of the constants in curator's source. Each
worker found none and made all of them, six at once: a fresh clone's workers spent ~32 s more CPU
collecting than on a second run, and each property test's first example read curator's source for
its constants (~2 s a worker). On a checkout that has them, this only looks (a stat a file).

Nothing here changes what a test runs or asserts: these are caches each process would fill the
same way. It reaches into pytest's assertion rewriter and Hypothesis's constants cache, which are
not public: should either change, this does nothing and the workers make their own again."""

from __future__ import annotations

import compileall
import hashlib
import re
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def warm(config) -> None:
    """Fill the three caches under curator/ and tests/ (each step alone gives up on an error)."""
    for step in (_bytecode, _rewritten_tests, _hypothesis_constants):
        try:
            step(config)
        except Exception:  # a cache left for the workers to make, as before
            pass


def _bytecode(config) -> None:
    """Plain bytecode: curator, and the tests' helper modules (pytest rewrites the test modules
    themselves and reads its own file for them: `_rewritten_tests`)."""
    for folder in (ROOT / "curator", ROOT / "tests"):
        compileall.compile_dir(folder, quiet=2, workers=1, rx=re.compile(r"(^|[/\\])test_[^/\\]*\.py$"))


def _rewritten_tests(config) -> None:
    """The pyc pytest's import hook writes for a test module or a conftest (`…-pytest-<v>.pyc`),
    written as the hook writes it, where the hook looks for it."""
    from _pytest.assertion import rewrite

    state = config.stash[rewrite.assertstate_key]
    for fn in sorted((ROOT / "tests").rglob("*.py")):
        if not (fn.name.startswith("test_") or fn.name == "conftest.py"):
            continue
        pyc = rewrite.get_cache_dir(fn) / (fn.name[:-3] + rewrite.PYC_TAIL)
        if pyc.exists() and pyc.stat().st_mtime_ns >= fn.stat().st_mtime_ns:
            continue  # the hook still checks its stamp (the source's time and size) when it reads it
        if not rewrite.try_makedirs(pyc.parent):
            continue
        source_stat, co = rewrite._rewrite_test(fn, config)
        rewrite._write_pyc(state, co, source_stat, pyc)


def _hypothesis_constants(config) -> None:
    """Hypothesis keeps the constants of each local module's source under its storage folder, by
    the source's hash; a module without an entry is read (parsed, walked) by the first property
    test of each process."""
    from hypothesis.configuration import storage_directory
    from hypothesis.internal.constants_ast import constants_from_module, is_local_module_file

    cache = storage_directory("constants", intent_to_write=False).path
    for path in sorted((ROOT / "curator").rglob("*.py")):
        if not is_local_module_file(str(path)):
            continue
        if (cache / hashlib.sha1(path.read_bytes()).hexdigest()[:16]).exists():
            continue
        module = types.ModuleType(path.stem)
        module.__file__ = str(path)
        constants_from_module(module)  # reads the source and writes its entry
