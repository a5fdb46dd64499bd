"""Which agents a repository holds files for (by the rules of the versions chosen); the files
placed where no agent looks are placement.py's."""

from __future__ import annotations

from ..agents import AGENTS, RuleSet, rules_for
from .fs import RepoFS


def _rules(rulesets: dict[str, RuleSet] | None, agent: str) -> RuleSet:
    got = (rulesets or {}).get(agent)
    return got if got is not None else rules_for(agent)


def present_agents(fs: RepoFS, rulesets: dict[str, RuleSet] | None = None) -> list[str]:
    """The agents whose files the repository holds (Claude Code reads AGENTS.md since 2.1.277)."""
    files, dirs = fs.fileset, fs.dirs
    names = {f.rsplit("/", 1)[-1] for f in files}
    found = set()
    claude = _rules(rulesets, "claude-code")
    claude_dirs = [claude.value(k) for k in ("rules.folder", "skills.folder", "commands.folder", "subagents.folder")
                   if claude.has(k)]
    if names & {"CLAUDE.md", "CLAUDE.local.md"} or any(fs.under(d) for d in claude_dirs) or (
            claude.has("agents-md.fallback") and "AGENTS.md" in names):
        found.add("claude-code")
    if names & set(_rules(rulesets, "codex").value("project.names")):
        found.add("codex")
    gemini_own = (".gemini/skills", ".gemini/agents")  # its own folders (`.agents/skills` is every agent's)
    if "GEMINI.md" in names or ".gemini/settings.json" in files or any(fs.under(f) for f in gemini_own):
        found.add("gemini")
    cursor = _rules(rulesets, "cursor")
    own_skills = [f for f in cursor.value("skills.nested", ()) if f.startswith(".cursor/")]
    if fs.under(cursor.value("rules.folder")) or cursor.value("legacy.file") in files or any(
            fs.under(f) for f in own_skills) or any(
            d.endswith("/" + cursor.value("rules.folder")) for d in dirs):
        found.add("cursor")
    copilot = _rules(rulesets, "copilot")
    if copilot.value("repo.file") in files or fs.under(copilot.value("path.folder")) or fs.under(".github/skills"):
        found.add("copilot")
    cline = _rules(rulesets, "cline")
    root = cline.value("rules.root")
    if root in files or fs.under(root) or fs.under(cline.value("memory-bank.folder")["folder"]) or any(
            fs.under(f) for f in (*cline.value("rules.more-folders", ()), *cline.value("workflows.folder"))):
        found.add("cline")
    devin = _rules(rulesets, "devin")
    folders = [devin.value(k) for k in ("rules.folder", "rules.legacy-folder") if devin.has(k)]
    # the agent's own folder (`.devin/` skills and workflows, a `.devin/rules` file) says it is used
    if any(fs.under(f.split("/")[0]) for f in folders) or devin.value("legacy.file") in files:
        found.add("devin")
    kiro = _rules(rulesets, "kiro")
    if fs.under(kiro.value("steering.folder")) or (kiro.has("skills.folder") and fs.under(kiro.value("skills.folder"))):
        found.add("kiro")
    roo = _rules(rulesets, "roo")
    if fs.under(roo.value("rules.folder").split("/")[0]) or roo.value("legacy.file") in files:
        found.add("roo")
    serena = _rules(rulesets, "serena")
    if serena.value("memories.folder") in dirs or serena.value("project.initial-prompt")["files"][0] in files:
        found.add("serena")  # a project.yml alone: its initial prompt loads (a clone has no empty memories folder)
    return [a for a in AGENTS if a in found]
