"""Words of memories and keywords: tokenising and stopwords."""

from __future__ import annotations

import re

WORD = re.compile(r"[a-z0-9][a-z0-9_\-]*[a-z0-9]|[a-z0-9]")

STOPWORDS = frozenset(
    """a about above after again against all also an and any are as at be because been before
    being below between both but by can could did do does doing done down during each else
    even every few for from further get gets got had has have having he her here hers him his
    how i if in into is it its itself just let like make may me might more most much must my
    never new no nor not now of off often on once one only or other our out over own per same
    see set she should so some such than that the their them then there these they this those
    through to too under until up upon us use used uses using very via was we well were what
    when where which while who whom why will with within without would yes yet you your
    true false none null n/a e.g i.e etc key value status date task target""".split()
)


def words(text: str) -> list[str]:
    """Lowercase words; hyphenated compounds stay whole (`pr-review`)."""
    return WORD.findall(text.lower())


def content_words(text: str) -> list[str]:
    return [w for w in words(text) if w not in STOPWORDS and len(w) > 2 and not w.isdigit()]
