"""Fixes of findings from the app: the picked findings' (Problems, the tree), or every fixable
finding of the current memory system in one preview (`action_fix_all`). A store's findings are
planned on its snapshot (again on a newer one if a file changes while the diff is shown); the
instruction files' go to `RepositoryFixes`."""

from __future__ import annotations

from .repository import is_instruction


class Fixes:
    def __init__(self, port, curation, repository) -> None:
        self.port = port
        self.curation = curation
        self.repository = repository

    def fix_findings(self, findings, safe_only: bool = False) -> None:
        from ...curation import plan_fixes

        if findings and all(is_instruction(f) for f in findings):  # the repository's files, not the store's
            self.repository.fix(findings)
            return
        findings = [f for f in findings if not is_instruction(f)]

        checks = None if safe_only else {f.check for f in findings}  # picked findings opt in to their fixes
        picked = {(f.check, f.path, f.target) for f in findings}

        def make(w):
            # made again on a newer snapshot: the same findings as they are there now
            now = [f for f in w.findings if (f.check, f.path, f.target) in picked] if w is not first else findings
            return plan_fixes(w.store, now, checks, counter=w.store.counter)

        first = self.port.workspace
        self.curation.plan_from(make)

    def fix_all(self) -> None:
        """Every finding of the current memory system that has a fix, in one preview — the safe
        fixes and the ones `curator fix` plans only when asked (`--check ID`), the preview
        saying which are which: applying it is the confirmation."""
        from collections import Counter

        from ...curation import plan_fixes
        from ...curation.fix import is_safe

        ws = self.port.workspace
        if ws is None:
            return
        fixable = [f for f in ws.findings if f.fix is not None and not is_instruction(f)]
        if not fixable:
            self.port.notify("no finding of this memory system has a fix (Problems lists what to do by hand)", timeout=5)
            return
        picked = {(f.check, f.path, f.target) for f in fixable}

        def make(w):
            now = [f for f in w.findings if (f.check, f.path, f.target) in picked and f.fix is not None]
            plan = plan_fixes(w.store, now, {f.check for f in now}, counter=w.store.counter)
            asked = Counter(f.check for f in now if not is_safe(w.store, f))
            safe = len(now) - sum(asked.values())
            said = [f"{safe} safe fix(es) (`curator fix` applies them unasked)"] if safe else []
            if asked:
                said.append("need your confirmation — they change what the agent retrieves (`curator fix --check "
                            "ID`): " + ", ".join(f"{c} ×{n}" for c, n in sorted(asked.items())))
            plan.notes = said + plan.notes
            return plan

        self.curation.plan_from(make)

    def refresh_counts(self) -> None:
        from ...curation import plan_refresh

        self.curation.plan_from(lambda w: plan_refresh(w.store, w.findings))
