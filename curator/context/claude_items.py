"""Claude Code's `.claude/rules` and its listing (skills, commands, subagents), as the rules of the
chosen version say (curator/agents/claude_code.py): rules without `paths:` at start-up, with them
on demand; a skill, a command with a description and a subagent listed by name and description,
the body when used."""

from __future__ import annotations

import re

from ..agents import RuleSet
from ..model.findings import RuleKeys
from .builder import Builder
from .ignore_lines import claude_paths
from .model import AgentContext, Cut, Listed, Loaded, OnDemand, Unseen
from .parse import claude_meta, find_imports, glob_list


def rules_folder(b: Builder, ctx: AgentContext, loaded: set[str], rules: RuleSet, excluded, *,
                 startup: bool = True) -> None:
    """`.claude/rules/**/*.md`: on demand by `paths:`, else at start-up (`startup=False`: the
    managed-only setting leaves those out)."""
    folder = rules.value("rules.folder")
    key = rules.value("rules.paths")
    for rel in b.fs.under(folder):
        if not rel.endswith(".md"):
            continue
        if excluded(rel):
            continue
        t = b.text(rel)
        if t is None:
            continue
        meta = claude_meta(t.text, rules.value("frontmatter.requote", False))  # YAML, as Claude Code reads it
        keys = [k for k in ("globs", "alwaysApply") if k in meta.data]
        if keys:
            said = " and ".join(f"`{k}:`" for k in keys)
            effect = "it loads at start-up" if key not in meta.data else f"only `{key}:` counts"
            b.add("instructions.foreign-keys", rel, f"{said} {'is' if len(keys) == 1 else 'are'} Cursor's; Claude Code "
                  f"ignores {'it' if len(keys) == 1 else 'them'} ({effect}; use `{key}:`)", 1,
                  fix=RuleKeys(rel, "paths") if t.real == rel and not meta.error else None)
        if meta.error:
            b.add("instructions.frontmatter", rel, f"{meta.error}: Claude Code cannot read its settings "
                  f"(a `{key}:` there is lost; the rule loads at start-up)", meta.line)
        written = glob_list(meta.data.get(key)) if not meta.error else []
        paths = claude_paths(written)
        live = _live_paths(b, ctx, rel, key, paths, t.size, rules)
        if live:
            # what attaches is the body: the agent records it as `content`, the whole file as `rawContent`
            lines = rules.has("rules.gitignore-lines")
            ctx.on_demand.append(OnDemand(rel, "reading a file matching " + ", ".join(live), 0, t.size, "path",
                                          tuple(live), text=meta.body, rule=rules.id("rules.paths"), gitignore=lines))
            if b.dead_globs(rel, key, live, gitignore=lines) is False and lines:
                dead_negations(b, rel, key, live)
        elif paths:
            pass  # only `./` globs: never (said by `_live_paths`)
        elif startup and t.real not in loaded:
            why = f"its `{key}: {', '.join(written)}` is every file (always loaded)" if any(g.strip() for g in written) \
                else "rule without paths: (always loaded)"
            b.expand(ctx, rel, why, find_imports, loaded=loaded,
                     hops=rules.value("imports.max-hops"), rule=rules.id("rules.folder"),
                     import_rule=rules.id("imports.syntax"), depth_rule=rules.id("imports.max-hops"))


def _live_paths(b: Builder, ctx: AgentContext, rel: str, key: str, paths: list[str], size: int,
                rules: RuleSet) -> list[str]:
    """The globs Claude Code can match: it reads `paths:` as .gitignore lines (the `ignore` package),
    where a leading `./` is no prefix, so `./docs/**` matches no file (clawker's mintlify rule)."""
    dotted = [g for g in paths if g.startswith("./")]
    if not dotted or not rules.value("rules.dot-slash", False):
        return paths
    b.add("instructions.dead-glob", rel, f"`{key}: {', '.join(dotted)}`: Claude Code reads `{key}` as .gitignore "
          f"lines, where a leading `./` is no prefix: {'it matches' if len(dotted) == 1 else 'they match'} no "
          f"file (write `{dotted[0][2:]}`)", 1)
    live = [g for g in paths if not g.startswith("./")]
    if not live:
        ctx.never.append(Unseen(rel, f"its `{key}:` globs all start with `./`, which match no file as Claude Code "
                                     "reads them", size, rules.id("rules.dot-slash")))
    return live


