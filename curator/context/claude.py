"""Claude Code: CLAUDE.md files, @imports, .claude/rules, skills, commands, agents, auto memory.

Loading rules (Claude Code memory and skills docs): the repository's `CLAUDE.md`,
`.claude/CLAUDE.md` and `CLAUDE.local.md` load at start-up in full, each followed by what it
imports (`@path` outside code, relative to the importing file, at most 5 hops, each file once);
`.claude/rules/**/*.md` without `paths:` at start-up, with `paths:` when a matching file is read;
`CLAUDE.md` in subfolders when a file under them is read; skills, commands with a description and
subagents are listed by name and description at start-up, their bodies load when used.
"""

from __future__ import annotations

from ..model import formats as fmts
from ..model.findings import RuleKeys
from .builder import Builder, cut_bytes
from .model import AgentContext, Cut, Loaded, OnDemand, Unseen
from .parse import find_imports, glob_list, read_meta

ROOT_FILES = (("CLAUDE.md", "project instructions (CLAUDE.md)"),
              (".claude/CLAUDE.md", "project instructions (.claude/CLAUDE.md)"),
              ("CLAUDE.local.md", "local project instructions (CLAUDE.local.md)"))
SKILL_NAME_MAX, SKILL_DESCRIPTION_MAX = 64, 1024
LISTING_BUDGET_CHARS = 8_000  # ~1% of a 200k-token window, Claude Code's fallback budget
BANNER_CHARS = 40_000


def build(b: Builder) -> AgentContext:
    ctx = AgentContext("claude-code")
    loaded: set[str] = set()
    fs = b.fs
    for rel, why in ROOT_FILES:
        if rel in fs.fileset:
            b.expand(ctx, rel, why, find_imports, loaded=loaded)
    _rules(b, ctx, loaded)
    for entry in ctx.startup:
        if entry.path.endswith("CLAUDE.md") and len(entry.text) > BANNER_CHARS:
            ctx.notes.append(f"{entry.path} is over {BANNER_CHARS:,} characters: Claude Code warns at start-up")
    _listing(b, ctx)
    _nested(b, ctx)
    _memory(b, ctx, loaded)
    return ctx


def _rules(b: Builder, ctx: AgentContext, loaded: set[str]) -> None:
    for rel in b.fs.under(".claude/rules"):
        if not rel.endswith(".md"):
            continue
        t = b.text(rel)
        if t is None:
            continue
        meta = read_meta(t.text)
        if meta.lenient:  # Claude Code reads YAML: what only a line-by-line reading finds is lost
            meta.data, meta.lenient = {}, False
        keys = [k for k in ("globs", "alwaysApply") if k in meta.data]
        if keys:
            said = " and ".join(f"`{k}:`" for k in keys)
            effect = "it loads at start-up" if "paths" not in meta.data else "only `paths:` counts"
            b.add("instructions.foreign-keys", rel, f"{said} {'is' if len(keys) == 1 else 'are'} Cursor's; Claude Code "
                  f"ignores {'it' if len(keys) == 1 else 'them'} ({effect}; use `paths:`)", 1,
                  fix=RuleKeys(rel, "paths") if t.real == rel and not meta.error else None)
        if meta.error:
            b.add("instructions.frontmatter", rel, f"{meta.error}: Claude Code cannot read its settings "
                  "(a `paths:` there is lost; the rule loads at start-up)", meta.line)
        paths = glob_list(meta.data.get("paths")) if not meta.error else []
        if paths:
            ctx.on_demand.append(OnDemand(rel, "reading a file matching " + ", ".join(paths), 0, t.size, "path",
                                          tuple(paths), text=t.text))
            b.dead_globs(rel, "paths", paths)
        elif t.real not in loaded:
            b.expand(ctx, rel, "rule without paths: (always loaded)", find_imports, loaded=loaded)


def _listing(b: Builder, ctx: AgentContext) -> None:
    """Skills, commands with a description and subagents: listed by name and description."""
    fs = b.fs
    items: list[tuple[str, str, str, str]] = []  # (path, kind, name, description)
    for rel in fs.under(".claude/skills"):
        parts = rel.split("/")
        if len(parts) == 4 and parts[3] == "SKILL.md":
            items.append((rel, "skill", parts[2], ""))
    for rel in fs.under(".claude/commands"):
        if rel.endswith(".md"):
            items.append((rel, "command", rel[len(".claude/commands/"):-3].replace("/", ":"), ""))
    for rel in fs.under(".claude/agents"):
        if rel.endswith(".md"):
            items.append((rel, "subagent", rel.rsplit("/", 1)[-1][:-3], ""))
    total = 0
    for rel, kind, default_name, _ in items:
        t = b.text(rel)
        if t is None:
            continue
        meta = read_meta(t.text)
        data = meta.data
        if meta.error:  # Claude Code drops every field of frontmatter YAML cannot read
            data = {}
            effect = ("lists the skill by its folder's name and its body's first line" if kind == "skill"
                      else f"the {kind} loses its description")
            b.add("instructions.frontmatter", rel, f"{meta.error}: Claude Code drops every field (name, description, "
                  f"allowed-tools) and {effect}", meta.line)
        name = str(data.get("name") or default_name).strip()
        desc = data.get("description")
        desc = " ".join(str(desc).split()) if desc not in (None, "") else ""
        if not desc and kind == "skill":
            desc = _first_line(meta.body if meta.present and not meta.error else _after_frontmatter(t.text))
        if kind == "skill":
            if len(name) > SKILL_NAME_MAX:
                b.add("skills.name-length", rel, f"skill name is {len(name)} characters (at most {SKILL_NAME_MAX})", 1)
            if len(desc) > SKILL_DESCRIPTION_MAX:
                b.add("skills.description-length", rel,
                      f"description is {len(desc):,} characters (at most {SKILL_DESCRIPTION_MAX:,}; the rest is cut)", 1)
                desc = desc[:SKILL_DESCRIPTION_MAX]
        if kind == "command" and not desc:
            ctx.on_demand.append(OnDemand(rel, f"when you type /{name}", 0, t.size, "invoked", text=t.text))
            continue
        line = f"- {name}: {desc}" if desc else f"- {name}"
        total += len(line) + 1
        entry = Loaded(rel, t.size, 0, f"{kind} listing (name and description; body on demand)", None,
                       Cut(len(line.encode("utf-8")), f"only the {kind}'s name and description are listed"), line)
        ctx.startup.append(entry)
        when = f"when the {kind} is used" if kind != "command" else f"when /{name} is used"
        ctx.on_demand.append(OnDemand(rel, when, 0, t.size, "description", description=desc, text=t.text))
    if total > LISTING_BUDGET_CHARS:
        b.add("skills.budget", ".claude/skills",
              f"the skills listing is {total:,} characters, over its ~{LISTING_BUDGET_CHARS:,} budget (about 1% of "
              "the context window): the least-used skills collapse to bare names")


