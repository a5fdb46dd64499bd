"""The one registry of checks: for each id its default severity, the family module(s) that emit
it, what it reads and its page — what it does, why it matters, an example, its fix and how safe
that fix is. Thresholds in the texts are `{names}` filled from the live config (`rule_values`),
so a `.curator.yaml` that changes one is what `check --list` and `--explain` print."""

from __future__ import annotations

from dataclasses import dataclass

from ..base.config import Config
from ..model.findings import Severity
from ..model.formats import CLAUDE, EXPERIENCE, FORMATS, SERENA, SERENA_TIERED

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
ALL = frozenset(FORMATS)
TIERED = frozenset({SERENA_TIERED})
PLAIN = frozenset({SERENA, CLAUDE})  # stores with no tier folders of their own


# a check's scope: what one of its findings is about
PER_FILE = "per-file"  # one file, from that file alone (and the names of the others)
PER_INDEX = "per-index"  # one index file, from its rows (and the names they point at)
STORE_WIDE = "store-wide"  # the store as a whole (several files at once)
SCOPES = (PER_FILE, PER_INDEX, STORE_WIDE)

# what a check reads (a re-check runs a store-wide check only when one of these changed)
TEXT, TOKENS, INDEXES, NAMES = "text", "tokens", "indexes", "names"

# how far `curator fix` goes for a check's findings
SAFE = "safe"  # planned unasked by `curator fix` (nothing lost, nothing guessed)
ASKED = "asked"  # planned only when asked for: `curator fix --check ID`
SOME_SAFE = "some safe"  # the mechanical cases unasked, the others when asked for
BY_HAND = "by hand"  # no automatic fix
FIX_SAFETY = {
    SAFE: "safe — `curator fix` plans it unasked; every plan is previewed as a diff and undoable",
    SOME_SAFE: "partly safe — the mechanical cases are planned unasked, the rest with `curator fix --check {id}`",
    ASKED: "on request — `curator fix --check {id}` plans it (previewed, undoable); it changes what the agent retrieves",
    BY_HAND: "none — fixed by hand (curator shows where)",
}


@dataclass(frozen=True, slots=True)
class CheckSpec:
    id: str
    severity: Severity
    summary: str  # one line; may name thresholds ("{uniqueness}")
    family: tuple[str, ...]  # the modules of curator/checks that emit it
    formats: frozenset[str] = ALL  # the memory formats the check means something for
    scope: str = STORE_WIDE
    reads: frozenset[str] = frozenset({TEXT, TOKENS, INDEXES, NAMES})
    why: str = ""
    example: str = ""
    fix: str = ""
    fix_safety: str = BY_HAND

    def applies_to(self, fmt: str) -> bool:
        return fmt in self.formats

    def reads_any(self, changed: set[str] | frozenset[str]) -> bool:
        return bool(self.reads & changed)

    def text(self, field: str = "summary", config: Config | None = None) -> str:
        """One of the page's texts with its thresholds from `config` (default: the defaults)."""
        return getattr(self, field).format_map(rule_values(config or Config()))

    def severity_in(self, config: Config | None) -> str:
        """The severity a store's config gives it (`severity:` in .curator.yaml), else the default."""
        return ((config.severity.get(self.id) if config else None) or self.severity.label).lower()


def rule_values(config: Config) -> dict[str, str]:
    """The thresholds the pages name, formatted as a person reads them."""
    t, b = config.thresholds, config.budgets
    ttl = ", ".join(f"{tier} {days} days" for tier, days in sorted(config.ttl_days.items())) or "none"
    share = b.agent_startup
    return {
        "agent_startup": f"{share:g} ({share:.0%} of the window)" if share <= 1 else f"{int(share):,} tokens",
        "context_window": f"{b.context_window:,}",
        "uniqueness": f"{t.uniqueness:.0%}",
        "min_keywords": str(t.min_keywords),
        "collision_row": f"{t.collision_row:.0%}",
        "collision_rate": f"{t.collision_rate:.0%}",
        "size_warn_chars": f"{t.size_warn_chars:,}",
        "size_error_chars": f"{t.size_error_chars:,}",
        "max_h2": str(t.max_h2),
        "max_h1": str(t.max_h1),
        "near_jaccard": f"{t.near_jaccard:g}",
        "near_containment": f"{t.near_containment:g}",
        "shingle": str(t.shingle),
        "max_file_bytes": f"{t.max_file_bytes / 1_000_000:.1f} MB",
        "unused_sessions": str(t.unused_sessions),
        "unused_days": str(t.unused_days),
        "budget_startup": f"{b.startup:,}",
        "budget_l0": f"{b.l0:,}",
        "budget_domain_index": f"{b.domain_index:,}",
        "budget_memory": f"{b.memory:,}",
        "ttl": ttl,
    }


