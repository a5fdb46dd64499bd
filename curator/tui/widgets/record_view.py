"""One memory: header facts, frontmatter, findings, who routes to it, rendered markdown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Markdown, Static

from ...model.findings import Severity

if TYPE_CHECKING:
    from textual.timer import Timer

    from ...live.workspace import Workspace

ICON = {Severity.ERROR: ("✖", "bold error"), Severity.WARNING: ("▲", "warning"), Severity.INFO: ("●", "info")}


class RecordView(VerticalScroll):
    DEFAULT_CSS = """
    RecordView { padding: 0 1; }
    RecordView > #facts { margin-bottom: 1; }
    RecordView > Markdown { margin: 0; padding: 0; }
    """
    HELP = "The selected memory: facts, frontmatter, findings, the index rows that route here, the text."
    _shown: tuple[Workspace, str] | None = None  # the memory shown, shown again when the sessions change
    _body_timer: Timer | None = None
    _pending_body = ""

    def compose(self) -> ComposeResult:
        yield Static(id="facts")
        yield Markdown(id="body")

    def on_mount(self) -> None:
        signal = getattr(self.app, "transcripts_signal", None)
        if signal is not None:
            signal.subscribe(self, self._sessions_changed)

    def _sessions_changed(self, _svc) -> None:
        shown = getattr(self, "_shown", None)
        if shown is not None and getattr(_svc, "indexed", False):
            self.show(*shown)

    def show(self, workspace: Workspace, path: str) -> None:
        self._shown = (workspace, path)
        store = workspace.store
        rec = store.records.get(path)
        facts = self.query_one("#facts", Static)
        if rec is None and workspace.by_path.get(path):  # a finding about a folder (or the store)
            facts.update(_folder_findings(store, path, workspace.by_path[path]))
            self._set_body("")
            return
        if rec is None:
            facts.update(Text(f"{path} is no longer in the store", style="dim"))
            self._set_body("")
            return
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        est = " (estimated)" if store.encoding == "estimate" else ""
        grid.add_row("path", Text(rec.path, style="bold", overflow="fold"))
        if rec.title:
            grid.add_row("title", rec.title)
        grid.add_row("tier", f"{rec.tier} · L{rec.level} · {rec.kind}")
        grid.add_row("tokens", f"{rec.tokens or 0:,}{est} · {len(rec.text):,} chars")
        if rec.date:
            grid.add_row("date", rec.date)
        used = _usage_line(getattr(self.app, "transcripts", None), rec.path)
        if used is not None:
            grid.add_row("last read", used)
        for key, value in list(rec.frontmatter.items())[:12]:
            grid.add_row(Text(f"{key}", style="dim"), Text(str(value)))
        for key, value in list(rec.meta.items())[:6]:
            grid.add_row(Text(key, style="dim"), Text(value[:120]))
        routes = store.routes_to.get(rec.path, [])
        if routes:
            routed = Text()
            for i, r in enumerate(routes):
                if i:
                    routed.append("\n")
                routed.append(f"{r.index}:{r.row.line}", style="bold")
                routed.append("  " + " ".join(r.row.keywords[:12]), style="dim")
            grid.add_row("routed by", routed)
        elif rec.level == 2:
            grid.add_row("routed by", Text("no index routes here", style="warning"))
        findings = workspace.by_path.get(rec.path, [])
        if findings:
            lines = Text()
            for i, f in enumerate(findings):
                icon, style = ICON[f.severity]
                if i:
                    lines.append("\n")
                lines.append(f"{icon} {f.check}", style=style)
                if f.line:
                    lines.append(f" :{f.line}", style="dim")
                lines.append(f"  {f.message}")
                if f.fix is not None:
                    lines.append(f"  → {f.fix.description}", style="success")
            grid.add_row("findings", lines)
        if rec.error:
            grid.add_row("error", Text(rec.error, style="bold error"))
        facts.update(grid)
        text = "\n".join(rec.text.splitlines()[rec.body_line - 1 :])  # frontmatter is shown above
        self._set_body(text if rec.readable else "")
        self.scroll_home(animate=False)

    def show_file(self, model, agent: str, path: str) -> None:
        """An instruction file of an agent (from the context model): how it loads, and its text."""
        from pathlib import Path

        from ...base.safeio import read_small_file

        self._shown = None
        ctx = model.agents.get(agent)
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        grid.add_row("path", Text(path, style="bold", overflow="fold"))
        grid.add_row("agent", ctx.label if ctx else agent)
        for e in ctx.startup if ctx else ():
            if e.path == path:
                grid.add_row("start-up", f"{e.tokens:,} tokens · {e.bytes:,} bytes · {e.why}")
                if e.via:
                    grid.add_row("imported by", e.via)
                if e.cut is not None:
                    grid.add_row("cut", Text(f"kept {e.cut.kept_bytes:,} bytes: {e.cut.reason}", style="warning"))
        for o in ctx.on_demand if ctx else ():
            if o.path == path:
                grid.add_row("on demand", f"{o.tokens:,} tokens · {o.when}")
        for f in model.findings:
            if f.path == path:
                icon, style = ICON[f.severity]
                grid.add_row("finding", Text.assemble((f"{icon} {f.check}", style), f"  {f.message}"))
        try:
            text = read_small_file(Path(model.root) / path, inside=(Path(model.root),)).decode("utf-8", "replace")
        except Exception as exc:  # noqa: BLE001 - gone, unreadable, a symlink out: said, never a traceback
            grid.add_row("error", Text(f"cannot read it: {exc}", style="error"))
            text = ""
        self.query_one("#facts", Static).update(grid)
        self._set_body(text)
        self.scroll_home(animate=False)

    def _set_body(self, text: str) -> None:
        # Markdown.update is asynchronous: when the cursor runs down the tree, render only the
        # latest file once things settle, so a slow earlier render can never land last.
        self._pending_body = text
        if self._body_timer is not None:
            self._body_timer.stop()
        self._body_timer = self.set_timer(0.05, self._flush_body)

    async def _flush_body(self) -> None:
        self._body_timer = None
        text = self._pending_body
        await self.query_one("#body", Markdown).update(text)
        if text != self._pending_body:  # changed while rendering: render the newest
            self._set_body(self._pending_body)


def _usage_line(svc, path: str) -> Text | None:
    """"last read … · reads 30d N · 90d N" from the agent's transcripts (the session tier)."""
    if svc is None or svc.index is None or not svc.index.discovery.files:
        return None  # no transcripts for this repository: nothing to say
    usage = svc.usage
    if usage is None:
        return Text("reading the agent's transcripts…", style="dim")
    u = usage.use(path)
    if not u.reads:
        return Text(f"never, in {usage.session_count} session(s)", style="warning")
    return Text(f"{u.last_day} · reads 30d {u.reads_30} / 90d {u.reads_90} ({u.reads} in {len(u.sessions)} session(s))")


def _folder_findings(store, path: str, findings) -> Text:
    """A folder-level finding (e.g. transient.expired collapsed to one line for a folder of old
    logs): what it covers, the records it names, and how to act on them all at once."""
    where = "the whole store" if path == "." else f"{path}/"
    text = Text.assemble((where, "bold"), (" — findings about the folder, not one file\n", "dim"))
    for f in findings:
        icon, style = ICON[f.severity]
        text.append(f"\n{icon} {f.check}", style=style)
        text.append(f"  {f.message}\n")
        named = getattr(f.fix, "paths", ())  # PruneMany: every record the finding covers
        for p in named[:40]:
            rec = store.records.get(p)
            date = f"  {rec.date}" if rec is not None and rec.date else ""
            text.append(f"  {p}", style="bold" if rec is not None else "dim")
            text.append(f"{date}\n", style="dim")
        if len(named) > 40:
            text.append(f"  … and {len(named) - 40} more\n", style="dim")
        from ...model.hints import hint as fix_hint

        hint = fix_hint(f)
        if hint.key == "x":
            text.append(f"x on Problems {f.fix.description} (`{hint.command}`)\n", style="success")
        elif hint.text:
            text.append(f"{hint.line()}\n", style="dim")
    return text
