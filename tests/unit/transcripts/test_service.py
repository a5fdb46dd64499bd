from curator.model import load_store
from curator.transcripts import slug
from curator.transcripts.service import SessionsService
from tests.unit.transcripts import transcripts as tx


def test_service_gives_usage_only_once_every_transcript_is_read(tmp_path, make_store):
    store_root = make_store({"git/git-rebase.md": "# Rebase\n", "ci/ci-cache.md": "# Cache\n"})
    repo = store_root  # no .serena/.claude marker: the store's folder is the repository
    root = tmp_path / "projects"
    objs = tx.well_formed(sid="s1", cwd=str(repo)) + [
        tx.assistant("r1", "2026-11-10T10:05:00.000Z", [tx.tool("Read", {"file_path": f"{store_root}/git/git-rebase.md"})],
                     "m9", sid="s1", cwd=str(repo))]
    tx.write(root / slug(repo) / "s1.jsonl", objs)
    svc = SessionsService(store_root, [root])
    store = load_store(store_root)
    assert [s.session_id for s in svc.quick()] == ["s1"] and not svc.indexed
    assert svc.usage_for(store) is None  # peeks are not evidence
    seen = []
    svc.build(lambda what, frac: seen.append(frac))
    assert svc.indexed and seen[-1] == 1.0 and svc.progress[1] == 1.0
    usage = svc.usage_for(store)
    assert usage.use("git/git-rebase.md").reads == 1 and usage.use("ci/ci-cache.md").reads == 0
    svc.quick()  # re-indexing (ctrl+r): not final again until built
    assert not svc.indexed and svc.usage_for(store) is None


def test_usage_of_maps_the_reads_onto_another_source_of_the_repository(tmp_path):
    repo = tmp_path / "repo"
    serena = repo / ".serena" / "memories"
    claude = repo / ".claude" / "memory"
    for folder, name in ((serena, "git_rebase.md"), (claude, "ci-cache.md")):
        folder.mkdir(parents=True)
        (folder / name).write_text("# A memory\n")
    root = tmp_path / "projects"
    objs = tx.well_formed(sid="s1", cwd=str(repo)) + [
        tx.assistant("r1", "2026-11-10T10:05:00.000Z", [tx.tool("Read", {"file_path": f"{claude}/ci-cache.md"})],
                     "m9", sid="s1", cwd=str(repo))]
    tx.write(root / slug(repo) / "s1.jsonl", objs)
    svc = SessionsService(serena, [root])
    current, other = load_store(serena), load_store(claude)
    assert not svc.has_transcripts and svc.usage_of(other) is None
    svc.quick()
    assert svc.has_transcripts and svc.usage_of(other) is None  # not indexed yet
    svc.build()
    usage = svc.usage_for(current)
    assert svc.usage_of(current) is usage and svc.usage_of(load_store(serena)) is usage  # a reload: same root
    mapped = svc.usage_of(other)
    assert mapped is not usage and mapped.use("ci-cache.md").reads == 1
    assert svc.usage_of(other) is mapped  # kept while `usage` is
    assert svc.usage.use("ci-cache.md").reads == 0  # `usage` itself is untouched
    svc.quick()  # re-indexing: the last mapping stays until the index is final again
    assert svc.usage_of(other) is mapped
