"""Mining a passage through the journaled write path, prune --unused-for, and the CLI faces."""

import json
import os
import shutil

import pytest
import yaml

from curator.cli import main
from curator.curation import CurationError, apply_plan, undo
from curator.curation.mine import Passage, passage_of, plan_mine
from curator.curation.prune import unused_candidates
from curator.model import load_store
from curator.transcripts import SessionIndex, slug
from tests.conftest import SAMPLE
from tests.unit.transcripts import transcripts as tx

SID = "22222222-bbbb-4ccc-8ddd-000000000002"


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A repository holding the sample store as .serena/memories, and one session run in it that
    reads two memories (one transient), in the Claude config folder the tests use."""
    repo = tmp_path / "repo"
    store = repo / ".serena" / "memories"
    shutil.copytree(SAMPLE, store)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    projects = tmp_path / "claude" / "projects"
    objs = tx.well_formed(sid=SID, cwd=str(repo), day="2026-11-10") + [
        tx.assistant("r1", "2026-11-10T10:03:00.000Z",
                     [tx.tool("mcp__serena__read_memory", {"memory_file_name": "validation/2026-11-14-lint-rollout"})],
                     "msg_r1", sid=SID, cwd=str(repo)),
        tx.assistant("r2", "2026-11-10T10:03:01.000Z",
                     [tx.tool("Read", {"file_path": f"{store}/git/git-interactive-rebase.md"})], "msg_r2", sid=SID, cwd=str(repo)),
    ]
    tx.write(projects / slug(repo) / f"{SID}.jsonl", objs)
    return repo


def _store(repo):
    return load_store(repo / ".serena" / "memories")


def _session(repo):
    index = SessionIndex.for_repo(repo)
    index.build()
    return index.find(SID[:8])


def test_mine_a_correction_into_reflexion_round_trips_through_undo(repo):
    store = _store(repo)
    before = {p: (store.root / p).read_bytes() for p in store.records}
    passage = passage_of(_session(repo), "u2")
    assert passage.turns == [("user", "no, use port 4001 from .env instead of killing things")]
    plan = plan_mine(store, passage, "reflexion")
    [edit] = plan.edits
    assert edit.path == "reflexion/2026-11-10-use-port-4001-from-env-instead.md"
    jid = apply_plan(store.root, plan)
    text = (store.root / edit.path).read_text()
    front = yaml.safe_load(text.split("---")[1])
    assert front["session_id"] == SID and front["uuid"] == "u2" and str(front["date"]) == "2026-11-10"
    assert front["task"] == "Server port fix" and front["severity"] == "medium"
    again = _store(repo)
    rec = again.records[edit.path]
    assert rec.tier == "reflexion" and rec.date == "2026-11-10"
    with pytest.raises(CurationError, match="already mined"):
        plan_mine(again, passage, "reflexion")
    assert undo(store.root).id == jid
    assert not (store.root / edit.path).exists()
    assert {p: (store.root / p).read_bytes() for p in store.records} == before


def test_mine_an_error_and_its_fix_as_transient(repo):
    store = _store(repo)
    passage = passage_of(_session(repo), "r1", "a3")
    assert [r for r, _ in passage.turns] == ["tool", "assistant"]
    assert passage.uuid_to == "a3" and "port 4000 in use" in passage.turns[0][1]
    plan = plan_mine(store, passage, "transient", title="Port taken")
    [edit] = plan.edits
    assert edit.path.startswith(("validation/", "reflection/")) and edit.path.endswith("-port-taken.md")
    text = edit.after.decode()
    assert "uuid_to: a3" in text and "> Error: port 4000 in use" in text
    apply_plan(store.root, plan)
    assert _store(repo).records[edit.path].tier == "transient"


def test_mine_refuses_bad_input(repo):
    store = _store(repo)
    session = _session(repo)
    with pytest.raises(CurationError, match="no message"):
        passage_of(session, "nope")
    with pytest.raises(CurationError, match="no passage"):
        passage_of(session, "a3", "u1")  # the end comes before the start
    empty = Passage(SID, "x", "2026-11-10T00:00:00Z", [("user", "  ")])
    with pytest.raises(CurationError, match="no text"):
        plan_mine(store, empty)
    p = passage_of(session, "u2")
    with pytest.raises(CurationError, match="semantic tier"):
        plan_mine(store, p, "reflexion", dest="knowledge/mined.md")
    with pytest.raises(CurationError, match="leaves the store"):
        plan_mine(store, p, "reflexion", dest="../../x.md")
    with pytest.raises(CurationError, match="reflexion or transient"):
        plan_mine(store, p, "semantic")


def test_unused_candidates_never_semantic_without_the_flag(repo):
    store = _store(repo)
    last = {"reflection/2026-09-22-session-review.md": "2026-11-10T10:03:00Z"}
    # 30 days before 2026-11-20: transient records dated by 2026-10-21, not read since
    assert unused_candidates(store, last, 30) == ["reflection/2026-10-15-review-bot-noise.md",
                                                  "validation/2026-09-30-ci-cache-key.md",
                                                  "validation/2026-10-08-pool-size.md"]
    assert unused_candidates(store, {}, 90) == []  # nothing here is 90 days old yet
    assert "reflection/2026-09-22-session-review.md" in unused_candidates(store, last, 5)  # read 10 days ago
    assert "validation/2026-11-18-c0ffee.md" not in unused_candidates(store, {}, 5)  # 2 days old
    with pytest.raises(CurationError, match="include-semantic"):
        unused_candidates(store, last, 90, tier="semantic")
    undated = store.records["git/git-interactive-rebase.md"]
    os.utime(undated.abspath, (0, 0))  # undated: its file time says how old it is
    sem = unused_candidates(store, {}, 90, "semantic", True)
    assert "git/git-interactive-rebase.md" in sem
    assert "git/git-interactive-rebase.md" not in unused_candidates(
        store, {"git/git-interactive-rebase.md": "2026-11-10T00:00:00Z"}, 90, "semantic", True)
    assert "git/git-lfs-fixtures.md" not in sem  # its file is new (the copy): not old enough to call unused


def test_cli_sessions_json_and_text(repo, capsys):
    assert main(["sessions", str(repo), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    [s] = data["sessions"]
    assert s["session_id"] == SID and s["title"] == "Server port fix" and s["tokens"]["total"] == 147 + 2 * 135
    assert s["user_messages"] == 2 and s["branch"] == "main" and s["duration_s"] == 181
    assert main(["sessions", str(repo / ".serena" / "memories")]) == 0  # a store inside the repo finds it too
    out = capsys.readouterr().out
    assert "Server port fix" in out and "1 session(s)" in out
    assert main(["sessions", str(repo), "--search", "port 4001", "--format", "json"]) == 0
    hits = json.loads(capsys.readouterr().out)["hits"]
    assert [(h["uuid"], h["role"]) for h in hits] == [("u2", "user"), ("a4", "assistant")]
    assert main(["sessions", str(repo), "--show", SID[:8]]) == 0
    assert "▸ Bash make run" in capsys.readouterr().out
    assert main(["sessions", str(repo / "nope")]) == 2
    assert main(["sessions", str(repo), "--show", "zzz"]) == 2


def test_cli_usage_and_prune_unused(repo, capsys):
    store = repo / ".serena" / "memories"
    assert main(["usage", str(store), "--format", "json", "--unused-for", "30d"]) == 0
    data = json.loads(capsys.readouterr().out)
    uses = {m["path"]: m for m in data["memories"]}
    assert data["sessions"] == 1 and data["reads"] == 2
    assert uses["git/git-interactive-rebase.md"]["reads"] == 1 and uses["git/git-interactive-rebase.md"]["reads_30d"] == 1
    assert uses["validation/2026-11-14-lint-rollout.md"]["last_read"] == "2026-11-10T10:03:00.000Z"
    assert "git/git-interactive-rebase.md" not in data["unused"] and "validation/2026-09-30-ci-cache-key.md" in data["unused"]
    assert main(["prune", str(store), "--unused-for", "30d", "--format", "json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    moved = {e["path"] for e in plan["files"] if e["action"] == "delete"}
    assert moved == {"reflection/2026-09-22-session-review.md", "reflection/2026-10-15-review-bot-noise.md",
                     "validation/2026-09-30-ci-cache-key.md", "validation/2026-10-08-pool-size.md"}
    assert main(["undo", str(store)]) == 0
    assert main(["prune", str(store), "--unused-for", "90d", "--tier", "semantic"]) == 2
    assert "include-semantic" in capsys.readouterr().err


def test_cli_prune_unused_without_transcripts_refuses(sample_copy, capsys):
    assert main(["prune", str(sample_copy), "--unused-for", "90d"]) == 2
    assert "no Claude Code sessions" in capsys.readouterr().err


def test_cli_mine_then_undo(repo, capsys):
    store = repo / ".serena" / "memories"
    assert main(["mine", SID[:8], "u2", "--as", "reflexion", "--store", str(store), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["applied"] and data["files"][0]["path"].startswith("reflexion/2026-11-10-")
    assert (store / data["files"][0]["path"]).is_file()
    assert main(["undo", str(store)]) == 0
    assert not (store / data["files"][0]["path"]).exists()
    assert main(["mine", "nosuch", "u2", "--store", str(store)]) == 2
    assert main(["mine", SID, "missing-uuid", "--store", str(store)]) == 2


def test_mine_by_uuid_prefix_keeps_the_full_uuid(tmp_path):
    from curator.transcripts import find_turn

    full = "7d48cbd2-6615-4dd8-87f6-38f12b8167d6"
    p = tx.write(tmp_path / "s.jsonl", [tx.prompt(full, "stop deleting the lockfile", "2026-11-10T10:00:00Z")])
    assert find_turn([p], "7d48cbd2").uuid == full
    assert find_turn([p], "7d48") is None  # too short to name a message


def test_cli_usage_without_transcripts_calls_nothing_unused(sample_copy, capsys):
    assert main(["usage", str(sample_copy), "--format", "json", "--unused-for", "30d"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sessions"] == 0 and data["unused"] is None
    assert all(m["reads"] == 0 for m in data["memories"])
    assert main(["usage", str(sample_copy)]) == 0
    # the message names the store's path, which may wrap (a long tmp path under xdist)
    assert "no evidence of use" in " ".join(capsys.readouterr().out.split())


def test_cli_projects_folder_given_explicitly(tmp_path, capsys):
    repo = tmp_path / "r"
    repo.mkdir()
    projects = tmp_path / "elsewhere" / "projects"
    tx.write(projects / slug(repo) / "s9.jsonl", tx.well_formed(sid="s9", cwd=str(repo)))
    assert main(["sessions", str(repo), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["sessions"] == []  # not in the default roots
    assert main(["sessions", str(repo), "--projects", str(projects), "--format", "json"]) == 0
    assert [s["session_id"] for s in json.loads(capsys.readouterr().out)["sessions"]] == ["s9"]
    assert main(["sessions", str(repo), "--projects", str(tmp_path / "missing")]) == 2
    assert "projects folder not found" in capsys.readouterr().err


def test_cli_retrieve_says_its_prior_used_real_reads(repo, capsys):
    store = repo / ".serena" / "memories"
    assert main(["retrieve", "interactive rebase", str(store), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["prior_frequency"] == {"source": "reads", "evidence": {"sessions": 1, "reads": 2}}
    assert main(["retrieve", "interactive rebase", str(store)]) == 0
    assert "prior frequency: real reads (2 in 1 session(s) of this repository)" in capsys.readouterr().out


def test_cli_retrieve_over_a_repository_uses_real_reads_too(sample_repo_copy, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    store = sample_repo_copy / ".serena" / "memories"
    tx.write(tmp_path / "claude" / "projects" / slug(sample_repo_copy) / f"{SID}.jsonl", [
        tx.assistant("r1", "2026-11-10T10:03:00.000Z", [tx.tool("Read", {"file_path": f"{store}/git/git-interactive-rebase.md"})],
                     "m1", sid=SID, cwd=str(sample_repo_copy))])
    assert main(["retrieve", "interactive rebase", str(sample_repo_copy), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["sources"]) > 1  # the repository path: every memory system ranked, then fused
    assert data["prior_frequency"] == {"source": "reads", "evidence": {"sessions": 1, "reads": 1}}


def test_cli_sessions_without_transcripts_says_where_it_looked(sample_copy, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "copied-claude"))
    assert main(["sessions", str(sample_copy)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "No Claude Code sessions ran in" in out
    assert f"Looked in {tmp_path / 'copied-claude' / 'projects'}: it does not exist." in out
    assert "CLAUDE_CONFIG_DIR" in out
