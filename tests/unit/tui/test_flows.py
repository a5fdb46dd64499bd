"""The app's flows driven through a fake port, without Pilot: plan → diff → apply → re-plan
(accepted, declined, a failed apply, a file changed under the diff or under the write), undo
and the history over the store's journal, fixes of findings, and a repository's instruction
fixes journaled at its root."""

from __future__ import annotations

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.curation import plan_keywords
from curator.curation.keywords import RowRef
from curator.live.workbench import open_workbench
from curator.model.loader import LoadOptions
from curator.model.sources import discover
from curator.tui.flows.curation import Curation
from curator.tui.flows.fixes import Fixes
from curator.tui.flows.repository import RepositoryFixes
from curator.tui.flows.undo import Undo

from .fake_port import FakePort

INDEX = "notes-index.md"
ROWS = ("| Keywords | File |\n|---|---|\n"
        "| alpha beta gamma delta epsilon | [notes/a](notes/a.md) |\n"
        "| zeta eta theta iota kappa | [notes/b](notes/b.md) |\n")


@pytest.fixture
def root(make_store):
    return make_store({
        "memory-index.md": "| Keywords | File |\n|---|---|\n| notes | [notes-index](notes-index.md) |\n",
        INDEX: ROWS,
        "notes/a.md": "# A\nalpha words here\n",
        "notes/b.md": "# B\nzeta words there\n",
    })


@pytest.fixture
def flows(root):
    bench = open_workbench(discover(root), LoadOptions(given=str(root), token_counter=FakeTokenCounter()))
    port = FakePort(workbench=bench, store_root=root, given="store")
    curation = Curation(port)
    port.curation = curation
    repository = RepositoryFixes(port, curation)
    return port, curation, Undo(port, repository), root


def keywords(*words, chosen: bool = True):
    """The plan maker of an edit of notes/a.md's row's keywords: the row the keyword dialog chose
    (line 3 as it was seen), or (`chosen` False) whatever row links notes/a.md now."""
    row = RowRef(INDEX, 3, "| alpha beta gamma delta epsilon | [notes/a](notes/a.md) |") if chosen else None
    return lambda w: plan_keywords(w.store, INDEX, "notes/a.md", list(words), row=row)


def test_accepted_the_plan_is_written_journaled_and_shown(flows):
    port, curation, _undo, root = flows
    curation.plan_from(keywords("alpha", "omega", "sigma"))
    shown = port.last_diff
    assert shown.store is not None and "omega" in shown.plan.diff()
    assert (root / INDEX).read_text() == ROWS  # nothing before the answer

    shown.answer(True)
    assert curation.proposal is None and [q[0] for q in port.queued] == ["bg"]  # the write, off the UI thread
    port.settle()
    assert "omega" in (root / INDEX).read_text()
    assert port.said("applied as") and not port.said("Nothing was written")
    [[swap]] = port.refreshed  # the written snapshot, shown
    assert swap.paths == (INDEX,) and port.workspace is swap.workspace


def test_declined_nothing_is_written(flows):
    port, curation, _undo, root = flows
    curation.plan_from(keywords("alpha", "omega"))
    port.last_diff.answer(False)
    port.settle()
    assert (root / INDEX).read_text() == ROWS
    assert curation.proposal is None and not port.queued and not port.refreshed and not port.toasts


def test_a_failed_apply_says_so_and_writes_nothing(flows):
    port, curation, _undo, root = flows

    def full(plan):
        raise OSError("No space left on device")

    port.workbench.apply = full
    curation.plan_from(keywords("alpha", "omega"))
    port.last_diff.answer(True)
    port.settle()
    assert port.said("Nothing was written: No space left on device") == [
        ("Nothing was written: No space left on device", "error")]
    assert (root / INDEX).read_text() == ROWS and not port.refreshed and not port.said("applied as")


def test_a_file_changed_under_the_diff_is_planned_again(flows):
    port, curation, _undo, root = flows
    curation.plan_from(keywords("alpha", "omega"))
    first = port.last_diff
    (root / INDEX).write_text(ROWS.replace("zeta eta", "zeta nu"))  # someone edits the index meanwhile
    swap = port.workbench.recheck(port.workbench.current, [INDEX])
    port.refresh_views([swap])  # as the watcher hands it over
    assert port.withdrawn == [first]  # the old diff taken back, never applied
    assert port.said("changed on disk; the plan was made again")
    again = port.last_diff
    assert again is not first and b"zeta nu" in again.plan.edits[0].before
    again.answer(True)
    port.settle()
    text = (root / INDEX).read_text()
    assert "omega" in text and "zeta nu" in text  # the edit outside kept


def test_a_file_changed_under_the_write_is_planned_again_and_shown_again(flows):
    """Applied after its row changed on disk unseen (the diff was answered before the watcher
    told): the write re-plans from the file as it is now, and since the changes differ the new
    plan is shown for approval — nothing is written over the change."""
    port, curation, _undo, root = flows
    curation.plan_from(keywords("alpha", "omega", chosen=False))
    stale = port.last_diff
    edited = ROWS.replace("alpha beta gamma delta epsilon", "alpha sigma")
    (root / INDEX).write_text(edited)
    stale.answer(True)
    port.settle()
    assert (root / INDEX).read_text() == edited and not port.said("applied as")
    assert port.said("changed on disk after the plan was made; the plan was made again")
    again = port.last_diff
    assert again is not stale and b"alpha sigma" in again.plan.edits[0].before
    again.answer(True)
    port.settle()
    assert "| alpha omega |" in (root / INDEX).read_text() and port.said("applied as")


