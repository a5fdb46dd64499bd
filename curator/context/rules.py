"""Rule folders with frontmatter modes: GitHub Copilot and Devin Desktop, and the helpers every
rule-folder agent shares (Cursor, Kiro, Cline and Roo have their own modules).

Each rule is always loaded (start-up), attached when a matching file is read (globs), chosen by
the agent from its description, or manual (only when the user names it). Per agent docs:
- Copilot `.github/copilot-instructions.md` always; `.github/instructions/**/*.instructions.md`
  by `applyTo` (none: manual), `excludeAgent` names the agent that skips it;
- Devin Desktop (Windsurf until 2026-06) `.devin/rules/*.md` and `.windsurf/rules/*.md` by
  `trigger:` (always_on / glob / model_decision / manual), a cap of characters a file; legacy
  `.windsurfrules`; skills listed by name and description, workflows by `/name`.
Every folder, key and cap is the agent's rule at the version chosen (curator/agents/).
"""

from __future__ import annotations

from .applyto import key_line as _key_line
from .applyto import not_a_string
from .builder import Builder, cap_chars
from .model import AgentContext, Cut, Loaded, OnDemand, Unseen
from .parse import glob_list, markdown_links, read_meta
from .skills_list import Listing, agent_skills, list_skill, list_user_skills, skill_files


def _meta(b: Builder, rel: str, text: str, agent: str):
    meta = read_meta(text)
    if meta.error and not meta.lenient:
        b.add("instructions.frontmatter", rel, f"{meta.error}: {agent} cannot read the rule's settings", meta.line)
    return meta


def _rule_files(b: Builder, folder: str, suffixes: tuple[str, ...], agent: str):
    """(path, text, frontmatter) of every readable rule file under `folder`."""
    for rel in b.fs.under(folder):
        if rel.endswith(suffixes):
            t = b.text(rel)
            if t is not None:
                yield rel, t, _meta(b, rel, t.text, agent)


def _always(ctx: AgentContext, rel: str, t, why: str, rule: str) -> Loaded:
    entry = Loaded(rel, t.size, 0, why, None, None, t.text, rule)
    ctx.startup.append(entry)
    return entry


def _globbed(b: Builder, ctx: AgentContext, rel: str, t, key: str, globs: list[str], rule: str, extra: str = "") -> None:
    ctx.on_demand.append(OnDemand(rel, f"reading a file matching {', '.join(globs)}{extra}", 0, t.size, "path",
                                  tuple(globs), text=t.text, rule=rule))
    b.dead_globs(rel, key, globs)


def _by_description(ctx: AgentContext, rel: str, t, desc: str, rule: str, listed: bool = False) -> None:
    """A rule the agent picks by its description (`listed`: the agent is shown the rule's name and
    description at start-up, as a skill's, so that line costs tokens there)."""
    desc = " ".join(str(desc).split())
    if listed and desc:
        line = f"- {rel.rsplit('/', 1)[-1].rsplit('.', 1)[0]}: {desc}"
        ctx.startup.append(Loaded(rel, t.size, 0, "rule listing (name and description; body when picked)", None,
                                  Cut(len(line.encode("utf-8")), "only the rule's name and description are listed"),
                                  line, rule))
    ctx.on_demand.append(OnDemand(rel, "when the agent picks it by its description", 0, t.size, "description",
                                  description=desc, text=t.text, rule=rule))


def always_once(b: Builder, ctx: AgentContext, name: str, why: str, rule: str) -> None:
    """A root file every request carries (Cursor's and Copilot's CLAUDE.md), read once when it
    is a file already loaded under another name (a link)."""
    if name not in b.fs.fileset:
        return
    t = b.text(name)
    if t is None or not t.text.strip():
        return
    loaded = b.loaded(ctx.startup)
    if "AGENTS.md" in b.fs.fileset:  # the root AGENTS.md loads after (agents_md.nearest): it keeps its name
        loaded.setdefault(b.real("AGENTS.md"), "AGENTS.md")
    if t.real in loaded:
        ctx.notes.append(f"{name} is the same file as {loaded[t.real]}: read once")
        return
    _always(ctx, name, t, why, rule)


def _manual(ctx: AgentContext, rel: str, t, how: str, rule: str, trigger: str = "manual") -> None:
    ctx.on_demand.append(OnDemand(rel, how, 0, t.size, trigger, text=t.text, rule=rule))


