"""duplicate.near across memory sources: the same knowledge kept in two of a repository's
sources (Serena and Claude memory, say). The session runs it after loading every source."""

from __future__ import annotations

from copy import copy
from dataclasses import replace
from pathlib import Path

from ..model.findings import Finding
from ..model.formats import SERENA
from ..model.store import Store
from .context import Context
from .duplicate_checks import run as run_duplicates
from .facts import facts_for


def cross_source_duplicates(root: Path, sources: list[tuple[str, str, Store]]) -> list[Finding]:
    """Near-duplicates between memories of different sources. `sources` is (name, path prefix,
    store) for each loaded source; paths in the findings are repository-relative."""
    owner: dict[str, str] = {}
    union = Store(root=root, given=str(root), config=sources[0][2].config, format=SERENA)
    for name, prefix, store in sources:
        for path, rec in store.records.items():
            shown = prefix + path
            owner[shown] = name
            union.records[shown] = _moved(rec, shown)
    ctx = Context(union, {"duplicate.near"})
    # each memory's facts as its own source's checks left them in that store's cache: under the
    # union's new names they were computed all over again (a third of a cold open of the sample)
    facts = {prefix + path: f for _name, prefix, store in sources
             for path, f in facts_for(Context(store, {"duplicate.near"})).items()}
    ctx.memo("facts", lambda: facts)
    run_duplicates(ctx)
    out = []
    for f in ctx.findings:
        a, b = owner.get(f.path), owner.get(f.target or "")
        if a is not None and b is not None and a != b:
            out.append(replace(f, message=f"{f.message} (kept in {a} and in {b})"))
    return out


def _moved(rec, path: str):
    """A shallow copy of a record under another path (records are slotted dataclasses)."""
    new = copy(rec)
    new.path = path
    return new