def dead_negations(b: Builder, rel: str, key: str, globs: list[str]) -> None:
    """A `!` line that names files the list matches yet takes none back: Claude Code drops its
    trailing `/**` (a folder's line then), or an earlier line matches a folder above them."""
    from .fs import SKIP_DIRS
    from .ignore_lines import dead_negations as dead

    if b.fs.truncated or not b.holds_code or not any(g.startswith("!") for g in globs) \
            or (b.only is not None and "instructions.dead-negation" not in b.only):
        return
    for g in dead(globs, b.fs.files):
        if any(part in SKIP_DIRS for part in g.split("/")):
            continue  # files there are not listed: nothing to say of them
        fixed = g[:-3] + "/**/*" if g.endswith("/**") else None
        if fixed is not None and not dead([fixed if x == g else x for x in globs], b.fs.files):
            why = f"Claude Code drops a trailing `/**` (it reads `{g[:-3]}`, a folder), and a `!` line takes back only " \
                  f"the files it names itself (write `{fixed}`)"
        else:
            why = "an earlier line matches a folder above those files (Claude Code reads `src/**` as `src`), and a " \
                  "file inside a matched folder cannot be taken back (match the files instead, e.g. `src/**/*.ts`)"
        b.add("instructions.dead-negation", rel, f"`{key}:` `{g}` takes back no file: {why}", 1)


def _items(b: Builder, rules: RuleSet) -> list[tuple[str, str, str]]:
    """(path, kind, the name it has without frontmatter) of every skill, command and subagent."""
    fs = b.fs
    skills, commands, agents = (rules.value(k) for k in ("skills.folder", "commands.folder", "subagents.folder"))
    depth = skills.count("/") + 3
    items = [(rel, "skill", rel.split("/")[-2]) for rel in fs.under(skills)
             if rel.count("/") + 1 == depth and rel.endswith("/SKILL.md")]
    items += [(rel, "command", rel[len(commands) + 1:-3].replace("/", ":")) for rel in fs.under(commands)
              if rel.endswith(".md")]
    items += [(rel, "subagent", rel.rsplit("/", 1)[-1][:-3]) for rel in fs.under(agents) if rel.endswith(".md")]
    if rules.has("skills.nested"):  # below the root: <folder>/.claude/skills/<name>/SKILL.md, read last
        inner = "/" + skills + "/"
        items += [(rel, "skill", rel.split("/")[-2]) for rel in sorted(fs.fileset)
                  if inner in rel and rel.endswith("/SKILL.md") and rel.split(inner, 1)[1].count("/") == 1]
    return items


def nested_in(rel: str, skills: str) -> str:
    """The folder below the root whose `.claude/skills/` holds `rel` ("" for the root's)."""
    return "" if rel.startswith(skills + "/") else rel.split("/" + skills + "/", 1)[0]


def _scoped(rules: RuleSet, sub: str, name: str, desc: str, taken: set[str]) -> tuple[str, str] | None:
    """A nested skill's name and description as listed (`skills.nested-names`): its own name with
    where it applies, `<dir>:<name>` when the name is taken; None when it is not offered."""
    if not rules.has("skills.nested-names"):
        return None if name in taken else (name, desc)
    if name not in taken:
        return name, f"{desc} (from {sub}/.claude/skills — applies when working on files under {sub}/)"
    qualified = f"{sub}:{name}"
    if qualified in taken:
        return None
    return qualified, (f"{desc} (scoped to {sub}/ — use this instead of the unscoped \"{name}\" skill when the files "
                       f"being changed are under {sub}/)")


