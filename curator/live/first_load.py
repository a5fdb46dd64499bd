"""A large repository's first load, made by a process of its own (the app).

Why: the first load of a store reads every file, counts its tokens (tiktoken's tables), runs
every check cold and builds duplicate.topic's vectors — at 10,000 memories that left the app at
252 MB resident with nothing cached against 98 MB when the same store loads from its caches: the
transients of a cold run stay with the allocator. The child does the cold run, saves the caches
(the store cache, token counts, vectors) and exits, giving all of it back; the app then loads as
any later start does. Only a store with no usable store cache (none yet, or another curator's)
and at least FIRST_LOAD_FROM memory files goes there; a child that fails leaves the app to load
it, as before, and one the leaving app stops ends the load.

    python -m curator.live.first_load ROOT GIVEN    (progress lines: "FRACTION<TAB>WHAT")
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# memory files: a cold load of 2,500 synthetic memories stays well under the 300 MB the app may
# use; the child costs ~0.5 s of start-up, paid once per store
FIRST_LOAD_FROM = 3000
SHARE = 0.8  # of the progress bar: the child's run; the app's warm load is the rest


def wanted(layout, options) -> bool:
    """Whether the app should leave this first load to a child: the app counts tokens as the
    child would (its default counter, whose counts are kept in the user cache), loads with the
    config the child reads, and some memory source is large and has no store cache yet."""
    from ..base.cache import store_cache
    from ..base.tokens import TiktokenCounter

    if type(options.token_counter) is not TiktokenCounter or not options.use_cache \
            or os.environ.get("CURATOR_NO_CACHE") or not _own_config(layout, options.config):
        return False
    for spec in layout.memory_sources():
        root = Path(spec.root)
        # the app's own cache object, read once and reused by its load: empty when there is no
        # file, or one an older curator wrote (its parses are not reused: the load is cold)
        if root.is_dir() and not store_cache(root).entries and _at_least(root, FIRST_LOAD_FROM):
            return True
    return False


def _own_config(layout, config) -> bool:
    """Is `config` what the child loads with: none given, or a repository's (each of its stores
    reads its own), or the one store's own file (`--config` elsewhere: the app loads it itself)."""
    from ..base.config import ConfigError, load_config

    if config is None or not layout.single:
        return True
    try:
        return all(config == load_config(Path(spec.root)) for spec in layout.memory_sources())
    except ConfigError:
        return False


def _at_least(root: Path, n: int) -> bool:
    """Does `root` hold `n` markdown files or more (counting stops there; no folder link followed)?"""
    seen = 0
    for _folder, _dirs, files in os.walk(root):
        seen += sum(1 for f in files if f.endswith(".md"))
        if seen >= n:
            return True
    return False


def load_elsewhere(root: Path, given: str, progress) -> bool:
    """Run the first load of the repository at `root` in a child, relaying its progress to
    `progress(what, fraction)` on the first SHARE of the bar. True when it finished; Stopped
    when the app, leaving, ended it."""
    from ..base import children
    from ..base.cache import forget_open_caches

    def heard(text: str) -> None:
        fraction, _, what = text.partition("\t")
        try:
            progress(what, SHARE * min(1.0, max(0.0, float(fraction))))
        except ValueError:
            pass  # not a progress line

    try:
        return children.run(__name__, str(root), given, line=heard)
    finally:
        forget_open_caches()  # the empty cache objects `wanted` read: the load reads what the child saved


def main(argv: list[str]) -> int:
    from ..base.tokens import default_counter
    from ..model.loader import LoadOptions
    from ..model.sources import discover
    from . import semantic_embedder
    from .workbench import open_workbench

    root, given = Path(argv[0]), argv[1]

    def say(what: str, fraction: float) -> None:
        sys.stdout.write(f"{fraction:.3f}\t{what}\n")
        sys.stdout.flush()

    try:
        options = LoadOptions(given=given, token_counter=default_counter(), meaning=semantic_embedder)
        open_workbench(discover(root), options, progress=say).flush()
    except Exception:  # noqa: BLE001 - any failure: the app loads the store itself
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
