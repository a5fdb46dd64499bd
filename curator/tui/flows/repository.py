"""Fixes of the repository's instruction files (CLAUDE.md imports, rule frontmatter) from the
app, as `curator fix --check instructions.*` makes them: planned from the files on disk, shown
as a diff, applied through the journal at the repository root (`Curation.apply_in_repository`);
ctrl+z and the history cover that journal beside the store's (`flows.undo`)."""

from __future__ import annotations

from pathlib import Path


def is_instruction(finding) -> bool:
    from ...checks.registry import INSTRUCTION_IDS

    return finding.check in INSTRUCTION_IDS


class RepositoryFixes:
    def __init__(self, port, curation) -> None:
        self.port = port
        self.curation = curation

    def root(self) -> Path | None:
        """The repository the instruction files were read from (None before they were)."""
        model = self.port.context_model
        return Path(model.root) if model is not None else None

    def journals(self) -> list[tuple[str, Path]]:
        """(name, root) of every journal the app writes: the current store's, the repository's."""
        from ...curation.journals import distinct

        bench = self.port.workbench
        store = Path(bench.sources[bench.current].root) if bench is not None and bench.workspace else None
        return distinct([("store", store), ("repository", self.root())])

    def fix(self, findings) -> None:
        """Plan the fixes of these instruction findings (all of a check's, or the one picked)."""
        from ...curation.instruction_fixes import picked, plan_instruction_fixes

        root, model = self.root(), self.port.context_model
        if root is None:
            return
        checks = {f.check for f in findings}
        only = {picked(f) for f in findings}

        def make(_workspace=None):  # from the files as they are now, each time
            return plan_instruction_fixes(root, checks, only=only, env=model.env or None, home=model.home or None)

        self.curation.propose(self.curation.planned(make), replan=make, root=root)
