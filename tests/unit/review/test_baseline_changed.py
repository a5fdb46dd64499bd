"""`curator baseline`, `check --baseline` and `check --changed` in real git repositories;
fingerprints that survive line moves."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.checks import run_checks
from curator.cli import main
from curator.model import load_store
from curator.model.findings import Finding, Severity, fingerprint
from curator.review.diff import fingerprints

S = ".serena/memories"
DEAD_ROW = "| deploy rollout canary blue green | [auth/auth-deploy](auth/auth-deploy.md) |\n"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def add_dead_row(repo, row: str = DEAD_ROW) -> None:
    repo.edit(f"{S}/skills-auth-index.md", "| password hash", row + "| password hash")


def test_baseline_accepts_old_findings_and_fails_on_new(capsys, repo):
    store = repo.root / S
    add_dead_row(repo)  # an old, accepted error
    assert run(capsys, "check", str(store))[0] == 1
    baseline = repo.root / "memory-baseline.json"
    code, out, _ = run(capsys, "baseline", str(store), "-o", str(baseline))
    assert code == 0 and "wrote" in out
    data = json.loads(baseline.read_text())
    assert data["version"] == 1 and any(e["check"] == "index.missing-target" for e in data["findings"])
    assert run(capsys, "check", str(store), "--baseline", str(baseline))[0] == 0
    # the accepted row moves down two lines: still accepted
    repo.edit(f"{S}/skills-auth-index.md", DEAD_ROW, "")
    repo.edit(f"{S}/skills-auth-index.md", "[auth/auth-password-hashing](auth/auth-password-hashing.md) |\n",
              "[auth/auth-password-hashing](auth/auth-password-hashing.md) |\n" + DEAD_ROW)
    assert run(capsys, "check", str(store), "--baseline", str(baseline))[0] == 0
    # a new error fails, and only it is reported
    add_dead_row(repo, "| queue worker retry backoff jitter | [auth/auth-queue](auth/auth-queue.md) |\n")
    code, out, _ = run(capsys, "check", str(store), "--baseline", str(baseline), "--format", "json")
    assert code == 1
    report = json.loads(out)
    assert [f.get("target") for f in report["findings"] if f["check"] == "index.missing-target"] == ["auth/auth-queue.md"]
    assert report["baseline"]["known"] >= 1 and report["baseline"]["gone"] == []


def test_baseline_reports_findings_gone(capsys, repo):
    store = repo.root / S
    add_dead_row(repo)
    baseline = store / ".curator-baseline.json"
    run(capsys, "baseline", str(store))
    assert baseline.is_file()
    repo.edit(f"{S}/skills-auth-index.md", DEAD_ROW, "")
    code, out, _ = run(capsys, "check", str(store), "--baseline", str(baseline))
    assert code == 0
    assert "baseline finding is gone" in out and "auth/auth-deploy.md does not exist" in out
    code, out, _ = run(capsys, "check", str(store), "--baseline", str(baseline), "--format", "json")
    assert [e["check"] for e in json.loads(out)["baseline"]["gone"]] == ["index.missing-target"]


def test_bad_baseline_file_is_a_usage_error(capsys, repo, tmp_path):
    store = repo.root / S
    for content, message in (("{not json", "not valid JSON"), ('{"findings": [{"x": 1}]}', "not a curator baseline"),
                             ("[" * 100_000 + "]" * 100_000, "nested too deep")):
        bad = tmp_path / "bad.json"
        bad.write_text(content)
        code, out, err = run(capsys, "check", str(store), "--baseline", str(bad))
        assert code == 2 and message in err and "Traceback" not in err
    code, _, err = run(capsys, "check", str(store), "--baseline", str(tmp_path / "none.json"))
    assert code == 2 and "baseline file not found" in err


def test_changed_keeps_only_new_findings(capsys, repo, monkeypatch):
    add_dead_row(repo)
    repo.commit("old error")
    monkeypatch.chdir(repo.root)
    assert run(capsys, "check")[0] == 1  # the whole store fails on the old error
    assert run(capsys, "check", "--changed")[0] == 0  # nothing new since HEAD
    # moving lines around does not make the old error new
    repo.edit(f"{S}/skills-auth-index.md", DEAD_ROW, "")
    repo.write(f"{S}/skills-auth-index.md", repo.read(f"{S}/skills-auth-index.md") + DEAD_ROW)
    assert run(capsys, "check", "--changed")[0] == 0
    # deleting a memory breaks its (unchanged) row: new since HEAD
    (repo.root / S / "auth/auth-token-refresh.md").unlink()
    code, out, _ = run(capsys, "check", "--changed", "--format", "json")
    assert code == 1
    data = json.loads(out)
    # run from the repository, paths are relative to it
    assert [f.get("target") for f in data["findings"] if f["check"] == "index.missing-target"] == [
        f"{S}/auth/auth-token-refresh.md"]
    assert data["changed"] == {"base": "HEAD"}
    # against the commit before the old error, that one is new too
    assert {f.get("target") for f in json.loads(run(capsys, "check", "--changed", "--base", "HEAD~1",
                                                    "--format", "json")[1])["findings"]} >= {f"{S}/auth/auth-deploy.md"}


def test_changed_outside_git_is_a_usage_error(capsys, make_store):
    root = make_store({"a.md": "# A\n"})
    code, _, err = run(capsys, "check", str(root), "--changed")
    assert code == 2 and "--changed:" in err and "not in a git repository" in err


def test_fingerprint_ignores_line_numbers_not_content():
    a = Finding("index.missing-target", Severity.ERROR, "x-index.md", "x.md does not exist (line 3)", line=3, target="x.md")
    b = Finding("index.missing-target", Severity.ERROR, "x-index.md", "x.md does not exist (line 9)", line=9, target="x.md")
    row = "| a b c | [x](x.md) |"
    assert fingerprint(a, row) == fingerprint(b, "  " + row)
    assert fingerprint(a, row) != fingerprint(a, "| a b d | [x](x.md) |")
    assert fingerprint(a, row) != fingerprint(a, row, path="y-index.md")
    assert len(fingerprint(a)) == 16


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["", "Some prose.", "## Notes", "- a bullet"]), max_size=6))
def test_fingerprints_survive_lines_inserted_above(tmp_path_factory, lines):
    body = "# Title\n\nSee [gone](gone.md) and [also](missing.md).\n"
    root = tmp_path_factory.mktemp("fp")
    (root / "note.md").write_text(body)
    before = load_store(root)
    fb = sorted(fingerprints(before, run_checks(before)))
    (root / "note.md").write_text("# Title\n" + "".join(f"{ln}\n" for ln in lines) + body.split("\n", 1)[1])
    after = load_store(root)
    assert sorted(fingerprints(after, run_checks(after))) == fb
