"""The import, frontmatter and glob parsers take any text without raising."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.context.parse import (
    find_imports,
    find_kiro_refs,
    glob_list,
    glob_regex,
    matches,
    read_meta,
)

hostile = st.lists(st.sampled_from(list("@`~/.-:#[]{}*?!\n\r\t \\\"'abcé\u2028\x00-") + ["---\n", "```\n", "paths:"]),
                   max_size=200).map("".join)


@settings(max_examples=300, deadline=None)
@given(hostile)
def test_parsers_never_raise(text):
    for ref in find_imports(text):
        assert ref.path and not ref.path.startswith("@") and ref.line >= 1
    find_kiro_refs(text)
    meta = read_meta(text)
    assert isinstance(meta.data, dict)
    for g in glob_list(text):
        glob_regex(g).match("src/a.ts")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab/.*?{},[]!", max_size=30), st.text(alphabet="ab/.", max_size=20))
def test_globs_compile_and_match_totally(glob, path):
    assert matches(glob, path) in (True, False)


def test_imports_outside_code_only():
    text = "see @a.md and `@b.md`\n```\n@c.md\n```\n  @d.md\nmail me@x.org, @user, @scope/pkg\n"
    assert [(r.path, r.pathlike) for r in find_imports(text)] == [
        ("a.md", True), ("d.md", True), ("user", False), ("scope/pkg", False)]


def test_glob_semantics():
    assert matches("**/*.ts", "a/b/c.ts") and matches("*.ts", "deep/x.ts")
    assert matches("src/**/*.{ts,tsx}", "src/a/b.tsx") and not matches("src/*.ts", "src/a/b.ts")
    assert glob_list("**/*.ts, **/*.{js,jsx}") == ["**/*.ts", "**/*.{js,jsx}"]
    assert glob_list(["a/**", "b/*.md"]) == ["a/**", "b/*.md"]
