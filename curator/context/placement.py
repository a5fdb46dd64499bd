"""Files placed where no agent looks for them, and where they should go.

Each agent reads its files from fixed places (curator/agents/): a rule folder, not a file of that
name; `.clinerules`, `.cursorrules`, `.windsurfrules`, `.roorules` at the workspace root only; a
skill as `<name>/SKILL.md` in a skills folder; Copilot's path instructions as `*.instructions.md`
in `.github/instructions/`; Cursor's project rules as `.mdc` in a `.cursor/rules/` folder; a
GEMINI.md outside `.gemini/`. A file anywhere else is read by no agent and nothing says so.

`placements(fs, rules)` lists them (the model's `misplaced`, facts); `check(b, model)` makes the
findings — `instructions.misplaced`, and `instructions.cursor-md` for a `.md` among Cursor's
rules — each with where the file should go and a `Move` when exactly one place is right and free.
Vendored, example and template folders are left alone: their files are not this project's setup.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..agents import RuleSet, rules_for
from ..model.findings import Move
from .fs import RepoFS
from .model import Unseen

# folders whose files are someone else's setup (a vendored package, an example project, a template)
FOREIGN = frozenset({"vendor", "vendors", "third_party", "third-party", "thirdparty", "external", "externals",
                     "examples", "example", "samples", "sample", "templates", "template", "fixtures", "__fixtures__",
                     "testdata", "test-data", "test_data", "node_modules", "dist", "build", "out"})
ROOT_ONLY = {".clinerules": "cline", ".cursorrules": "cursor", ".windsurfrules": "devin", ".roorules": "roo"}
# a rule file in .github/ read by nobody: the keys say which agent it was written for
CURSOR_KEYS, COPILOT_KEYS = ("alwaysApply", "globs"), ("applyTo",)
PLUGIN_MARKERS = (".claude-plugin", "plugin.json", "marketplace.json", "gemini-extension.json", ".codex-plugin")


@dataclass(frozen=True, slots=True)
class Place:
    """A file no agent reads where it is: why, where it should go, and the move when one is sure."""

    path: str
    reason: str
    where: str  # what to do, as a person reads it
    check: str = "instructions.misplaced"
    move: str | None = None  # the repository-relative path it should have (None: by hand)
    rule: str = ""


def _rules(rulesets: dict[str, RuleSet] | None, agent: str) -> RuleSet:
    got = (rulesets or {}).get(agent)
    return got if got is not None else rules_for(agent)


def _foreign(rel: str) -> bool:
    """Inside a vendored, example or template folder (someone else's setup, not this project's)."""
    return any(p.lower() in FOREIGN for p in rel.split("/")[:-1])


def _free(fs: RepoFS, rel: str) -> bool:
    """Nothing is at `rel`, nor a file where one of its folders would be."""
    parts = rel.split("/")
    return not fs.exists(rel) and not any("/".join(parts[:i]) in fs.fileset for i in range(1, len(parts)))


def placements(fs: RepoFS, rulesets: dict[str, RuleSet] | None = None) -> list[Place]:
    """Every file no agent reads where it is (a folder's files once, as the folder)."""
    out: list[Place] = []
    out += _folders_that_are_files(fs, rulesets)
    out += _below_the_root(fs, rulesets)
    out += _skills(fs, rulesets)
    out += _copilot(fs, rulesets)
    out += _cursor(fs, rulesets)
    out += _gemini(fs, rulesets)
    seen: set[str] = set()
    unique = []
    for p in out:
        if p.path not in seen:
            seen.add(p.path)
            unique.append(p)
    return unique


def unseen(fs: RepoFS, p: Place) -> Unseen:
    """The model's fact of one misplaced file: why no agent reads it."""
    return Unseen(p.path, p.reason, _size(fs, p.path), p.rule)


def _size(fs: RepoFS, rel: str) -> int:
    return getattr(fs.read(rel), "size", 0) if rel in fs.fileset else 0


def _rule_folders(rulesets) -> dict[str, tuple[str, str]]:
    """A rule folder → (the agent's name, the rule id) for every agent reading a folder."""
    out = {}
    for agent, key in (("claude-code", "rules.folder"), ("claude-code", "skills.folder"),
                       ("claude-code", "commands.folder"), ("claude-code", "subagents.folder"),
                       ("cursor", "rules.folder"), ("devin", "rules.folder"), ("devin", "rules.legacy-folder"),
                       ("kiro", "steering.folder"), ("roo", "rules.folder"), ("copilot", "path.folder"),
                       ("copilot", "agents.folder")):
        rules = _rules(rulesets, agent)
        if rules.has(key):
            out[rules.value(key)] = (str(rules.value("name", rules.table.label)), rules.id(key))
    return out


def _folders_that_are_files(fs: RepoFS, rulesets) -> list[Place]:
    out = []
    folders = _rule_folders(rulesets)
    cursor = _rules(rulesets, "cursor").value("rules.folder")
    nested = [d + "/rules" for d in fs.dirs if d.endswith("/" + cursor.split("/")[0])]  # x/.cursor/rules
    for rel in sorted({f for f in folders if f in fs.fileset} | {n for n in nested if n in fs.fileset}):
        if rel in fs.links or rel not in folders and _foreign(rel):
            continue
        folder = rel if rel in folders else cursor
        agent, rule = folders[folder]
        suffix = ".mdc" if folder == cursor else ".md"
        out.append(Place(rel, f"{rel} is a file: {agent} reads the files inside a {folder}/ folder, so no agent "
                         "loads it",
                         f"make {rel}/ a folder and move this text into a rule file in it (e.g. {rel}/<name>{suffix}, "
                         "with the frontmatter that says when it applies)", rule=rule))
    return out


def _below_the_root(fs: RepoFS, rulesets) -> list[Place]:
    """`.clinerules`, `.cursorrules`, `.windsurfrules`, `.roorules` in a subfolder (a file, or a
    `.clinerules/` folder)."""
    out = []
    hits = {f for f in fs.files if "/" in f and f.rpartition("/")[2] in ROOT_ONLY}
    hits |= {d for d in fs.dirs if "/" in d and d.rpartition("/")[2] in ROOT_ONLY}
    for at in sorted(hits):
        folder, _, name = at.rpartition("/")
        parts = folder.split("/")
        if _foreign(at) or any(p.startswith(".") or p in ROOT_ONLY for p in parts) or f"{folder}/.git" in fs.fileset:
            continue  # a vendored or example project, a tool's folder, a git submodule (a root of its own)
        if at in fs.dirs and not fs.under(at):
            continue
        rules = _rules(rulesets, ROOT_ONLY[name])
        label = str(rules.value("name", rules.table.label))
        rule = rules.id("rules.root" if name == ".clinerules" else "legacy.file")
        scoped = "" if name == ".clinerules" and rules.has("rules.switch") else " (scoped to that folder's files)"
        out.append(Place(at, f"{label} reads {name} only at the workspace root: opened from the repository, it "
                         f"never loads {at}",
                         f"open {folder}/ as its own workspace, or move the rules to the root where {label} reads "
                         f"them{scoped or ' (there they load in every task: since 4.0 Cline reads no paths:)'}",
                         rule=rule))
    return out


def _skills(fs: RepoFS, rulesets) -> list[Place]:
    """Flat `.md` files in a skills folder, a `skill.md` not named SKILL.md, and a root
    `skills/<name>/SKILL.md` of a project that is not a skill library or plugin."""
    out = []
    claude = _rules(rulesets, "claude-code")
    folder, rule = claude.value("skills.folder"), claude.id("skills.folder")
    if folder not in fs.links:
        for rel in fs.under(folder):
            inner = rel[len(folder) + 1:]
            if "/" not in inner and inner.endswith(".md") and inner.lower() != "readme.md":
                stem = inner[:-3]
                new = f"{folder}/{stem}/SKILL.md"
                out.append(Place(rel, f"Claude Code finds a skill only as {folder}/<name>/SKILL.md: {rel} is never "
                                 "listed or loaded", f"move it to {new} (with name and description frontmatter)",
                                 move=new if _free(fs, f"{folder}/{stem}") else None, rule=rule))
            elif inner.count("/") == 1 and inner.endswith("/skill.md") and f"{rel[:-8]}SKILL.md" not in fs.fileset:
                new = rel[:-8] + "SKILL.md"
                out.append(Place(rel, f"the skill file must be named SKILL.md: Claude Code never finds {rel}",
                                 f"rename it to {new}", move=new, rule=rule))
    if not fs.under("skills"):
        return out
    shallow = {p.rsplit("/", 1)[-1] for p in (*fs.files, *fs.dirs) if p.count("/") <= 2}
    if shallow & set(PLUGIN_MARKERS):
        return out  # a plugin or skill library: its skills/ is what it ships
    uses_claude = any(n in fs.fileset for n in claude.value("project.files")) or ".claude" in fs.dirs
    if uses_claude:
        for rel in fs.under("skills"):
            parts = rel.split("/")
            if len(parts) == 3 and parts[2] == "SKILL.md" and rel not in fs.links:
                out.append(Place(rel, "no agent reads skills from skills/: Claude Code lists "
                                 f"{folder}/<name>/SKILL.md (Codex .agents/skills/, Copilot .github/skills/)",
                                 f"move the skill folder to {folder}/{parts[1]}/ (or link it there)", rule=rule))
    return out


def _copilot(fs: RepoFS, rulesets) -> list[Place]:
    """Path instructions outside `.github/instructions/` (or without the `.instructions.md` end),
    and a rule written for an agent, left in `.github/` where none reads it."""
    from .parse import read_meta

    out = []
    copilot = _rules(rulesets, "copilot")
    folder, suffix, rule = copilot.value("path.folder"), copilot.value("path.suffix"), copilot.id("path.folder")
    for rel in fs.under(".github"):
        name = rel.rsplit("/", 1)[-1]
        if rel.startswith(folder + "/"):
            if name.endswith(".md") and not name.endswith(suffix) and name.lower() != "readme.md":
                new = rel[:-3] + suffix
                out.append(Place(rel, f"Copilot reads only *{suffix} files in {folder}/: {rel} never applies",
                                 f"rename it to {new}", move=new if _free(fs, new) else None, rule=rule))
            continue
        if name.endswith(suffix) and not rel.startswith(".github/workflows/"):
            new = f"{folder}/{name}"
            out.append(Place(rel, f"Copilot reads path instructions only under {folder}/: {rel} never applies",
                             f"move it to {new}", move=new if _free(fs, new) else None, rule=rule))
        elif rel.count("/") == 1 and name.endswith(".md") and rel != copilot.value("repo.file"):
            t = fs.read(rel)
            keys = set(read_meta(t.text).data) if hasattr(t, "text") else set()
            if keys & set(COPILOT_KEYS):
                new = f"{folder}/{name[:-3]}{suffix}"
                out.append(Place(rel, f"a path instruction (applyTo) in .github/: Copilot reads them only under "
                                 f"{folder}/", f"move it to {new}", move=new if _free(fs, new) else None, rule=rule))
            elif keys & set(CURSOR_KEYS):
                cursor = _rules(rulesets, "cursor")
                out.append(Place(rel, "a Cursor rule (alwaysApply/globs frontmatter) in .github/: no agent reads it "
                                 "there", f"move it to {cursor.value('rules.folder')}/{name[:-3]}.mdc for Cursor, or "
                                 f"make it {folder}/{name[:-3]}{suffix} (applyTo) for Copilot",
                                 rule=cursor.id("rules.folder")))
    return out


def _cursor(fs: RepoFS, rulesets) -> list[Place]:
    """A `.md` in a `.cursor/rules/` folder (cursor-md), an `.mdc` outside one."""
    out = []
    cursor = _rules(rulesets, "cursor")
    folder, suffix = cursor.value("rules.folder"), cursor.value("rules.suffix")
    plain = cursor.value("rules.plain-md", None)
    mark = "/" + folder + "/"
    for rel in (f for f in fs.files if f.endswith(suffix) or plain and f.endswith(plain) and mark in "/" + f):
        inside = mark in "/" + rel
        if inside and plain and rel.endswith(plain) and not rel.endswith(suffix):
            if _foreign(rel) or rel.rsplit("/", 1)[-1].lower() == "readme.md" and not _has_meta(fs, rel):
                continue  # a folder's README is about the rules, not one of them
            new = rel[: -len(plain)] + suffix
            out.append(Place(rel, f"a plain {plain} in {folder}: Cursor reads only {suffix} project rules, so it "
                             "never applies", f"rename it to {new}", "instructions.cursor-md",
                             move=new if _free(fs, new) else None, rule=cursor.id("rules.plain-md")))
        elif rel.endswith(suffix) and not inside and not _foreign(rel) and rel not in fs.links:
            parent = rel.rsplit("/", 1)[0] if "/" in rel else ""
            new = f"{parent}/rules/{rel.rsplit('/', 1)[-1]}" if parent.endswith(".cursor") else None
            out.append(Place(rel, f"Cursor reads {suffix} rules only in a {folder}/ folder: {rel} never applies",
                             f"move it to {new}" if new else f"move it into {folder}/",
                             move=new if new and _free(fs, new) else None, rule=cursor.id("rules.folder")))
    return out


def _has_meta(fs: RepoFS, rel: str) -> bool:
    from .parse import read_meta

    t = fs.read(rel)
    return hasattr(t, "text") and read_meta(t.text).present


def _gemini(fs: RepoFS, rulesets) -> list[Place]:
    """A GEMINI.md inside `.gemini/` (the user's folder's place, never a project's context)."""
    gemini = _rules(rulesets, "gemini")
    hidden = gemini.value("context.not-in")
    out = []
    for name in gemini.value("context.default-names"):
        rel = f"{hidden}/{name}"
        if rel in fs.fileset and rel not in fs.links:
            out.append(Place(rel, f"Gemini CLI reads {name} from the working folder, its parents and subfolders, not "
                             f"from {hidden}/ (~/{hidden}/{name} is your own, global one)", f"move it to {name}",
                             move=name if _free(fs, name) else None, rule=gemini.id("context.not-in")))
    return out


def check(b, places: list[Place]) -> None:
    """The findings: one per misplaced file that holds something (an empty file loses nothing)."""
    for p in places:
        if p.path in b.fs.fileset and not getattr(b.fs.read(p.path), "text", "x").strip():
            continue
        fix = Move(p.path, p.move) if p.move and p.path in b.fs.fileset and p.path not in b.fs.links else None
        b.add(p.check, p.path, f"{p.reason} — {p.where}", None, p.move, p.move, fix)
        _moved_copilot_keys(b, p)


def _moved_copilot_keys(b, p: Place) -> None:
    """A misplaced path instruction's `applyTo`, checked as it will be read once moved: a list
    there would still apply nothing."""
    from .applyto import not_a_string
    from .parse import glob_list, read_meta

    copilot = b.rules_of("copilot")
    if p.rule != copilot.id("path.folder") or not p.path.endswith(".md"):
        return
    t = b.fs.read(p.path)
    if hasattr(t, "text"):
        key = copilot.value("path.keys")["globs"]
        value = read_meta(t.text).data.get(key)
        not_a_string(b, p.path, t.text, key, value, glob_list(value), "moved, these instructions would still never apply")
