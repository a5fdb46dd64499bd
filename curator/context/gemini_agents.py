"""Gemini CLI's subagents (`packages/core/src/agents/registry.ts`): each `.gemini/agents/*.md`
(not `_*.md`) puts its name and description in the system prompt under "Available Sub-Agents",
once you have acknowledged it; its body runs when the model hands the subagent a task."""

from __future__ import annotations

from .builder import Builder
from .model import AgentContext, Cut, Loaded, OnDemand
from .parse import read_meta


def gemini_subagents(b: Builder, ctx: AgentContext) -> None:
    rules = b.rules_of("gemini")
    if not rules.has("subagents.folder"):
        return
    folder, rule = rules.value("subagents.folder"), rules.id("subagents.folder")
    listed = 0
    for rel in b.fs.under(folder):
        name = rel.rsplit("/", 1)[-1]
        if rel.count("/") != folder.count("/") + 1 or not name.endswith(".md") or name.startswith("_"):
            continue
        t = b.text(rel)
        if t is None:
            continue
        data = read_meta(t.text).data
        agent, desc = data.get("name"), data.get("description")
        if not isinstance(agent, str) or not isinstance(desc, str) or not agent.strip() or not desc.strip():
            continue  # the registry drops a definition without both
        line = f"<subagent><name>{agent.strip()}</name><description>{' '.join(desc.split())}</description></subagent>"
        ctx.startup.append(Loaded(rel, t.size, 0, "subagent listing (name and description; body when it runs)", None,
                                  Cut(len(line.encode("utf-8")), "only the subagent's name and description are listed"),
                                  line, rule))
        ctx.on_demand.append(OnDemand(rel, "when the model hands the subagent a task", 0, t.size, "description",
                                      description=" ".join(desc.split()), text=t.text, rule=rule))
        listed += 1
    if listed:
        ctx.notes.append(f"Gemini CLI lists a project's subagents only once you have acknowledged them (it asks when "
                         f"one is new or changed): {listed} here")
