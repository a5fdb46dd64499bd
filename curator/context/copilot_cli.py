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
from .parse import glob_list, read_meta
from .rules import _always, _manual
from .skills_list import Listing

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
    _skills(b, ctx, rules)
    for folder in rules.value("agents.folder"):
        for rel in b.fs.under(folder):
            t = b.text(rel) if rel.lower().endswith(".md") else None
            if t is not None:
                _listed(ctx, rel, t, "custom agent listed in the task tool (name and description)",
                        rules.id("agents.folder"))
                _manual(ctx, rel, t, "custom agent: its text when it runs", rules.id("agents.folder"))
    return ctx


def _listed(ctx: AgentContext, rel: str, t, why: str, rule: str) -> None:
    """One line of a start-up listing (`- **name**: description`), its file's body on demand."""
    meta = read_meta(t.text)
    data = meta.data if meta.present and not meta.error else {}
    name = data.get("name") if isinstance(data.get("name"), str) else rel.rsplit("/", 1)[-1].split(".", 1)[0]
    desc = data.get("description")
    line = f"- **{name}**: {' '.join(desc.split()) if isinstance(desc, str) else ''}"
    ctx.startup.append(Loaded(rel, t.size, 0, why, None, Cut(len(line.encode("utf-8")), "only its line is listed"),
                              line, rule))


