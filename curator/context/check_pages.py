"""The pages of the instruction-file checks, beside the checks themselves (`checks.py`, the
adapters). Plain data, so the check registry (`checks/registry.py`) lists them without loading the
context builder, and the builder reads severities without the registry.

Each entry: (id, severity, summary, why, example, fix, fix safety). `registry.py` turns them into
`CheckSpec`s beside the memory checks: one registry, one page style."""

from __future__ import annotations

from ..agents import rules_for
from ..model.findings import Severity

W, INFO = Severity.WARNING, Severity.INFO
_HOPS = rules_for("claude-code").value("imports.max-hops")  # today's; the finding says the chosen version's
_WORDS = {4: "four", 5: "five"}.get(_HOPS, str(_HOPS))
_DEVIN, _CLAUDE, _CODEX = rules_for("devin"), rules_for("claude-code"), rules_for("codex")
_NAME, _DESC = _CLAUDE.value("skills.name-max"), _CLAUDE.value("skills.description-max")
# fix safety, as registry.FIX_SAFETY names them (plain strings: no import of the registry here)
ASKED, BY_HAND = "asked", "by hand"

INSTRUCTION_CHECKS: tuple[tuple[str, Severity, str, str, str, str, str], ...] = (
    ("instructions.import-broken", W,
     "an @import or #[[file:]] reference that reaches no file (the agent skips it silently)",
     "Claude Code and Gemini CLI drop an import that reaches nothing without a word: the instructions the "
     "author meant the agent to read never load, and nothing tells anyone.",
     "CLAUDE.md:3: @docs/testing.md  but the file was renamed to docs/tests.md",
     "Re-point the import at the file it meant: `curator fix --check instructions.import-broken` does it when "
     "exactly one file of that name is in the repository (several or none: the finding lists them; fix by hand).",
     ASKED),
    ("instructions.import-cycle", W, "imports that lead back to a file already being imported",
     "The agent stops at the cycle: what the author thought the loop brings in is read once at most, and the "
     "order the agent sees the files in is not the order written.",
     "CLAUDE.md imports @docs/a.md, which imports @../CLAUDE.md",
     "Remove the import that leads back (each file should be imported from one place).", BY_HAND),
    ("instructions.import-depth", W, f"an import deeper than the agent follows ({_HOPS} hops): it never loads",
     f"Claude Code follows imports at most {_WORDS} hops from the file it starts at (five before 2.1.210); a "
     "deeper import is silently never read.",
     "CLAUDE.md -> a.md -> b.md -> c.md -> d.md -> e.md: e.md never loads",
     "Import the deep file from a shallower one (or from CLAUDE.md itself).", BY_HAND),
    ("instructions.import-outside", INFO,
     "an import of a file outside the repository: needs approval, never loads in `claude -p`",
     "Claude Code asks once before loading a file outside the project and never loads it in `claude -p` or CI: "
     "teammates and automation run without it.",
     "CLAUDE.md:5: @~/.claude/my-project-notes.md",
     "Move what every run needs into the repository; keep personal notes in CLAUDE.local.md.", BY_HAND),
    ("instructions.cap", W, "a file or a combined chain past an agent's cap: the part cut never reaches the agent",
     f"Agents read instruction files only up to a cap (Codex {_CODEX.value('project.max-bytes') // 1024} KiB of "
     "AGENTS.md chain, Devin Desktop "
     f"(Windsurf) {_DEVIN.value('rules.max-chars'):,} characters a rule): whatever is past it is never seen, usually "
     "the newest lines.",
     "AGENTS.md (38,000 bytes): Codex reads 32,768; the last 5,232 bytes are cut",
     "Split the file: keep what every task needs in the always-loaded file, move the rest to files loaded on "
     "demand (nested AGENTS.md, path-scoped rules).", BY_HAND),
    ("instructions.dead-glob", W, "a rule's globs (paths, globs, applyTo, fileMatchPattern) match no file in the repository",
     "A rule scoped to paths that match nothing never loads: the code it was written for was moved or the "
     "pattern is wrong.",
     ".claude/rules/api.md: paths: src/api/**/*.ts  but the API lives in packages/api/",
     "Point the globs at where the files are now, or delete the rule.", BY_HAND),
    ("instructions.foreign-keys", W, "another agent's keys in a rule (globs:/alwaysApply: in .claude/rules do nothing)",
     "Rules copied from Cursor keep `globs:` and `alwaysApply:`; Claude Code reads only `paths:`, so the rule "
     "it was meant to attach to some files loads at every start-up instead.",
     ".claude/rules/react.md: globs: src/**/*.tsx  (Claude Code ignores it; the rule always loads)",
     "Translate the keys: `curator fix --check instructions.foreign-keys` renames `globs:` to `paths:` and "
     "drops `alwaysApply:` (the rule then loads only for matching files).",
     ASKED),
    ("instructions.string-bool", W, "alwaysApply given as a string (\"true\"): the rule is not always applied",
     "Cursor reads `alwaysApply: \"true\"` as a string, not a boolean: the rule the author meant for every "
     "chat is applied only when its globs or description pick it.",
     ".cursor/rules/style.mdc: alwaysApply: \"true\"",
     "Write the boolean: `curator fix --check instructions.string-bool` turns `\"true\"` into `true`.", ASKED),
    ("instructions.frontmatter", W, "rule frontmatter the agent cannot read: the rule's settings are lost",
     "An agent that cannot parse a rule's frontmatter drops all of it: a path-scoped rule loads everywhere, a "
     "skill loses its description and is picked by its folder name.",
     ".claude/rules/api.md: ---\\npaths:\\n  - src/api/**\\n - src/lib/**\\n---  (the second item is out of line: "
     "not YAML, even read again with its values quoted)",
     "Fix the YAML (quote values with `:` or `*`, close brackets) so the block parses.", BY_HAND),
    ("instructions.unreadable", W, "an instruction file that cannot be read as text (binary, not UTF-8, too large, "
     "special)",
     "An agent cannot use an instruction file it cannot read, and one that is not UTF-8 (saved in a legacy code page) "
     "reaches the model with � in place of every byte that is not: accents and symbols are lost. curator reports "
     "it rather than guess, and will not edit such a file.",
     "CLAUDE.md saved in Windows-1252: not UTF-8 (byte 112): agents read it with � in place of each byte that is not",
     "Re-save the file as UTF-8 text.", BY_HAND),
    ("instructions.symlink-outside", W, "an instruction file that is a symbolic link leaving the repository (not followed)",
     "A symbolic link out of the repository points at a file only one machine has: everyone else's agent "
     "loads nothing, and curator never reads outside the repository.",
     "AGENTS.md -> /home/alice/notes/agents.md",
     "Commit the file itself, or a link to a file inside the repository.", BY_HAND),
    ("instructions.link-as-text", W, "an instruction file whose whole text is the path of another file: a "
     "symbolic link checked out as a plain file",
     "Git checks out a symbolic link as a small file holding the link's target where links are off "
     "(`core.symlinks=false`, the default on Windows). A CLAUDE.md linked to AGENTS.md then holds the nine "
     "characters `AGENTS.md`: every agent reads them, and none gets the instructions.",
     "CLAUDE.md: AGENTS.md  (9 bytes, no newline; in git a link to AGENTS.md)",
     "Turn links on and check the file out again (`git config core.symlinks true`, then `git checkout -- FILE`; "
     "on Windows with Developer Mode on), or commit a real file: for Claude Code a CLAUDE.md holding "
     "`@AGENTS.md`.", BY_HAND),
    ("instructions.drifted-copy", W, "two agents' instruction files that were copies and have drifted apart",
     "A CLAUDE.md and an AGENTS.md kept as copies tell two agents different things once one is edited alone: "
     "the stale one gives the old instructions.",
     "CLAUDE.md and AGENTS.md share 40 of 46 lines; 3 lines only in CLAUDE.md, 3 only in AGENTS.md",
     "Keep one file and import it from the other (`@AGENTS.md` in CLAUDE.md) or link it.", BY_HAND),
    ("instructions.missing-path", W, "a repository path named in instructions that does not exist",
     "Instructions that name a file which was renamed or deleted send the agent looking for it: a wasted "
     "tool call at best, an invented file at worst.",
     "AGENTS.md:12: run `scripts/check.sh` before committing  but scripts/ holds only lint.sh",
     "Name the file as it is now, or drop the line: `curator fix --check instructions.missing-path` re-points "
     "it when git recorded the move, or exactly one file of that name is under the folder named (else in the "
     "repository); several: the finding lists them, fix by hand.", ASKED),
    ("instructions.description-collision", W, "agent-requested rules or skills whose descriptions share most words",
     "Agents pick skills and agent-requested rules by their descriptions the way routing picks index rows by "
     "keywords: two that share most words are picked at random, or both.",
     ".claude/skills/deploy and .claude/skills/release: 'deploy the web app to production with the release "
     "checklist' vs 'release the web app to production following the checklist'",
     "Make each description say what only it covers (its trigger words), or merge the two.", BY_HAND),
    ("instructions.no-description", W,
     "a skill, subagent, custom agent or agent-requested rule with nothing to pick it by (a subagent without "
     "name and description is never registered)",
     "Agents list skills, subagents and agent-requested rules by their descriptions and pick one when a task "
     "matches: with no description the item is listed with a bare title (or not at all — a Claude Code subagent "
     "needs `name` and `description`), so it is never chosen and the work it holds is never used.",
     ".claude/agents/reviewer.md: `## Model opus` as a heading, no frontmatter: Claude Code never registers the "
     "subagent",
     "Add frontmatter that says when to use it: `---\\nname: reviewer\\ndescription: Reviews a diff for "
     "correctness before a commit\\n---` (a `model_decision` or `inclusion: auto` rule needs its "
     "`description:` too).", BY_HAND),
    ("instructions.misplaced", W,
     "an instruction file where no agent looks for it (a rule folder that is a file, a root-only file below the "
     "root, a skill or path instruction outside its folder)",
     "Each agent reads its files from fixed places: `.devin/rules/` is a folder, `.clinerules` and `.cursorrules` "
     "are read at the workspace root only, a skill is `<name>/SKILL.md` in a skills folder, Copilot's path "
     "instructions live in `.github/instructions/`. A file anywhere else is read by no agent, and nothing says so: "
     "the rules it holds are silently inactive.",
     ".devin/rules (a file): Devin Desktop reads the rule files inside a .devin/rules/ folder",
     "Move the file where the agent reads it (the finding says where): `curator fix --check "
     "instructions.misplaced` moves it when there is exactly one right place and nothing there yet (a flat "
     "skill into its folder, a path instruction into .github/instructions/); else by hand.", ASKED),
    ("instructions.cursor-md", W, "a plain .md in .cursor/rules: Cursor reads only .mdc project rules",
     "Cursor's project rules are `.mdc` files; a `.md` beside them is ignored, frontmatter and all, so a rule "
     "written as `alwaysApply: true` never reaches the agent.",
     ".cursor/rules/backend.md  (alwaysApply: true, never applied)",
     "Rename it to .mdc: `curator fix --check instructions.cursor-md` does it when no .mdc of that name exists "
     "(the frontmatter keeps its meaning).", ASKED),
    ("instructions.redundant-import", W, "an @import of a file the agent loads anyway at start-up",
     "A `.claude/rules` file without `paths:` and the root CLAUDE.md files load at every start-up by themselves: "
     "importing one as well adds nothing but a second place to keep in step (and, where the agent does not see "
     "that it is the same file, a second copy in the context).",
     "CLAUDE.md:12: @.claude/rules/testing.md  (.claude/rules/testing.md has no paths: it loads anyway)",
     "Drop the import: `curator fix --check instructions.redundant-import` removes it (the line when it holds "
     "nothing else).", ASKED),
    ("instructions.startup-budget", W,
     "an agent's start-up load over its budget (a share of the context window) where the agent caps nothing itself",
     "Codex stops at 32 KiB, but Claude Code, Cline, Cursor, Copilot, Gemini CLI, Kiro and Roo load every "
     "always-on file in full at every start: a memory bank or a rule set that grows is paid on every task, before "
     "any work, and crowds out the code the agent needs to read.",
     "memory-bank/ (54 files): Cline loads 171,741 tokens at every task start, 86% of a 200,000-token context",
     "Keep what every task needs always on and make the rest on demand (path-scoped or agent-requested rules, "
     "imports in nested files, archived memory-bank history). The budget is `.curator.yaml` `budgets:` "
     "`agent-startup` ({agent_startup}) of a `context-window` of {context_window} tokens; a value above 1 is tokens.",
     BY_HAND),
    ("instructions.dead-glob-part", INFO, "part of a rule's glob list matches no file while another part does",
     "A glob that matches nothing beside one that does is usually a pattern the code outgrew (`**/*.spec.ts` "
     "beside a live `**/*.test.ts`) or one copied from another project: harmless today, misleading to whoever "
     "reads the rule (the whole list matching nothing is instructions.dead-glob).",
     ".cursor/rules/tests.mdc: globs: **/*.test.ts, **/*.spec.ts  (no .spec.ts file in the repository)",
     "Drop the parts that match nothing, or point them at where those files are now.", BY_HAND),
    ("instructions.dead-negation", W,
     "a `!` line of a Claude Code rule's or skill's `paths:` that takes back none of the files it names",
     "Claude Code reads `paths:` as .gitignore lines after dropping a trailing `/**`: `!src/gen/**` becomes "
     "`!src/gen`, a line about the folder, which takes back no file `src/**/*.ts` matched; and after `src/**` "
     "(read as `src`) no file inside `src/` can be taken back at all. The rule then loads for the very files the "
     "line was written to leave out.",
     ".claude/rules/api.md: paths: src/**/*.ts, !src/generated/**  (the rule still loads for src/generated/client.ts)",
     "Name the files in the `!` line (`!src/generated/**/*`), and match files rather than a whole folder in the "
     "lines before it (`src/**/*.ts`, not `src/**`).", BY_HAND),
    ("instructions.agents-md-unread", W,
     "an AGENTS.md Claude Code never reads: a CLAUDE.md (or CLAUDE.local.md) there counts instead and imports "
     "nothing of it",
     "Since 2.1.277 Claude Code reads AGENTS.md only where no CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md "
     "is found: a CLAUDE.md that merely names AGENTS.md (`Follow AGENTS.md first` is text, not an import) "
     "silences it, and a personal CLAUDE.local.md silences it for that developer alone. The guidance in "
     "AGENTS.md then reaches every agent but Claude.",
     "CLAUDE.md:3: Follow `AGENTS.md` first.  (not @AGENTS.md: the canonical rules never load)",
     "Import it: `curator fix --check instructions.agents-md-unread` adds `@AGENTS.md` after the line that "
     "names it (or at the top of the file).", ASKED),
    ("skills.name-length", W, f"a skill name over {_NAME} characters",
     f"Claude Code rejects or truncates a skill name over {_NAME} characters: the skill may not be listed at all.",
     ".claude/skills/x/SKILL.md: name: a-very-long-name-that-describes-everything-the-skill-does-in-one-go",
     f"Shorten the name to {_NAME} characters or fewer (lowercase words and hyphens).", BY_HAND),
    ("skills.description-length", W, f"a skill description over {_DESC:,} characters",
     f"The description is what the agent sees at start-up to pick the skill; past {_DESC:,} characters it is cut, "
     "so the words that would pick the skill may be lost.",
     ".claude/skills/pdf/SKILL.md: description of 1,800 characters",
     "Keep the description to when to use the skill; move the how into the SKILL.md body.", BY_HAND),
    ("skills.budget", W, "the skills listing over its start-up budget (least-used skills collapse to bare names)",
     f"Claude Code lists every skill's name and description at start-up within a budget "
     f"(~{_CLAUDE.value('skills.listing-budget'):,} characters); "
     "past it the least-used skills show only their names and are rarely picked.",
     ".claude/skills: 60 skills, listing 11,200 characters",
     "Shorten descriptions, merge near-identical skills, or move rarely used ones out of the project.", BY_HAND),
)
SEVERITY = {c[0]: c[1] for c in INSTRUCTION_CHECKS}
