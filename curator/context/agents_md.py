"""AGENTS.md (Codex, and the agents where the nearest file wins) and GEMINI.md.

Codex (AGENTS.md guide): from the project root down to the working folder, at most one file per
folder (`AGENTS.override.md`, else `AGENTS.md`; an empty one is skipped), concatenated root
first, adding stops at `project_doc_max_bytes` (the last file cut). Started at the root, only the
root file loads; every nested file is listed with the chain Codex reads when started in its
folder. The open AGENTS.md spec (Cursor, Copilot, Cline, Devin Desktop, Roo, Kiro): the root
file at start-up, a nested one replaces it for files under its folder (nearest wins).
Gemini CLI: `GEMINI.md` at the root at start-up with its `@imports`; nested ones just in time.
Every name and number comes from the agents' rules (curator/agents/).
"""

from __future__ import annotations

import os

from .builder import Builder, cut_bytes
from .codex_config import codex_config
from .codex_skills import codex_skills
from .gemini_agents import gemini_subagents
from .model import AgentContext, Loaded, OnDemand, Unseen
from .parse import find_imports
from .skills_list import Listing, agent_skills


def _folder(rel: str) -> str:
    return rel.rsplit("/", 1)[0] if "/" in rel else ""


def _docs(b: Builder, names: tuple[str, ...]) -> dict[str, str]:
    """folder -> the AGENTS file Codex reads there (the first of `names` wins; a name with a `/`,
    which Codex took before 0.156.0, is joined to each folder as Codex joined it)."""
    out: dict[str, str] = {}
    rank: dict[str, int] = {}
    for rel in b.fs.files:
        for i, name in enumerate(names):
            if rel == name or rel.endswith("/" + name):
                folder = rel[: len(rel) - len(name)].rstrip("/")
                if folder not in out or i < rank[folder]:
                    out[folder], rank[folder] = rel, i
    return out


def _chain_folders(folder: str) -> list[str]:
    parts = folder.split("/") if folder else []
    return [""] + ["/".join(parts[: i + 1]) for i in range(len(parts))]


def codex_chain(b: Builder, docs: dict[str, str], folder: str, cap: int) -> tuple[list[Loaded], int]:
    """What Codex loads when started in `folder`: the entries (the last maybe cut) and the
    bytes past the cap."""
    rules = b.rules_of("codex")
    out: list[Loaded] = []
    if cap == 0:
        return out, 0  # no project file is read at all (said once by `codex`)
    remaining, past = cap, 0
    for f in _chain_folders(folder):
        rel = docs.get(f)
        if rel is None:
            continue
        t = b.text(rel)
        if t is None or not t.text.strip() and rules.value("project.skip-empty"):
            continue
        if remaining <= 0:
            past += t.size
            continue
        why = "project instructions (root AGENTS.md)" if not f else f"AGENTS.md of {f}/ (on the way to the working folder)"
        entry = Loaded(rel, t.size, 0, why, None, None, t.text, rules.id("project.names"))
        if t.size > remaining:
            cut_bytes(entry, remaining, f"Codex stops adding at {cap:,} bytes (project_doc_max_bytes): "
                      f"the last {t.size - remaining:,} bytes are cut", t.data if t.bad is not None else None)
            past += t.size - remaining
        remaining -= entry.loaded_bytes
        out.append(entry)
    return out, past


