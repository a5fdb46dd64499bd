"""Claude Code's memory: auto memory (the user's, shown apart), a `.claude/memory/` committed in
the repository (start-up only when imported), and the subagent memory folders agents write
(`.claude/agent-memory/<agent>/`, `.claude/agent-memory-local/`, `~/.claude/agent-memory/`)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..agents import RuleSet
from ..base.paths import from_home
from ..model import formats as fmts
from ..model.auto_memory import switch_off, with_modes
from .builder import Builder, cut_bytes
from .model import AgentContext, Cut, Loaded, MemoryFolder, OnDemand, Unseen
from .user import claude_moved, claude_place, count_md, shown_path


@dataclass(frozen=True, slots=True)
class AutoPlace:
    """Where this session's auto memory is, or why there is none."""

    off: str = ""  # why auto memory is off ("": it is on)
    folder: str = ""  # "" the default (~/.claude/projects/<slug>/memory); repository-relative when `inside`
    inside: bool = False
    why: str = ""  # where autoMemoryDirectory is set
    note: str = ""  # a value Claude Code does not take


def auto_place(b: Builder, rules: RuleSet, settings) -> AutoPlace | None:
    """The auto-memory folder by the variable, simple mode and the settings (None: this version
    has no auto memory)."""
    if not rules.has("memory.auto"):
        return None
    switch = rules.value("memory.auto-switch", None)
    off = switch_off(b.env, with_modes(rules, switch), settings.auto_enabled) if switch else ""
    if off:
        return AutoPlace(off=off)
    if settings.auto_dir is None:
        return AutoPlace()
    value, shown = settings.auto_dir
    path = from_home(value, b.home)
    if not os.path.isabs(path) or "\x00" in path:
        return AutoPlace(note=f"{shown}: autoMemoryDirectory {value!r} is not an absolute path; Claude Code keeps "
                              "the default folder")
    path, root = os.path.normpath(path), os.path.normpath(b.fs.root)
    inside = _inside(path, root) or _inside(os.path.realpath(path), os.path.realpath(root))  # named through a link
    if inside is not None:
        return AutoPlace(folder=inside, inside=True, why=f"autoMemoryDirectory in {shown}")
    return AutoPlace(folder=path, why=f"autoMemoryDirectory in {shown}")


def _inside(path: str, root: str) -> str | None:
    """`path` relative to `root` ("." for the root itself), None when it is not inside."""
    if path == root or path.startswith(root.rstrip(os.sep) + os.sep):
        return os.path.relpath(path, root).replace(os.sep, "/")
    return None


def repository_memory(b: Builder, ctx: AgentContext, rules: RuleSet, place: AutoPlace | None = None) -> None:
    """Auto memory committed in the repository: at start-up only when imported, or when your
    autoMemoryDirectory names it."""
    folder = rules.value("memory.repository")
    auto = rules.value("memory.auto", {"index": "MEMORY.md"})
    index = f"{folder}/{auto['index']}"
    cap = rules.value("memory.auto-cap", None)
    rule = rules.id("memory.repository")
    if place is not None and place.inside and not place.off:
        _auto_in_repository(b, ctx, rules, place)
        if place.folder == folder:
            return
    if index in b.fs.fileset and index not in {e.path for e in ctx.startup}:
        t = b.text(index)
        if t is not None:
            ctx.on_demand.append(OnDemand(index, "never by itself: auto memory is read from "
                                          "~/.claude/projects/<slug>/memory unless a loaded file imports it or "
                                          "your settings' autoMemoryDirectory point here", 0, t.size, "manual",
                                          text=t.text, rule=rule))
    for e in ctx.startup if cap else ():
        if e.path.endswith(auto["index"]) and e.via:
            first = fmts.claude_cap_line(e.text, cap["lines"], cap["bytes"], bool(cap.get("strip")))
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
    auto = rules.value("memory.auto", {"index": "MEMORY.md"})
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


