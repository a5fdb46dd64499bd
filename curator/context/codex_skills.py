"""Codex's skills (its `ext/skills` code): every `SKILL.md` below `.agents/skills/` and
`.codex/skills/` of each folder from the project root down to where Codex starts is listed at
start-up as `- name: description (file: path)`; the body is read when the skill is used. A
nested folder's skills are listed only when Codex starts in that folder (or below it)."""

from __future__ import annotations

from .builder import Builder
from .model import AgentContext
from .skills_list import Listing, list_skill, list_user_skills, skill_files, skill_folders


def codex_skills(b: Builder, ctx: AgentContext) -> None:
    rules = b.rules_of("codex")
    if not rules.has("skills.folders"):
        return
    rule = rules.id("skills.folders")
    spec = Listing("Codex", desc_max=rules.value("skills.description-max", 0), with_path=True,
                   requires=("description",), strict=True)
    seen: set[str] = set()
    for folder, scope in skill_folders(b, rules.value("skills.folders")):  # (no one starts Codex in a dot folder)
        for rel in skill_files(b, folder, deep=True):
            real = b.real(rel)
            if real not in seen and list_skill(b, ctx, rel, rule, spec, scope=scope,
                                               scope_how=f"Codex starts in {scope}/ or below" if scope else ""):
                seen.add(real)
    _budget_note(ctx, rules)
    if not b.ci and rules.has("user.skills"):
        from .user import home_rel

        codex_home = home_rel(b, b.env.get("CODEX_HOME"), ".codex")
        folders = [f for f in rules.value("user.skills") if not f.startswith("$CODEX_HOME")]
        if codex_home is not None:
            folders += [f.replace("$CODEX_HOME", codex_home) for f in rules.value("user.skills")
                        if f.startswith("$CODEX_HOME")]
        list_user_skills(b, ctx, folders, rules.id("user.skills"), "your skill (listed by name and description)")


def _budget_note(ctx: AgentContext, rules) -> None:
    """Past its budget Codex shortens the descriptions: said when the repository's listing alone
    is over the budget Codex uses when it does not know the model's window."""
    budget = rules.value("skills.listing-budget", 0)
    listed = sum(len(e.text) + 1 for e in ctx.startup if e.rule == rules.id("skills.folders"))
    if budget and listed > budget:
        ctx.notes.append(f"the skills listing is {listed:,} characters: Codex budgets it at 2% of the model's context "
                         f"window ({budget:,} characters when it does not know the window) and shortens descriptions "
                         "past it")
