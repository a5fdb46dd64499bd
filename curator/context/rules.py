"""Rule folders with frontmatter modes: Cursor, GitHub Copilot, Cline, Windsurf, Kiro, Roo.

Each rule is always loaded (start-up), attached when a matching file is read (globs), chosen by
the agent from its description, or manual (only when the user names it). Per agent docs:
- Cursor `.cursor/rules/**/*.mdc`: `alwaysApply: true` / `globs` / `description` / none;
  `alwaysApply` must be a boolean; legacy `.cursorrules` always;
- Copilot `.github/copilot-instructions.md` always; `.github/instructions/**/*.instructions.md`
  by `applyTo` (none: manual), `excludeAgent` names the agent that skips it;
- Cline `.clinerules` (a file, or every `.md`/`.txt` of the folder, `workflows/` aside; `paths:`
  makes one conditional) and `memory-bank/*.md`, read in full at every task start;
- Windsurf `.windsurf/rules/*.md` by `trigger:` (always_on / glob / model_decision / manual),
  12,000 characters a file; legacy `.windsurfrules`;
- Kiro `.kiro/steering/*.md` by `inclusion:` (always, the default / fileMatch / manual / auto),
  `#[[file:path]]` pulls a file in;
- Roo `.roo/rules/` (every file, alphabetical) always, `.roo/rules-{mode}/` in that mode;
  `.roorules` / `.roorules-{mode}` only when the folder is absent.
"""

from __future__ import annotations

from ..model.findings import RuleKeys
from .builder import Builder, cap_chars
from .model import AgentContext, Loaded, OnDemand, Unseen
from .parse import find_kiro_refs, glob_list, read_meta

WINDSURF_CAP = 12_000


def _meta(b: Builder, rel: str, text: str, agent: str):
    meta = read_meta(text)
    if meta.error and not meta.lenient:
        b.add("instructions.frontmatter", rel, f"{meta.error}: {agent} cannot read the rule's settings", meta.line)
    return meta


def _rule_files(b: Builder, folder: str, suffixes: tuple[str, ...], agent: str):
    """(path, text, frontmatter) of every readable rule file under `folder`."""
    for rel in b.fs.under(folder):
        if rel.endswith(suffixes):
            t = b.text(rel)
            if t is not None:
                yield rel, t, _meta(b, rel, t.text, agent)


def _always(ctx: AgentContext, rel: str, t, why: str) -> Loaded:
    entry = Loaded(rel, t.size, 0, why, None, None, t.text)
    ctx.startup.append(entry)
    return entry


def _globbed(b: Builder, ctx: AgentContext, rel: str, t, key: str, globs: list[str], extra: str = "") -> None:
    ctx.on_demand.append(OnDemand(rel, f"reading a file matching {', '.join(globs)}{extra}", 0, t.size, "path",
                                  tuple(globs), text=t.text))
    b.dead_globs(rel, key, globs)


def _by_description(ctx: AgentContext, rel: str, t, desc: str) -> None:
    ctx.on_demand.append(OnDemand(rel, "when the agent picks it by its description", 0, t.size, "description",
                                  description=" ".join(str(desc).split()), text=t.text))


def _manual(ctx: AgentContext, rel: str, t, how: str) -> None:
    ctx.on_demand.append(OnDemand(rel, how, 0, t.size, "manual", text=t.text))


def cursor(b: Builder) -> AgentContext:
    ctx = AgentContext("cursor")
    for rel, t, meta in _rule_files(b, ".cursor/rules", (".mdc", ".md"), "Cursor"):
        always = meta.data.get("alwaysApply")
        if isinstance(always, str) and always.strip().lower() in ("true", "false", "yes", "no") and not meta.lenient:
            b.add("instructions.string-bool", rel, f'alwaysApply: "{always}" is a string, not a boolean: Cursor does '
                  "not treat the rule as always applied (write alwaysApply: true)", 1,
                  fix=RuleKeys(rel, "bool") if t.real == rel else None)
        globs = glob_list(meta.data.get("globs"))
        desc = meta.data.get("description")
        if always is True or (meta.lenient and str(always).strip().lower() == "true"):
            _always(ctx, rel, t, "Cursor rule, alwaysApply: true")
        elif globs:
            _globbed(b, ctx, rel, t, "globs", globs, " (auto attached)")
        elif desc not in (None, "", []):
            _by_description(ctx, rel, t, desc)
        else:
            _manual(ctx, rel, t, "only when you @-mention it (manual rule)")
    if ".cursorrules" in b.fs.fileset:
        t = b.text(".cursorrules")
        if t is not None:
            _always(ctx, ".cursorrules", t, "legacy .cursorrules (always)")
    return ctx


