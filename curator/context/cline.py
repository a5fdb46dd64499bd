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
from .fs import Text
from .model import AgentContext, OnDemand, Unseen
from .parse import glob_list, read_meta
from .rules import _always, _globbed, _manual, _meta
from .skills_list import Listing, agent_skills


def build(b: Builder) -> AgentContext:
    rules = b.rules_of("cline")
    ctx = AgentContext("cline")
    root = rules.value("rules.root")
    sdk = rules.has("rules.switch")
    chosen: dict[str, tuple[str, Text, str, str]] = {}  # since 4.0 a rule is keyed by its name: the last read wins
    if root in b.fs.fileset:
        t = b.text(root)
        if t is not None:
            _rule(b, ctx, rules, root, t, _stem(root), "Cline rules file (always)", rules.id("rules.root"), chosen)
    for folder in (root, *rules.value("rules.more-folders", ())):
        if folder in b.fs.dirs:
            _folder(b, ctx, rules, folder, chosen)
    if not sdk:
        _others(b, ctx, rules, chosen)
    else:
        _agents_md(b, ctx, rules, chosen)
    kept = [(key, v) for key, v in chosen.items() if v is not None]  # None: a turned-off rule holding its name
    if rules.value("rules.order") == "name":  # JavaScript's localeCompare: case and punctuation weigh last
        kept.sort(key=lambda kv: (kv[0].casefold(), kv[0]))
    for _key, (rel, text, why, rule) in kept:
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
    where a rule that loads (yours too) names it, else only when the model chooses to."""
    bank = rules.value("memory-bank.folder")
    told = next((e.path for e in [*ctx.startup, *ctx.user] if any(w in e.text.lower() for w in bank["told"])), None)
    for rel in b.fs.under(bank["folder"]):
        if rel.endswith(".md"):
            t = b.text(rel)
            if t is None:
                continue
            if told is not None:
                _always(ctx, rel, t, f"Memory Bank: {told} tells Cline to read it at every task start (read_file)",
                        rules.id("memory-bank.folder"))
            else:
                ctx.on_demand.append(OnDemand(rel, "Memory Bank: read only when the model chooses to (no rule that "
                                              "loads tells it to; Cline itself does not)", 0, t.size, "invoked",
                                              text=t.text, rule=rules.id("memory-bank.folder")))


def _folder(b: Builder, ctx: AgentContext, rules: RuleSet, folder: str, chosen: dict) -> None:
    """One rules folder: each rule always, conditional (`paths:`, before 4.0), or off."""
    skip, top = rules.value("rules.skip"), rules.has("rules.top-level")
    rule = rules.id("rules.root") if folder == rules.value("rules.root") else rules.id("rules.more-folders")
    for rel in b.fs.under(folder):
        inner = rel[len(folder) + 1:]
        if not rel.lower().endswith(rules.value("rules.suffixes")) or inner.split("/", 1)[0] in skip:
            continue
        if top and "/" in inner:
            ctx.never.append(Unseen(rel, f"in a subfolder of {folder}/: Cline reads only the folder's own files",
                                    getattr(b.fs.read(rel), "size", 0), rules.id("rules.top-level")))
            continue
        t = b.text(rel)
        if t is not None:
            _rule(b, ctx, rules, rel, t, _stem(rel), f"Cline rules folder ({folder}/, every task)", rule, chosen)


def _rule(b: Builder, ctx: AgentContext, rules: RuleSet, rel: str, t, stem: str, why: str, rule: str,
          chosen: dict) -> None:
    """One rule file: before 4.0 always or by `paths:`; since 4.0 always unless the SDK drops it
    (no text, frontmatter it cannot read, a switch or name of the wrong type), turns it off (it
    keeps its name: an earlier rule of that name is hidden) or a later rule of the name replaces it."""
    switch = rules.value("rules.switch", None)
    meta = _meta(b, rel, t.text, "Cline")
    if switch is None:
        _old_rule(b, ctx, rules, rel, t, meta, why, rule, chosen)
        return
    off = next((f"{k}: {str(v).lower()}" for k, v in switch.items() if meta.data.get(k) is v), None)
    odd = next((k for k in switch if k in meta.data and not isinstance(meta.data[k], bool)), None)
    if "name" in meta.data and not isinstance(meta.data["name"], str):
        odd = odd or "name"
    key = str(meta.data.get("name") or stem).strip().lower()
    if meta.error or odd or not meta.body.strip():
        reason = ("its frontmatter cannot be read: the SDK drops the rule" if meta.error else
                  "`name:` is not text: the SDK drops the rule" if odd == "name" else
                  f"`{odd}:` is not true or false: the SDK drops the rule" if odd else
                  "no text after its frontmatter: Cline skips it")
        ctx.never.append(Unseen(rel, reason, t.size, rules.id("rules.switch")))
        return
    if chosen.get(key) is not None:
        old = chosen[key][0]
        ctx.never.append(Unseen(old, f"{'hidden' if off else 'replaced'} by {rel}, a rule of the same name read after "
                                f"it{' and turned off' if off else ''}", getattr(b.fs.read(old), "size", 0),
                                rules.id("rules.switch")))
    if off:
        chosen[key] = None  # read, and holding its name
        ctx.never.append(Unseen(rel, f"turned off by `{off}` in its frontmatter", t.size, rules.id("rules.switch")))
        return
    chosen[key] = (rel, t, why, rule)
    if meta.data.get("paths") is not None:
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
        chosen[rel] = (rel, t, why.replace(", every task)", ", always)"), rule)


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
    at start-up too before 4.0, never since."""
    name, rule = rules.value("agents-md"), rules.id("agents-md")
    found = sorted(b.fs.named(name), key=lambda r: (r.count("/"), r))
    if name not in found:
        return
    loaded = set(b.loaded(ctx.startup)) | {v[1].real for v in (chosen or {}).values() if v is not None}
    every = rules.value("agents-md.nested") == "every"
    for rel in found:
        t = b.text(rel)
        if t is None or not t.text.strip():
            continue
        if rel == name and t.real in loaded:
            ctx.notes.append(f"AGENTS.md is the same file as {t.real}: read once")
        elif rel == name and chosen is not None:
            _rule(b, ctx, rules, rel, t, rules.value("agents-md.as-rule"), "AGENTS.md (read as a rule, every task)",
                  rule, chosen)
        elif rel == name:
            _always(ctx, rel, t, "AGENTS.md (read by this agent too)", rule)
        elif every:
            _always(ctx, rel, t, "AGENTS.md of a subfolder (every one loads at task start)", rules.id("agents-md.nested"))
        else:
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
    from .user import read_user

    sdk = rules.has("rules.top-level")  # the SDK reads a folder's own rule files; the extension every file under it
    for shown, text in read_user(b.home, [], list(rules.value("user.folders")), suffixes=rules.value("rules.suffixes"),
                                 top=sdk):
        ctx.add_user(shown, text, "your global Cline rules (user level)", rules.id("user.folders"))
        if rules.has("rules.switch"):  # since 4.0 rules are keyed by name, yours read after the project's
            _replaced_by_yours(b, ctx, rules, shown, text)
    if rules.has("user.agents-md"):
        for shown, text in read_user(b.home, [rules.value("user.agents-md")], []):
            ctx.add_user(shown, text, "your global AGENTS.md (user level)", rules.id("user.agents-md"))


def _stem(rel: str) -> str:
    """A rule's name from its file, as Node's `path.basename(p, path.extname(p))` (`.clinerules` stays)."""
    return posixpath.splitext(posixpath.basename(rel))[0]


def _rule_key(rel: str, text: str) -> str:
    name = read_meta(text).data.get("name")
    return str(name if isinstance(name, str) and name.strip() else _stem(rel)).strip().lower()


def _replaced_by_yours(b: Builder, ctx: AgentContext, rules: RuleSet, shown: str, text: str) -> None:
    """A project rule of the same name as one of yours: the SDK keeps yours (read last)."""
    folders = (rules.value("rules.root"), *rules.value("rules.more-folders", ()))
    key = _rule_key(shown, text)
    for e in list(ctx.startup):
        if any(e.path == f or e.path.startswith(f + "/") for f in folders) and _rule_key(e.path, e.text) == key:
            ctx.startup.remove(e)
            ctx.never.append(Unseen(e.path, f"replaced by your {shown}, a rule of the same name read after it",
                                    e.bytes, rules.id("rules.switch")))