def codex(b: Builder) -> AgentContext:
    ctx = AgentContext("codex")
    config = b.once("codex-config", lambda: codex_config(b))
    ctx.notes += config.notes
    if config.hooks:
        from .claude_hooks import hook_note

        form = b.rules_of("codex").value("hooks.context")
        spill = f"; over {form['max-tokens']:,} tokens the rest goes to a file" if "max-tokens" in form else ""
        ctx.notes += [hook_note(event, command, shown, form["events"][event], ", once you trust the hook", spill)
                      for event, command, shown in config.hooks]
    docs = _docs(b, config.names)
    if config.cap == 0 or config.untrusted:
        rule = b.rules_of("codex").id("project.trust" if config.untrusted else "config.file")
        why = config.untrusted or "project_doc_max_bytes is 0 in your Codex config: no project file is read"
        ctx.never += [Unseen(rel, why, getattr(b.fs.read(rel), "size", 0), rule) for rel in docs.values()]
        docs = {}
    root, past = codex_chain(b, docs, "", config.cap)
    ctx.startup += root
    if past:
        _cap_finding(b, ctx, root, past, "started at the root", cap=config.cap)
    for folder, rel in sorted(docs.items()):
        if not folder:
            continue
        chain, past = codex_chain(b, docs, folder, config.cap)
        mine = next((e for e in chain if e.path == rel), None)
        t = b.fs.read(rel)
        size = getattr(t, "size", 0)
        total = sum(e.loaded_bytes for e in chain)
        ctx.on_demand.append(OnDemand(rel, f"when Codex starts in {folder}/ (chain of {len(chain)} file"
                                      f"{'s' if len(chain) != 1 else ''}, {total:,} bytes)", 0, size, "folder",
                                      (folder + "/**",), text=mine.text if mine else "",
                                      rule=b.rules_of("codex").id("project.names")))
        if past and not any(part.startswith(".") for part in folder.split("/")):
            # (a folder under a dot folder, e.g. vendored skills, is no place anyone starts Codex)
            _cap_finding(b, ctx, chain, past, f"started in {folder}/", rel, config.cap)
    codex_skills(b, ctx)
    return ctx


def _cap_finding(b: Builder, ctx: AgentContext, chain: list[Loaded], past: int, where: str, at: str | None = None,
                 cap: int = 0) -> None:
    rules = b.rules_of("codex")
    cut = next((e for e in chain if e.cut is not None), None)
    total = sum(e.bytes for e in chain) + (0 if cut else past)
    path = at or (cut.path if cut else chain[-1].path if chain else "AGENTS.md")
    what = (f"{cut.path} is cut after {cut.cut.kept_bytes:,} of {cut.bytes:,} bytes"
            if cut is not None and cut.cut is not None else "later files are dropped")
    ctx.never.append(Unseen(path, f"past Codex's {cap:,}-byte cap when {where}", past, rules.id("project.max-bytes")))
    source = "" if cap == rules.value("project.max-bytes") else " (project_doc_max_bytes in your Codex config)"
    b.add("instructions.cap", path, f"Codex {where}: the AGENTS.md chain is {total:,} bytes, over its "
          f"{cap:,}-byte cap{source}; {what} ({past:,} bytes never seen)")


def nearest(b: Builder, ctx: AgentContext) -> None:
    """The open AGENTS.md spec: root file at start-up, the nearest one wins below (Cursor: a
    nested one adds to those above it)."""
    rules = b.rules_of(ctx.agent)
    name, rule = rules.value("agents-md"), rules.id("agents-md")
    combined = rules.value("agents-md.nested", "nearest") == "combined"
    docs = {_folder(r): r for r in b.fs.named(name)}
    loaded = b.loaded(ctx.startup)
    for folder, rel in sorted(docs.items()):
        t = b.text(rel)
        if t is None or not t.text.strip():
            continue
        if not folder:
            if t.real in loaded:
                ctx.notes.append(f"AGENTS.md is the same file as {loaded[t.real]}: read once")
                continue
            ctx.startup.append(Loaded(rel, t.size, 0, "AGENTS.md (read by this agent too)", None, None, t.text, rule))
        else:
            how = "with the AGENTS.md files above it" if combined else "nearest AGENTS.md wins"
            ctx.on_demand.append(OnDemand(rel, f"working on files under {folder}/ ({how})", 0,
                                          t.size, "folder", (folder + "/**",), text=t.text, rule=rule))


