"""A finding's identity across two states of a store — the one definition `review`,
`check --changed` and `baseline` share.

A finding keeps its identity when its file is renamed or moved (every path it names — its own,
its target, the ones in its message and in the line it points at — is read through the rename
map), when lines move (the text of the line, not its number) and when counts drift (digits
masked, in `model.findings.fingerprint`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Protocol, overload

from ..model.findings import Finding, fingerprint
from ..model.records import Record
from ..model.store import Store


class Recorded(Protocol):
    """What a finding's identity reads of a store: its records by path (a `Store`, or the
    repository seen as one store, `live.repository.Repository`)."""

    @property
    def records(self) -> Mapping[str, Record]: ...


class Renamer:
    """Rewrites old paths to new ones inside a text: the store-relative path, the bare file
    name (relative links in the same folder) and the name without `.md` (`mem:NAME`)."""

    def __init__(self, renames: dict[str, str] | None):
        self.renames = dict(renames or {})
        words: dict[str, str] = {}
        for old, new in self.renames.items():
            words[old] = new
            o, n = old.rsplit("/", 1)[-1], new.rsplit("/", 1)[-1]
            if o != n:
                words.setdefault(o, n)
                if o.endswith(".md") and n.endswith(".md"):
                    words.setdefault(o[:-3], n[:-3])
        self.words = words
        # longest first, whole path-like tokens only (`a.md` never matches inside `data.md`)
        alts = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        self.pattern = re.compile(rf"(?<![\w.-])(?:{alts})(?![\w-]|\.\w)") if words else None

    @overload
    def path(self, path: str) -> str: ...

    @overload
    def path(self, path: None) -> None: ...

    def path(self, path: str | None) -> str | None:
        return self.renames.get(path, path) if path is not None else None

    @overload
    def text(self, text: str) -> str: ...

    @overload
    def text(self, text: None) -> None: ...

    @overload
    def text(self, text: str | None) -> str | None: ...

    def text(self, text: str | None) -> str | None:
        if not text or self.pattern is None:
            return text
        return self.pattern.sub(lambda m: self.words[m.group(0)], text)


def line_text(store: Recorded, f: Finding) -> str | None:
    rec = store.records.get(f.path)
    if not f.line or rec is None or not rec.text:
        return None
    lines = rec.text.splitlines()
    return lines[f.line - 1] if 0 < f.line <= len(lines) else None


# what a message says after these is advice (which index, which file it likely meant, the
# examples of a note): it changes with the rest of the store, the finding does not
_ADVICE = re.compile(r"; | \(| — ")


def is_note(store: Recorded, f: Finding) -> bool:
    """A store-level note: one finding summing up many files (its examples and line numbers
    change when any of them is renamed or moved, the note does not)."""
    if f.path == "." or f.check == "budget.past-cap":
        return True
    rec = store.records.get(f.path)
    return f.check == "orphan.unindexed" and rec is not None and rec.level < 2


def _anchor(store: Recorded, f: Finding) -> str | None:
    # a finding about a target is that target (a reordered index moves which row says it);
    # others are the text of their line (line numbers drift)
    return None if f.target else line_text(store, f)


def fingerprints(store: Recorded, findings: list[Finding], renames: dict[str, str] | None = None) -> list[str]:
    """The identity of each finding of `store`, its paths read through `renames` (old → new)."""
    r = Renamer(renames) if renames else None
    out = []
    for f in findings:
        anchor = None if is_note(store, f) else _anchor(store, f)
        f = Finding(f.check, f.severity, f.path, _ADVICE.split(f.message, 1)[0], None, f.target)
        if r is not None:
            f = Finding(f.check, f.severity, r.path(f.path), r.text(f.message), f.line, r.text(f.target))
            anchor = r.text(anchor)
        out.append(fingerprint(f, anchor))
    return out


def multiset_minus(items: list, keys: list[str], other: list[str]) -> list:
    """The items whose key is not matched by one in `other` (each key of `other` used once)."""
    left = Counter(other)
    out = []
    for item, key in zip(items, keys, strict=True):
        if left[key]:
            left[key] -= 1
        else:
            out.append(item)
    return out


def renames_by_content(store: Store, entries: list[dict]) -> dict[str, str]:
    """Old path → new path for files a baseline names that are gone, found again by content
    (the `sha` each entry keeps): a baseline follows a pure rename or move without git."""
    by_hash: dict[str, list[str]] = {}
    named = {e.get("path") for e in entries}
    for path, rec in store.records.items():
        if path not in named and rec.content_hash:
            by_hash.setdefault(rec.content_hash[:16], []).append(path)
    out: dict[str, str] = {}
    for e in entries:
        old, sha = e.get("path"), e.get("sha")
        if not isinstance(old, str) or not isinstance(sha, str) or old in store.records or old in out:
            continue
        cands = by_hash.get(sha)
        if cands and len(cands) == 1:
            out[old] = cands[0]
    return out
