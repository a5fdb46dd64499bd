"""How the loader's parsed fields go into the store cache: plain values `marshal` can store
(frontmatter dates tagged, parsed indexes as tuples) and back."""

from __future__ import annotations

import marshal
from dataclasses import fields

from .indexes import DomainIndex, IndexLink, IndexRow, L0Index


def plain_frontmatter(data: dict) -> tuple[object, bool]:
    """(what marshal can store, whether dates had to be tagged) — (None, False) when neither."""
    try:
        marshal.dumps(data)
        return data, False
    except ValueError:
        pass
    try:
        plain = _plain(data)
        marshal.dumps(plain)
        return plain, True
    except (ValueError, TypeError):
        return None, False


def _plain(value):
    # YAML's safe loader never makes tuples, so a tuple marks a tagged value
    from datetime import date, datetime

    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, datetime):
        return ("datetime", value.isoformat())
    if isinstance(value, date):
        return ("date", value.isoformat())
    if value is None or isinstance(value, (str, int, float, bool, bytes, set, frozenset)):
        return value
    raise TypeError(type(value).__name__)


def unplain(value):
    from datetime import date, datetime

    if isinstance(value, dict):
        return {unplain(k): unplain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unplain(v) for v in value]
    if isinstance(value, tuple) and len(value) == 2:
        return datetime.fromisoformat(value[1]) if value[0] == "datetime" else date.fromisoformat(value[1])
    return value



# a parsed index as plain tuples (field values in declaration order; private fields are derived)
_INDEX_TYPES = {"L0Index": L0Index, "DomainIndex": DomainIndex}
_ROW_FIELDS = tuple(f.name for f in fields(IndexRow) if not f.name.startswith("_"))
_LINK_FIELDS = tuple(f.name for f in fields(IndexLink) if not f.name.startswith("_"))
# rows and links are rebuilt positionally: their public fields must come first
assert tuple(f.name for f in fields(IndexRow))[: len(_ROW_FIELDS)] == _ROW_FIELDS
assert tuple(f.name for f in fields(IndexLink))[: len(_LINK_FIELDS)] == _LINK_FIELDS


def encode_index(idx) -> tuple | None:
    try:
        values = {}
        for f in fields(idx):
            value = getattr(idx, f.name)
            if f.name == "rows":
                value = tuple(
                    tuple(
                        tuple(tuple(getattr(link, n) for n in _LINK_FIELDS) for link in row.links)
                        if n == "links" else getattr(row, n)
                        for n in _ROW_FIELDS
                    )
                    for row in value
                )
            values[f.name] = value
        encoded = (type(idx).__name__, values)
        marshal.dumps(encoded)
        return encoded
    except (ValueError, TypeError, AttributeError):
        return None  # a value marshal cannot store: parsed again next time


def decode_index(encoded):
    if encoded is None:
        return None
    try:
        kind, values = encoded
        li = _ROW_FIELDS.index("links")
        rows = []
        link = IndexLink
        for t in values["rows"]:
            if len(t) != len(_ROW_FIELDS):
                return None
            t = list(t)
            t[li] = [link(*x) for x in t[li]]
            rows.append(IndexRow(*t))  # public fields lead, in declaration order (checked below)
        return _INDEX_TYPES[kind](**{**values, "rows": rows})
    except (KeyError, TypeError, ValueError):
        return None
