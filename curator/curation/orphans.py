"""Where an unindexed memory belongs and the keywords a person would give its row.

An orphan goes only into an index whose rows point at memories — never an index of indexes,
never a sidecar index of `*-observations` files — chosen by folder, name and content
similarity to the memories already in it. Its keywords are words and compounds of its title,
headings and body ranked by tf-idf against the store, never dates, hashes, numbers, YAML keys,
stopwords, file names or offensive words; 10–15 of them, meeting the uniqueness rule in that
index without taking a word another row owns. When no such set exists, nothing is suggested and
the reason says why.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from ..model.frontmatter import split_frontmatter
from ..model.markdown import iter_unfenced
from ..model.store import Store
from ..model.vocabulary import STOPWORDS, words

MIN_KEYWORDS, MAX_KEYWORDS, TARGET_KEYWORDS = 10, 15, 12

# words that say nothing about one memory: template section names and prose fillers
GENERIC = frozenset(
    """known issue issues symptoms root cause solution prevention related summary error remediation
    practice impact validation reflection reflect notes note context overview details detail example
    examples always need needs needed first second last next step steps section sections following
    result results case cases thing things way ways time times want wants work works working
    added adding update updated updates file files line lines instead already without across
    based whether rather still each both many several within able doesn don't isn won't can't
    good better best bad important should could would might include includes including
    description title type name names yes okay ok todo tbd fix fixed fixes problem problems
    session sessions created last-updated updated-at reference references see also said says
    applies apply applied provides provide provided happened happens called calls call get gets
    high low number numbers lost keep kept correct wrong actually really simple simply common
    potential completed complete appears appear separate single two three four five six places
    place point points read reads user users item items part parts set new old real main""".split()
)
OFFENSIVE = frozenset(
    "fuck fucking fucked shit shitty bullshit crap damn damned bitch bastard asshole ass dick cunt piss wtf".split()
)
YAML_KEY = re.compile(r"^\s*[-*]?\s*([A-Za-z_][\w-]*)\s*:(\s|$)")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
URL = re.compile(r"\bhttps?://\S+|\bwww\.\S+")
HEXISH = re.compile(r"^[0-9a-f]{6,}$")


def usable_word(word: str) -> bool:
    """A word a person would type as a keyword."""
    if word in STOPWORDS or word in GENERIC or len(word) < 3 or len(word) > 30:
        return False
    parts = word.split("-")
    if any(p in OFFENSIVE for p in parts):
        return False
    if any(c.isdigit() for c in word):  # dates, times, versions, counts, hashes, ids
        return False
    if HEXISH.match(word) or "_" in word or word.count("-") > 2:
        return False
    return all(len(p) >= 2 for p in parts)


def weighted_terms(text: str) -> Counter:
    """Usable words and compounds of a memory: title ×3, headings ×2, body ×1; frontmatter,
    code fences, link targets, URLs and `key:` lines' keys left out."""
    _fm, body, first = split_frontmatter(text)
    lines = body.splitlines()
    counts: Counter = Counter()
    title_words: list[str] = []
    for _no, line in iter_unfenced(lines, first):
        s = line.strip()
        if not s:
            continue
        weight = 1
        if s.startswith("# "):
            weight = 3
        elif s.startswith("#"):
            weight = 2
        m = YAML_KEY.match(s)
        if m and not s.startswith("#"):
            s = s[m.end(1) + 1:]  # a `key: value` line: the key is structure, not content
        s = URL.sub(" ", LINK_TARGET.sub("]", s)).replace("**", " ").replace("`", " ")
        ws = [w.strip("-") for w in words(s)]
        for w in ws:
            if usable_word(w):
                counts[w] += weight
        if weight == 3 and not title_words:
            title_words = [w for w in ws if usable_word(w) and "-" not in w]
    flat = " ".join(words(body))
    for a, b in zip(title_words, title_words[1:], strict=False):  # title compounds: `token-budget`
        if flat.count(f"{a} {b}") + flat.count(f"{a}-{b}") >= 2:
            counts[f"{a}-{b}"] += 2
    # a word said once in passing is not what the memory is about (title/heading words are)
    return Counter({w: n for w, n in counts.items() if n >= 2})


