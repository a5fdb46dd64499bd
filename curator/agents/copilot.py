"""GitHub Copilot: repository and path instructions (the Copilot custom instructions pages)."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

REPO = "https://docs.github.com/en/copilot/how-tos/configure-custom-instructions/add-repository-instructions"
AGENTS = "https://docs.github.com/en/copilot/how-tos/use-copilot-agents/coding-agent/create-custom-agents"
VSCODE = ("https://github.com/microsoft/vscode/blob/main/src/vs/workbench/contrib/chat/common/promptSyntax/"
          "computeAutomaticInstructions.ts")
_R = Source(REPO, "2026-11-27")
VSCODE_SKILLS = "https://code.visualstudio.com/docs/copilot/customization/agent-skills"
VSCODE_SKILLS_CODE = ("https://github.com/microsoft/vscode/blob/main/src/vs/workbench/contrib/chat/common/"
                      "promptSyntax/service/promptsServiceImpl.ts")
VSCODE_CHAT = "https://github.com/microsoft/vscode/blob/main/src/vs/workbench/contrib/chat/browser/chat.contribution.ts"
SKILLS_SINCE = "2026-02-04"  # VS Code 1.109: Agent Skills generally available and on by default

TABLE = AgentTable("copilot", "GitHub Copilot", "2026-11", "2026-11-29", (
    Rule("repo.file", ".github/copilot-instructions.md", "`.github/copilot-instructions.md` applies always", _R),
    Rule("repo.references", {"link": "[text](target)", "file": r"#file:([^\s#]+)",
                             "follow": (".instructions.md", ".prompt.md")},
         "in VS Code the workspace files `.github/copilot-instructions.md` links to (a markdown link or `#file:`, "
         "from its folder) are attached with it, whole; an instructions or prompt file among them brings its own",
         Source(VSCODE, "2026-11-29", "`_addReferencedInstructions` with the body parser's references; an image or "
                "a web link is no file"), when="start-up"),
    Rule("path.folder", ".github/instructions",
         "`.github/instructions/**/*.instructions.md` apply to the files their `applyTo` globs match "
         "(`excludeAgent` names the agent that skips one); none: only when attached by hand", _R, when="on demand"),
    Rule("path.suffix", ".instructions.md", "path instructions end in `.instructions.md`", _R, when="on demand"),
    Rule("path.keys", {"globs": "applyTo", "exclude": "excludeAgent"}, "the frontmatter keys `applyTo` and "
         "`excludeAgent`", _R, when="setting"),
    Rule("path.every-file", ("**", "**/*", "*"),
         "`applyTo` `**`, `**/*` or `*` applies to every request, with or without a file open (`*` is one of "
         "the wildcards, not \"root files only\")", Source(VSCODE, "2026-11-28", "VS Code's "
         "computeAutomaticInstructions `_matches`; GitHub's page documents only `**`"), when="start-up"),
    Rule("path.anywhere", "**/",
         "an `applyTo` glob that starts with neither `/` nor `**/` matches at any depth (`src/**/*.ts` also takes "
         "`packages/app/src/x.ts`)", Source(VSCODE, "2026-11-29", "VS Code's `_matches` prefixes such "
         "a glob with `**/` (\"support relative glob patterns\"); GitHub's page does not say how github.com reads it"),
         when="on demand"),
    Rule("path.ignore-case", True,
         "an `applyTo` glob matches a file whatever the case of either (`**/*.TS` takes `src/x.ts`)",
         Source(VSCODE, "2026-11-29", "VS Code's `_matches` calls `match(pattern, file.path, { ignoreCase: true })`; "
                "how github.com matches is not documented"), when="on demand"),
    Rule("path.listed", {"open": "<instruction>", "description": "<description>{}</description>",
                         "file": "<file>{}</file>", "globs": "<applyTo>{}</applyTo>", "close": "</instruction>"},
         "in VS Code every `.instructions.md` is listed with each request (agent mode): its description, its path "
         "and its `applyTo`, so the model can read one that did not attach",
         Source(VSCODE, "2026-11-29", "`_getInstructionsWithPatternsList`, when the read tool is on; the path is "
                "the file's absolute one, curator counts it as the repository's"), when="start-up"),
    Rule("path.whole-path", "/",
         "an `applyTo` glob that starts with `/` matches no file: the glob is matched against the file's whole path on "
         "disk (`/home/you/project/src/x.ts`), not the path in the project", Source(VSCODE, "2026-11-29", "our "
         "reading of `_matches`: it keeps a leading `/` and matches `file.path`, the absolute path of the file's URI; "
         "GitHub's page does not say how github.com reads it"), when="never"),
    Rule("review.max-chars", 4_000,
         "formerly documented: code review read only the first 4,000 characters of an instructions file",
         Source(REPO, "2026-11-27", "the sentence was removed from the page in early 2026; whether the limit is "
                "still enforced is unknown, so curator cuts nothing and only notes it"), when="cap"),
    Rule("agents-md", "AGENTS.md", "`AGENTS.md` at the root at start-up; a nested one for files under its folder "
         "(GitHub's coding agent: the nearest wins)", _R),
    Rule("agents-md.nested-vscode", "chat.useNestedAgentsMdFiles", "in VS Code a subfolder's `AGENTS.md` is only "
         "listed for the model to read, and only with `chat.useNestedAgentsMdFiles` (experimental, off by default)",
         Source(VSCODE_CHAT, "2026-11-29"), when="setting"),
    Rule("agents.folder", ".github/agents",
         "every `.md` in `.github/agents/` is a custom agent (its `description` says when to use it; its name is the "
         "file's without `name:`; the folder's own files, its README aside)", Source(AGENTS, "2026-11-29", "VS Code "
         "prefers the `.agent.md` ending and skips README.md; GitHub's coding agent reads any `.md` there"),
         when="on demand"),
    Rule("claude-md", ("CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md"),
         "in VS Code, the workspace's `CLAUDE.md`, `CLAUDE.local.md` and `.claude/CLAUDE.md` are attached to every "
         "chat request (`chat.useClaudeMdFile`, on by default)", Source(VSCODE_CHAT, "2026-11-29", "since when is "
         "not known; these rows are VS Code's and github.com's: the Copilot CLI (1.0.102, read in its npm build) "
         "loads AGENTS.md, CLAUDE.md and GEMINI.md of every folder from the git root to where it starts, never "
         "CLAUDE.local.md, and every `.instructions.md` without `applyTo` in every prompt")),
    Rule("skills.folders", (".github/skills", ".agents/skills", ".claude/skills"),
         "skills `<folder>/<name>/SKILL.md` in `.github/skills/`, `.agents/skills/` or `.claude/skills/`: name, "
         "description and path listed with every request, the body when the model reads it or you type `/name`; "
         "`disable-model-invocation: true` or no description: never listed", Source(VSCODE_SKILLS, "2026-11-29",
         "VS Code 1.109 (2026-02-04) turned `chat.useAgentSkills` on; `.agents/skills` came in a later release"),
         since=SKILLS_SINCE, when="on demand"),
    Rule("user.skills", (".copilot/skills", ".agents/skills", ".claude/skills"),
         "your skills in `~/.copilot/skills/`, `~/.agents/skills/` and `~/.claude/skills/`, listed (shown apart)",
         Source(VSCODE_SKILLS, "2026-11-29"), since=SKILLS_SINCE),
    Rule("skills.same-name", "workspace", "a workspace skill and one of yours with one name: the workspace's is "
         "listed, yours skipped", Source(VSCODE_SKILLS_CODE, "2026-11-29", "`computeSkillDiscoveryInfo` sorts the "
                                         "workspace first and skips a duplicate name"), since=SKILLS_SINCE,
         when="on demand"),
    Rule("user.files", (".copilot/copilot-instructions.md", ".claude/CLAUDE.md"),
         "your personal `~/.copilot/copilot-instructions.md` and, in VS Code, `~/.claude/CLAUDE.md` (shown apart)",
         Source(VSCODE_CHAT, "2026-11-29", "the Copilot CLI page names `$HOME/.copilot/copilot-instructions.md`")),
), versioning="date")