def _after_frontmatter(text: str) -> str:
    lines = text.split("\n")
    if lines and lines[0].strip().startswith("---"):
        for i in range(1, len(lines)):
            if lines[i].strip().startswith("---"):
                return "\n".join(lines[i + 1:])
    return text


def _first_line(body: str) -> str:
    """A skill without a readable description is listed by its body's first line."""
    for line in body.splitlines():
        s = line.strip().lstrip("#").strip()
        if s:
            return s
    return ""


def _nested(b: Builder, ctx: AgentContext) -> None:
    for rel in b.fs.files:
        name = rel.rsplit("/", 1)[-1]
        if name not in ("CLAUDE.md", "CLAUDE.local.md") or "/" not in rel or rel == ".claude/CLAUDE.md":
            continue
        folder = rel.rsplit("/", 1)[0]
        if folder.endswith("/.claude"):
            folder = folder[: -len("/.claude")]
        t = b.text(rel)
        if t is None:
            continue
        ctx.on_demand.append(OnDemand(rel, f"reading a file under {folder}/", 0, t.size, "folder",
                                      (folder + "/**",), text=t.text))


def _memory(b: Builder, ctx: AgentContext, loaded: set[str]) -> None:
    """Auto memory committed in the repository: at start-up only when imported."""
    index = ".claude/memory/MEMORY.md"
    got = b.fs.fileset
    if index in got and index not in {e.path for e in ctx.startup}:
        t = b.text(index)
        if t is not None:
            ctx.on_demand.append(OnDemand(index, "never by itself: auto memory is read from "
                                          "~/.claude/projects/<slug>/memory unless a loaded file imports it or "
                                          "your settings' autoMemoryDirectory point here", 0, t.size, "manual",
                                          text=t.text))
    for e in ctx.startup:
        if e.path.endswith("MEMORY.md") and e.via:
            first = fmts.claude_cap_line(e.text)
            if first is not None:  # imported in full; the auto-memory cap applies only when auto-loaded
                ctx.notes.append(f"{e.path} is imported in full; as auto memory only its first "
                                 f"{fmts.CLAUDE_CAP_LINES} lines / {fmts.CLAUDE_CAP_BYTES // 1000} KB would load")
    for rel in b.fs.under(".claude/memory"):
        if rel.endswith(".md") and rel != index and all(e.path != rel for e in ctx.startup):
            t = b.text(rel)
            if t is not None:
                ctx.on_demand.append(OnDemand(rel, "memory topic file: read when the agent follows MEMORY.md",
                                              0, t.size, "invoked", text=t.text))


def user_files(b: Builder, ctx: AgentContext, slug_root: str) -> None:
    """~/.claude/CLAUDE.md, ~/.claude/rules/ and the project's auto memory: read-only, apart."""
    from .user import read_user

    if b.ci:
        ctx.notes.append("CI is set: user-level files (~/.claude) are not shown")
        return
    for shown, text in read_user(b.home, [".claude/CLAUDE.md"], [".claude/rules"]):
        ctx.user.append(Loaded(shown, len(text.encode("utf-8")), 0, "your own instructions (user level)", None, None, text))
    from ..model.sources import claude_slug

    mem = f".claude/projects/{claude_slug(slug_root)}/memory/MEMORY.md"
    for shown, text in read_user(b.home, [mem], []):
        entry = Loaded(shown, len(text.encode("utf-8")), 0, "auto memory (first 200 lines or 25 KB)", None, None, text)
        first = fmts.claude_cap_line(text)
        if first is not None:
            kept = "".join(text.splitlines(keepends=True)[: first - 1]).encode("utf-8")
            cut_bytes(entry, len(kept), f"auto memory loads its first {fmts.CLAUDE_CAP_LINES} lines or "
                      f"{fmts.CLAUDE_CAP_BYTES // 1000} KB; lines {first}+ are never seen")
            ctx.never.append(Unseen(shown, f"lines {first}+ past the auto-memory cap", entry.bytes - len(kept)))
        ctx.user.append(entry)
