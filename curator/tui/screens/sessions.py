"""The session tier: the agent's sessions in this repository by date, a session's conversation
with tool calls and results folded, search across sessions, and mining a passage into a record.

The list comes from a quick peek at each transcript (shown at once); the app's indexing worker
then streams every file and the list is redrawn with final counts. Searching and reading a
conversation run in workers too: a transcript can be hundreds of MB.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Input, Static

from ...transcripts.conversation import Turn
from ...transcripts.index import Session, format_duration
from ..widgets import RowTable
from .base import CuratorScreen
from .session_text import folded, mine, prune_unused, turn_detail

MAX_TURNS = 5000  # a conversation view keeps at most this many turns (the CLI shows them all)
ROLE_STYLE = {"user": "bold", "assistant": "", "tool": "dim", "system": "dim italic"}



class SessionsScreen(CuratorScreen):
    DEFAULT_CSS = """
    #sessions-body { height: 1fr; }
    #sessions-bar { height: 1; }
    #session-search { width: 1fr; height: 1; border: none; padding: 0 1; background: $boost; }
    #session-search:focus { background: $primary 25%; }
    #sessions-status { width: auto; max-width: 50; padding: 0 1; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis; }
    #sessions { height: 1fr; min-height: 4; }
    #conversation { height: 2fr; border-top: solid $panel; }
    #turn-detail { height: auto; max-height: 8; padding: 0 1; border-top: solid $panel; }
    SessionsScreen.-empty #conversation { display: none; }
    SessionsScreen.-empty #turn-detail { height: 1fr; max-height: 100%; }
    """
    BINDINGS = [
        Binding("slash", "focus_search", "Search", id="search-sessions", tooltip="Search every session's turns"),
        Binding("a", "run_anywhere", "All", id="sessions-anywhere",
                tooltip="Sessions run anywhere (like `curator sessions --all`), or only in this repository"),
        Binding("escape", "back", "Back", id="sessions-back", tooltip="Back to the list of sessions", show=False),
        Binding("space", "mark", "Mark", id="mark-turn", tooltip="Mark the start of a passage to mine"),
        Binding("m", "mine('reflexion')", "Mine", id="mine-reflexion",
                tooltip="Turn the highlighted turn (or the marked passage) into a reflexion record"),
        Binding("M", "mine('transient')", "Mine transient", id="mine-transient",
                tooltip="Turn the highlighted turn (or the marked passage) into a transient record"),
        Binding("U", "prune_unused", "Prune unread", id="prune-unread",
                tooltip="Archive the transient records no session read in 90 days (diff first)"),
    ]
    # (short: F1 shows it with the keys on one 80×24 screen)
    HELP = (
        "The agent's sessions in this repository (Claude Code transcripts), newest first. Enter opens one: "
        "tool calls fold into a row each, the highlighted turn shows whole below. Mining (m, M) writes a "
        "record with its session id, uuid and date into the current memory system — the preview names it. "
        "No sessions? The screen says where it looked (CLAUDE_CONFIG_DIR reads them from elsewhere)."
    )

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.turns: list = []
        self.hits: list = []
        self.session: Session | None = None
        self.mark: int | None = None
        self._want_uuid: str | None = None
        self.only: tuple[str, set[str]] | None = None  # (a file, the sessions that loaded it): the list narrowed

    def compose_body(self) -> ComposeResult:
        with Vertical(id="sessions-body"):
            with Horizontal(id="sessions-bar"):
                yield Input(placeholder="/ search every session (words; Enter)", id="session-search")
                yield Static("", id="sessions-status")
            table = RowTable(id="sessions", cursor_type="row", zebra_stripes=True)  # cut cells end in …
            table.add_columns("started", "dur", "msgs", "tokens", "branch", "title")
            yield table
            conv = RowTable(id="conversation", cursor_type="row", zebra_stripes=True)
            conv.add_columns("time", "role", "turn")
            yield conv
            with VerticalScroll(id="turn-detail"):
                yield Static("", id="turn-text")

    def on_mount(self) -> None:
        self.app.transcripts_signal.subscribe(self, self._on_sessions)
        self._on_sessions(None)
        self.query_one("#sessions", DataTable).focus()

    def show(self, workspace) -> None:
        self._on_sessions(None)

    # -- the list --------------------------------------------------------------

    def _on_sessions(self, _svc) -> None:
        svc = getattr(self.app, "transcripts", None)
        status = self.query_one("#sessions-status", Static)
        if svc is None or svc.index is None:
            status.update("finding transcripts…")
            return
        sessions = svc.sessions
        if not svc.indexed:
            what, frac = svc.progress
            status.update(f"{len(sessions)} sessions · indexing {frac:.0%}")
        else:
            size = sum(s.size for s in sessions)
            where = "run anywhere (a: only here)" if svc.match_all else "run here (a: anywhere)"
            status.update("no sessions found" if not sessions else
                          f"{len(sessions)} session(s) {where} · "
                          + (f"{size / 1e6:,.0f} MB" if size >= 1e6 else f"{size / 1e3:,.0f} kB"))
        if self.hits:
            return
        if self.only is not None:
            path, ids = self.only
            sessions = [x for x in sessions if x.session_id in ids]
            status.update(f"{len(sessions)} session(s) loaded {path} · Esc: all")
        self._fill_sessions(sessions)

    def narrow(self, path: str, session_ids) -> None:
        """Only the sessions that loaded `path` (the Context view's Enter on a file)."""
        self.hits = []
        self.only = (path, set(session_ids))
        self._on_sessions(None)
        self.query_one("#sessions", DataTable).focus()

    def _fill_sessions(self, sessions) -> None:
        table = self.query_one("#sessions", DataTable)
        keep = table.cursor_row if table.row_count else 0
        table.clear()
        self.set_class(not sessions, "-empty")  # no conversation to show: the explanation gets the room
        if not sessions:
            svc = self.app.transcripts
            if svc is not None and svc.index is not None:
                from ...transcripts.discover import explain_none

                head, *rest = explain_none(svc.index.discovery)
                self.query_one("#turn-text", Static).update(Text.assemble((head, "bold"), "\n", "\n".join(rest)))
            return
        for s in sessions:
            partial = "" if s.complete else "…"
            table.add_row(s.started[:16].replace("T", " "), format_duration(s.duration_s), f"{s.messages}{partial}",
                          f"{s.tokens:,}{partial}", s.main.branch,
                          Text(s.title, no_wrap=True, overflow="ellipsis"), key=s.session_id)
        table.move_cursor(row=min(keep, table.row_count - 1))

    @on(DataTable.RowSelected, "#sessions")
    def _open_row(self, event: DataTable.RowSelected) -> None:
        event.stop()
        key = event.row_key.value
        if key is None:
            return
        if self.hits:
            hit = self.hits[int(key)]
            self._open(hit.session_id, hit.turn.uuid)
        else:
            self._open(key, None)

    def on_data_table_row_selected(self, event) -> None:  # the base opens store paths: not here
        pass

    def _open(self, session_id: str, uuid: str | None) -> None:
        svc = self.app.transcripts
        s = svc.index.sessions.get(session_id) if svc and svc.index else None
        if s is None:
            return
        self.session, self.mark, self._want_uuid = s, None, uuid
        self.query_one("#turn-text", Static).update(Text(f"reading {Path(s.main.path).name}…", style="dim"))
        self.load_conversation(s)

    @work(thread=True, exclusive=True, exit_on_error=False, group="conversation", description="read a conversation")
    def load_conversation(self, session) -> None:
        from ...transcripts import conversation

        turns: list[Turn] = []
        for sc in session.scans:
            turns.extend(conversation(Path(sc.path), MAX_TURNS - len(turns)))
            if len(turns) >= MAX_TURNS:
                break
        self.app.hand_off(self._show_conversation, session, turns)

    def _show_conversation(self, session, turns) -> None:
        if session is not self.session:
            return
        self.turns = turns
        self.refresh_bindings()  # mark and mine apply now
        conv = self.query_one("#conversation", DataTable)
        conv.clear()
        for i, t in enumerate(turns):
            conv.add_row(t.timestamp[11:16], Text(t.role + ("*" if t.sidechain else ""), style=ROLE_STYLE.get(t.role, "")),
                         folded(t), key=str(i))
        conv.focus()
        at = next((i for i, t in enumerate(turns) if t.uuid == self._want_uuid), 0) if self._want_uuid else 0
        if turns:
            conv.move_cursor(row=at)
            self._detail(at)
        else:
            self.query_one("#turn-text", Static).update(Text("this session has no conversation to show", style="dim"))

    @on(DataTable.RowHighlighted, "#conversation")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key is not None and event.row_key.value is not None:
            self._detail(int(event.row_key.value))

    def _detail(self, i: int) -> None:
        if 0 <= i < len(self.turns):
            self.query_one("#turn-text", Static).update(turn_detail(self.turns[i], self.mark))

    # -- search ----------------------------------------------------------------

    def action_run_anywhere(self) -> None:
        """Every transcript of the projects folders, whatever folder it ran in, or only this
        repository's (the CLI's `sessions --all`)."""
        svc = getattr(self.app, "transcripts", None)
        if svc is None:
            return
        svc.match_all = not svc.match_all
        self.app.background.index_transcripts()

    def action_focus_search(self) -> None:
        self.query_one("#session-search", Input).focus()

    @on(Input.Submitted, "#session-search")
    def _search(self, event: Input.Submitted) -> None:
        query = event.value.strip()
        if not query:
            self.hits = []
            self._on_sessions(None)
            return
        self.query_one("#sessions-status", Static).update("searching…")
        self.run_search(query)

    @work(thread=True, exclusive=True, exit_on_error=False, group="session-search", description="search sessions")
    def run_search(self, query: str) -> None:
        from ...transcripts import search

        svc = self.app.transcripts
        if svc is None:  # (not yet made: the app makes it on mount)
            return
        files = [(s.session_id, Path(sc.path)) for s in svc.sessions for sc in s.scans]
        hits = list(search(files, query, limit=500))
        self.app.hand_off(self._show_hits, query, hits)

    def _show_hits(self, query: str, hits) -> None:
        self.hits = hits
        table = self.query_one("#sessions", DataTable)
        table.clear()
        svc = self.app.transcripts
        titles = {s.session_id: s.title for s in svc.sessions} if svc is not None else {}
        for i, h in enumerate(hits):
            table.add_row(h.turn.timestamp[:16].replace("T", " "), h.turn.role, "", "", h.session_id[:8],
                          Text(f"{titles.get(h.session_id, '')[:30]} │ {h.snippet}", no_wrap=True, overflow="ellipsis"),
                          key=str(i))
        self.query_one("#sessions-status", Static).update(f"{len(hits)} hit(s) for {query!r} · Esc: all sessions")
        table.focus()

    def action_back(self) -> None:
        if self.only is not None and not self.hits:
            self.only = None
            self._on_sessions(None)
        if self.hits:
            self.hits = []
            self.query_one("#session-search", Input).value = ""
            self._on_sessions(None)
        self.query_one("#sessions", DataTable).focus()

    # -- mining ----------------------------------------------------------------

    def check_action(self, action: str, parameters) -> bool | None:
        """Marking and mining need an open conversation; the footer shows them only then (and
        then leaves out the list's prune, so it fits 80 columns)."""
        if not super().check_action(action, parameters):
            return False
        if action in ("mark", "mine"):
            return bool(self.turns)
        if action == "prune_unused":
            return not (self.turns and self.focused is self.query_one("#conversation", DataTable))
        return True

    def _cursor_turn(self) -> int | None:
        conv = self.query_one("#conversation", DataTable)
        if not self.turns or not conv.row_count:
            return None
        return conv.cursor_row

    def action_mark(self) -> None:
        i = self._cursor_turn()
        if i is None:
            return
        self.mark = None if self.mark == i else i
        self._detail(i)
        self.notify("passage start marked: move to its end and press m or M" if self.mark is not None
                    else "mark cleared", timeout=3)

    def action_mine(self, kind: str) -> None:
        mine(self, kind)

    def action_prune_unused(self, days: int = 90) -> None:
        prune_unused(self, days)
