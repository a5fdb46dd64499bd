"""What the store tree shows of the instruction files: per agent, its start-up files then its
on-demand files (the memory sources' own files and folders are shown under those sources)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class InstructionRef:
    """An agent's instruction files (path None) or one of them, relative to the repository."""

    agent: str
    path: str | None = None


def instruction_groups(model) -> list[tuple[str, str, int, list[tuple[str, int, str]]]]:
    """(agent, its label, start-up tokens, [(path, tokens, style)]) for each agent with files;
    start-up files first, on-demand ones dim."""
    out = []
    for name, ctx in (model.agents.items() if model is not None else ()):
        if name == "serena":
            continue  # its memories are the Serena source
        files = [(e.path, e.tokens, "") for e in ctx.startup]
        seen = {p for p, _, _ in files}
        for o in ctx.on_demand:
            if o.path not in seen and not o.path.endswith("/") and not o.path.startswith((".serena/", ".claude/memory/")):
                files.append((o.path, o.tokens, "dim"))
                seen.add(o.path)
        if files:
            out.append((name, ctx.label, model.startup_tokens(name), files))
    return out
