"""What a load of a store read or listed, as stat keys: the signature a kept result of that
store (`checks/replay.py`, `retrieval/fast.py`) is answered again under (`base.kept.unchanged`).

It follows the loader's own rules — every folder it lists (hidden names but `.serena` skipped,
`exclude` honoured, `include` folders walked), every memory file, the config file — and notes
what discovery and the config lookup asked about (`.curator.yaml` up to the repository root,
`.git`, `.serena`, `.claude`, `docs/*-experience`), present or absent."""

from __future__ import annotations

import os

from ..base.kept import stat_key
from ..base.paths import is_within

EXPERIENCE = ("docs/error-experience", "docs/good-experience")


def store_signature(store, settled_ns: int, extra: tuple[str, ...] = (), watched: tuple[str, ...] = ()):
    """(stat keys, presence) of every memory file and folder a load of `store` read or listed,
    and of what the config lookup and discovery asked about (plus the paths `extra`, stated too,
    and `watched`, stated where they are and noted absent where not); None when racy (anything
    changed at or after `settled_ns`, `Run.settled`) or a symbolic link."""
    limit = settled_ns
    stats: dict[str, tuple] = {}
    presence: dict[str, bool] = {}

    def note(path: str) -> bool:
        try:
            st = os.lstat(path)
        except OSError:
            return False
        if st.st_mtime_ns >= limit or st.st_ctime_ns >= limit or (st.st_mode & 0o170000) == 0o120000:
            return False  # changed during the run (or too recently to tell), or a symbolic link
        stats[path] = stat_key(st)
        return True

    root = os.path.abspath(store.root)
    cfg = store.config
    if not _walk(root, "", cfg, note):
        return None
    real_root = os.path.realpath(root)
    for inc in cfg.include:
        path = os.path.normpath(os.path.join(root, inc))
        if not os.path.lexists(path):
            presence[path] = False
            continue
        real = os.path.realpath(path)
        if os.path.isdir(real) and not is_within(real, real_root) and not is_within(real_root, real):
            if not _walk(path, inc.rstrip("/"), cfg, note):  # the loader walks it too
                return None
        elif not note(path):  # overlapping the store, or not a folder: the loader skips it
            return None
    for rec in store.records.values():
        if not note(os.path.abspath(rec.abspath)):
            return None
    source = getattr(cfg, "source", None)
    if source is not None and not note(os.path.abspath(source)):
        return None
    _asked(root, presence)
    for path in extra:
        if not note(os.path.abspath(path)):
            return None
    for path in map(os.path.abspath, watched):
        if not os.path.lexists(path):
            presence[path] = False
        elif not note(path):
            return None
    return tuple(stats.items()), tuple(presence.items())


def _asked(root: str, presence: dict[str, bool]) -> None:
    """What discovery and the config lookup asked about: the store's own markers, and each
    folder's `.curator.yaml` and `.git` up to the repository."""
    for name in (".serena", ".claude", ".curator.yaml", *EXPERIENCE):
        presence.setdefault(os.path.join(root, name), os.path.lexists(os.path.join(root, name)))
    parent = os.path.realpath(root)
    while True:
        up = os.path.dirname(parent)
        if up == parent:
            break
        parent = up
        for name in (".curator.yaml", ".git"):
            path = os.path.join(parent, name)
            presence[path] = os.path.lexists(path)
        if presence[os.path.join(parent, ".git")]:
            break


def _walk(base: str, prefix: str, cfg, note) -> bool:
    """Note every folder the loader lists below `base` (its rules: hidden names but `.serena`
    skipped, `exclude` honoured). False on a symbolic link or a folder that changed."""
    stack = [(base, prefix)]
    while stack:
        folder, rel_folder = stack.pop()
        if not note(folder):
            return False
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return False
        for entry in entries:
            if entry.name.startswith(".") and entry.name != ".serena":
                continue
            rel = f"{rel_folder}/{entry.name}" if rel_folder else entry.name
            if cfg.is_excluded(rel):
                continue
            if entry.is_symlink():
                return False
            if entry.is_dir(follow_symlinks=False):
                stack.append((entry.path, rel))
    return True
