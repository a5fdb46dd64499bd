"""The pages of the checks that read the agent's own sessions (curator/proof/findings.py emits them):
plain data, so the check registry lists them without reading a transcript. Each entry: (id,
severity, summary, why, example, fix, fix safety), as `context/check_pages.py` writes them;
thresholds are `{names}` filled from the live config."""

from __future__ import annotations

from ..model.findings import Severity

W, INFO = Severity.WARNING, Severity.INFO
BY_HAND = "by hand"

SESSION_CHECKS: tuple[tuple[str, Severity, str, str, str, str, str], ...] = (
    ("sessions.model-contradicted", W,
     "a real session loaded what curator's model says it does not (or did not load what it says it does)",
     "curator tells you what the agent loads from a model of the agent's rules, version by version. Since "
     "Claude Code 2.1.276 every session writes down what it put into the context: when a session of some version "
     "disagrees with the rules curator applies for that version, either the agent changed (a new version reads "
     "another file) or the rule is wrong — and every number curator shows for that file is wrong with it.",
     "AGENTS.md: Claude Code 2.1.290 (session 3f2a1b9c, 2026-11-19) loaded it at start-up; the rule "
     "claude-code/agents-md.fallback@2.1.277 says it never loads (CLAUDE.md counts)",
     "Read the session (`curator sessions --show ID`) and the rule's source (`docs/agents.md`): a setting that "
     "session ran with (instructionFiles, claudeMdExcludes) explains some; a new agent version that loads "
     "otherwise is a rule to add to curator (report it). `curator context --verify` lists every session.",
     BY_HAND),
    ("sessions.unused-instructions", INFO,
     "a skill, command, subagent, `paths:` rule or nested file none of the last {unused_sessions} sessions used "
     "(nor any in {unused_days} days)",
     "Every skill's description rides on every API call of every session, and a rule nobody triggers is "
     "instructions nobody reads. Only sessions whose version records what they attach count, and only once there "
     "are {unused_sessions} of them: fewer say nothing either way.",
     ".claude/skills/release-notes/SKILL.md: none of the last {unused_sessions} sessions invoked it "
     "(last 2026-08-02); its listing line cost 310,000 tokens",
     "Delete it, merge it into a skill that is used, or sharpen its description so the agent picks it. "
     "`curator usage` shows every file's sessions, last use and cost.",
     BY_HAND),
    ("sessions.listing-dropped", W,
     "a skill whose description the skill listing dropped (over its budget, the least-invoked are listed bare)",
     "Claude Code lists every skill's name and description within a budget (1% of the context window); past it, "
     "the least-invoked skills are listed by name alone, and the agent no longer picks them from what you ask — "
     "they fire only when typed as /name. The sessions' own listings show which; with none, curator builds the "
     "listing the way the agent does.",
     ".claude/skills/changelog/SKILL.md: listed bare in session 9c2e1d4a (2026-11-19): its description (\"Use "
     "when ...\") never reached the agent",
     "Shorten descriptions (the trigger words first), remove skills nobody uses, or raise "
     "skillListingBudgetFraction in ~/.claude/settings.json.",
     BY_HAND),
    ("sessions.glob-never-attached", W,
     "a `paths:` rule that never attached although sessions read files its globs match",
     "A rule with `paths:` reaches the agent only when it reads a matching file. When sessions read such files "
     "and the rule never appears in any of them, the globs do not do what their author meant (a pattern the agent "
     "reads otherwise, a folder that moved, YAML that did not parse as a list).",
     ".claude/rules/api.md: paths: src/api/**  — 4 sessions read src/api/routes.ts, none attached the rule",
     "Check the globs against the files the sessions read (`curator context --verify` names them); quote "
     "patterns that start with `*` or a brace in YAML.",
     BY_HAND),
)
SEVERITY = {c[0]: c[1] for c in SESSION_CHECKS}