def auto_memory(b: Builder, ctx: AgentContext, rules: RuleSet, slug_root: str, place: AutoPlace | None) -> None:
    """The project's auto memory (~/.claude/projects/<slug>/memory/MEMORY.md, or the folder your
    autoMemoryDirectory names outside the repository): the user's, apart."""
    from ..model.sources import claude_slug
    from .user import read_user

    if place is None or place.inside:
        return  # no auto memory in this version; or the repository's (repository_memory)
    if place.note:
        ctx.notes.append(place.note)
    if place.off:
        ctx.notes.append(f"auto memory is off: {place.off}")
        return
    auto = rules.value("memory.auto")
    if place.folder:
        path = os.path.join(place.folder, auto["index"])
    else:
        if rules.has("memory.auto-worktrees"):  # a linked worktree reads its main checkout's
            from pathlib import Path

            from ..base.worktree import main_checkout

            slug_root = str(main_checkout(Path(slug_root)))
        mem = f"{auto['folder'].replace('<slug>', claude_slug(slug_root))}/{auto['index']}"
        path = claude_place(b.home, claude_moved(b, rules), mem)
    for shown, text in read_user(b.home, [path], []):
        entry, cut = _capped(rules, shown, text, place.why)
        ctx.user.append(entry)
        if cut is not None:
            ctx.never.append(cut)


def _capped(rules: RuleSet, path: str, text: str, why: str) -> tuple[Loaded, Unseen | None]:
    """An auto-memory MEMORY.md as it loads: its first lines or bytes (the version's cap)."""
    cap = rules.value("memory.auto-cap")
    where = f"; {why}" if why else ""
    entry = Loaded(path, len(text.encode("utf-8")), 0, f"auto memory ({fmts.claude_cap_words(cap)}{where})", None,
                   None, text, rules.id("memory.auto"))
    if cap.get("strip"):  # what Claude Code injects: frontmatter and comments out, trimmed, capped
        from ..model.memory_md import loaded_index

        shown, first = loaded_index(text, cap["lines"], cap["bytes"])
        if first is None:
            entry.text = shown
            return entry, None
        past = len("".join(text.splitlines(keepends=True)[first - 1:]).encode("utf-8"))
        entry.text = shown
        index = shown.split("\n\n> WARNING: ", 1)[0]  # the file's part; Claude Code's warning line follows it
        entry.cut = Cut(len(index.encode("utf-8")), f"auto memory loads its {fmts.claude_cap_words(cap)}; lines "
                                                    f"{first}+ are never seen")
        return entry, Unseen(path, f"lines {first}+ past the auto-memory cap", past, rules.id("memory.auto-cap"))
    first = fmts.claude_cap_line(text, cap["lines"], cap["bytes"], strip=False)
    if first is None:
        return entry, None
    kept = "".join(text.splitlines(keepends=True)[: first - 1]).encode("utf-8")
    cut_bytes(entry, len(kept), f"auto memory loads its {fmts.claude_cap_words(cap)}; lines {first}+ are never seen")
    return entry, Unseen(path, f"lines {first}+ past the auto-memory cap", entry.bytes - len(kept),
                         rules.id("memory.auto-cap"))


def _auto_in_repository(b: Builder, ctx: AgentContext, rules: RuleSet, place: AutoPlace) -> None:
    """Your autoMemoryDirectory names a folder of the repository: its MEMORY.md loads at start-up
    (capped), its topic files when the agent follows it."""
    name = rules.value("memory.auto")["index"]
    index = name if place.folder == "." else f"{place.folder}/{name}"
    t = b.text(index) if index in b.fs.fileset else None
    if t is not None and index in {e.path for e in ctx.startup}:
        ctx.notes.append(f"{index} is your auto memory and is imported too: shown once, as imported (whole)")
    elif t is not None:
        entry, cut = _capped(rules, index, t.text, place.why)
        ctx.startup.append(entry)
        if cut is not None:
            ctx.never.append(cut)
    known = {e.path for e in ctx.startup} | {o.path for o in ctx.on_demand}  # a rule under `.claude/`: itself
    for rel in b.fs.under(place.folder) if place.folder != "." else ():  # the root: not a memory folder's files
        if rel.endswith(".md") and rel != index and rel not in known:
            t = b.text(rel)
            if t is not None:
                ctx.on_demand.append(OnDemand(rel, "auto-memory topic file: read when the agent follows MEMORY.md",
                                              0, t.size, "invoked", text=t.text, rule=rules.id("memory.auto")))
