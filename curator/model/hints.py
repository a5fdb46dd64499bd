"""How to fix a finding, said where it is shown: the command (CLI), the key (app), one line
(SARIF). Pure text from the finding's check and fix; the faces choose which part to show."""

from __future__ import annotations

from dataclasses import dataclass

from .findings import REPOSITORY_FIXES, Finding, IndexOrphan, ListEntry


@dataclass(frozen=True, slots=True)
class Hint:
    text: str  # one line for a person
    command: str | None = None  # the CLI command that does it
    key: str | None = None  # the app key: `x` (apply the fix) or `e` (edit the row's keywords)

    def line(self) -> str:
        return self.text + (f": `{self.command}`" if self.command else "")


_BY_HAND = {
    "duplicate.near": "merge the two memories into one (or delete the weaker)",
    "duplicate.topic": "merge the two memories into one, or say in each how they differ",
    "size.chars": "split it into atomic memories, one topic each",
    "size.headings": "split it into atomic memories, one topic each",
    "budget.over": "shorten or split what is over its budget",
    "budget.past-cap": "move the inline sections past the cap into topic files and link them",
    "index.duplicate-entry": "merge the two lines into one",
    "index.format": "keep only the `| Keywords | File |` table in a domain index",
    "naming.case": "rename it in kebab-case (and its index rows)",
    "naming.skill-prefix": "rename it without the `skill-` prefix (and its index rows)",
    "parse.error": "fix or remove the file (it is not read)",
    "frontmatter.invalid": "fix the frontmatter by hand",
    "frontmatter.missing": "add `name`, `description` and `type` frontmatter",
    "links.broken": "re-point or remove the link",
    "experience.unpaired": "add the missing twin, or remove the orphaned one",
    "store.foreign-file": "move it out of the memory folder (or rename it to .md)",
    "orphan.unindexed": "list it in the index",
    "index.missing-target": "re-point or remove the row",
    "instructions.import-broken": "re-point the import at the file it meant, or remove it",
    "instructions.import-cycle": "remove the import that leads back",
    "instructions.import-depth": "import the file from a shallower one",
    "instructions.import-outside": "move what every run needs into the repository",
    "instructions.cap": "split the file: move what is past the cap into files loaded on demand",
    "instructions.dead-glob": "point the globs at where the files are now, or delete the rule",
    "instructions.frontmatter": "fix the YAML so the block parses",
    "instructions.drifted-copy": "keep one file and import it from the other",
    "instructions.missing-path": "name the file as it is now, or drop the line",
    "instructions.description-collision": "make each description say what only it covers",
    "instructions.no-description": "add frontmatter whose description says when to use it",
    "instructions.misplaced": "move it where its agent reads it (the finding says where)",
    "instructions.cursor-md": "rename it to .mdc",
    "instructions.startup-budget": "keep the always-on part small; make the rest load on demand",
    "instructions.dead-negation": "name the files in the `!` line (`!gen/**/*`), and match files, not a folder, "
                                  "before it",
    "instructions.dead-glob-part": "drop the patterns that match nothing, or point them where the files are",
    "instructions.agents-md-unread": "import it: @AGENTS.md",
    "instructions.link-as-text": "check the link out again with links on, or commit a real file (@AGENTS.md)",
    "instructions.redundant-import": "drop the import",
    "store.superseded": "archive it (or drop its marker if it still holds)",
    "duplicate.name": "keep one, merge what the other adds, archive the other",
}


def hint(f: Finding, store_arg: str = "") -> Hint:
    """How to fix `f`; `store_arg` is the store as the user named it (for the command)."""
    where = f" --store {store_arg}" if store_arg else ""
    if f.check.startswith("keywords."):
        index, line = f.path, f.line
        if f.check == "keywords.collision" and f.target is None:  # the index's rate: no one row to name
            return Hint(f"give the rows of {index} that share words keywords of their own (in the app: Enter "
                        "opens it, its uniq column says which rows, `e` edits one)",
                        f"curator keywords {index}:LINE --set …{where}", "e")
        cmd = f"curator keywords {index}:{line} --set …{where}" if line else \
            f"curator keywords {index} {f.target or 'TARGET'} --set …{where}"
        return Hint(f"edit the row's keywords (`e` on {index}:{line} in the app)", cmd, "e")
    if f.check in ("transient.expired", "transient.unpruned"):
        return Hint("archive the records past their tier's TTL", f"curator prune{where}", "x" if f.fix else None)
    if isinstance(f.fix, REPOSITORY_FIXES):  # the repository's files: no store, no app key
        return Hint(f.fix.description, f"curator fix --check {f.check}")
    if f.fix is not None:
        opt = f" --index {f.fix.index}" if isinstance(f.fix, IndexOrphan) else ""
        what = f.fix.description if not isinstance(f.fix, ListEntry) else f"add its line to {f.fix.index}"
        return Hint(what, f"curator fix{where} --check {f.check}{opt}", "x")
    return Hint(_BY_HAND.get(f.check, "edit it by hand"))
