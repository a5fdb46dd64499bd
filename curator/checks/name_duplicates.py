"""duplicate.name: memories whose names say they are versions of one memory.

`SERENA_MEMORY_BEST_PRACTICES` beside `SERENA_MEMORY_CONSOLIDATED_BEST_PRACTICES`,
`code_style_conventions` beside `code_style_and_conventions`: the same words once a version word
(consolidated, final, updated, v2, ...) or a filler (and, the, of) is set aside. The newer text is
often rewritten enough that shingles (duplicate.near) miss the pair; the names do not. A name with
a date is one of a series (session logs, dated snapshots), never a version of another.
"""

from __future__ import annotations

import re

from .context import Context

VERSION_WORDS = frozenset("""consolidated final updated update new old revised copy backup draft full latest improved
complete completed comprehensive merged combined refined current fixed v1 v2 v3 v4 v5""".split())
FILLER = frozenset({"and", "the", "of", "a", "an", "for"})
_DATE = re.compile(r"(?<!\d)(?:19|20)\d\d[-_.]?(?:0[1-9]|1[0-2])(?:[-_.]?(?:0[1-9]|[12]\d|3[01]))?(?!\d)")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
MIN_CORE = 2  # words the names share once the version words are aside


def name_words(stem: str) -> list[str]:
    return [w for w in re.split(r"[-_\s.]+", _CAMEL.sub("_", stem).lower()) if w]


def run(ctx: Context) -> None:
    groups: dict[tuple[str, ...], list[tuple[str, set[str]]]] = {}
    for path, rec in ctx.store.records.items():
        if rec.level != 2 or rec.kind not in ("memory", "experience") or rec.tier == "transient":
            continue
        stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        if _DATE.search(stem):
            continue
        words = name_words(stem)
        core = [w for w in words if w not in VERSION_WORDS and w not in FILLER]
        if len(core) < MIN_CORE:
            continue
        groups.setdefault(tuple(core), []).append((path, set(words) - set(core)))
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort(key=lambda m: (len(m[1]), m[0]))  # the plain name first, then the versions
        first, extra = members[0]
        others = [(p, e) for p, e in members[1:] if e != extra]
        if not others:
            continue  # the same words twice (two folders): not a version of the other
        said = sorted({w for _, e in others for w in e ^ extra})
        names = ", ".join(p for p, _ in others)
        ctx.add("duplicate.name", first,
                f"{first} and {names} differ only by {' and '.join(repr(w) for w in said)}: their names say they "
                "are one memory in two versions — keep the one that holds, merge what the other adds, archive the "
                "other", target=others[0][0])
