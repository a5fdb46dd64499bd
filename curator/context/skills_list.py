"""Skills the agents other than Claude Code list at start-up by name and description, the body
when the skill is used: Devin Desktop's, Cursor's and Kiro's (Claude Code's listing, with its
budget and its own keys, is claude_items.py). Each agent's folders and keys are its rules."""

from __future__ import annotations

import os

from .builder import Builder
from .model import AgentContext, Cut, Loaded, OnDemand
from .parse import glob_list, read_meta


def skill_files(b: Builder, folder: str, deep: bool) -> list[str]:
    """`<folder>/<name>/SKILL.md` (`deep`: a SKILL.md at any depth below the folder)."""
    depth = folder.count("/") + 2
    return [rel for rel in b.fs.under(folder)
            if rel.endswith("/SKILL.md") and (deep or rel.count("/") == depth)]


def listing_line(name: str, desc: str) -> str:
    return f"- {name}: {desc}" if desc else f"- {name}"


def skill_name(data: dict, rel: str) -> str:
    return str(data.get("name") or rel.split("/")[-2]).strip()


def list_skill(b: Builder, ctx: AgentContext, rel: str, rule: str, agent: str, *, scope: str = "",
               globs_key: tuple[str, ...] = (), manual_key: str = "", taken: dict[str, str] | None = None,
               scope_how: str = "", desc_max: int = 0, with_path: bool = False) -> bool:
    """One skill: its listing line at start-up and its body on demand; listed only for files
    under `scope` (`scope_how` says when otherwise) or matching its `globs_key` globs, or only on
    `/name` when `manual_key` is true. `taken`: the names already listed (name → path): a second
    skill of a name is listed once. `desc_max`: the description's cut; `with_path`: the line
    names the file (Codex). False when the file cannot be read or holds nothing."""
    t = b.text(rel)
    if t is None or not t.text.strip():
        return False
    meta = read_meta(t.text)
    if meta.error and not meta.lenient:
        b.add("instructions.frontmatter", rel, f"{meta.error}: {agent} cannot read the skill's name and description",
              meta.line)
    data = meta.data
    name = skill_name(data, rel)
    if taken is not None:
        if name in taken:
            ctx.notes.append(f"{rel} is the skill {name} again (as {taken[name]}): listed once")
            return True
        taken[name] = rel
    desc = " ".join(str(data.get("description") or "").split())
    if desc_max and len(desc) > desc_max:
        desc = desc[:desc_max] + "..."
    if manual_key and data.get(manual_key) is True:
        ctx.on_demand.append(OnDemand(rel, f"only when you type /{name} ({manual_key})", 0, t.size, "manual",
                                      text=t.text, rule=rule))
        return True
    globs = next((glob_list(data.get(k)) for k in globs_key if data.get(k) not in (None, "", [])), [])
    if scope or globs:
        where = scope_how or (f"working on files under {scope}/" if scope else f"working on files matching "
                                                                                 f"{', '.join(globs)}")
        ctx.on_demand.append(OnDemand(rel, f"listed when {where}; the body when the skill is used", 0,
                                      t.size, "description", description=desc, text=t.text, rule=rule))
        if globs:
            b.dead_globs(rel, next(k for k in globs_key if data.get(k) not in (None, "", [])),
                         [f"{scope}/{g.lstrip('/')}" if scope else g for g in globs],
                         outcome="the skill is never listed")
        return True
    line = listing_line(name, desc) + (f" (file: {rel})" if with_path else "")
    ctx.startup.append(Loaded(rel, t.size, 0, "skill listing (name and description; body on demand)", None,
                              Cut(len(line.encode("utf-8")), "only the skill's name and description are listed"),
                              line, rule))
    ctx.on_demand.append(OnDemand(rel, "when the skill is used", 0, t.size, "description", description=desc,
                                  text=t.text, rule=rule))
    return True


def list_user_skills(b: Builder, ctx: AgentContext, folders: list[str], rule: str, why: str) -> None:
    """Your skills beside the repository (`~/.cursor/skills/...`): their listing lines, shown apart."""
    from .user import read_user, shown_path

    seen: set[str] = set()
    for folder in folders:
        full = os.path.join(b.home, folder)
        if not os.path.isdir(full):
            continue
        for dirpath, dirnames, filenames in os.walk(full):
            dirnames.sort()
            if "SKILL.md" not in filenames:
                continue
            path = os.path.join(dirpath, "SKILL.md")
            real = os.path.realpath(path)
            if real in seen:
                continue
            seen.add(real)
            for shown, text in read_user(b.home, [os.path.relpath(path, b.home)], []):
                data = read_meta(text).data
                line = listing_line(skill_name(data, shown), " ".join(str(data.get("description") or "").split()))
                ctx.add_user(shown_path(b.home, path), line, why, rule)
