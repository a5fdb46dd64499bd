"""Plain stores (issue 23): files that are not memories are flagged; dated session and hand-off
logs are transient (tiers, prune) where the store declares tiers, and a store made mostly of them
gets one note; in a store without tiers (issue 32) they are memories, retrieved like any other."""

from __future__ import annotations

from curator.base.tokens import FakeTokenCounter
from curator.checks import run_checks
from curator.model import load_store
from curator.model.tiering import decide, is_log


def load(root):
    return load_store(root, token_counter=FakeTokenCounter(), use_cache=False)


def test_non_markdown_and_tool_config_files_are_flagged(make_store):
    root = make_store({"memory_index.md": "- **notes** — notes\n", "notes.md": "# Notes\n",
                       "BUILD_SUMMARY.txt": "built\n", ".prettierrc": "{}\n", ".gitkeep": "",
                       "diagram.png": b"\x89PNG", ".obsidian/app.json": "{}"})
    found = [(f.check, f.path) for f in run_checks(load(root))]
    assert ("store.foreign-file", "BUILD_SUMMARY.txt") in found and ("store.foreign-file", ".prettierrc") in found
    assert not any(p in (".gitkeep", "diagram.png", ".obsidian/app.json") for _, p in found)


TIERED = {".curator.yaml": "tiers:\n  - {glob: 'reflection/**', tier: transient}\n"}  # declares ADR-002 tiers


def test_dated_session_logs_are_transient_and_most_of_the_store_is_one_note(make_store):
    files = {f"session_2025-12-{d:02d}_10-00.md": f"# Session {d}\n\nDid things.\n" for d in range(1, 13)}
    files |= {"architecture.md": "# Architecture\n", "session_management.md": "# How sessions work\n",
              "memory_index.md": "- **architecture** — how it fits\n- **session_management** — sessions\n", **TIERED}
    store = load(make_store(files))
    assert store.records["session_2025-12-01_10-00.md"].tier == "transient"
    assert store.records["session_management.md"].tier == "semantic"  # no date: knowledge
    # `session_*.md` would take the guide too: each log is named on its own
    logs = [f for f in decide(store).folders if f.glob]
    assert len(logs) == 12 and {f.tier for f in logs} == {"transient"} and "session_management.md" not in {f.glob for f in logs}
    found = run_checks(store)
    notes = [f for f in found if f.check == "transient.unpruned"]
    assert len(notes) == 1 and notes[0].message.startswith("12 of 14 memories are transient records")
    assert not [f for f in found if f.check == "orphan.unindexed"]  # logs are pruned, not listed
    expired = [f for f in found if f.check == "transient.expired"]  # one finding, every log prunable by it
    assert len(expired) == 1 and expired[0].path == "." and len(expired[0].fix.paths) == 12


def test_in_a_store_without_tiers_dated_logs_are_memories_still_no_orphans_or_near_copies(make_store):
    # confident-claude (268 session_YYYY-MM-DD_HH-MM logs) and kynesys: the stores' notes send the
    # agent to its hand-offs; transient there hid them from retrieval and pruned them as expired
    template = "# Session {d}\n\nSession summary written by the hook: files touched, tests run, " \
               "commits made, and the next step for whoever resumes this work tomorrow morning.\n"
    files = {f"session_2025-12-{d:02d}_10-00.md": template.format(d=d) for d in range(1, 13)}
    files |= {"architecture.md": "# Architecture\n", "session_management.md": "# How sessions work\n",
              "memory_index.md": "- **architecture** — how it fits\n- **session_management** — sessions\n"}
    store = load(make_store(files))
    log = store.records["session_2025-12-01_10-00.md"]
    assert log.tier == "semantic" and is_log(store.config, log)
    assert not is_log(store.config, store.records["session_management.md"])
    why = [f for f in decide(store).folders if f.glob == "session_2025-12-01_10-00.md"][0]
    assert why.log and "the store declares no tiers" in why.reason
    found = run_checks(store)
    assert not [f for f in found if f.check in ("transient.expired", "transient.unpruned", "duplicate.near")]
    assert not [f for f in found if f.check == "orphan.unindexed"]  # the logs are not an index's to list
    from curator.retrieval import RetrievalEngine

    hits = RetrievalEngine(store, persist=False).search("the next step for whoever resumes this work", k=3).hits
    assert is_log(store.config, store.records[hits[0].path])  # retrieved, not hidden
    assert len(hits[0].copies) == 11  # one template's prose: the logs are near-copies, shown once


