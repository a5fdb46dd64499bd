"""Cursor: project rules `.cursor/rules/**/*.mdc` by their frontmatter (`alwaysApply: true` /
`globs` / `description` / none; `alwaysApply` must be a boolean; a plain `.md` there is ignored),
nested `.cursor/rules/` folders, the legacy `.cursorrules`, the root `CLAUDE.md`, and skills
(listed by name and description). Every folder and key is Cursor's rule at the version chosen."""

from __future__ import annotations

from ..model.findings import RuleKeys
from .builder import Builder
from .model import AgentContext, OnDemand, Unseen
from .parse import glob_list, read_meta
from .rules import (
    _always,
    _by_description,
    _globbed,
    _heading_keys,
    _manual,
    _rule_files,
    always_once,
)
from .skills_list import Listing, list_skill, list_user_skills, skill_files, skill_folders


def cursor(b: Builder) -> AgentContext:
    rules = b.rules_of("cursor")
    ctx = AgentContext("cursor")
    folder, suffix = rules.value("rules.folder"), rules.value("rules.suffix")
    plain = rules.value("rules.plain-md", None)
    for scope in ["", *nested_cursor_scopes(b.fs, folder)]:
        where = f"{scope}/{folder}" if scope else folder
        for rel in b.fs.under(where):
            if plain and rel.endswith(plain) and not rel.endswith(suffix):
                ctx.never.append(Unseen(rel, f"a plain {plain} in {folder}: Cursor reads only {suffix} project rules",
                                        getattr(b.fs.read(rel), "size", 0), rules.id("rules.plain-md")))
                _plain_rule_globs(b, rules, rel, scope, suffix)
        for rel, t, meta in _rule_files(b, where, (suffix,) if plain else (suffix, ".md"), "Cursor"):
            _cursor_rule(b, ctx, rules, rel, t, meta, scope)
    legacy = rules.value("legacy.file")
    if legacy in b.fs.fileset:
        t = b.text(legacy)
        if t is not None:
            _always(ctx, legacy, t, f"legacy {legacy} (always)", rules.id("legacy.file"))
    if rules.has("claude-md"):
        always_once(b, ctx, rules.value("claude-md"), f"{rules.value('claude-md')} (Cursor applies it to every "
                    "conversation)", rules.id("claude-md"))
    _skills(b, ctx, rules)
    return ctx


def _skills(b: Builder, ctx: AgentContext, rules) -> None:
    """Skills of the root skills folders (any depth), of nested ones (for files under their
    folder), and yours: each listed once, however many folders link to it."""
    if not rules.has("skills.folders"):
        return
    keys, rule = rules.value("skills.keys"), rules.id("skills.folders")
    seen: set[str] = set()
    taken: dict[str, str] = {}
    spec = Listing("Cursor", globs_key=tuple(keys["globs"]), manual_key=keys["manual"])

    def one(rel: str, scope: str, rule: str) -> None:
        real = b.real(rel)
        if real not in seen and list_skill(b, ctx, rel, rule, spec, scope=scope, taken=None if scope else taken):
            seen.add(real)

    for folder in rules.value("skills.folders"):
        for rel in skill_files(b, folder, deep=True):
            one(rel, "", rule)
    for d, scope in skill_folders(b, rules.value("skills.nested", ())):
        if scope:  # the root's are the root folders' above
            for rel in skill_files(b, d, deep=True):
                one(rel, scope, rules.id("skills.nested"))
    if not b.ci and rules.has("user.skills"):
        list_user_skills(b, ctx, list(rules.value("user.skills")), rules.id("user.skills"),
                         "your skill (listed by name and description)")


def _plain_rule_globs(b: Builder, rules, rel: str, scope: str, suffix: str) -> None:
    """A plain `.md` rule's globs, checked as its `.mdc` would be: renamed (the cursor-md fix), a
    rule whose globs match nothing still never loads. Its frontmatter is read quietly: Cursor
    reads none of it today."""
    t = b.text(rel)
    if t is None:
        return
    keys = rules.value("rules.keys")
    data = read_meta(t.text).data
    if data.get(keys["always"]) is True:
        return  # always applied once renamed: its globs do not matter
    globs = glob_list(data.get(keys["globs"]))
    if scope:
        globs = [f"{scope}/{g.lstrip('/').removeprefix('./')}" for g in globs]
    if globs:
        b.dead_globs(rel, keys["globs"], globs, outcome=f"renamed to {suffix}, the rule would still never load",
                     parts=False)  # a rule not loaded yet: its dead patterns can wait


def nested_cursor_scopes(fs, folder: str) -> list[str]:
    """The subfolders holding a `.cursor/rules/` of their own (vendored and example ones aside)."""
    from .placement import FOREIGN

    tail = "/" + folder
    return sorted(d[: -len(tail)] for d in fs.dirs if d.endswith(tail) and d not in fs.links
                  and not any(p.lower() in FOREIGN or p.startswith(".") for p in d[: -len(tail)].split("/")))


def _cursor_rule(b: Builder, ctx: AgentContext, rules, rel: str, t, meta, scope: str) -> None:
    """One rule by its frontmatter; a nested folder's rules apply to files under `scope` only."""
    keys = rules.value("rules.keys")
    rule = rules.id("rules.folder" if not scope else "rules.nested")
    always = meta.data.get(keys["always"])
    if isinstance(always, str) and always.strip().lower() in ("true", "false", "yes", "no") and not meta.lenient:
        b.add("instructions.string-bool", rel, f'{keys["always"]}: "{always}" is a string, not a boolean: Cursor '
              f"does not treat the rule as always applied (write {keys['always']}: true)", 1,
              fix=RuleKeys(rel, "bool") if t.real == rel else None)
    globs = glob_list(meta.data.get(keys["globs"]))
    if scope:
        globs = [f"{scope}/{g.lstrip('/').removeprefix('./')}" for g in globs]
    desc = meta.data.get(keys["description"])
    if always is True or (meta.lenient and str(always).strip().lower() == "true"):
        if scope:
            ctx.on_demand.append(OnDemand(rel, f"working on files under {scope}/ (nested rule, {keys['always']}: "
                                          "true)", 0, t.size, "folder", (scope + "/**",), text=t.text, rule=rule))
        else:
            _always(ctx, rel, t, f"Cursor rule, {keys['always']}: true", rule)
    elif globs:
        _globbed(b, ctx, rel, t, keys["globs"], globs, rule, " (auto attached)")
    elif desc not in (None, "", []):
        _by_description(ctx, rel, t, desc, rule, listed=True)
    else:
        _manual(ctx, rel, t, "only when you @-mention it (manual rule)", rule)
        if not meta.present and t.text.strip() and not _heading_keys(b, rel, t.text, keys.values()):
            b.add("instructions.no-description", rel, "no frontmatter (description, globs, alwaysApply): Cursor "
                  "applies this rule only when you @-mention it — nothing lets the agent pick it", 1)
