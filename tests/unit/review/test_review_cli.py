"""`curator review` in real git repositories: each kind of change appears in text and JSON."""

from __future__ import annotations

import json

import pytest

from curator.cli import main

S = ".serena/memories"
C = ".claude/memory"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def review_json(capsys, *argv) -> dict:
    code, out, err = run(capsys, "review", *argv, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def source(data: dict, path: str) -> dict:
    return next(s for s in data["sources"] if s["source"] == path)


def make_every_change(repo) -> None:
    # added memory + its row
    repo.write(f"{S}/auth/auth-session-cookies.md", "# Session cookies\n\nSet HttpOnly and SameSite=Lax on the "
               "session cookie; rotate it at login.\n")
    repo.edit(f"{S}/skills-auth-index.md", "| password hash",
              "| cookie session httponly samesite csrf | [auth/auth-session-cookies](auth/auth-session-cookies.md) |\n"
              "| password hash")
    # modified memory
    repo.edit(f"{S}/auth/auth-password-hashing.md", "never log them.", "never log them. Re-hash on login when the "
              "cost changes.")
    # renamed memory, its row re-pointed
    repo.move(f"{S}/auth/auth-token-refresh.md", f"{S}/auth/auth-token-rotation.md")
    repo.edit(f"{S}/skills-auth-index.md", "[auth/auth-token-refresh](auth/auth-token-refresh.md)",
              "[auth/auth-token-rotation](auth/auth-token-rotation.md)")
    # re-keyworded row
    repo.edit(f"{S}/skills-auth-index.md", "bcrypt salt rounds", "argon2 memory parallelism")
    # moved between tiers: a transient reflection promoted into knowledge/
    repo.move(f"{S}/reflection/2026-11-01-cache-warmup.md", f"{S}/knowledge/cache-warmup.md")
    # a new finding: a row pointing at no file
    repo.edit(f"{S}/skills-auth-index.md", "| password hash",
              "| deploy rollout canary blue green | [auth/auth-deploy](auth/auth-deploy.md) |\n| password hash")


def test_every_change_appears_in_json(capsys, repo, monkeypatch):
    make_every_change(repo)
    monkeypatch.chdir(repo.root)
    data = review_json(capsys)
    assert data["base"] == "HEAD" and len(data["base_commit"]) == 40
    s = source(data, S)
    assert s["kind"] == "serena" and s["status"] == "changed"
    changes = {(r["change"], r["path"], r.get("old_path")) for r in s["records"]}
    assert ("added", "auth/auth-session-cookies.md", None) in changes
    assert ("modified", "auth/auth-password-hashing.md", None) in changes
    assert ("renamed", "auth/auth-token-rotation.md", "auth/auth-token-refresh.md") in changes
    assert ("moved", "knowledge/cache-warmup.md", "reflection/2026-11-01-cache-warmup.md") in changes
    moved = next(r for r in s["records"] if r["change"] == "moved")
    assert (moved["old_tier"], moved["tier"]) == ("transient", "semantic")
    rows = {(r["change"], r["target"]): r for r in s["rows"]}
    assert ("added", "auth/auth-session-cookies.md") in rows
    repointed = rows[("re-pointed", "auth/auth-token-rotation.md")]
    assert repointed["old_target"] == "auth/auth-token-refresh.md"
    rekw = rows[("re-keyworded", "auth/auth-password-hashing.md")]
    assert "bcrypt" in rekw["old_keywords"] and "argon2" in rekw["keywords"]
    assert rekw["old_uniqueness"] == 1.0 and rekw["uniqueness"] == 1.0
    introduced = {(f["check"], f.get("target")) for f in s["findings"]["introduced"]}
    assert ("index.missing-target", "auth/auth-deploy.md") in introduced
    assert source(data, C)["status"] == "unchanged"
    assert data["summary"]["changed"] == 1 and data["summary"]["introduced"] >= 1


def test_every_change_appears_in_text(capsys, repo, monkeypatch):
    make_every_change(repo)
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(capsys, "review", str(repo.root))
    assert code == 0
    assert "curator review HEAD" in out and S in out
    assert "+ added     auth/auth-session-cookies.md" in out
    assert "~ modified  auth/auth-password-hashing.md" in out
    assert "→ renamed   auth/auth-token-refresh.md → auth/auth-token-rotation.md" in out
    assert "⇄ moved     reflection/2026-11-01-cache-warmup.md → knowledge/cache-warmup.md  transient → semantic" in out
    assert "re-pointed   skills-auth-index.md:3  auth/auth-token-refresh.md → auth/auth-token-rotation.md" in out
    assert "−bcrypt −salt −rounds +argon2 +memory +parallelism" in out
    assert "new      index.missing-target  skills-auth-index.md:" in out
    assert "worse: " in out


def test_resolved_finding_and_claude_folder(capsys, repo, monkeypatch):
    # commit a broken link, then fix it: the finding is resolved; MEMORY.md rows change too
    repo.edit(f"{C}/feedback-test-style.md", "details.", "details. See [guide](testing-guide.md).")
    repo.commit("broken link")
    repo.edit(f"{C}/feedback-test-style.md", " See [guide](testing-guide.md).", "")
    repo.edit(f"{C}/MEMORY.md", "— tests assert behaviour", "— behaviour, not implementation")
    repo.write(f"{C}/project-release.md", "---\nname: release\ndescription: how we release\ntype: project\n---\n"
               "Releases are cut on Mondays.\n")
    repo.edit(f"{C}/MEMORY.md", "- [Test style]", "- [Release](project-release.md) — release day\n- [Test style]")
    monkeypatch.chdir(repo.root / ".claude")  # any folder inside the repository
    data = review_json(capsys, "..")
    c = source(data, C)
    resolved = [(f["check"], f.get("target")) for f in c["findings"]["resolved"]]
    assert ("links.broken", "testing-guide.md") in resolved
    rows = {(r["change"], r["target"]) for r in c["rows"]}
    assert ("added", "project-release.md") in rows
    assert ("re-keyworded", "feedback-test-style.md") in rows
    assert ("added", "project-release.md", None) in {(r["change"], r["path"], r.get("old_path")) for r in c["records"]}
    code, out, _ = run(capsys, "review", "..")
    assert "✔ resolved links.broken  feedback-test-style.md" in out


def test_staged_and_unstaged_both_count(capsys, repo, monkeypatch):
    repo.edit(f"{S}/auth/auth-password-hashing.md", "bcrypt", "scrypt")
    repo.git("add", "-A")
    repo.edit(f"{S}/auth/auth-token-refresh.md", "one hour", "fifteen minutes")
    monkeypatch.chdir(repo.root)
    s = source(review_json(capsys), S)
    assert {r["path"] for r in s["records"] if r["change"] == "modified"} == {
        "auth/auth-password-hashing.md", "auth/auth-token-refresh.md"}


def test_base_revision_and_one_source(capsys, repo, monkeypatch):
    repo.write(f"{S}/auth/auth-mfa.md", "# MFA\n\nTOTP with a thirty second window.\n")
    repo.commit("mfa")
    repo.write(f"{C}/user-role.md", "---\nname: role\ndescription: who\ntype: user\n---\nA maintainer.\n")
    monkeypatch.chdir(repo.root)
    data = review_json(capsys, "--base", "HEAD~1")
    assert {"added", } <= {r["change"] for r in source(data, S)["records"]}
    only = review_json(capsys, C)  # a path inside one source reviews that source only
    assert [s["source"] for s in only["sources"]] == [C]


def test_golden_query_that_gets_worse(capsys, repo, monkeypatch):
    repo.write(f"{S}/golden-queries.yaml", "- query: bcrypt password hashing cost\n"
               "  expect: [auth/auth-password-hashing.md]\n")
    repo.commit("golden")
    (repo.root / S / "auth/auth-password-hashing.md").unlink()
    repo.edit(f"{S}/skills-auth-index.md",
              "| password hash bcrypt salt rounds cost | [auth/auth-password-hashing](auth/auth-password-hashing.md) |\n", "")
    monkeypatch.chdir(repo.root)
    s = source(review_json(capsys), S)
    q = s["queries"][0]
    assert q["query"] == "bcrypt password hashing cost"
    assert q["rank_before"] == 1 and q["rank_after"] is None and q["verdict"] == "worse"
    assert ("removed", "auth/auth-password-hashing.md") in {(r["change"], r["target"]) for r in s["rows"]}
    # the base revision's store lives in a temporary folder: its index is never kept in the cache
    from curator.base.locations import cache_dir

    kept = [(f / "root.txt").read_text() for f in (cache_dir() / "retrieval").iterdir() if (f / "root.txt").is_file()]
    assert kept == [str((repo.root / S).resolve())]


def test_no_changes_and_markdown(capsys, repo, monkeypatch):
    monkeypatch.chdir(repo.root)
    code, out, _ = run(capsys, "review")
    assert code == 0 and "no memory changes against HEAD" in out
    repo.edit(f"{S}/skills-auth-index.md", "| password hash",
              "| deploy rollout canary blue green | [auth/auth-deploy](auth/auth-deploy.md) |\n| password hash")
    code, out, _ = run(capsys, "review", "--format", "markdown")
    assert code == 0
    assert out.startswith("## curator review: HEAD (")
    assert "| ✖ new `index.missing-target` | `skills-auth-index.md:4` |" in out
    assert "**Worse:** 1 new finding (1 error)" in out
    # --fail-on turns new findings into a failing exit
    assert run(capsys, "review", "--fail-on", "error")[0] == 1
    assert run(capsys, "review", "--fail-on", "error", C)[0] == 0


@pytest.mark.parametrize("argv, message", [
    (["--base", "no-such-ref"], "unknown revision: no-such-ref"),
])
def test_bad_revision_is_one_line(capsys, repo, monkeypatch, argv, message):
    monkeypatch.chdir(repo.root)
    code, out, err = run(capsys, "review", *argv)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_outside_a_repository_and_without_sources(capsys, tmp_path, repo, monkeypatch):
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    code, _, err = run(capsys, "review", str(lonely))
    assert code == 2 and "not in a git repository" in err
    code, _, err = run(capsys, "review", str(tmp_path / "missing"))
    assert code == 2 and "not found" in err
    import shutil

    shutil.rmtree(repo.root / ".serena")
    shutil.rmtree(repo.root / ".claude")
    repo.commit("no memory")
    code, _, err = run(capsys, "review", str(repo.root))
    assert code == 2 and "no memory store found" in err


def test_repository_without_commits(capsys, tmp_path, monkeypatch):
    import subprocess

    root = tmp_path / "fresh"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    code, _, err = run(capsys, "review", str(root))
    assert code == 2 and "unknown revision: HEAD" in err


def test_a_problem_that_follows_its_file_is_neither_new_nor_resolved(capsys, repo, monkeypatch):
    repo.write(f"{C}/feedback_old_name.md", "---\nname: n\ndescription: d\ntype: feedback\n---\nSome advice.\n")
    repo.commit("snake case name")
    repo.move(f"{C}/feedback_old_name.md", f"{C}/feedback_new_name.md")
    monkeypatch.chdir(repo.root)
    c = source(review_json(capsys), C)
    assert [r["change"] for r in c["records"]] == ["renamed"]
    assert not [f for f in c["findings"]["introduced"] if f["check"] == "naming.case"]
    assert not [f for f in c["findings"]["resolved"] if f["check"] == "naming.case"]


def test_odd_files_at_the_base_revision_are_no_traceback(capsys, repo, monkeypatch):
    import os

    os.symlink("/etc/hostname", repo.root / S / "escape.md")
    (repo.root / S / "binary.md").write_bytes(b"\x00\x01\x02 not markdown")
    (repo.root / S / "latin1.md").write_bytes("caf\xe9 au lait\n".encode("latin-1"))
    repo.commit("odd files")
    (repo.root / S / "binary.md").unlink()
    monkeypatch.chdir(repo.root)
    code, out, err = run(capsys, "review", "--format", "json")
    assert code == 0 and "Traceback" not in err
    s = source(json.loads(out), S)
    resolved = {(f["check"], f["path"]) for f in s["findings"]["resolved"]}
    assert ("parse.error", "binary.md") in resolved


def test_memory_md_growing_past_what_claude_loads(capsys, repo, monkeypatch):
    lines = "".join(f"- [Note {i}](feedback-small-commits.md) — hook {i}\n" for i in range(200))
    repo.write(f"{C}/MEMORY.md", repo.read(f"{C}/MEMORY.md") + lines)
    monkeypatch.chdir(repo.root)
    c = source(review_json(capsys), C)
    budget = next(b for b in c["budgets"] if b["what"] == "MEMORY.md lines")
    assert budget["cap"] == 200 and budget["before"] < 200 < budget["after"] and budget["crossed"]
    code, out, _ = run(capsys, "review", "--format", "text")
    assert "MEMORY.md lines" in out and "OVER THE CAP (was within)" in out
    assert "MEMORY.md lines crossed its cap" in out
