"""Issue 30's memory fixes a maintainer accepts: a re-link never links one file twice on a page, a
superseded memory is offered for archiving and never listed by the unasked fix, every date style
of a file name counts, a link into someone's auto memory says which folder, names that say two
memories are versions of one are found."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from curator.base.tokens import EstimateCounter
from curator.checks import run_checks
from curator.curation import apply_plan, plan_fixes, undo
from curator.model import load_store
from curator.model.findings import Unlink
from curator.model.markdown import date_in_name

FM = "---\nname: {n}\ndescription: {d}\ntype: {t}\n---\n"


def load(root):
    return load_store(root, token_counter=EstimateCounter(), use_cache=False)


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".curator" not in p.parts}


def tiered(related: str) -> dict[str, str]:
    """A tiered store whose memory `a/first.md` has a Related list (skogai/ai-agents' shape)."""
    kw = "alpha beta gamma delta epsilon"
    return {
        "memory-index.md": "[A]\n|alpha beta: [skills-a-index](skills-a-index.md)\n",
        "skills-a-index.md": "| Keywords | File |\n|---|---|\n"
                             f"| {kw} one | [a/first](a/first.md) |\n| {kw} two | [b/analysis-comprehensive-standard-95](b/analysis-comprehensive-standard-95.md) |\n",
        "a/first.md": "# First\n\nText.\n\n## Related\n\n" + related,
        "b/analysis-comprehensive-standard-95.md": "# Standard\n\nThe standard.\n",
    }


def test_a_broken_link_whose_meant_file_the_page_links_already_is_dropped_not_doubled(make_store):
    # the page links b/analysis-comprehensive-standard-95.md; a broken link to b/standard.md would be re-pointed there again
    root = make_store(tiered("- [standard-95](../b/analysis-comprehensive-standard-95.md)\n- [standard](analysis-comprehensive-standard.md) - the old name\n"
                             "See [the standard](analysis-comprehensive-standard.md) in prose.\n"))
    store = load(root)
    broken = [f for f in run_checks(store) if f.check == "links.broken"]
    assert {type(f.fix) for f in broken} == {Unlink}
    assert "which this page links already: drop it" in broken[0].message
    before = snapshot(root)
    apply_plan(root, plan_fixes(store, run_checks(store)))  # safe: unasked
    text = (root / "a/first.md").read_text()
    assert text.endswith("## Related\n\n- [standard-95](../b/analysis-comprehensive-standard-95.md)\nSee the standard in prose.\n")
    assert [f for f in run_checks(load(root)) if f.check == "links.broken"] == []
    undo(root)
    assert snapshot(root) == before


def test_two_broken_links_meaning_one_file_are_re_pointed_once(make_store):
    root = make_store(tiered("- [standard](analysis-comprehensive-standard.md)\n- [standard-v1](../b/analysis-comprehensive-standard.md)\n"))
    store = load(root)
    apply_plan(root, plan_fixes(store, run_checks(store)))
    assert (root / "a/first.md").read_text().endswith("## Related\n\n- [standard](../b/analysis-comprehensive-standard-95.md)\n")


def test_a_link_re_pointed_at_its_own_page_is_dropped(make_store):
    # skogai/ai-agents: the renamed standard's own Related list still names its old name
    files = tiered("- [standard-95](../b/analysis-comprehensive-standard-95.md)\n")
    files["b/analysis-comprehensive-standard-95.md"] += "\n## Related\n\n- [old](analysis-comprehensive-standard.md)\n"
    root = make_store(files)
    store = load(root)
    [drop] = [f for f in run_checks(store) if isinstance(f.fix, Unlink)]
    assert drop.path == "b/analysis-comprehensive-standard-95.md" and "this page itself" in drop.message
    apply_plan(root, plan_fixes(store, run_checks(store)))
    assert (root / drop.path).read_text().endswith("## Related\n\n")


def test_a_superseded_memory_is_offered_for_archiving_never_listed(make_store):
    files = {"MEMORY.md": "# Memory\n\n- [Deploy](deploy.md) — how we deploy\n",
             "deploy.md": FM.format(n="deploy", d="how we deploy", t="project") + "Use the script.\n",
             "deploy_2025.md": FM.format(n="deploy 2025", d="old", t="project") + "SUPERSEDED — see deploy.md\n",
             "feedback_tests.md": FM.format(n="tests", d="tests first", t="feedback") + "Tests first.\n"}
    root = make_store(files)
    store = load(root)
    found = {f.path: f.check for f in run_checks(store) if f.check in ("orphan.unindexed", "store.superseded")}
    assert found == {"deploy_2025.md": "store.superseded", "feedback_tests.md": "orphan.unindexed"}
    apply_plan(root, plan_fixes(store, run_checks(store)))  # the unasked fix lists only the live memory
    index = (root / "MEMORY.md").read_text()
    assert "feedback_tests.md" in index and "deploy_2025" not in index
    store = load(root)
    apply_plan(root, plan_fixes(store, run_checks(store), {"store.superseded"}))  # asked: archived
    assert not (root / "deploy_2025.md").exists()
    assert list((root / ".curator" / "archive").rglob("deploy_2025.md"))


def test_names_that_say_two_memories_are_versions_of_one(make_store):
    root = make_store({".serena/memories/SERENA_MEMORY_BEST_PRACTICES.md": "# A\n\nshort memories\n",
                       ".serena/memories/SERENA_MEMORY_CONSOLIDATED_BEST_PRACTICES.md": "# B\n\none topic a file\n",
                       ".serena/memories/session_2026-01-08_notes.md": "# s\n",
                       ".serena/memories/session_2026-01-09_notes.md": "# s\n"})
    [f] = [f for f in run_checks(load(root)) if f.check == "duplicate.name"]
    assert f.path == ".serena/memories/SERENA_MEMORY_BEST_PRACTICES.md"
    assert "differ only by 'consolidated'" in f.message


def test_a_compact_session_log_name_counts_for_expiry(make_store):
    files = {f"validation/session_2026010{d}_1430_run.md": "---\ndate: x\ntask: t\ntarget: x\nstatus: ok\n---\n"
             for d in range(1, 4)}
    files |= {"memory-index.md": "[A]\n", "knowledge/a.md": "# a\n"}
    root = make_store(files)
    expired = [f for f in run_checks(load(root)) if f.check == "transient.expired"]
    assert sorted(f.path for f in expired) == [f"validation/session_2026010{d}_1430_run.md" for d in range(1, 4)]


def test_a_link_into_someones_auto_memory_says_which_folder_and_what_to_do(make_store):
    root = make_store({"MEMORY.md": "# Memory\n\n- [Old](../../../.claude/projects/-Users-al-app/memory/old.md) — old\n"})
    [f] = [f for f in run_checks(load(root)) if f.check == "links.broken"]
    assert "auto memory (~/.claude/projects/-Users-al-app/memory/" in f.message
    assert "copy old.md from there into" in f.message and "reaches nothing" not in f.message


@given(st.dates(), st.sampled_from(["-", "_", ".", ""]), st.sampled_from(["session_", "wip-", "", "x"]),
       st.sampled_from(["", "_1430", "T1430", "1430", "143005", "-notes"]))
def test_every_date_style_in_a_name_reads_as_that_day(day, sep, before, after):
    if day.year < 1900 or day.year > 2099:
        return
    name = f"{before}{day.year:04d}{sep}{day.month:02d}{sep}{day.day:02d}{after if sep == '' or not after[:1].isdigit() else ''}"
    assert date_in_name(name) == day.isoformat()


@given(st.text(max_size=40))
def test_date_in_name_never_raises_and_gives_a_real_day(text):
    got = date_in_name(text)
    if got is not None:
        from datetime import date

        date.fromisoformat(got)
