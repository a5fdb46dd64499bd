"""index.*: targets that are missing or unsafe, impure domain indexes, duplicates, unrouted."""

from __future__ import annotations

import re
from collections import Counter

from rapidfuzz import fuzz, process

from ..model import formats as fmts
from ..model.claude_index import ENTRY_LINE
from ..model.findings import DropRow, MergeEntry, RepointRow, RouteIndex, Severity
from ..model.indexes import IndexLink, IndexRow
from ..model.list_entry import merged_entry
from .context import Context

WORD_CANDIDATES = 100  # the files sharing most words with a dead name, scored by their share


def closest_path(ctx: Context, target: str, taken: frozenset[str] = frozenset()) -> str | None:
    """The existing file whose name is closest to a missing target (a rename, usually).

    Renames keep most of their words (`ci-release-pipeline` → `ci-release-workflow`), so a
    candidate scores the better of its character similarity and its share of the target's words.
    `taken`: files that cannot be where the target went (those its index already lists).
    """
    names = ctx.memo("closest_path.names", lambda: _name_table(ctx))
    if not names.paths:
        return None
    stem = target.rsplit("/", 1)[-1].removesuffix(".md").lower()
    words = set(re.split(r"[-_]", stem))
    folder = target.rsplit("/", 1)[0] if "/" in target else ""
    scores: dict[int, float] = {}
    # renames usually stay in their folder: look there first, the whole store only if empty
    choices = names.choices(folder)
    skip = names.ids(taken)
    # plain character similarity: WRatio's partial matching pairs `project_pyright_gaps` with
    # any long name that happens to contain `p…right`; the best file not `taken`
    barred = [i for i in skip if i in choices]
    if len(barred) >= len(choices):
        return None
    found = process.extract(stem, choices, scorer=fuzz.ratio, limit=len(barred) + 1)
    best_char = next((r for r in found if r[2] not in skip), None)
    if best_char is not None:
        scores[best_char[2]] = best_char[1]
    # counted in C, and only the files sharing most words scored: names that all share a word or
    # two (`project_…`) made this quadratic — 52 s for an index of 5,000 dead rows
    shared: Counter[int] = Counter()
    for w in words:
        shared.update(names.by_word.get(w, ()))
    for i in skip:
        shared.pop(i, None)
    for i, n in shared.most_common(WORD_CANDIDATES):
        if n < 2:
            break
        share = 100 * n / max(len(words), names.nwords[i]) + 5
        scores[i] = max(scores.get(i, 0.0), share, fuzz.ratio(stem, names.stems[i]))
    best, best_score = None, 0.0
    for i, score in scores.items():
        path = names.paths[i]
        if folder and path.startswith(folder + "/"):
            score += 3  # among equals prefer the target's own folder
        if score > best_score or (score == best_score and best is not None and path < best):
            best, best_score = path, score
    return best if best_score >= 72 else None


class _Names:
    def __init__(self, paths: list[str]) -> None:
        self.paths = paths
        self.stems = [p.rsplit("/", 1)[-1].removesuffix(".md").lower() for p in paths]
        self.nwords = [len(re.split(r"[-_]", stem)) for stem in self.stems]
        self.by_word: dict[str, list[int]] = {}
        self.by_folder: dict[str, list[int]] = {}
        self.number = {p: i for i, p in enumerate(paths)}
        self._choices: dict[str, dict[int, str]] = {}
        self._ids: dict[frozenset[str], frozenset[int]] = {}
        for i, path in enumerate(paths):
            self.by_folder.setdefault(path.rsplit("/", 1)[0] if "/" in path else "", []).append(i)
        for i, stem in enumerate(self.stems):
            for w in set(re.split(r"[-_]", stem)):
                self.by_word.setdefault(w, []).append(i)

    def choices(self, folder: str) -> dict[int, str]:
        """The stems a dead name in `folder` is compared with: its folder's, else every file's."""
        got = self._choices.get(folder)
        if got is None:
            pool = self.by_folder.get(folder) or range(len(self.paths))
            got = self._choices[folder] = {i: self.stems[i] for i in pool}
        return got

    def ids(self, taken: frozenset[str]) -> frozenset[int]:
        """The files of `taken` by number (an index's own rows: a few, kept per index)."""
        got = self._ids.get(taken)
        if got is None:
            got = self._ids[taken] = frozenset(self.number[p] for p in taken if p in self.number)
        return got


