import json
from pathlib import Path

from curator.base.paths import transcript_repository
from curator.transcripts import SessionIndex, claude_roots, discover, slug
from tests.unit.transcripts import transcripts as tx


def test_roots_from_env_comma_separated_and_defaults(tmp_path):
    env = {"CLAUDE_CONFIG_DIR": f"{tmp_path}/a, {tmp_path}/b,,"}
    assert claude_roots(env) == [tmp_path / "a" / "projects", tmp_path / "b" / "projects"]
    assert claude_roots({}, home=tmp_path) == [tmp_path / ".claude" / "projects",
                                               tmp_path / ".config" / "claude" / "projects"]


def test_repo_for_a_store_is_the_folder_holding_serena_or_claude(tmp_path):
    (tmp_path / "r" / ".serena" / "memories").mkdir(parents=True)
    (tmp_path / "c" / ".claude" / "memory").mkdir(parents=True)
    assert transcript_repository(tmp_path / "r" / ".serena" / "memories") == tmp_path / "r"
    assert transcript_repository(tmp_path / "c" / ".claude" / "memory") == tmp_path / "c"
    assert transcript_repository(tmp_path / "r") == tmp_path / "r"
    (tmp_path / "r" / "src").mkdir()
    assert transcript_repository(tmp_path / "r" / "src") == tmp_path / "r"


def _session(root: Path, cwd: str, sid: str, name: str | None = None) -> Path:
    return tx.write(root / slug(cwd) / f"{name or sid}.jsonl", tx.well_formed(sid=sid, cwd=cwd))


def test_sessions_match_by_cwd_not_by_the_lossy_slug(tmp_path):
    a, b = tmp_path / "a" / "projects", tmp_path / "b" / "projects"
    _session(a, "/w/my-repo", "s-mine")
    _session(a, "/w/my-repo/sub/dir", "s-sub")              # a folder inside the repository
    _session(b, "/w/my/repo", "s-other")                    # same slug (-w-my-repo), another folder
    _session(b, "/w/my-repo-2", "s-sibling")               # slug starts alike, not inside
    tx.write(a / slug("/w/my-repo") / "s-mine" / "subagents" / "agent-1.jsonl",
             tx.well_formed(sid="s-mine", cwd="/w/my-repo"))
    d = discover("/w/my-repo", [a, b])
    got = {(f.session_id, f.subagent) for f in d.files}
    assert got == {("s-mine", False), ("s-mine", True), ("s-sub", False)}
    assert d.skipped == 2
    assert {f.session_id for f in discover("/w/my/repo", [a, b]).files} == {"s-other"}
    assert len(discover(None, [a, b], match_all=True).files) == 5


def test_missing_roots_and_unreadable_folders_are_empty(tmp_path):
    assert discover("/nowhere", [tmp_path / "none"]).files == []


def test_index_groups_subagents_and_sorts_newest_first(tmp_path):
    root = tmp_path / "projects"
    tx.write(root / slug("/w/r") / "s1.jsonl", tx.well_formed(sid="s1", cwd="/w/r", day="2026-11-01"))
    tx.write(root / slug("/w/r") / "s2.jsonl", tx.well_formed(sid="s2", cwd="/w/r", day="2026-11-05"))
    tx.write(root / slug("/w/r") / "s1" / "subagents" / "agent-x.jsonl",
             tx.well_formed(sid="s1", cwd="/w/r", day="2026-11-01"))
    index = SessionIndex.for_repo("/w/r", [root])
    sessions = index.build()
    assert [s.session_id for s in sessions] == ["s2", "s1"]
    s1 = index.find("s1")
    assert len(s1.subagents) == 1 and s1.messages == 10 and s1.tokens == 2 * 147
    data = s1.to_json()
    assert data["tokens"]["total"] == 294 and data["user_messages"] == 4 and data["complete"]
    assert index.find("s") is None  # ambiguous prefix


def test_quick_list_then_cached_full_scan(tmp_path, monkeypatch):
    root = tmp_path / "projects"
    tx.write(root / slug("/w/r") / "s1.jsonl", tx.well_formed(sid="s1", cwd="/w/r")
             + [tx.prompt(f"x{i}", "y" * 1000, "2026-11-10T12:00:00.000Z", sid="s1", cwd="/w/r") for i in range(100)])
    quick = SessionIndex.for_repo("/w/r", [root]).quick()
    assert not quick[0].complete and quick[0].title == "Server port fix"
    assert 2 < quick[0].main.user_messages < 102  # only the head was read
    full = SessionIndex.for_repo("/w/r", [root]).build()
    assert full[0].complete and full[0].main.user_messages == 102
    calls = []
    import curator.transcripts.index as ix

    for name in ("scan", "scan_state", "resume"):
        monkeypatch.setattr(ix, name, lambda *a, **k: calls.append(a))
    again = SessionIndex.for_repo("/w/r", [root])
    assert again.quick()[0].complete and again.build()[0].main.user_messages == 102
    assert calls == []  # both served from the cache


def test_a_grown_transcript_is_read_again(tmp_path, monkeypatch):
    root = tmp_path / "projects"
    p = tx.write(root / slug("/w/r") / "s1.jsonl", tx.well_formed(sid="s1", cwd="/w/r"))
    assert SessionIndex.for_repo("/w/r", [root]).build()[0].main.user_messages == 2
    with open(p, "a") as fh:  # the session goes on
        fh.write(json.dumps(tx.prompt("u3", "and now the tests", "2026-11-10T11:00:00.000Z", sid="s1", cwd="/w/r")) + "\n")
    import curator.transcripts.index as ix

    full = []
    monkeypatch.setattr(ix, "scan_state", lambda *a, **k: full.append(a))
    again = SessionIndex.for_repo("/w/r", [root]).build()[0]
    assert again.main.user_messages == 3 and again.ended == "2026-11-10T11:00:00.000Z"
    assert full == []  # only the appended line was read


def test_a_store_kept_by_claude_code_uses_its_own_project_folder(tmp_path):
    root = tmp_path / "projects"
    folder = root / "-some-lossy-slug"
    (folder / "memory").mkdir(parents=True)
    tx.write(folder / "s1.jsonl", tx.well_formed(sid="s1", cwd="/where/it/ran"))
    tx.write(root / "-elsewhere" / "s2.jsonl", tx.well_formed(sid="s2", cwd="/elsewhere"))
    d = discover(folder / "memory", [root])
    assert [f.session_id for f in d.files] == ["s1"]


def test_no_sessions_says_where_it_looked_and_how_to_point_elsewhere(tmp_path):
    from curator.transcripts.discover import explain_none

    repo = tmp_path / "repo"
    repo.mkdir()
    gone = tmp_path / "nowhere" / "projects"
    lines = explain_none(discover(repo, [gone]))
    assert lines[0] == f"No Claude Code sessions ran in {repo}."
    assert f"Looked in {gone}: it does not exist." in lines
    assert "CLAUDE_CONFIG_DIR" in lines[-1] and not any("other folders" in line for line in lines)
    # a projects folder with another repository's transcript: searched, and the stranger counted
    projects = tmp_path / "claude" / "projects"
    tx.write(projects / slug(repo) / "a.jsonl", tx.well_formed(sid="a", cwd=str(tmp_path / "elsewhere")))
    found = discover(repo, [projects])
    assert found.files == [] and found.skipped == 1
    lines = explain_none(found)
    assert f"Looked in {projects}/{slug(repo)}*/: no transcript (*.jsonl) ran in it." in lines
    assert "1 transcript(s) there ran in other folders (`curator sessions --all` lists them)." in lines
