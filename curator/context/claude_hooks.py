"""Claude Code hooks that put text into the context: what a `SessionStart` hook's command prints
joins it at start-up, a `UserPromptSubmit` hook's with every prompt (`hooks.context`). A hook
that only prints a file of the repository (`cat .claude/context.md`) is counted as that file;
any other is named in a note, since what it prints is known only when it runs."""

from __future__ import annotations

import re

from .builder import Builder
from .model import AgentContext, Loaded

# `cat FILE`, the file in the repository (maybe under "$CLAUDE_PROJECT_DIR"): nothing else runs
_CAT = re.compile(r"""^cat\s+(?:"?\$\{?CLAUDE_PROJECT_DIR\}?"?/)?([\w./@+-]+)$""")


def commands(data: dict, form: dict) -> list[tuple[str, str]]:
    """(event, command) of every command hook a settings file gives the events that print
    into the context."""
    hooks = data.get(form["key"])
    out = []
    for event in form["events"]:
        groups = hooks.get(event) if isinstance(hooks, dict) else None
        for group in groups if isinstance(groups, list) else ():
            inner = group.get("hooks") if isinstance(group, dict) else None
            for hook in inner if isinstance(inner, list) else ():
                if isinstance(hook, dict) and hook.get("type") == "command" and isinstance(hook.get("command"), str):
                    out.append((event, " ".join(hook["command"].split())))
    return out


def context_hooks(b: Builder, ctx: AgentContext, rules, found: list[tuple[str, str, str]]) -> None:
    """`found`: (event, command, the settings file) of the hooks the settings read."""
    if not rules.has("hooks.context"):
        return
    form, rule = rules.value("hooks.context"), rules.id("hooks.context")
    loaded = {e.path for e in ctx.startup}
    for event, command, shown in found:
        m = _CAT.match(command)
        rel = m.group(1).removeprefix("./") if m else ""
        t = b.text(rel) if rel and rel in b.fs.fileset and ".." not in rel.split("/") else None
        if event == "SessionStart" and t is not None and len(t.text) <= form["max-chars"] and rel not in loaded:
            loaded.add(rel)
            ctx.startup.append(Loaded(rel, t.size, 0, f"printed by a SessionStart hook ({shown})", None, None,
                                      t.text, rule))
            continue
        ctx.notes.append(hook_note(event, command, shown, form["events"][event]))


def hook_note(event: str, command: str, where: str, when: str, extra: str = "", tail: str = "") -> str:
    """The note naming a hook whose output joins the context (its command cut to a line)."""
    short = command if len(command) <= 60 else command[:59] + "…"
    return (f"a {event} hook in {where} runs `{short}`: what it prints joins the context {when}{extra} (not counted: "
            f"known only when it runs{tail})")
