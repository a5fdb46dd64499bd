"""Claude Code: what it loads from the repository, by the rules of the version chosen
(curator/agents/claude_code.py — every number and name below comes from there).

Started at the repository root: `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md` at start-up,
each followed by its imports; since 2.1.277, under `instructionFiles` (claude_settings.py),
`AGENTS.md` and `.claude/AGENTS.md` where none of those three is found (or beside them with
`claude-md-and-agents-md`); `.claude/rules` without `paths:`; the listing of skills, commands and
subagents. On demand: the same files in subfolders with their own imports (a subfolder's
`AGENTS.md` only where no CLAUDE.md file is at or above it), rules with `paths:`, bodies.
`claudeMdExcludes` takes files out of the walk.
"""

from __future__ import annotations

import os

from ..agents import RuleSet, mebibytes
from . import claude_hooks, claude_items, claude_memory, claude_settings, claude_styles
from .builder import Builder
from .model import AgentContext, Loaded, OnDemand, Unseen
from .parse import find_imports

WHY = {"CLAUDE.md": "project instructions (CLAUDE.md)", ".claude/CLAUDE.md": "project instructions (.claude/CLAUDE.md)",
       "CLAUDE.local.md": "local project instructions (CLAUDE.local.md)"}


def settings_of(b: Builder, rules: RuleSet) -> claude_settings.ClaudeSettings:
    """Claude Code's settings files, read once a build (the walk and your files both ask)."""
    return b.once("claude-code settings", lambda: claude_settings.read(b, rules))


