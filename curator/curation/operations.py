"""The curation operations. Each returns a Plan; nothing is written until it is applied."""

from __future__ import annotations

import math
import re
from collections import Counter
from datetime import date, timedelta

import yaml

from ..checks.keyword_checks import row_uniqueness
from ..model.findings import Finding
from ..model.frontmatter import split_frontmatter
from ..model.indexes import IndexLink, format_domain_row, format_l0_link, format_l0_row
from ..model.store import Store
from ..model.vocabulary import STOPWORDS, content_words
from .draft import Draft, rebase_links, remove_link, repoint, set_count
from .plan import CurationError, NothingToDo, Plan
from .validate import clean_keywords, memory_name

TRANSIENT_ONLY = ("date", "session_id", "agent", "task", "target", "status", "project", "completion", "severity")
ARCHIVE = ".curator/archive"


def archive_path(root, path: str) -> str:
    """Where an archived record goes: `.curator/archive/<path>`, or `<stem>~N.md` beside it when a
    record of that name was archived before (an archive never overwrites)."""
    while path.startswith("../"):  # a record of an included folder beside the store
        path = path[3:]
    first = f"{ARCHIVE}/{path}"
    stem, dot, ext = first.rpartition(".")
    candidate, n = first, 2
    while (root / candidate).exists():
        candidate = f"{stem}~{n}{dot}{ext}"
        n += 1
    return candidate


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
    """Distinctive words of a text that collide least with keywords already in the indexes.

    Frontmatter is left out (session ids and dates are not search words); words of the `#`
    title count three times, as they name what the memory is about."""
    every, per_index = _keyword_use(store)
    local = per_index.get(index, Counter())
    _fm, body, _line = split_frontmatter(text)
    counts: Counter = Counter()
    for line in body.splitlines():
        weight = 3 if line.lstrip().startswith("# ") else 1
        for w in content_words(line):
            if w not in STOPWORDS and w not in TEMPLATE_WORDS and len(w) < 30 and not _id_like(w):
                counts[w] += weight
    df, n = _document_frequency(store)

    def score(kv):
        word, tf = kv
        idf = math.log(1 + n / (1 + df.get(word, 0)))  # words in every memory route nowhere
        taken = every.get(word, 0) + 2 * local.get(word, 0)  # this index's own rows weigh 3
        return -(tf * idf / (1 + 2 * taken)), word

    ranked = sorted(counts.items(), key=score)
    return [w for w, _ in ranked[:limit]]


# section names of the record templates (ADR-002 reflexion, experience entries): every record
# has them, so they tell memories apart from nothing
TEMPLATE_WORDS = frozenset(
    "known issue symptoms root cause solution prevention related summary error remediation practice "
    "impact validation reflection reflect notes context".split()
)
ID_LIKE = re.compile(r"^(?=.*\d)(?:[\d\-_.:/]+|[0-9a-f]{6,}|[0-9a-f]{8}-[0-9a-f\-]+)$")


def _id_like(word: str) -> bool:
    """Dates, numbers, hashes and session ids: unique, so they look distinctive, but no query
    ever uses them."""
    return bool(ID_LIKE.match(word))


def _keyword_use(store: Store) -> tuple[Counter, dict[str, Counter]]:
    """How many rows use each keyword, in every index and per index; derived once per state of
    the indexes (a reloaded index is a new object, so the key changes)."""
    key = tuple((path, id(rows)) for path, rows in store.all_indexes())
    cached = getattr(store, "_cache_curation_kw", None)
    if cached is None or cached[0] != key:
        every: Counter = Counter()
        per_index: dict[str, Counter] = {}
        for path, rows in store.all_indexes():
            mine = per_index.setdefault(path, Counter())
            for r in rows:
                kws = r.keyword_set
                every.update(kws)
                mine.update(kws)
        cached = (key, every, per_index)
        store._cache_curation_kw = cached
    return cached[1], cached[2]


