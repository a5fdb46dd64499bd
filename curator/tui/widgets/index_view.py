"""A domain index (or L0) as a table: keywords, uniqueness, collisions; the row's overlaps below."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from ...base.config import Thresholds
from ...checks.keyword_checks import collision_rate, row_uniqueness
from ...model.indexes import IndexRow
from .table import RowTable, clip, clip_paths


def overlaps(store, index_path: str, row) -> list[tuple[str, int, list[str]]]:
    """Other rows (any index) sharing two or more of this row's keywords, most shared first."""
    out = []
    mine = row.keyword_set
    for path, rows in store.all_indexes():
        for other in rows:
            if other is row:
                continue
            shared = mine & other.keyword_set
            if len(shared) >= 2 or (len(shared) == 1 and path == index_path and len(mine) <= 3):
                out.append((path, other.line, sorted(shared)))
    out.sort(key=lambda o: (-len(o[2]), o[0], o[1]))
    return out


class IndexView(Vertical):
    DEFAULT_CSS = """
    IndexView > #index-facts { height: auto; padding: 0 1; }
    IndexView > DataTable { height: 1fr; }
    IndexView > #overlaps { height: auto; max-height: 8; padding: 0 1; border-top: solid $panel; }
    """
    # help that says what is shown (Textual declares HELP a class attribute)
    @property
    def HELP(self) -> str:  # type: ignore[override]  # noqa: N802 - the name every widget's help uses
        """The threshold is the store's (`.curator.yaml` can change it)."""
        ws = getattr(self.app, "workspace", None)
        need = ws.store.config.thresholds.uniqueness if ws is not None else Thresholds().uniqueness
        return f"Rows of an index. Uniqueness = share of a row's keywords no other row uses (strict indexes need {need:.0%})."

    class RowHighlighted(Message):
        def __init__(self, index: str, line: int, target: str | None) -> None:
            super().__init__()
            self.index, self.line, self.target = index, line, target

    class RowChosen(Message):
        """Enter on a row: open what it points at."""

        def __init__(self, index: str, line: int, targets: list[str], raw: list[str]) -> None:
            super().__init__()
            self.index, self.line, self.targets, self.raw = index, line, targets, raw

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._rows: list[IndexRow] = []
        self._path = ""
        self._workspace = None
        self._room = 0

    def compose(self) -> ComposeResult:
        yield Static(id="index-facts")
        yield RowTable(id="index-rows", cursor_type="row", zebra_stripes=True)
        yield Static(id="overlaps")

    def show(self, workspace, path: str, line: int | None = None) -> None:
        store = workspace.store
        self._workspace, self._path = workspace, path
        rows = store.l0.rows if store.l0 is not None and path == store.l0.path else (
            store.domain_indexes[path].rows if path in store.domain_indexes else []
        )
        self._rows = rows
        strict = path in store.domain_indexes and store.config.is_strict_index(path.rsplit("/", 1)[-1])
        sets = [r.keyword_set for r in rows]
        rec = store.records.get(path)
        rate = collision_rate(rows) if path in store.domain_indexes else 0.0
        facts = Text()
        facts.append(path, style="bold")
        facts.append(f"  {len(rows)} rows · {rec.tokens or 0 if rec else 0:,} tokens")
        if path in store.domain_indexes:
            facts.append(" · strict" if strict else " · not strict", style="dim")
            facts.append(f" · collision rate {rate:.0%} within this index", style="bold error" if rate > store.config.thresholds.collision_rate else "")
        table = self.query_one(RowTable)
        targets = [", ".join(lk.target or lk.raw for lk in row.links) or "—" for row in rows]
        room = self.size.width or 80
        self._room = room
        # the target never takes more than a third: the keywords are what this view is about
        narrow = room < 60  # a narrow pane shortens headers and targets (file names, no .md)
        if narrow:  # the file name says more than the first letters of its folder
            targets = [", ".join(t.rsplit("/", 1)[-1].removesuffix(".md") for t in ts.split(", ")) for ts in targets]
        # targets are cut in the middle (two rows for one memory never look the same); the line
        # number stays, it is where an edit or a finding points
        target_w = min(max(12, room * 2 // (7 if narrow else 6)), max(map(len, targets), default=6))
        columns = [("ln", 3), ("#", 2), ("uniq", 4)] if narrow else [("line", 4), ("#", 3), ("unique", 6)]
        widths = table.set_columns([*columns, ("target", target_w), ("keywords", None)], room)
        targets = clip_paths(targets, widths[-2])  # two rows never look the same
        missing = {f.line for f in workspace.by_path.get(path, []) if f.check in ("index.missing-target", "index.unsafe-target")}
        if any(f.target is None and f.check == "index.missing-target" for f in workspace.by_path.get(path, [])):
            # one finding for an index that lost most of its files: every dead row is still marked
            missing |= {row.line for row in rows if any(lk.target and lk.target not in store.records for lk in row.links)}
        for i, row in enumerate(rows):
            u = row_uniqueness(row.keyword_set, sets[:i] + sets[i + 1 :]) if len(rows) > 1 else 1.0
            low = strict and u < store.config.thresholds.uniqueness
            cells = [str(row.line)]
            table.add_row(
                *cells,
                Text(str(len(row.keyword_set)), style="warning" if len(row.keyword_set) < store.config.thresholds.min_keywords else ""),
                Text(f"{u:.0%}", style="bold error" if low else ("success" if u >= 0.6 else "")),
                clip(targets[i], widths[-2], "bold error" if row.line in missing else ""),
                clip(" ".join(row.keywords), widths[-1]),
                key=str(row.line),
            )
        self.query_one("#index-facts", Static).update(facts)
        self.call_after_refresh(self._refit)
        self.query_one("#overlaps", Static).update(Text(
            "unique: the share of a row's keywords no other row of this index uses; highlight a row "
            "to see the rows, here and in other indexes, that share its words", style="dim"))
        if line is not None:
            for i, row in enumerate(rows):
                if row.line == line:
                    table.move_cursor(row=i)
                    break

    def on_resize(self) -> None:
        self.call_after_refresh(self._refit)

    def _refit(self) -> None:
        """Columns are sized for the width at the time; lay them out again if it changed (the
        pane was hidden, the tree or the terminal changed width)."""
        width = self.size.width
        if self._workspace is not None and self._path and width and width != self._room:
            self.show(self._workspace, self._path, self.highlighted_line())

    def highlighted_line(self) -> int | None:
        table = self.query_one(DataTable)
        if not self._rows or table.cursor_row >= len(self._rows):
            return None
        return self._rows[table.cursor_row].line

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if self._workspace is None or event.cursor_row >= len(self._rows):
            return
        row = self._rows[event.cursor_row]
        self.post_message(self.RowChosen(self._path, row.line, [lk.target for lk in row.links],
                                         [lk.raw for lk in row.links]))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if self._workspace is None or event.cursor_row >= len(self._rows):
            return
        row = self._rows[event.cursor_row]
        found = overlaps(self._workspace.store, self._path, row)
        sets = [r.keyword_set for r in self._rows if r is not row]
        u = row_uniqueness(row.keyword_set, sets) if sets else 1.0
        # what the row's percentage is of: its own keywords, against this index's other rows
        text = Text(f"line {row.line}: {u:.0%} of its keywords no other row of this index uses", style="dim")
        if not found:
            text.append("\nno other row, here or in another index, shares two or more of them", style="success")
        for path, line, shared in found[:6]:
            text.append("\n")
            same = path == self._path
            text.append(f"{path}:{line}", style="bold" if same else "bold accent")
            text.append(f"  shares {len(shared)}: ", style="dim")
            text.append(" ".join(shared), style="warning")
        if len(found) > 6:
            text.append(f"\n… {len(found) - 6} more rows", style="dim")
        self.query_one("#overlaps", Static).update(text)
        target = row.links[0].target if row.links else None
        self.post_message(self.RowHighlighted(self._path, row.line, target))
