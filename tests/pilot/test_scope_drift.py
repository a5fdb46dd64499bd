"""The app's scope (whole repository by default, s narrows to one memory system) counts as
`curator check` does; the drift screen charts the start-up load over git history."""

from __future__ import annotations

import json

from curator.base.tokens import FakeTokenCounter, default_counter
from curator.cli import main
from curator.demo.repository import build_history
from curator.tui.app import make_app

from .conftest import back_to_start, settle, text_of, wait_until


def _cli_summary(capsys, repo, source=None) -> dict:
    main(["check", "--format", "json", str(repo)])
    data = json.loads(capsys.readouterr().out)
    if source is None:
        return data["summary"]
    return next(s for s in data["sources"] if s["name"] == source)


def _header(app) -> str:
    return str(app.screen.query_one("#totals").render())


def _app(repo, counter=None):
    return make_app(repo, given="sample_memories", token_counter=counter or FakeTokenCounter(), theme="curator-dark")


async def _header_problems_and_overview_count_as_the_cli_does(app, pilot, whole: dict, claude: dict):
    await settle(app, pilot)
    assert app.scope is None
    header = _header(app)
    assert f"✖{whole['errors']} ▲{whole['warnings']} ●{whole['infos']}" in header
    assert f"{whole['files']} files" in header
    overview = text_of(app.screen.query_one("#overview-body"))
    assert f"✖{whole['errors']} ▲{whole['warnings']} ●{whole['infos']}" in overview
    await pilot.press("2")
    await settle(app, pilot)
    total = whole["errors"] + whole["warnings"] + whole["infos"]
    counts = str(app.screen.query_one("#problem-counts").render())
    assert f"{total} of {total}" in counts and "whole repository" in counts
    sources = {str(app.screen.query_one("#problems").get_cell_at((r, 1)))
               for r in range(app.screen.query_one("#problems").row_count)}
    assert {"serena", "claude"} <= sources  # every source's findings, each row labelled
    # s narrows: the scope is written, and the counts are that source's (as the CLI's)
    while app.scope is None or app.workbench.sources[app.scope].name != ".claude/memory":
        await pilot.press("s")
        await settle(app, pilot)
    n = claude["errors"] + claude["warnings"] + claude["infos"]
    counts = str(app.screen.query_one("#problem-counts").render())
    assert f"{n} of {n}" in counts and ".claude/memory" in counts
    assert f"✖{claude['errors']} ▲{claude['warnings']} ●{claude['infos']}" in _header(app)
    assert app.workspace is app.workbench.sources[app.scope].workspace  # fixes go to that source