def copilot(b: Builder) -> AgentContext:
    ctx = AgentContext("copilot")
    main = ".github/copilot-instructions.md"
    if main in b.fs.fileset:
        t = b.text(main)
        if t is not None:
            _always(ctx, main, t, "repository custom instructions (always)")
            if len(t.text) > 4000:
                ctx.notes.append(f"{main}: Copilot code review reads only its first 4,000 characters")
    for rel, t, meta in _rule_files(b, ".github/instructions", (".instructions.md",), "Copilot"):
        globs = glob_list(meta.data.get("applyTo"))
        excluded = meta.data.get("excludeAgent")
        extra = f"; not for {excluded}" if excluded else ""
        if globs:
            _globbed(b, ctx, rel, t, "applyTo", globs, extra)
        else:
            _manual(ctx, rel, t, "only when attached by hand (no applyTo)")
    return ctx


def cline(b: Builder) -> AgentContext:
    ctx = AgentContext("cline")
    fs = b.fs
    if ".clinerules" in fs.fileset:
        t = b.text(".clinerules")
        if t is not None:
            _always(ctx, ".clinerules", t, "Cline rules file (always)")
    elif ".clinerules" in fs.dirs:
        for rel in fs.under(".clinerules"):
            inner = rel[len(".clinerules/"):]
            if not rel.endswith((".md", ".txt")) or inner.split("/", 1)[0] in ("workflows", "hooks"):
                continue
            t = b.text(rel)
            if t is None:
                continue
            meta = _meta(b, rel, t.text, "Cline")
            globs = glob_list(meta.data.get("paths"))
            if globs:
                _globbed(b, ctx, rel, t, "paths", globs)
            else:
                _always(ctx, rel, t, "Cline rules folder (always)")
        for rel in fs.under(".clinerules/workflows"):
            t = b.text(rel)
            if t is not None:
                _manual(ctx, rel, t, f"when you run /{rel.rsplit('/', 1)[-1]} (workflow)")
    for rel in fs.under("memory-bank"):
        if rel.endswith(".md"):
            t = b.text(rel)
            if t is not None:
                _always(ctx, rel, t, "Memory Bank (read in full at every task start)")
    return ctx


def windsurf(b: Builder) -> AgentContext:
    ctx = AgentContext("windsurf")
    for rel, t, meta in _rule_files(b, ".windsurf/rules", (".md",), "Windsurf"):
        trigger = str(meta.data.get("trigger") or "").strip()
        globs = glob_list(meta.data.get("globs"))
        if trigger == "always_on":
            _windsurf_cap(b, ctx, _always(ctx, rel, t, "Windsurf rule, trigger: always_on"))
        elif trigger == "glob" and globs:
            _globbed(b, ctx, rel, t, "globs", globs)
        elif trigger == "model_decision":
            _by_description(ctx, rel, t, meta.data.get("description") or "")
        else:
            how = "manual rule (only when @-mentioned)" if trigger in ("", "manual") else \
                f"trigger: {trigger} is not a Windsurf mode (always_on, glob, model_decision, manual)"
            if trigger not in ("", "manual", "glob"):  # NVIDIA toolkit-remix's `trigger: always` never loads
                line = next((i for i, ln in enumerate(t.text.splitlines(), 1) if ln.startswith("trigger:")), None)
                b.add("instructions.frontmatter", rel, f"{how}: Windsurf loads the rule only when it is "
                      "@-mentioned", line)
            _manual(ctx, rel, t, how)
    if ".windsurfrules" in b.fs.fileset:
        t = b.text(".windsurfrules")
        if t is not None:
            _windsurf_cap(b, ctx, _always(ctx, ".windsurfrules", t, "legacy .windsurfrules (always)"))
    return ctx


