"""Issue 9: plans never make a store worse, findings a maintainer agrees with, tiers read from
the store. Small fixtures reproduce the shapes of the tiered corpus store."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.base.tokens import EstimateCounter
from curator.checks import run_checks
from curator.checks.keyword_checks import collision_pairs, collision_rows
from curator.cli import main
from curator.curation import apply_plan, plan_fixes
from curator.curation.gate import finding_key
from curator.curation.orphans import suggest_row_keywords
from curator.curation.plan import NothingToDo
from curator.model.indexes import parse_l0
from curator.model.loader import load_store
from curator.model.tiering import decide

ALL_FIXABLE = {"index.missing-target", "index.unsafe-target", "index.duplicate-entry", "index.unrouted",
               "orphan.unindexed", "tokens.stale-count", "transient.expired"}


def load(root):
    return load_store(root, token_counter=EstimateCounter())


def keys(findings):
    return Counter(finding_key(f) for f in findings)


# -- the gate ------------------------------------------------------------------------

WORDS = ["git", "rebase", "merge", "branch", "token", "budget", "cache", "deploy", "release", "review",
         "lint", "shell", "quote", "retry", "timeout", "queue", "schema", "index", "router", "tier"]


@st.composite
def stores(draw):
    n_idx = draw(st.integers(1, 3))
    files: dict[str, str] = {}
    l0 = ["[Main]"]
    for i in range(n_idx):
        rows = ["| Keywords | File |", "|---|---|"]
        for j in range(draw(st.integers(1, 4))):
            kws = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=7, unique=True))
            target = f"d{i}/m{j}.md"
            if draw(st.booleans()) or j == 0:
                files[target] = f"# M {i} {j}\n\n" + " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=5, max_size=40))) + "\n"
            rows.append(f"| {' '.join(kws)} | [{target[:-3]}]({target}) |")
            if draw(st.integers(0, 4)) == 0:
                rows.append(rows[-1])  # an exact duplicate row
        files[f"skills-d{i}-index.md"] = "\n".join(rows) + "\n"
        if draw(st.booleans()):
            l0.append(f"|{WORDS[i]} {WORDS[i + 5]}: [skills-d{i}-index](skills-d{i}-index.md) ({draw(st.integers(0, 300))})")
    for k in range(draw(st.integers(0, 3))):  # orphans
        files[f"d0/orphan-{k}.md"] = "# Orphan\n\n" + " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=5, max_size=60))) + "\n"
    files["memory-index.md"] = "\n".join(l0) + "\n"
    return files


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=stores(), opt_in=st.booleans())
def test_any_plan_adds_no_finding(tmp_path_factory, files, opt_in):
    root = tmp_path_factory.mktemp("gen")
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    store = load(root)
    before = run_checks(store)
    try:
        plan = plan_fixes(store, before, ALL_FIXABLE if opt_in else None, counter=store.counter)
    except Exception as exc:  # nothing to do is a clean answer
        assert type(exc).__name__ == "NothingToDo"
        return
    if plan.empty:
        return
    apply_plan(root, plan)
    after = run_checks(load(root))
    assert not (keys(after) - keys(before)), [f for f in after if keys([f]) - keys(before)]


def test_orphan_row_that_would_break_uniqueness_is_dropped_with_reason(make_store):
    body = "# Release train\n\n" + "release train cadence freeze cutover rollback hotfix changelog semver tagging " * 3
    root = make_store({
        "memory-index.md": "[Ops]\n|release ops: [skills-ops-index](skills-ops-index.md) (50)\n",
        "skills-ops-index.md": "| Keywords | File |\n|---|---|\n"
        "| release train cadence freeze cutover | [ops/ops-a](ops/ops-a.md) |\n",
        "ops/ops-a.md": "# A\n\nrelease train cadence freeze cutover notes\n",
        "ops/ops-b.md": body,
    })
    store = load(root)
    try:
        plan = plan_fixes(store, run_checks(store), {"orphan.unindexed"}, counter=store.counter)
        text, added = "\n".join(plan.notes), [e for e in plan.edits if e.path == "skills-ops-index.md"]
    except NothingToDo as exc:
        text, added = str(exc), []
    if added:  # the row it wrote keeps ops-a's own words untouched
        new = added[0].after.decode().splitlines()[-1]
        assert "cutover" not in new and "release" not in new
    else:
        assert "ops/ops-b.md" in text


def test_default_fix_is_only_safe_and_merges_exact_duplicate(make_store):
    root = make_store({
        "memory-index.md": "[G]\n|git: [skills-git-index](skills-git-index.md) (1)\n",
        "skills-git-index.md": "| Keywords | File |\n|---|---|\n"
        "| rebase squash fixup autosquash reflog | [git/git-rebase](git/git-rebase.md) |\n"
        "| rebase interactive history | [git/git-rebase](git/git-rebase.md) |\n"
        "| dead row words here five | [git/gone](git/gone.md) |\n",
        "git/git-rebase.md": "# Rebase\n\nrebase text\n",
        "git/orphan.md": "# Orphan\n",
    })
    store = load(root)
    plan = plan_fixes(store, run_checks(store), counter=store.counter)
    apply_plan(root, plan)
    index = (root / "skills-git-index.md").read_text().splitlines()
    assert index[2] == "| rebase squash fixup autosquash reflog interactive history | [git/git-rebase](git/git-rebase.md) |"
    assert "git/gone" in index[-1]  # a dead row is not dropped unasked
    assert (root / "memory-index.md").read_text().count("(1)") == 0  # the count was refreshed


# -- noise ---------------------------------------------------------------------------


def test_collision_ignores_same_file_and_index_of_indexes(make_store):
    kw = "alpha beta gamma delta epsilon"
    root = make_store({
        "skills-a-index.md": f"| Keywords | File |\n|---|---|\n| {kw} | [m/x](m/x.md) |\n| {kw} zeta | [m/y](m/y.md) |\n",
        "skills-b-index.md": f"| Keywords | File |\n|---|---|\n| {kw} | [m/x](m/x.md) |\n",
        "skills-top-index.md": f"| Keywords | File |\n|---|---|\n| {kw} | [skills-a-index](skills-a-index.md) |\n",
        "m/x.md": "x\n", "m/y.md": "y\n",
    })
    found = [f for f in run_checks(load(root), {"keywords.collision"}) if "shares" in f.message]
    # only y (a-index) vs x (b-index) is a real misroute
    assert [(f.path, f.line) for f in found] == [("skills-a-index.md", 4)]


@settings(max_examples=40, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(0, 3), st.lists(st.sampled_from(WORDS), min_size=1, max_size=8, unique=True),
                               st.integers(0, 12)), min_size=2, max_size=40))
def test_both_keyword_pair_paths_find_the_same_collisions(rows):
    from curator.model.indexes import IndexLink, IndexRow

    built = [(f"i{ix}-index.md", IndexRow(n + 1, kws, [IndexLink(f"m{t}", f"m{t}.md", f"m{t}.md")], ""))
             for n, (ix, kws, t) in enumerate(rows)]
    for cap in (3, 150):  # a small cap makes some keywords too common to count, as in a large store
        assert collision_pairs(built, 0.6, "prefix", cap) == collision_pairs(built, 0.6, "count", cap)


def test_collision_rows_come_from_the_store_in_path_order(make_store):
    root = make_store({"b-index.md": "| Keywords | File |\n|---|---|\n| a b c | [x](x.md) |\n",
                       "a-index.md": "| Keywords | File |\n|---|---|\n| a b c | [y](y.md) |\n", "x.md": "", "y.md": ""})
    assert [p for p, _ in collision_rows(load(root))] == ["a-index.md", "b-index.md"]


def test_links_in_inline_code_are_text_and_moved_files_are_named(make_store):
    root = make_store({
        "a/note.md": "# N\n\nUse `[x](nowhere.md)` as the syntax.\nSee [guard](guardrails.md).\n",
        "b/guardrails.md": "# G\n",
    })
    found = [f for f in run_checks(load(root), {"links.broken"})]
    assert len(found) == 1 and found[0].suggestion == "b/guardrails.md"
    assert "likely meant b/guardrails.md" in found[0].message


def test_html_anchor_l0_row_routes():
    idx = parse_l0("memory-index.md", '[S]\n|<a href="git/b.md">b</a> (4)\n|kw: <a href="c.md">c</a>\n')
    assert not idx.anomalies
    assert [(r.keywords, r.links[0].target, r.links[0].count) for r in idx.rows] == [([], "git/b.md", 4), (["kw"], "c.md", None)]


def test_related_lists_do_not_make_near_duplicates(make_store):
    related = "## Related\n\n" + "".join(f"- [shared link number {i}](x{i}.md) about the common topic here\n" for i in range(30))
    root = make_store({
        "m/one.md": "# One\n\nThe cache key must include the lockfile hash or builds go stale.\n\n" + related,
        "m/two.md": "# Two\n\nRetry flaky tests twice, then quarantine them with an owner.\n\n" + related,
    })
    assert not run_checks(load(root), {"duplicate.near"})


def test_budget_over_does_not_repeat_size_chars(make_store):
    # a tiered store (size limits are ADR-017's)
    root = make_store({"memory-index.md": "| Keywords | File |\n|---|---|\n", "m/big.md": "# Big\n\n" + "word " * 2500})
    checks = {f.check for f in run_checks(load(root)) if f.path == "m/big.md"}
    assert "size.chars" in checks and "budget.over" not in checks


# -- tiers ---------------------------------------------------------------------------


def tiered(make_store, extra=None):
    files = {
        "memory-index.md": "[V]\n|pr gate: [validation/validation-pr-gates](validation/validation-pr-gates.md) (5)\n"
                           "|laws: [knowledge/hyrums-law](knowledge/hyrums-law.md) (5)\n",
        "validation/validation-pr-gates.md": "# PR gates\n",
        "validation/validation-other.md": "# Other\n",
        "knowledge/hyrums-law.md": "# Hyrum\n",
        "sessions/2026-01-01-a.md": "a\n", "sessions/2026-01-02-b.md": "b\n", "sessions/2026-01-03-c.md": "c\n",
        "runs/x.md": "---\ndate: 2026-01-01\ntask: t\ntarget: x\nstatus: done\n---\n",
        "runs/y.md": "---\ndate: 2026-01-01\ntask: t\ntarget: y\nstatus: done\n---\n",
        "runs/z.md": "---\ndate: 2026-01-01\ntask: t\ntarget: z\nstatus: done\n---\n",
    }
    files.update(extra or {})
    return make_store(files)


def test_indexed_validation_folder_is_semantic_and_startup_is_the_index(make_store):
    store = load(tiered(make_store))
    t = {f.folder: f for f in decide(store).folders}
    assert t["validation"].tier == "semantic" and "route" in t["validation"].reason
    assert store.records["validation/validation-other.md"].tier == "semantic"
    assert t["sessions"].tier == "transient" and "dated" in t["sessions"].reason
    assert t["runs"].tier == "transient" and "frontmatter" in t["runs"].reason
    assert store.config.startup_load == ("memory-index.md",)


def test_adr002_store_loads_knowledge_and_config_overrides(make_store):
    root = tiered(make_store, {"reflexion/2026-01-01-x.md": "x\n", "reflection/2026-01-01-y.md": "y\n"})
    assert load(root).config.startup_load == ("memory-index.md", "knowledge/**")
    (root / ".curator.yaml").write_text("tiers:\n  - {glob: 'validation/**', tier: transient}\nstartup_load: [memory-index.md]\n")
    store = load(root)
    assert store.records["validation/validation-pr-gates.md"].tier == "transient"
    assert store.config.startup_load == ("memory-index.md",)


def test_tiers_cli_json(capsys, make_store):
    root = tiered(make_store)
    assert main(["tiers", str(root), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    folders = {f["folder"]: f for f in data["folders"]}
    assert folders["validation/"]["tier"] == "semantic" and folders["validation/"]["why"]
    st_ = data["startup"]
    assert st_["files"] == ["memory-index.md"] and "always-loaded" in st_["why"]
    from curator.base.tokens import default_counter

    assert st_["tokens"] == load_store(root, token_counter=default_counter()).records["memory-index.md"].tokens


# -- keywords ------------------------------------------------------------------------


def test_suggested_keywords_are_words_a_person_writes(make_store):
    text = ("---\nsession_id: 2026-08-02t21\nstatus: done\n---\n# Circuit breaker for autonomous runs\n\n"
            "## Circuit breaker\n\nThe circuit breaker stops autonomous execution after repeated failures. "
            "Guardrails count failures; the breaker trips at three failures and waits for a human. "
            "Escalation goes to the operator. deadbeefcafe 2026-08-02 damn shit\n\n"
            "```\nyaml_key: value\n```\n"
            + "Guardrails, escalation, operator, breaker, trips, human, waits, autonomous, execution, "
              "threshold, cooldown, retries, watchdog, halt.\n" * 3)
    root = make_store({
        "skills-auto-index.md": "| Keywords | File |\n|---|---|\n| trust metric scoring | [auto/auto-trust](auto/auto-trust.md) |\n",
        "auto/auto-trust.md": "# Trust\n", "auto/auto-breaker.md": text,
    })
    store = load(root)
    kws, why = suggest_row_keywords(store, "auto/auto-breaker.md", "skills-auto-index.md")
    assert kws is not None, why
    assert 10 <= len(kws) <= 15
    assert not any(c.isdigit() for k in kws for c in k)
    assert not {"damn", "shit", "status", "session_id", "yaml_key", "the"} & set(kws)
    assert {"circuit", "breaker"} <= set(kws)


def test_no_keyword_set_says_why(make_store):
    root = make_store({
        "skills-a-index.md": "| Keywords | File |\n|---|---|\n| alpha beta | [a/x](a/x.md) |\n",
        "a/x.md": "# X\n", "a/tiny.md": "# Tiny\n\nok\n",
    })
    kws, why = suggest_row_keywords(load(root), "a/tiny.md", "skills-a-index.md")
    assert kws is None and "by hand" in why


def test_gate_scratch_leaves_the_store_untouched(sample_copy):
    before = {p: p.read_bytes() for p in sample_copy.rglob("*.md")}
    store = load(sample_copy)
    plan_fixes(store, run_checks(store), ALL_FIXABLE, counter=store.counter)
    assert {p: p.read_bytes() for p in sample_copy.rglob("*.md")} == before


def test_a_foreign_table_is_one_finding_not_one_per_row(make_store):
    root = make_store({
        "skills-x-index.md": "| Skill ID | Skill Name | Category | Impact |\n|---|---|---|---|\n"
        + "".join(f"| skill-x-00{i} | Do thing {i} | Cat | High |\n" for i in range(6)),
    })
    found = [(f.check, f.line) for f in run_checks(load(root)) if f.path == "skills-x-index.md"]
    assert found == [("index.format", 1), ("index.unrouted", 1)]  # no missing-target / too-few per row


SHAPES = {
    "plain-serena": {"project_overview.md": "# Overview\n", "bugfixes/fix_login_2025_01_08.md": "# Fix\n",
                     "kb/2025-01-01-cache.md": "# Cache\n"},
    "claude-memory": {"MEMORY.md": "## Project\n- [Stack](project_stack.md) — the stack\n- [Gone](gone.md) — x\n",
                      "project_stack.md": "---\nname: stack\ntype: project\n---\nRails\n", "feedback_tests.md": "x\n"},
    "tiered": {
        "memory-index.md": "# Memory Index\n\n[Ops]\n|deploy release: [skills-ops-index](skills-ops-index.md) (3)\n"
                           '|<a href="ops/ops-rollback.md">rollback</a> (0)\n'
                           "|rollback: [ops/ops-rollback](ops/ops-rollback.md) (9), [ops/ops-canary](ops/ops-canary.md) (9)\n"
                           "|rollback again: [ops/ops-rollback](ops/ops-rollback.md) (9)\n",
        "skills-ops-index.md": "| Keywords | File |\n|---|---|\n| deploy release canary staged rollout | [ops/ops-canary](ops/ops-canary.md) |\n"
                               "| rollback revert restore previous version | [ops/ops-rollbak](ops/ops-rollbak.md) |\n",
        "skills-top-index.md": "| Keywords | File |\n|---|---|\n| ops deploy release canary staged | [skills-ops-index](skills-ops-index.md) |\n",
        "skills-table-index.md": "| Skill ID | Name | Impact |\n|---|---|---|\n| s-1 | Thing | High |\n",
        "ops/ops-canary.md": "# Canary\n\nSee [rollback](ops-rollback.md) and `[x](nowhere.md)`.\n",
        "ops/ops-rollback.md": "# Rollback\n\n" + "rollback revert restore previous version pipeline " * 5,
        "ops/ops-orphan-notes.md": "# Orphan notes\n\n" + "deploy freeze window approvals calendar " * 5,
        "validation/validation-gates.md": "# Gates\n",
    },
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("opt_in", [False, True])
def test_fix_then_check_adds_nothing_on_corpus_shapes(make_store, shape, opt_in):
    root = make_store(SHAPES[shape], name=f"{shape}-{opt_in}")
    store = load(root)
    before = run_checks(store)
    try:
        plan = plan_fixes(store, before, ALL_FIXABLE if opt_in else None, counter=store.counter)
    except NothingToDo:
        return
    if not plan.empty:
        apply_plan(root, plan)
    after = run_checks(load(root))
    assert not (keys(after) - keys(before))


def test_duplicate_row_stays_when_its_keywords_cannot_be_kept(make_store):
    root = make_store({
        "memory-index.md": '[S]\n|<a href="m/x.md">x</a> (1)\n|keep these words: [m/x](m/x.md) (1)\n',
        "m/x.md": "x\n",
    })
    store = load(root)
    try:
        plan = plan_fixes(store, run_checks(store), {"index.duplicate-entry"}, counter=store.counter)
    except NothingToDo:
        return
    after = next((e.after.decode() for e in plan.edits if e.path == "memory-index.md"), "")
    assert "keep these words" in after or not plan.edits


def test_references_to_repository_files_are_checked_against_the_repository(tmp_path):
    repo = tmp_path / "repo"
    store = repo / ".serena" / "memories"
    (store / "kb").mkdir(parents=True)
    (repo / "cmd").mkdir()
    (repo / "cmd" / "main.go").write_text("package main\n")
    (store / "kb" / "note.md").write_text("[main](cmd/main.go#L3) [gone](cmd/gone.go) [doc](../../../docs/x.md)\n")
    assert not run_checks(load(store), {"links.broken"})  # no repository: nothing to check against
    (repo / ".git").mkdir()
    found = sorted(f.message for f in run_checks(load(store), {"links.broken"}))
    assert found == ["link to ../../../docs/x.md reaches nothing", "link to cmd/gone.go reaches nothing"]


def test_insist_keeps_a_worsening_fix_as_a_named_trade_off(capsys, make_store):
    root = make_store({
        "memory-index.md": "[S]\n|x: [skills-a-index](skills-a-index.md) (1)\n",
        "skills-a-index.md": "| Keywords | File |\n|---|---|\n| alpha beta gamma delta epsilon | [m/x](m/x.md) |\n"
        "| Read memories first | [Read memories first](Read memories first.md) |\n",
        "m/x.md": "x\n", "README.md": "# Readme\n",
    })
    store = load(root)
    findings = run_checks(store)
    missing = [f for f in findings if f.check == "index.missing-target"]
    assert missing
    from curator.model.findings import RepointRow

    forced = [type(missing[0])(m.check, m.severity, m.path, m.message, m.line, m.target, "README.md",
                               RepointRow(m.path, m.line, m.target, "m/x.md")) for m in missing]
    # re-pointing to m/x.md lists it twice (index.duplicate-entry): dropped unless insisted on
    with pytest.raises(NothingToDo, match="worse.*index.duplicate-entry"):
        plan_fixes(store, forced, {"index.missing-target"}, counter=store.counter)
    kept = plan_fixes(store, forced, {"index.missing-target"}, counter=store.counter, insist=True)
    assert not kept.empty and any(n.startswith("trade-off: kept") and "index.duplicate-entry" in n for n in kept.notes)


def test_tiers_says_why_a_plain_serena_store_loads_names_not_its_index(capsys, make_store):
    # fizic37/Delcampe: an INDEX.md of `- **name** — …` bullets; Serena loads the memory names,
    # so "INDEX.md is the always-loaded index" contradicted the start-up load shown beside it
    root = make_store({"INDEX.md": "# Index\n\n- **ebay_cache** — the listing cache\n",
                       "ebay_cache.md": "# Cache\n\nListings are cached for a day.\n",
                       "stamp_fix_20251101.md": "# Stamp fix\n\nThe extraction retries once.\n"}, name=".serena/memories")
    assert main(["tiers", str(root), "--format", "json"]) == 0
    st_ = json.loads(capsys.readouterr().out)["startup"]
    assert "list_memories" in st_["what"] and "always-loaded" not in st_["why"]
    assert "by name" in st_["why"] and "INDEX.md" in st_["why"]
