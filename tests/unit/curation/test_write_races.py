"""Nothing lost under races and crashes: an edit made by someone else while curator plans or
writes is refused with "changed on disk" or kept — never overwritten, never misplaced; two
writers never apply one fix twice; kill -9 at any write, then a writer → before or after, byte
for byte, and a re-run gives what a clean run gives.

The stress test runs a little in the suite; CURATOR_STRESS_ITERATIONS=N runs it longer."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import re
import signal
import time
from pathlib import Path

import pytest

from curator.base.tokens import EstimateCounter
from curator.checks import run_checks
from curator.cli import main
from curator.curation import (
    ChangedOnDisk,
    Conflict,
    apply_plan,
    journal,
    plan_fixes,
    plan_keywords,
    recover,
    undo,
    writing,
)
from curator.curation.quarantine import entries
from curator.model import load_store

FORK = multiprocessing.get_context("fork")


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".curator" not in p.relative_to(root).parts}


def load(root):
    return load_store(root, token_counter=EstimateCounter())


def fix_plan(root):
    store = load(root)
    return plan_fixes(store, run_checks(store), counter=store.counter)


# -- an edit between load and plan ---------------------------------------------------


def test_a_row_inserted_between_load_and_plan_is_refused_not_misplaced(sample_copy):
    store = load(sample_copy)
    findings = run_checks(store)
    loaded = (sample_copy / "skills-ci-index.md").read_bytes()
    index = sample_copy / "skills-ci-index.md"
    lines = index.read_text().splitlines(keepends=True)
    lines.insert(2, "| inserted by hand while curator ran | [ci/ci-actions-cache](ci/ci-actions-cache.md) |\n")
    index.write_text("".join(lines))
    edited = files(sample_copy)
    plan = plan_fixes(store, findings, counter=store.counter)  # planned on the bytes that were loaded ...
    assert next(e for e in plan.edits if e.path == "skills-ci-index.md").before == loaded
    with pytest.raises(ChangedOnDisk, match="skills-ci-index.md"):  # ... never written over other bytes
        apply_plan(sample_copy, plan)
    assert files(sample_copy) == edited


def test_the_app_planning_from_a_store_the_cli_changed_is_refused(sample_copy):
    app_store = load(sample_copy)  # the app loaded it ...
    apply_plan(sample_copy, fix_plan(sample_copy))  # ... then the CLI fixed it
    fixed = files(sample_copy)
    with pytest.raises(ChangedOnDisk):
        apply_plan(sample_copy, plan_fixes(app_store, run_checks(app_store), counter=app_store.counter))
    assert files(sample_copy) == fixed


# -- an edit between the check and the rename ---------------------------------------


def _edit_during(monkeypatch, hook_name: str, when, edit):
    real = getattr(journal, hook_name)
    done = []

    def hooked(src, dst):
        if not done and when(src, dst):
            done.append(True)
            edit()
        return real(src, dst)

    monkeypatch.setattr(journal, hook_name, hooked)
    return done


def test_an_edit_just_before_the_rename_is_refused_and_kept(sample_copy, monkeypatch):
    before = files(sample_copy)
    plan = fix_plan(sample_copy)
    index = sample_copy / "skills-ci-index.md"
    external = index.read_bytes() + b"| added by someone | [x](ci/x.md) |\n"
    done = _edit_during(monkeypatch, "replace", lambda s, d: str(s) == str(index), lambda: index.write_bytes(external))
    with pytest.raises(ChangedOnDisk):
        apply_plan(sample_copy, plan)
    assert done
    now = files(sample_copy)
    assert now["skills-ci-index.md"] == external
    assert {k: v for k, v in now.items() if k != "skills-ci-index.md"} == {
        k: v for k, v in before.items() if k != "skills-ci-index.md"}  # the rest rolled back whole
    assert entries(sample_copy)[-1].state == "rolled-back"


def test_a_write_through_a_handle_opened_before_the_move_is_kept(sample_copy, monkeypatch):
    before = files(sample_copy)
    plan = fix_plan(sample_copy)
    index = sample_copy / "skills-ci-index.md"
    handle = open(index, "ab")  # an editor holds the file open ...
    aside = []

    def late_write():  # ... and writes after curator moved it aside and compared it
        handle.write(b"| late line |\n")
        handle.close()
        aside.append(True)

    _edit_during(monkeypatch, "link_new", lambda s, d: str(d) == str(index), late_write)
    with pytest.raises(ChangedOnDisk):
        apply_plan(sample_copy, plan)
    assert aside
    now = files(sample_copy)
    assert now["skills-ci-index.md"] == before["skills-ci-index.md"] + b"| late line |\n"
    assert {k: v for k, v in now.items() if k != "skills-ci-index.md"} == {
        k: v for k, v in before.items() if k != "skills-ci-index.md"}
    assert not list(sample_copy.rglob(".*.aside"))


def test_a_file_created_under_the_name_meanwhile_wins_and_the_old_bytes_are_kept(sample_copy, monkeypatch):
    before = files(sample_copy)
    plan = fix_plan(sample_copy)
    index = sample_copy / "skills-ci-index.md"
    _edit_during(monkeypatch, "link_new", lambda s, d: str(d) == str(index), lambda: index.write_bytes(b"theirs\n"))
    with pytest.raises(Conflict, match="kept beside it"):
        apply_plan(sample_copy, plan)
    now = files(sample_copy)
    assert now["skills-ci-index.md"] == b"theirs\n"
    kept = [v for k, v in now.items() if k.endswith(".conflict")]
    assert kept == [before["skills-ci-index.md"]]  # what the name held is never dropped (an append to it, say)
    assert {k: v for k, v in now.items() if k != "skills-ci-index.md" and not k.endswith(".conflict")} == {
        k: v for k, v in before.items() if k != "skills-ci-index.md"}


def test_undo_after_an_edit_to_a_restored_file_refuses_and_changes_nothing(sample_copy):
    apply_plan(sample_copy, fix_plan(sample_copy))
    (sample_copy / "skills-ci-index.md").write_bytes(b"edited after the fix\n")
    now = files(sample_copy)
    with pytest.raises(ChangedOnDisk):
        undo(sample_copy)
    assert files(sample_copy) == now


# -- two writers ----------------------------------------------------------------------


def _cli(argv, out_path=None):
    code = main(argv)
    if out_path:
        Path(out_path).write_text(str(code))
    os._exit(0)


def test_two_concurrent_fix_runs_apply_the_fix_once(sample_copy, tmp_path):
    import shutil

    clean = tmp_path / "clean"
    shutil.copytree(sample_copy, clean)
    assert main(["fix", str(clean)]) == 0
    expected = files(clean)
    for trial in range(3):
        root = tmp_path / f"race{trial}"
        shutil.copytree(sample_copy, root)
        procs = [FORK.Process(target=_cli, args=(["fix", str(root)],)) for _ in range(2)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(120)
        assert files(root) == expected, f"trial {trial}"
        assert [e.state for e in entries(root) if e.state == "applied"] == ["applied"]
        text = (root / "memory-index.md").read_text()
        assert not re.search(r"\(\d+\) \(\d+\)", text)


# -- kill -9 at every write -------------------------------------------------------------


def _die_at(n: int, argv: list[str]):
    """In a child: run a writer and SIGKILL ourselves at the n-th rename, link or unlink."""
    count = [0]

    def tick():
        count[0] += 1
        if count[0] == n:
            os.kill(os.getpid(), signal.SIGKILL)

    for name in ("replace", "link_new", "remove"):
        real = getattr(journal, name)

        def hooked(*a, _real=real):
            tick()
            return _real(*a)

        setattr(journal, name, hooked)
    main(argv)
    os._exit(0)


def _writes_of(argv: list[str]) -> int:
    """How many renames, links and unlinks a clean run of this writer makes."""
    count = [0]
    saved = {name: getattr(journal, name) for name in ("replace", "link_new", "remove")}
    for name, real in saved.items():
        def hooked(*a, _real=real):
            count[0] += 1
            return _real(*a)

        setattr(journal, name, hooked)
    try:
        assert main(argv) == 0
    finally:
        for name, real in saved.items():
            setattr(journal, name, real)
    return count[0]


@pytest.mark.parametrize("command", [["prune"], ["fix"]])
def test_kill_9_at_any_write_then_a_writer_gives_before_or_after_and_a_rerun_equals_a_clean_run(sample_copy, tmp_path, command):
    """CURATOR_KILL_TRIALS=all kills at every write point; the suite samples a few."""
    import shutil

    before = files(sample_copy)
    clean = tmp_path / "clean"
    shutil.copytree(sample_copy, clean)
    total = _writes_of([*command, str(clean)])
    after = files(clean)
    wanted = os.environ.get("CURATOR_KILL_TRIALS", "")
    if wanted == "all":
        points = list(range(1, total + 1))
    else:
        rng = random.Random(len(command[0]))
        points = sorted({1, total, *rng.sample(range(2, total), min(total - 2, int(wanted or 3)))})
    outcomes = {"before": 0, "after": 0, "torn": 0}
    for n in points:
        root = tmp_path / f"kill{n}"
        shutil.copytree(sample_copy, root)
        child = FORK.Process(target=_die_at, args=(n, [*command, str(root)]))
        child.start()
        child.join(120)
        assert child.exitcode == -signal.SIGKILL, f"write {n} of {total} was never reached"
        state = files(root)
        outcomes["torn"] += state not in (before, after)
        recover(root)  # what any writer (or the app) does first
        now = files(root)
        assert now in (before, after), f"kill at write {n}"
        outcomes["before" if now == before else "after"] += 1
        assert main([*command, str(root)]) == 0  # the re-run
        assert files(root) == after, f"re-run after kill at write {n}"
        assert not list(root.rglob(".*.tmp")) and not list(root.rglob(".*.aside"))
    print(f"kill-9 {command[0]}: {len(points)} of {total} write points, {outcomes}")
    assert outcomes["torn"] >= 1  # the kills did tear the store; recovery mended every one


# -- the stress test ---------------------------------------------------------------------

STRESS_STORE = {
    "memory-index.md": "# Memory Index\n\n|alpha beta gamma delta: [skills-a-index](skills-a-index.md) (10)\n",
    "skills-a-index.md": "| Keywords | File |\n|---|---|\n"
    + "".join(f"| k{i} w{i} x{i} y{i} z{i} | [a/m{i}](a/m{i}.md) |\n" for i in range(1, 6)),
    **{f"a/m{i}.md": f"# M{i}\n\nbody of memory {i}\n" for i in range(1, 6)},
}
EDITED = ["skills-a-index.md", "memory-index.md", "a/m1.md"]


def _writer(root: str, name: str, iterations: int, log: str):
    """Set the keywords of a/m1's row (index + L0 count: two files per operation), each
    iteration a new version; under the lock, check right away that the op landed whole."""
    rng = random.Random(name)
    out = []
    for i in range(iterations):
        version = f"{name}v{i}"
        try:
            with writing(root):
                store = load(root)
                plan = plan_keywords(store, "skills-a-index.md", "a/m1.md", [version, "alpha", "beta", "gamma"])
                try:
                    jid = apply_plan(root, plan)
                except ChangedOnDisk:
                    row = next(ln for ln in Path(root, "skills-a-index.md").read_text().splitlines() if "(a/m1.md)" in ln)
                    out.append({"v": version, "result": "refused", "whole": version not in row})
                    continue
                whole = all(Path(root, e.path).read_bytes().startswith(e.after) for e in plan.edits)
                out.append({"v": version, "result": "applied", "id": jid, "whole": whole})
        except Exception as exc:  # noqa: BLE001 - Busy, ChangedOnDisk while planning: a refusal
            out.append({"v": version, "result": "refused", "why": type(exc).__name__, "whole": True})
        time.sleep(rng.random() * 0.002)
    Path(log).write_text(json.dumps(out))
    os._exit(0)


def _editor(root: str, iterations: int, log: str):
    """Someone else's edits: append a unique line to one of the files, in place (O_APPEND), as
    editors and agents do; they never take curator's lock. Every other edit holds the file open
    a moment before writing, so its bytes may land in a file curator has just moved aside. While
    curator swaps a file its name is briefly absent: the editor tries again, as a person would."""
    rng = random.Random(1)
    made = []
    for j in range(iterations):
        rel = EDITED[j % len(EDITED)]
        line = f"<!-- external edit {j} -->\n".encode()
        while True:
            try:
                fd = os.open(Path(root, rel), os.O_WRONLY | os.O_APPEND)
                break
            except FileNotFoundError:
                time.sleep(0.0005)
        try:
            if j % 2:
                time.sleep(rng.random() * 0.002)
            os.write(fd, line)
        finally:
            os.close(fd)
        made.append([rel, j])
        time.sleep(rng.random() * 0.003)
    Path(log).write_text(json.dumps(made))
    os._exit(0)


def test_stress_writers_and_an_editor_on_one_store(make_store, tmp_path):
    iterations = int(os.environ.get("CURATOR_STRESS_ITERATIONS", "0")) or 12
    root = make_store(STRESS_STORE)
    logs = {n: str(tmp_path / f"{n}.json") for n in ("w1", "w2", "editor")}
    procs = [FORK.Process(target=_writer, args=(str(root), n, iterations, logs[n])) for n in ("w1", "w2")]
    procs.append(FORK.Process(target=_editor, args=(str(root), iterations * 3, logs["editor"])))
    started = time.monotonic()
    for p in procs:
        p.start()
    for p in procs:
        p.join(300)
    elapsed = time.monotonic() - started
    results = json.loads(Path(logs["w1"]).read_text()) + json.loads(Path(logs["w2"]).read_text())
    edits = json.loads(Path(logs["editor"]).read_text())
    text = {rel: Path(root, rel).read_text() for rel in EDITED}
    # every external edit survives, once, in the file it was written to
    lost = [j for rel, j in edits if text[rel].count(f"<!-- external edit {j} -->") != 1]
    misplaced = [j for rel, j in edits for other in EDITED if other != rel and f"edit {j} -->" in text[other]]
    # every operation applied whole or refused whole; no version applied twice
    applied = [r for r in results if r["result"] == "applied"]
    refused = [r for r in results if r["result"] == "refused"]
    rows = [ln for ln in text["skills-a-index.md"].splitlines() if "(a/m1.md)" in ln]
    journal_applied = [e for e in entries(root) if e.state == "applied"]
    versions = [re.search(r"\| (w\dv\d+) ", ln).group(1) for ln in rows]
    report = {"iterations": iterations * 2, "external_edits": len(edits), "preserved": len(edits) - len(lost),
              "applied": len(applied), "refused": len(refused), "double_applies": len(rows) - 1,
              "seconds": round(elapsed, 2)}
    print("stress:", json.dumps(report))
    assert not lost and not misplaced, report
    assert all(r["whole"] for r in results), report
    assert len(rows) == 1, report
    assert len(journal_applied) == len(applied), report
    assert applied and versions == [max(applied, key=lambda r: r["id"])["v"]]  # the last applied is what stands
    assert not list(root.rglob(".*.aside")) and not list(root.rglob(".*.tmp"))
