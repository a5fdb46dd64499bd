"""How the Cline SDK (since 4.0) reads one rule file, as `@cline/core` 0.0.86 does (`yX`, `hX`,
`nw`, `sw` in its bundle; /work/research/agents/cline18.md and review18.md): a UTF-8 BOM dropped,
frontmatter only between a first `---` line and a closing `---` line (else the whole file is the
body), YAML 1.2 (`yes` and `2024-01-01` are text), frontmatter that is not a mapping read as none,
`name:` text or absent, `disabled:` (else `enabled: false`) a boolean or the rule is dropped, and
rules sorted by name as JavaScript's `localeCompare` sorts (punctuation, symbols, digits, then
letters, accents and case weighed last).

Pure: text in, what the SDK makes of it out.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import yaml

from ..base.safeyaml import load

_FRONT = re.compile(r"^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)")


class _Core(yaml.SafeLoader):
    """YAML 1.2's core schema: only true/false are booleans, no timestamps, no yes/no/on/off."""


_Core.yaml_implicit_resolvers = {}
for _tag, _pattern, _first in (
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("null", r"^(?:~|null|Null|NULL|)$", "~nN"),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
     "-+.0123456789"),
):
    _Core.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(_pattern),
                                [*_first, ""] if _tag == "null" else list(_first))  # "": the empty scalar


@dataclass(slots=True)
class SdkRule:
    name: str  # what the rule is keyed by (`name:`, else the file's stem; trimmed, lower case)
    state: str  # "load" | "off" (read, holding its name) | "drop" (never read)
    why: str = ""  # for off and drop: the reason, in a sentence
    shown: str = ""  # the name as written: what the rules are sorted by
    paths: bool = False  # it has a `paths:` key (which the SDK does not read)


def read_rule(text: str, stem: str) -> SdkRule:
    """What the SDK makes of one rule file whose name without its ending is `stem`."""
    text = text.removeprefix("\ufeff")
    m = _FRONT.match(text)
    data: object = {}
    body = text
    if m:
        body = text[m.end():]
        try:
            data = load(m.group(1), loader=_Core)  # the alias budget and depth every repository YAML gets
        except (yaml.YAMLError, RecursionError, ValueError):
            return SdkRule(stem.strip().lower(), "drop", "its frontmatter cannot be read: the SDK drops the rule")
    meta = data if isinstance(data, dict) else {}
    name = meta.get("name")
    if name is not None and not isinstance(name, str):
        return SdkRule(stem.strip().lower(), "drop", "`name:` is not text: the SDK drops the rule")
    shown = name.strip() if isinstance(name, str) and name.strip() else stem
    key = shown.strip().lower()
    disabled, enabled = meta.get("disabled"), meta.get("enabled")
    for field, value in (("disabled", disabled), ("enabled", enabled if disabled is None else None)):
        if value is not None and not isinstance(value, bool):
            return SdkRule(key, "drop", f"`{field}:` is not true or false: the SDK drops the rule")
    if not body.strip():
        return SdkRule(key, "drop", "no text after its frontmatter: Cline skips it")
    if disabled is True or (disabled is None and enabled is False):
        return SdkRule(key, "off", f"turned off by `{'disabled: true' if disabled else 'enabled: false'}` in its "
                                   "frontmatter")
    return SdkRule(key, "load", shown=shown, paths="paths" in meta)


def collation(name: str) -> tuple:
    """A sort key close to ICU's root collation (`localeCompare`): whitespace, punctuation, symbols,
    digits, letters; accents and case count only between otherwise equal names."""
    primary = []
    for c in unicodedata.normalize("NFKD", name):
        if unicodedata.combining(c):
            continue
        cat = unicodedata.category(c)
        group = 0 if c.isspace() else 1 if cat[0] == "P" else 2 if cat[0] == "S" else 3 if cat[0] == "N" else 4
        primary.append((group, c.casefold()))
    return (primary, name.casefold(), name)
