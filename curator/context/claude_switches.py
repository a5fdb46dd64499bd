"""Claude Code's switches that empty its context, read from curator's environment (the shell you
run Claude Code from): bare mode (`CLAUDE_CODE_SIMPLE`, `--bare`; since 2.1.50) and safe mode
(`CLAUDE_CODE_SAFE_MODE`, `--safe-mode`; since 2.1.169) read no CLAUDE.md, rules, skills, hooks
or memory file (bare mode's memory loader is off even when `CLAUDE_CODE_DISABLE_AUTO_MEMORY=0`
turns auto memory on: the 2.1.332 code). Everything of the build moves to never, with the reason."""

from __future__ import annotations

from ..agents import RuleSet
from ..model.auto_memory import TRUE  # Claude Code's `isEnvTruthy`
from .builder import Builder
from .model import AgentContext, Unseen


def switched_off(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    for key in ("switch.safe", "switch.bare"):  # safe mode first: it leaves nothing, auto memory included
        if not rules.has(key):
            continue
        variable = rules.value(key)
        if b.env.get(variable, "").strip().lower() not in TRUE:
            continue
        mode = "bare" if key == "switch.bare" else "safe"
        reason = f"{variable} is set: Claude Code reads none of it ({mode} mode)"
        rule = rules.id(key)
        gone = [*ctx.startup, *ctx.user]  # bare mode reads no memory file either, auto memory forced on or not
        sizes = {o.path: o.bytes for o in ctx.on_demand} | {e.path: e.bytes for e in gone}  # a path once
        ctx.never += [Unseen(path, reason, size, rule) for path, size in sizes.items()]
        ctx.startup = [e for e in ctx.startup if e not in gone]
        ctx.user = [e for e in ctx.user if e not in gone]
        ctx.on_demand = []
        ctx.notes = [n for n in ctx.notes if not n.startswith("output style ")]  # a style that does not load
        ctx.notes.append(reason.replace("none of it", "no CLAUDE.md, rules, skills, output style, hooks or auto "
                                        "memory of yours or the repository's"))
        return
