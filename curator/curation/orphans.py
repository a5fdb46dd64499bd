"""The keywords a person would give an orphan's new row (where it goes: `model.homes`).

An orphan's keywords are words and compounds of its title,
headings and body ranked by tf-idf against the store, never dates, hashes, numbers, YAML keys,
stopwords, file names or offensive words; 10–15 of them, meeting the uniqueness rule in that
index without taking a word another row owns. When no such set exists, nothing is suggested and
the reason says why.
"""

from __future__ import annotations

import re
from collections import Counter

from ..model.frontmatter import split_frontmatter
from ..model.homes import Profiles, choose_index
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
    place point points read reads user users item items part parts set new old real main ones stays
    ids end early force load log incorrect benefits change changes statement states minutes round
    body location creating mistakes fixing caught outcomes passing sample bugs codes parent""".split()
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
    # a word said once or twice in passing is not what the memory is about (title words are)
    return Counter({w: n for w, n in counts.items() if n >= 3})


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


__all__ = ["Profiles", "choose_index", "suggest_row_keywords", "usable_word", "weighted_terms"]
