"""Prune or archive records past their tier's TTL, older than an age, or beyond a count."""

from __future__ import annotations

from datetime import date, timedelta

from ..model.store import Store
from .draft import Draft
from .plan import CurationError, NothingToDo, Plan
from .routes import archive_path, drop_routes, recount_routes


def prune_candidates(
    store: Store, tier: str | None = "transient", older_than: int | None = None, keep: int | None = None
) -> list[str]:
    """Records of a tier past its TTL (or `older_than` days), or beyond the newest `keep`."""
    ttl = store.config.ttl_days.get(tier or "transient", 30)
    days = older_than if older_than is not None else (None if keep is not None else ttl)
    recs = [r for r in store.records.values() if r.level == 2 and (tier is None or r.tier == tier)]
    if tier in (None, "semantic") and older_than is None and keep is None:
        raise CurationError("pruning semantic memories needs --older-than or --keep")
    chosen = set()
    if days is not None:
        cutoff = store.today - timedelta(days=days)
        for r in recs:
            try:
                if r.date and date.fromisoformat(r.date) < cutoff:
                    chosen.add(r.path)
            except ValueError:
                continue
    if keep is not None:
        dated = sorted(recs, key=lambda r: (r.date or "", r.path), reverse=True)
        chosen.update(r.path for r in dated[keep:])
    return sorted(chosen)


def plan_prune_paths(store: Store, paths: list[str], archive: bool = True) -> Plan:
    """Archive (into .curator/archive) or delete exactly these records."""
    if not paths:
        raise NothingToDo("nothing to prune", "prune")
    for path in paths:
        rec = store.records.get(path)
        if rec is None or rec.level != 2:
            raise CurationError(f"{path} is not a memory of this store")
    draft = Draft(store.root, "prune", f"{'archive' if archive else 'delete'} {len(paths)} record(s)", store)
    for path in sorted(paths):
        if archive:
            draft.move(path, archive_path(store.root, path))
        else:
            draft.delete(path)
    drop_routes(store, draft, sorted(paths))
    recount_routes(store, draft, store.counter)
    return draft.plan()


def plan_prune(
    store: Store,
    tier: str | None = "transient",
    older_than: int | None = None,
    keep: int | None = None,
    archive: bool = True,
) -> Plan:
    """Prune (archive, or delete) records of a tier past its TTL / an age, or beyond a count."""
    return plan_prune_paths(store, prune_candidates(store, tier, older_than, keep), archive)


def unused_candidates(
    store: Store, last_read: dict[str, str], days: int, tier: str | None = "transient", allow_semantic: bool = False
) -> list[str]:
    """Memories of a tier (None: every tier) not read in the last `days` days, by the transcripts'
    evidence (`last_read`: record path → ISO timestamp of its newest read), and at least that old
    themselves (a record from last week was not "unused for 90 days"; its age is its date, else
    its file time). Semantic memories only with `allow_semantic` — knowledge that is rarely read
    can still be the one that matters."""
    if tier in (None, "semantic") and not allow_semantic:
        raise CurationError("unused semantic memories are only pruned with an explicit --include-semantic")
    cutoff = store.today - timedelta(days=days)
    recs = [r for r in store.records.values() if r.level == 2 and (tier is None or r.tier == tier)]
    return sorted(r.path for r in recs
                  if last_read.get(r.path, "")[:10] <= cutoff.isoformat() and _born_by(r, cutoff))


def _born_by(rec, cutoff: date) -> bool:
    try:
        if rec.date:
            return date.fromisoformat(rec.date) <= cutoff
    except ValueError:
        pass
    try:
        return date.fromtimestamp(rec.abspath.stat().st_mtime) <= cutoff
    except OSError:
        return False
