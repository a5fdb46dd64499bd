"""The findings of a whole check run, kept in the store's cache under the signature of what
they depend on: every file's path, content hash, token count and read error, the load findings,
the config, the day (TTLs), the token encoding, the checks asked for and curator's own code —
plus, stored with the result, whether each link that leaves the store's files reached something
on disk. An unchanged store then skips every check; any change re-runs them all.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ..base.cache import code_signature, store_cache
from ..base.config import meaning_off
from ..model.auto_memory import committed_claude_memory, store_auto_off
from ..model.findings import Finding, Fix, Severity, fix_from_row
from ..model.linkres import outside_verdict, trusted_place
from .facts import CACHE_VERSION, Facts, link_probe, resolve_link

RESULT = "findings"
LINKS = Facts._fields.index("links")


def signature(store, wanted: set[str] | None) -> str:
    """What a check run of `store` depends on inside the store, as one digest."""
    h = hashlib.sha256()
    h.update(f"{code_signature()}\n{store.config!r}\n{store.today}\n{store.encoding}\n".encode())
    h.update(f"{store.format}\n{store.repo_root}\n{_meaning(store)}\n".encode())
    h.update(f"committed: {committed_claude_memory(store.root)}\n".encode())  # your autoMemoryDirectory may name it
    if store.format == "claude":  # your settings or environment may turn auto memory off
        h.update(f"auto off: {store_auto_off(store)}\n".encode())
    h.update(repr(sorted(wanted) if wanted else None).encode())
    lines = [
        f"{path}\0{rec.content_hash}\0{rec.tokens}\0{rec.error}\0{rec.tier}\0{rec.kind}"
        for path, rec in store.records.items()
    ]
    lines += [f"{f.check}\0{f.path}\0{f.message}\0{f.target}" for f in store.load_findings]
    h.update("\n".join(lines).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _meaning(store) -> str:
    """Whether duplicate.topic had vectors: none handed in, handed in but turned off, or on — a
    run without meaning never replays the findings of a run with it, nor the other way round."""
    if getattr(store, "meaning", None) is None:
        return "meaning: none"
    return "meaning: " + (meaning_off(getattr(store.config, "retrieval", None)) or "on")


def probes(store) -> tuple | None:
    """(kind, folder or file, target, verdict) for every link whose verdict depends on a file
    outside the records — the part of a check run that the store's own files do not decide.
    Which links these are follows from the files' content (in the signature), so a later run
    only re-asks the disk (`still_true`). None when a file's facts are not in the cache."""
    kept = store_cache(store.root)
    variant = (CACHE_VERSION, store.config.thresholds.shingle)
    out: list[tuple[str, str, str, bool | str | None]] = []
    for path, rec in store.records.items():
        if rec.readable and rec.level == 2:
            facts = kept.facts(path, rec.content_hash, variant)
            if facts is None:
                return None
            for raw, _line in facts[LINKS]:
                probe = link_probe(store, rec, raw)
                if probe is not None:
                    exists = os.path.exists(probe) if trusted_place(store, probe) else None
                    out.append(("exists", probe, "", exists))
                    if not exists:  # then the verdict looks in the repository (linkres)
                        both = resolve_link(rec, raw)
                        if both is not None:
                            folder = str(rec.abspath.parent)
                            out.append(("outside", folder, both[0], outside_verdict(store, Path(folder), both[0])))
    out += external_probes(store)
    return tuple(out)


def external_probes(store) -> list:
    """The verdicts of links that list indexes make outside the store (MEMORY.md → CLAUDE.md)."""
    from .format_checks import external_links

    return [("outside", str(folder), target, outside_verdict(store, folder, target))
            for _path, folder, _line, _raw, target in external_links(store)]


def still_true(store, probed) -> bool:
    """Does the disk still give every stored verdict? (Only the probes are asked again: no
    facts are loaded and no record is visited.)"""
    try:
        for kind, where, target, verdict in probed:
            now: bool | str | None
            if kind == "exists":
                now = os.path.exists(where) if trusted_place(store, where) else None
            elif kind == "outside":
                now = outside_verdict(store, Path(where), target)
            else:
                return False
            if now != verdict:
                return False
    except (TypeError, ValueError):
        return False  # an entry of another layout
    return True


def _fix_row(fix: Fix | None) -> tuple | None:
    return None if fix is None else fix.to_row()  # plain data: no pickled dataclasses to rebuild


def _encode(findings: list[Finding]) -> tuple | None:
    try:
        return tuple(
            (f.check, int(f.severity), f.path, f.message, f.line, f.target, f.suggestion, _fix_row(f.fix))
            for f in findings
        )
    except Exception:  # noqa: BLE001 - a value that does not serialise: the run is not cached
        return None


def _decode(rows: tuple) -> list[Finding]:
    sev = {int(s): s for s in Severity}
    out = []
    for check, s, path, message, line, target, suggestion, fix in rows:
        if fix is not None:
            fix = fix_from_row(fix)
        out.append(Finding(check, sev[s], path, message, line, target, suggestion, fix))
    return out


def run_cached(store, wanted: set[str] | None, run, loading=None) -> list[Finding]:
    """The findings of `run()` from the store cache when nothing they depend on changed.
    With `loading` (the store's counts still being made): when the cache holds a result, the
    counts are waited for (the signature covers them); when it holds none (a cold run), `run`
    goes ahead at once and the signature is taken after it."""
    kept = store_cache(store.root)
    sig = None
    if loading is None or kept.derived.get(RESULT) is not None:
        if loading is not None:
            loading.finish()
        sig = signature(store, wanted)
        hit = kept.result(RESULT, sig)
        if hit is not None:
            probed, rows = hit
            if still_true(store, probed):  # files outside the records still as they were
                try:
                    return _decode(rows)
                except Exception:  # noqa: BLE001 - a damaged entry: run the checks
                    pass
    findings = run()
    if sig is None:
        sig = signature(store, wanted)  # the run finished the loading: every count is in
    probed = probes(store)  # the run has filled the facts
    rows = _encode(findings)
    if probed is not None and rows is not None:
        kept.set_result(RESULT, sig, (probed, rows))
        kept.save()
    return findings