def listing(b: Builder, ctx: AgentContext, rules: RuleSet, overrides: dict | None = None) -> None:
    """Skills, commands with a description and subagents: listed by name and description (unless
    the frontmatter or `skillOverrides` keeps one out, or `paths:` lists it later)."""
    name_max, desc_max = rules.value("skills.name-max"), rules.value("skills.description-max")
    listed_max = rules.value("skills.listing-description-max", 0)  # 0: no cut (before 2.1.86)
    budget = rules.value("skills.listing-budget", 0)  # 0: no budget curator knows (before 2.1.32)
    total = 0
    taken: set[str] = set()  # names listed so far: a nested skill's may not be one
    for rel, kind, default_name in _items(b, rules):
        t = b.text(rel)
        if t is None:
            continue
        meta = claude_meta(t.text, rules.value("frontmatter.requote", False))
        data = meta.data
        if meta.error:  # Claude Code drops every field of frontmatter YAML cannot read
            data = {}
            effect = ("lists the skill by its folder's name and its body's first line" if kind == "skill"
                      else f"the {kind} loses its description")
            b.add("instructions.frontmatter", rel, f"{meta.error}: Claude Code drops every field (name, description, "
                  f"allowed-tools) and {effect}", meta.line)
        name = str(data.get("name") or default_name).strip()
        shown_name = name  # a skill's frontmatter name is what menus show; it is listed by its folder's
        if kind == "skill" and rules.value("skills.listed-name", None) == "folder":
            name = default_name
        desc = data.get("description")
        desc = " ".join(str(desc).split()) if desc not in (None, "") else ""
        desc_from = "frontmatter" if desc else "none"
        if kind == "subagent" and not _registered(b, ctx, rules, rel, t, data, meta):
            continue
        if not desc and kind == "skill":
            desc = _first_line(meta.body if meta.present and not meta.error else _after_frontmatter(t.text))
            desc_from = "body" if desc else "none"
            if not meta.error:
                _undescribed_skill(b, rules, rel, meta, desc)
        ctx.listing.append(Listed(rel, kind, shown_name, desc, "unreadable" if meta.error else "ok" if meta.present else "none",
                                  "frontmatter" if data.get("name") else "file", desc_from))
        if kind == "skill":
            desc = _lengths(b, rel, shown_name, desc, name_max, desc_max)
        desc = desc[:listed_max] if listed_max else desc
        if kind == "command" and not desc:
            ctx.on_demand.append(OnDemand(rel, f"when you type /{name}", 0, t.size, "invoked", text=t.text,
                                          rule=rules.id("commands.folder")))
            continue
        sub = nested_in(rel, rules.value("skills.folder")) if kind == "skill" else ""
        own = desc  # what the skill says of itself (a nested one's listing adds where it applies)
        if sub:
            scoped = _scoped(rules, sub, name, desc, taken)
            if scoped is None:
                ctx.never.append(Unseen(rel, f"a skill of {sub}/ whose name another skill holds: not offered", t.size,
                                        rules.id("skills.nested")))
                continue
            name, desc = scoped
        taken.add(name)
        total += _list(b, ctx, rules, (rel, kind, name, desc, own), t, meta, (overrides or {}).get(name), sub)
    if budget and total > budget:
        b.add("skills.budget", rules.value("skills.folder"),
              f"the skills listing is {total:,} characters, over its ~{budget:,} budget (a share of "
              "the context window): the least-used skills collapse to bare names")


def _lengths(b: Builder, rel: str, name: str, desc: str, name_max: int, desc_max: int) -> str:
    """A skill's name and description past their limits (a finding each); the description as cut."""
    if len(name) > name_max:
        b.add("skills.name-length", rel, f"skill name is {len(name)} characters (at most {name_max})", 1)
    if len(desc) > desc_max:
        b.add("skills.description-length", rel,
              f"description is {len(desc):,} characters (at most {desc_max:,}; the rest is cut)", 1)
        desc = desc[:desc_max]
    return desc


