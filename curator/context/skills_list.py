"""Skills the agents other than Claude Code list at start-up, the body when the skill is used:
Devin Desktop's, Cursor's, Kiro's, Codex's, Gemini CLI's, Copilot's, Cline's and Roo's (Claude
Code's listing, with its budget and its own keys, is claude_items.py). How each agent lists a
skill is a `Listing`; its folders and keys are its rules."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from .builder import Builder
from .model import AgentContext, Cut, Loaded, OnDemand, Unseen
from .parse import glob_list, read_meta


@dataclass(frozen=True, slots=True)
class Listing:
    """How one agent lists a skill."""

    agent: str  # the label findings and notes name
    globs_key: tuple[str, ...] = ()  # listed only for matching files (Cursor's `paths:`)
    manual_key: str = ""  # true: only on `/name` (`disable-model-invocation`)
    desc_max: int = 0  # the description is cut to this many characters
    with_path: bool = False  # the line names the file
    names_only: bool = False  # only the name is shown (Cline since 4.0)
    fold_names: bool = False  # names compared trimmed and lower-cased (the Cline SDK's `resolveId`)
    requires: tuple[str, ...] = ()  # frontmatter keys without which the agent skips the skill
    name_is_folder: str = ""  # a pattern the name must match, and be its folder's (Roo)
    unlisted_without_description: bool = False  # still run by `/name`, never listed (VS Code)
    strict: bool = False  # frontmatter it cannot read, or a name or description not a string: dropped (Codex)


def skill_files(b: Builder, folder: str, deep: bool) -> list[str]:
    """`<folder>/<name>/SKILL.md` (`deep`: a SKILL.md at any depth below the folder)."""
    depth = folder.count("/") + 2
    return [rel for rel in b.fs.under(folder)
            if rel.endswith("/SKILL.md") and (deep or rel.count("/") == depth)]


def skill_folders(b: Builder, names) -> list[tuple[str, str]]:
    """(folder, the subfolder it serves: '' at the root) of every folder named like one of
    `names` (`.agents/skills`) at the root or below; links and dot folders' kits aside."""
    out = []
    for d in sorted(b.fs.dirs):
        name = next((n for n in names if d == n or d.endswith("/" + n)), None)
        if name is None or d in b.fs.links:
            continue
        scope = d[: -len(name) - 1] if d != name else ""
        if not any(p.startswith(".") for p in scope.split("/") if p):
            out.append((d, scope))
    return out


def listing_line(name: str, desc: str) -> str:
    return f"- {name}: {desc}" if desc else f"- {name}"


def skill_name(data: dict, rel: str) -> str:
    name = data.get("name")
    return (name if isinstance(name, str) and name.strip() else rel.split("/")[-2]).strip()


def _skipped(b: Builder, ctx: AgentContext, spec: Listing, rel: str, t, meta, rule: str) -> bool:
    """A skill the agent drops for its frontmatter: never, with the reason (and a finding: it
    drops it without a word)."""
    data, why = meta.data, ""
    if spec.strict:
        odd = [k for k in ("name", "description") if k in data and not isinstance(data[k], str)]
        if not meta.present or meta.error and not meta.lenient:
            why = "no frontmatter it can read" if meta.present else "no frontmatter"
        elif odd:
            why = f"its {' and '.join(odd)} {'is' if len(odd) == 1 else 'are'} not text"
    missing = [k for k in spec.requires if not str(data.get(k) or "").strip()]
    if missing and not why:
        why = f"no {' and no '.join(missing)}"
    folder = rel.split("/")[-2]
    if not why and spec.name_is_folder:
        name = str(data.get("name") or "").strip()
        if name != folder or not re.fullmatch(spec.name_is_folder, name):
            why = f"its name {name!r} is not its folder's name {folder!r}" if name != folder else \
                f"its name {name!r} is not lowercase words joined by hyphens"
    if not why:
        return False
    ctx.never.append(Unseen(rel, f"{why}: {spec.agent} skips the skill", t.size, rule))
    b.add_for(spec.agent, "instructions.frontmatter", rel, f"{why}: the skill is skipped without a word", 1)
    return True


