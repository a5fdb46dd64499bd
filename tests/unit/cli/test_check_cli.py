"""`curator check` end to end: exit codes, the JSON contract, formats, bad input."""

from __future__ import annotations

import json

import pytest

from curator.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_shape_on_sample(capsys, sample_copy):
    code, out, _ = run(capsys, "check", str(sample_copy), "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert set(data) == {"version", "store", "summary", "findings", "sources", "agents"}
    assert data["version"] == 1 and data["store"] == str(sample_copy)
    assert set(data["summary"]) == {"files", "records", "indexes", "tokens", "encoding", "errors", "warnings", "infos"}
    assert data["summary"]["encoding"] == "cl100k_base"
    keys = [(f["path"], f.get("line", 0), f["check"]) for f in data["findings"]]
    assert keys == sorted(keys)
    for f in data["findings"]:
        assert {"check", "severity", "path", "message"} <= set(f) <= {
            "check", "severity", "path", "line", "message", "target", "suggestion"}
        assert "\\" not in f["path"]
    missing = [f for f in data["findings"] if f["check"] == "index.missing-target"]
    assert {"path": "skills-ci-index.md", "target": "ci/ci-release-pipeline.md",
            "suggestion": "ci/ci-release-workflow.md"}.items() <= missing[-1].items()
    counts = {s: sum(1 for f in data["findings"] if f["severity"] == s[:-1]) for s in ("errors", "warnings", "infos")}
    assert counts == {k: data["summary"][k] for k in counts}


def test_warnings_pass_unless_fail_on_warning(capsys, make_store):
    tiered_l0 = "| Keywords | File |\n|---|---|\n"
    root = make_store({"memory-index.md": tiered_l0, "git/git-x.md": "# X\n", "notes.md": "# notes\n"})
    code, out, _ = run(capsys, "check", str(root))
    assert code == 0 and "orphan.unindexed" in out
    assert run(capsys, "check", str(root), "--fail-on", "warning")[0] == 1


def test_fail_on_levels(capsys, make_store):
    root = make_store({
        "memory-index.md": "[G]\n|x: [skills-g-index](skills-g-index.md)\n",
        "skills-g-index.md": "| Keywords | File |\n|---|---|\n| a b | [g/g-x](g/g-x.md) |\n",
        "g/g-x.md": "# X\n",
    })
    assert run(capsys, "check", str(root))[0] == 0  # only warnings (too few keywords, stale count)
    assert run(capsys, "check", str(root), "--fail-on", "warning")[0] == 1


@pytest.mark.parametrize("fmt", ["text", "github", "sarif"])
def test_other_formats(capsys, sample_copy, fmt):
    code, out, _ = run(capsys, "check", str(sample_copy), "--format", fmt)
    assert code == 1
    if fmt == "github":
        assert "::error file=" in out and "title=index.missing-target" in out
    elif fmt == "sarif":
        sarif = json.loads(out)
        assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"]
    else:
        assert "index.missing-target" in out and "errors" in out
        assert "\x1b[" not in out  # NO_COLOR is set by the test fixture


def test_only_unknown_id_is_a_usage_error(capsys, sample_copy):
    code, _, err = run(capsys, "check", str(sample_copy), "--only", "nope.nothing")
    assert code == 2 and "nope.nothing" in err and "Traceback" not in err


def test_missing_store_is_exit_2(capsys, tmp_path):
    code, out, err = run(capsys, "check", str(tmp_path / "absent"))
    assert code == 2 and "not found" in err and out == ""


def test_bad_config_is_exit_2(capsys, make_store):
    root = make_store({".curator.yaml": "budgets: [1, 2\n", "a.md": "# a\n"})
    code, _, err = run(capsys, "check", str(root))
    assert code == 2 and ".curator.yaml" in err


def test_empty_store_is_clean(capsys, tmp_path):
    (tmp_path / "memories").mkdir()
    code, out, _ = run(capsys, "check", str(tmp_path / "memories"), "--format", "json")
    assert code == 0 and json.loads(out)["summary"]["files"] == 0


def test_folder_without_any_memory_is_a_usage_error(capsys, tmp_path):
    (tmp_path / "src").mkdir()
    code, _, err = run(capsys, "check", str(tmp_path / "src"))
    assert code == 2 and "no agent memory found" in err


def test_bad_bytes_never_traceback(capsys, make_store):
    root = make_store({
        "bin.md": bytes(range(256)) * 10,
        "latin.md": "caf\xe9".encode("latin-1"),
        "yaml.md": "---\nkey: [unclosed\n---\n# x\n",
        "bom.md": "\ufeff---\na: 1\n---\n# x\n",
    })
    code, out, err = run(capsys, "check", str(root), "--format", "json")
    checks = {(f["path"], f["check"]) for f in json.loads(out)["findings"]}
    assert ("bin.md", "parse.error") in checks and ("latin.md", "parse.error") in checks
    assert ("yaml.md", "frontmatter.invalid") in checks and ("bom.md", "frontmatter.invalid") in checks
    assert code == 1 and err == ""


def test_fifo_behind_a_symlink_is_reported_not_waited_on(capsys, make_store):
    import os

    root = make_store({"a.md": "# a\n"})
    os.mkfifo(root / "pipe")
    os.symlink(root / "pipe", root / "pipe.md")
    code, out, _ = run(capsys, "check", str(root), "--format", "json")
    found = {(f["path"], f["check"]) for f in json.loads(out)["findings"]}
    assert ("pipe.md", "parse.error") in found and code == 1
