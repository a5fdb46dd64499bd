"""Command-palette entries for every app action ("area: action")."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

ACTIONS = [
    ("store: show the store tree", "show_view('store')"),
    ("problems: show every finding", "show_view('problems')"),
    ("budgets: show token budgets and the cost model", "show_view('budgets')"),
    ("tiers: each folder's tier and the start-up load, with why", "tiers"),
    ("retrieval: open the retrieval lab", "show_view('lab')"),
    ("sessions: the agent's sessions — browse, search, mine; memory usage", "show_view('sessions')"),
    ("review: the memory's changes against git HEAD", "show_view('review')"),
    # ("history" is the operations' word: drift says "past commits", so the palette's history opens history)
    ("history: every operation curator applied, newest first (ctrl+z undoes it)", "history"),
    ("drift: what is out of step; start-up load over past commits", "show_view('drift')"),
    ("context: what each agent loads — start-up files, on demand, imports", "show_view('context')"),
    ("store: re-check the whole store", "reload_store"),
    ("curate: fix every finding that has a fix (preview first)", "fix_all"),
    ("curate: refresh stale L0 token counts (preview first)", "refresh_counts"),
    ("curate: prune or archive transient records (pick, then preview)", "prune"),
    ("curate: undo the last operation", "undo"),
    ("help: show keys for this screen", "help"),
    ("theme: next theme", "next_theme"),
    ("app: quit", "quit"),
]


class CuratorCommands(Provider):
    """Screens, reload, help, themes, and 'open: <file>' for every file in the store."""

    def _commands(self):
        app = self.app
        out = [(title, partial(app.run_action, action)) for title, action in ACTIONS]
        for name in sorted(app.available_themes):
            out.append((f"theme: use {name}", partial(setattr, app, "theme", name)))
        repo = getattr(app, "workbench", None)
        if repo is not None and len(repo.loaded()) > 1:
            out.append(("scope: the whole repository (every memory system)", partial(app.set_scope, None)))
            for i, src in repo.loaded():
                out.append((f"scope: only {src.name}", partial(app.set_scope, i)))
        ws = getattr(app, "workspace", None)
        if repo is not None and len(repo.loaded()) > 1:  # every memory system's files, by repository path
            from ..live.scope import prefix_of

            single = bool(getattr(repo.layout, "single", False))
            for i, src in repo.loaded():
                pre = prefix_of(src.spec, single)
                for path in src.workspace.store.records:
                    out.append((f"open: {pre}{path}", partial(_open_in, app, i, path)))
        elif ws is not None:
            for path in ws.store.records:
                out.append((f"open: {path}", partial(app.open_path, path)))
        if ws is not None:
            for path, rec in ws.store.records.items():
                if rec.level == 2 and rec.tier in ("transient", "reflexion"):
                    out.append((f"curate: promote {path}", partial(app.choices.promote, path)))
        return out

    async def discover(self) -> Hits:
        for title, callback in self._commands()[: len(ACTIONS)]:
            yield DiscoveryHit(title, callback)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, callback in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback)


def _open_in(app, source: int, path: str) -> None:
    """Open a file of another memory system: it becomes the current one first."""
    bench = app.workbench
    if bench is not None and bench.current != source:
        app.select_source(source)
    app.open_path(path)
