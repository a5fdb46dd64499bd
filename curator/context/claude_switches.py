"""Claude Code's switches that empty its context, read from curator's environment (the shell you
run Claude Code from): bare mode (`CLAUDE_CODE_SIMPLE`, `--bare`; since 2.1.50) reads no
CLAUDE.md, rules, skills or hooks, and auto memory only when `CLAUDE_CODE_DISABLE_AUTO_MEMORY=0`
forces it on; safe mode (`CLAUDE_CODE_SAFE_MODE`, `--safe-mode`; since 2.1.169) reads none of
them. Everything else of the build moves to never, with the reason."""

from __future__ import annotations

from ..agents import RuleSet
from .builder import Builder
from .model import AgentContext, Unseen

TRUE = ("1", "true", "yes", "on")  # Claude Code's `isEnvTruthy`


def switched_off(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    for key in ("switch.safe", "switch.bare"):  # safe mode first: it leaves nothing, auto memory included
        if not rules.has(key):
            continue
        variable = rules.value(key)
        if b.env.get(variable, "").strip().lower() not in TRUE:
            continue
        keep_auto = key == "switch.bare"  # in bare mode auto memory follows its own switch (auto_place)
        reason = f"{variable} is set: Claude Code reads none of it ({'bare' if keep_auto else 'safe'} mode)"
        rule = rules.id(key)
        gone = [e for e in (*ctx.startup, *ctx.user) if not (keep_auto and e.rule.startswith("claude-code/memory.auto"))]
        sizes = {o.path: o.bytes for o in ctx.on_demand} | {e.path: e.bytes for e in gone}  # a path once
        ctx.never += [Unseen(path, reason, size, rule) for path, size in sizes.items()]
        ctx.startup = [e for e in ctx.startup if e not in gone]
        ctx.user = [e for e in ctx.user if e not in gone]
        ctx.on_demand = []
        ctx.notes.append(reason.replace("none of it", "no CLAUDE.md, rules, skills or hooks of yours or the "
                                        "repository's" + ("" if keep_auto else ", and no auto memory")))
        return