def _list(b: Builder, ctx: AgentContext, rules: RuleSet, item: tuple[str, str, str, str, str], t, meta,
          override: tuple[str, str] | None, sub: str = "") -> int:
    """One item into the listing at start-up, later (`paths:`) or not at all (`disable-model-
    invocation`, `skillOverrides`); its body on demand. The characters it adds at start-up."""
    rel, kind, name, desc, own = item
    rule = rules.id({"skill": "skills.folder", "command": "commands.folder", "subagent": "subagents.folder"}[kind])
    hidden = _kept_out(rules, kind, meta, override, t.text)
    if hidden is not None:
        why, hidden_rule = hidden
        ctx.on_demand.append(OnDemand(rel, f"only when you type /{name}: {why}", 0, t.size, "invoked", text=t.text,
                                      rule=hidden_rule))
        return 0
    if override is not None and override[0] == "name-only":
        desc = ""
    line = f"- {name}: {desc}" if desc else f"- {name}"
    when = f"when the {kind} is used" if kind != "command" else f"when /{name} is used"
    globs = _skill_paths(rules, meta) if kind == "skill" else []
    if sub:  # a folder below the root: its skills join once the agent works on a file there
        ctx.on_demand.append(OnDemand(rel, f"listed once the agent reads or edits a file under {sub}/", 0,
                                      len(line.encode("utf-8")), "folder", (sub + "/**",), text=line,
                                      rule=rules.id("skills.nested")))
    elif globs and (live := _live_paths(b, ctx, rel, rules.value("skills.paths"), globs, len(line.encode("utf-8")),
                                        rules)):
        lines = rules.has("rules.gitignore-lines")
        ctx.on_demand.append(OnDemand(rel, "listed once the agent reads or edits a file matching " + ", ".join(live),
                                      0, len(line.encode("utf-8")), "path", tuple(live), text=line,
                                      rule=rules.id("skills.paths"), gitignore=lines))
        if b.dead_globs(rel, rules.value("skills.paths"), live, gitignore=lines) is False and lines:
            dead_negations(b, rel, rules.value("skills.paths"), live)
    elif globs:
        pass  # only `./` globs: never listed (said by `_live_paths`); `/name` still runs it
    else:
        ctx.startup.append(Loaded(rel, t.size, 0, f"{kind} listing (name and description; body on demand)", None,
                                  Cut(len(line.encode("utf-8")), f"only the {kind}'s name and description are listed"),
                                  line, rule))
    ctx.on_demand.append(OnDemand(rel, when, 0, t.size, "description", description=own if override is None or
                                  override[0] != "name-only" else "", text=t.text, rule=rule))
    return 0 if globs or sub else len(line) + 1


def _kept_out(rules: RuleSet, kind: str, meta, override: tuple[str, str] | None,
              text: str) -> tuple[str, str] | None:
    """(why, rule) when the model is never shown the item: `disable-model-invocation` on, or a
    `skillOverrides` of `user-invocable-only` or `off`; None when it is listed."""
    if kind in ("skill", "command") and rules.has("skills.manual-only") and not meta.error:
        if switch_on(rules, written(text, rules.value("skills.manual-only"))):
            return "its frontmatter sets disable-model-invocation (not in the model's listing)", \
                rules.id("skills.manual-only")
    if override is not None and override[0] in ("user-invocable-only", "off") and kind == "skill":
        return f"skillOverrides is {override[0]} in {override[1]} (not in the model's listing)", \
            rules.id("skills.overrides")
    return None