def _spec(id, severity, summary, family, formats=ALL, *, scope, reads, why, example, fix, safety=BY_HAND):
    return CheckSpec(id, severity, summary, tuple(family.split()), frozenset(formats), scope, frozenset(reads),
                     why, example, fix, safety)


CHECKS: dict[str, CheckSpec] = {c.id: c for c in (
    _spec("index.missing-target", E, "an L0 link or L1 row points at no file", "index_checks",
          scope=PER_INDEX, reads={INDEXES, NAMES},
          why="The agent follows the index to load a memory; a row to nothing costs tokens and finds nothing.",
          example="skills-git-index.md: | rebase squash | [git-rebase](git/git-rebase.md) |  but git/git-rebase.md was renamed",
          fix="Re-point the row at the file it was renamed or moved to, or drop the dead row.",
          safety=SOME_SAFE),
    _spec("index.unsafe-target", E, "a target is absolute, escapes the store, or is a symlink leaving it", "index_checks",
          scope=PER_INDEX, reads={INDEXES, NAMES},
          why="An index must only route inside the store: a path outside it can load anything on the machine.",
          example="| secrets | [keys](../../.ssh/id_rsa) |",
          fix="Drop the row (curator never follows the target).", safety=ASKED),
    _spec("index.format", E, "a domain index holds anything but its keyword table", "index_checks", TIERED,
          scope=PER_INDEX, reads={INDEXES},
          why="ADR-017 domain indexes are read whole on every route: prose in them is paid for on every lookup.",
          example="skills-git-index.md: a paragraph of notes under the | Keywords | File | table",
          fix="Move the prose into a memory file and link it from a row."),
    _spec("index.duplicate-entry", E, "the same target twice in one index", "index_checks",
          scope=PER_INDEX, reads={INDEXES},
          why="Two rows for one file split its keywords: neither row wins a lookup it should.",
          example="| rebase | [git-rebase](git/git-rebase.md) |  and later  | squash | [git-rebase](git/git-rebase.md) |",
          fix="Merge the repeated row's keywords into the first and drop it; in a MEMORY.md, the repeated "
              "`- [Title](file.md) — hook` line's title and hook join the first line (a line adding nothing just goes).",
          safety=SOME_SAFE),
    _spec("index.unrouted", E, "a domain index that memory-index.md does not link", "index_checks", TIERED,
          scope=STORE_WIDE, reads={INDEXES, NAMES},
          why="The agent starts at memory-index.md: a domain index it does not link is never reached.",
          example="skills-docker-index.md exists but memory-index.md has no row for it",
          fix="Add a row for it to memory-index.md (keywords from its rows).", safety=ASKED),
    _spec("naming.skill-prefix", E, "a file basename starting with the deprecated `skill-` prefix", "naming_checks", TIERED,
          scope=PER_FILE, reads={NAMES, INDEXES},
          why="ADR-017 retired the `skill-` prefix; tools that glob the new names miss these files.",
          example="skill-git-rebase.md",
          fix="Rename the file without the prefix and update the rows that link it."),
    _spec("naming.case", W, "a basename that is not kebab-case (ADR-017 names only)", "naming_checks", TIERED,
          scope=PER_FILE, reads={NAMES},
          why="Mixed naming makes the same memory easy to write twice under two names.",
          example="Git_Rebase.md", fix="Rename it in kebab-case (git-rebase.md) and update the rows that link it."),
    _spec("keywords.uniqueness", E, "in a strict index, under {uniqueness} of a row's keywords are its own", "keyword_checks", TIERED,
          scope=STORE_WIDE, reads={INDEXES},
          why="Routing picks a row by its keywords; a row whose words other rows also use is picked at random.",
          example="| git commit push | [a](a.md) |  and  | git commit pull | [b](b.md) |: a has one word of three ({uniqueness} needed)",
          fix="Edit the row's keywords (`curator keywords`: the meter shows the share as you type)."),
    _spec("keywords.too-few", W, "a domain-index row with fewer than {min_keywords} keywords", "keyword_checks", TIERED,
          scope=PER_INDEX, reads={INDEXES},
          why="A row with few keywords is found only by those exact words.",
          example="| rebase | [git-rebase](git/git-rebase.md) |  (1 keyword; {min_keywords} expected)",
          fix="Add keywords the memory is about (`curator keywords` suggests them from its text)."),
    _spec("keywords.collision", W, "rows in different indexes share {collision_row} of their keywords, or a domain's collision rate is over {collision_rate}",
          "keyword_checks", TIERED, scope=STORE_WIDE, reads={INDEXES},
          why="Two domains claiming the same words route a query to both: the agent loads twice what it needs once.",
          example="skills-git-index.md and skills-ci-index.md both route 'pipeline cache retry'",
          fix="Keep the words in the domain the memory belongs to; make the other row's keywords specific."),
    _spec("orphan.unindexed", W, "a memory its store's index does not list (one finding for a store with no index)", "orphan_checks",
          scope=STORE_WIDE, reads={INDEXES, NAMES, TEXT},
          why="The agent reaches memories through the index: an unlisted memory is never loaded.",
          example="git/git-bisect.md is in the store but no index row links it",
          fix="Add a row for it to the index it belongs in (keywords suggested from its text).", safety=ASKED),
    _spec("size.chars", W, "a file of {size_warn_chars} characters or more (error over {size_error_chars}; ADR-017 atomic memories)",
          "content_checks", TIERED, scope=PER_FILE, reads={TEXT},
          why="A memory is loaded whole: a long one spends the context on parts the task does not need.",
          example="knowledge/architecture.md: 12,400 characters",
          fix="Split it into atomic memories, one topic each, each with its own row."),
    _spec("size.headings", W, "more than {max_h2} `##` or {max_h1} `#` headings outside code (ADR-017 atomic memories)",
          "content_checks", TIERED, scope=PER_FILE, reads={TEXT},
          why="Many headings mean many topics in one file: it is loaded for any of them.",
          example="notes.md: 22 `##` headings", fix="Split it by heading into atomic memories."),
    _spec("frontmatter.invalid", E, "frontmatter unclosed, not a mapping, or behind a BOM", "content_checks",
          scope=PER_FILE, reads={TEXT},
          why="Tools that read the frontmatter (Claude Code's memory loader) skip or misread the file.",
          example="---\\nname: x\\n(no closing ---)", fix="Close the block with `---` and keep it `key: value` pairs."),
    _spec("frontmatter.missing", W, "a memory without the frontmatter its format expects (Claude Code: name, description, type)",
          "format_checks", {CLAUDE}, scope=PER_FILE, reads={TEXT},
          why="Claude Code shows and selects memories by their name and description.",
          example="project_notes.md with no --- block", fix="Add name, description and type."),
    _spec("tokens.stale-count", W, "an L0 (N) token count that differs from the real count", "budget_checks", TIERED,
          scope=STORE_WIDE, reads={TOKENS, INDEXES, NAMES},
          why="The agent decides what to load from these counts; a stale one misjudges the cost.",
          example="|git rebase: [git-rebase](git/git-rebase.md) (120)  but the file is 410 tokens",
          fix="Refresh the counts (`curator refresh`).", safety=SAFE),
    _spec("budget.over", W, "a file, index, tier or the start-up load over its budget", "budget_checks",
          scope=STORE_WIDE, reads={TOKENS, NAMES},
          why="Budgets keep what the agent loads small: start-up {budget_startup}, memory-index.md {budget_l0}, "
              "a domain index {budget_domain_index}, a memory {budget_memory} tokens.",
          example="memory-index.md: 2,300 tokens (budget {budget_l0})",
          fix="Split or trim the file; move rarely used memories to a tier that is not loaded at start-up."),
    _spec("budget.past-cap", W, "lines of the always-loaded index past the agent's load cap (never seen)", "format_checks", {CLAUDE},
          scope=STORE_WIDE, reads={INDEXES},
          why="As auto memory, Claude Code loads only the first 200 lines / 25 KB of MEMORY.md: the rest is invisible "
              "to it. (A MEMORY.md that CLAUDE.md imports loads whole: no cap, no finding.)",
          example="MEMORY.md: 260 lines; lines 201-260 are never loaded",
          fix="Move the pointers past the cap into topic files, or drop stale ones."),
    _spec("duplicate.near", W, "near-duplicate memories", "duplicate_checks",
          scope=STORE_WIDE, reads={TEXT, NAMES},
          why="The same knowledge twice costs tokens twice and drifts apart: one copy goes stale.",
          example="git/rebase.md and workflow/rebasing.md share {near_jaccard} of their {shingle}-word shingles "
                  "(or one holds {near_containment} of the other)",
          fix="Merge them into one memory and drop or re-point the other's rows."),
    _spec("duplicate.topic", INFO, "memories on the same topic with little shared text (with the semantic source)", "topical_checks",
          scope=STORE_WIDE, reads={TEXT, NAMES},
          why="Two memories about one topic in other words split what the agent knows: it loads one and misses the other. "
              "Two records of one area are not one topic: a pair whose names make them two records is not reported "
              "(two records dated on different days, two entries of an experience log, or two numbered items of one "
              "series, whose names each say something the other's does not: upload_backend_0301 and upload_ui_0302, "
              "lint-004-all-files and lint-005-all-patterns).",
          example="docs/BEST_PRACTICES.md and docs/CONSOLIDATED_BEST_PRACTICES.md: meaning 0.91 alike, few shared sentences",
          fix="Merge the two into one memory (keep the newer facts) and drop or re-point the other."),
    _spec("links.broken", W, "a markdown link inside a memory that reaches nothing", "content_checks format_checks",
          scope=PER_FILE, reads={TEXT, NAMES},
          why="A link the agent follows to nothing wastes a tool call and hides the knowledge it meant. A link "
              "reaches a file from its own folder or the repository root, and in a Serena store also as a "
              "memory name from the store root (Serena reads memories by name).",
          example="git/rebase.md: see [conflicts](../git/conflicts.md)  but that file does not exist",
          fix="Point the link at the file it meant (the finding names a likely one) or remove it."),
    _spec("experience.unpaired", INFO, "an experience entry without its summary twin, or a summary whose entry is gone", "format_checks",
          {EXPERIENCE}, scope=STORE_WIDE, reads={NAMES},
          why="Experience stores keep each entry and its summary in step; one without the other is half a record.",
          example="error-experience/entries/2026-01-02-flaky-ci.md with no summary/entries/2026-01-02-flaky-ci.md",
          fix="Write the missing summary, or remove the leftover one."),
    _spec("transient.expired", INFO, "a transient record older than its tier's TTL ({ttl}); a folder of many, one finding",
          "transient_checks", scope=STORE_WIDE, reads={TEXT, NAMES},
          why="Transient notes (validation, reflection) are meant to be read soon and dropped; old ones crowd retrieval. "
              "Only where the store declares tiers (ADR-002 folders or frontmatter, .curator.yaml tiers): a plain "
              "store's dated hand-offs are memories its agent is told to read, with no TTL.",
          example="validation/2026-01-05-run.md, 320 days old (transient 30 days); 266 transient records are past "
                  "the transient tier's 30 days (oldest session_2025-11-02_09-14.md, ...)",
          fix="Prune it (archived under .curator/archive/) or promote it if it still holds; `curator prune` "
              "archives every expired record at once.", safety=ASKED),
    _spec("transient.unpruned", INFO, "most of the store is transient records (dated session and hand-off logs)", "transient_share", PLAIN,
          scope=STORE_WIDE, reads={NAMES, TOKENS},
          why="Session hand-offs are read once; a store made mostly of them buries the lasting knowledge under them. "
              "Only where the store declares tiers: a plain store's dated logs are memories there.",
          example=".serena/memories: 41 of 52 files are dated session logs (session_2026-03-02.md, handoff-…)",
          fix="Prune the old logs (`curator prune`: archived, undoable) and promote what still holds."),
    _spec("store.foreign-file", W, "a file in a memory folder that is not a memory (not markdown, or a tool's config)", "loader", PLAIN,
          scope=PER_FILE, reads={NAMES},
          why="Agents list every file of a memory folder; a config or data file there is noise, and a sign it was written to the wrong folder.",
          example=".serena/memories/.eslintrc.cjs",
          fix="Move the file to where its tool reads it, or delete it."),
    _spec("store.superseded", INFO, "a memory that says at its top it is superseded, archived, deprecated or obsolete",
          "superseded_checks", scope=PER_FILE, reads={TEXT},
          why="Its author retired it (`SUPERSEDED — see x.md`, `> **DEPRECATED**: this memory is historical`): kept "
              "among the live memories it is still retrieved, and an index fix would even list it.",
          example="retrospective/learnings-2026-01.md: '# Session 826 Learnings (DEPRECATED)'",
          fix="Archive it (`curator fix --check store.superseded`: moved under .curator/archive/, its index rows "
              "dropped; `curator undo` brings it back); or delete the marker if it still holds.", safety=ASKED),
    _spec("duplicate.name", W, "two memories whose names say they are versions of one (CONSOLIDATED, FINAL, V2, ...)",
          "name_duplicates", scope=STORE_WIDE, reads={NAMES},
          why="`X_BEST_PRACTICES` beside `X_CONSOLIDATED_BEST_PRACTICES`: the newer was meant to replace the older, "
              "which stayed; the agent reads either, and their texts have often drifted too far apart for the "
              "shingle comparison to see it.",
          example="SERENA_MEMORY_BEST_PRACTICES.md and SERENA_MEMORY_CONSOLIDATED_BEST_PRACTICES.md",
          fix="Keep the one that holds (usually the qualified one), merge what the other adds, archive the other."),
    _spec("parse.error", E, "a file curator could not read (binary, not UTF-8, over {max_file_bytes})", "loader",
          scope=PER_FILE, reads={TEXT},
          why="The agent cannot use what cannot be read; curator reports it rather than stop.",
          example="notes.md: not valid UTF-8 (byte 0xff at offset 10)",
          fix="Re-save the file as UTF-8 text, or move it out of the store."),
)}
assert all(c.scope in SCOPES for c in CHECKS.values())
assert all(c.fix_safety in FIX_SAFETY for c in CHECKS.values())