def _name_table(ctx: Context) -> _Names:
    return _Names([p for p, r in ctx.store.records.items() if r.level == 2])


def run(ctx: Context) -> None:
    store = ctx.store
    for index_path, rows in store.all_indexes():
        _targets(ctx, index_path, rows)
        _duplicates(ctx, index_path, rows)
    for path, idx in store.domain_indexes.items():
        for line, text in idx.extras:
            ctx.add(
                "index.format",
                path,
                f"domain index holds non-table content: {_short(text)!r}",
                line=line,
            )
        for line, message in idx.anomalies:
            ctx.add("index.format", path, message, line=line)
        if not idx.rows and not idx.extras and not idx.anomalies:
            ctx.add("index.format", path, "domain index has no `| Keywords | File |` rows", line=1)
    _unrouted(ctx)
    if store.l0 is not None:
        for line, message in store.l0.anomalies:
            ctx.add("index.format", store.l0.path, f"memory-index: {message}", line=line)


def _short(text: str, n: int = 60) -> str:
    text = text.strip()
    return text if len(text) <= n else text[: n - 1] + "…"


def _targets(ctx: Context, index_path: str, rows: list[IndexRow]) -> None:
    store = ctx.store
    missing: list[tuple[IndexRow, IndexLink]] = []
    for row in rows:
        for link in row.links:
            if link.unsafe:
                ctx.add(
                    "index.unsafe-target",
                    index_path,
                    f"target {link.raw!r} {link.unsafe}",
                    line=row.line,
                    target=link.raw,
                    fix=DropRow(index_path, row.line, link.raw, "unsafe"),
                )
                continue
            if link.target in store.records or link.target in _listed_elsewhere(store):
                continue
            on_disk = store.root / link.target
            if on_disk.is_symlink():
                ctx.add(
                    "index.unsafe-target",
                    index_path,
                    f"target {link.target!r} is a symbolic link that leaves the store",
                    line=row.line,
                    target=link.target,
                )
                continue
            missing.append((row, link))
    if not missing:
        return
    # a rename is one file become another: a file this index already lists is not where a dead
    # row's file went, and a file that several dead rows would each be re-pointed to is none's
    # (MEMORY.md rows naming topic files never committed all "renamed to" one dated record)
    listed = frozenset(link.target for row in rows for link in row.links if link.target in store.records)
    guesses = [closest_path(ctx, link.target, listed) for _, link in missing]
    claimed: dict[str, int] = {}
    for g in guesses:
        if g:
            claimed[g] = claimed.get(g, 0) + 1
    guesses = [g if g and claimed[g] == 1 else None for g in guesses]
    if _partial_copy(ctx, index_path, rows, [m for m, g in zip(missing, guesses, strict=True) if g is None]):
        missing, guesses = [m for m, g in zip(missing, guesses, strict=True) if g], [g for g in guesses if g]
    for (row, link), suggestion in zip(missing, guesses, strict=True):
        fix: RepointRow | DropRow
        if suggestion:
            fix = RepointRow(index_path, row.line, link.target, suggestion)
            message = f"{link.target} does not exist (renamed to {suggestion}?)"
        else:
            fix = DropRow(index_path, row.line, link.target, "dead")
            message = f"{link.target} does not exist"
        ctx.add(
            "index.missing-target",
            index_path,
            message,
            line=row.line,
            target=link.target,
            suggestion=suggestion,
            fix=fix,
        )


def _listed_elsewhere(store) -> frozenset[str]:
    """The memories Serena lists that curator holds no record of (under a linked folder, hidden):
    a row naming one is not dead."""
    from ..model import formats as fmts

    if store.format != fmts.SERENA:
        return frozenset()
    from ..model.serena_listing import linked_names
    from ..model.store import NAMES

    return store.view("serena-elsewhere", lambda: frozenset(linked_names(store)), reads={NAMES})


