"""The GitHub Copilot CLI: what it loads, by the rules of the version chosen
(curator/agents/copilot_cli.py). Unlike VS Code (rules.copilot): the root's copilot-instructions.md,
AGENTS.md, CLAUDE.md and GEMINI.md all load (the same text once), with `@` imports one level deep;
a path instruction without a specific `applyTo` is in every prompt, one with globs a row of a table
at start-up and its text once a matching file is viewed; a subfolder's files once a file there is.
Shown when asked (`--agent copilot-cli`, `.curator.yaml`): the VS Code entry points here."""

from __future__ import annotations

from ..agents import RuleSet
from ..model.imports import find_imports
from .builder import Builder
from .model import AgentContext, Cut, Loaded, OnDemand, Unseen
from .parse import read_meta
from .rules import _always, _manual
from .skills_list import Listing, agent_skills

_TABLE_HEAD = ("Here is a list of instruction files that contain rules for modifying or creating new code.\n"
               "These files are important for ensuring that the code is modified or created correctly.\n"
               "Please make sure to follow the rules specified in these files when working with the codebase.\n"
               "If you have not already read the file, use the `view` tool to acquire it.\n"
               "Make sure to acquire the instructions before making any changes to the code.\n"
               "| Pattern | File Path | Description |\n| ------- | --------- | ----------- |\n")


def build(b: Builder) -> AgentContext:
    rules = b.rules_of("copilot-cli")
    ctx = AgentContext("copilot-cli")
    imported = _singles(b, ctx, rules)
    _path_instructions(b, ctx, rules, imported)
    _nested(b, ctx, rules)
    agent_skills(b, ctx, rules, Listing("Copilot CLI", manual_key="disable-model-invocation"))
    for folder in rules.value("agents.folder"):
        for rel in b.fs.under(folder):
            t = b.text(rel) if rel.lower().endswith(".md") else None
            if t is not None:
                _manual(ctx, rel, t, "custom agent: listed by name and description, its text when it runs",
                        rules.id("agents.folder"))
    return ctx


def _root_file(b: Builder, name: str) -> str | None:
    """The root file named `name` in any case (the CLI falls back to a case-blind listing)."""
    if name in b.fs.fileset:
        return name
    return next((f for f in b.fs.files if f.lower() == name.lower()), None)


def _singles(b: Builder, ctx: AgentContext, rules: RuleSet) -> set[str]:
    """copilot-instructions.md, then AGENTS.md, CLAUDE.md, GEMINI.md at the root: all (before
    0.0.385 the first found), a text already sent once not again, `@` imports expanded. Returns
    the files read (their real paths)."""
    model = rules.value("model.files")
    imports = rules.value("imports", None)
    sent: dict[str, str] = {}
    loaded: set[str] = set()
    for name in (rules.value("repo.file"), *model["names"]):
        rel = _root_file(b, name)
        t = b.text(rel) if rel else None
        if t is None or rel is None:
            continue
        if t.text in sent:
            ctx.notes.append(f"{rel} has the text of {sent[t.text]}: the Copilot CLI sends it once")
            continue
        sent[t.text] = rel
        rule = rules.id("repo.file" if name == rules.value("repo.file") else "model.files")
        why = "custom instructions (always, in <custom_instruction>)"
        if imports and name in imports["in"]:
            b.expand(ctx, rel, why, find_imports, loaded=loaded, hops=imports["hops"], rule=rule,
                     import_rule=rules.id("imports"), depth_rule=rules.id("imports"), report=False)
        else:
            _always(ctx, rel, t, why, rule)
        if not model["all"]:
            break
    return loaded | {e.path for e in ctx.startup}


def _globs(value) -> list[str]:
    """`applyTo` as the CLI reads it: comma-separated globs in one string, or a YAML list."""
    items = value if isinstance(value, list) else str(value).split(",") if value is not None else []
    return [str(g).strip() for g in items if str(g).strip()]


