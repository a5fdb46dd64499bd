"""Roo Code: what it loads, by the rules of the version chosen (curator/agents/roo.py).

`.roo/rules/` (yours in `~/.roo/rules/` first) in every mode; where neither holds a file, the
legacy `.roorules`, else Cline's `.clinerules` file. In a mode, `.roo/rules-{mode}/` (yours first),
else `.roorules-{mode}`, else `.clinerules-{mode}`. The root `AGENTS.md` (else `AGENT.md`) and
`AGENTS.local.md`; a subfolder's only with the `enableSubfolderRules` setting (off by default).
"""

from __future__ import annotations

import os

from ..agents import RuleSet
from .builder import Builder
from .model import AgentContext, Unseen
from .rules import _always, _manual
from .skills_list import Listing, agent_skills, list_skill, skill_files


def _rule_file(rules: RuleSet, rel: str) -> bool:
    """Not an editor's or a system's leftover (Roo skips `.DS_Store`, `*.swp`, `*.log`, ...)."""
    return not rel.rsplit("/", 1)[-1].endswith(tuple(rules.value("rules.skip-files", ())))


def _under(b: Builder, rules: RuleSet, folder: str) -> list[str]:
    return [rel for rel in b.fs.under(folder) if _rule_file(rules, rel)]


def _user_folder(b: Builder, rules: RuleSet, name: str) -> str | None:
    """Your `~/.roo/<name>` when it holds a rule file (never when CI is set)."""
    if b.ci:
        return None
    full = os.path.join(b.home, rules.value("user.folder"), name)
    try:
        return full if any(_rule_file(rules, f) for _, _, files in os.walk(full) for f in files) else None
    except OSError:
        return None


def build(b: Builder) -> AgentContext:
    rules = b.rules_of("roo")
    ctx = AgentContext("roo")
    fs = b.fs
    folder, mode_folder = rules.value("rules.folder"), rules.value("rules.mode-folder")
    general = _under(b, rules, folder)
    for rel in general:
        t = b.text(rel)
        if t is not None:
            _always(ctx, rel, t, "Roo rules (every mode)", rules.id("rules.folder"))
    if not general and _user_folder(b, rules, "rules") is None:
        _legacy(b, ctx, rules, ("legacy.file", "legacy.cline-file"), "", None)
    mode_files = {d[len(mode_folder):]: _under(b, rules, d) for d in sorted(fs.dirs)
                  if d.startswith(mode_folder) and "/" not in d[len(mode_folder):]}
    modes = [mode for mode, files in mode_files.items() if files]  # an empty folder hides no legacy file
    for mode in modes:
        for rel in mode_files[mode]:
            t = b.text(rel)
            if t is not None:
                _manual(ctx, rel, t, f"in {mode} mode", rules.id("rules.mode-folder"), "mode")
    legacy_modes = sorted({rel[len(rules.value(k)):] for k in ("legacy.mode-file", "legacy.cline-mode-file")
                           for rel in fs.files if rel.startswith(rules.value(k)) and "/" not in rel})
    for mode in legacy_modes:
        if mode and mode not in modes and _user_folder(b, rules, f"rules-{mode}") is None:
            _legacy(b, ctx, rules, ("legacy.mode-file", "legacy.cline-mode-file"), mode, mode)
    _agents_md(b, ctx, rules)
    _skills(b, ctx, rules)
    _ignore_and_commands(b, ctx, rules)
    return ctx


