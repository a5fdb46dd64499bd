"""`curator context` as text (80 columns), markdown or JSON. Plain strings (no Rich): the fast
path of the entry point prints a kept model without importing the CLI."""

from __future__ import annotations

from ..context.model import AgentContext, ContextModel
from .escape import visible

WIDTH = 80


def _short(path: str, width: int) -> str:
    path = visible(path)  # a name from the repository: no control character, no line of its own
    return path if len(path) <= width else "…" + path[-(width - 1):]


def _n(v: int) -> str:
    return f"{v:,}"


def context_json(model: ContextModel) -> dict:
    data = model.to_json()
    data["findings"] = [{"check": f.check, "severity": f.severity.label, "path": f.path, "line": f.line,
                         "message": f.message} for f in model.findings]
    return data


def render_text(model: ContextModel, show_findings: bool = True) -> str:
    out: list[str] = []
    if not model.agents:
        out.append(f"{visible(str(model.root))}: no agent instruction files found (CLAUDE.md, AGENTS.md, GEMINI.md, "
                   ".cursor/rules, .github/copilot-instructions.md, .clinerules, .devin, .windsurf, .kiro, .roo, "
                   ".serena)")
    for note in model.notes:
        out += _wrap("note: " + note, "")
    for ctx in model.agents.values():
        out += _agent_text(ctx, model.encoding)
    if show_findings and model.findings:
        out.append(f"findings ({len(model.findings)})")
        for f in model.findings:
            where = visible(f"{f.path}:{f.line}" if f.line else f.path)
            head = f"  {f.severity.label:<7} {f.check}  {where}"
            out += [head] if len(head) <= WIDTH else [f"  {f.severity.label:<7} {f.check}", f"          {_short(where, WIDTH - 10)}"]
            out += _wrap(f.message, "          ")
    return "\n".join(out) + "\n"


def _wrap(text: str, indent: str) -> list[str]:
    import textwrap

    return textwrap.wrap(visible(text), WIDTH, initial_indent=indent, subsequent_indent=indent) or [indent]


def _agent_text(ctx: AgentContext, encoding: str) -> list[str]:
    est = " (estimated)" if encoding == "estimate" else ""
    n = len(ctx.startup)
    out = [f"{ctx.agent} ({ctx.label}): start-up {_n(ctx.startup_tokens)} tokens{est}, "
           f"{_n(ctx.startup_bytes)} bytes, {n} file{'s' if n != 1 else ''}"]
    if ctx.version:
        out += _wrap(rules_line(ctx), "  ")
    if ctx.startup:
        out.append(f"  {'tokens':>7} {'bytes':>7}  file")
        for e in ctx.startup:
            out.append(f"  {_n(e.tokens):>7} {_n(e.loaded_bytes):>7}  {_short(e.path, WIDTH - 20)}")
            detail = e.why + (f" (via {e.via})" if e.via else "")
            out += _wrap(detail, " " * 18)
            if e.cut and "listed" not in e.cut.reason:
                out += _wrap(f"cut: {e.cut.reason} (kept {_n(e.cut.kept_bytes)} of {_n(e.bytes)} bytes)", " " * 18)
    if ctx.user:
        out.append(f"  outside the repository (read-only, not counted): {_n(sum(e.tokens for e in ctx.user))} tokens")
        for e in ctx.user:
            out.append(f"  {_n(e.tokens):>7} {_n(e.loaded_bytes):>7}  {_short(e.path, WIDTH - 20)}")
            out += _wrap(e.why, " " * 18)
    if ctx.on_demand:
        out.append(f"  on demand ({len(ctx.on_demand)}):")
        for o in ctx.on_demand[:40]:
            out.append(f"  {_n(o.tokens):>7}          {_short(o.path, WIDTH - 20)}")
            out += _wrap(o.when, " " * 18)
        if len(ctx.on_demand) > 40:
            out.append(f"  … and {len(ctx.on_demand) - 40} more (--format json lists every one)")
    for path, items in ctx.for_path.items():
        extra = sum(o.tokens for o in items)
        tail = f": +{_n(extra)} tokens"
        out.append(f"  reading {_short(path, WIDTH - 10 - len(tail))}{tail}")
        for o in items:
            out.append(f"  {_n(o.tokens):>7}          {_short(o.path, WIDTH - 20)}")
        if not items:
            out.append("                   nothing more loads")
    if ctx.never:
        out.append(f"  never seen ({len(ctx.never)}):")
        for u in ctx.never:
            out.append(f"  {_n(u.bytes):>15}  {_short(u.path, WIDTH - 20)}")
            out += _wrap(u.reason, " " * 18)
    if ctx.memory_folders:
        out.append(f"  memory folders it writes ({len(ctx.memory_folders)}):")
        for m in ctx.memory_folders:
            whose = "yours, read-only" if not m.writable else m.scope
            out.append(f"  {_n(m.bytes):>15}  {_short(m.path, WIDTH - 40)} ({m.files} file{'s' if m.files != 1 else ''}, "
                       f"{whose})")
    for note in ctx.notes:
        out += _wrap("note: " + note, "  ")
    out.append("")
    return out


def rules_line(ctx: AgentContext) -> str:
    """`rules: Claude Code 2.1.325 (the newest known)` / `... 2.1.270 (--agent; newest 2.1.325)`."""
    if ctx.chosen_by == "newest known" and ctx.version == ctx.newest:
        why = "the newest known"
    else:
        why = f"{ctx.chosen_by}; newest known {ctx.newest}" if ctx.version != ctx.newest else ctx.chosen_by
    return f"rules: {ctx.label} {ctx.version} ({why})"


def render_markdown(model: ContextModel) -> str:
    v = visible  # every name and text from the repository
    out = [f"# What each agent loads ({v(str(model.root))})", ""]
    out += [f"> {v(note)}" for note in model.notes] + ([""] if model.notes else [])
    for ctx in model.agents.values():
        out += [f"## {ctx.label} (`{ctx.agent}`): start-up {_n(ctx.startup_tokens)} tokens", ""]
        if ctx.version:
            out += [rules_line(ctx).replace("rules: ", "Rules of ", 1) + ".", ""]
        out += ["| file | bytes | tokens | why | via | cut |", "|---|---:|---:|---|---|---|"]
        for e in ctx.startup:
            cut = f"kept {_n(e.cut.kept_bytes)}: {v(e.cut.reason)}" if e.cut else ""
            out.append(f"| `{v(e.path)}` | {_n(e.bytes)} | {_n(e.tokens)} | {v(e.why)} | {v(e.via or '')} | {cut} |")
        if ctx.on_demand:
            out += ["", "On demand:", ""]
            out += [f"- `{v(o.path)}` ({_n(o.tokens)} tokens): {v(o.when)}" for o in ctx.on_demand]
        if ctx.never:
            out += ["", "Never seen:", ""]
            out += [f"- `{v(u.path)}`: {v(u.reason)}" for u in ctx.never]
        if ctx.memory_folders:
            out += ["", "Memory folders it writes:", ""]
            out += [f"- `{v(m.path)}` ({m.scope}, {m.files} files, {_n(m.bytes)} bytes"
                    f"{', read-only' if not m.writable else ''})" for m in ctx.memory_folders]
        out.append("")
    if model.findings:
        out += ["## Findings", ""]
        out += [f"- **{f.check}** `{v(f.path)}{':' + str(f.line) if f.line else ''}`: {v(f.message)}" for f in model.findings]
    return "\n".join(out) + "\n"