def _path_instructions(b: Builder, ctx: AgentContext, rules: RuleSet, imported: set[str]) -> None:
    """The root's `.github/instructions` (and `.claude/rules`): whole in every prompt, or a table
    row at start-up and the text once a matching file is viewed; an excluded one never. One an
    import already brought is sent again (the CLI sends only equal whole files once)."""
    keys = rules.value("path.keys")
    places = [(rules.value("path.folder"), rules.value("path.suffix"), keys["globs"], rules.id("path.folder"))]
    if rules.has("claude-rules"):
        cr = rules.value("claude-rules")
        places.append((cr["folder"], ".md", cr["globs"], rules.id("claude-rules")))
    head = True
    for folder, suffix, key, rule in places:
        for rel in b.fs.under(folder):
            t = b.text(rel) if rel.lower().endswith(suffix) else None
            if t is None:
                continue
            meta = read_meta(t.text)
            data = meta.data if meta.present and not meta.error else {}
            out = data.get(keys["exclude"])
            if any(x in rules.value("path.exclude") for x in _globs(out)):
                ctx.never.append(Unseen(rel, f"`{keys['exclude']}: {', '.join(_globs(out))}`: the Copilot CLI never "
                                        "reads it", t.size, rules.id("path.exclude")))
                continue
            globs = _globs(data.get(key))
            if all(g in rules.value("path.every-file") for g in globs):
                _always(ctx, rel, t, f"path instructions with no specific {key}: in every prompt", rule)
                if t.real in imported:
                    ctx.notes.append(f"{rel} is sent twice: imported, and as path instructions")
                continue
            desc = " ".join(str(data.get("description") or "").split())
            row = f"| {', '.join(globs)} | '{rel}' | {desc} |\n"
            line = (_TABLE_HEAD if head else "") + row
            head = False
            ctx.startup.append(Loaded(rel, t.size, 0, "instructions table row (pattern, path, description)", None,
                                      Cut(len(line.encode("utf-8")), "only its row is listed (the Copilot CLI's "
                                                                     "instructions table)"), line, rule))
            when = ("when the agent views a file matching " if rules.has("path.on-view") else
                    "when the model reads it from the table (it is told to before changing a file matching ")
            ctx.on_demand.append(OnDemand(rel, when + ", ".join(globs) + ("" if rules.has("path.on-view") else ")"),
                                          0, t.size, "path", tuple(globs), text=t.text, rule=rule))


def _nested(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    """A subfolder's instruction files: added once the agent views a file in that folder."""
    if not rules.has("nested.on-view"):
        return
    names = sorted((n.lower() for n in rules.value("nested.on-view")), key=len, reverse=True)
    marker, suffix = "/" + rules.value("path.folder") + "/", rules.value("path.suffix")
    for rel in b.fs.files:
        low = rel.lower()
        hit = next((n for n in names if low.endswith("/" + n)), None)
        if hit is not None:
            folder = rel[: len(rel) - len(hit) - 1]
        else:
            at = ("/" + rel).find(marker)
            folder = rel[: at - 1] if at > 0 and low.endswith(suffix) else ""
        t = b.text(rel) if folder else None
        if t is not None:
            ctx.on_demand.append(OnDemand(rel, f"after the agent views a file under {folder}/ (once a session)", 0,
                                          t.size, "folder", (folder + "/**",), text=t.text,
                                          rule=rules.id("nested.on-view")))


def user_files(b: Builder, ctx: AgentContext) -> None:
    """Your `~/.copilot/copilot-instructions.md` and `instructions/` (apart; not when CI is set)."""
    import os

    from .user import read_user

    if b.ci:
        return
    rules = b.rules_of("copilot-cli")
    form = rules.value("user.files")
    base = b.env.get(form["variable"]) or os.path.join(b.home, form["home"])
    for shown, text in read_user(b.home, [form["file"]], [form["folder"]], base=base,
                                 suffixes=(rules.value("path.suffix"),)):
        ctx.add_user(shown, text, "your Copilot CLI instructions (user level)", rules.id("user.files"))