def _ignore_and_commands(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    """`.rooignore`, pasted into the rules whole; `.roo/commands/*.md`, each when you type `/name`."""
    ignore = rules.value("rooignore", None)
    if ignore and ignore in b.fs.fileset:
        t = b.text(ignore)
        if t is not None and t.text.strip():
            _always(ctx, ignore, t, f"{ignore} (Roo pastes it into the rules)", rules.id("rooignore"))
    folder = rules.value("commands.folder", None)
    for rel in b.fs.under(folder) if folder else []:
        if rel.endswith(".md") and rel.count("/") == folder.count("/") + 1:
            t = b.text(rel)
            if t is not None:
                _manual(ctx, rel, t, f"when you type /{rel.rsplit('/', 1)[-1][:-3]} (command)",
                        rules.id("commands.folder"))


def _skills(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    """Skills of every mode, and of one mode's `skills-{mode}/` folders (listed in that mode)."""
    if not rules.has("skills.folders"):
        return
    spec = Listing("Roo Code", with_path=True, requires=("name", "description"),
                   name_is_folder=r"[a-z0-9]+(?:-[a-z0-9]+)*")
    agent_skills(b, ctx, rules, spec)
    for prefix in rules.value("skills.mode-folders"):
        for d in sorted(b.fs.dirs):
            mode = d[len(prefix):] if d.startswith(prefix) else ""
            if mode and "/" not in mode:
                for rel in skill_files(b, d, deep=False):
                    list_skill(b, ctx, rel, rules.id("skills.mode-folders"), spec, scope=mode,
                               scope_how=f"you work in the {mode} mode")


def _legacy(b: Builder, ctx: AgentContext, rules: RuleSet, keys: tuple[str, str], suffix: str,
            mode: str | None) -> None:
    """The first legacy file that holds rules (`.roorules…`, else `.clinerules…`); the other is never read."""
    chosen = None
    for key in keys:
        rel = rules.value(key) + suffix
        t = b.text(rel) if rel in b.fs.fileset else None
        if t is None or not t.text.strip():
            continue
        if chosen is not None:
            ctx.never.append(Unseen(rel, f"{chosen} is read instead", t.size, rules.id(key)))
            continue
        chosen = rel
        if mode is None:
            _always(ctx, rel, t, f"legacy {rel} (every mode)", rules.id(key))
        else:
            _manual(ctx, rel, t, f"in {mode} mode (legacy file)", rules.id(key), "mode")


def _agents_md(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    """The root AGENTS.md (else AGENT.md) and AGENTS.local.md; a subfolder's never by default."""
    names = rules.value("agents-md")
    loaded = set(b.loaded(ctx.startup))
    root = None
    for name in names:  # AGENTS.md, else AGENT.md: the first that holds text
        t = b.text(name) if name in b.fs.fileset else None
        if t is not None and t.text.strip():
            root = name
            break
    for rel in [r for r in (root, rules.value("agents-md.local")) if r and r in b.fs.fileset]:
        t = b.text(rel)
        if t is None or not t.text.strip():
            continue
        if t.real in loaded:
            ctx.notes.append(f"{rel} is the same file as {t.real}: read once")
            continue
        why = f"{rel} (read by this agent too)" if rel == root else "your AGENTS.local.md (personal, every mode)"
        key = "agents-md" if rel == root else "agents-md.local"
        _always(ctx, rel, t, why, rules.id(key))
    for rel in b.fs.named(names[0]):
        if "/" in rel:
            ctx.never.append(Unseen(rel, "AGENTS.md in a subfolder: Roo reads it only with enableSubfolderRules (off "
                                    "by default)", getattr(b.fs.read(rel), "size", 0), rules.id("agents-md.nested")))


def user_files(b: Builder, ctx: AgentContext) -> None:
    """Your global `~/.roo/rules/` and `~/.roo/rules-{mode}/` (read-only, apart)."""
    from .user import read_user

    if b.ci:
        return
    rules = b.rules_of("roo")
    base = rules.value("user.folder")
    try:
        names = sorted(n for n in os.listdir(os.path.join(b.home, base)) if n == "rules" or n.startswith("rules-"))
    except OSError:
        return
    for shown, text in read_user(b.home, [], [f"{base}/{n}" for n in names]):
        ctx.add_user(shown, text, "your global Roo rules (user level)", rules.id("user.folder"))