def copilot(b: Builder) -> AgentContext:
    rules = b.rules_of("copilot")
    ctx = AgentContext("copilot")
    main = rules.value("repo.file")
    if main in b.fs.fileset:
        t = b.text(main)
        if t is not None:
            _always(ctx, main, t, "repository custom instructions (always)", rules.id("repo.file"))
            limit = rules.value("review.max-chars", None)
            if limit and len(t.text) > limit:
                ctx.notes.append(f"{main} is over {limit:,} characters: Copilot code review was formerly documented "
                                 f"to read only its first {limit:,} (no longer in the docs; enforcement unknown)")
    keys = rules.value("path.keys")
    rule = rules.id("path.folder")
    for rel, t, meta in _rule_files(b, rules.value("path.folder"), (rules.value("path.suffix"),), "Copilot"):
        globs = glob_list(meta.data.get(keys["globs"]))
        if not_a_string(b, rel, t.text, keys["globs"], meta.data.get(keys["globs"]), globs):
            globs = []
        quoted = _quoted_inside(meta, keys["globs"])
        if quoted:
            b.add("instructions.dead-glob", rel, f"`{keys['globs']}: {quoted}` holds quote characters inside the "
                  "quotes: they are part of the pattern, which matches no file — the instructions never apply",
                  _key_line(t.text, keys["globs"]))
            globs = []
        if rules.has("path.listed"):
            _listed(ctx, rules, rel, t, meta, keys["globs"])
        excluded = meta.data.get(keys["exclude"])
        extra = f"; not for {excluded}" if excluded else ""
        if globs:
            _copilot_globbed(b, ctx, rules, rel, t, keys["globs"], globs, extra)
        else:
            how = " or read from the list by the model" if rules.has("path.listed") else ""
            _manual(ctx, rel, t, f"only when attached by hand{how} (no {keys['globs']})", rule)
            if not meta.present and t.text.strip() and not _heading_keys(b, rel, t.text, (keys["globs"],)):
                vscode = ("lists only its path, so the model picks it by its file name or you attach it by hand"
                          if rules.has("path.listed") else "applies these instructions only when attached by hand")
                b.add("instructions.no-description", rel, f"no frontmatter ({keys['globs']}, description): VS Code "
                      f"{vscode} (the Copilot CLI puts them whole in every prompt)", 1)
    _copilot_agents(b, ctx, rules)
    ctx.notes.append("these are VS Code's rules: the Copilot CLI loads every root AGENTS.md, CLAUDE.md and GEMINI.md "
                     "and puts path instructions without applyTo in every prompt (`curator context --agent "
                     "copilot-cli`)")
    nested = rules.value("agents-md.nested-vscode", None)
    if nested and any("/" in rel for rel in b.fs.named(rules.value("agents-md"))):
        ctx.notes.append(f"a subfolder's AGENTS.md: GitHub's coding agent reads the nearest; VS Code only lists it "
                         f"for the model, and only with {nested} (off by default)")
    for name in rules.value("claude-md", ()):
        always_once(b, ctx, name, f"{name} (VS Code attaches it to every request)", rules.id("claude-md"))
    if main in b.fs.fileset and rules.has("repo.references"):
        _references(b, ctx, rules, main)
    agent_skills(b, ctx, rules, Listing("GitHub Copilot", manual_key="disable-model-invocation", with_path=True,
                                        unlisted_without_description=True))
    if not b.ci and rules.has("user.files"):
        from .user import read_user

        for shown, text in read_user(b.home, list(rules.value("user.files")), []):
            ctx.add_user(shown, text, "your personal instructions (user level)", rules.id("user.files"))
    return ctx


def _copilot_globbed(b: Builder, ctx: AgentContext, rules, rel: str, t, key: str, globs: list[str], extra: str) -> None:
    """Path instructions as VS Code matches them: a glob not anchored by `/` or `**/` at any depth."""
    anywhere = rules.value("path.anywhere", None)
    every = frozenset(rules.value("path.every-file", ()))
    if rules.has("path.whole-path"):
        rooted = [g for g in globs if g.startswith("/")]
        if rooted:
            globs = [g for g in globs if not g.startswith("/")]
            _rooted(b, ctx, rules, rel, t, key, rooted, live=bool(globs))
            if not globs:
                return
    read_as = [g if not anywhere or g in every or g.startswith(("/", anywhere, "!")) else anywhere + g for g in globs]
    deeper = " (at any depth)" if read_as != globs else ""
    any_case = bool(rules.value("path.ignore-case", False))
    ctx.on_demand.append(OnDemand(rel, f"reading a file matching {', '.join(globs)}{deeper}{extra}", 0, t.size, "path",
                                  tuple(read_as), text=t.text, rule=rules.id("path.folder"), any_case=any_case))
    b.dead_globs(rel, key, globs, read_as=read_as, ignore_case=any_case)


