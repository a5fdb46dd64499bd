"""A live session grows line by line: reading only what was appended gives what a full read gives."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.transcripts.reader import resume, scan, scan_state
from tests.unit.transcripts import transcripts as tx


def _facts(s):
    return (s.session_id, s.title, s.title_source, s.first_prompt, s.started, s.ended, s.versions, s.user_messages,
            s.assistant_messages, s.tool_calls, s.tokens, s.stats.lines, s.stats.invalid, s.stats.blank,
            [(t.how, t.target, t.uuid) for t in s.touches])


def _lines():
    objs = tx.well_formed()
    objs.insert(4, tx.assistant("rx", "2026-11-10T10:00:07.000Z",
                                [tx.tool("mcp__serena__read_memory", {"memory_file_name": "x"})], "msg_1"))
    return [json.dumps(o).encode() + b"\n" for o in objs] + [b"\n", b"{broken\n"]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=len(_lines())))
def test_resume_at_any_line_equals_a_full_read(tmp_path_factory, cut):
    lines = _lines()
    p = tmp_path_factory.mktemp("r") / "s.jsonl"
    p.write_bytes(b"".join(lines[:cut]))
    prev, state = scan_state(p)
    with open(p, "ab") as fh:
        fh.write(b"".join(lines[cut:]))
    got = resume(p, prev, state)
    assert got is not None
    assert _facts(got[0]) == _facts(scan(p))
    assert got[0].size == p.stat().st_size


def test_a_rewritten_or_shorter_file_is_not_resumed(tmp_path):
    p = tx.write(tmp_path / "s.jsonl", tx.well_formed())
    prev, state = scan_state(p)
    p.write_bytes(p.read_bytes().replace(b"port fix", b"PORT FIX") + b"\n")  # the last line rewritten, then more
    assert resume(p, prev, state) is None
    p.write_bytes(b"{}\n")
    assert resume(p, prev, state) is None


def test_a_scan_that_ended_mid_line_is_not_resumed(tmp_path):
    p = tx.write(tmp_path / "s.jsonl", tx.well_formed(), tail=b'{"type": "us')
    prev, state = scan_state(p)
    assert prev.stats.truncated
    with open(p, "ab") as fh:
        fh.write(b'er"}\n')
    assert resume(p, prev, state) is None