def _document_frequency(store: Store) -> tuple[Counter, int]:
    cached = getattr(store, "_cache_curation_df", None)
    if cached is None:
        df: Counter = Counter()
        mems = store.memories()
        for r in mems:
            df.update(set(content_words(r.text)))
        cached = (df, max(1, len(mems)))
        store._cache_curation_df = cached  # Store.invalidate (on reload) drops it
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
    tier = store.config.tier_for(re.sub(r"^(\.\./)+", "", dest))
    if tier != "semantic":
        raise CurationError(f"{dest} would be in the {tier} tier; promote into a semantic folder (e.g. knowledge/ or a domain folder)")
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
    body = rebase_links(rec.body().lstrip("\n"), src, dest)
    # "# Validation: X" becomes "# X": the record is knowledge now, not a report
    body = re.sub(r"^(#\s+)(?:Validation|Reflection|Reflect|Session)\s*:\s*(\w)",
                  lambda m: m.group(1) + m.group(2).upper(), body, count=1, flags=re.I)
    content = f"---\n{front}\n---\n\n{body}" + ("" if body.endswith("\n") else "\n")
    draft.create(dest, content)

    kws = clean_keywords(keywords or suggest(store, rec.body(), index))
    if not kws:
        raise CurationError("no keywords: give some with --keywords")
    draft.append_line(index, format_domain_row(kws, dest))
    u, collisions = meter(store, index, kws)
    draft.notes.append(f"row uniqueness {u:.0%}" + (f"; shares words with {collisions[0][0]}:{collisions[0][1]}" if collisions else ""))

    _route(store, draft, index, kws, dest, content, counter)

    if source_action == "archive":
        draft.move(src, archive_path(store.root, src))
    elif source_action == "remove":
        draft.delete(src)
    if source_action != "keep":
        drop_routes(store, draft, [src])
    recount_routes(store, draft, counter)
    return draft.plan()


def drop_routes(store: Store, draft: Draft, paths: list[str]) -> None:
    """Index rows and L0 links that route to files this plan removes: a row with only such
    links is dropped, a row with others loses just those links (no dead rows left behind)."""
    gone = set(paths)
    rows: dict[tuple[str, int], tuple] = {}
    for path in paths:
        for route in store.routes_to.get(path, []):
            rows[(route.index, route.row.line)] = route.row
    for (index, line_no), row in sorted(rows.items()):
        dead = [lk for lk in row.links if lk.target in gone]
        if len(dead) == len(row.links):
            draft.replace_line(index, line_no, None)
            continue
        line = draft.current_line(index, line_no)
        if line is None:
            continue
        for lk in dead:
            line = remove_link(line, lk.raw)
        draft.replace_line(index, line_no, line)


def _route(store: Store, draft: Draft, index: str, kws: list[str], dest: str | None = None,
           content: str | None = None, counter=None) -> None:
    """Make sure L0 routes to the index. Of the L0 rows that already do, the one whose words
    overlap the new row's most is extended: its missing words (up to 3) and, when that row also
    links memories directly (the store's own habit), a link to the new file with its count."""
    l0 = store.l0
    if l0 is None:
        draft.notes.append("no memory-index.md: add a route to the index by hand")
        return
    rows = [r for r in l0.rows if any(link.target == index for link in r.links)]
    if rows:
        wanted = set(kws) | set(content_words(content or ""))
        row = max(rows, key=lambda r: (len(wanted & r.keyword_set), -r.line))
        line = draft.current_line(l0.path, row.line)
        if not line or l0.dialect != "sections" or ":" not in line:
            return
        missing = [k for k in kws if k not in row.keyword_set][:3]
        if missing:
            head, rest = line.split(":", 1)
            line = f"{head} {' '.join(missing)}:{rest}"
        direct = [lk for lk in row.links if lk.target in store.records and store.records[lk.target].level == 2]
        if dest and direct:
            count = counter.count(content) if counter is not None and content is not None else 0
            name = dest.rsplit("/", 1)[-1].removesuffix(".md")
            line = line.rstrip() + ", " + format_l0_link(IndexLink(name, dest, dest, count))
        draft.replace_line(l0.path, row.line, line)
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
    pruned: list[str] = []
    chosen = [f for f in findings if f.fix is not None and (not checks or f.check in checks)]
    if not chosen:
        raise NothingToDo("no finding has a fix to apply" + (f" for {', '.join(sorted(checks))}" if checks else ""), "fix")
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
            draft.move(p["path"], archive_path(store.root, p["path"]))
            pruned.append(p["path"])
    drop_routes(store, draft, pruned)
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
    kws = clean_keywords(keywords)
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
        raise NothingToDo("every L0 token count is current", "refresh")
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
        raise NothingToDo("nothing to prune", "prune")
    for path in paths:
        rec = store.records.get(path)
        if rec is None or rec.level != 2:
            raise CurationError(f"{path} is not a memory of this store")
    draft = Draft(store.root, "prune", f"{'archive' if archive else 'delete'} {len(paths)} record(s)")
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
