"""Lines outside fenced code: text with no fence marker skips the fence scan, same answer."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from curator.model import markdown as md


@given(st.lists(st.sampled_from(["```", "~~~", "````", "  ```py", "# H", "## H2", "text", "", "    ~~~", "`` `", "~~"])))
def test_lines_outside_fences_are_the_same_on_the_fast_path(lines):
    assert list(md.iter_unfenced(lines, 3)) == list(md._unfenced(lines, 3))


def test_headings_inside_a_fence_are_not_headings_and_without_one_all_are():
    assert [h.line for h in md.headings(["# A", "```", "# not", "```", "## B"])] == [1, 5]
    assert [h.line for h in md.headings(["# A", "# not in a fence", "## B"])] == [1, 2, 3]
