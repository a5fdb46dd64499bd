"""The route walks what the agent reads: of a Claude Code MEMORY.md its first 200 lines. A row past
the cap routes nowhere (RDForward's `rd-bot-plan.md` is linked only at line 276), `--why` says so,
and the route trace counts the index as the start-up load does (one number on both screens)."""

from __future__ import annotations

from curator.base.tokens import FakeTokenCounter
from curator.budgets.startup import startup_of
from curator.model import load_store
from curator.retrieval import RetrievalEngine


def _store(make_store):
    memory = "# Memory\n- [Deploy](deploy.md) — releasing the web app\n"
    memory += "".join(f"- note {i}: nothing to route here\n" for i in range(200))
    memory += "- [Headless bots](rd-bot-plan.md) — protocol-level headless bot plan\n"
    files = {"MEMORY.md": memory,
             "deploy.md": "---\nname: deploy\ndescription: d\ntype: project\n---\nShip it.\n",
             "rd-bot-plan.md": "---\nname: bots\ndescription: b\ntype: project\n---\nBots.\n"}
    return load_store(make_store(files, name="memory"), token_counter=FakeTokenCounter())


def test_a_row_past_the_cap_routes_nowhere_and_the_trace_counts_what_loads(make_store):
    store = _store(make_store)
    eng = RetrievalEngine(store)
    res = eng.search("headless bot plan", k=3, source="route")
    assert [h.path for h in res.route.hits] == []
    first = res.route.steps[0]
    assert first.path == "MEMORY.md" and first.tokens == startup_of(store).tokens  # its cut text, with the warning line
    why = eng.why("rd-bot-plan.md", "headless bot plan", res)
    assert "its row MEMORY.md:203 is past the agent's load cap (line 201 on)" in why
    assert [h.path for h in eng.search("releasing web app", k=3, source="route").route.hits] == ["deploy.md"]


def test_with_auto_memory_off_the_walk_starts_nowhere(tmp_path):
    # review19: the trace counted MEMORY.md whole while `curator tokens` said nothing loads
    import json
    import subprocess

    repo = tmp_path / "repo"
    (repo / ".claude" / "memory").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / ".claude" / "settings.json").write_text(json.dumps({"autoMemoryEnabled": False}))
    (repo / ".claude" / "memory" / "MEMORY.md").write_text("# Memory\n- [Deploy](deploy.md) — releasing the web app\n")
    (repo / ".claude" / "memory" / "deploy.md").write_text("---\nname: d\ndescription: d\ntype: project\n---\nShip.\n")
    store = load_store(repo / ".claude" / "memory", token_counter=FakeTokenCounter())
    res = RetrievalEngine(store).search("releasing web app", k=3, source="route")
    assert startup_of(store).tokens == 0 and res.route.steps[0].tokens == 0 and res.route.hits == []
    assert "does not load" in RetrievalEngine(store).why("deploy.md", "releasing web app", res)
