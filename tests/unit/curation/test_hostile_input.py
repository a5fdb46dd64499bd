"""One bad file never breaks everything: bad YAML values are findings or one-line errors,
config and golden files are read only as small regular files, names that would corrupt an index
are refused, messages are text (never markup), arguments are bounded, costs stay linear."""

from __future__ import annotations

import os
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.checks.keyword_checks import row_uniqueness
from curator.cli import main
from curator.curation import CurationError
from curator.curation.validate import check_path
from curator.model.frontmatter import split_frontmatter
from curator.model.indexes import format_domain_row, parse_domain_index

BAD_VALUES = ["2026-13-45", "2026-02-30", "25:61:00", "2026-01-01 25:61:00", "!!int 'abc'", "!!timestamp 'nope'",
              "!!float abc", "!!binary zz", "!!python/object:os.system x", "&a [*a]", "{[1]: 2}"]


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse refusals exit from inside the parser
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, err):
    assert code == 2, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) <= 2  # the error (and at most a "try: --help" hint)


@pytest.mark.parametrize("value", BAD_VALUES)
def test_frontmatter_value_yaml_cannot_build_is_a_finding(value):
    fm, body, _ = split_frontmatter(f"---\ndate: {value}\n---\n# Title\n")
    assert body.startswith("# Title")
    if fm.error is None:  # YAML reads some of them as plain strings: that is fine too
        assert isinstance(fm.data, dict)
    else:
        assert "\n" not in fm.error


@pytest.mark.parametrize("value", ["2026-13-45", "!!int 'abc'", "!!timestamp 'nope'"])
def test_a_bad_date_in_one_memory_does_not_stop_any_command(sample_copy, capsys, value):
    (sample_copy / "git" / "git-bad-date.md").write_text(f"---\ndate: {value}\n---\n# Bad date\n\nbody\n")
    code, out, err = run(capsys, "check", str(sample_copy), "--format", "json")
    assert code == 1 and "frontmatter.invalid" in out and "Traceback" not in err
    for argv in (["tokens", str(sample_copy)], ["retrieve", "--store", str(sample_copy), "rebase"],
                 ["eval", str(sample_copy)], ["fix", str(sample_copy), "--dry-run"], ["prune", str(sample_copy), "--dry-run"]):
        code, out, err = run(capsys, *argv)
        assert code in (0, 1) and "Traceback" not in err, (argv, err)


@pytest.mark.parametrize("text", ["golden: 2026-13-45\n", "thresholds: !!int 'abc'\n", "budgets: {startup: !!timestamp x}\n",
                                  "thresholds:\n  uniqueness: .nan\n", "[1, 2\n", "thresholds: {min_keywords: 1e999}\n"])
def test_a_bad_config_is_one_line(sample_copy, capsys, text):
    (sample_copy / ".curator.yaml").write_text(text)
    for argv in (["check", str(sample_copy)], ["fix", str(sample_copy), "--dry-run"]):
        code, out, err = run(capsys, *argv)
        assert "Traceback" not in err
        assert code in (0, 1, 2)
        if code == 2:
            one_line_error(code, err)


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "outside-symlink", "too-large", "bad-date", "bad-yaml", "folder"])
def test_golden_file_is_read_only_as_a_small_regular_file_inside_the_store(sample_copy, tmp_path, capsys, kind):
    golden = sample_copy / "golden-queries.yaml"
    golden.unlink()
    if kind == "dev-zero":
        golden.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(golden)
    elif kind == "outside-symlink":
        outside = tmp_path / "outside.yaml"
        outside.write_text("- query: rebase\n  expect: [git/git-interactive-rebase.md]\n")
        golden.symlink_to(outside)
    elif kind == "too-large":
        golden.write_bytes(b"# padding\n" * 300_000)
    elif kind == "bad-date":
        golden.write_text("- query: 2026-13-45\n  expect: [x.md]\n")
    elif kind == "bad-yaml":
        golden.write_text("- query: [unclosed\n")
    elif kind == "folder":
        golden.mkdir()
    started = time.monotonic()
    code, out, err = run(capsys, "eval", str(sample_copy))
    assert time.monotonic() - started < 60  # a FIFO never hangs, /dev/zero is never read through
    one_line_error(code, err)


def test_a_config_that_is_a_symlink_or_fifo_is_not_read(sample_copy, tmp_path, capsys):
    (sample_copy / ".curator.yaml").unlink(missing_ok=True)
    os.mkfifo(sample_copy / ".curator.yaml")
    code, _, err = run(capsys, "check", str(sample_copy))
    assert code in (0, 1) and "Traceback" not in err  # not a regular file: as if there were none
    code, _, err = run(capsys, "check", str(sample_copy), "--config", "/dev/zero")
    one_line_error(code, err)


def test_a_link_part_over_255_bytes_and_links_leaving_the_store(sample_copy, capsys):
    long = "x" * 300
    (sample_copy / "git" / "git-links.md").write_text(
        f"# Links\n\n[long]({long}.md) and [out](../../etc/passwd) and [up](/../../etc/hosts)\n")
    code, out, err = run(capsys, "check", str(sample_copy), "--format", "json")
    assert code == 1 and "Traceback" not in err
    assert "names no possible file" in out
    assert out.count("leaves the store") == 2


