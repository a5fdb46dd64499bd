"""What Claude Code injects of an auto-memory MEMORY.md (model/memory_md.py), against its
`truncateEntrypointContent` as read at 2.1.88 and 2.1.332, and on any text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.model.memory_md import index_lines, loaded_index

WARNING = "\n\n> WARNING: "


def _truncate(raw: str, lines: int, chars: int) -> str:
    """Claude Code's truncateEntrypointContent, transcribed (without the warning)."""
    trimmed = raw.strip()
    parts = trimmed.split("\n")
    if len(parts) <= lines and len(trimmed) <= chars:
        return trimmed
    cut = "\n".join(parts[:lines]) if len(parts) > lines else trimmed
    if len(cut) > chars:
        at = cut.rfind("\n", 0, chars + 1)
        cut = cut[: at if at > 0 else chars]
    return cut


def test_frontmatter_and_block_comments_go_before_the_cap_and_lines_keep_the_files_numbers():
    text = "---\ntype: index\n---\n\n<!-- a\nb -->\n# Memory\n- [A](a.md)\n```\n<!-- code stays -->\n```\n"
    kept = index_lines(text)
    assert [no for no, _ in kept] == [7, 8, 9, 10, 11]
    assert loaded_index(text, 200, 25_000) == ("# Memory\n- [A](a.md)\n```\n<!-- code stays -->\n```", None)
    shown, first = loaded_index(text, 2, 25_000)
    assert first == 9 and shown.startswith("# Memory\n- [A](a.md)" + WARNING)
    assert "3 of 5 lines were cut off, starting at line 3 (\"```\")" in shown


lines_text = st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x0b\x0c\x1c"
                                                     "\x1d\x1e\x85\u2028\u2029"), max_size=60), max_size=40)


@settings(max_examples=300, deadline=None)
@given(lines_text, st.integers(1, 12), st.integers(1, 400))
def test_without_frontmatter_or_comments_it_is_claude_codes_cut(rows, max_lines, max_chars):
    text = "\n".join(r.replace("<!--", "<!-").replace("---", "--") for r in rows) + "\n"
    shown, first = loaded_index(text, max_lines, max_chars)
    expected = _truncate(text, max_lines, max_chars)
    assert shown.split(WARNING)[0] == expected
    assert (first is None) == (WARNING not in shown)
    if first is not None:
        assert 1 <= first <= len(text.splitlines())


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400), st.integers(1, 12), st.integers(1, 400))
def test_any_text_loads_within_the_cap_and_never_raises(text, max_lines, max_chars):
    shown, first = loaded_index(text, max_lines, max_chars)
    body = shown.split(WARNING)[0]
    assert len(body) <= max_chars and body.count("\n") < max_lines