def test_the_one_expired_finding_of_a_folder_prunes_every_log_in_it(make_store):
    from curator.curation import plan_fixes

    files = {f"session_2025-12-{d:02d}_10-00.md": f"# Session {d}\n" for d in range(1, 8)}
    store = load(make_store({"architecture.md": "# Architecture\n", **files, **TIERED}))
    expired = [f for f in run_checks(store) if f.check == "transient.expired"]
    plan = plan_fixes(store, expired, {"transient.expired"}, counter=store.counter)
    moved = {e.path for e in plan.edits if e.action == "delete"}
    assert moved == set(files), plan.to_json()["files"]


def test_a_topic_file_listed_twice_in_memory_md_merges_into_its_first_line_and_undoes(make_store, capsys):
    # cratedigger: three MEMORY.md lines for project_548_generated_testing.md, each with its own hook
    from curator.cli import main

    topic = "---\nname: t\ndescription: d\ntype: project\n---\n# T\n"
    memory = ("# Memory\n- [Testing](project_548.md) — PRs merged: Hypothesis tiers\n"
              "- [Other](other.md) — another topic\n"
              "- [House method](project_548.md) — doctrine in code-quality.md\n"
              "- [Testing](project_548.md) — PRs merged: Hypothesis tiers\n")
    root = make_store({"MEMORY.md": memory, "project_548.md": topic, "other.md": topic}, name="memory")
    found = [f for f in run_checks(load(root)) if f.check == "index.duplicate-entry"]
    assert [(f.line, f.fix.first, f.fix.description) for f in found] == [(4, 2, "merge into line 2"), (5, 2, "merge into line 2")]
    assert main(["fix", str(root)]) == 0  # unasked: only the exact repeat (line 5) goes
    assert (root / "MEMORY.md").read_text().count("project_548.md") == 2
    assert main(["undo", str(root)]) == 0
    assert (root / "MEMORY.md").read_text() == memory
    assert main(["fix", str(root), "--check", "index.duplicate-entry"]) == 0
    assert (root / "MEMORY.md").read_text() == (
        "# Memory\n- [Testing](project_548.md) — PRs merged: Hypothesis tiers; House method: doctrine in code-quality.md\n"
        "- [Other](other.md) — another topic\n")
    assert not [f for f in run_checks(load(root)) if f.check == "index.duplicate-entry"]
    assert main(["undo", str(root)]) == 0
    assert (root / "MEMORY.md").read_text() == memory
    capsys.readouterr()


def test_a_plain_store_behind_its_index_and_over_budget_warns(make_store):
    """Issue 33: 65 of 116 memories over budget and 75 unindexed read `✖0 ▲0 ●6` in the header;
    both are warnings (budget.over's and orphan.unindexed's severity), aggregated into one
    finding each. A store with no index at all gets advice (info), not a warning."""
    from curator.base.tokens import FakeTokenCounter
    from curator.checks import run_checks
    from curator.model import load_store
    from curator.model.findings import Severity

    long = "word " * 3000
    files = {f"note_{i}.md": f"# Note {i}\n\n{long if i % 2 else 'short'}\n" for i in range(24)}
    files["INDEX.md"] = "# Index\n\n" + "".join(f"- **note_{i}** — note {i}\n" for i in range(4))
    store = load_store(make_store(files, name="plain/.serena/memories"), token_counter=FakeTokenCounter(),
                       fmt="serena")
    found = {f.check: f for f in run_checks(store)}
    assert found["budget.over"].severity == Severity.WARNING and "12 of 24 memories" in found["budget.over"].message
    assert found["orphan.unindexed"].severity == Severity.WARNING and "20 are not" in found["orphan.unindexed"].message
    del files["INDEX.md"]
    bare = load_store(make_store(files, name="bare/.serena/memories"), token_counter=FakeTokenCounter(), fmt="serena")
    advice = [f for f in run_checks(bare) if f.check == "orphan.unindexed"]
    assert advice and advice[0].severity == Severity.INFO  # no index: advice, not a fault


def _missing(root):
    return {f.target: f.suggestion for f in run_checks(load(root), {"index.missing-target"})}