def switch_on(rules: RuleSet, written: str | None) -> bool:
    """A frontmatter switch as Claude Code reads it (`skills.booleans`), from the value as the
    file writes it: YAML 1.1 (curator's reader) takes `yes` and `on` for true, Claude Code's
    YAML 1.2 keeps them words, which count only since 2.1.218."""
    if written is None:
        return False
    on = rules.value("skills.booleans", ("true",))
    quoted = len(written) >= 2 and written[0] == written[-1] and written[0] in "'\""
    value = written[1:-1] if quoted else written
    if len(on) > 1:
        return value.strip().lower() in on
    return value == "true" if quoted else value in ("true", "True", "TRUE")


_SCALAR = re.compile(r"^([A-Za-z0-9_-]+):[ \t]*(.*?)[ \t]*(?:[ \t]#.*)?$")


def written(text: str, key: str) -> str | None:
    """A top-level frontmatter key's value as written (quotes kept), None when absent."""
    lines = text.lstrip("\ufeff").split("\n")
    if not lines or lines[0].strip() != "---":
        return None
    for line in lines[1:]:
        if line.strip() == "---":
            return None
        m = _SCALAR.match(line.rstrip("\r"))
        if m and m.group(1) == key:
            return m.group(2)
    return None


def _skill_paths(rules: RuleSet, meta) -> list[str]:
    """A skill's `paths:` globs as written; [] when it has none, or only `**` once Claude Code
    drops a trailing `/**` (listed at start-up)."""
    if not rules.has("skills.paths") or meta.error:
        return []
    return claude_paths(glob_list(meta.data.get(rules.value("skills.paths"))))


def _registered(b: Builder, ctx: AgentContext, rules: RuleSet, rel: str, t, data: dict, meta) -> bool:
    """A subagent without the frontmatter fields the agent requires is never registered: it is
    never listed, never delegated to (said once, with what is missing)."""
    required = rules.value("subagents.required", ())
    missing = [k for k in required if not str(data.get(k) or "").strip()]
    if not missing:
        return True
    what = ("no YAML frontmatter" if not meta.present else "frontmatter YAML cannot read" if meta.error
            else "no " + " or ".join(f"`{k}:`" for k in missing) + " in its frontmatter")
    ctx.never.append(Unseen(rel, f"{what}: Claude Code never registers this subagent", t.size,
                            rules.id("subagents.required")))
    if not meta.error:  # unreadable frontmatter is instructions.frontmatter's finding
        fields = ", ".join(f"`{k}`" for k in required)
        b.add("instructions.no-description", rel, f"{what}: Claude Code registers a subagent only with {fields}, so "
              "it is never listed or delegated to (its settings in the body are plain text)", 1)
    return False


def _undescribed_skill(b: Builder, rules: RuleSet, rel: str, meta, shown: str) -> None:
    """A skill with no `description`: listed with its body's first line, which is only a title
    (or nothing) — nothing tells the agent when to use it."""
    first = next((ln.strip() for ln in (meta.body or "").splitlines() if ln.strip()), "")
    if shown and not first.startswith("#") and len(shown.split()) >= _SAYS_WHEN:
        return  # a sentence of its own: the agent has something to match on
    what = "no frontmatter" if not meta.present else "no `description:` in its frontmatter"
    listed = f"only its first line, {shown!r}," if shown else "nothing"
    b.add("instructions.no-description", rel, f"{what}: Claude Code lists the skill by its folder's name with "
          f"{listed} to say when to use it", 1)


_SAYS_WHEN = 6  # words: a first paragraph this long is a description of sorts


def _after_frontmatter(text: str) -> str:
    lines = text.split("\n")
    if lines and lines[0].strip().startswith("---"):
        for i in range(1, len(lines)):
            if lines[i].strip().startswith("---"):
                return "\n".join(lines[i + 1:])
    return text


def _first_line(body: str) -> str:
    """A skill without a readable description is listed by its body's first line."""
    for line in body.splitlines():
        s = line.strip().lstrip("#").strip()
        if s:
            return s
    return ""
