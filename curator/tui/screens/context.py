"""Context: what each agent loads from the repository's instruction files — its start-up files as
bars of tokens (with what a cap cuts), the import tree, a table of every file with what the
agent's own sessions show of it (seen in N sessions, never seen, a mismatch: Enter lists those
sessions), and a path box for "what loads when editing this file". The app's face of `curator
context` (and `--verify`); the model (`curator.context`) is built in the app's worker and arrives
through `app.context_signal`, the sessions held against it through `app.proof_signal`."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from rich.tree import Tree as RichTree
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from .. import messages as msg
from ..widgets import RowTable, TextBox
from ..widgets.fitting import FirstThatFits, cut_column
from .base import CuratorScreen
from .context_seen import SHORT, files_of, seen_cell, seen_detail, state_of, tokens_cell


def cap_words(ctx) -> str | None:
    """The cap a bar is measured against, in words, from the agent's rules at the version the
    model applied (the model cuts what passes it: `Loaded.cut`); None: the agent has none."""
    from ...agents import rules_for

    rules = rules_for(ctx.agent, ctx.version or None)
    if ctx.agent == "claude-code":
        cap = rules.value("memory.auto-cap")
        # (which file: auto memory's, wherever autoMemoryDirectory puts it — an imported MEMORY.md has no cap)
        from ...model.formats import claude_cap_words

        return f"auto memory's MEMORY.md (not one a file imports): {claude_cap_words(cap)}"
    if ctx.agent == "codex":
        return f"{rules.value('project.max-bytes') / 1024:g} KiB of AGENTS.md files a chain (project_doc_max_bytes)"
    if ctx.agent == "devin":
        return f"{rules.value('rules.max-chars'):,} characters a rule file"
    return None


def startup_bars(ctx, room: int) -> Group:
    """One bar per start-up file, relative to the largest; the part a cap cuts in the error
    colour after the part that loads."""
    est = {e.path: (e.tokens * e.bytes // e.cut.kept_bytes if capped(e) and e.cut.kept_bytes else e.tokens)
           for e in ctx.startup}
    top = max(est.values(), default=0) or 1
    label_w = min(max((len(e.path) for e in ctx.startup), default=4), max(12, room // 3))
    num_w = max((len(f"{e.tokens:,}") for e in ctx.startup), default=1)
    width = max(4, room - label_w - num_w - 2)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, overflow="ellipsis", width=label_w)
    grid.add_column(no_wrap=True, width=width)
    grid.add_column(justify="right", no_wrap=True, width=num_w)
    # the end of each path (the file and its folder), unless two would look the same (five
    # `…instructions.md`): those keep what tells them apart
    names = cut_column([e.path for e in ctx.startup], label_w, lambda v, w: "…" + v[-(w - 1):])
    for e, name in zip(ctx.startup, names, strict=True):
        kept = max(1 if e.tokens else 0, round(width * e.tokens / top))
        lost = round(width * (est[e.path] - e.tokens) / top) if capped(e) else 0
        bar = Text("█" * kept, style="accent")
        bar.append("▒" * min(lost, width - kept), style="bold error")
        grid.add_row(name, bar, f"{e.tokens:,}")
    parts: list = [grid]
    for e in ctx.startup:
        if capped(e):
            parts.append(Text(f"✂ {e.path}: {e.cut.reason}", style="error"))
    cap = cap_words(ctx)
    if cap:
        parts.append(Text(f"cap: {cap}", style="dim"))
    for e in ctx.startup:  # an imported MEMORY.md is no auto memory: the whole file loads
        if ctx.agent == "claude-code" and e.path.endswith("MEMORY.md") and e.via:
            parts.append(Text(f"{e.path}: imported at {e.via}, loads whole (no cap)", style="dim"))
    return Group(*parts)


def capped(entry) -> bool:
    """Cut by a cap (a skill's listing is cut by design: only its name and description load)."""
    return entry.cut is not None and "listed" not in entry.cut.reason


def import_tree(ctx) -> RichTree | None:
    """The import chains: start-up files by the import that brought them (`via`), from the file
    that imports; None when nothing was imported."""
    parent_of = {e.path: e.via.rsplit(":", 1)[0] for e in ctx.startup if e.via}
    if not parent_of:
        return None
    chained = set(parent_of) | set(parent_of.values())
    tree = RichTree(Text("Imports", style="bold"), guide_style="dim")
    nodes: dict[str, RichTree] = {}
    pending = [e for e in ctx.startup if e.path in chained]
    for _ in range(len(pending) + 1):  # parents before children, whatever the order
        left = []
        for e in pending:
            parent = e.via.rsplit(":", 1)[0] if e.via else None
            if parent is None or parent in nodes or parent not in {x.path for x in ctx.startup}:
                at = nodes.get(parent, tree) if parent else tree
                label = Text(e.path, style="bold" if not e.via else "")
                label.append(f"  {e.tokens:,}", style="dim")
                short = label.copy()
                if e.via:
                    label.append(f"  ← {e.via}", style="dim")
                nodes[e.path] = at.add(FirstThatFits(label, short))  # narrow: the import line left out
            else:
                left.append(e)
        pending = left
        if not pending:
            break
    return tree


def never_list(ctx) -> Group:
    """What the agent never loads, and why (the file table says which; this says why)."""
    parts: list = [Text(f"never loaded: {u.path} — {u.reason}", style="warning") for u in ctx.never]
    return Group(*parts)


class ContextScreen(CuratorScreen):
    DEFAULT_CSS = """
    #context-body { height: 1fr; }
    #context-side { width: 28; height: 1fr; }
    #context-agents-table { height: auto; max-height: 12; }
    #context-for-title { margin-top: 1; padding: 0 1; }
    #context-main { width: 1fr; height: 1fr; }
    #context-detail { width: 1fr; height: 1fr; padding: 0 1; }
    #context-detail > Static { width: 100%; margin-bottom: 1; }
    #context-files { height: 1fr; min-height: 5; }
    #context-file { height: 4; padding: 0 1; }  /* fixed: a longer line never shrinks the table under the cursor */
    """
    BINDINGS = [
        Binding("slash", "focus_path", "Path", id="context-path", tooltip="What loads when editing a file"),
        Binding("a", "focus_agents", "Agents", id="context-agents", tooltip="Move focus to the agents", show=False),
        Binding("f", "focus_files", "Files", id="context-files-key",
                tooltip="Move focus to the files: Enter lists the sessions that loaded the highlighted one"),
    ]
    HELP = ("What each agent loads from the repository's instruction files: start-up files as bars of "
            "tokens (✂ = cut by a cap), then every file with what Claude Code's sessions recorded — seen "
            "in N sessions, never, ✖ loaded otherwise than the model predicts (`curator context --verify`). "
            "Enter on a file (f) opens the sessions that loaded it; / shows what loads when the agent "
            "edits a path. The numbers of `curator context`.")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.agent: str | None = None
        self.for_path = ""

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="context-body"):
            with Vertical(id="context-side"):
                table = RowTable(id="context-agents-table", cursor_type="row", zebra_stripes=True)
                table.add_column("agent", width=14, key="agent")
                table.add_column("start-up", width=8, key="tokens")
                yield table
                yield Static("[b]What loads when editing[/b]", id="context-for-title")
                yield TextBox(placeholder="path, e.g. src/app.ts", id="context-for",
                              leave_to="#context-agents-table")
            with Vertical(id="context-main"):
                with VerticalScroll(id="context-detail"):
                    yield Static("reading the instruction files…", id="context-startup")
                    yield Static(id="context-for-result")
                    yield Static(id="context-imports")
                    yield Static(id="context-never")
                files = RowTable(id="context-files", cursor_type="row", zebra_stripes=True)
                files.add_column("tokens", width=6, key="tokens")
                files.add_column("when", width=6, key="when")
                files.add_column("file", key="file")
                files.add_column("seen", width=11, key="seen")  # "3 · 11-19": the line below says it whole
                yield files
                yield Static(id="context-file")

    def on_mount(self) -> None:
        # (CuratorScreen.on_mount runs too: Textual calls each class's handler along the MRO)
        self.app.context_signal.subscribe(self, self._on_context)
        self.app.proof_signal.subscribe(self, lambda _proof: self._files())
        self.app.transcripts_signal.subscribe(self, lambda _svc: self._files())
        if self.app.context_model is not None:
            self._on_context(self.app.context_model)

    def show(self, workspace) -> None:
        pass  # the memory snapshot: only the header shows it here

    def _on_context(self, model) -> None:
        table = self.query_one("#context-agents-table", DataTable)
        table.clear()
        if model is None or not model.agents:
            self.query_one("#context-startup", Static).update(Text(
                "No agent instruction files in this repository (CLAUDE.md, AGENTS.md, GEMINI.md, .cursor/rules, "
                ".github/copilot-instructions.md, .clinerules, .devin, .kiro, .roo).", style="dim"))
            return
        for name, ctx in model.agents.items():
            table.add_row(ctx.label, Text(f"{ctx.startup_tokens:,}", justify="right"), key=name)
        names = list(model.agents)
        if self.agent not in names:
            self.agent = names[0]
        table.move_cursor(row=names.index(self.agent))
        self._draw()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        key = event.row_key.value
        if event.data_table.id == "context-files":
            self._file_detail(key)
            return
        if key and key != self.agent:
            self.agent = key
            self._draw()

    def on_data_table_row_selected(self, event) -> None:
        """Enter on a file: the Sessions screen, narrowed to the sessions that loaded it."""
        if event.data_table.id != "context-files" or event.row_key.value is None:
            return  # rows of agents: nothing to open
        path = event.row_key.value
        proof = self.app.proof
        if self.agent != "claude-code" or proof is None:
            self.notify("Sessions are Claude Code's: pick Claude Code, and let the transcripts be read", timeout=4)
            return
        ids = proof.sessions_loading(path)
        if not ids:
            self.notify(f"No session recorded loading {path}", timeout=4)
            return
        self.post_message(msg.ShowSessions(path, ids))

    def on_input_submitted(self, event) -> None:
        self.for_path = event.value.strip().lstrip("./") if event.value.strip() != "." else ""
        self._draw()

    def _draw(self) -> None:
        model = self.app.context_model
        ctx = model.agents.get(self.agent) if model is not None and self.agent else None
        if model is None or ctx is None:
            return
        # the detail pane's width: the screen's less the side column, its padding and scrollbar
        room = max(30, self.size.width - 32) if self.size.width else 50
        est = " (estimated)" if model.encoding == "estimate" else ""
        n = len(ctx.startup)
        heads = []
        for more in (f" · {ctx.startup_bytes:,} bytes · {n} file{'s' if n != 1 else ''}",
                     f" · {n} file{'s' if n != 1 else ''}", ""):  # narrow: less said, never a number cut off
            head = Text(ctx.label, style="bold")
            head.append(f"  start-up {ctx.startup_tokens:,} tokens{est}", style="bold")
            head.append(more, style="dim")
            heads.append(head)
        body: list = [FirstThatFits(*heads)]
        body.append(startup_bars(ctx, room) if ctx.startup else Text("nothing at start-up", style="dim"))
        if ctx.user:
            body.append(Text(f"+ outside the repository (not counted): {', '.join(u.path for u in ctx.user)}", style="dim"))
        body += [Text(f"note: {n}", style="dim") for n in ctx.notes]  # as `curator context` says them
        self.query_one("#context-startup", Static).update(Group(*body))
        self.query_one("#context-for-result", Static).update(self._for_result(model, ctx))
        tree = import_tree(ctx)
        imports = self.query_one("#context-imports", Static)
        imports.display = tree is not None
        if tree is not None:
            imports.update(tree)
        self.query_one("#context-never", Static).update(never_list(ctx))
        self._files()

    def on_resize(self) -> None:
        self._draw()

    def _for_result(self, model, ctx):
        from ...context.build import loads_for

        if not self.for_path:
            return Text("")
        items = loads_for(model, self.for_path).get(ctx.agent, [])
        out = Text(f"Editing {self.for_path}: ", style="bold")
        if not items:
            out.append("nothing more loads", style="dim")
            return out
        out.append(f"+{sum(o.tokens for o in items):,} tokens", style="bold accent")
        for o in items:
            out.append(f"\n  {o.tokens:>6,}  {o.path}")
            out.append(f"  {o.when}", style="dim")
        return out

    def action_focus_path(self) -> None:
        self.query_one("#context-for", TextBox).focus()

    def _files(self) -> None:
        """The file table of the current agent, with what the sessions show (kept on its row)."""
        model = self.app.context_model
        ctx = model.agents.get(self.agent) if model is not None and self.agent else None
        table = self.query_one("#context-files", DataTable)
        keep = table.cursor_row if table.row_count else 0
        table.clear()
        if ctx is None:
            return
        proof, state = self.app.proof, state_of(self.app)
        self._rows = files_of(ctx)
        for path, when, tokens in self._rows:
            table.add_row(tokens_cell(tokens), SHORT[when], path, seen_cell(ctx, proof, state, path), key=path)
        if table.row_count:
            table.move_cursor(row=min(keep, table.row_count - 1))
            self._file_detail(self._rows[table.cursor_row][0])

    def _file_detail(self, path: str | None) -> None:
        model = self.app.context_model
        ctx = model.agents.get(self.agent) if model is not None and self.agent else None
        row = next((r for r in getattr(self, "_rows", []) if r[0] == path), None)
        if ctx is None or row is None or path is None:
            return
        self.query_one("#context-file", Static).update(seen_detail(ctx, self.app.proof, state_of(self.app), path,
                                                                   row[1]))

    def action_focus_files(self) -> None:
        self.query_one("#context-files", DataTable).focus()

    def action_focus_agents(self) -> None:
        self.query_one("#context-agents-table", DataTable).focus()
