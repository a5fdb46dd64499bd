"""Kiro: steering files (the Kiro steering page)."""

from __future__ import annotations

from .table import AgentTable, Rule, Source

STEERING = "https://kiro.dev/docs/steering/"
SKILLS = "https://kiro.dev/docs/skills"
_S = Source(STEERING, "2026-11-27")

TABLE = AgentTable("kiro", "Kiro", "2026-11", "2026-11-29", (
    Rule("steering.folder", ".kiro/steering",
         "`.kiro/steering/*.md` by `inclusion:`: `always` (the default) at start-up, `fileMatch` with "
         "`fileMatchPattern` for matching files, `auto` when picked by its description, `manual` on `#name`", _S),
    Rule("steering.keys", {"mode": "inclusion", "default": "always", "globs": "fileMatchPattern"},
         "the frontmatter keys `inclusion` and `fileMatchPattern`", _S, when="setting"),
    Rule("steering.include", "#[[file:", "`#[[file:path]]` pulls a file in, from the workspace root", _S),
    Rule("steering.top-level", True, "only the steering folder's own files: a file in a subfolder of "
         "`.kiro/steering/` is not read", Source("https://github.com/kirodotdev/Kiro/issues/10448", "2026-11-29",
                                                "the issue tracker (#10448, #11345), not the docs"), when="never"),
    Rule("steering.cli-all", True, "the Kiro CLI reads no `inclusion:` mode: every steering file loads at start-up "
         "there (what curator shows is the IDE's)", Source(STEERING, "2026-11-29", "\"On Kiro CLI, inclusion modes "
                                                                                   "are not currently supported\""),
         when="setting"),
    Rule("skills.folder", ".kiro/skills",
         "skills `.kiro/skills/<name>/SKILL.md`: only their `name` and `description` at start-up, the body when a "
         "request matches the description or you type `/name`", Source(SKILLS, "2026-11-29", "when skills came "
                                                                         "to the IDE is not on the page"),
         when="on demand"),
    Rule("user.steering", ".kiro/steering",
         "your global steering `~/.kiro/steering/*.md` applies to every workspace (an `AGENTS.md` there too); "
         "shown apart", Source(STEERING, "2026-11-29", "a workspace file wins over a global one on a conflict; "
                               "`fileMatch` does not fire from the global folder (kirodotdev/Kiro#9176)")),
    Rule("user.skills", ".kiro/skills", "your global skills `~/.kiro/skills/`, listed by name and description "
         "(shown apart; a workspace skill of the same name wins)", Source(SKILLS, "2026-11-29")),
    Rule("skills.same-name", "workspace", "a workspace skill and one of yours with one name: the workspace's is "
         "listed", Source(SKILLS, "2026-11-29", "\"When skills share the same name, workspace skills take "
                                                "priority\""), when="on demand"),
    Rule("agents-md", "AGENTS.md", "`AGENTS.md` at the root at start-up; a nested one for files under its folder",
         Source(STEERING, "2026-11-29", "the page says AGENTS.md files found in subdirectories are \"always "
                "included\"; Kiro's changelog says nested ones give guidance \"scoped to that part of your "
                "workspace\" (kirodotdev/Kiro#10958): curator follows the changelog")),
), versioning="date")
