"""Cline: what it loads, by the rules of the version chosen (curator/agents/cline.py).

Before 4.0 (2026-06-26) the extension read `.clinerules` — a file, or every `.md`/`.txt` under
the folder but `workflows/` and `hooks/`, `paths:` making a rule conditional — and, where a root
`AGENTS.md` exists, every `AGENTS.md` of the workspace at task start. Since 4.0 it runs on the
Cline SDK: the own files of `.clinerules/` and `.cline/rules/` (`.md`, `.markdown`, `.txt`) and the
root `AGENTS.md`, every rule in every task (`paths:` is not read; `disabled: true` or
`enabled: false` turns one off). The Memory Bank is read in full at every task start. Your
global rules and `~/.agents/AGENTS.md` are shown apart.
"""

from __future__ import annotations

from ..agents import RuleSet
from .applyto import key_line
from .builder import Builder
from .fs import Text
from .model import AgentContext, Unseen
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
            _rule(b, ctx, rules, root, t, root, "Cline rules file (always)", rules.id("rules.root"), chosen)
    for folder in (root, *rules.value("rules.more-folders", ())):
        if folder in b.fs.dirs:
            _folder(b, ctx, rules, folder, chosen)
    for rel, text, why, rule in chosen.values():
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
    for rel in b.fs.under(rules.value("memory-bank.folder")):
        if rel.endswith(".md"):
            t = b.text(rel)
            if t is not None:
                _always(ctx, rel, t, "Memory Bank (read in full at every task start)", rules.id("memory-bank.folder"))
    _agents_md(b, ctx, rules)
    sdk = rules.has("rules.top-level")  # the SDK lists only the names, in its tool's description
    agent_skills(b, ctx, rules, Listing("Cline", names_only=True, fold_names=True) if sdk else
                 Listing("Cline", requires=("name", "description"), name_is_folder=r".+"))
    _hooks(b, ctx, rules)
    return ctx


def _hooks(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    """A hook that prints into the conversation is named: what it adds is known only when it runs."""
    form = rules.value("hooks.context", None)
    for name in form["names"] if form else ():
        for rel in (f"{form['folder']}/{name}", f"{form['folder']}/{name}.ps1"):
            if rel in b.fs.fileset:
                ctx.notes.append(f"{rel} runs {form['when'][name]}: the context it prints joins the conversation "
                                 "(not counted: known only when it runs)")


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
            _rule(b, ctx, rules, rel, t, inner, f"Cline rules folder ({folder}/, every task)", rule, chosen)


def _rule(b: Builder, ctx: AgentContext, rules: RuleSet, rel: str, t, name: str, why: str, rule: str,
          chosen: dict) -> None:
    """One rule file: before 4.0 always or by `paths:`; since 4.0 always unless the SDK drops it
    (turned off, no text, frontmatter it cannot read) or a later rule of the same name replaces it."""
    switch = rules.value("rules.switch", None)
    meta = _meta(b, rel, t.text, "Cline")
    if switch is None:
        globs = glob_list(meta.data.get(rules.value("rules.paths")))
        if globs and rel != rules.value("rules.root"):
            _globbed(b, ctx, rel, t, rules.value("rules.paths"), globs, rules.id("rules.paths"))
        else:
            chosen[rel] = (rel, t, why.replace(", every task)", ", always)"), rule)
        return
    off = next((f"{k}: {str(v).lower()}" for k, v in switch.items() if meta.data.get(k) is v), None)
    odd = next((k for k in switch if k in meta.data and not isinstance(meta.data[k], bool)), None)
    if off or odd or not meta.body.strip() or meta.error:
        reason = ("its frontmatter cannot be read: the SDK drops the rule" if meta.error else  # before any value
                  f"turned off by `{off}` in its frontmatter" if off else  # read line by line from it
                  f"`{odd}:` is not true or false: the SDK drops the rule" if odd else
                  "no text after its frontmatter: Cline skips it")
        ctx.never.append(Unseen(rel, reason, t.size, rules.id("rules.switch")))
        return
    key = str(meta.data.get("name") or name.rsplit(".", 1)[0]).strip().lower()
    if key in chosen:
        old = chosen[key][0]
        ctx.never.append(Unseen(old, f"replaced by {rel}, a rule of the same name read after it",
                                getattr(b.fs.read(old), "size", 0), rules.id("rules.switch")))
    chosen[key] = (rel, t, why, rule)
    if meta.data.get("paths") is not None:
        b.add("instructions.frontmatter", rel, "`paths:` is not read since Cline 4.0: this rule loads in every "
              "task, not only for the files it names", key_line(t.text, "paths"))


def _agents_md(b: Builder, ctx: AgentContext, rules: RuleSet) -> None:
    """The root AGENTS.md at start-up; the others at start-up too before 4.0, never since."""
    name, rule = rules.value("agents-md"), rules.id("agents-md")
    found = sorted(b.fs.named(name), key=lambda r: (r.count("/"), r))
    if name not in found:
        return
    loaded = set(b.loaded(ctx.startup))
    every = rules.value("agents-md.nested") == "every"
    for rel in found:
        t = b.text(rel)
        if t is None or not t.text.strip():
            continue
        if rel == name and t.real in loaded:
            ctx.notes.append(f"AGENTS.md is the same file as {t.real}: read once")
        elif rel == name:
            _always(ctx, rel, t, "AGENTS.md (read by this agent too)", rule)
        elif every:
            _always(ctx, rel, t, "AGENTS.md of a subfolder (every one loads at task start)", rules.id("agents-md.nested"))
        else:
            ctx.never.append(Unseen(rel, "AGENTS.md in a subfolder: Cline reads only the root one", t.size,
                                    rules.id("agents-md.nested")))


def user_files(b: Builder, ctx: AgentContext) -> None:
    """Your global rules and `~/.agents/AGENTS.md` (read-only, apart; not when CI is set)."""
    from .user import read_user

    if b.ci:
        return
    rules = b.rules_of("cline")
    for shown, text in read_user(b.home, [], list(rules.value("user.folders"))):
        ctx.add_user(shown, text, "your global Cline rules (user level)", rules.id("user.folders"))
        if rules.has("rules.switch"):  # since 4.0 rules are keyed by name, yours read after the project's
            _replaced_by_yours(b, ctx, rules, shown, text)
    if rules.has("user.agents-md"):
        for shown, text in read_user(b.home, [rules.value("user.agents-md")], []):
            ctx.add_user(shown, text, "your global AGENTS.md (user level)", rules.id("user.agents-md"))


def _rule_key(rel: str, text: str) -> str:
    name = read_meta(text).data.get("name")
    stem = rel.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return str(name if isinstance(name, str) and name.strip() else stem).strip().lower()


def _replaced_by_yours(b: Builder, ctx: AgentContext, rules: RuleSet, shown: str, text: str) -> None:
    """A project rule of the same name as one of yours: the SDK keeps yours (read last)."""
    folders = (rules.value("rules.root"), *rules.value("rules.more-folders", ()))
    key = _rule_key(shown, text)
    for e in list(ctx.startup):
        if any(e.path == f or e.path.startswith(f + "/") for f in folders) and _rule_key(e.path, e.text) == key:
            ctx.startup.remove(e)
            ctx.never.append(Unseen(e.path, f"replaced by your {shown}, a rule of the same name read after it",
                                    e.bytes, rules.id("rules.switch")))