def gemini_names(b: Builder, notes: list[str] | None = None, workspace: bool = True) -> tuple[list[str], str]:
    """The context file names Gemini CLI reads and the rule that named them: `context.fileName`
    (a name or a list; since 0.3.0) of the workspace's `.gemini/settings.json`, else of yours — in
    place of the defaults until 0.44.0, the defaults still read after them since — the top-level
    `contextFileName` only in the versions that still read it, else the default names."""
    rules = b.rules_of("gemini")
    defaults = list(rules.value("context.default-names"))
    named, rule = None, rules.id("context.default-names")
    spec = rules.value("context.setting", None)
    path, then = (spec["path"], list(spec["then"])) if isinstance(spec, dict) else (spec or (None, None), [])
    for data in _gemini_settings(b)[0 if workspace else 1:]:  # an untrusted folder's settings are not read
        section, key = path
        inner = data.get(section) if section else None
        if isinstance(inner, dict) and inner.get(key) is not None:
            named, rule = inner.get(key), rules.id("context.setting")
            break
        legacy = rules.value("context.legacy-setting", None)
        old = data.get(legacy or "contextFileName")
        if old is not None:
            if legacy:
                named, rule = old, rules.id("context.legacy-setting")
                break
            if notes is not None:
                notes.append(f"the top-level contextFileName no longer works in Gemini CLI {rules.version} "
                             "(write context.fileName): it is ignored")
    if isinstance(named, str):
        named = [named]
    names = [n for n in named if isinstance(n, str) and n and "/" not in n] if isinstance(named, list) else []
    if not names:
        return defaults, rules.id("context.default-names")
    return list(dict.fromkeys(n.strip() for n in names + then if n.strip())), rule


def _gemini_settings(b: Builder) -> list[dict]:
    """The workspace's `.gemini/settings.json`, then yours (not read when CI is set): where a
    setting is, the first that sets it wins. Read once a build (the project's names and yours ask)."""
    return b.once("gemini settings", lambda: _read_gemini_settings(b))


def _read_gemini_settings(b: Builder) -> list[dict]:
    import json

    out = []
    got = b.fs.read(".gemini/settings.json")
    try:
        data = json.loads(got.text) if hasattr(got, "text") else {}
    except (ValueError, RecursionError):  # nested past Python's depth: broken, never a traceback
        data = {}
    out.append(data if isinstance(data, dict) else {})
    if not b.ci:
        from .user import json_object

        out.append(json_object(os.path.join(b.home, ".gemini", "settings.json")))
    return out


def gemini(b: Builder) -> AgentContext:
    rules = b.rules_of("gemini")
    ctx = AgentContext("gemini")
    loaded: set[str] = set()
    names, rule = gemini_names(b, ctx.notes)
    if names != list(rules.value("context.default-names")):
        ctx.notes.append(f"context.fileName names the context files: {', '.join(names)}")
    for name in names:
        if name in b.fs.fileset:
            b.expand(ctx, name, f"project context ({name})", find_imports, loaded=loaded,
                     hops=rules.value("imports.max-hops"), rule=rule, import_rule=rules.id("imports.syntax"),
                     depth_rule=rules.id("imports.max-hops"))
    hidden = rules.value("context.not-in")
    for rel in b.fs.files:
        name = rel.rsplit("/", 1)[-1]
        if name not in names or "/" not in rel:
            continue
        folder = _folder(rel)
        if folder == hidden or folder.endswith("/" + hidden):
            got = b.fs.read(rel)
            ctx.never.append(Unseen(rel, f"Gemini CLI looks for {name} in the working folder, its parents and "
                                    f"subfolders, not in {hidden}/", getattr(got, "size", 0), rules.id("context.not-in")))
            continue
        t = b.text(rel)
        if t is None:
            continue
        ctx.on_demand.append(OnDemand(rel, f"when a tool touches files under {folder}/ (just in time)", 0, t.size,
                                      "folder", (folder + "/**",), text=t.text, rule=rules.id("context.nested")))
    agent_skills(b, ctx, rules, Listing("Gemini CLI", with_path=True, requires=("name", "description")))
    gemini_subagents(b, ctx)
    return ctx