def test_a_dead_memory_md_row_is_re_pointed_only_to_an_unlisted_file_no_other_row_wants(make_store):
    # 4444J99/portfolio: rows naming topic files never committed were each "renamed to" the one
    # dated record MEMORY.md already lists, or two of them to one unlisted feedback file
    topic = "---\nname: t\ndescription: d\ntype: project\n---\n# T\n"
    memory = ("# Memory\n- [Rescue](project_artifact_session_rescue_2026_04_29.md) — kept\n"
              "- [Repair](project_artifact_conductor_repair_2026_04_29.md) — never committed\n"
              "- [Discipline](feedback_session_discipline.md) — never committed\n"
              "- [Naming](feedback_session_naming.md) — never committed\n"
              "- [Release](release_checklist.md) — renamed\n")
    files = {"project_artifact_session_rescue_2026_04_29.md": topic, "feedback_session_logging.md": topic,
             "release_checklist_v2.md": topic}
    root = make_store({"MEMORY.md": memory, **files}, name="memory")
    assert _missing(root) == {"project_artifact_conductor_repair_2026_04_29.md": None,  # listed already
                              "feedback_session_discipline.md": None,  # wanted by two dead rows: by none
                              "feedback_session_naming.md": None,
                              "release_checklist.md": "release_checklist_v2.md"}  # a rename still found


def test_a_memory_md_copied_without_most_of_its_files_is_one_finding_that_drops_no_row(make_store):
    # 4444J99/portfolio commits MEMORY.md as a backup with 16 of its topic files: 177 rows point
    # at files that were never copied. One finding says so; dropping 177 rows is not the fix.
    topic = "---\nname: t\ndescription: d\ntype: project\n---\n# T\n"
    rows = "".join(f"- [T{i}](topic_{i:02}.md) — a note\n" for i in range(24))
    root = make_store({"MEMORY.md": "# Memory\n" + rows, "topic_00.md": topic, "topic_01.md": topic}, name="memory")
    found = [f for f in run_checks(load(root)) if f.check == "index.missing-target"]
    assert len(found) == 1 and found[0].fix is None and found[0].target is None and found[0].line == 4
    assert found[0].message.startswith("22 of 24 rows point at files this folder does not hold (topic_02.md,")
    # fewer dead rows than that, or fewer than half of the index: each row is its own finding with its fix
    root = make_store({"MEMORY.md": "# Memory\n" + rows, **{f"topic_{i:02}.md": topic for i in range(12)}}, name="memory2")
    found = [f for f in run_checks(load(root)) if f.check == "index.missing-target"]
    assert len(found) == 12 and all(f.fix is not None for f in found)


def test_a_committed_memory_folder_your_local_settings_make_auto_memory_is_said_to_load_capped(make_store):
    import json

    rows = "".join(f"- [T{i}](t{i}.md) — a note\n" for i in range(205))
    files = {".claude/memory/MEMORY.md": "# Memory\n" + rows, ".claude/memory/t1.md": "---\nname: t\n---\n# T\n"}
    root = make_store(files, name="repo")

    def past_cap() -> str:
        return next(f.message for f in run_checks(load(root / ".claude" / "memory")) if f.check == "budget.past-cap")

    assert "where this folder is your auto memory" in past_cap() and "committed folder" in past_cap()
    (root / ".claude" / "settings.local.json").write_text(json.dumps({"autoMemoryDirectory": str(root / ".claude/memory")}))
    assert "committed" not in past_cap()  # it is this checkout's auto memory: capped


def test_rows_whose_files_were_renamed_keep_their_re_point_fix_however_many(make_store):
    topic = "---\nname: t\ndescription: d\ntype: project\n---\n# T\n"
    rows = "".join(f"- [Topic {i}](topic_{i:02}_old.md) — a note\n" for i in range(25))
    files = {f"topic_{i:02}_new.md": topic for i in range(25)}
    root = make_store({"MEMORY.md": "# Memory\n" + rows, **files}, name="renamed")
    found = [f for f in run_checks(load(root)) if f.check == "index.missing-target"]
    assert len(found) == 25 and all(f.suggestion == f.target.replace("_old", "_new") for f in found)
    # and a row of two dead links counts once: "N of M rows"
    two = "".join(f"- [A{i}](a{i}.md), [B{i}](b{i}.md) — both gone\n" for i in range(21))
    root = make_store({"MEMORY.md": "# Memory\n" + two, "kept.md": topic}, name="two")
    (one,) = [f for f in run_checks(load(root)) if f.check == "index.missing-target"]
    assert one.message.startswith("21 of 21 rows point at files this folder does not hold (a0.md, b0.md, a1.md, …)")


