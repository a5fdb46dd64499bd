"""What else an agent would load for a prompt: the skills and agent-requested rules it picks by
their descriptions (Claude Code skills and subagents, Cursor description-only rules, Kiro
`inclusion: auto`, Windsurf `model_decision`), ranked the way memories are — BM25 over the
descriptions with the same stemmed terms.

With the semantic source on, the descriptions are also ranked by meaning (their vectors cached
like a store's), so "my extension won't start" finds `debug-extension-load`.

Fast by construction: only the folders that hold such items are walked (the context model is
built over them alone, no token counting, no findings), so a one-shot `curator retrieve`
pays a few folder listings and the reads of the files found there.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..base.paths import DESCRIBED as FOLDERS
from .bm25 import BM25Index
from .text import query_terms, terms

AGENTS = ("claude-code", "cursor", "kiro", "devin")
KIND = {".claude/skills/": "skill", ".claude/agents/": "subagent", ".cursor/rules/": "Cursor rule",
        ".kiro/steering/": "Kiro steering", ".devin/rules/": "Devin rule", ".windsurf/rules/": "Windsurf rule"}
SHOWN, FLOOR = 3, 0.5  # at most three, each scoring at least half the best


@dataclass(frozen=True, slots=True)
class Pick:
    agent: str
    kind: str  # skill | subagent | Cursor rule | Kiro steering | Windsurf rule
    name: str
    path: str  # repository-relative
    description: str
    matched: tuple[str, ...]  # the description's words the prompt shares (as written there)
    score: float  # BM25 over the descriptions (0: picked by meaning alone)
    meaning: float | None = None  # cosine of the prompt and the description (with the semantic source)

    def to_json(self) -> dict:
        return {"agent": self.agent, "kind": self.kind, "name": self.name, "path": self.path,
                "description": self.description, "matched": list(self.matched), "score": round(self.score, 4),
                "meaning": None if self.meaning is None else round(self.meaning, 3)}


class Described:
    """The repository's description-picked items, kept while nothing they came from changed (a
    long-lived engine asks every query; a changed folder listing or file rebuilds them)."""

    def __init__(self, root) -> None:
        self.root = root
        self.items, self._sig = requested_items(root) if root is not None else ([], ())

    def current(self) -> list[tuple[str, str, str, str]]:
        if self.root is not None and _signature(self.root, self._files) != self._sig:
            self.items, self._sig = requested_items(self.root)
        return self.items

    @property
    def _files(self):
        return [s[0] for s in self._sig[len(FOLDERS):]]


def requested_items(root) -> tuple[list[tuple[str, str, str, str]], tuple]:
    """(agent, path, name, description) of every item an agent picks by its description, and
    the (path, mtime, size) of what they were read from."""
    present = [f for f in FOLDERS if os.path.isdir(os.path.join(root, f))]
    if not present:
        return [], _signature(root, [])  # the common case: nothing to build
    from ..context.build import build_context
    from ..context.fs import RepoFS

    fs = RepoFS.scan_folders(root, FOLDERS)
    model = build_context(root, agents=AGENTS, fs=fs, count=False, only=set(), env={"CI": "1"})
    out, seen = [], set()
    for ctx in model.agents.values():
        for o in ctx.on_demand:
            if o.trigger == "description" and o.description and o.path.startswith(FOLDERS) and o.path not in seen:
                seen.add(o.path)
                out.append((ctx.agent, o.path, _name(o.path), o.description))
    dirs = sorted(d for d in fs.dirs if d.startswith(FOLDERS) and d not in FOLDERS)
    return out, _signature(root, [*dirs, *fs.files])


def _signature(root, files) -> tuple:
    """(path, mtime, size) of the folders and files the items came from (None: absent)."""
    out: list[tuple[str, int | None, int | None]] = []
    for rel in (*FOLDERS, *files):
        try:
            st = os.stat(os.path.join(root, rel))
            out.append((rel, st.st_mtime_ns, st.st_size))
        except OSError:
            out.append((rel, None, None))
    return tuple(out)


def _name(path: str) -> str:
    parts = path.split("/")
    if parts[-1] == "SKILL.md" and len(parts) >= 2:
        return parts[-2]
    return parts[-1].rsplit(".", 1)[0]


def would_also_load(root, query: str, items=None, encoder=None) -> list[Pick]:
    """The items whose descriptions best match `query`, at most three. By words alone: BM25, each
    at least half the best. With the semantic source's `encoder`, meaning leads and words nudge
    (cosine + 0.1 × BM25 share of the best): each at least 0.35 and 0.8 of the best — so a word
    many descriptions share ("extension") picks nothing by itself — and BM25's sure first stays
    (a subagent whose description the prompt names is not dropped by the meaning floor alone)."""
    items = requested_items(root)[0] if items is None else items
    if not items:
        return []
    q = query_terms(query)
    bm25 = BM25Index([terms(f"{name} {desc}") for _, _, name, desc in items], backend="python").scores(q)
    top_bm25 = max(bm25, default=0.0)
    cosines = _cosines(root, query, items, encoder) if encoder is not None else None
    if cosines is not None:
        score = [c + 0.1 * (b / top_bm25 if top_bm25 else 0.0) for c, b in zip(cosines, bm25, strict=True)]
        floor = max(SEM_FLOOR, max(score) * SEM_SHARE)
    else:
        score, floor = list(bm25), top_bm25 * FLOOR
    keep = {i for i in range(len(items)) if score[i] > 0 and score[i] >= floor}
    if cosines is not None and (first := _sure_first(bm25)) is not None:
        keep.add(first)  # words rank it first, clearly: the meaning floor alone does not drop it (issue 30)
    chosen = sorted(keep, key=lambda i: (-score[i], i))
    qset = set(q)
    out = []
    for i in chosen[:SHOWN]:
        agent, path, name, desc = items[i]
        matched = _matched(desc, qset) or _matched(name, qset)
        out.append(Pick(agent, _kind(path), name, path, desc, matched, float(bm25[i]),
                        None if cosines is None else float(cosines[i])))
    return out


SEM_FLOOR, SEM_SHARE = 0.35, 0.8  # unrelated prompts score under 0.1 on the corpus's skills
SURE = 0.75  # BM25's first is sure when its second scores at most this share of it (as fusion.sure_first)


def _sure_first(bm25) -> int | None:
    """The description BM25 ranks first when it is sure of it (a word many descriptions share
    ranks them alike: no sure first), else None."""
    ranked = sorted(range(len(bm25)), key=lambda i: (-bm25[i], i))
    if not ranked or bm25[ranked[0]] <= 0:
        return None
    second = bm25[ranked[1]] if len(ranked) > 1 else 0.0
    return ranked[0] if second <= SURE * bm25[ranked[0]] else None


def _cosines(root, query: str, items, encoder) -> list[float]:
    """The cosine of the prompt and each description (vectors cached by description text)."""
    import hashlib

    from .semantic import EmbeddingCache, SemanticIndex

    texts = [f"{name}: {desc}" for _, _, name, desc in items]
    keys = ["desc:" + hashlib.sha256(t.encode("utf-8")).hexdigest()[:16] for t in texts]
    cache = EmbeddingCache.open(Path(root), f"{encoder.digest}-desc")  # beside, never in, a store's vectors
    index = SemanticIndex(encoder, texts, keys, cache)
    return [float(c) for c in index.matrix @ index.query_vector(query)] if query.strip() else [0.0] * len(items)


def _matched(text: str, qset: set[str]) -> tuple[str, ...]:
    """The words of `text` (as written there) one of whose terms the prompt has."""
    return tuple(dict.fromkeys(w for w in _words(text) if any(t in qset for t in terms(w))))


def _words(text: str) -> list[str]:
    from ..model.vocabulary import words

    return [w.strip("-_") for w in words(text)]


def _kind(path: str) -> str:
    return next((k for prefix, k in KIND.items() if path.startswith(prefix)), "rule")
