"""Cline: what it loads, by the rules of the version chosen (curator/agents/cline.py).

Before 4.0 (2026-06-26) the extension read `.clinerules` — a file, or every file under the folder
but `workflows/`, `hooks/` and `skills/`, `paths:` making a rule conditional — with `.cursorrules`,
`.windsurfrules` and `.cursor/rules`, and, where a root `AGENTS.md` exists, every `AGENTS.md` of
the workspace at task start. Since 4.0 it runs on the Cline SDK: the own files of `.clinerules/`
and `.cline/rules/` (`.md`, `.markdown`, `.txt`) and the root `AGENTS.md`, read as rules keyed by
name and sorted by it, every rule in every task (`paths:` is not read; `disabled: true` or
`enabled: false` turns one off). The Memory Bank is read only where a loaded rule tells the
model to. Your global rules and `~/.agents/AGENTS.md` are shown apart.
"""

from __future__ import annotations

import posixpath

from ..agents import RuleSet
from .applyto import key_line
from .builder import Builder
from .cline_sdk import collation, read_rule
from .fs import Text
from .model import AgentContext, OnDemand, Unseen
from .parse import glob_list
from .rules import _always, _globbed, _manual, _meta
from .skills_list import Listing, agent_skills

# before 4.0 the nested AGENTS.md search skips these folders, and every hidden one (`findAgentsMdFiles`)
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "env", "venv", "dist", "out", "bundle", "vendor", "tmp",
                          "temp", "deps", "Pods"})


JUNK = (".DS_Store", "Thumbs.db", "desktop.ini")  # files a rules folder's listing drops (both eras)


def build(b: Builder) -> AgentContext:
    rules = b.rules_of("cline")
    ctx = AgentContext("cline")
    root = rules.value("rules.root")
    sdk = rules.has("rules.switch")
    chosen: dict[str, tuple[str, Text, str, str, str] | None] = {}  # since 4.0 keyed by name: the last read wins
    if sdk:  # the SDK reads the root AGENTS.md first, as the rule "Workspace AGENTS.md"
        _agents_md(b, ctx, rules, chosen)
    if root in b.fs.fileset:
        t = b.text(root)
        if t is not None:
            _rule(b, ctx, rules, root, t, _stem(root), "Cline rules file (always)", rules.id("rules.root"), chosen)
    for folder in (root, *rules.value("rules.more-folders", ())):
        if folder in b.fs.dirs:
            _folder(b, ctx, rules, folder, chosen)
    if not sdk:
        _others(b, ctx, rules, chosen)
    kept = [v for v in chosen.values() if v is not None]  # None: a turned-off rule holding its name
    if rules.value("rules.order") == "name":
        kept.sort(key=lambda v: collation(v[4]))
    for rel, text, why, rule, _name in kept:
        _always(ctx, rel, text, why, rule)
    for folder in rules.value("workflows.folder"):
        for rel in b.fs.under(folder):
            inner = rel[len(folder) + 1:]
            if sdk and ("/" in inner or not rel.lower().endswith(rules.value("rules.suffixes"))):
                continue  # the SDK reads a workflows folder's own text files
            t = b.text(rel)
            if t is not None:
                name = inner.rsplit(".", 1)[0] if sdk else inner  # before 4.0 the command is the file's name
                _manual(ctx, rel, t, f"when you run /{name} (workflow)", rules.id("workflows.folder"))
    if not sdk:
        _agents_md(b, ctx, rules, None)
    sdk = rules.has("rules.top-level")  # the SDK lists only the names, in its tool's description
    agent_skills(b, ctx, rules, Listing("Cline", names_only=True, fold_names=True) if sdk else
                 Listing("Cline", requires=("name", "description"), name_is_folder=r".+"))
    _hooks(b, ctx, rules)
    return ctx


