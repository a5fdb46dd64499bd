"""Where an unindexed memory belongs: only an index whose rows point at memories (never an
index of indexes, never a sidecar index of `*-observations` files), chosen by folder, name and
content similarity to the memories already in it. Pure; shared by `orphan.unindexed` (the
suggestion it shows) and `curator fix` (the row it plans), so both name the same index.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import chain

from .store import Store
from .vocabulary import words


@dataclass
class Profiles:
    """What the indexes hold, derived once per planning run (never stored on the Store)."""

    store: Store
    df: Counter = field(default_factory=Counter)
    n_docs: int = 1
    file_stems: set[str] = field(default_factory=set)
    memory_indexes: dict[str, dict] = field(default_factory=dict)
    keyword_rows: Counter = field(default_factory=Counter)  # keyword -> rows in any index
    by_word: dict[str, list[str]] = field(default_factory=dict)  # keyword -> memory indexes using it
    by_name: dict[str, list[str]] = field(default_factory=dict)  # name word -> memory indexes
    by_folder: dict[str, list[str]] = field(default_factory=dict)  # folder -> memory indexes with memories there

    @classmethod
    def of(cls, store: Store) -> Profiles:
        p = cls(store)
        p.file_stems = {r.stem.lower() for r in store.records.values()}
        for _path, rows in store.all_indexes():
            for row in rows:
                p.keyword_rows.update(row.keyword_set)
        for path, idx in store.domain_indexes.items():
            targets = [lk.target for row in idx.rows for lk in row.links if lk.target]
            recs = [store.records.get(t) for t in targets]
            memories = [r for r in recs if r is not None and r.level == 2]
            if not targets or len(memories) < 0.8 * len(targets):
                continue  # an index of indexes, or mostly dead rows
            sidecars = sum(1 for r in memories if r.stem.endswith("-observations"))
            if sidecars >= 0.5 * len(memories):
                continue  # a sidecar (observations) index
            folders = Counter(r.folder for r in memories)
            vocab: Counter = Counter()
            for row in idx.rows:
                vocab.update(row.keyword_set)
            name_words = {w for w in re.split(r"[^a-z0-9]+", idx.domain.lower()) if w}
            for r in memories:
                name_words |= set(re.split(r"[^a-z0-9]+", r.stem.lower()))
            names = name_words - {"", "md"}
            p.memory_indexes[path] = {"folders": folders, "size": len(memories), "vocab": vocab, "names": names}
            for w in vocab:
                p.by_word.setdefault(w, []).append(path)
            for w in names:
                p.by_name.setdefault(w, []).append(path)
            for f in folders:
                p.by_folder.setdefault(f, []).append(path)
        return p

    def moved_to(self, store: Store) -> Profiles:
        """These profiles for a later snapshot whose indexes and names are the same (a memory's
        text edited): the document frequencies are counted again when asked."""
        self.store, self.df, self.n_docs = store, Counter(), 1
        return self

    def idf(self, word: str) -> float:
        if not self.df:  # document frequencies: only when keywords are suggested
            mems = self.store.memories()
            for r in mems:
                self.df.update(set(words(r.text)))
            self.n_docs = max(1, len(mems))
        return math.log(1 + self.n_docs / (1 + self.df.get(word, 0)))


def _routed(store: Store, index: str) -> bool:
    return store.l0 is None or index in store.routes_to


def choose_index(store: Store, path: str, profiles: Profiles | None = None) -> str | None:
    """The index of memories an orphan most likely belongs in, or None when none fits: the
    share of the index's memories in the orphan's folder weighs most, then shared name words,
    then the orphan's words among the index's keywords."""
    p = profiles or Profiles.of(store)
    rec = store.records.get(path)
    if rec is None or not rec.readable or rec.stem.endswith("-observations"):
        return None  # an observations sidecar is no atomic memory
    folder = rec.folder
    stem_words = set(re.split(r"[^a-z0-9]+", rec.stem.lower())) - {""}
    # only indexes that share a folder, a name word or a keyword can score: count through the
    # inverted maps instead of comparing with every index
    by_word, by_name = p.by_word, p.by_name
    text_words = set(words(rec.text))
    name = Counter(chain.from_iterable(by_name[w] for w in stem_words if w in by_name))
    in_folder = p.by_folder.get(folder, ()) if folder else ()
    if in_folder:
        # folder evidence outweighs any other: only those indexes can win, compare with them
        candidates = set(in_folder)
        content = Counter({ip: len(text_words & p.memory_indexes[ip]["vocab"].keys()) for ip in candidates})
    else:
        content = Counter(chain.from_iterable(by_word[w] for w in text_words if w in by_word))
        candidates = set(content) | set(name)
    best, best_score = None, 0.0
    for ipath in sorted(candidates):
        if not _routed(store, ipath):
            continue
        prof = p.memory_indexes[ipath]
        folder_share = prof["folders"].get(folder, 0) / prof["size"] if folder else 0.0
        name_share = name[ipath] / max(1, len(stem_words))
        content_share = content[ipath] / max(1, len(prof["vocab"]))
        score = 3 * folder_share + name_share + 2 * content_share
        evidence = folder_share > 0 or (name_share >= 0.5 and content_share >= 0.1)
        if evidence and score > best_score:
            best, best_score = ipath, score
    return best
