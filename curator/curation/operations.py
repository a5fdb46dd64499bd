"""The curation operations. Each returns a Plan; nothing is written until it is applied."""

from __future__ import annotations

import math
import re
from collections import Counter
from datetime import date, timedelta

import yaml

from ..checks.keyword_checks import row_uniqueness
from ..model.findings import Finding
from ..model.indexes import IndexLink, format_domain_row, format_l0_row
from ..model.store import Store
from ..model.vocabulary import STOPWORDS, content_words
from .draft import Draft, repoint, set_count
from .plan import CurationError, Plan
from .validate import memory_name

TRANSIENT_ONLY = ("date", "session_id", "agent", "task", "target", "status", "project", "completion", "severity")
ARCHIVE = ".curator/archive"


# -- meters ------------------------------------------------------------------------


def meter(store: Store, index: str, keywords: list[str], replacing_line: int | None = None):
    """Uniqueness of a would-be row in `index` and the rows (any index) it would collide with."""
    kws = frozenset(k.lower() for k in keywords)
    rows = store.domain_indexes[index].rows if index in store.domain_indexes else []
    others = [r.keyword_set for r in rows if r.line != replacing_line]
    uniqueness = row_uniqueness(kws, others) if others else 1.0
    collisions = []
    for path, idx_rows in store.all_indexes():
        for r in idx_rows:
            if path == index and r.line == replacing_line:
                continue
            shared = kws & r.keyword_set
            if len(shared) >= 2:
                collisions.append((path, r.line, sorted(shared)))
    collisions.sort(key=lambda c: -len(c[2]))
    return uniqueness, collisions


def suggest(store: Store, text: str, index: str | None = None, limit: int = 12) -> list[str]:
    """Distinctive words of a text that collide least with keywords already in the indexes."""
    taken: Counter = Counter()
    for path, rows in store.all_indexes():
        for r in rows:
            for k in r.keyword_set:
                taken[k] += 3 if path == index else 1
    counts = Counter(w for w in content_words(text) if w not in STOPWORDS and not w.isdigit() and len(w) < 30)
    df, n = _document_frequency(store)

    def score(kv):
        word, tf = kv
        idf = math.log(1 + n / (1 + df.get(word, 0)))  # words in every memory route nowhere
        return -(tf * idf / (1 + 2 * taken.get(word, 0))), word

    ranked = sorted(counts.items(), key=score)
    return [w for w, _ in ranked[:limit]]


def _document_frequency(store: Store) -> tuple[Counter, int]:
    cached = getattr(store, "_curation_df", None)
    if cached is None:
        df: Counter = Counter()
        mems = store.memories()
        for r in mems:
            df.update(set(content_words(r.text)))
        cached = (df, max(1, len(mems)))
        store._curation_df = cached  # derived once per loaded store
    return cached


# -- promote ---------------------------------------------------------------------------


def plan_promote(
    store: Store,
    src: str,
    dest: str,
    index: str,
    keywords: list[str] | None = None,
    source_action: str = "archive",
    today: date | None = None,
    counter=None,
) -> Plan:
    root = store.root
    rec = store.records.get(src)
    if rec is None:
        raise CurationError(f"{src} is not in the store")
    if rec.tier not in ("transient", "reflexion"):
        raise CurationError(f"{src} is {rec.tier}; only transient and reflexion records are promoted")
    if not rec.readable:
        raise CurationError(f"{src} cannot be read ({rec.error})")
    dest = memory_name(root, dest)
    if "/" not in dest:
        raise CurationError("give the memory a folder, like git/git-new-topic.md")
    if index not in store.domain_indexes:
        raise CurationError(f"{index} is not a domain index of this store")
    if source_action not in ("archive", "remove", "keep"):
        raise CurationError("source action must be archive, remove or keep")
    today = today or store.today
    draft = Draft(root, "promote", f"promote {src} → {dest}")

    meta = {k: v for k, v in rec.frontmatter.items() if k not in TRANSIENT_ONLY}
    source_date = None
    try:
        source_date = date.fromisoformat(rec.date) if rec.date else None
    except ValueError:
        pass
    meta = {"source": src, "source_date": source_date, "promoted": today, **meta}
    meta = {k: v for k, v in meta.items() if v not in (None, "")}
    front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True).strip()
    body = rec.body().lstrip("\n")
    # "# Validation: X" becomes "# X": the record is knowledge now, not a report
    body = re.sub(r"^(#\s+)(?:Validation|Reflection|Reflect|Session)\s*:\s*(\w)",
                  lambda m: m.group(1) + m.group(2).upper(), body, count=1, flags=re.I)
    content = f"---\n{front}\n---\n\n{body}" + ("" if body.endswith("\n") else "\n")
    draft.create(dest, content)

    kws = [k.lower() for k in (keywords or suggest(store, rec.text, index))]
    if not kws:
        raise CurationError("no keywords: give some with --keywords")
    draft.append_line(index, format_domain_row(kws, dest))
    u, collisions = meter(store, index, kws)
    draft.notes.append(f"row uniqueness {u:.0%}" + (f"; shares words with {collisions[0][0]}:{collisions[0][1]}" if collisions else ""))

    _route(store, draft, index, kws)
    recount_routes(store, draft, counter)

    if source_action in ("archive", "remove"):
        # rows that pointed at the record now point at the memory it became
        for route in store.routes_to.get(src, []):
            line = draft.current_line(route.index, route.row.line)
            if line is None:
                continue
            new = repoint(line, route.link.raw, dest)
            if route.link.count is not None and counter is not None:
                new = set_count(new, dest, counter.count(content))
            draft.replace_line(route.index, route.row.line, new)
    if source_action == "archive":
        draft.move(src, f"{ARCHIVE}/{src}")
    elif source_action == "remove":
        draft.delete(src)
    return draft.plan()


