"""What Claude Code injects of an auto-memory MEMORY.md (model/memory_md.py), against its
`truncateEntrypointContent` as read at 2.1.88 and 2.1.332, and on any text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.model.memory_md import index_lines, loaded_index

WARNING = "\n\n> WARNING: "


def _truncate(raw: str, lines: int, chars: int) -> str:
    """Claude Code's truncateEntrypointContent, transcribed (without the warning), lengths and
    indexes in UTF-16 code units as JavaScript has them."""
    trimmed = raw.strip()
    parts = trimmed.split("\n")
    if len(parts) <= lines and _units(trimmed) <= chars:
        return trimmed
    cut = "\n".join(parts[:lines]) if len(parts) > lines else trimmed
    if _units(cut) > chars:
        units = cut.encode("utf-16-le")
        at = max((i for i in range(0, min(chars, _units(cut) - 1) + 1) if units[2 * i:2 * i + 2] == b"\n\x00"),
                 default=-1)
        cut = units[: 2 * (at if at > 0 else chars)].decode("utf-16-le", "ignore")
    return cut


def _units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_frontmatter_and_block_comments_go_before_the_cap_and_lines_keep_the_files_numbers():
    text = "---\ntype: index\n---\n\n<!-- a\nb -->\n# Memory\n- [A](a.md)\n```\n<!-- code stays -->\n```\n"
    kept = index_lines(text)
    assert [no for no, _ in kept] == [7, 8, 9, 10, 11]
    assert loaded_index(text, 200, 25_000) == ("# Memory\n- [A](a.md)\n```\n<!-- code stays -->\n```", None)
    shown, first = loaded_index(text, 2, 25_000)
    assert first == 9 and shown.startswith("# Memory\n- [A](a.md)" + WARNING)
    assert "3 of 5 lines were cut off, starting at line 3 (\"```\")" in shown


# characters Python's strip takes for whitespace and JavaScript's trim does not are left out
lines_text = st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",),
                                                     blacklist_characters="\x1c\x1d\x1e\x1f\x85"), max_size=60),
                      max_size=40)


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


def test_comments_as_claude_code_strips_them_an_unclosed_one_stays_as_text():
    from curator.model.markdown import comment_free_lines

    def kept(text):
        return "".join(line for _, line in comment_free_lines(text)[0])

    assert kept("a\n<!-- x --> keep <!-- y -->\nb\n") == "a\n keep \nb\n"  # spans out, the rest of the line kept
    assert kept("a\n<!-- open\nnever closed\n") == "a\n<!-- open\nnever closed\n"  # kept whole, as text
    assert comment_free_lines("<!-- open\n")[1] is True
    assert kept("    <!-- indented code -->\n") == "    <!-- indented code -->\n"  # four spaces: not a comment block
    assert kept("a\r\n<!-- x -->\r\nb\r\n") == "a\nb\n"


def test_the_load_counts_as_javascript_does_and_reads_frontmatter_as_claude_code_does():
    assert loaded_index("\ufeff---\nname: x\n---\nbody\n", 200, 25_000) == ("body", None)  # a BOM first: still frontmatter
    assert loaded_index("a\r\nb\r\n", 200, 25_000)[0] == "a\r\nb"  # a \r is part of its line
    assert loaded_index("x\u2028y\n", 1, 25_000) == ("x\u2028y", None)  # one line: only \n ends one
    emoji = "😀" * 6 + "\n" + "b\n"  # 12 units, then a break at 12
    assert loaded_index(emoji, 200, 12)[1] == 2 and loaded_index(emoji, 200, 13)[1] == 2


def test_many_blank_lines_load_in_linear_time():
    import time

    start = time.perf_counter()
    assert loaded_index("\n" * 300_000 + "x\n", 200, 25_000) == ("x", None)
    assert time.perf_counter() - start < 2


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="-\n \tab\r", max_size=40))
def test_frontmatter_end_is_claude_codes_pattern_in_linear_time(text):
    import re

    from curator.model.memory_md import frontmatter_end

    m = re.compile(r"---\s*\n([\s\S]*?)---\s*\n?").match(text)
    assert frontmatter_end(text) == (m.end() if m else None)


def test_an_opening_line_and_a_flood_of_blank_lines_load_in_linear_time():
    import time

    start = time.perf_counter()
    shown, first = loaded_index("---" + "\n" * 300_000 + "x\n", 200, 25_000)  # never closed: no frontmatter
    assert shown.startswith("---\n\n") and first == 201 and time.perf_counter() - start < 2


def test_the_first_unloaded_line_is_numbered_as_every_other_screen_numbers_lines():
    """Claude Code ends lines at `\\n` only; a lone `\\r` or U+2028 above the cut must not shift the
    line curator names (its findings and editors number lines with `splitlines`)."""
    head = "# Index\nnote with a lone \r carriage return\nand a \u2028 line separator\n"
    text = head + "".join(f"- row {i}\n" for i in range(300))
    _, first = loaded_index(text, 200, 25_000)
    assert first == 203 and text.splitlines()[first - 1] == "- row 197"  # 3 + rows 0–196 load
    plain = "# Index\n" + "".join(f"- row {i}\n" for i in range(300))
    assert loaded_index(plain, 200, 25_000)[1] == 201  # no such character: the two numberings agree
