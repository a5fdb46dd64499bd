"""One start-up number per memory system and per agent, the same on every face: the app's header,
overview, Budgets and Context view (driven with Pilot) against `curator tokens` (its sources and
agents), `check` and `context` JSON — on the sample repository and on three corpus repositories with real memory
stores copied in."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from curator.base.tokens import default_counter
from curator.cli import main
from curator.model.sources import discover
from curator.tui.app import make_app
from curator.tui.widgets import BudgetBar
from tests.pilot.conftest import settle, text_of, wait_until

CORPORA = Path(os.environ.get("CURATOR_CORPORA", "/work/shared/corpora"))
# instruction repository -> memory stores copied into it (corpus folder, path in the repository)
REPOS = {
    "modelcontextprotocol__python-sdk": [("serena/kynesyslabs__node/.serena/memories", ".serena/memories")],
    "pydantic__pydantic-ai": [("claude/abl030__cratedigger/.claude/memory", ".claude/memory")],
    "312-dev__eclosion-for-monarch": [("tiered/michellepellon__baez/.serena/memories", ".serena/memories"),
                                      ("claude/lmchoi__learning-tool/.claude/memory", ".claude/memory")],
}


def _cli_json(capsys, *argv) -> dict:
    main(list(argv))
    return json.loads(capsys.readouterr().out)


def _cli_numbers(capsys, root: Path) -> tuple[dict, dict]:
    """({memory source: start-up tokens}, {agent: start-up tokens}) from the CLI's JSON, after
    checking that `tokens` and `check` agree."""
    tokens = _cli_json(capsys, "tokens", str(root), "--format", "json")
    check = _cli_json(capsys, "check", str(root), "--format", "json")
    context = _cli_json(capsys, "context", str(root), "--format", "json")
    from_tokens = {s["name"]: s["tokens_report"]["startup"]["tokens"] for s in tokens["sources"]}
    assert {s["name"]: s["startup"]["tokens"] for s in tokens["sources"]} == from_tokens
    assert {s["name"]: s["startup"]["tokens"] for s in check["sources"] if "startup" in s} == from_tokens
    agents = {a["agent"]: a["startup"]["tokens"] for a in context["agents"]}
    assert {a["agent"]: a["startup"]["tokens"] for a in tokens["agents"]} == agents
    assert {a["agent"]: a["startup"]["tokens"] for a in check["agents"]} == agents
    if ".serena/memories" in from_tokens and "serena" in agents:  # Serena the agent = the store's load
        assert agents["serena"] == from_tokens[".serena/memories"]
    return from_tokens, agents


async def _app_numbers(root: Path) -> tuple[dict, dict, dict, dict, dict]:
    """What the app shows: header, overview and Budgets per memory source; overview and Context
    view per agent."""
    app = make_app(root, given=root.name, token_counter=default_counter(), theme="curator-dark",
                   remember_theme=False, layout=discover(root))
    header, overview, budgets, agents_overview, agents_view = {}, {}, {}, {}, {}
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await wait_until(pilot, lambda: app.context_model is not None)
        await settle(app, pilot)
        session = app.workbench
        text = text_of(app.screen.query_one("#overview-body"))
        model = app.context_model
        for name, ctx in model.agents.items():
            line = next(ln for ln in text.splitlines() if ln.strip().startswith(ctx.label + " ") and "start-up:" in ln)
            agents_overview[name] = int(line.split("start-up:")[1].split("tokens")[0].replace(",", ""))
        for _i, src in session.loaded():
            block = text.split(src.name + "  ", 1)[1]
            overview[src.name] = int(block.split("start-up: ")[1].split(" tokens")[0].replace(",", ""))
        await app.show_view("budgets")
        for i, src in session.loaded():
            app.set_scope(i)  # narrowed: the header shows that source's own start-up bar
            await settle(app, pilot)
            header[src.name] = app.screen.query_one(BudgetBar).used
            shown = text_of(app.screen.query_one("#startup"))
            # the last "Start-up load": the selected source's (the whole repository lists every one first)
            budgets[src.name] = int(shown.rsplit("Start-up load", 1)[1].split("tokens")[0].split("/")[0]
                                    .strip().replace(",", ""))
        await pilot.press("7")
        await settle(app, pilot)
        table = app.screen.query_one("#context-agents-table")
        for row in range(table.row_count):
            key = table.coordinate_to_cell_key((row, 0)).row_key.value
            agents_view[key] = int(str(table.get_row_at(row)[1]).replace(",", ""))
    return header, overview, budgets, agents_overview, agents_view


async def _same_everywhere(capsys, root: Path) -> None:
    memory, agents = _cli_numbers(capsys, root)
    header, overview, budgets, agents_overview, agents_view = await _app_numbers(root)
    assert memory and header == overview == budgets == memory
    assert agents and agents_overview == agents_view == agents


async def test_the_sample_shows_one_start_up_number_everywhere(capsys, sample_repo_copy):
    await _same_everywhere(capsys, sample_repo_copy)


@pytest.mark.skipif(not (CORPORA / "instructions" / "materialize.py").exists(), reason="no corpus here")
@pytest.mark.parametrize("name", sorted(REPOS))
async def test_corpus_repositories_show_one_start_up_number_everywhere(capsys, tmp_path, name):
    from curator.bench.context_corpus import materialize

    root = Path(materialize(str(CORPORA / "instructions"), name, str(tmp_path / name)))
    for src, dest in REPOS[name]:
        shutil.copytree(CORPORA / src, root / dest, symlinks=True)
    await _same_everywhere(capsys, root)