@dataclass
class Profiles:
    """What the indexes hold, derived once per planning run (never stored on the Store)."""

    store: Store
    df: Counter = field(default_factory=Counter)
    n_docs: int = 1
    file_stems: set[str] = field(default_factory=set)
    memory_indexes: dict[str, dict] = field(default_factory=dict)
    keyword_rows: Counter = field(default_factory=Counter)  # keyword -> rows in any index

    @classmethod
    def of(cls, store: Store) -> Profiles:
        p = cls(store)
        mems = store.memories()
        for r in mems:
            p.df.update(set(words(r.text)))
        p.n_docs = max(1, len(mems))
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
            p.memory_indexes[path] = {"folders": folders, "size": len(memories), "vocab": vocab,
                                      "names": name_words - {"", "md"}}
        return p

    def idf(self, word: str) -> float:
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
    text_words = set(words(rec.text))
    best, best_score = None, 0.0
    for ipath, prof in sorted(p.memory_indexes.items()):
        if not _routed(store, ipath):
            continue
        folder_share = prof["folders"].get(folder, 0) / prof["size"] if folder else 0.0
        name = len(stem_words & prof["names"]) / max(1, len(stem_words))
        vocab = prof["vocab"]
        content = sum(1 for w in vocab if w in text_words) / max(1, len(vocab)) if vocab else 0.0
        score = 3 * folder_share + name + 2 * content
        evidence = folder_share > 0 or (name >= 0.5 and content >= 0.1)
        if evidence and score > best_score:
            best, best_score = ipath, score
    return best


def suggest_row_keywords(store: Store, path: str, index: str, planned: list[tuple[list[str], str]] | None = None,
                         profiles: Profiles | None = None) -> tuple[list[str] | None, str]:
    """10–15 keywords for a new row of `index` pointing at `path`, or (None, why)."""
    p = profiles or Profiles.of(store)
    rec = store.records.get(path)
    if rec is None or not rec.readable:
        return None, f"{path} cannot be read"
    idx = store.domain_indexes.get(index)
    if idx is None:
        return None, f"{index} is not a domain index"
    uses: Counter = Counter()  # rows of this index (and this plan's new rows) using each word
    for row in idx.rows:
        uses.update(row.keyword_set)
    for kws, _ in planned or []:
        uses.update(k.lower() for k in kws)
    terms = weighted_terms(rec.text)
    for w in words(rec.stem.replace("_", "-").replace("-", " ")):  # the file name says what it is about
        if usable_word(w) and w in terms:
            terms[w] += 3
    own = {rec.stem.lower()}
    ranked = []
    for w, tf in terms.items():
        if w in p.file_stems and w not in own:
            continue  # a sibling's file name says where to go, not what this is about
        if uses.get(w, 0) == 1:
            continue  # another row owns this word: taking it would cost that row its uniqueness
        elsewhere = p.keyword_rows.get(w, 0)
        score = tf * p.idf(w) / (1 + 0.5 * elsewhere)
        ranked.append((-score, w))
    ranked.sort()
    unique = [w for _, w in ranked if uses.get(w, 0) == 0]
    if len(unique) < MIN_KEYWORDS * 0.4:
        return None, f"only {len(unique)} distinctive word(s) of its own; write its row by hand"
    chosen: list[str] = []
    n_unique = 0
    for _, w in ranked:
        if len(chosen) >= TARGET_KEYWORDS:
            break
        is_unique = uses.get(w, 0) == 0
        if not is_unique and (n_unique) / (len(chosen) + 1) < 0.5:
            continue  # keep the row well above 40% of its own words
        chosen.append(w)
        n_unique += is_unique
    if len(chosen) < MIN_KEYWORDS:
        return None, f"only {len(chosen)} usable keyword(s) (a row needs {MIN_KEYWORDS}–{MAX_KEYWORDS}); write its row by hand"
    if n_unique / len(chosen) < 0.4:
        return None, "no keyword set meets the 40% uniqueness rule in this index"
    return chosen, ""
