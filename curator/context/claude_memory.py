"""Claude Code's memory: auto memory (the user's, shown apart), a `.claude/memory/` committed in
the repository (start-up only when imported), and the subagent memory folders agents write
(`.claude/agent-memory/<agent>/`, `.claude/agent-memory-local/`, `~/.claude/agent-memory/`)."""

from __future__ import annotations

import os

from ..agents import RuleSet
from ..model import formats as fmts
from .builder import Builder, cut_bytes
from .model import AgentContext, Loaded, MemoryFolder, OnDemand, Unseen
from .user import claude_moved, claude_place, count_md, shown_path


def repository_memory(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    """Auto memory committed in the repository: at start-up only when imported."""
    folder = rules.value("memory.repository")
    auto = rules.value("memory.auto")
    index = f"{folder}/{auto['index']}"
    cap = rules.value("memory.auto-cap")
    rule = rules.id("memory.repository")
    if index in b.fs.fileset and index not in {e.path for e in ctx.startup}:
        t = b.text(index)
        if t is not None:
            ctx.on_demand.append(OnDemand(index, "never by itself: auto memory is read from "
                                          "~/.claude/projects/<slug>/memory unless a loaded file imports it or "
                                          "your settings' autoMemoryDirectory point here", 0, t.size, "manual",
                                          text=t.text, rule=rule))
    for e in ctx.startup:
        if e.path.endswith(auto["index"]) and e.via:
            first = fmts.claude_cap_line(e.text, cap["lines"], cap["bytes"])
            if first is not None:  # imported in full; the auto-memory cap applies only when auto-loaded
                ctx.notes.append(f"{e.path} is imported in full; as auto memory only its "
                                 f"{fmts.claude_cap_words(cap)} would load")
    for rel in b.fs.under(folder):
        if rel.endswith(".md") and rel != index and all(e.path != rel for e in ctx.startup):
            t = b.text(rel)
            if t is not None:
                ctx.on_demand.append(OnDemand(rel, "memory topic file: read when the agent follows MEMORY.md",
                                              0, t.size, "invoked", text=t.text, rule=rule))


def subagent_memory(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    """The subagent memory folders: each agent's folder in the repository (its MEMORY.md reaches
    that subagent when it runs) and the user's own, apart and read-only (not when CI is set)."""
    places = rules.value("memory.subagents")
    rule = rules.id("memory.subagents")
    auto = rules.value("memory.auto")
    for scope in ("project", "local"):
        base = places[scope]
        agents = sorted({rel[len(base) + 1:].split("/", 1)[0] for rel in b.fs.under(base) if rel.count("/") > 1})
        for agent in agents:
            files = [rel for rel in b.fs.under(f"{base}/{agent}") if rel.endswith(".md")]
            size = sum(getattr(b.fs.read(rel), "size", 0) for rel in files)
            ctx.memory_folders.append(MemoryFolder(f"{base}/{agent}/", scope, len(files), size, True, rule))
            index = f"{base}/{agent}/{auto['index']}"
            t = b.text(index) if index in b.fs.fileset else None
            if t is not None:
                ctx.on_demand.append(OnDemand(index, f"when the {agent} subagent runs (its own memory, {scope})", 0,
                                              t.size, "invoked", text=t.text, rule=rule))
    if b.ci:
        return
    user = claude_place(b.home, claude_moved(b, rules), places["user"])
    try:
        agents = sorted(os.listdir(user)) if os.path.isdir(user) and not os.path.islink(user) else []
    except OSError as exc:  # a folder this user cannot read (a moved config folder can be anywhere)
        ctx.notes.append(f"{shown_path(b.home, user)} cannot be read ({exc.strerror}): its subagent memory is not shown")
        agents = []
    for agent in agents:
        folder = os.path.join(user, agent)
        if not os.path.isdir(folder) or os.path.islink(folder):
            continue
        n_files, size = count_md(folder)
        ctx.memory_folders.append(MemoryFolder(shown_path(b.home, folder) + "/", "user", n_files, size, False, rule))


def auto_memory(b: Builder, ctx: AgentContext, rules: RuleSet, slug_root: str) -> None:
    """The project's auto memory (~/.claude/projects/<slug>/memory/MEMORY.md): the user's, apart."""
    from ..model.sources import claude_slug
    from .user import read_user

    auto = rules.value("memory.auto")
    cap = rules.value("memory.auto-cap")
    rule = rules.id("memory.auto")
    mem = f"{auto['folder'].replace('<slug>', claude_slug(slug_root))}/{auto['index']}"
    for shown, text in read_user(b.home, [claude_place(b.home, claude_moved(b, rules), mem)], []):
        entry = Loaded(shown, len(text.encode("utf-8")), 0,
                       f"auto memory ({fmts.claude_cap_words(cap)})", None, None, text, rule)
        first = fmts.claude_cap_line(text, cap["lines"], cap["bytes"])
        if first is not None:
            kept = "".join(text.splitlines(keepends=True)[: first - 1]).encode("utf-8")
            cut_bytes(entry, len(kept), f"auto memory loads its {fmts.claude_cap_words(cap)}; lines {first}+ are "
                      "never seen")
            ctx.never.append(Unseen(shown, f"lines {first}+ past the auto-memory cap", entry.bytes - len(kept),
                                    rules.id("memory.auto-cap")))
        ctx.user.append(entry)
