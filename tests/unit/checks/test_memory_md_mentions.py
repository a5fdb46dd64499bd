"""A Claude Code MEMORY.md that names topic files in backticks ("See `memory/netty-protocol.md`",
RDForward's habit) tells the agent they exist: they are listed, not orphans, and a plan that
removes one keeps the line of prose that named it."""

from __future__ import annotations

from curator.base.tokens import FakeTokenCounter
from curator.checks import run_checks
from curator.curation.draft import Draft
from curator.curation.routes import drop_routes
from curator.model import load_store
from curator.model.list_index import parse_list_index
from tests.unit.checks.test_format_checks import claude_files, ids, topic


def _store(make_store, extra_memory: str, files: dict[str, str]):
    all_files = claude_files()
    all_files["MEMORY.md"] += extra_memory
    all_files.update(files)
    return load_store(make_store(all_files, name="memory"), token_counter=FakeTokenCounter())


def test_a_backticked_memory_path_lists_the_file(make_store):
    store = _store(make_store,
                   "\n## Protocols\n- **Netty protocols (v4-v770)**: See `memory/netty-protocol.md`\n"
                   "- Boot snapshots (`boot1.md`) live here but get no entry: read them with the skill\n"
                   "- Append SQL to `docs/cookbook.md` before moving on\n",
                   {"netty-protocol.md": topic("netty"), "boot1.md": topic("boot"), "cookbook.md": topic("cookbook"),
                    "unnamed.md": topic("unnamed")})
    routes = store.routes_to
    assert routes["netty-protocol.md"][0].link.mention and routes["netty-protocol.md"][0].row.line == 8
    assert "boot1.md" in routes
    assert "cookbook.md" not in routes  # the repository's docs/cookbook.md, not the memory
    found = run_checks(store, only=["orphan.unindexed", "index.duplicate-entry"])
    assert ids(found) == [("orphan.unindexed", "cookbook.md"), ("orphan.unindexed", "unnamed.md")]


def test_a_file_both_linked_and_named_is_one_entry(make_store):
    text = ("# Memory\n- [TDD](feedback_tdd.md) — tests first\n- later: see `feedback_tdd.md` and `memory/other.md`\n")
    idx = parse_list_index("MEMORY.md", text, lambda p: p if p in {"feedback_tdd.md", "other.md"} else None,
                           dialect="memory-md")
    assert [(r.line, [lk.target for lk in r.links]) for r in idx.rows] == [(2, ["feedback_tdd.md"]), (3, ["other.md"])]
    plain = parse_list_index("README.md", text, lambda p: p, dialect="links")
    assert [r.line for r in plain.rows] == [2]  # other index dialects: links only, as before


def test_files_named_only_past_the_cap_are_said_to_be(make_store):
    filler = "".join(f"- note {i}: nothing to route\n" for i in range(200))
    store = _store(make_store, filler + "- **Client JARs**: See `memory/client-jars.md`\n",
                   {"client-jars.md": topic("client jars")})
    past = run_checks(store, only=["budget.past-cap", "orphan.unindexed"])
    assert [f.check for f in past] == ["budget.past-cap"]
    assert "listed only there: client-jars.md" in past[0].message


def test_removing_a_named_file_keeps_the_line_that_named_it(make_store):
    store = _store(make_store, "- **Test debugging**: run only the failing test. See `memory/debugging.md`\n",
                   {"debugging.md": topic("debugging")})
    draft = Draft(store.root, "archive", "archive two", store=store)
    drop_routes(store, draft, ["debugging.md", "feedback_tdd.md"])
    memory = draft.after_text("MEMORY.md")
    assert "run only the failing test" in memory
    assert "feedback_tdd.md" not in memory  # a linked entry of a removed file goes, as before


def test_an_entry_that_also_names_a_file_goes_whole_with_its_file(make_store):
    # review19 H1: the mention joined the entry's row, and the prune kept a dead link
    store = _store(make_store, "- [Alpha](alpha.md) — alpha things; see also `memory/debugging.md`\n",
                   {"alpha.md": topic("alpha"), "debugging.md": topic("debugging")})
    draft = Draft(store.root, "archive", "archive alpha", store=store)
    drop_routes(store, draft, ["alpha.md"])
    assert "alpha.md" not in draft.after_text("MEMORY.md")


def test_a_file_named_early_and_linked_past_the_cap_is_met_where_it_is_named(make_store):
    filler = "".join(f"- note {i}: nothing to route\n" for i in range(200))
    store = _store(make_store, "- **Netty**: see `memory/netty.md`\n" + filler + "- [Netty](netty.md) — wire\n",
                   {"netty.md": topic("netty")})
    assert [f.check for f in run_checks(store, only=["budget.past-cap", "orphan.unindexed"])] == ["budget.past-cap"]
    assert "listed only there" not in run_checks(store, only=["budget.past-cap"])[0].message
    assert [lk.mention for r in store.l0.rows for lk in r.links if lk.target == "netty.md"] == [True, False]


def test_bold_and_table_entries_listed_twice_are_still_duplicates(make_store):
    # review19 M1: `- **[Title](x.md)** — hook` (deathwatch's MEMORY.md) is an entry line
    store = _store(make_store, "- **[TDD again](feedback_tdd.md)** — the same file\n| [TDD](feedback_tdd.md) | x |\n", {})
    found = run_checks(store, only=["index.duplicate-entry"])
    assert sorted(f.line for f in found) == [6, 7]


def test_only_this_memory_folders_paths_are_its_files(make_store):
    # review19: another project's auto memory, or a Serena store, is not this store's file
    text = ("# Memory\n- see `~/.claude/projects/-other/memory/a.md`, `.serena/memories/b.md`, `/tmp/memory/c.md`\n"
            "- and `.claude/memory/d.md`, `memory/e.md`, `f.md`\n")
    names = {"a.md", "b.md", "c.md", "d.md", "e.md", "f.md"}
    idx = parse_list_index("MEMORY.md", text, lambda p: p if p in names else None, dialect="memory-md")
    assert sorted(lk.target for r in idx.rows for lk in r.links) == ["d.md", "e.md", "f.md"]
