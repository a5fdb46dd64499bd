"""What a session recorded of its context, read from its transcript: start-up files with their
imports, attachments, the skill listing, skills and subagents used, compactions — kept with the
scan (and its cache), never fatal on odd input."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.transcripts import SessionIndex
from curator.transcripts.evidence import session_evidence
from curator.transcripts.reader import Scanner, new_scan, scan
from curator.transcripts.records import COMPACT, NESTED, SKILL, STARTUP, SUBAGENT, digest

from .transcripts import base, write

SID = "22222222-aaaa-4bbb-8ccc-000000000002"
CWD = "/work/repo"


def _att(uuid, ts, att, **kw):
    return base("attachment", uuid, ts, sid=SID, version="2.1.287", attachment=att, **kw)


def _lines():
    t = lambda s: f"2026-11-10T10:00:{s:02d}.000Z"  # noqa: E731
    return [
        _att("i1", t(1), {"type": "instructions", "files": [
            {"path": f"{CWD}/CLAUDE.md", "type": "Project", "content": "# Rules\n@docs/a.md\n"},
            {"path": f"{CWD}/docs/a.md", "type": "Project", "content": "A", "parent": f"{CWD}/CLAUDE.md"},
            {"path": "/home/u/.claude/CLAUDE.md", "type": "User", "content": "mine"}]}),
        _att("l1", t(2), {"type": "skill_listing", "isInitial": True, "skillCount": 3, "names": ["deploy", "acme:lint", "bare"],
                          "content": "- deploy: Deploy it\n- acme:lint: Lint: strictly\n- bare"}),
        base("assistant", "a1", t(3), sid=SID, message={"id": "m1", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Skill", "input": {"skill": "deploy"}},
            {"type": "tool_use", "id": "t2", "name": "Task", "input": {"subagent_type": "reviewer"}}],
            "usage": {"input_tokens": 1}}),
        base("user", "r1", t(4), sid=SID, message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "Launching skill: deploy"}]}),
        base("assistant", "a2", t(5), sid=SID, message={"id": "m2", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t3", "name": "Skill", "input": {"skill": "nope"}}]}),
        base("user", "r2", t(6), sid=SID, message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t3", "content": "Unknown skill: nope", "is_error": True}]}),
        _att("n1", t(7), {"type": "nested_memory", "path": f"{CWD}/.claude/rules/api.md", "displayPath": "api.md",
                          "content": {"path": f"{CWD}/.claude/rules/api.md", "type": "Project", "content": "API",
                                      "globs": ["src/api/**"], "rawContent": "---\npaths: src/api/**\n---\nAPI",
                                      "contentDiffersFromDisk": True}}),
        base("assistant", "a3", t(8), sid=SID, attributionSkill="deploy", message={"id": "m3", "role": "assistant",
                                                                               "content": [{"type": "text", "text": "x"}]}),
        base("assistant", "a4", t(9), sid=SID, attributionSkill="deploy", message={"id": "m4", "role": "assistant",
                                                                               "content": [{"type": "text", "text": "y"}]}),
        base("system", "c1", t(10), sid=SID, subtype="compact_boundary", content="compacted"),
        _att("i2", t(11), {"type": "instructions", "reason": "compact", "files": [
            {"path": f"{CWD}/CLAUDE.md", "type": "Project", "content": "# Rules\n@docs/a.md\n"}]}),
        base("user", "r3", t(12), sid=SID, message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t9", "content": [{"type": "text", "text": "Launching skill: lint"}]}]}),
        _att("v1", t(13), {"type": "invoked_skills", "skills": [{"name": "deploy", "path": "/x", "content": "body"}]}),
    ]


def test_the_records_are_read_in_order_with_their_facts(tmp_path):
    s = scan(write(tmp_path / "s.jsonl", _lines()))
    kinds = [(x.kind, x.path.rsplit("/", 1)[-1], x.note) for x in s.loads]
    assert kinds == [
        (STARTUP, "CLAUDE.md", ""), (STARTUP, "a.md", ""), (STARTUP, "CLAUDE.md", ""),
        (SKILL, "deploy", ""), (SUBAGENT, "reviewer", ""), (SKILL, "nope", "error"),
        (NESTED, "api.md", "src/api/**"), ("attribution", "deploy", ""), (COMPACT, "", ""),
        (STARTUP, "CLAUDE.md", "compact"), (SKILL, "lint", "launched"), ("invoked", "deploy", "")]
    first = s.loads[0]
    assert (first.type, first.sha, first.chars, first.version, first.cwd) == (
        "Project", digest("# Rules\n@docs/a.md\n"), 19, "2.1.287", CWD)
    assert s.loads[1].parent == f"{CWD}/CLAUDE.md" and s.loads[2].type == "User"
    nested = s.loads[6]
    assert nested.differs and nested.raw_sha == digest("---\npaths: src/api/**\n---\nAPI")
    assert s.loads[3].calls == 1 and s.loads[8].calls == 4  # distinct message ids before each line
    (listing,) = s.listings
    assert listing.names == ["deploy", "acme:lint", "bare"] and listing.described == [9, 14, 0]


def test_a_session_folds_its_records(tmp_path):
    from curator.transcripts.index import Session

    s = scan(write(tmp_path / "s.jsonl", _lines()))
    ev = session_evidence(Session(SID, s))
    assert [x.path.rsplit("/", 1)[-1] for x in ev.startup] == ["CLAUDE.md", "a.md", "CLAUDE.md"]
    assert ev.recorded and ev.rerecords == 1 and ev.compactions == 1 and ev.version == "2.1.287"
    # deploy: its call and its launch are one use; the refused call is none; the invoked_skills after
    # the compaction re-attach deploy (no new use); lint was launched with no call in this transcript
    assert ev.skills == {"deploy": 1, "lint": 1} and ev.subagents == {"reviewer": 1}
    assert ev.attributed == {"deploy": 1}


def test_the_records_survive_the_cache_and_a_file_that_grows(tmp_path):
    path = write(tmp_path / "projects" / "-work-repo" / f"{SID}.jsonl", _lines()[:4])
    first = SessionIndex.for_repo(CWD, [tmp_path / "projects"]).build()
    assert len(first[0].main.loads) == 5
    again = SessionIndex.for_repo(CWD, [tmp_path / "projects"]).build()  # from the cache
    assert [(x.kind, x.path) for x in again[0].main.loads] == [(x.kind, x.path) for x in first[0].main.loads]
    assert again[0].main.listings[0].names == ["deploy", "acme:lint", "bare"]
    with open(path, "a", encoding="utf-8") as fh:  # the session goes on: only the new lines are read
        fh.writelines(json.dumps(o) + "\n" for o in _lines()[4:])
    grown = SessionIndex.for_repo(CWD, [tmp_path / "projects"]).build()
    assert [(x.kind, x.path, x.note, x.calls) for x in grown[0].main.loads] == \
        [(x.kind, x.path, x.note, x.calls) for x in scan(path).loads]


odd = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                   lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children,
                                                                                        max_size=3), max_leaves=12)
fields = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["instructions", "nested_memory", "skill_listing", "invoked_skills"]) | odd,
    "files": odd | st.lists(st.dictionaries(st.sampled_from(["path", "type", "content", "parent", "globs"]), odd)),
    "content": odd, "path": odd, "names": odd, "skills": odd, "isInitial": odd, "skillCount": odd, "reason": odd})


@settings(max_examples=150, deadline=None)
@given(att=fields, extra=odd)
def test_hostile_records_are_never_fatal(att, extra):
    sc = Scanner(new_scan(__import__("pathlib").Path("/nonexistent")))
    sc.feed({"type": "attachment", "uuid": "u", "timestamp": "t", "attachment": att, "version": extra})
    sc.feed({"type": "assistant", "message": {"id": "m", "content": [
        {"type": "tool_use", "id": extra if isinstance(extra, str) else "t", "name": "Skill", "input": extra}]},
        "attributionSkill": extra})
    sc.feed({"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "t", "content": extra}]}})
    sc.feed({"type": "system", "subtype": "compact_boundary", "uuid": extra})
    for load in sc.s.loads:
        assert isinstance(load.path, str) and isinstance(load.chars, int)