def _references(b: Builder, ctx: AgentContext, rules, main: str) -> None:
    """What VS Code attaches with copilot-instructions.md: each workspace file its body links to
    (not an image, not the web), and what an instructions or prompt file among them links to."""
    import posixpath
    import re

    form = rules.value("repo.references")
    named = re.compile(form["file"])
    loaded = b.loaded([e for e in ctx.startup if e.cut is None])
    if "AGENTS.md" in b.fs.fileset:  # the root AGENTS.md is attached anyway (agents_md.nearest)
        loaded.setdefault(b.real("AGENTS.md"), "AGENTS.md")
    todo = [main]
    while todo:
        src = todo.pop()
        t = b.text(src)
        if t is None:
            continue
        meta = read_meta(t.text)
        start = t.text.count("\n", 0, len(t.text) - len(meta.body)) if meta.present else 0
        for no, line in enumerate(meta.body.splitlines() if meta.present else t.text.splitlines(), start + 1):
            targets = [raw for at, raw in markdown_links(line) if not (at and line[at - 1] == "!")]
            for raw in targets + [m.group(1) for m in named.finditer(line)]:
                rel = posixpath.normpath(posixpath.join(posixpath.dirname(src), raw.strip()))
                got = b.text(rel) if rel in b.fs.fileset else None
                if got is None or got.real in loaded or re.match(r"^[a-zA-Z]+:/", raw):
                    continue
                loaded[got.real] = rel
                ctx.startup[:] = [e for e in ctx.startup if e.path != rel]  # its listing entry: the file is whole now
                ctx.startup.append(Loaded(rel, got.size, 0, f"referenced by {src} (VS Code attaches it)", f"{src}:{no}",
                                          None, got.text, rules.id("repo.references")))
                if rel.endswith(form["follow"]):
                    todo.append(rel)


def _listed(ctx: AgentContext, rules, rel: str, t, meta, key: str) -> None:
    """VS Code's list of instruction files, sent with each request: the entry of this one (its
    description, path and globs; nothing but the tags without frontmatter)."""
    form = rules.value("path.listed")
    data = meta.data if meta.present and not meta.error else {}
    parts = [form["open"]]
    if meta.present and not meta.error:
        desc = data.get("description")
        if desc not in (None, ""):
            parts.append(form["description"].format(" ".join(str(desc).split())))
        parts.append(form["file"].format(rel))
        globs = data.get(key)
        if globs not in (None, "", []):
            shown = ", ".join(map(str, globs)) if isinstance(globs, (list, tuple)) else str(globs)  # a number: as written
            parts.append(form["globs"].format(shown))
    line = "\n".join([*parts, form["close"]])
    ctx.startup.append(Loaded(rel, t.size, 0, "instructions listing (description, path and applyTo; the body when it "
                              "applies or the model reads it)", None,
                              Cut(len(line.encode("utf-8")), "only its entry is listed (VS Code's instructions list)"),
                              line, rules.id("path.listed")))


def _rooted(b: Builder, ctx: AgentContext, rules, rel: str, t, key: str, rooted: list[str], live: bool) -> None:
    """`applyTo: /src/**`: VS Code matches the glob against the file's whole path on disk, where
    no project file starts `/src/`: the glob applies to nothing (and the file to nothing, alone)."""
    shown = ", ".join(rooted)
    fixed = ", ".join(g.lstrip("/") for g in rooted)
    outcome = "the other globs still apply" if live else "the instructions never apply"
    b.add("instructions.dead-glob", rel, f"`{key}: {shown}` starts with `/`: Copilot in VS Code matches a glob against "
          f"each file's whole path on disk, so it matches no file of the repository — {outcome} (write `{fixed}`)",
          _key_line(t.text, key))
    if not live:
        ctx.never.append(Unseen(rel, f"its {key} globs start with `/`: they match no file's whole path", t.size,
                                rules.id("path.whole-path")))


def _copilot_agents(b: Builder, ctx: AgentContext, rules) -> None:
    """`.github/agents/*.md`: custom agents, each picked from the agent list by its name and
    description (by a person: no two descriptions compete for a prompt)."""
    if not rules.has("agents.folder"):
        return
    rule = rules.id("agents.folder")
    folder = rules.value("agents.folder")
    for rel, t, meta in _rule_files(b, folder, (".md",), "Copilot"):
        if rel.count("/") != folder.count("/") + 1 or rel.rsplit("/", 1)[-1].lower() == "readme.md":
            continue  # VS Code reads the folder's own .md files, its README aside
        desc = meta.data.get("description")
        said = " ".join(str(desc).split()) if desc not in (None, "", []) else ""
        _manual(ctx, rel, t, "when you pick the custom agent" + (f": {said}" if said else " (no description)"), rule,
                "invoked")
        if not said and not meta.error:
            what = "no frontmatter" if not meta.present else "no `description:` in its frontmatter"
            b.add("instructions.no-description", rel, f"{what}: Copilot lists every .md in "
                  f"{rules.value('agents.folder')}/ as a custom agent, and this one has nothing to say what it is for "
                  "(a note kept here becomes an agent)", 1)