def list_skill(b: Builder, ctx: AgentContext, rel: str, rule: str, spec: Listing, *, scope: str = "",
               scope_how: str = "", taken: dict[str, str] | None = None) -> bool:
    """One skill: its listing line at start-up and its body on demand; listed only for files
    under `scope` (`scope_how` says when otherwise) or matching its globs, or only on `/name`.
    `taken`: the names already listed (name → path): a second skill of a name is listed once.
    False when the file cannot be read or holds nothing."""
    t = b.text(rel)
    if t is None or not t.text.strip():
        return False
    meta = read_meta(t.text)
    if _skipped(b, ctx, spec, rel, t, meta, rule):
        return True
    if meta.error and not meta.lenient:
        b.add_for(spec.agent, "instructions.frontmatter", rel, f"{meta.error}: its name and description cannot be "
                  "read, so the skill is listed by its folder's name", meta.line)
    data = meta.data
    name = skill_name(data, rel)
    if taken is not None:
        key = name.strip().lower() if spec.fold_names else name
        if key in taken:
            ctx.notes.append(f"{rel} is the skill {name} again (as {taken[key]}): listed once")
            return True
        taken[key] = rel
    desc = data.get("description")
    desc = " ".join(desc.split()) if isinstance(desc, str) else ""
    if spec.desc_max and len(desc) > spec.desc_max:
        desc = desc[:spec.desc_max] + "..."
    flag = data.get(spec.manual_key) if spec.manual_key else None
    manual = flag is True or meta.lenient and str(flag).strip().lower() == "true"  # read line by line: text
    if manual or spec.unlisted_without_description and not desc:
        why = spec.manual_key if manual else "no description: never listed"
        ctx.on_demand.append(OnDemand(rel, f"only when you type /{name} ({why})", 0, t.size, "manual",
                                      text=t.text, rule=rule))
        return True
    key = next((k for k in spec.globs_key if data.get(k) not in (None, "", [])), "")
    globs = glob_list(data.get(key)) if key else []
    if scope or globs:
        where = scope_how or (f"working on files under {scope}/" if scope else f"working on files matching "
                                                                                 f"{', '.join(globs)}")
        ctx.on_demand.append(OnDemand(rel, f"listed when {where}; the body when the skill is used", 0,
                                      t.size, "description", description=desc, text=t.text, rule=rule))
        if globs:
            b.dead_globs(rel, key, [f"{scope}/{g.lstrip('/')}" if scope else g for g in globs],
                         outcome="the skill is never listed")
        return True
    line = name if spec.names_only else listing_line(name, desc) + (f" (file: {rel})" if spec.with_path else "")
    what = "name" if spec.names_only else "name and description"
    ctx.startup.append(Loaded(rel, t.size, 0, f"skill listing ({what}; body on demand)", None,
                              Cut(len(line.encode("utf-8")), f"only the skill's {what} are listed"), line, rule))
    ctx.on_demand.append(OnDemand(rel, "when the skill is used", 0, t.size, "description", description=desc,
                                  text=t.text, rule=rule))
    return True


def agent_skills(b: Builder, ctx: AgentContext, rules, spec: Listing) -> None:
    """The skills of the agent's folders (`skills.folders`, the winning one first: a name is
    listed once) at the repository root, `<name>/SKILL.md`, and your `user.skills` apart (who
    wins a name both hold: `skills.same-name`)."""
    taken: dict[str, str] = {}
    if rules.has("skills.folders"):
        for folder in rules.value("skills.folders"):
            for rel in skill_files(b, folder, deep=False):
                list_skill(b, ctx, rel, rules.id("skills.folders"), spec, taken=taken)
    if not b.ci and rules.has("user.skills"):
        list_user_skills(b, ctx, list(rules.value("user.skills")), rules.id("user.skills"),
                         "your skill (listed by name and description)", deep=False, clash=Clash.of(rules, taken))


@dataclass(frozen=True, slots=True)
class Clash:
    """A skill of yours and one of the workspace with one name: the agent lists one of them."""

    taken: dict[str, str]  # the workspace's skills listed: name → path
    wins: str  # "workspace" (yours is not listed) or "user" (the workspace's is replaced)
    rule: str
    mine: dict[str, str] = field(default_factory=dict)  # your skills listed: name → where

    @classmethod
    def of(cls, rules, taken: dict[str, str]) -> Clash | None:
        if not rules.has("skills.same-name"):
            return None
        return cls(taken, rules.value("skills.same-name"), rules.id("skills.same-name"))

    def settle(self, b: Builder, ctx: AgentContext, name: str, shown: str) -> bool:
        """False when yours is not listed (the workspace's wins); a workspace skill yours
        replaces moves to "never"."""
        folded = name.strip().lower()  # Cline keys a skill by its name trimmed and lower-cased
        key = name if self.wins == "workspace" else folded
        if key in self.mine:  # two of yours: the first folder read wins, as the rule lists them
            ctx.notes.append(f"{shown} is your skill {name} again (as {self.mine[key]}): listed once")
            return False
        self.mine[key] = shown
        other = self.taken.get(name) if self.wins == "workspace" else \
            next((rel for n, rel in self.taken.items() if n.strip().lower() == folded), None)
        if other is None:
            return True
        if self.wins == "workspace":
            ctx.notes.append(f"{shown} is not listed: the workspace's skill {name} ({other}) wins the name")
            return False
        ctx.startup[:] = [f for f in ctx.startup if f.path != other]
        ctx.on_demand[:] = [f for f in ctx.on_demand if f.path != other]
        ctx.never.append(Unseen(other, f"replaced by your skill of the same name ({shown})",
                                getattr(b.fs.read(other), "size", 0), self.rule))
        return True


def list_user_skills(b: Builder, ctx: AgentContext, folders: list[str], rule: str, why: str,
                     deep: bool = True, clash: Clash | None = None) -> None:
    """Your skills beside the repository (`~/.cursor/skills/...`): their listing lines, shown apart."""
    from .user import read_user, shown_path

    seen: set[str] = set()
    for folder in folders:
        full = os.path.join(b.home, folder)
        if not os.path.isdir(full):
            continue
        for dirpath, dirnames, filenames in os.walk(full):
            dirnames.sort()
            if "SKILL.md" not in filenames or not deep and os.path.dirname(dirpath) != full:
                continue
            path = os.path.join(dirpath, "SKILL.md")
            real = os.path.realpath(path)
            if real in seen:
                continue
            seen.add(real)
            for shown, text in read_user(b.home, [os.path.relpath(path, b.home)], []):
                data = read_meta(text).data
                name, where = skill_name(data, shown), shown_path(b.home, path)
                if clash is not None and not clash.settle(b, ctx, name, where):
                    continue
                ctx.add_user(where, listing_line(name, " ".join(str(data.get("description") or "").split())), why, rule)
