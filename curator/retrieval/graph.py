"""The graph source: memories that link to each other, reached from the other sources' first hits.

Edges (undirected): markdown links between memories (`[x](../other.md)`, a "Related" section's
list included), `mem:NAME` references and `[[name]]` wiki links, and memories listed on the same
row of an index (a row that names two to six memories groups them). A query's seeds are BM25's and
the semantic source's first SEEDS hits; each neighbour of a seed scores 1 / the seed's rank,
summed over its seeds, so a memory linked from two first hits outranks one linked from a fifth.
The seeds themselves are not in the list (they are there already): the graph only brings
neighbours, and says which hit they are linked from ("linked from #2").
"""

from __future__ import annotations

import posixpath
import re

SEEDS = 3
ROW_MAX = 6  # an index row naming more memories than this is a table of contents, not a group
_MD_LINK = re.compile(r"\]\(\s*<?([^)<>#\s]+?\.md)>?(?:#[^)]*)?\s*\)")
_MEM_REF = re.compile(r"(?<![\w/])mem:([A-Za-z0-9_][A-Za-z0-9_./-]*[A-Za-z0-9_])")
_WIKI = re.compile(r"\[\[([^\]|#]+)(?:[|#][^\]]*)?\]\]")


def edges(store, docs) -> dict[str, list[str]]:
    """path → its neighbours among `docs` (sorted, no self-loops)."""
    paths = {r.path for r in docs}
    by_stem: dict[str, str] = {}
    for p in sorted(paths):
        by_stem.setdefault(posixpath.splitext(posixpath.basename(p))[0].lower(), p)
    out: dict[str, set[str]] = {p: set() for p in paths}

    def add(a: str, b: str | None) -> None:
        if b is not None and b != a and b in paths:
            out[a].add(b)
            out[b].add(a)

    for r in docs:
        try:
            text = r.body()
        except Exception:  # noqa: BLE001 - an unreadable memory has no links
            continue
        folder = posixpath.dirname(r.path)
        for m in _MD_LINK.finditer(text):
            target = m.group(1)
            if "://" in target:
                continue
            add(r.path, posixpath.normpath(posixpath.join(folder, target)) if not target.startswith("/") else None)
        for m in _MEM_REF.finditer(text):
            name = m.group(1).lower().removesuffix(".md")
            add(r.path, by_stem.get(posixpath.basename(name)))
        for m in _WIKI.finditer(text):
            add(r.path, by_stem.get(m.group(1).strip().lower().removesuffix(".md")))
    for _index, rows in store.all_indexes():
        for row in rows:
            group = [lk.target for lk in row.links if lk.target in paths]
            if 2 <= len(set(group)) <= ROW_MAX:
                for a in group:
                    for b in group:
                        if a != b:
                            out[a].add(b)
    return {p: sorted(n) for p, n in out.items() if n}


def spread(neighbours: dict[str, list[str]], seed_lists, depth: int = 50,
           ) -> tuple[list[tuple[str, float]], dict[str, list[str]]]:
    """(the graph list [(path, score)], path → the seeds it is linked from, best first)."""
    seeds: dict[str, int] = {}
    for items in seed_lists:
        for rank, (p, _) in enumerate(items[:SEEDS], 1):
            seeds[p] = min(seeds.get(p, rank), rank)
    score: dict[str, float] = {}
    via: dict[str, list[str]] = {}
    for seed, rank in sorted(seeds.items(), key=lambda kv: (kv[1], kv[0])):
        for n in neighbours.get(seed, ()):
            if n in seeds:
                continue
            score[n] = score.get(n, 0.0) + 1.0 / rank
            via.setdefault(n, []).append(seed)
    ranked = sorted(score.items(), key=lambda kv: (-kv[1], kv[0]))[:depth]
    return ranked, via
