from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.transcripts import PathMapper, build_usage, scan, slug, usage_for_store
from tests.unit.transcripts import transcripts as tx

TODAY = date(2026, 11, 20)
RECORDS = ["memory-index.md", "git/git-rebase.md", "ci/ci-cache.md", "validation/2026-10-01-old-check.md",
           "knowledge/deploy.md", "reflexion/2026-09-01-port.md"]


def _reads_session(sid, day, store, cwd="/w/r", other_worktree="/w/r/worktrees/wt1"):
    t = lambda hms: f"{day}T{hms}.000Z"  # noqa: E731
    kw = {"sid": sid, "cwd": cwd}
    return [
        tx.prompt("u1", "read the memories", t("09:00:00"), **kw),
        tx.assistant("a1", t("09:00:01"), [tx.tool("mcp__serena__list_memories", {})], "m1", **kw),
        tx.assistant("a2", t("09:00:02"), [tx.tool("mcp__serena__read_memory", {"memory_file_name": "git/git-rebase"}),
                                           tx.tool("mcp__serena__read_memory", {"memory_name": "ci/ci-cache.md"})], "m2", **kw),
        tx.assistant("a3", t("09:00:03"), [tx.tool("read_memory", {"memory_file_name": "no-such-memory"})], "m3", **kw),
        tx.assistant("a4", t("09:00:04"), [tx.tool("Read", {"file_path": f"{store}/knowledge/deploy.md"})], "m4", **kw),
        tx.assistant("a5", t("09:00:05"), [tx.tool("Read", {"file_path": f"{other_worktree}/.serena/memories/git/git-rebase.md"})], "m5", **kw),
        tx.assistant("a6", t("09:00:06"), [tx.tool("Read", {"file_path": "/w/r/src/app.py"})], "m6", **kw),
        tx.nested_memory("n1", t("09:00:07"), f"{store}/memory-index.md", **kw),
        tx.assistant("a7", t("09:00:08"), [tx.tool("Grep", {"pattern": "rebase", "path": f"{store}"})], "m7", **kw),
    ]


def test_usage_counts_are_exact(tmp_path):
    store = "/w/r/.serena/memories"
    recent = scan(tx.write(tmp_path / "s1.jsonl", _reads_session("s1", "2026-11-15", store)))
    older = scan(tx.write(tmp_path / "s2.jsonl", _reads_session("s2", "2026-09-01", store)))
    ancient = scan(tx.write(tmp_path / "s3.jsonl", [
        tx.assistant("a1", "2026-01-02T00:00:00Z", [tx.tool("mcp__serena__read_memory", {"memory_file_name": "ci-cache"})],
                     "m1", sid="s3", cwd="/w/r")]))
    mapper = PathMapper(store, RECORDS, repo="/w/r")
    u = build_usage([recent, older, ancient], mapper, TODAY)
    assert u.session_count == 3 and u.listings == {"s1": 1, "s2": 1}
    rebase = u.use("git/git-rebase.md")
    assert (rebase.reads, len(rebase.sessions), rebase.reads_30, rebase.reads_90) == (4, 2, 2, 4)
    assert rebase.hows == {"serena-read": 2, "read": 2}
    assert rebase.last == "2026-11-15T09:00:05.000Z" and rebase.last_day == "2026-11-15"
    cache = u.use("ci/ci-cache.md")  # the bare stem `ci-cache` resolves (unique)
    assert (cache.reads, cache.reads_30, cache.reads_90) == (3, 1, 2)
    assert u.use("knowledge/deploy.md").reads == 2
    assert u.use("memory-index.md").hows == {"context": 2}
    assert u.use("validation/2026-10-01-old-check.md").reads == 0
    assert len(u.reads) == 4 + 3 + 2 + 2
    assert u.read_counts(30) == {"git/git-rebase.md": 2, "ci/ci-cache.md": 1, "knowledge/deploy.md": 1, "memory-index.md": 1}


def test_ambiguous_stem_and_paths_outside_are_not_guessed():
    m = PathMapper("/w/r/.serena/memories", ["a/x.md", "b/x.md", "y.md"], repo="/w/r")
    assert m.name("x") is None and m.name("y") == "y.md" and m.name("./y.md") == "y.md"
    assert m.path("/w/r/.serena/memories/../secret.md") is None
    assert m.path("/elsewhere/y.md") is None


