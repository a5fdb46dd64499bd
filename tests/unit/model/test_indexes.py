from curator.model.indexes import (
    parse_domain_index,
    parse_l0,
    resolve_target,
)
from tests.index_text import format_domain_index, format_l0

EVOLVED = """\
<!-- generated: do not edit by hand -->
|early row: [a](a.md) (3)

[Git]
|git rebase branch: [skills-git-index](skills-git-index.md) (120), [git-rebase](git/git-rebase.md) (0)
|ci actions: [skills-ci-index](skills-ci-index.md)
"""


def test_evolved_dialect_rows_sections_and_counts():
    idx = parse_l0("memory-index.md", EVOLVED)
    assert idx.dialect == "sections"
    assert [r.line for r in idx.rows] == [2, 5, 6]
    assert idx.rows[0].section is None and idx.rows[1].section == "Git"
    links = idx.rows[1].links
    assert [lk.target for lk in links] == ["skills-git-index.md", "git/git-rebase.md"]
    assert [lk.count for lk in links] == [120, 0]
    assert idx.rows[2].links[0].count is None
    assert idx.anomalies == []


def test_table_dialect_with_bare_names():
    idx = parse_l0("memory-index.md", "| Keywords | File |\n|---|---|\n| git rebase | skills-git-index |\n")
    assert idx.dialect == "table"
    assert idx.rows[0].links[0].target == "skills-git-index.md"


def test_l0_prose_line_is_an_anomaly_not_an_exception():
    idx = parse_l0("memory-index.md", "[S]\nsome prose here\n|k: [a](a.md)\n")
    assert idx.anomalies == [(2, "line is neither a section header nor an index row")]
    assert len(idx.rows) == 1


def test_domain_index_extras_and_rows():
    text = "# Title\nParent: x\n| Keywords | File |\n|---|---|\n| a b c | [d/n](d/n.md) |\n| e f | bare |\n"
    idx = parse_domain_index("skills-x-index.md", text)
    assert [line for line, _ in idx.extras] == [1, 2]
    assert [r.links[0].target for r in idx.rows] == ["d/n.md", "bare.md"]
    assert idx.domain == "x"


def test_resolve_target_flags_escapes_and_absolute_paths():
    assert resolve_target("../x.md")[1] == "escapes the store"
    assert resolve_target("a/../../x.md")[1] == "escapes the store"
    assert resolve_target("/etc/passwd")[1] == "absolute path or URL"
    assert resolve_target("a/./b")[0] == "a/b.md"
    assert resolve_target("a/b.md#part") == ("a/b.md", None)


def test_writers_round_trip():
    idx = parse_l0("memory-index.md", EVOLVED)
    again = parse_l0("memory-index.md", format_l0(idx))
    assert [(r.keywords, [(lk.target, lk.count) for lk in r.links], r.section) for r in again.rows] == [
        (r.keywords, [(lk.target, lk.count) for lk in r.links], r.section) for r in idx.rows
    ]
    d = parse_domain_index("x-index.md", format_domain_index([(["a", "b"], "d/n.md")]))
    assert d.rows[0].keywords == ["a", "b"] and d.rows[0].links[0].target == "d/n.md"
    assert d.extras == [] and d.anomalies == []
