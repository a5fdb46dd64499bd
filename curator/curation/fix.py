"""Turn the fixes that check findings suggest into one plan that never makes the store worse.

With no check named, only the mechanical, safe fixes are planned: re-point a row at the file it
was clearly renamed or moved to, refresh an L0 count, drop an exact duplicate row after merging
its keywords into the first. Everything else (dead rows, routes, orphans, pruning) is planned
only when asked for by check id; orphans are indexed one index at a time.
Every plan goes through the gate (`gate.py`): an item that would add a finding is dropped and
the plan's notes say which and why.
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from ..model.findings import (
    REPOSITORY_FIXES,
    DropRow,
    Finding,
    Frontmatter,
    IndexOrphan,
    ListEntry,
    MergeEntry,
    RefreshCount,
    Relink,
    RepointRow,
    RouteIndex,
    Unlink,
)
from ..model.list_entry import merged_entry
from ..model.store import Store
from .fix_draft import draft_fixes, raw_lines
from .gate import gate
from .plan import NothingToDo, Plan


def plan_fixes(store: Store, findings: list[Finding], checks: set[str] | None = None, counter=None,
               *, index: str | None = None, gated: bool = True, insist: bool = False) -> Plan:
    """The suggested fixes of these findings as one plan.

    `checks` None plans only the safe fixes (`is_safe`); naming checks opts in to their fixes.
    Orphans go into one index per plan: `index`, else the one most of them belong in. Items that
    would add a finding are dropped, or with `insist` kept and named as a trade-off."""
    theirs = [f for f in findings if isinstance(f.fix, REPOSITORY_FIXES)]
    if theirs:  # instruction files are the repository's: planned at its root (`instruction_fixes`)
        findings = [f for f in findings if not isinstance(f.fix, REPOSITORY_FIXES)]
        if not findings:
            raise NothingToDo(f"{theirs[0].check} is fixed in the repository's instruction files: "
                              f"`curator fix --check {theirs[0].check}`", "fix")
    if not checks or "links.broken" in checks:
        findings = git_relinks(store, findings)
    chosen = [f for f in findings if f.fix is not None and (is_safe(store, f) if not checks else f.check in checks)]
    if not chosen:
        what = f" for {', '.join(sorted(checks))}" if checks else " that is safe to apply unasked (name the check with --check)"
        raise NothingToDo("no finding has a fix to apply" + what, "fix")
    notes: list[str] = []
    chosen = _orphans_one_index(store, chosen, index, notes)
    if gated:
        plan, dropped = gate(store, chosen, lambda items: draft_fixes(store, items, counter), _label)
        if insist and dropped:  # the user takes the trade-off: every item, each cost said
            plan = draft_fixes(store, chosen, counter)
            notes += ["trade-off: " + d.text(_label(d.item)).replace("dropped ", "kept ", 1) for d in dropped]
            dropped = []
        else:
            notes += [d.text(_label(d.item)) for d in dropped]
    else:
        plan = draft_fixes(store, chosen, counter)
    kept = len(chosen) - (len(dropped) if gated else 0)
    plan.title = f"fix {kept} finding(s)" + (f", {len(chosen) - kept} dropped" if kept < len(chosen) else "")
    plan.notes = notes + plan.notes
    if plan.empty and plan.notes:  # the gate's drops, or a draft's reason for leaving an item
        worse = gated and dropped
        raise NothingToDo(("no fix applies without making the store worse: " if worse else "nothing to fix: ")
                          + "; ".join(plan.notes), "fix")
    return plan


def git_relinks(store: Store, findings: list[Finding]) -> list[Finding]:
    """Broken links to a file git recorded as renamed or moved re-link to where it went —
    before any guess by name (the store's git history, read once)."""
    broken = {id(f) for f in findings if f.check == "links.broken" and f.target and f.line}
    if not broken:
        return findings
    from ..base.git import GitError, renames, toplevel

    try:
        top = toplevel(store.root)
    except GitError:
        return findings
    history = renames(top, str(store.root), relative=False, timeout=None)  # repository-relative paths
    if not history:
        return findings
    import posixpath

    try:
        prefix = store.root.resolve().relative_to(top.resolve()).as_posix()
    except ValueError:
        return findings
    prefix = "" if prefix == "." else prefix + "/"
    out = []
    for f in findings:
        now = history.get(prefix + f.target) if id(f) in broken and f.target else None
        rel = now[len(prefix):] if now and now.startswith(prefix) else None
        if rel and rel in store.records:
            folder = posixpath.dirname(f.path) or "."
            raw = f.fix.old if isinstance(f.fix, Relink) else _raw_link(store, f)
            if raw and f.line:
                fragment = raw[len(raw.split("#", 1)[0]):]
                f = Finding(f.check, f.severity, f.path, f.message, f.line, f.target, rel,
                            Relink(f.path, f.line, raw, posixpath.relpath(rel, folder) + fragment, "git"))
        out.append(f)
    return out


def _raw_link(store: Store, f: Finding) -> str | None:
    """The link as written on the finding's line (`link to RAW reaches nothing`)."""
    m = re.match(r"link to (\S+) reaches nothing", f.message)
    return m.group(1) if m else None


def is_safe(store: Store, f: Finding) -> bool:
    """A fix curator applies unasked: nothing is lost and nothing is guessed."""
    match f.fix:
        case RefreshCount():
            return True
        case Relink(source="git"):
            return True  # git recorded the rename
        case RepointRow(old=old, new=new) | Relink(old=old, new=new) | Unlink(old=old, meant=new):
            return confident_rename(old.split("#", 1)[0], new.split("#", 1)[0])
        case ListEntry() | Frontmatter(mode="quote"):
            return True  # a line drafted from the file's own frontmatter; quoting keeps every value
        case DropRow(index=index, line=line, target=target, reason="repeated"):
            return _exact_duplicate(store, index, line, target)
        case MergeEntry(index=index, line=line, first=first):
            raw = raw_lines(store, index)
            return first in raw and line in raw and merged_entry(raw[first], raw[line]) == raw[first]  # a repeat
    return False


def _exact_duplicate(store: Store, index: str, line: int, target: str) -> bool:
    """The repeated row routes to exactly what an earlier row for the same target routes to
    (merging its keywords there changes no route)."""
    rows = dict(store.all_indexes()).get(index, [])
    dup = next((r for r in rows if r.line == line), None)
    if dup is None:
        return False
    mine = {lk.target for lk in dup.links}
    return any(r.line < line and {lk.target for lk in r.links} == mine for r in rows)


def _words(stem: str) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", stem.lower()) if w}


def confident_rename(old: str, new: str) -> bool:
    """`new` is the same file moved (same name), or renamed keeping most of its words."""
    old_stem = old.rsplit("/", 1)[-1].removesuffix(".md")
    new_stem = new.rsplit("/", 1)[-1].removesuffix(".md")
    if old_stem.lower() == new_stem.lower():
        return True
    a, b = _words(old_stem), _words(new_stem)
    if len(a) >= 2 and len(b) >= 2 and len(a & b) / len(a | b) >= 0.5:
        return True
    return fuzz.ratio(old_stem.lower(), new_stem.lower()) >= 90


def _label(f: Finding) -> str:
    match fix := f.fix:
        case None:
            return f"{f.check} ({f.path})"
        case IndexOrphan(path=path, index=index):
            return f"row for {path} in {index}"
        case (RepointRow(index=where, line=line) | DropRow(index=where, line=line) | RefreshCount(index=where, line=line)
              | MergeEntry(index=where, line=line)):
            return f"{fix.description} ({where}:{line})"
        case RouteIndex(index=where):
            return f"{fix.description} ({where})"
        case Relink(path=where, line=line) | Unlink(path=where, line=line):
            return f"{fix.description} ({where}:{line})"
    return f"{fix.description} ({f.path})"


def _orphans_one_index(store: Store, chosen: list[Finding], index: str | None, notes: list[str]) -> list[Finding]:
    """Orphan fixes re-aimed at the index each belongs in (`orphans.choose_index`), only those
    of one index kept, each with its suggested keywords (or dropped, saying why)."""
    from .orphans import Profiles, choose_index, suggest_row_keywords

    orphans = [(f, f.fix) for f in chosen if isinstance(f.fix, IndexOrphan)]
    if not orphans:
        return chosen
    rest = [f for f in chosen if not isinstance(f.fix, IndexOrphan)]
    profiles = Profiles.of(store)
    homes: dict[str, list[tuple[Finding, IndexOrphan]]] = {}
    homeless: list[str] = []
    for f, fix in orphans:
        home = choose_index(store, fix.path, profiles)
        if home is None:
            homeless.append(fix.path)
            continue
        homes.setdefault(home, []).append((f, fix))
    if homeless:
        notes.append(f"left {len(homeless)} orphan(s) unindexed: no index of memories fits them by folder, "
                     f"name and content (e.g. {homeless[0]}); give them an index by hand")
    if index is not None and index not in homes:
        notes.append(f"no orphan belongs in {index}")
        return rest
    if not homes:
        return rest
    target = index or max(sorted(homes), key=lambda k: len(homes[k]))
    others = sum(len(v) for k, v in homes.items() if k != target)
    if others and index is None:
        notes.append(f"{others} orphan(s) belong in {len(homes) - 1} other index(es): "
                     f"plan them one index at a time with --index (e.g. {sorted(k for k in homes if k != target)[0]})")
    planned: list[tuple[list[str], str]] = []
    for f, fix in homes[target]:
        path = fix.path
        kws, why = suggest_row_keywords(store, path, target, planned, profiles)
        if kws is None:
            notes.append(f"left {path} unindexed: {why}")
            continue
        planned.append((kws, path))
        rest.append(Finding(f.check, f.severity, f.path, f.message, f.line, f.target, target,
                            IndexOrphan(path, target, tuple(kws))))
    return rest