def test_usage_for_store_discovers_by_repository(tmp_path):
    repo = tmp_path / "repo"
    store = repo / ".serena" / "memories"
    (store / "git").mkdir(parents=True)
    root = tmp_path / "projects"
    tx.write(root / slug(repo) / "s1.jsonl", _reads_session("s1", "2026-11-15", store, cwd=str(repo)))
    tx.write(root / slug(repo) / "s1" / "subagents" / "agent-a.jsonl", [
        tx.assistant("b1", "2026-11-16T00:00:00Z", [tx.tool("mcp__serena__read_memory", {"memory_file_name": "git/git-rebase"})],
                     "mb", sid="s1", cwd=str(repo))])
    u, index = usage_for_store(store, RECORDS, TODAY, roots=[root])
    assert index.discovery.repo == repo and u.session_count == 1
    assert u.use("git/git-rebase.md").reads == 2 + 1  # the subagent's read counts
    assert u.use("git/git-rebase.md").last_day == "2026-11-16"


def test_prior_frequency_uses_reads_when_given_and_says_so():
    from curator.retrieval.prior import frequency_for

    freq, source = frequency_for(["a.md", "b.md", "c.md"], [1, 1, 9], {"a.md": 7, "c.md": 0})
    assert source == "reads" and freq[0] == 1.0 and freq[1] == 0.0 == freq[2]
    freq, source = frequency_for(["a.md", "b.md"], [3, 1], {"zzz.md": 4})
    assert source == "cluster" and freq[0] == 1.0 and 0 < freq[1] < 1
    assert frequency_for(["a.md"], [2], None)[1] == "cluster"


def test_engine_prior_ranks_the_read_memory_first(sample_copy):
    from curator.model import load_store
    from curator.retrieval import RetrievalEngine
    from curator.retrieval.text import query_terms

    store = load_store(sample_copy)
    q = query_terms("git rebase")
    plain = RetrievalEngine(store)
    assert plain.frequency_source == "cluster"
    hits = [p for p, _, _ in plain.rank_prior(q, 10)]
    assert len(hits) >= 2
    favourite = hits[-1]
    read = RetrievalEngine(store, reads={favourite: 12})
    assert read.frequency_source == "reads"
    assert [p for p, _, _ in read.rank_prior(q, 10)].index(favourite) < hits.index(favourite)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60), st.sampled_from(["serena-read", "read", "context", "serena-list"]))
def test_mapper_only_ever_names_records_of_the_store(target, how):
    from curator.transcripts import Touch

    m = PathMapper("/w/r/.serena/memories", RECORDS, repo="/w/r")
    for t in (target, f"/w/r/.serena/memories/{target}", f"/x/.serena/memories/{target}"):
        got = m.map(Touch(how, t, "", "", "s"))
        assert got is None or got in RECORDS


def test_claude_codes_own_memory_index_is_read_by_every_session(tmp_path):
    folder = tmp_path / "projects" / "-w-r"
    store = folder / "memory"
    store.mkdir(parents=True)
    s1 = scan(tx.write(folder / "s1.jsonl", tx.well_formed(sid="s1", cwd="/w/r", day="2026-11-15")))
    sub = scan(tx.write(folder / "s1" / "subagents" / "agent-a.jsonl",
                        [{**o, "isSidechain": True} for o in tx.well_formed(sid="s1", cwd="/w/r", day="2026-11-15")]))
    old = scan(tx.write(folder / "s2.jsonl", tx.well_formed(sid="s2", cwd="/w/r", day="2026-06-01")))
    u = build_usage([s1, sub, old], PathMapper(store, ["MEMORY.md", "topic.md"]), TODAY)
    m = u.use("MEMORY.md")
    assert (m.reads, m.reads_30, m.reads_90, m.hows) == (2, 1, 1, {"startup": 2})  # not the subagent's
    assert u.use("topic.md").reads == 0
    # a committed .claude/memory is not loaded by itself: no startup reads
    assert build_usage([s1], PathMapper(tmp_path / "r" / ".claude" / "memory", ["MEMORY.md"]), TODAY).reads == []


@given(st.lists(st.text(alphabet="ab._-", min_size=1, max_size=6).filter(lambda s: s not in (".", "..")),
                min_size=1, max_size=3))
def test_stem_is_pathlibs(parts):
    from pathlib import PurePosixPath

    from curator.transcripts.usage import _stem

    path = "/".join(parts)
    assert _stem(path) == PurePosixPath(path).stem
