"""The ids, default severities and summaries of the instruction-file checks (plain data, so the
check registry lists them without importing the context package)."""

from __future__ import annotations

from ..model.findings import Severity

W, INFO = Severity.WARNING, Severity.INFO

INSTRUCTION_CHECKS: tuple[tuple[str, Severity, str], ...] = (
    ("instructions.import-broken", W, "an @import or #[[file:]] reference that reaches no file (the agent skips it silently)"),
    ("instructions.import-cycle", W, "imports that lead back to a file already being imported"),
    ("instructions.import-depth", W, "an import deeper than the agent follows (5 hops): it never loads"),
    ("instructions.import-outside", INFO, "an import of a file outside the repository: needs approval, never loads in `claude -p`"),
    ("instructions.cap", W, "a file or a combined chain past an agent's cap: the part cut never reaches the agent"),
    ("instructions.dead-glob", W, "a rule's globs (paths, globs, applyTo, fileMatchPattern) match no file in the repository"),
    ("instructions.foreign-keys", W, "another agent's keys in a rule (globs:/alwaysApply: in .claude/rules do nothing)"),
    ("instructions.string-bool", W, "alwaysApply given as a string (\"true\"): the rule is not always applied"),
    ("instructions.frontmatter", W, "rule frontmatter the agent cannot read: the rule's settings are lost"),
    ("instructions.unreadable", W, "an instruction file that cannot be read (binary, not UTF-8, too large, special)"),
    ("instructions.symlink-outside", W, "an instruction file that is a symbolic link leaving the repository (not followed)"),
    ("instructions.drifted-copy", W, "two agents' instruction files that were copies and have drifted apart"),
    ("instructions.missing-path", W, "a repository path named in instructions that does not exist"),
    ("instructions.description-collision", W, "agent-requested rules or skills whose descriptions share most words"),
    ("skills.name-length", W, "a skill name over 64 characters"),
    ("skills.description-length", W, "a skill description over 1,024 characters"),
    ("skills.budget", W, "the skills listing over its start-up budget (least-used skills collapse to bare names)"),
)
SEVERITY = {cid: sev for cid, sev, _ in INSTRUCTION_CHECKS}
