"""Terms for retrieval: words, hyphenated compounds and their parts, Snowball-stemmed."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from ..model.vocabulary import STOPWORDS, words

try:  # Snowball (Porter 2) through PyStemmer, a dependency; the light stemmer below if it is missing
    import Stemmer as _snowball

    _STEMMER = _snowball.Stemmer("english")
except ImportError:  # pragma: no cover - PyStemmer is in the base install
    _STEMMER = None

SUFFIXES = (("ations", "ate"), ("ation", "ate"), ("ings", ""), ("ing", ""), ("ies", "y"), ("ied", "y"),
            ("edly", ""), ("ed", ""), ("es", ""), ("s", ""))


# Developers' short forms, read as the word they shorten (both in memories and in queries): a
# note says "env vars" and "db", its reader asks for "environment variables" and "database". Only
# forms with one reading in developer notes (not `spec`, `res`, `temp`, `app`, `sync`).
ABBREVIATIONS = {
    "env": "environment", "envs": "environments", "config": "configuration", "configs": "configurations",
    "cfg": "configuration", "repo": "repository", "repos": "repositories", "dep": "dependency",
    "deps": "dependencies", "db": "database", "dbs": "databases", "dir": "directory", "dirs": "directories",
    "doc": "document", "docs": "documents", "impl": "implementation", "args": "arguments", "arg": "argument",
    "params": "parameters", "param": "parameter", "msg": "message", "msgs": "messages", "func": "function",
    "funcs": "functions", "fn": "function", "pkg": "package", "pkgs": "packages", "lib": "library",
    "libs": "libraries", "perf": "performance", "prod": "production", "dev": "development",
    "tmp": "temporary", "async": "asynchronous", "vars": "variables", "var": "variable",
    "k8s": "kubernetes", "i18n": "internationalization", "info": "information", "btn": "button",
    "img": "image", "imgs": "images", "attr": "attribute", "attrs": "attributes", "stats": "statistics",
    "auth": "authentication", "authn": "authentication",  # not authz: `authorization` stems to `author`
}


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Snowball's English stemmer: `bots` meets `bot`, `labeler` meets `label`, `charging` meets
    `charge`; a short form meets its word (`env` → `environ`, as `environment`). Words with digits
    or other marks (`v2`, `pr-123`) stay as written."""
    word = ABBREVIATIONS.get(word, word)
    if len(word) <= 2 or not word.isalpha():
        return word
    if _STEMMER is not None:
        return _STEMMER.stemWord(word)
    base = _strip_suffix(word) if len(word) > 4 else word
    return base[:-1] if base.endswith("e") and len(base) > 4 else base


def _strip_suffix(word: str) -> str:
    for suffix, repl in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)] + repl
            if suffix in ("es",) and not base.endswith(("s", "x", "z", "ch", "sh")):
                return word[:-1]  # "caches" → "cache", "boxes" → "box"
            if suffix in ("ing", "ed") and len(base) > 3 and base[-1] == base[-2] and base[-1] not in "lsz":
                base = base[:-1]  # "committed" → "commit"
            return base
    return word


def terms(text: str) -> list[str]:
    """Stemmed content terms of a text; a compound adds its parts (`pnpm-lock` → pnpm, lock).

    A word never spans whitespace, so the terms of a text are its whitespace-separated pieces'
    terms in turn: each piece is worked out once and remembered (`_PIECES`), and building an
    index of thousands of memories, whose passages repeat the same words, looks most of them up."""
    out: list[str] = []
    get = _PIECES.get
    for piece in text.split():
        got = get(piece)
        if got is None:
            if len(_PIECES) >= _PIECES_MAX:  # bounded: a long-lived process never grows with it
                _PIECES.clear()
            got = _PIECES[piece] = tuple(_terms(piece))
        out += got
    return out


_PIECES: dict[str, tuple[str, ...]] = {}
_PIECES_MAX = 200_000


# Pictographs people mark memories with (✅ ❌ ⚠️ 🟢 🔴 🚀): Miscellaneous Symbols, Dingbats,
# Miscellaneous Symbols and Arrows, and the emoji planes. Box drawing and arrows stay marks.
PICTOGRAPHS = ((0x2600, 0x27BF), (0x2B00, 0x2BFF), (0x1F300, 0x1FAFF))
# words of a Unicode name that say how it is drawn, not what it shows ("LARGE GREEN CIRCLE")
DRAWN = frozenset({"large", "medium", "small", "heavy", "sign", "symbol", "with"})
# ticks and crosses (✅ ✔ ❌ ✗ ☑) mark done and not done on most rows of a status memory: read as
# "check mark" they made every such memory answer a query about checking something
STATUS_MARKS = ("CHECK", "CROSS", "BALLOT")


def symbol_words(piece: str) -> list[str]:
    """A pictograph read as its Unicode name: 🟢 is "green circle", ✅ "check mark". A memory that
    marks its rows 🟢/🟡/🔴 is found by a query about the green, yellow and red circles, which
    neither its words nor the model (whose vocabulary has no emoji) could see."""
    out: list[str] = []
    for ch in piece:
        if ord(ch) >= 0x2600:
            out += _char_words(ch)
    return out


@lru_cache(maxsize=4096)
def _char_words(ch: str) -> tuple[str, ...]:
    """One character's words (none unless a pictograph): looked up once, so a file of a million
    emoji costs a dictionary lookup each, not a Unicode name each."""
    o = ord(ch)
    if not any(lo <= o <= hi for lo, hi in PICTOGRAPHS):
        return ()
    full = unicodedata.name(ch, "")
    if any(m in full for m in STATUS_MARKS):
        return ()
    name = full.lower().split()
    if name and name[0] in ("white", "black") and len(name) > 1:
        name = name[1:]  # WHITE HEAVY CHECK MARK: white is the outline, not a colour
    return tuple(w for w in name if w not in DRAWN and w not in STOPWORDS)


def _terms(text: str) -> list[str]:
    """`terms` worked out from the words (what `terms` remembers per piece)."""
    out: list[str] = []
    if text.isascii():
        found = words(text)
    else:  # a pictograph's words follow its piece's, as `terms` (piece by piece) gives them
        found = [w for piece in text.split() for w in (*words(piece), *symbol_words(piece))]
    for w in found:
        w = w.strip("-_")
        if not w or w in STOPWORDS:
            continue
        if "-" in w or "_" in w:
            out.append(w)
            for part in w.replace("_", "-").split("-"):
                if part and part not in STOPWORDS and len(part) > 1:
                    out.append(stem(part))
        elif len(w) > 1:
            out.append(stem(w))
    return out


def query_terms(text: str) -> list[str]:
    """Query terms: as `terms`, plus the compound of every adjacent pair (`pnpm lock` → pnpm-lock)."""
    base = terms(text)
    plain = [w for w in words(text) if w not in STOPWORDS]
    compounds = [f"{a}-{b}" for a, b in zip(plain, plain[1:], strict=False) if "-" not in a + b]
    seen: set[str] = set()
    out = []
    for t in base + compounds:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


def keyword_forms(keyword: str) -> set[str]:
    """The forms a keyword answers to: itself, its stem, its parts when hyphenated."""
    k = keyword.lower().strip("`*_")
    forms = {k, stem(k)}
    if "-" in k or "_" in k:
        for part in k.replace("_", "-").split("-"):
            if len(part) > 2 and part not in STOPWORDS:
                forms.add(stem(part))
    return forms