def test_with_auto_memory_off_the_store_loads_nothing_at_start_up_as_the_context_view_says(make_store, monkeypatch):
    """`check` and `tokens` give the auto-memory store's start-up as `context` does: nothing when
    the variable, simple mode or the highest settings scope that sets autoMemoryEnabled turns it off."""
    import json
    import os

    from curator.budgets.startup import startup_of

    rows = "".join(f"- [T{i}](t{i}.md) — a note\n" for i in range(205))
    files = {".claude/memory/MEMORY.md": "# Memory\n" + rows, ".claude/memory/t1.md": "---\nname: t\n---\n# T\n"}
    root = make_store(files, name="repo")
    (root / ".claude" / "settings.local.json").write_text(json.dumps({"autoMemoryDirectory": str(root / ".claude/memory")}))
    memory = root / ".claude" / "memory"
    monkeypatch.delenv("CI", raising=False)  # CI reads neither managed nor your settings (the last step)

    def figures() -> tuple[int, str, bool]:
        store = load(memory)
        st = startup_of(store)
        return st.tokens, st.what, any(f.check == "budget.past-cap" for f in run_checks(store))

    on = figures()
    assert on[0] > 0 and on[2]
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1")
    tokens, what, capped = figures()
    assert (tokens, capped) == (0, False) and "auto memory is off (CLAUDE_CODE_DISABLE_AUTO_MEMORY is 1)" in what
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "0")
    monkeypatch.setenv("CLAUDE_CODE_SIMPLE", "1")  # bare mode reads no memory file, forced on or not
    assert "CLAUDE_CODE_SIMPLE is set (bare mode" in figures()[1]
    monkeypatch.delenv("CLAUDE_CODE_SIMPLE")
    (root / ".claude" / "settings.json").write_text(json.dumps({"autoMemoryEnabled": False}))
    assert figures() == on  # the variable at 0 keeps it on whatever the settings say
    monkeypatch.delenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
    assert "autoMemoryEnabled is false in .claude/settings.json" in figures()[1]
    local = {"autoMemoryDirectory": str(memory), "autoMemoryEnabled": True}  # local settings outrank the project's
    (root / ".claude" / "settings.local.json").write_text(json.dumps(local))
    assert figures() == on
    managed = os.environ["CURATOR_MANAGED_DIR"]
    os.makedirs(managed, exist_ok=True)
    with open(os.path.join(managed, "managed-settings.json"), "w") as fh:
        json.dump({"autoMemoryEnabled": False}, fh)  # managed settings outrank both
    assert f"autoMemoryEnabled is false in {managed}" in figures()[1]
    monkeypatch.setenv("CI", "1")  # in CI neither managed nor your settings are read
    assert figures() == on


def test_the_past_cap_finding_counts_lines_after_the_frontmatter_and_comments_claude_code_drops(make_store):
    head = "---\nname: index\n---\n<!-- for people\nonly -->\n"
    rows = "".join(f"- [T{i}](t{i}.md) — a note\n" for i in range(203))
    root = make_store({"MEMORY.md": head + rows, "t1.md": "---\nname: t\n---\n# T\n"}, name="memory")
    (found,) = [f for f in run_checks(load(root)) if f.check == "budget.past-cap"]
    assert found.line == 206 and found.message.startswith("lines 206–208 are past Claude Code's auto-memory cap (it "
                                                          "reads only the first 200 lines of MEMORY.md)")


def test_safe_mode_turns_auto_memory_off_whatever_the_variable_says(make_store, monkeypatch):
    import json

    from curator.budgets.startup import startup_of

    root = make_store({".claude/memory/MEMORY.md": "# Memory\n- [T](t.md) — a note\n", ".claude/memory/t.md": "# T\n"},
                      name="repo")
    (root / ".claude" / "settings.local.json").write_text(json.dumps({"autoMemoryDirectory": str(root / ".claude/memory")}))
    monkeypatch.setenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", "0")
    assert startup_of(load(root / ".claude" / "memory")).tokens > 0
    monkeypatch.setenv("CLAUDE_CODE_SAFE_MODE", "1")
    st = startup_of(load(root / ".claude" / "memory"))
    assert st.tokens == 0 and "CLAUDE_CODE_SAFE_MODE is set (safe mode)" in st.what