def _heading_keys(b: Builder, rel: str, text: str, keys) -> bool:
    """A frontmatter key written as a heading (`## applyTo: 'docs/**'`: a formatter turned the
    `---` block into a setext heading): said as the frontmatter finding it is."""
    import re

    for no, line in enumerate(text.splitlines()[:8], 1):
        m = re.match(r"^#{1,6}\s*(\w+)\s*:\s*(.*)$", line.strip())
        if m and m.group(1) in keys:
            b.add("instructions.frontmatter", rel, f"`{m.group(1)}: {m.group(2)}` is a heading, not frontmatter "
                  "(a formatter turned the --- block into one): the agent reads no settings, so the rule never "
                  "applies by itself", no)
            return True
    return False


def devin(b: Builder) -> AgentContext:
    """Devin Desktop (Windsurf before 2026-06): `.devin/rules` then the legacy `.windsurf/rules`."""
    rules = b.rules_of("devin")
    ctx = AgentContext("devin")
    name = str(rules.value("name", "Devin Desktop"))
    modes = rules.value("rules.triggers")
    for key in ("rules.folder", "rules.legacy-folder"):
        if not rules.has(key):
            continue
        rule = rules.id(key)
        for rel, t, meta in _rule_files(b, rules.value(key), (".md",), name):
            trigger = str(meta.data.get("trigger") or "").strip()
            globs = glob_list(meta.data.get("globs"))
            if trigger == modes["always"]:
                _devin_cap(b, ctx, _always(ctx, rel, t, f"{name} rule, trigger: {trigger}", rule))
            elif trigger == modes["glob"] and globs:
                _globbed(b, ctx, rel, t, "globs", globs, rule)
            elif trigger == modes["description"]:
                _by_description(ctx, rel, t, meta.data.get("description") or "", rule)
                if not str(meta.data.get("description") or "").strip():
                    b.add("instructions.no-description", rel, f"trigger: {trigger} without a description: {name} "
                          "decides by the description alone, so nothing picks this rule", _key_line(t.text, "trigger"))
            else:
                how = "manual rule (only when @-mentioned)" if trigger in ("", modes["manual"]) else \
                    f"trigger: {trigger} is not a {name} mode ({', '.join(modes.values())})"
                if trigger not in ("", modes["manual"], modes["glob"]):  # toolkit-remix's `trigger: always` never loads
                    line = _key_line(t.text, "trigger")
                    b.add("instructions.frontmatter", rel, f"{how}: {name} loads the rule only when it is "
                          "@-mentioned", line)
                _manual(ctx, rel, t, how, rule)
    legacy = rules.value("legacy.file")
    if legacy in b.fs.fileset:
        t = b.text(legacy)
        if t is not None:
            _devin_cap(b, ctx, _always(ctx, legacy, t, f"legacy {legacy} (always)", rules.id("legacy.file")))
    _devin_skills_and_workflows(b, ctx, rules, name)
    return ctx


def _devin_skills_and_workflows(b: Builder, ctx: AgentContext, rules, name: str) -> None:
    """Skills listed by name and description (the body when invoked), workflows by `/name`."""
    if rules.has("skills.folder"):
        rule = rules.id("skills.folder")
        for rel in skill_files(b, rules.value("skills.folder"), deep=False):
            list_skill(b, ctx, rel, rule, Listing(name))
    if not b.ci and rules.has("user.skills"):
        list_user_skills(b, ctx, list(rules.value("user.skills")), rules.id("user.skills"),
                         "your skill (listed by name and description)", deep=False)
    if rules.has("workflows.folder"):
        marker = "/" + rules.value("workflows.folder") + "/"
        for rel in b.fs.files:
            if rel.endswith(".md") and marker in "/" + rel and "/" not in ("/" + rel).split(marker, 1)[1]:
                t = b.text(rel)
                if t is not None:
                    _manual(ctx, rel, t, f"when you type /{rel.rsplit('/', 1)[-1][:-3]} (workflow)",
                            rules.id("workflows.folder"))


def _quoted_inside(meta, key: str) -> str:
    """A YAML value that still has quotes around it (`applyTo: "'**/*'"`): as written, else ''."""
    value = meta.data.get(key)
    if meta.lenient or not isinstance(value, str):
        return ""
    v = value.strip()
    return v if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"" else ""


def _devin_cap(b: Builder, ctx: AgentContext, entry: Loaded) -> None:
    rules = b.rules_of("devin")
    cap, name = rules.value("rules.max-chars"), str(rules.value("name", "Devin Desktop"))
    past = cap_chars(entry, cap, f"{name} reads {cap:,} characters of a rule file")
    if past:
        ctx.never.append(Unseen(entry.path, f"past {name}'s {cap:,}-character cap", past, rules.id("rules.max-chars")))
        b.add("instructions.cap", entry.path, f"{name} reads the first {cap:,} characters of a rule: "
              f"the last {past:,} bytes are cut")