def _skills(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    """Skills at any depth of their folders (since 1.0.55), `.claude/commands` as skills (0.0.399),
    yours under `$COPILOT_HOME` (`~/.agents/skills` only without it)."""
    import os

    from .skills_list import Clash, list_skill, list_user_skills, skill_files

    spec, taken = Listing("Copilot CLI", manual_key="disable-model-invocation"), dict[str, str]()
    for folder in rules.value("skills.folders", ()):
        for rel in skill_files(b, folder, deep=True):
            list_skill(b, ctx, rel, rules.id("skills.folders"), spec, taken=taken)
    for rel in b.fs.under(rules.value("commands.folder", "")) if rules.has("commands.folder") else ():
        t = b.text(rel) if rel.endswith(".md") and rel.count("/") == rules.value("commands.folder").count("/") + 1 \
            else None
        if t is not None:
            _listed(ctx, rel, t, "command listed as a skill (name and description)", rules.id("commands.folder"))
            _manual(ctx, rel, t, "command: its text when used", rules.id("commands.folder"))
    if not b.ci and rules.has("user.skills"):
        home = b.env.get(rules.value("user.files")["variable"])
        folders = [os.path.join(home, "skills")] if home else list(rules.value("user.skills"))
        list_user_skills(b, ctx, folders, rules.id("user.skills"), "your skill (listed by name and description)",
                         deep=True, clash=Clash.of(rules, taken))


def _root_file(b: Builder, name: str) -> str | None:
    """The file `name`, its file name in any case (the CLI falls back to a case-blind listing of
    the folder; the folder itself must be spelt as it is)."""
    if name in b.fs.fileset:
        return name
    folder, _, base = name.rpartition("/")
    shallow = b.once("copilot-cli names", lambda: {(f.rpartition("/")[0], f.rpartition("/")[2].lower()): f
                                                   for f in b.fs.files if f.count("/") <= 1})
    return shallow.get((folder, base.lower()))


def _singles(b: Builder, ctx: AgentContext, rules: RuleSet) -> set[str]:
    """copilot-instructions.md, then AGENTS.md, CLAUDE.md, GEMINI.md at the root: all (before
    0.0.385 the first found), a text already sent once not again, `@` imports expanded. Returns
    the files read (their real paths)."""
    model = rules.value("model.files")
    imports = rules.value("imports", None)
    sent: dict[str, str] = {}
    every: set[str] = set()
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
        first = len(ctx.startup)
        if imports and name in imports["in"]:
            loaded: set[str] = set()  # each root file's imports are its own: one another file brought comes again
            b.expand(ctx, rel, why, find_imports, loaded=loaded, hops=imports["hops"], rule=rule,
                     import_rule=rules.id("imports"), depth_rule=rules.id("imports"), report=False)
            every |= loaded
        else:
            _always(ctx, rel, t, why, rule)
        for e in ctx.startup[first:]:  # the tags the CLI wraps each file in are sent too (source: absolute there)
            tag = "custom_instruction" if e.path == rel else f'imported_custom_instruction source="{e.path}"'
            e.text = f"<{tag}>\n{e.text}\n</{tag.split()[0]}>"
        if not model["all"]:
            break
    return every | {e.path for e in ctx.startup}


def _globs(value) -> list[str]:
    """`applyTo` as the CLI reads it: comma-separated globs in one string (`{a,b}` kept whole), or
    the strings of a YAML list; any other value is no `applyTo` at all."""
    if isinstance(value, list):
        return [g.strip() for g in value if isinstance(g, str) and g.strip()]
    return glob_list(value) if isinstance(value, str) else []


def _excluded(value, names: tuple[str, ...]) -> str | None:
    """The `excludeAgent` entry that keeps the file from the CLI: the whole string, or a list item,
    equal to one of `names` (`"code-review, coding-agent"` is neither)."""
    items = value if isinstance(value, list) else [value]
    return next((x for x in items if isinstance(x, str) and x in names), None)


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
    other = {keys["globs"]: "paths", "paths": keys["globs"]}  # either key is read in either folder
    for folder, suffix, key, rule in places:
        for rel in b.fs.under(folder):
            t = b.text(rel) if rel.lower().endswith(suffix) else None
            if t is None:
                continue
            meta = read_meta(t.text.removeprefix("\ufeff"))
            data = meta.data if meta.present and (not meta.error or meta.lenient) else {}
            out = _excluded(data.get(keys["exclude"]), rules.value("path.exclude"))
            if out is not None:
                ctx.never.append(Unseen(rel, f"`{keys['exclude']}: {out}`: the Copilot CLI never reads it", t.size,
                                        rules.id("path.exclude")))
                continue
            globs = _globs(data.get(key) if data.get(key) is not None else data.get(other[key]))
            if all(g in rules.value("path.every-file") for g in globs):
                _always(ctx, rel, t, f"path instructions with no specific {key}: in every prompt", rule)
                if t.real in imported:
                    ctx.notes.append(f"{rel} is sent twice: imported, and as path instructions")
                continue
            desc = " ".join(data["description"].split()) if isinstance(data.get("description"), str) else ""
            row = f"| {', '.join(globs)} | '{rel}' | {desc} |\n"
            line = (_TABLE_HEAD if head else "") + row
            head = False
            ctx.startup.append(Loaded(rel, t.size, 0, "instructions table row (pattern, path, description)", None,
                                      Cut(len(line.encode("utf-8")), "only its row is listed (the Copilot CLI's "
                                                                     "instructions table)"), line, rule))
            when = ("when the agent views a file matching " if rules.has("path.on-view") else
                    "when the model reads it from the table (it is told to before changing a file matching ")
            ctx.on_demand.append(OnDemand(rel, when + ", ".join(globs) + ("" if rules.has("path.on-view") else ")"),
                                          0, t.size, "path", tuple(globs), text=t.text, rule=rule, picomatch=True))


def _nested(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    """A subfolder's instruction files, added once the agent views a file in that folder; its path
    instructions and (since 1.0.89) `.claude/rules` as the root's are read: excluded, or whole, or
    by their globs (matched from the git root)."""
    if not rules.has("nested.on-view"):
        return
    names = sorted((n.lower() for n in rules.value("nested.on-view")), key=len, reverse=True)
    bases = {n.rsplit("/", 1)[-1] for n in names}
    folders = ["/" + rules.value("path.folder") + "/"]
    if rules.has("claude-rules"):
        folders.append("/" + rules.value("claude-rules")["folder"] + "/")
    suffix = rules.value("path.suffix")
    for rel in b.fs.files:
        low = rel.lower()
        hit = next((n for n in names if low.endswith("/" + n)), None) if low.rsplit("/", 1)[-1] in bases else None
        at = -1 if hit else next((i for m in folders if (i := ("/" + rel).find(m)) > 0), -1)
        if hit is None and (at < 0 or not low.endswith(suffix if folders[0] in "/" + rel else ".md")):
            continue
        folder = rel[: len(rel) - len(hit) - 1] if hit else rel[: at - 1]
        t = b.text(rel)
        if t is None:
            continue
        when = f"after the agent views a file under {folder}/ (once a session)"
        if hit is None:
            meta = read_meta(t.text.removeprefix("\ufeff"))
            data = meta.data if meta.present and (not meta.error or meta.lenient) else {}
            if _excluded(data.get(rules.value("path.keys")["exclude"]), rules.value("path.exclude")):
                ctx.never.append(Unseen(rel, "excluded from the coding agent: the Copilot CLI never reads it", t.size,
                                        rules.id("path.exclude")))
                continue
            globs = _globs(data.get("applyTo") if data.get("applyTo") is not None else data.get("paths"))
            if not all(g in rules.value("path.every-file") for g in globs):
                ctx.on_demand.append(OnDemand(rel, f"{when}, then for a file matching {', '.join(globs)}", 0, t.size,
                                              "path", tuple(globs), text=t.text, rule=rules.id("nested.on-view"),
                                              picomatch=True))
                continue
        ctx.on_demand.append(OnDemand(rel, when, 0, t.size, "folder", (folder + "/**",), text=t.text,
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
        meta = read_meta(text.removeprefix("\ufeff"))
        data = meta.data if meta.present and (not meta.error or meta.lenient) else {}
        globs = _globs(data.get(rules.value("path.keys")["globs"])) if not shown.endswith(form["file"]) else []
        if all(g in rules.value("path.every-file") for g in globs):
            ctx.add_user(shown, text, "your Copilot CLI instructions (user level)", rules.id("user.files"))
            continue
        desc = " ".join(data["description"].split()) if isinstance(data.get("description"), str) else ""
        ctx.add_user(shown, f"| {', '.join(globs)} | '{shown}' | {desc} |\n", "your path instructions: a row of the "
                     f"table (their text when a file matching {', '.join(globs)} is viewed)", rules.id("user.files"))
