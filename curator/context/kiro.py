"""Kiro: steering files `.kiro/steering/*.md` by `inclusion:` (always, the default / fileMatch /
manual / auto), `#[[file:path]]` pulling a file in, skills listed by name and description, and
your global steering and skills in `~/.kiro/` (shown apart). Kiro's rules at the version chosen."""

from __future__ import annotations

from .applyto import key_line as _key_line
from .builder import Builder
from .fs import Text
from .model import AgentContext, Loaded, Unseen
from .parse import find_kiro_refs, glob_list, read_meta
from .rules import _always, _by_description, _globbed, _manual, _rule_files
from .skills_list import Clash, Listing, list_skill, list_user_skills, skill_files, skill_name


def kiro(b: Builder) -> AgentContext:
    rules = b.rules_of("kiro")
    ctx = AgentContext("kiro")
    keys, rule = rules.value("steering.keys"), rules.id("steering.folder")
    folder = rules.value("steering.folder")
    for rel, t, meta in _rule_files(b, folder, (".md",), "Kiro"):
        if rules.has("steering.top-level") and rel.count("/") > folder.count("/") + 1:
            ctx.never.append(Unseen(rel, f"in a subfolder of {folder}/: Kiro reads only the folder's own files",
                                    t.size, rules.id("steering.top-level")))
            continue
        inclusion = str(meta.data.get(keys["mode"]) or keys["default"]).strip()
        if inclusion == "fileMatch":
            globs = glob_list(meta.data.get(keys["globs"]))
            if globs:
                _globbed(b, ctx, rel, t, keys["globs"], globs, rule)
            else:
                _manual(ctx, rel, t, f"inclusion: fileMatch without a {keys['globs']}: never attached", rule)
        elif inclusion == "manual":
            _manual(ctx, rel, t, f"only when you reference #{rel.rsplit('/', 1)[-1][:-3]} in chat", rule)
        elif inclusion == "auto":
            _by_description(ctx, rel, t, meta.data.get("description") or "", rule, listed=True)
            if not str(meta.data.get("description") or "").strip():
                b.add("instructions.no-description", rel, "inclusion: auto without a description: Kiro includes "
                      "the file when a request matches its description, so nothing includes it",
                      _key_line(t.text, keys["mode"]))
        else:
            _always(ctx, rel, t, "Kiro steering (inclusion: always)", rule)
            _kiro_refs(b, ctx, rel, t.text)
    if rules.has("skills.folder"):
        for rel in skill_files(b, rules.value("skills.folder"), deep=False):
            list_skill(b, ctx, rel, rules.id("skills.folder"), Listing("Kiro"))
    later = [o for o in ctx.on_demand if o.rule == rule]
    if later and rules.has("steering.cli-all"):
        n = len(later)
        ctx.notes.append(f"the Kiro CLI reads no inclusion mode: at start-up it also loads the {n} steering "
                         f"file{'s' if n != 1 else ''} the IDE loads only when {'they apply' if n != 1 else 'it applies'}")
    return ctx


def user_files(b: Builder, ctx: AgentContext) -> None:
    """Your global steering (the files Kiro includes always, an AGENTS.md there) and your skills'
    listing, from `~/.kiro/`: shown apart, never read when CI is set."""
    from .user import read_user

    rules = b.rules_of("kiro")
    if b.ci or not rules.has("user.steering"):
        return
    keys, rule = rules.value("steering.keys"), rules.id("user.steering")
    for shown, text in read_user(b.home, [], [rules.value("user.steering")]):
        if shown.removeprefix("~/").count("/") != rules.value("user.steering").count("/") + 1:
            continue  # a subfolder: not read, as in the workspace's folder
        inclusion = str(read_meta(text).data.get(keys["mode"]) or keys["default"]).strip()
        if shown.endswith("/AGENTS.md") or inclusion == keys["default"]:
            ctx.add_user(shown, text, "your global steering (always included)", rule)
    if rules.has("user.skills"):
        taken: dict[str, str] = {}  # the workspace's skills by name: one of them wins a name over yours
        for rel in skill_files(b, rules.value("skills.folder"), deep=False) if rules.has("skills.folder") else ():
            t = b.text(rel)
            if t is not None and t.text.strip():
                taken.setdefault(skill_name(read_meta(t.text).data, rel), rel)
        list_user_skills(b, ctx, [rules.value("user.skills")], rules.id("user.skills"),
                         "your skill (listed by name and description)", clash=Clash.of(rules, taken))


def _kiro_refs(b: Builder, ctx: AgentContext, rel: str, text: str) -> None:
    rule = b.rules_of("kiro").id("steering.include")
    for ref in find_kiro_refs(text):
        target, why_not = b.resolve(ref, "")  # Kiro resolves #[[file:]] from the workspace root
        if why_not or target is None:
            b.add("instructions.import-outside", rel, f"#[[file:{ref.path}]] is outside the repository", ref.line, ref.path)
            continue
        got = b.fs.read(target)
        if not isinstance(got, Text):
            if getattr(got, "kind", "") == "missing":
                b.broken_import(rel, ref, target, f"#[[file:{ref.path}]]", "", from_root=True)
            else:
                b.problem(got)
            continue
        if all(e.path != target for e in ctx.startup):
            ctx.startup.append(Loaded(target, got.size, 0, f"included by {rel}", f"{rel}:{ref.line}", None, got.text,
                                      rule))