def test_an_auto_memory_folder_opened_by_itself_still_reads_its_repositorys_settings(tmp_path, monkeypatch):
    """`curator tokens ~/.claude/projects/<slug>/memory`: the repository is found from the slug, so
    its settings turning auto memory off count there as in `context`."""
    import json
    import os

    from curator.budgets.startup import startup_of
    from curator.model.sources import claude_slug

    monkeypatch.delenv("CI", raising=False)
    repo = tmp_path / "work" / "my-app"
    (repo / ".claude").mkdir(parents=True)
    memory = tmp_path / "home" / ".claude" / "projects" / claude_slug(repo) / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text("# Memory\n- [T](t.md) — a note\n")
    (memory / "t.md").write_text("# T\n")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert startup_of(load(memory)).tokens > 0
    (repo / ".claude" / "settings.json").write_text(json.dumps({"autoMemoryEnabled": False}))
    st = startup_of(load(memory))
    assert st.tokens == 0 and "autoMemoryEnabled is false in .claude/settings.json" in st.what
    assert os.path.isdir(repo)


def test_the_cut_of_memory_md_is_the_same_line_in_check_tokens_and_context(make_store, monkeypatch):
    """A lone `\\r` above Claude Code's 200-line cut: `check`, `tokens` and `context` name one line."""
    import json

    from curator.budgets.startup import startup_of
    from curator.context.build import build_context

    rows = "".join(f"- [T{i}](t{i}.md) — a note\n" for i in range(205))
    files = {".claude/memory/MEMORY.md": "# Memory\nold\rnote\n" + rows, ".claude/memory/t1.md": "---\nname: t\n---\n# T\n"}
    root = make_store(files, name="repo")
    (root / ".claude" / "settings.local.json").write_text(json.dumps({"autoMemoryDirectory": str(root / ".claude/memory")}))
    monkeypatch.delenv("CI", raising=False)
    store = load(root / ".claude" / "memory")
    (cap,) = [f for f in run_checks(store) if f.check == "budget.past-cap"]
    first_past = startup_of(store).past_cap[0].line
    ctx = build_context(root, agents=["claude-code"], count=False).agents["claude-code"]
    (unseen,) = [u for u in ctx.never if "auto-memory cap" in u.reason]
    text = store.records["MEMORY.md"].text
    assert cap.line == first_past == 202 and f"lines {cap.line}+" in unseen.reason
    assert text.splitlines()[cap.line - 1] == "- [T198](t198.md) — a note"  # \n-line 201: 2 + rows 0–197 load


def test_a_memory_md_curator_cannot_read_is_not_called_missing(make_store):
    """Not UTF-8 (Claude Code reads it with U+FFFD) or too large for curator: its parse.error says
    so, and neither `check` nor `tokens` claims there is no MEMORY.md or that nothing loads."""
    from curator.budgets.startup import startup_of

    rows = "".join(f"- [T{i}](t{i}.md) caf\xe9 note\n" for i in range(3))
    root = make_store({"MEMORY.md": ("# Memory\n" + rows).encode("latin-1", "replace"), "t1.md": "---\nname: t\ndescription: d\ntype: project\n---\n# T\n"}, name="memory")
    store = load(root)
    assert sorted({f.check for f in run_checks(store)}) == ["parse.error"]
    st = startup_of(store)
    assert st.what.startswith("MEMORY.md as Claude Code's auto memory, read as Claude Code reads it (curator could not: not valid")
    assert st.tokens == store.counter.count_many([("", "# Memory\n" + rows.replace("\xe9", "\ufffd").strip())])[0]


def test_tokens_counts_an_unreadable_memory_md_as_context_does(make_store, monkeypatch):
    """A binary MEMORY.md (UTF-16) loads nothing on either screen; a Latin-1 one CLAUDE.md imports is
    counted whole on both (review18 #6, #7)."""
    from curator.budgets.startup import startup_of
    from curator.context.build import build_context

    monkeypatch.delenv("CI", raising=False)
    rows = "".join(f"- [T{i}](t{i}.md) caf\xe9 note\n" for i in range(230))
    root = make_store({"CLAUDE.md": "# Project\n@.claude/memory/MEMORY.md\n",
                       ".claude/memory/MEMORY.md": ("# Memory\n" + rows).encode("latin-1"),
                       ".claude/memory/t1.md": "---\nname: t\ndescription: d\ntype: project\n---\n# T\n"}, name="repo")
    st = startup_of(load(root / ".claude" / "memory"))
    ctx = build_context(root, agents=["claude-code"], token_counter=FakeTokenCounter()).agents["claude-code"]
    (entry,) = [e for e in ctx.startup if e.path.endswith("MEMORY.md")]
    assert st.what.startswith("MEMORY.md, whole: Claude Code imports it (CLAUDE.md:2)")
    assert st.tokens == entry.tokens > 0
    (root / ".claude" / "memory" / "MEMORY.md").write_bytes(("# Memory\n" + rows).encode("utf-16"))
    binary = startup_of(load(root / ".claude" / "memory"))
    assert binary.tokens == 0 and binary.what.startswith("nothing: MEMORY.md is not text Claude Code can read")


