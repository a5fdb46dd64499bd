"""Every dead end of issue 33 gets a way forward: a key that did nothing does something, or says
what will."""

from __future__ import annotations

from textual.widgets import DataTable

from curator.base.tokens import FakeTokenCounter
from curator.demo import sample_copy
from curator.model.discovery import locate_store
from curator.tui.app import make_app
from curator.tui.dialogs import DiffDialog, HistoryDialog, KeywordDialog
from curator.tui.screens import MainScreen
from curator.tui.widgets import IndexView, StoreTree

from .conftest import back_to_start, drawn_lines, press_on_row, settle, text_of, wait_until


def _demo(tmp_path, monkeypatch, size=(80, 24)):
    """The demo as a newcomer opens it: the private copy of the sample repository (every memory
    system, git history, two sessions), the whole repository in scope."""
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)
    located = locate_store(None, demo=sample_copy)
    return make_app(located.root, given=located.given, notice=located.notice, layout=located.layout,
                    token_counter=FakeTokenCounter(), theme="curator-dark", remember_theme=False)


def _notices(app) -> str:
    return " ".join(str(n.message) for n in app._notifications)


async def _open_index(app, pilot, source_name: str, path: str):
    session = app.workbench
    index = next(i for i, s in session.loaded() if s.name == source_name)
    app.select_source(index)
    await settle(app, pilot)
    app.screen.open_path(path)
    await settle(app, pilot)
    view = app.screen.query_one(IndexView)
    table = view.query_one(DataTable)
    table.focus()
    await pilot.pause()
    return view, table


async def _enter_and_e_on_memory_index_rows(app, pilot):
    await settle(app, pilot)
    view, table = await _open_index(app, pilot, ".serena/memories", "memory-index.md")
    table.move_cursor(row=1)  # |git rebase …: [skills-git-index](skills-git-index.md) (200), …
    await pilot.pause()
    await pilot.press("e")  # keywords of an L0 row: the editor, as for a domain index row
    await settle(app, pilot)
    assert isinstance(app.screen, KeywordDialog) and app.screen.index == "memory-index.md"
    await pilot.press("escape")
    await settle(app, pilot)
    table.focus()
    await pilot.press("enter")  # opens what the row routes to
    await settle(app, pilot)
    await wait_until(pilot, lambda: app.screen.selected == "skills-git-index.md")


async def _enter_and_e_on_memory_md_rows(app, pilot):
    await settle(app, pilot)
    view, table = await _open_index(app, pilot, ".claude/memory", "MEMORY.md")
    await pilot.press("e")  # MEMORY.md routes by no keywords: it says what to do instead
    await settle(app, pilot)
    assert not isinstance(app.screen, KeywordDialog)
    assert "routes by no keywords" in _notices(app) and "Enter opens" in _notices(app)
    target = view._rows[table.cursor_row].links[0].target
    await pilot.press("enter")
    await settle(app, pilot)
    await wait_until(pilot, lambda: app.screen.selected == target)


async def _mining_in_the_whole_repository_names_the_store_it_writes_to(app, pilot):
    await settle(app, pilot)
    assert app.scope is None  # the whole repository
    await pilot.press("5")
    await settle(app, pilot)
    await wait_until(pilot, lambda: app.screen.query_one("#sessions", DataTable).row_count > 0)
    app.screen.query_one("#sessions", DataTable).focus()
    await pilot.press("enter")
    await settle(app, pilot)
    await wait_until(pilot, lambda: bool(app.screen.turns))
    await pilot.press("m")
    await settle(app, pilot)
    assert isinstance(app.screen, DiffDialog)
    notes = text_of(app.screen.query_one("#diff-notes"))
    assert "writes to .serena/memories" in notes
    heads = [line.plain for line in app.screen.query_one("#diff-body").content.at(200)]
    assert any(h.startswith("+++ b/.serena/memories/reflexion/") for h in heads)  # repository paths


async def _palette_history_opens_history(app, pilot):
    await settle(app, pilot)
    await pilot.press("ctrl+p")
    await settle(app, pilot)
    await pilot.press(*"history")
    await settle(app, pilot)  # the palette's search is a worker: settled, its hits are listed
    await pilot.press("enter")
    await settle(app, pilot)
    assert isinstance(app.screen, HistoryDialog)


async def _fix_everything_previews_every_fixable_finding_and_says_which_need_confirmation(app, pilot):
    from curator.curation.fix import is_safe

    ws = app.workspace
    fixable = [f for f in ws.findings if f.fix is not None]
    asked = {f.check for f in fixable if not is_safe(ws.store, f)}
    assert asked  # the sample has fixes `curator fix` plans only when asked
    app.action_fix_all()
    await settle(app, pilot)
    assert isinstance(app.screen, DiffDialog)
    notes = " ".join(app.screen.plan.notes)
    assert "need your confirmation" in notes and all(c in notes for c in asked)
    touched = {e.path for e in app.screen.plan.edits}
    assert any(f.path in touched for f in fixable if not is_safe(ws.store, f))  # not only the safe ones
    await pilot.press("n")