class _Walk:
    """One build's state: the rules, the settings, what loaded, and the exclusions met."""

    def __init__(self, b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
        self.b, self.ctx, self.rules = b, ctx, rules
        self.settings = settings_of(b, rules)
        self.loaded: set[str] = set()
        self.hops = rules.value("imports.max-hops")
        self.agents_md = rules.has("agents-md.fallback") and self.settings.reads_agents_md
        self.claude_folders: dict[str, list[str]] = {}  # subfolder -> its CLAUDE.md files

    def excluded(self, rel: str) -> bool:
        """Taken out by `claudeMdExcludes` (said once, in never)."""
        glob = self.settings.excluded(rel)
        if glob:
            size = getattr(self.b.fs.read(rel), "size", 0)
            self.ctx.never.append(Unseen(rel, f"claudeMdExcludes {glob!r} takes it out of the walk", size,
                                         self.settings.excludes_rule))
        return bool(glob)

    def load(self, rel: str, why: str, rule: str, on_demand: OnDemand | None = None) -> None:
        """One file and its imports; a file over the size rule is skipped, as the agent does."""
        got = self.b.fs.read(rel)
        limit = self.rules.value("project.max-bytes")
        if getattr(got, "kind", "") == "too-large" or getattr(got, "size", 0) > limit:
            self.ctx.never.append(Unseen(rel, f"over {mebibytes(limit)}: Claude Code skips it",
                                         getattr(got, "size", 0), self.rules.id("project.max-bytes")))
            return
        loaded = self.loaded if on_demand is None else set(self.loaded)
        self.b.expand(self.ctx, rel, why, find_imports, loaded=loaded, hops=self.hops, rule=rule,
                      import_rule=self.rules.id("imports.syntax" if on_demand is None else "imports.nested"),
                      depth_rule=self.rules.id("imports.max-hops"), on_demand=on_demand)


def build(b: Builder) -> AgentContext:
    rules = b.rules_of("claude-code")
    ctx = AgentContext("claude-code")
    w = _Walk(b, ctx, rules)
    ctx.settings = w.settings.to_json() if rules.has("agents-md.setting") or w.settings.excludes else {}
    ctx.notes += w.settings.notes
    managed_only = w.settings.mode == "managed-only"
    counting = [rel for rel in rules.value("project.files") if rel in b.fs.fileset and not w.excluded(rel)]
    if managed_only:
        ctx.notes.append(f"instructionFiles is managed-only ({w.settings.mode_from} settings): the project's "
                         "CLAUDE.md files, AGENTS.md and rules without paths: are left out at start-up")
    else:
        for rel in counting:
            w.load(rel, WHY[rel], rules.id("project.files"))
        _root_agents_md(w, counting)
    if rules.has("rules.folder"):
        claude_items.rules_folder(b, ctx, w.loaded, rules, w.excluded, startup=not managed_only)
    warn = rules.value("project.warn-chars")
    chars, window = (warn["chars"], warn["window"]) if isinstance(warn, dict) else (warn, 0)
    on = f" on a {window:,}-token window (the threshold scales with the model's)" if window else ""
    for entry in ctx.startup:
        if entry.path.endswith("CLAUDE.md") and len(entry.text) > chars:
            ctx.notes.append(f"{entry.path} is over {chars:,} characters: Claude Code warns at start-up{on}")
    claude_items.listing(b, ctx, rules, w.settings.skill_overrides)
    claude_styles.output_styles(b, ctx, rules, w.settings.output_style)
    _nested(w)
    if not managed_only:
        _agents_md_files(w, counting)
    claude_memory.repository_memory(b, ctx, rules, claude_memory.auto_place(b, rules, w.settings))
    claude_hooks.context_hooks(b, ctx, rules, w.settings.hooks)
    claude_memory.subagent_memory(b, ctx, rules)
    if rules.has("agents-md.providers") and w.agents_md:
        ctx.notes.append(f"{rules.version}: sessions on {', '.join(rules.value('agents-md.providers'))} read "
                         "CLAUDE.md files only")
    if rules.has("project.html-comments"):
        _without_comments(ctx)
    return ctx


def _without_comments(ctx: AgentContext) -> None:
    """What Claude Code injects of its instruction files leaves their block-level HTML comments
    out: counted so (the file's bytes stay the file's)."""
    from .parse import strip_comments

    said: set[str] = set()
    entries: list[Loaded | OnDemand] = [*ctx.startup, *ctx.on_demand]
    for e in entries:
        listed = isinstance(e, Loaded) and e.cut is not None and "listed" in e.cut.reason
        if e.text and not listed and not any(k in e.rule for k in ("skills.", "subagents.", "commands.")):
            kept, unclosed = strip_comments(e.text)
            if unclosed and e.path not in said:
                said.add(e.path)
                ctx.notes.append(f"{e.path} opens an HTML comment that never closes: Claude Code keeps it, and "
                                 "all that follows, as text")
            e.text = kept


def _root_agents_md(w: _Walk, counting: list[str]) -> None:
    """`AGENTS.md` and `.claude/AGENTS.md` of the root at start-up: instead of the CLAUDE.md files,
    or after them (`claude-md-and-agents-md`); a file already loaded (imported, a link's target) is
    not read twice."""
    b, ctx, rules = w.b, w.ctx, w.rules
    both = w.settings.mode == "claude-md-and-agents-md"
    if not w.agents_md or counting and not both:
        return
    for rel in rules.value("agents-md.fallback"):
        if rel not in b.fs.fileset or w.excluded(rel):
            continue
        if _real(b, rel) in w.loaded:
            ctx.notes.append(f"{rel} is the same file as one already loaded: read once")
            continue
        why = "AGENTS.md after the CLAUDE.md files" if both else "AGENTS.md (no CLAUDE.md here: read instead)"
        w.load(rel, why, rules.id("agents-md.fallback"))


def _nested(w: _Walk) -> None:
    """Subfolders' CLAUDE.md files with their imports, when the agent reads a file under them."""
    b, rules = w.b, w.rules
    names = rules.value("project.nested")
    root_names = set(rules.value("project.files"))
    bases = {n.rsplit("/", 1)[-1] for n in names}
    for rel in b.fs.files:
        if rel in root_names or rel.rsplit("/", 1)[-1] not in bases:
            continue
        folder = _owner(rel, names)
        if folder:
            w.claude_folders.setdefault(folder, []).append(rel)
    for folder in sorted(w.claude_folders):
        for rel in sorted(w.claude_folders[folder], key=lambda r: _order(r, names)):
            if w.excluded(rel):
                continue
            t = b.text(rel)
            if t is not None:
                item = OnDemand(rel, f"reading a file under {folder}/", 0, t.size, "folder", (folder + "/**",),
                                text=t.text, rule=rules.id("project.nested"))
                w.load(rel, item.when, item.rule, on_demand=item)


def _agents_md_files(w: _Walk, counting: list[str]) -> None:
    """Every AGENTS.md file the walk has not loaded: a subfolder's on demand where the fallback
    allows it, else never, with the rule that keeps it out (run last: an import or a CLAUDE.md
    link may have brought it in already)."""
    b, ctx, rules = w.b, w.ctx, w.rules
    family = {"AGENTS.md", *rules.value("agents-md.not-read", ("AGENTS.override.md", "AGENTS.local.md"))}
    reals = w.loaded | {_real(b, o.path) for o in ctx.on_demand}
    for rel in b.fs.files:
        if rel.rsplit("/", 1)[-1] not in family or _real(b, rel) in reals:
            continue
        fate = _agents_md_fate(w, rel, counting)
        if fate is None:
            continue
        kind, why, rule = fate
        if kind == "never":
            ctx.never.append(Unseen(rel, why, _size(b, rel), rule))
        elif not w.excluded(rel) and (t := b.text(rel)) is not None:
            folder = rel.rsplit("/", 1)[0]
            item = OnDemand(rel, why, 0, t.size, "folder", (folder + "/**",), text=t.text, rule=rule)
            w.load(rel, item.when, item.rule, on_demand=item)


def _agents_md_fate(w: _Walk, rel: str, counting: list[str]) -> tuple[str, str, str] | None:
    """("never" | "on demand", why, rule) of one AGENTS.md file not loaded otherwise (None: the
    agent does not look there at all)."""
    rules, mode = w.rules, w.settings.mode
    base, parts = rel.rsplit("/", 1)[-1], rel.split("/")[:-1]
    both = mode == "claude-md-and-agents-md"
    if not rules.has("agents-md.fallback"):
        return ("never", f"Claude Code {rules.version} reads no AGENTS.md unless a loaded file imports it",
                rules.id("agents-md.unsupported"))
    if not w.settings.reads_agents_md:
        return ("never", f"instructionFiles {mode} ({w.settings.mode_from}): Claude Code reads no AGENTS.md",
                w.settings.mode_rule)
    if base != "AGENTS.md" or any(p + "/" in rules.value("agents-md.not-read") for p in parts):
        return ("never", f"Claude Code does not read {base if base != 'AGENTS.md' else 'anything under .agents/'}",
                rules.id("agents-md.not-read"))
    if rel in rules.value("agents-md.fallback"):
        if counting and not both:
            return ("never", f"{counting[0]} counts: Claude Code reads the CLAUDE.md files instead "
                    f"(instructionFiles {mode})", rules.id("agents-md.fallback"))
        return None  # loaded at start-up, or taken out by claudeMdExcludes
    if ".claude" in parts:
        return None  # only the root's .claude/AGENTS.md is read
    folder = "/".join(parts)
    counted = [sorted(w.claude_folders[f])[0] for f in _folders(folder)
               if any(not w.settings.excluded(r) for r in w.claude_folders.get(f, ()))]
    blocker = None if both else (counting[0] if counting else next(iter(counted), None))
    if blocker is not None:
        return ("never", f"{blocker} counts: Claude Code reads the CLAUDE.md files, not this AGENTS.md",
                rules.id("agents-md.nested"))
    return ("on demand", f"reading a file under {folder}/" + ("" if both else " (no CLAUDE.md there: AGENTS.md "
            "instead)"), rules.id("agents-md.nested"))


def _owner(rel: str, names) -> str:
    """The subfolder whose CLAUDE.md file `rel` is ('' when it is none)."""
    for n in sorted(names, key=len, reverse=True):
        if rel.endswith("/" + n):
            return rel[: -len(n) - 1]
    return ""


def _order(rel: str, names) -> int:
    match = next((n for n in sorted(names, key=len, reverse=True) if rel.endswith("/" + n)), None)
    return list(names).index(match) if match else len(names)


def _folders(folder: str) -> list[str]:
    """`a/b/c` → a, a/b, a/b/c (the walk from the root down to the folder)."""
    parts = folder.split("/")
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def _real(b: Builder, rel: str) -> str:
    return b.real(rel)


def _size(b: Builder, rel: str) -> int:
    return getattr(b.fs.read(rel), "size", 0)


def user_files(b: Builder, ctx: AgentContext, slug_root: str) -> None:
    """Your files (`_user_files`), then the switches that empty the context (bare, safe mode)."""
    from .claude_switches import switched_off

    _user_files(b, ctx, slug_root)
    switched_off(b, ctx, b.rules_of("claude-code"))


def _user_files(b: Builder, ctx: AgentContext, slug_root: str) -> None:
    """The managed policy CLAUDE.md, ~/.claude/CLAUDE.md, ~/.claude/rules/ (and those of the
    folder `$CLAUDE_CONFIG_DIR` names, by the version's rule) and the project's auto memory:
    read-only, apart."""
    from .user import claude_moved, read_user

    if b.ci:
        ctx.notes.append("CI is set: user-level files (~/.claude) are not shown")
        return
    rules = b.rules_of("claude-code")
    if rules.has("managed.file"):
        _managed_file(b, ctx, rules)
    moved = claude_moved(b, rules)
    if moved and not os.path.isdir(moved):
        ctx.notes.append(f"$CLAUDE_CONFIG_DIR names no folder ({moved}): Claude Code finds no settings or memory there")
    if ctx.settings.get("instructionFiles", {}).get("value") != "managed-only":
        names = rules.value("user.files")
        files = [f for f in names if f.endswith(".md")]
        folders = [f for f in names if not f.endswith(".md")]
        places = [(b.home, files, folders)]
        if moved and "moved" in rules.value("config.dir-instructions", ("home",)):
            strip = [f.partition("/")[2] for f in files], [f.partition("/")[2] for f in folders]
            places.insert(0, (moved, *strip))
        for base, some, within in places:
            for shown, text in read_user(b.home, some, within, base):
                if rules.has("project.html-comments"):  # yours are injected as the project's are
                    from .parse import strip_block_comments

                    text = strip_block_comments(text)
                ctx.add_user(shown, text, "your own instructions (user level)", rules.id("user.files"))
        if moved and "moved" not in rules.value("config.dir-instructions", ("home",)):
            ctx.notes.append(f"$CLAUDE_CONFIG_DIR is set, but Claude Code {rules.version} still reads your "
                             "CLAUDE.md and rules/ from ~/.claude")
    claude_memory.auto_memory(b, ctx, rules, slug_root, claude_memory.auto_place(b, rules, settings_of(b, rules)))


def _managed_file(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    """The organisation's CLAUDE.md at the OS's managed place (`managed_dir` in tests)."""
    from .user import managed_place, read_text

    path = managed_place(b, rules.value("managed.file"))
    text = read_text(path)
    if text is not None:
        ctx.add_user(path.replace(os.sep, "/"), text, "managed policy (your organisation's, read-only; loads first)",
                     rules.id("managed.file"))
