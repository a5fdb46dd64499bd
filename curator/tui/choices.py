"""What the person picks in a dialog becomes a plan: prune (which records, archived or deleted),
promote (where a transient record goes), an index row's keywords; the tiers and the history
dialogs show what is. The plans go to the curation flow (`flows.curation.Curation`)."""

from __future__ import annotations


class Choices:
    def __init__(self, port, curation, undo) -> None:
        self.port = port
        self.curation = curation
        self.undo = undo  # flows.undo.Undo: the history's items and its one choice

    def history(self) -> None:
        from .dialogs import HistoryDialog

        self.port.ask(HistoryDialog(*self.undo.history_items()), self.undo.review_unverifiable)

    def tiers(self) -> None:
        from ..model.tiering import decide
        from ..reports.tiers_report import tiers_json
        from .dialogs import TiersDialog

        if self.port.workspace is not None:
            store = self.port.workspace.store
            self.port.ask(TiersDialog(tiers_json(store, decide(store))))

    def prune(self) -> None:
        from ..curation import plan_prune_paths
        from .dialogs import PruneDialog

        ws = self.port.workspace
        if ws is None:
            return

        def chosen(choice) -> None:
            if choice is not None:
                self.curation.plan_from(lambda w: plan_prune_paths(w.store, choice.paths, choice.archive))

        self.port.ask(PruneDialog(ws.store), chosen)

    def promote(self, path: str) -> None:
        from ..curation import plan_promote
        from .dialogs import PromoteDialog

        ws = self.port.workspace
        if ws is None:
            return
        rec = ws.store.records.get(path)
        if rec is None or rec.tier not in ("transient", "reflexion") or rec.level != 2:
            self.port.notify("Pick a transient or reflexion record to promote", severity="warning")
            return

        def planner(choice):
            return plan_promote(ws.store, path, choice.dest, choice.index, choice.keywords,
                                choice.source_action, counter=ws.store.counter)

        def chosen(choice) -> None:
            if choice is not None and choice.plan is not None:
                made = [e.path for e in choice.plan.edits if e.action == "create" and not e.path.startswith(".curator/")]

                def again(w):
                    return plan_promote(w.store, path, choice.dest, choice.index, choice.keywords,
                                        choice.source_action, counter=w.store.counter)

                self.curation.propose(choice.plan, then_open=made[0] if made else None, replan=again)

        self.port.ask(PromoteDialog(ws.store, path, planner), chosen)

    def edit_keywords(self, index: str, line: int) -> None:
        from ..curation import plan_keywords
        from ..curation.keywords import RowRef, keyword_rows
        from .dialogs import KeywordDialog

        ws = self.port.workspace
        rows = keyword_rows(ws.store, index) if ws else None
        if rows is None:  # MEMORY.md, a plain index, a README: every line is read, none routes by keywords
            self.port.notify(f"{index} routes by no keywords (its agent reads every line): Enter opens the row's "
                             "file; edit the line itself in your editor", severity="information", timeout=6)
            return
        row = next((r for r in rows if r.line == line), None)
        if row is None or not row.links:
            self.port.notify(f"{index}:{line} links no memory: edit it by hand", severity="warning")
            return
        target = row.links[0].target
        chosen_row = RowRef(index, line, row.raw)  # this row, not the first one for its target

        def chosen(keywords) -> None:
            if keywords:
                self.curation.plan_from(lambda w: plan_keywords(w.store, index, target, keywords, row=chosen_row))

        self.port.ask(KeywordDialog(ws.store, index, line, target, row.keywords), chosen)