def families() -> list[tuple[str, set[str]]]:
    """(family module, the check ids it can emit), in registry order; `loader` is not a module
    of checks (parse.error comes from the load)."""
    out: dict[str, set[str]] = {}
    for c in CHECKS.values():
        for name in c.family:
            if name not in ("loader", "context", "sessions"):
                out.setdefault(name, set()).add(c.id)
    return list(out.items())


# instruction files (curator/context/): repository-wide, run by `repository.load_repository`;
# no memory format (formats empty): they read a repository's CLAUDE.md, AGENTS.md, rules, skills
from ..context.check_pages import INSTRUCTION_CHECKS  # noqa: E402

INSTRUCTION_IDS = frozenset(c[0] for c in INSTRUCTION_CHECKS)
CHECKS.update({i: _spec(i, sev, summary, "context", frozenset(), scope=STORE_WIDE, reads={TEXT, NAMES}, why=why,
                        example=example, fix=fix, safety=safety)
               for i, sev, summary, why, example, fix, safety in INSTRUCTION_CHECKS})
assert all(c.fix_safety in FIX_SAFETY for c in CHECKS.values())

# the agent's own sessions (curator/proof/ emits them): what they recorded against the model, what they used
from ..transcripts.check_pages import SESSION_CHECKS  # noqa: E402

SESSION_IDS = frozenset(c[0] for c in SESSION_CHECKS)
CHECKS.update({i: _spec(i, sev, summary, "sessions", frozenset(), scope=STORE_WIDE, reads={TEXT, NAMES}, why=why,
                        example=example, fix=fix, safety=safety)
               for i, sev, summary, why, example, fix, safety in SESSION_CHECKS})