def _route(store: Store, draft: Draft, index: str, kws: list[str]) -> None:
    """Make sure L0 routes to the index; extend the route's keywords with the new row's words."""
    l0 = store.l0
    if l0 is None:
        draft.notes.append("no memory-index.md: add a route to the index by hand")
        return
    rows = [r for r in l0.rows if any(link.target == index for link in r.links)]
    if rows:
        row = rows[0]
        line = draft.current_line(l0.path, row.line)
        missing = [k for k in kws if k not in row.keyword_set][:3]
        if line and missing and l0.dialect == "sections" and ":" in line:
            head, rest = line.split(":", 1)
            draft.replace_line(l0.path, row.line, f"{head} {' '.join(missing)}:{rest}")
    else:
        name = index.rsplit("/", 1)[-1].removesuffix(".md")
        row_kws = [name.removeprefix("skills-").removesuffix("-index")] + kws[:6]
        draft.append_line(l0.path, format_l0_row(row_kws, [IndexLink(name, index, index, 0)], l0.dialect))


def recount_routes(store: Store, draft: Draft, counter) -> None:
    """L0 `(N)` counts of every file this plan changes, so the operation leaves no stale count."""
    l0 = store.l0
    if l0 is None or counter is None:
        return
    changed = {p for p in draft.touched() if p != l0.path}
    for row in l0.rows:
        for link in row.links:
            if link.target not in changed or link.count is None:
                continue
            text = draft.after_text(link.target)
            line = draft.current_line(l0.path, row.line)
            if text is None or line is None:
                continue
            new = set_count(line, link.raw, counter.count(text))
            if new != line:
                draft.replace_line(l0.path, row.line, new)
    # routes this plan appends: count their targets as the plan leaves them
    for i, line in enumerate(draft.appended(l0.path)):
        for target in re.findall(r"\]\(([^)\s]+)\) \(\d+\)", line):
            text = draft.after_text(target)
            if text is not None:
                line = set_count(line, target, counter.count(text))
        draft.set_appended(l0.path, i, line)


# -- fixes -------------------------------------------------------------------------------