async def _x_on_a_collision_opens_the_keyword_editor(app, pilot):
    await settle(app, pilot)
    await pilot.press("2")
    await settle(app, pilot)
    screen = app.screen
    row = next(i for i, x in enumerate(screen.shown)
               if x.finding.check == "keywords.collision" and x.finding.target is not None)
    await press_on_row(app, pilot, row)
    assert isinstance(app.screen, KeywordDialog)
    assert "new keywords" in _notices(app)


async def _x_on_an_index_collision_rate_opens_that_index(app, pilot):
    """The rate is the whole index's (its line is the table's header, no row): x opens the index,
    whose uniq column says which rows share words, and the hint names no row that is not one."""
    from curator.model.hints import hint

    await pilot.press("2")
    await settle(app, pilot)
    screen = app.screen
    row = next(i for i, x in enumerate(screen.shown)
               if x.finding.check == "keywords.collision" and x.finding.target is None)
    f = screen.shown[row].finding
    assert "LINE" in hint(f).command and f":{f.line} " not in hint(f).command
    await press_on_row(app, pilot, row)
    assert isinstance(app.screen, MainScreen) and not isinstance(app.screen, KeywordDialog)
    view = app.screen.query_one(IndexView)
    assert view.display and view._path == f.path
    assert "rows under 100% uniq share words" in _notices(app)
    assert "has no automatic fix" not in _notices(app)


async def test_undo_of_a_promote_keeps_the_folds_and_the_cursor(app, sample_copy):
    from textual.widgets import Input, Select

    from curator.tui.dialogs import PromoteDialog

    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        tree = screen.query_one(StoreTree)
        screen.open_path("validation/2026-11-18-c0ffee.md")
        await settle(app, pilot)
        open_before = {n.label.plain.split(" ")[0] for n in _expanded(tree)}
        assert "validation/" in open_before
        await pilot.press("p")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, PromoteDialog)
        dialog.query_one("#pr-index", Select).value = "skills-ci-index.md"
        dialog.query_one("#pr-dest", Input).value = "ci/ci-webhook-signing-rotation.md"
        await settle(app, pilot)
        await pilot.click("#preview")
        await settle(app, pilot)
        await pilot.press("y")
        await settle(app, pilot)
        assert (sample_copy / "ci/ci-webhook-signing-rotation.md").exists()
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        await wait_until(pilot, lambda: not (sample_copy / "ci/ci-webhook-signing-rotation.md").exists())
        await settle(app, pilot)
        open_after = {n.label.plain.split(" ")[0] for n in _expanded(tree)}
        assert open_before <= open_after  # every folder open before is open again
        cursor = tree.cursor_node
        assert cursor is not None and tree.cursor_line > 0  # not thrown back to the top
        assert any(a is not None and a.label.plain.startswith(("validation/", "ci/", "semantic", "transient"))
                   for a in _ancestors(cursor))


def _expanded(tree):
    out, nodes = [], list(tree.root.children)
    while nodes:
        node = nodes.pop()
        if node.is_expanded:
            out.append(node)
            nodes.extend(node.children)
    return out


def _ancestors(node):
    while node is not None:
        yield node
        node = node.parent


async def test_a_plain_store_behind_its_index_does_not_read_all_clear(make_store):
    files = {f"note_{i}.md": f"# Note {i}\n\n{'word ' * 3000 if i % 2 else 'short'}\n" for i in range(24)}
    files["INDEX.md"] = "# Index\n\n" + "".join(f"- **note_{i}** — note {i}\n" for i in range(4))
    store = make_store(files, name="plain/.serena/memories")
    app = make_app(store, token_counter=FakeTokenCounter(), theme="curator-dark")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        header = str(app.screen.query_one("#totals").render())
        assert "▲0" not in header and "▲2" in header  # over budget and unindexed: warnings, as check counts


async def _the_narrowed_tree_never_cuts_a_count(app, pilot):
    await settle(app, pilot)
    app.screen.open_path("memory-index.md")
    await settle(app, pilot)
    tree = app.screen.query_one(StoreTree)
    for _ in range(12):
        await pilot.press("less_than_sign")
    await settle(app, pilot)
    for y, line in enumerate(drawn_lines(tree)[:tree.last_line + 1]):
        line = line.rstrip("▕ ")
        node = tree.get_node_at_line(y)
        if node is None:
            continue
        count = node.label.plain.rsplit(" ", 1)[-1]
        assert line.rstrip().endswith(count), (line, count)  # `737`, never `73`
    await pilot.press(*["greater_than_sign"] * 2)  # > widens again at once
    await settle(app, pilot)


