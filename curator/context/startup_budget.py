"""`instructions.startup-budget`: an agent's start-up load over a budget, where the agent caps
nothing itself.

Codex stops adding AGENTS.md text at `project_doc_max_bytes`; every other agent curator models
loads its always-on files in full at every start (Cline's memory bank, Cursor's `alwaysApply`
rules, Copilot's repository file, Claude Code's CLAUDE.md chain and rules...). The budget is
`.curator.yaml` `budgets: {agent-startup: 0.05, context-window: 200000}` — a share of the
model's context window, or a number of tokens when above 1. Path instructions that apply to every
file (`applyTo: "**"`) count too: they come with any file the agent opens.

Agents whose start-up is the same files (several reading one AGENTS.md) get one finding. Tokens
are counted only for an agent whose start-up bytes reach the budget (a token is at least a
byte), so a `check` of a small repository counts nothing.
"""

from __future__ import annotations

from pathlib import Path

from .builder import Builder
from .model import AgentContext, Loaded, OnDemand

CAPPED = frozenset({"codex"})  # stops adding at its own cap (project_doc_max_bytes)
UNCOUNTED = frozenset({"serena"})  # memory names, with the memory budgets of their own
EVERY_FILE = frozenset({"**", "**/*", "/**", "./**", "**/**"})


def budget_tokens(root: str, read: set[str] | None = None) -> tuple[int, str]:
    """The budget in tokens and how it was set, from the repository's `.curator.yaml` (added to
    `read`, the files a kept run depends on)."""
    from ..base.config import Budgets, ConfigError, find_config, load_config

    found = find_config(Path(root))
    if found is not None and read is not None:
        read.add(str(found.resolve()))
    try:
        budgets = load_config(Path(root)).budgets
    except ConfigError:
        budgets = Budgets()
    share, window = budgets.agent_startup, budgets.context_window or Budgets().context_window
    if share > 1:
        return int(share), f"{int(share):,} tokens"
    return int(share * window), f"{share:.0%} of a {window:,}-token context window"


def _always_attached(b: Builder, name: str, ctx: AgentContext) -> list[OnDemand]:
    """Path-triggered items whose globs take in every file: they come with any file (and the
    agent's own wildcards: Copilot's `applyTo: "*"` is one)."""
    every = EVERY_FILE | frozenset(b.rules_of(name).value("path.every-file", ()))
    return [o for o in ctx.on_demand if o.trigger == "path" and any(g.strip() in every for g in o.globs)]


def _top(entry: Loaded, by_path: dict[str, Loaded]) -> str:
    """The file an import chain starts at (an entry loaded for itself is its own top)."""
    seen = set()
    while entry.via and entry.path not in seen:
        seen.add(entry.path)
        parent = by_path.get(entry.via.rsplit(":", 1)[0])
        if parent is None:
            break
        entry = parent
    return entry.path


def _group(path: str, rule: str) -> str:
    """Files a folder rule loads are counted as the folder (memory-bank/, .clinerules/,
    .claude/skills/)."""
    if "/" not in path or not ("folder" in rule or "steering" in rule or rule.endswith("rules.root")):
        return path
    parts = path.split("/")
    return "/".join(parts[:2] if parts[0].startswith(".") and len(parts) > 2 else parts[:1]) + "/"


def check(b: Builder, built: dict[str, AgentContext]) -> None:
    if b.only is not None and "instructions.startup-budget" not in b.only:
        return
    limit, said = budget_tokens(b.fs.root, b.fs.read_paths)
    loads: dict[tuple, list[str]] = {}
    totals: dict[tuple, tuple[int, dict[str, list], int]] = {}
    for name, ctx in built.items():
        if name in CAPPED or name in UNCOUNTED:
            continue
        items: list[tuple[str, str, str, Loaded | None]] = [(e.path, e.text, e.rule, e) for e in ctx.startup]
        items += [(o.path, o.text, o.rule, None) for o in _always_attached(b, name, ctx)]
        if sum(len(t.encode("utf-8")) for _, t, _, _ in items) < limit:
            continue  # fewer bytes than tokens allowed: under budget, nothing to count
        key = tuple(sorted(p for p, _, _, _ in items))
        loads.setdefault(key, []).append(ctx.label)
        if key in totals:
            continue
        counts = _count(b, [t for _, t, _, _ in items])
        by_path = {e.path: e for e in ctx.startup}
        groups: dict[str, list] = {}
        for path, text, rule, entry in items:
            top = _top(entry, by_path) if entry is not None else path
            groups.setdefault(_group(top, rule), []).append((path, counts[text]))
        attached = sum(counts[t] for _, t, _, e in items if e is None)  # path instructions on every file
        totals[key] = (sum(counts[t] for _, t, _, _ in items), groups, attached)
    over: dict[str, list] = {}  # by the part that weighs most: one finding for the agents it burdens
    for key, labels in loads.items():
        total, groups, attached = totals[key]
        if total > limit:
            heaviest = max(groups, key=lambda g: sum(n for _, n in groups[g]))
            over.setdefault(heaviest, []).append((total, labels, groups, len(key), attached))
    for shares in over.values():
        total, _, groups, files, attached = max(shares, key=lambda s: s[0])
        labels = [label for _, names, _, _, _ in sorted(shares, key=lambda s: -s[0]) for label in names]
        _report(b, labels, total, limit, said, groups, files, exact=len(shares) == 1, attached=attached)


def _count(b: Builder, texts: list[str]) -> dict[str, int]:
    from ..base.tokens import default_counter, text_key

    counter = b.counter or default_counter()
    unique = sorted(set(texts))
    return dict(zip(unique, counter.count_many([(text_key(t), t) for t in unique]), strict=True))


def _report(b: Builder, labels: list[str], total: int, limit: int, said: str, groups: dict[str, list],
            files: int, exact: bool = True, attached: int = 0) -> None:
    ranked = sorted(groups.items(), key=lambda kv: -sum(n for _, n in kv[1]))
    parts = []
    for where, members in ranked[:3]:
        n = sum(t for _, t in members)
        largest = max(members, key=lambda m: m[1])
        inner = f" ({len(members)} files, {largest[0].rsplit('/', 1)[-1]} {largest[1]:,} the largest)" \
            if len(members) > 1 else ""
        parts.append(f"{where} {n:,}{inner}")
    more = f"; {len(ranked) - 3} more" if len(ranked) > 3 else ""
    who = _agents(labels)
    # path instructions on every file come with the first file the agent touches, not at start-up:
    # said apart, so the start-up number is the one `curator context` shows
    when = "at every start, before any work (" if not attached else \
        f"with any file it works on (start-up {total - attached:,} + {attached:,} of path instructions on every file; "
    b.add("instructions.startup-budget", ranked[0][0].rstrip("/"),
          f"{who} load{'s' if len(labels) == 1 else ''} {'' if exact else 'up to '}{total:,} tokens of instructions "
          f"{when}{files} files; the budget is {limit:,}: {said}): " + ", ".join(parts) + more)


def _agents(labels: list[str]) -> str:
    if len(labels) == 1:
        return labels[0]
    return ", ".join(labels[:-1]) + " and " + labels[-1]
