"""YAML from a repository, parsed within bounds: every reader of untrusted YAML (instruction-file
and memory frontmatter, `.curator.yaml`, golden query files, the user's settings) loads it here.

YAML's aliases let 900 bytes name 387 million values (nine levels of `&a [*a ×9]`): the loader
itself builds shared references quickly, but anything that walks the value — a glob list
flattened, a name turned into text, a cache entry written — then runs until killed. A document
whose aliases would expand it by more than `ALIAS_BUDGET` values, or that refers to itself, or
is nested deeper than `MAX_DEPTH`, is refused with a `Refused` YAML error (one line). A text
without `&` has no anchors, so no aliases: it is loaded at once, with no event pass.
"""

from __future__ import annotations

import yaml

ALIAS_BUDGET = 10_000  # values aliases may add beyond those written in the text
MAX_DEPTH = 500

LOADER: type[yaml.SafeLoader] | type[yaml.CSafeLoader]
try:
    LOADER = yaml.CSafeLoader  # libyaml is ~10x faster; the pure loader is the fallback
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    LOADER = yaml.SafeLoader


class Refused(yaml.YAMLError):
    """A document curator will not expand; `problem` says why (PyYAML's attribute name)."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.problem_mark = None


def check_aliases(text: str, loader=LOADER) -> None:
    """Raise Refused when the aliases of `text` expand past the budget, refer to themselves, or
    it nests too deeply (yaml.YAMLError for text that does not parse)."""
    sizes: dict[str, int] = {}
    stack: list[list] = []  # [anchor, values so far] of each open collection
    open_anchors: set[str] = set()
    seen = written = 0  # values of the expanded document so far; events in the text
    for event in yaml.parse(text, Loader=loader):
        written += 1
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if len(stack) >= MAX_DEPTH:
                raise Refused(f"it is nested more than {MAX_DEPTH} levels deep")
            stack.append([event.anchor, 1])
            seen += 1
            if event.anchor:
                open_anchors.add(event.anchor)
            continue
        if isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            anchor, n = stack.pop()
            if anchor:
                sizes[anchor] = n
                open_anchors.discard(anchor)
        elif isinstance(event, yaml.ScalarEvent):
            n = 1
            seen += 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor in open_anchors:
                raise Refused("a YAML alias refers to the value that holds it")
            n = sizes.get(event.anchor, 1) if event.anchor is not None else 1
            seen += n
            if seen > ALIAS_BUDGET + written:
                raise Refused(f"its aliases expand to more than {ALIAS_BUDGET:,} values")
        else:
            continue
        if stack:
            stack[-1][1] += n


def load(text: str, loader=LOADER):
    """`yaml.load(text)` with the safe loader, within the bounds above."""
    if "&" in text:
        check_aliases(text, loader)
    return yaml.load(text, Loader=loader)
