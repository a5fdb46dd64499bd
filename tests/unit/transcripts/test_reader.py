import json

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.transcripts import conversation, scan
from curator.transcripts.reader import iter_objects
from tests.unit.transcripts import transcripts as tx


def test_well_formed_session_facts(tmp_path):
    p = tx.write(tmp_path / f"{tx.SID}.jsonl", tx.well_formed())
    s = scan(p)
    assert s.complete and s.session_id == tx.SID and s.cwd == tx.CWD and s.branch == "main"
    assert (s.title, s.title_source) == ("Server port fix", "summary")
    assert s.first_prompt == "the server does not start"
    assert (s.user_messages, s.assistant_messages, s.tool_calls) == (2, 3, 1)
    # msg_1's usage is written on two lines: counted once
    assert (s.input_tokens, s.output_tokens, s.cache_read_tokens, s.cache_creation_tokens) == (18, 9, 100, 20)
    assert s.tokens == 147
    assert s.started == "2026-11-10T10:00:00.000Z" and s.ended == "2026-11-10T10:02:31.000Z"
    assert s.duration_s == 151
    assert s.stats.problems == 0 and not s.stats.truncated and s.stats.lines == 11


def test_custom_title_wins_over_summary_whatever_the_order(tmp_path):
    objs = tx.well_formed() + [{"type": "custom-title", "customTitle": "My title", "sessionId": tx.SID}]
    assert scan(tx.write(tmp_path / "a.jsonl", objs)).title == "My title"
    objs = [{"type": "custom-title", "customTitle": "My title"}] + tx.well_formed()
    assert scan(tx.write(tmp_path / "b.jsonl", objs)).title == "My title"


def test_untitled_session_is_titled_by_its_first_prompt(tmp_path):
    objs = [o for o in tx.well_formed() if o.get("type") != "summary"]
    s = scan(tx.write(tmp_path / "a.jsonl", objs))
    assert (s.title, s.title_source) == ("the server does not start", "prompt")


def test_truncated_last_line_is_counted_not_fatal(tmp_path):
    full = json.dumps(tx.prompt("u9", "cut here", "2026-11-10T11:00:00.000Z")).encode()
    p = tx.write(tmp_path / "t.jsonl", tx.well_formed(), tail=full[: len(full) // 2])
    s = scan(p)
    assert s.stats.truncated and s.stats.invalid == 1
    assert s.user_messages == 2 and s.ended == "2026-11-10T10:02:31.000Z"


def test_mixed_versions_and_older_shapes(tmp_path):
    old = {"type": "user", "sessionId": tx.SID, "uuid": "o1", "timestamp": "2025-06-01T09:00:00Z",
           "cwd": tx.CWD, "version": "1.0.43", "message": {"role": "user", "content": "old style prompt"}}
    old_answer = {"type": "assistant", "sessionId": tx.SID, "uuid": "o2", "timestamp": "2025-06-01T09:00:03Z",
                  "version": "1.0.43", "costUSD": 0.01,
                  "message": {"role": "assistant", "content": [tx.text("old answer")],
                              "usage": {"input_tokens": 4, "output_tokens": 2}}}
    s = scan(tx.write(tmp_path / "m.jsonl", [old, old_answer, *tx.well_formed()]))
    assert s.versions == ["1.0.43", "2.1.38"]
    assert s.user_messages == 3 and s.assistant_messages == 4  # old answer has no id: its uuid keys it
    assert s.started == "2025-06-01T09:00:00Z"
    assert s.first_prompt == "old style prompt"


def test_broken_lines_are_counted(tmp_path):
    lines = [
        b"\n", b"   \n", b"{not json\n", b"[1, 2]\n", b"null\n", b'"text"\n', b"\xff\xfe\x00garbage\n",
        json.dumps({"type": "weird-new-type", "x": 1}).encode() + b"\n",
        json.dumps({"type": 7}).encode() + b"\n",
        json.dumps({"no": "type"}).encode() + b"\n",
        json.dumps({"type": "assistant", "message": "not a dict"}).encode() + b"\n",
        json.dumps({"type": "assistant", "message": {"id": "x", "content": "str", "usage": {"input_tokens": "9"}}}).encode() + b"\n",
        json.dumps({"type": "user", "message": {"content": [None, 3, {"type": "tool_result"}]}}).encode() + b"\n",
        json.dumps({"type": "attachment", "attachment": {"type": "relevant_memories", "memories": [None, {"path": 3}]}}).encode() + b"\n",
        b"[" * 100000 + b"\n",
    ]
    p = tx.write(tmp_path / "broken.jsonl", [*lines, *tx.well_formed()])
    s = scan(p)
    assert s.stats.blank == 2
    assert s.stats.invalid == 3  # {not json, the garbage bytes, the deep nesting
    assert s.stats.not_object == 3
    assert s.stats.unknown == {"weird-new-type": 1, "(none)": 2}
    assert s.user_messages == 2 and s.input_tokens == 18  # the good session inside is still read
    assert conversation(p)  # the conversation view survives it too


def test_empty_and_missing_files(tmp_path):
    p = tmp_path / "empty.jsonl"
    p.write_bytes(b"")
    s = scan(p)
    assert s.messages == 0 and s.session_id == "empty" and s.title == ""
    missing = scan(tmp_path / "gone.jsonl")
    assert missing.messages == 0 and missing.stats.unknown  # said, not raised


def test_peek_reads_only_the_head(tmp_path):
    objs = tx.well_formed() + [tx.prompt(f"x{i}", "x" * 500, "2026-11-10T12:00:00.000Z") for i in range(200)]
    p = tx.write(tmp_path / "big.jsonl", objs)
    s = scan(p, limit_bytes=2048)
    assert not s.complete and s.user_messages < 10 and s.first_prompt == "the server does not start"
    assert scan(p).complete


def test_conversation_folds_tool_calls_and_results(tmp_path):
    p = tx.write(tmp_path / "c.jsonl", tx.well_formed())
    turns = conversation(p)
    roles = [(t.role, t.uuid) for t in turns]
    assert roles == [("user", "u1"), ("assistant", "a2"), ("tool", "r1"), ("assistant", "a3"), ("user", "u2"),
                     ("assistant", "a4"), ("system", "s1")]
    assert turns[1].calls[0].name == "Bash" and turns[1].calls[0].summary == "make run"
    assert turns[2].results[0].is_error and "port 4000" in turns[2].results[0].text
    assert "\x1b" not in turns[-1].text  # terminal colours are stripped


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=40), st.sampled_from([
    b'{"type": "user"}', b'{"type": "assistant", "message": {"content": [{"type": "tool_use"}]}}',
    b'{"type": "attachment", "attachment": {"type": "nested_memory", "path": null}}', b"{}", b"[]",
])), max_size=30))
def test_any_bytes_never_raise(tmp_path_factory, chunks):
    p = tmp_path_factory.mktemp("h") / "x.jsonl"
    data = b"\n".join(chunks)
    p.write_bytes(data)
    s = scan(p)
    n = sum(1 for _ in iter_objects(p))
    assert s.stats.lines == data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    assert n + s.stats.blank + s.stats.invalid + s.stats.not_object == s.stats.lines
    conversation(p)