def _windsurf_cap(b: Builder, ctx: AgentContext, entry: Loaded) -> None:
    past = cap_chars(entry, WINDSURF_CAP, f"Windsurf reads {WINDSURF_CAP:,} characters of a rule file")
    if past:
        ctx.never.append(Unseen(entry.path, f"past Windsurf's {WINDSURF_CAP:,}-character cap", past))
        b.add("instructions.cap", entry.path, f"Windsurf reads the first {WINDSURF_CAP:,} characters of a rule: "
              f"the last {past:,} bytes are cut")


def kiro(b: Builder) -> AgentContext:
    ctx = AgentContext("kiro")
    for rel, t, meta in _rule_files(b, ".kiro/steering", (".md",), "Kiro"):
        inclusion = str(meta.data.get("inclusion") or "always").strip()
        if inclusion == "fileMatch":
            globs = glob_list(meta.data.get("fileMatchPattern"))
            if globs:
                _globbed(b, ctx, rel, t, "fileMatchPattern", globs)
            else:
                _manual(ctx, rel, t, "inclusion: fileMatch without a fileMatchPattern: never attached")
        elif inclusion == "manual":
            _manual(ctx, rel, t, f"only when you reference #{rel.rsplit('/', 1)[-1][:-3]} in chat")
        elif inclusion == "auto":
            _by_description(ctx, rel, t, meta.data.get("description") or "")
        else:
            _always(ctx, rel, t, "Kiro steering (inclusion: always)")
            _kiro_refs(b, ctx, rel, t.text)
    return ctx


def _kiro_refs(b: Builder, ctx: AgentContext, rel: str, text: str) -> None:
    for ref in find_kiro_refs(text):
        target, why_not = b.resolve(ref, "")  # Kiro resolves #[[file:]] from the workspace root
        if why_not or target is None:
            b.add("instructions.import-outside", rel, f"#[[file:{ref.path}]] is outside the repository", ref.line, ref.path)
            continue
        got = b.fs.read(target)
        if not hasattr(got, "text"):
            if getattr(got, "kind", "") == "missing":
                b.broken_import(rel, ref, target, f"#[[file:{ref.path}]]", "", from_root=True)
            else:
                b.problem(got)
            continue
        if all(e.path != target for e in ctx.startup):
            ctx.startup.append(Loaded(target, got.size, 0, f"included by {rel}", f"{rel}:{ref.line}", None, got.text))


def roo(b: Builder) -> AgentContext:
    ctx = AgentContext("roo")
    fs = b.fs
    general = [r for r in fs.under(".roo/rules")]
    for rel in general:
        t = b.text(rel)
        if t is not None:
            _always(ctx, rel, t, "Roo rules (every mode)")
    if not general and ".roorules" in fs.fileset:
        t = b.text(".roorules")
        if t is not None:
            _always(ctx, ".roorules", t, "legacy .roorules (every mode)")
    modes = sorted({d.split("/")[1][len("rules-"):] for d in fs.dirs if d.startswith(".roo/rules-") and d.count("/") == 1})
    for mode in modes:
        for rel in fs.under(f".roo/rules-{mode}"):
            t = b.text(rel)
            if t is not None:
                _manual(ctx, rel, t, f"in {mode} mode")
                ctx.on_demand[-1].trigger = "mode"
    for rel in fs.files:
        if rel.startswith(".roorules-") and "/" not in rel and rel[len(".roorules-"):] not in modes:
            t = b.text(rel)
            if t is not None:
                _manual(ctx, rel, t, f"in {rel[len('.roorules-'):]} mode (legacy file)")
                ctx.on_demand[-1].trigger = "mode"
    return ctx