def _hooks(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    """A hook that prints into the conversation is named: what it adds is known only when it runs.
    One whose output Cline drops is named too: its author expects the model to see it."""
    form = rules.value("hooks.context", None)
    if not form:
        return
    for folder in form["folders"]:
        names = {rel[len(folder) + 1:]: rel for rel in b.fs.under(folder) if "/" not in rel[len(folder) + 1:]}
        for name, rel in sorted(names.items()):
            stem, ext = (name.rsplit(".", 1)[0], "." + name.rsplit(".", 1)[1]) if "." in name else (name, "")
            if ext.lower() not in form["ends"]:
                continue
            event = next((e for e in (*form["names"], *form["silent"])
                          if e == stem or form.get("any_case") and e.lower() == stem.lower()), None)
            if event in form["names"]:
                ctx.notes.append(f"{rel} runs {form['when'][event]}: the context it prints joins the conversation "
                                 "(not counted: known only when it runs)")
            elif event is not None:
                ctx.notes.append(f"{rel} runs, but what it prints never reaches the model in this Cline version")


def _memory_bank(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    """The Memory Bank is a rule's instruction to the model, not Cline's loader: read at task start
    where a repository rule that loads names it; where only a rule of yours does, that is your
    cost, not the repository's; else only when the model chooses to."""
    bank = rules.value("memory-bank.folder")

    def naming(entries) -> str | None:
        return next((e.path for e in entries if any(w in e.text.lower() for w in bank["told"])), None)

    told, yours = naming(ctx.startup), naming(ctx.user)
    for rel in b.fs.under(bank["folder"]):
        if rel.endswith(".md"):
            t = b.text(rel)
            if t is None:
                continue
            if told is not None:
                _always(ctx, rel, t, f"Memory Bank: {told} tells Cline to read it at every task start (read_file)",
                        rules.id("memory-bank.folder"))
                continue
            when = (f"Memory Bank: your {yours} tells Cline to read it at every task start (read_file; yours, not "
                    "the repository's)" if yours else "Memory Bank: read only when the model chooses to (no rule "
                    "that loads tells it to; Cline itself does not)")
            ctx.on_demand.append(OnDemand(rel, when, 0, t.size, "invoked", text=t.text,
                                          rule=rules.id("memory-bank.folder")))


def _folder(b: Builder, ctx: AgentContext, rules: RuleSet, folder: str, chosen: dict) -> None:
    """One rules folder: each rule always, conditional (`paths:`, before 4.0), or off."""
    skip, top = rules.value("rules.skip"), rules.has("rules.top-level")
    rule = rules.id("rules.root") if folder == rules.value("rules.root") else rules.id("rules.more-folders")
    for rel in b.fs.under(folder):
        inner = rel[len(folder) + 1:]
        if not _ends(rel, rules.value("rules.suffixes")) or inner.split("/", 1)[0] in skip \
                or posixpath.basename(rel) in JUNK:
            continue
        if top and "/" in inner:
            ctx.never.append(Unseen(rel, f"in a subfolder of {folder}/: Cline reads only the folder's own files",
                                    getattr(b.fs.read(rel), "size", 0), rules.id("rules.top-level")))
            continue
        if rel in b.fs.links:  # `Dirent.isFile()` is false for a link: both eras list regular files only
            ctx.never.append(Unseen(rel, "a symbolic link: Cline reads only the regular files of a rules folder",
                                    getattr(b.fs.read(rel), "size", 0), rule))
            continue
        t = b.text(rel)
        if t is not None:
            _rule(b, ctx, rules, rel, t, _stem(rel), f"Cline rules folder ({folder}/, every task)", rule, chosen)


def _rule(b: Builder, ctx: AgentContext, rules: RuleSet, rel: str, t, stem: str, why: str, rule: str,
          chosen: dict) -> None:
    """One rule file: before 4.0 always or by `paths:`; since 4.0 always unless the SDK drops it
    (no text, frontmatter it cannot read, a switch or name of the wrong type), turns it off (it
    keeps its name: an earlier rule of that name is hidden) or a later rule of the name replaces it."""
    if not rules.has("rules.switch"):
        _old_rule(b, ctx, rules, rel, t, _meta(b, rel, t.text, "Cline"), why, rule, chosen)
        return
    got = read_rule(t.text, stem)
    if got.state == "drop":
        ctx.never.append(Unseen(rel, got.why, t.size, rules.id("rules.switch")))
        return
    earlier = chosen.get(got.name)
    if earlier is not None:
        ctx.never.append(Unseen(earlier[0], f"{'hidden' if got.state == 'off' else 'replaced'} by {rel}, a rule of the "
                                f"same name read after it{' and turned off' if got.state == 'off' else ''}",
                                getattr(b.fs.read(earlier[0]), "size", 0), rules.id("rules.switch")))
    if got.state == "off":
        chosen[got.name] = None  # read, and holding its name
        ctx.never.append(Unseen(rel, got.why, t.size, rules.id("rules.switch")))
        return
    chosen[got.name] = (rel, t, why, rule, got.shown)
    if got.paths:
        b.add("instructions.frontmatter", rel, "`paths:` is not read since Cline 4.0: this rule loads in every "
              "task, not only for the files it names", key_line(t.text, "paths"))


def _old_rule(b: Builder, ctx: AgentContext, rules: RuleSet, rel: str, t, meta, why: str, rule: str,
              chosen: dict) -> None:
    """Before 4.0: `paths:` counts when it is a list of names (`[]`: the rule never loads); any other
    value, or frontmatter the YAML reader fails on (then the file loads whole), loads it always."""
    key = rules.value("rules.paths")
    paths = None if meta.error else meta.data.get(key)
    if isinstance(paths, list) and not paths:
        ctx.never.append(Unseen(rel, "`paths: []`: a rule for no file never loads", t.size, rules.id("rules.paths")))
    elif isinstance(paths, list) and all(isinstance(p, str) and p.strip() for p in paths):
        _globbed(b, ctx, rel, t, key, glob_list(paths), rules.id("rules.paths"))
    else:
        chosen[rel] = (rel, t, why.replace(", every task)", ", always)"), rule, rel)


def _others(b: Builder, ctx: AgentContext, rules: RuleSet, chosen: dict) -> None:
    """Before 4.0, Cursor's and Windsurf's rule files load besides `.clinerules`."""
    others, rule = rules.value("rules.others"), rules.id("rules.others")
    for rel in (*[f for f in others["file"] if f in b.fs.fileset],
                *[r for r in b.fs.under(others["folder"]) if r.endswith(others["suffix"])]):
        t = b.text(rel)
        if t is not None:
            _rule(b, ctx, rules, rel, t, rel, f"read by Cline too ({rel}, every task)", rule, chosen)


def _agents_md(b: Builder, ctx: AgentContext, rules: RuleSet, chosen: dict | None) -> None:
    """The root AGENTS.md at start-up (since 4.0 a rule among the others, in `chosen`); the others
    at start-up too before 4.0 (a search that skips hidden and build folders), never since. One a
    rules folder holds is that folder's rule; a link to a file loaded otherwise still loads again."""
    name, rule = rules.value("agents-md"), rules.id("agents-md")
    found = sorted(b.fs.named(name), key=lambda r: (r.count("/"), r))
    if name not in found:
        return
    every = rules.value("agents-md.nested") == "every"
    folders = (rules.value("rules.root"), *rules.value("rules.more-folders", ()))
    for rel in found:
        if any(rel.startswith(f + "/") for f in folders):
            continue
        t = b.text(rel)
        if t is None or not t.text.strip():
            continue
        if rel == name and chosen is not None:
            _rule(b, ctx, rules, rel, t, rules.value("agents-md.as-rule"), "AGENTS.md (read as a rule, every task)",
                  rule, chosen)
        elif rel == name:
            _always(ctx, rel, t, "AGENTS.md (read by this agent too)", rule)
        elif every and not any(p.startswith(".") or p in SKIPPED_DIRS for p in rel.split("/")[:-1]):
            _always(ctx, rel, t, "AGENTS.md of a subfolder (every one loads at task start)", rules.id("agents-md.nested"))
        elif not every:
            ctx.never.append(Unseen(rel, "AGENTS.md in a subfolder: Cline reads only the root one", t.size,
                                    rules.id("agents-md.nested")))


def user_files(b: Builder, ctx: AgentContext) -> None:
    """Your global rules and `~/.agents/AGENTS.md` (read-only, apart; not when CI is set), then the
    Memory Bank (a rule of yours may be the one that tells Cline to read it)."""
    rules = b.rules_of("cline")
    if not b.ci:
        _yours(b, ctx, rules)
    _memory_bank(b, ctx, rules)


def _yours(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    """Your rules: since 4.0 read as the project's are (`~/.agents/AGENTS.md` first, as the rule
    "Global AGENTS.md"), each after the project's: one of yours replaces (or, turned off, hides) a
    project rule of its name; one the SDK drops is named in a note."""
    from .user import read_user

    sdk = rules.has("rules.switch")
    files = [(shown, text, "your global AGENTS.md (user level)", rules.id("user.agents-md"),
              rules.value("user.agents-md.as-rule"))
             for shown, text in (read_user(b.home, [rules.value("user.agents-md")], [])
                                 if rules.has("user.agents-md") else [])]
    files += [(shown, text, "your global Cline rules (user level)", rules.id("user.folders"), _stem(shown))
              for shown, text in read_user(b.home, [], list(rules.value("user.folders")),
                                           suffixes=rules.value("rules.suffixes"), top=sdk, skip=JUNK, links=False)]
    for shown, text, why, rule, stem in files:
        if sdk:
            got = read_rule(text, stem)
            if got.state != "drop":
                _replaced_by_yours(b, ctx, rules, shown, got)
            if got.state != "load":
                ctx.notes.append(f"your {shown}: {got.why}")
                continue
        ctx.add_user(shown, text, why, rule)


def _ends(rel: str, suffixes: tuple[str, ...]) -> bool:
    """Is `rel` a rule file by its ending, as Node's `path.extname` reads it (`.md` alone has none)?"""
    return suffixes == ("",) or posixpath.splitext(posixpath.basename(rel))[1].lower() in suffixes


def _stem(rel: str) -> str:
    """A rule's name from its file, as Node's `path.basename(p, path.extname(p))` (`.clinerules` stays)."""
    return posixpath.splitext(posixpath.basename(rel))[0]


def _replaced_by_yours(b: Builder, ctx: AgentContext, rules: RuleSet, shown: str, got) -> None:
    """A project rule of the same name as one of yours: the SDK keeps yours (read last)."""
    folders = (rules.value("rules.root"), *rules.value("rules.more-folders", ()))
    root_md = rules.value("agents-md")
    for e in list(ctx.startup):
        if e.path == root_md:
            stem = rules.value("agents-md.as-rule")
        elif any(e.path == f or e.path.startswith(f + "/") for f in folders):
            stem = _stem(e.path)
        else:
            continue
        if read_rule(e.text, stem).name == got.name:
            ctx.startup.remove(e)
            how = "hidden by your turned-off" if got.state == "off" else "replaced by your"
            ctx.never.append(Unseen(e.path, f"{how} {shown}, a rule of the same name read after it", e.bytes,
                                    rules.id("rules.switch")))