def test_a_pinned_claude_code_version_gives_check_and_tokens_the_cap_context_uses(make_store, monkeypatch):
    """`.curator.yaml` pins Claude Code 2.1.80 (200 lines, no frontmatter stripping, no 25 KB cut):
    `check` and `tokens` cut MEMORY.md where `context` does, not by the newest rules."""
    import json

    from curator.budgets.startup import startup_of
    from curator.context.build import build_context

    monkeypatch.delenv("CI", raising=False)
    rows = "".join(f"- [T{i}](t{i}.md) — a note\n" for i in range(205))
    files = {".claude/memory/MEMORY.md": "---\nname: index\n---\n# Memory\n" + rows,
             ".claude/memory/t1.md": "---\nname: t\ndescription: d\ntype: project\n---\n# T\n",
             ".curator.yaml": "agents:\n  claude-code:\n    version: 2.1.80\n"}
    root = make_store(files, name="repo")
    (root / ".claude" / "settings.local.json").write_text(json.dumps({"autoMemoryDirectory": str(root / ".claude/memory")}))
    store = load(root / ".claude" / "memory")
    (cap,) = [f for f in run_checks(store) if f.check == "budget.past-cap"]
    st = startup_of(store)
    ctx = build_context(root, agents=["claude-code"], count=False).agents["claude-code"]
    (unseen,) = [u for u in ctx.never if "auto-memory cap" in u.reason]
    assert cap.line == st.past_cap[0].line == 201 and "lines 201+" in unseen.reason  # 2.1.80 keeps the frontmatter
    assert "first 200 lines of MEMORY.md" in st.cap_label and "KB" not in st.cap_label
    newest = load_store(root / ".claude" / "memory", token_counter=FakeTokenCounter(), use_cache=False,
                        agents=("claude-code@2.1.332",))
    assert [f.line for f in run_checks(newest) if f.check == "budget.past-cap"] == [204]  # --agent outranks the file


def test_a_registry_by_another_name_is_the_plain_stores_index(make_store):
    """pause-monitor keeps `catalog-memory.md`, a table of every memory's id: the store has an
    index, so "no index file" would be wrong; what it leaves out is said, as of a named index."""
    names = [f"topic-{i:02d}" for i in range(25)]
    files = {f"{n}.md": f"# {n}\n\nnotes\n" for n in names}
    rows = "".join(f"| {n} | note | active |\n" for n in names[:22])
    files["catalog-memory.md"] = "| id | type | status |\n|---|---|---|\n| catalog-memory | catalog | active |\n" + rows
    found = [f for f in run_checks(load(make_store(files, name="memories"))) if f.check == "orphan.unindexed"]
    assert [(f.path, f.severity.label) for f in found] == [("catalog-memory.md", "info")]
    assert "names 22 of 25 memories" in found[0].message and "topic-22, topic-23, topic-24" in found[0].message
    files["catalog-memory.md"] += "".join(f"| {n} | note | active |\n" for n in names[22:])
    assert not [f for f in run_checks(load(make_store(files, name="memories2"))) if f.check == "orphan.unindexed"]
    files["notes-on-everything.md"] = files.pop("catalog-memory.md")  # not named as an index: not one
    found = [f for f in run_checks(load(make_store(files, name="memories3"))) if f.check == "orphan.unindexed"]
    assert [f.path for f in found] == ["."] and "no index file" in found[0].message


def test_a_table_rows_first_cell_names_a_memory_only_exactly(make_store):
    # review19 M2: `| Testing | test_strategy |` is a heading word and a memory's name, not testing.md
    files = {"index.md": "| Area | Memory |\n|---|---|\n| Testing | test_strategy |\n| Build | build_notes |\n",
             "testing.md": "# T\n", "test_strategy.md": "# S\n", "build_notes.md": "# B\n"}
    found = [f for f in run_checks(load(make_store(files, name="memories"))) if f.check == "orphan.unindexed"]
    assert len(found) == 1 and "testing" in found[0].message and "test_strategy" not in found[0].message