MANY_DEAD = 20  # dead rows from which an index that lost most of its files is one finding


def _partial_copy(ctx: Context, index_path: str, rows: list[IndexRow], missing: list[tuple[IndexRow, IndexLink]]) -> bool:
    """An index most of whose rows point at files that are not here, and were not renamed (a
    MEMORY.md copied into a repository with a few of its topic files), is one finding, not one per
    row: the files were never copied, they were not deleted one by one, so dropping each row is
    not the fix. `missing`: the dead links no rename explains; a renamed row keeps its own finding."""
    linked = sum(1 for row in rows if any(link.target for link in row.links))
    dead = len({row.line for row, _ in missing})  # rows, as `linked` counts them (a row may hold two links)
    if dead < MANY_DEAD or 2 * dead < linked:
        return False
    names = list(dict.fromkeys(link.target.rsplit("/", 1)[-1] for _, link in missing))
    shown = ", ".join(names[:3]) + (", …" if len(names) > 3 else "")
    ctx.add(
        "index.missing-target",
        index_path,
        f"{dead} of {linked} rows point at files this folder does not hold ({shown}): a partial "
        "copy of a memory folder? copy the files in, or drop the rows",
        line=missing[0][0].line,
    )
    return True


def _duplicates(ctx: Context, index_path: str, rows: list[IndexRow]) -> None:
    # In L0 several keyword rows routing to one domain index is the design, not a duplicate;
    # a memory listed twice (or any target twice in one row) is.
    is_l0 = ctx.store.l0 is not None and index_path == ctx.store.l0.path
    fmt = ctx.store.format
    if fmt == fmts.SERENA:
        return  # a navigation guide names a memory under every task it helps with, by design
    if fmt == fmts.CLAUDE:  # a fact that ends "See [x](x.md)" refers to the entry, it is not one
        rows = [r for r in rows if ENTRY_LINE.match(r.raw)]
    seen: dict[str, int] = {}
    for row in rows:
        in_row: set[str] = set()
        for link in row.links:
            target = link.target
            if not target:
                continue
            rec = ctx.store.records.get(target)
            repeated = target in in_row or (
                target in seen and not (is_l0 and rec is not None and rec.level == 1)
            )
            in_row.add(target)
            if repeated:
                first = seen.get(target, row.line)
                fix = None
                if fmt != fmts.SERENA_TIERED:
                    ctx.add(
                        "index.duplicate-entry",
                        index_path,
                        f"{target} is listed again (first on line {first}): merge the two hooks "
                        "into one line — each costs always-loaded lines",
                        line=row.line,
                        target=target,
                        severity=Severity.WARNING,
                        fix=_merge_fix(index_path, rows, row, first, target),
                    )
                    continue
                if len(row.links) == 1:
                    fix = DropRow(index_path, row.line, target, "repeated")
                ctx.add(
                    "index.duplicate-entry",
                    index_path,
                    f"{target} is listed again (first on line {first})",
                    line=row.line,
                    target=target,
                    fix=fix,
                )
            else:
                seen.setdefault(target, row.line)


def _merge_fix(index_path: str, rows: list[IndexRow], row: IndexRow, first: int, target: str) -> MergeEntry | None:
    """Merging the repeated line into the first one: only when both are one-link entry lines
    (`- [Title](file.md) — hook`); an entry of several links is merged by hand."""
    head = next((r for r in rows if r.line == first), None)
    if first == row.line or head is None or merged_entry(head.raw, row.raw) is None:
        return None
    return MergeEntry(index_path, row.line, target, first)


def _unrouted(ctx: Context) -> None:
    store = ctx.store
    routed = {link.target for _, link in store.l0.links()} if store.l0 else set()
    for path, idx in store.domain_indexes.items():
        if path in routed:
            continue
        counts = Counter(k.lower() for row in idx.rows for k in row.keywords)
        keywords = [k for k, _ in counts.most_common(8)] or [idx.domain]
        why = "memory-index.md does not link it" if store.l0 else "there is no memory-index.md"
        ctx.add(
            "index.unrouted",
            path,
            f"domain index is unreachable: {why}",
            line=1,
            fix=RouteIndex(path, tuple(keywords)),
        )