async def test_fixing_a_finding_of_another_source_from_the_whole_repository(sample_repo_copy):
    app = _app(sample_repo_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        screen = app.screen
        row = next(i for i, x in enumerate(screen.shown)
                   if app.workbench.sources[x.source].name == ".claude/memory" and x.finding.fix is not None)
        screen.query_one("#problems").move_cursor(row=row)
        before = app.workbench.sources[screen.shown[row].source].workspace.findings
        await pilot.press("x")
        await settle(app, pilot)
        assert app.screen.__class__.__name__ == "DiffDialog"
        await pilot.press("y")
        await settle(app, pilot)
        def claude():  # the source now: each write swaps in the next immutable one
            return next(s for s in app.workbench.sources if s.name == ".claude/memory")

        assert len(claude().workspace.findings) < len(before)
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert len(claude().workspace.findings) == len(before)


async def _drift_charts_the_start_up_load_and_names_the_commits(app, pilot):
    await settle(app, pilot)
    await pilot.press("6")
    await settle(app, pilot)
    await wait_until(pilot, lambda: "grew most" in text_of(app.screen.query_one("#drift-grew")))
    grew = text_of(app.screen.query_one("#drift-grew"))
    assert "Claude Code memory: MEMORY.md" in grew or "Experience entries" in grew
    table = app.screen.query_one("#drift-table")
    kinds = {str(table.get_cell_at((r, 1))) for r in range(table.row_count)}
    assert {"index row → no file", "MEMORY.md ↔ topic file"} <= kinds
    assert app.focused is table  # keys act on the table; nothing typed anywhere


async def _problems_never_start_in_the_filter(app, pilot):
    await pilot.press("2")  # before the load ends too
    await settle(app, pilot)
    assert app.focused is app.screen.query_one("#problems")
    await pilot.press("j", "3")
    assert app.screen.__class__.__name__ == "BudgetsScreen"


async def test_sessions_run_elsewhere_are_one_key_away(sample_repo_copy, tmp_path, monkeypatch):
    import os
    from pathlib import Path

    from curator.demo.repository import write_transcripts

    elsewhere = tmp_path / "another-checkout"
    elsewhere.mkdir()
    write_transcripts(elsewhere, Path(os.environ["CLAUDE_CONFIG_DIR"]) / "projects")
    app = _app(sample_repo_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("5")
        await wait_until(pilot, lambda: app.transcripts is not None and app.transcripts.indexed)
        assert app.transcripts.sessions == []
        await pilot.press("a")  # like `curator sessions --all`
        await wait_until(pilot, lambda: app.transcripts.indexed and len(app.transcripts.sessions) == 4)
        assert "run anywhere" in str(app.screen.query_one("#sessions-status").render())


async def _drift_filters_by_kind_and_text_as_the_cli_does(app, pilot, every: list, cli: list, claude: list):
    from curator.live.drift import kind_id

    first = every[0]["kind_id"]  # t's first kind: the table's order, the CLI's
    await settle(app, pilot)
    await pilot.press("6")
    await settle(app, pilot)
    screen = app.screen
    table = screen.query_one("#drift-table")
    assert table.row_count == len(every)
    await pilot.press("t")  # the first kind in the table's order
    await pilot.pause()
    assert kind_id(screen.kind) == first
    assert 0 < table.row_count == len(cli) < len(every)
    assert [k for k, _ in screen.shown] == [d["kind"] for d in cli]
    assert f"{len(cli)} of {len(every)} out of step" in text_of(screen.query_one("#drift-scope"))
    # / narrows by words too; Esc leaves the box and t goes on to the next kind
    await pilot.press("slash", *"claude")
    await pilot.pause()
    assert all("claude" in f"{k} {x.where} {x.finding.message}".lower() for k, x in screen.shown)
    await pilot.press("escape")
    assert screen.focused is table
    for _ in screen.kinds:
        await pilot.press("t")
    await pilot.pause()
    assert screen.kind is None  # every kind again after the last
    assert 0 < table.row_count == len(claude) < len(every)


# -- steps that share a launch (a launch of the sample repository reads every memory system)

async def test_problems_never_start_in_the_filter_and_drift_charts_the_history(sample_repo_copy):
    assert build_history(sample_repo_copy) is None
    app = _app(sample_repo_copy)
    async with app.run_test(size=(80, 24)) as pilot:
        await _problems_never_start_in_the_filter(app, pilot)  # first: `2` before the load ends
        await back_to_start(app, pilot)
        await _drift_charts_the_start_up_load_and_names_the_commits(app, pilot)


async def test_drift_header_problems_and_overview_count_as_the_cli_does(capsys, sample_repo_copy, monkeypatch):
    """Both faces on the same counts: the drift table filtered by kind and text as `curator drift`
    filters, then the header, Problems and the overview as `curator check` counts, the whole
    repository and one source (the last step narrows the scope)."""
    monkeypatch.setenv("CURATOR_TOKENS", "estimate")  # the same counts (stale counts too) in both faces
    main(["drift", "--format", "json", str(sample_repo_copy)])
    every = json.loads(capsys.readouterr().out)["drift"]
    main(["drift", "--format", "json", "--kind", every[0]["kind_id"], str(sample_repo_copy)])
    cli = json.loads(capsys.readouterr().out)["drift"]
    main(["drift", "--format", "json", "--text", "claude", str(sample_repo_copy)])
    claude_drift = json.loads(capsys.readouterr().out)["drift"]
    whole = _cli_summary(capsys, sample_repo_copy)
    claude = _cli_summary(capsys, sample_repo_copy, ".claude/memory")
    app = _app(sample_repo_copy, default_counter())  # (the app holds stdout while it runs)
    async with app.run_test(size=(80, 24)) as pilot:
        await _drift_filters_by_kind_and_text_as_the_cli_does(app, pilot, every, cli, claude_drift)
        await back_to_start(app, pilot)
        await _header_problems_and_overview_count_as_the_cli_does(app, pilot, whole, claude)