async def _percentages_say_what_they_are_relative_to(app, pilot):
    """The collision finding's share is of the smaller row's keywords against another index; the
    index view's rate and uniqueness are within the index — each says so."""
    crossed = next(f for f in app.workspace.findings if f.check == "keywords.collision" and f.target)
    assert "a row of another index" in crossed.message and "of the smaller row's" in crossed.message
    app.screen.open_path(crossed.target)
    await settle(app, pilot)
    view = app.screen.query_one(IndexView)
    assert "collision rate" in text_of(view.query_one("#index-facts")) and \
        "within this index" in text_of(view.query_one("#index-facts"))
    assert "no other row of this index uses" in text_of(view.query_one("#overlaps"))  # the highlighted row


async def test_the_history_at_80_columns_says_what_each_operation_did(tmp_path, monkeypatch):
    """Columns as wide as what they hold, no year at 80 columns: the title (what was done) keeps
    the room it needs to be read, not `keyword…`."""
    from curator.tui.widgets import RowTable

    app = _demo(tmp_path, monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await _open_index(app, pilot, ".serena/memories", "skills-git-index.md")
        app.choices.edit_keywords("skills-git-index.md", 3)
        await settle(app, pilot)
        assert isinstance(app.screen, KeywordDialog)
        await pilot.press("end", *" cherrypick", "ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, DiffDialog)
        await pilot.press("y")
        await settle(app, pilot)
        app.action_history()
        await settle(app, pilot)
        assert isinstance(app.screen, HistoryDialog)
        row = [str(c) for c in app.screen.query_one(RowTable).get_row_at(0)]
        assert row[:2] == ["00001-keywords", "applied"] and len(row[2]) == len("11-28 02:46"), row  # whole, no year
        assert next(c for c in row if c.startswith("keywords of")).startswith("keywords of git/git-i"), row
        detail = text_of(app.screen.query_one("#history-detail"))  # what the row cuts, whole
        assert "keywords of git/git-interactive-rebase.md in skills-git-index.md:3" in detail.replace("\n", " ")
        assert "2 file(s): skills-git-index.md, memory-index.md" in detail.replace("\n", " ")


async def _the_instruction_scope_header_says_no_wrong_token_number(app, pilot):
    """The instruction files' own scope at 80 columns: its name, its files and findings, each
    agent's start-up whole — and no `0 tok` (their tokens are each agent's start-up, not one sum)."""
    from curator.live.scope import INSTRUCTIONS, scope_totals

    await wait_until(pilot, lambda: app.context_model is not None)
    app.set_scope(INSTRUCTIONS)
    await settle(app, pilot)
    header = " ".join(text_of(w) for w in app.screen.query("StatusHeader Static")).replace("\n", " ")
    header += " " + app.screen.query_one("StatusHeader BudgetBar").render().plain
    t = scope_totals(app.workbench, INSTRUCTIONS)
    assert header.split()[0] == "instructions", header
    assert f"{t['files']} files · ✖{t['errors']} ▲{t['warnings']} ●{t['infos']}" in header, header
    assert " tok " not in header
    model = app.context_model
    for name in ("claude-code", "codex"):
        ctx = model.agents[name]
        assert f"{ctx.label} {ctx.startup_tokens:,}" in header, header


async def _problems_source_column_holds_every_label_whole(app, pilot):
    """The whole repository's Problems at 80 columns: an instruction file's finding says `context`
    (it read `conte…`, the column as wide as the memory systems' names only)."""
    await wait_until(pilot, lambda: app.context_model is not None)
    await pilot.press("2")
    await settle(app, pilot)
    screen = app.screen
    row = next(i for i, x in enumerate(screen.shown) if x.finding.check.startswith("instructions."))
    cells = [str(c) for c in screen.query_one(DataTable).get_row_at(row)]
    assert cells[1] == "context", cells


# -- read-only steps share one launch each (a launch is ~1 s of CPU): each step starts from the
# store screen with no dialog and no toast (`back_to_start`), in the order that keeps what a step
# expects of a fresh app (the whole repository in scope for those that say so)

async def test_read_only_dead_ends_of_the_sample_store(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        for step in (_palette_history_opens_history,
                     _fix_everything_previews_every_fixable_finding_and_says_which_need_confirmation,
                     _x_on_a_collision_opens_the_keyword_editor,
                     _x_on_an_index_collision_rate_opens_that_index,
                     _percentages_say_what_they_are_relative_to,
                     _the_narrowed_tree_never_cuts_a_count):
            await step(app, pilot)
            await back_to_start(app, pilot)


async def test_read_only_dead_ends_of_the_demo(tmp_path, monkeypatch):
    app = _demo(tmp_path, monkeypatch)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        for step in (_mining_in_the_whole_repository_names_the_store_it_writes_to,  # whole repository first
                     _problems_source_column_holds_every_label_whole,
                     _enter_and_e_on_memory_index_rows,  # these pick a source
                     _enter_and_e_on_memory_md_rows,
                     _the_instruction_scope_header_says_no_wrong_token_number):
            await step(app, pilot)
            await back_to_start(app, pilot)