def plan_fixes(store: Store, findings: list[Finding], checks: set[str] | None = None, counter=None) -> Plan:
    """Every suggested fix of these findings (optionally only some checks) as one plan."""
    draft = Draft(store.root, "fix", "fix drift")
    done: set[tuple] = set()
    routed: set[str] = set()
    fixed_routes: set[str] = set()
    dropped: dict[str, set[int]] = {}
    chosen = [f for f in findings if f.fix is not None and (not checks or f.check in checks)]
    if not chosen:
        raise CurationError("no finding has a fix to apply" + (f" for {', '.join(sorted(checks))}" if checks else ""))
    # drops first, so a row that is dropped is not also re-pointed or re-counted
    for f in chosen:
        if f.fix.kind == "drop-row":
            p = f.fix.params
            dropped.setdefault(p["index"], set()).add(p["line"])
            draft.replace_line(p["index"], p["line"], None)
    for f in chosen:
        kind, p = f.fix.kind, f.fix.params
        key = (kind, tuple(sorted((k, str(v)) for k, v in p.items())))
        if key in done or kind == "drop-row":
            continue
        done.add(key)
        if kind in ("repoint-row", "refresh-count") and p["line"] in dropped.get(p["index"], set()):
            continue
        if kind == "refresh-count" and counter is not None and p["target"] in draft.touched():
            continue  # the target changes in this plan: recount_routes sets its new count
        if kind == "repoint-row":
            line = draft.current_line(p["index"], p["line"])
            draft.replace_line(p["index"], p["line"], repoint(line, p["old"], p["new"]))
        elif kind == "refresh-count":
            line = draft.current_line(p["index"], p["line"])
            raw = next((lk.raw for r in (store.l0.rows if store.l0 else []) if r.line == p["line"]
                        for lk in r.links if lk.target == p["target"]), p["target"])
            new = set_count(line, raw, p["count"])
            if new == line:  # no "(N)" yet: add one after the link
                new = _add_count(line, raw, p["count"])
            draft.replace_line(p["index"], p["line"], new)
        elif kind == "index-orphan":
            kws = p.get("keywords") or suggest(store, store.records[p["path"]].text, p["index"])
            draft.append_line(p["index"], format_domain_row(list(kws), p["path"]))
        elif kind == "route-index":
            if p["index"] in routed or store.l0 is None:
                continue
            routed.add(p["index"])
            name = p["index"].removesuffix(".md")
            kws = list(p.get("keywords") or []) or [name.removeprefix("skills-").removesuffix("-index")]
            idx_tokens = store.records[p["index"]].tokens
            draft.append_line(store.l0.path, format_l0_row(kws, [IndexLink(name, p["index"], p["index"], idx_tokens)], store.l0.dialect))
            fixed_routes.add(p["index"])
        elif kind == "prune":
            draft.move(p["path"], f"{ARCHIVE}/{p['path']}")
    recount_routes(store, draft, counter)
    plan = draft.plan()
    plan.title = f"fix {len(chosen)} finding(s)"
    return plan


def _add_count(line: str, raw: str, count: int) -> str:
    marker = f"]({raw})"
    at = line.find(marker)
    if at < 0:
        return line
    end = at + len(marker)
    return line[:end] + f" ({count})" + line[end:]


# -- keywords, refresh, prune -------------------------------------------------------


def plan_keywords(store: Store, index: str, target: str, keywords: list[str]) -> Plan:
    idx = store.domain_indexes.get(index)
    if idx is None:
        raise CurationError(f"{index} is not a domain index")
    rows = [r for r in idx.rows if any(lk.target == target for lk in r.links)]
    if not rows:
        raise CurationError(f"{index} has no row for {target}")
    kws = [k.strip().lower() for k in keywords if k.strip()]
    if not kws:
        raise CurationError("give at least one keyword")
    row = rows[0]
    draft = Draft(store.root, "keywords", f"keywords of {target} in {index}")
    line = draft.line(index, row.line)
    cells = line.split("|")
    if len(cells) >= 4:  # "", keywords, file, ""
        cells[1] = f" {' '.join(kws)} "
        draft.replace_line(index, row.line, "|".join(cells))
    else:
        draft.replace_line(index, row.line, format_domain_row(kws, target))
    u, collisions = meter(store, index, kws, replacing_line=row.line)
    draft.notes.append(f"row uniqueness {u:.0%}, {len(collisions)} row(s) share two or more words")
    recount_routes(store, draft, store.counter)
    return draft.plan()


def plan_refresh(store: Store, findings: list[Finding]) -> Plan:
    stale = [f for f in findings if f.check == "tokens.stale-count" and f.fix is not None]
    if not stale:
        raise CurationError("every L0 token count is current")
    plan = plan_fixes(store, stale, {"tokens.stale-count"}, counter=store.counter)
    plan.operation, plan.title = "refresh", f"refresh {len(stale)} stale token count(s)"
    return plan


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
        raise CurationError("nothing to prune")
    for path in paths:
        rec = store.records.get(path)
        if rec is None or rec.level != 2:
            raise CurationError(f"{path} is not a memory of this store")
    draft = Draft(store.root, "prune", f"{'archive' if archive else 'delete'} {len(paths)} record(s)")
    for path in sorted(paths):
        if archive:
            draft.move(path, f"{ARCHIVE}/{path}")
        else:
            draft.delete(path)
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
