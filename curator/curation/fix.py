"""Turn the fixes that check findings suggest into one plan."""

from __future__ import annotations

from ..model.findings import Finding
from ..model.indexes import IndexLink, format_domain_row, format_l0_row
from ..model.store import Store
from .draft import Draft, repoint, set_count
from .meters import suggest
from .plan import NothingToDo, Plan
from .routes import archive_path, drop_routes, recount_routes


def plan_fixes(store: Store, findings: list[Finding], checks: set[str] | None = None, counter=None) -> Plan:
    """Every suggested fix of these findings (optionally only some checks) as one plan."""
    draft = Draft(store.root, "fix", "fix drift", store)
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
