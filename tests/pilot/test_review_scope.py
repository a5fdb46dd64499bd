"""The review screen follows the scope: in the whole repository every memory system's changes,
each under its name, and each agent's start-up change, with the totals `curator review` prints
(text and JSON); s narrows it to one memory system (the one-store view)."""

from __future__ import annotations

import json
import shutil

import pytest

from curator.base.tokens import FakeTokenCounter, default_counter
from curator.cli import main
from curator.demo.repository import build_history
from curator.tui.app import make_app

from .conftest import settle, text_of, wait_until

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.fixture
def history_repo(sample_repo_copy, monkeypatch):
    monkeypatch.setenv("CURATOR_TOKENS", "estimate")  # the same counts in the app and the CLI
    assert build_history(sample_repo_copy) is None
    with (sample_repo_copy / "CLAUDE.md").open("a") as fh:  # an instruction file changes too
        fh.write("\nRun the contract tests before every merge to main.\n")
    return sample_repo_copy


def _rows(table) -> list[str]:
    """What each row says (its cells as given: at 80 columns the pane cuts them, with an ellipsis)."""
    return [" ".join(str(c) for c in table.given_row(i)) for i in range(table.row_count)]


def _flat(text: str) -> str:
    return " ".join(text.split())


async def _open_review(app, pilot):
    await settle(app, pilot)
    await app.run_action("show_view('review')")
    await settle(app, pilot)
    await wait_until(pilot, lambda: "comparing" not in text_of(app.screen.query_one("#review-summary")))
    return app.screen


async def test_whole_repository_reviews_every_memory_system_as_the_cli_does(capsys, history_repo):
    from curator.model.sources import discover

    main(["review", "--format", "json", str(history_repo)])
    data = json.loads(capsys.readouterr().out)
    main(["review", str(history_repo)])
    cli_text = _flat(capsys.readouterr().out)
    changed = [s["source"] for s in data["sources"] if s["status"] != "unchanged"]
    assert len(changed) >= 2 and data["agents"]  # the fixture's point: several systems and an agent

    app = make_app(history_repo, given="sample_memories", token_counter=default_counter(), theme="curator-dark",
                   remember_theme=False, layout=discover(history_repo))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_review(app, pilot)
        assert app.scope is None
        summary = _flat(text_of(screen.query_one("#review-summary")))
        s = data["summary"]
        totals = (f"{s['changed']} of {s['sources']} sources changed · {s['records']} records · "
                  f"{s['rows']} index rows · {s['introduced']} new findings · {s['resolved']} resolved")
        assert totals in summary and totals in cli_text  # the same line, the JSON's numbers
        table = screen.query_one("#review-changes")
        rows = _rows(table)
        # each changed memory system heads its own changes, in the CLI's order
        heads = [i for i, r in enumerate(rows) if any(name in r and "changed" in r for name in changed)]
        assert len(heads) == len(changed)
        assert [next(n for n in changed if n in rows[i]) for i in heads] == changed
        records = sum(len(x["records"]) for x in data["sources"])
        assert sum(1 for r in rows if "added" in r or "modified" in r or "removed" in r) >= records
        # the instruction files' change: each agent's start-up, first (Serena's too: a memory added
        # is one more name its activation lists)
        agents = data["agents"]
        assert rows[0].startswith("start-up") and [a["agent"] in r for a, r in zip(agents, rows, strict=False)] == \
            [True] * len(agents)
        assert agents[0]["agent"] == "serena" and ".serena/memories" in rows[0]
        i, agent = next((i, a) for i, a in enumerate(agents) if "CLAUDE.md" in rows[i])
        table.move_cursor(row=i)
        await pilot.pause()
        assert f"{agent['before']:,} → {agent['after']:,}" in text_of(screen.query_one("#review-diff"))
        # a record of the second system: its diff, and Enter opens it in that system
        second = heads[1] + 1
        table.move_cursor(row=second)
        await pilot.pause()
        assert "+++ b/" in text_of(screen.query_one("#review-diff"))
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.current_view == "store")
        assert app.workbench.sources[app.workbench.current].root.as_posix().endswith(changed[1].split("/")[0])


async def test_s_narrows_the_review_to_one_memory_system(history_repo):
    from curator.model.sources import discover

    app = make_app(history_repo, given="sample_memories", token_counter=FakeTokenCounter(), theme="curator-dark",
                   remember_theme=False, layout=discover(history_repo))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _open_review(app, pilot)
        await pilot.press("s")
        await settle(app, pilot)
        name = app.workbench.sources[app.scope].name
        await wait_until(pilot, lambda: screen.review is not None and not screen.whole)
        rows = _rows(screen.query_one("#review-changes"))
        assert not any(r.startswith("start-up") for r in rows)  # the agents belong to the whole
        assert all(s.source.startswith(name.strip("/")) for s in screen.review.stores)
        assert "sources changed" not in text_of(screen.query_one("#review-summary"))
