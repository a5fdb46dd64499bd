"""What CI relies on: exit 2 with one line when no store is found, SARIF 2.1.0 that validates
against the official schema with repository-relative paths, GitHub annotations likewise, and
unknown commands that say so."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
import pytest

from curator.cli import main

SCHEMA = Path(__file__).resolve().parents[2] / "data" / "sarif-schema-2.1.0.json"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [
    ["check"], ["check", "--format", "json"], ["eval"], ["tokens"], ["baseline"], ["refresh"], ["prune"],
    ["history"], ["undo"],
])
def test_machine_commands_exit_2_without_a_store(capsys, tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert "no agent memory found" in err and len(err.strip().splitlines()) == 1
    assert "sample" not in out


def test_only_the_app_falls_back_to_the_demo(tmp_path, monkeypatch):
    from curator.cli import common

    monkeypatch.chdir(tmp_path)

    class Args:
        store_pos = store = config = None

    located, _ = common.locate_and_configure(Args(), allow_demo=True)
    assert located.is_sample and "bundled sample" in located.notice
    with pytest.raises(common.UsageError):
        common.locate_and_configure(Args())


def _git_repo(root: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)


def _store_in_repo(make_store, tmp_path) -> Path:
    repo = tmp_path / "store"  # make_store builds tmp_path/store
    store = make_store({
        ".serena/memories/memory-index.md": "[Ops]\n|deploy: [skills-ops-index](skills-ops-index.md) (0)\n",
        ".serena/memories/skills-ops-index.md": "| Keywords | File |\n|---|---|\n| deploy canary | [ops/ops-gone](ops/ops-gone.md) |\n",
        ".serena/memories/ops/Ops_Notes.md": "# Ops\n",
    })
    _git_repo(repo)
    (repo / "docs").mkdir()
    return store


def test_sarif_validates_with_paths_relative_to_the_repository(capsys, make_store, tmp_path, monkeypatch):
    repo = _store_in_repo(make_store, tmp_path)
    schema = json.loads(SCHEMA.read_text())
    for cwd in (repo, repo / "docs", repo / ".serena" / "memories" / "ops"):
        monkeypatch.chdir(cwd)
        code, out, err = run(capsys, "check", "--format", "sarif")
        assert code == 1, err
        data = json.loads(out)
        jsonschema.validate(data, schema, cls=jsonschema.Draft4Validator)
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in data["runs"][0]["results"]}
        assert ".serena/memories/skills-ops-index.md" in uris, cwd
        assert ".serena/memories/ops/Ops_Notes.md" in uris
        assert all(not u.startswith(("/", "..")) for u in uris)
        assert data["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] == repo.resolve().as_uri() + "/"


def test_sarif_schema_rejects_a_broken_log(capsys, make_store, tmp_path, monkeypatch):
    """The schema check can fail: a result without its message is refused."""
    repo = _store_in_repo(make_store, tmp_path)
    monkeypatch.chdir(repo)
    data = json.loads(run(capsys, "check", "--format", "sarif")[1])
    del data["runs"][0]["results"][0]["message"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, json.loads(SCHEMA.read_text()), cls=jsonschema.Draft4Validator)


def test_github_annotations_relative_to_the_repository(capsys, make_store, tmp_path, monkeypatch):
    repo = _store_in_repo(make_store, tmp_path)
    monkeypatch.chdir(repo / "docs")
    code, out, _ = run(capsys, "check", "--format", "github")
    assert code == 1
    files = {part.split("=", 1)[1] for line in out.splitlines() for part in line.split(" ", 1)[1].split("::")[0].split(",")
             if part.startswith("file=")}
    assert files and all(f.startswith(".serena/memories/") for f in files)


def test_sarif_outside_a_repository_keeps_the_given_path(capsys, make_store):
    store = make_store({"skills-x-index.md": "| Keywords | File |\n|---|---|\n| a b | [x/gone](x/gone.md) |\n"})
    data = json.loads(run(capsys, "check", str(store), "--format", "sarif")[1])
    uri = data["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == f"{store}/skills-x-index.md"  # as given: there is no repository root to be relative to


@pytest.mark.parametrize("word, nearest", [("reveiw", "review"), ("chek", "check"), ("tokns", "tokens")])
def test_unknown_command_suggests_the_nearest(capsys, tmp_path, monkeypatch, word, nearest):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, word)
    assert code == 2 and out == ""
    assert f"unknown command '{word}'; did you mean '{nearest}'?" in err
    assert "store not found" not in err


def test_unknown_word_without_a_near_command(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "zzzzzz")
    assert code == 2 and "neither a command nor a folder" in err and "review" in err


def test_an_existing_path_still_opens_the_app(tmp_path, monkeypatch):
    opened = []
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reveiw").mkdir()  # a folder named like a typo is still a store
    import curator.cli.app_entry as entry

    monkeypatch.setattr(entry, "run_app", lambda argv: opened.append(argv) or 0)
    assert main(["reveiw"]) == 0 and opened == [["reveiw"]]