def test_a_store_with_indexes_but_no_memories(make_store, capsys):
    root = make_store({
        "memory-index.md": "# Memory Index\n\n|x y z: [skills-x-index](skills-x-index.md) (10)\n",
        "skills-x-index.md": "| Keywords | File |\n|---|---|\n| a b c | [x/y](x/y.md) |\n",
        "golden-queries.yaml": "- query: hello\n  expect: [x/y.md]\n",
    })
    code, _, err = run(capsys, "retrieve", "--store", str(root), "hello")
    assert code == 0 and "Traceback" not in err
    code, _, err = run(capsys, "eval", str(root))
    assert code == 1 and "Traceback" not in err


@pytest.mark.parametrize("dest", ["knowledge/foo\n.md", "a|b/x.md", "x](y/z.md", "My Folder/x.md", "knowledge/" + "a" * 300 + ".md",
                                  "knowledge/x\u202e.md", "knowledge//x.md", "linked/x.md", "knowledge/x.md\n"])
def test_promote_refuses_names_that_corrupt_indexes(sample_copy, tmp_path, capsys, dest):
    outside = tmp_path / "outside"
    outside.mkdir()
    (sample_copy / "linked").symlink_to(outside, target_is_directory=True)
    before = sorted(p.name for p in sample_copy.rglob("*"))
    code, _, err = run(capsys, "promote", "validation/2026-11-18-c0ffee.md", "--to", dest,
                       "--index", "skills-ci-index.md", "--store", str(sample_copy))
    one_line_error(code, err)
    assert sorted(p.name for p in sample_copy.rglob("*") if ".curator" not in p.parts) == [
        n for n in before if n != ".curator"]
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("argv", [["fix", "--check", "[/]"], ["fix", "--check", "[bold]x"], ["check", "--only", "[/]"]])
def test_markup_in_arguments_is_printed_as_text(sample_copy, capsys, argv):
    code, out, err = run(capsys, argv[0], str(sample_copy), *argv[1:])
    assert code == 2 and "Traceback" not in err
    assert argv[-1] in err  # printed as given, not parsed as markup


@pytest.mark.parametrize("argv", [["--older-than", "99999999999999d"], ["--keep", "-1"], ["--older-than", "-3d"],
                                  ["--keep", "x"]])
def test_prune_arguments_are_bounded(sample_copy, capsys, argv):
    code, _, err = run(capsys, "prune", str(sample_copy), "--dry-run", *argv)
    one_line_error(code, err)


def test_read_only_store_is_one_line(sample_copy, capsys, monkeypatch):
    from curator.curation import journal

    def refuse(*a, **k):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(journal.Path, "mkdir", refuse)
    code, _, err = run(capsys, "fix", str(sample_copy))
    one_line_error(code, err)
    assert "Read-only file system" in err
    assert not (sample_copy / ".curator").exists()


def test_full_disk_leaves_no_empty_gitignore(sample_copy, monkeypatch):
    from curator.curation import WriteFailed, journal

    real = journal.write_temp

    def full(path, data):
        if path.name == ".gitignore":
            raise OSError(28, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(journal, "write_temp", full)
    with pytest.raises(WriteFailed, match="No space left"):
        journal.curator_dir(sample_copy)
    assert not (sample_copy / ".curator" / ".gitignore").exists()
    monkeypatch.undo()
    journal.curator_dir(sample_copy)  # the next writer writes it whole
    assert (sample_copy / ".curator" / ".gitignore").read_bytes() == journal.GITIGNORE


# -- names -------------------------------------------------------------------------

name_chars = st.characters(blacklist_categories=("Cs",))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(name_chars, min_size=1, max_size=20), min_size=1, max_size=3), st.text(name_chars, min_size=1, max_size=20))
def test_any_name_the_validator_accepts_round_trips_through_an_index_row(folders, stem):
    rel = "/".join([*folders, stem]) + ".md"
    try:
        check_path(rel)
    except CurationError:
        return
    row = format_domain_row(["alpha", "beta"], rel)
    idx = parse_domain_index("skills-x-index.md", f"| Keywords | File |\n|---|---|\n{row}\n")
    assert len(idx.rows) == 1
    assert [lk.target for lk in idx.rows[0].links] == [rel]


# -- cost --------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.lists(st.frozensets(st.sampled_from("abcdefgh"), max_size=5), min_size=1, max_size=12))
def test_uniqueness_check_matches_the_pairwise_definition(sets):
    from curator.checks.keyword_checks import _rows_per_keyword

    class Row:
        def __init__(self, ks):
            self.keyword_set = ks

    counts = _rows_per_keyword([Row(s) for s in sets])
    for i, s in enumerate(sets):
        if s:
            fast = sum(1 for k in s if counts[k] == 1) / len(s)
            assert fast == pytest.approx(row_uniqueness(s, sets[:i] + sets[i + 1:]))


def test_uniqueness_on_a_strict_index_of_20000_rows_is_fast(make_store):
    from curator.checks import run_checks
    from curator.model import load_store

    rng = random.Random(7)
    rows = [f"| {' '.join(f'k{rng.randrange(40_000)}' for _ in range(6))} | [m{i}](m/m{i}.md) |" for i in range(20_000)]
    root = make_store({"skills-big-index.md": "| Keywords | File |\n|---|---|\n" + "\n".join(rows) + "\n"})
    store = load_store(root)
    started = time.process_time()  # CPU, not wall: a busy machine must not fail it
    findings = run_checks(store, {"keywords.uniqueness"})
    assert time.process_time() - started < 10  # about 1 s; quadratic it was 112 s
    assert findings  # 6 keywords drawn from 40k across 20k rows: some rows share most of theirs