def test_an_edit_elsewhere_in_the_file_is_kept_and_the_plan_applied(flows):
    port, curation, _undo, root = flows
    curation.plan_from(keywords("alpha", "omega"))
    (root / INDEX).write_text(ROWS.replace("zeta eta", "zeta nu"))  # another row, unseen by the diff
    port.last_diff.answer(True)
    port.settle()
    text = (root / INDEX).read_text()
    assert "| alpha omega |" in text and "zeta nu" in text and port.said("applied as")
    assert len(port.diffs) == 1  # the same changes: applied without asking again


def test_a_failed_apply_after_a_change_names_why(flows):
    port, curation, _undo, root = flows
    curation.plan_from(keywords("alpha", "omega"))
    (root / INDEX).write_text(ROWS.replace("alpha beta gamma delta epsilon", "alpha sigma"))  # its own row
    port.last_diff.answer(True)
    port.settle()
    [(text, severity)] = port.said("Nothing was written")
    assert severity == "error" and "pick the row again" in text
    assert (root / INDEX).read_text() == ROWS.replace("alpha beta gamma delta epsilon", "alpha sigma")


def test_a_read_only_source_and_an_empty_plan_are_said_not_shown(flows):
    port, curation, _undo, _root = flows
    curation.plan_from(keywords("alpha", "beta", "gamma", "delta", "epsilon"))  # the keywords it has
    assert port.said("nothing to change") and not port.diffs
    port.read_only = True
    curation.plan_from(keywords("alpha", "omega"))
    assert port.toasts[-1][1] == "warning" and not port.diffs


def test_undo_puts_the_file_back_and_says_what_it_undid(flows):
    port, curation, undo, root = flows
    undo.undo()
    port.settle()
    assert port.toasts == [("nothing to undo", "warning")]  # nothing applied yet
    curation.plan_from(keywords("alpha", "omega"))
    port.last_diff.answer(True)
    port.settle()
    items, where = undo.history_items()
    assert where == "this store" and len(items) == 1
    port.refreshed.clear()
    undo.undo()
    port.settle()
    assert (root / INDEX).read_text() == ROWS
    assert port.said("undone: ") and port.refreshed  # the restored snapshot, shown


def test_fix_all_previews_every_fix_saying_which_need_confirmation(flows):
    port, curation, _undo, root = flows
    fixes = Fixes(port, curation, RepositoryFixes(port, curation))
    fixes.fix_all()  # memory-index.md's row for notes-index.md has no token count
    shown = port.last_diff
    assert [e.path for e in shown.plan.edits] == ["memory-index.md"]
    assert shown.plan.notes[0] == "1 safe fix(es) (`curator fix` applies them unasked)"
    shown.answer(True)
    port.settle()
    assert "24" in (root / "memory-index.md").read_text() and port.said("applied as")
    fixes.fix_all()
    assert port.toasts[-1] == ("no finding of this memory system has a fix (Problems lists what to do by hand)",
                               "information") and len(port.diffs) == 1


def test_instruction_fixes_are_journaled_at_the_repository_root(tmp_path):
    """A broken CLAUDE.md import: planned from the files, shown as the repository's (no store),
    applied at the repository root, the instruction model told to build again; then undone."""
    from curator.context import build_context

    root, home = tmp_path / "repo", tmp_path / "home"
    (root / "guides").mkdir(parents=True)
    home.mkdir()
    (root / "CLAUDE.md").write_text("# P\n\nSee @docs/guide.md.\n")
    (root / "guides/guide.md").write_text("# Guide\n")
    model = build_context(root, count=False, env={"CI": "1", "HOME": str(home)}, home=str(home))
    port = FakePort(context_model=model, store_root=root)
    curation = Curation(port)
    repository = RepositoryFixes(port, curation)
    assert repository.journals() == [("repository", root)]
    repository.fix([f for f in model.findings if f.check == "instructions.import-broken"])
    shown = port.last_diff
    assert shown.store is None and shown.prefix == "" and "+See @guides/guide.md." in shown.plan.diff()
    shown.answer(True)
    port.settle()
    assert (root / "CLAUDE.md").read_text() == "# P\n\nSee @guides/guide.md.\n"
    assert port.said("applied as") and port.instructions == [[root / "CLAUDE.md"]]  # the model, built again
    undo = Undo(port, repository)
    undo.undo()
    port.settle()
    assert (root / "CLAUDE.md").read_text() == "# P\n\nSee @docs/guide.md.\n" and port.said("undone: ")


def test_the_app_implements_the_port(tmp_path):
    """Every member of the port is the app's (a renamed app method would leave a flow calling
    nothing) — and none of them overrides one of Textual's own."""
    from textual.app import App

    from curator.tui.app import make_app
    from curator.tui.flows.port import Port

    app = make_app(tmp_path)
    members = {n for n in vars(Port) if not n.startswith("_")} | set(Port.__annotations__)
    assert members >= {"show_diff", "withdraw", "ask", "notify", "refresh_views", "in_background", "later"}
    assert [n for n in sorted(members) if not hasattr(app, n)] == []
    assert [n for n in sorted(members - {"notify"}) if hasattr(App, n)] == []
