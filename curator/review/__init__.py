"""Review before commit: the memory in the work tree against a git revision, per source.

`review_repository(path, base)` finds the repository holding `path`, the memory sources it
holds (now or at `base`), loads each on both sides and compares them (`diff.review_store`)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .diff import QueryChange, RecordChange, RowChange, StoreReview, review_store
from .git import GitError
from .sources import Source, find_sources, load_source, source_config


@dataclass
class Review:
    repo: Path
    base: str
    commit: str
    stores: list[StoreReview] = field(default_factory=list)
    estimated: bool = False
    agents: list = field(default_factory=list)  # agent_startup.AgentChange: each agent's start-up change
    instructions: bool = False  # the repository holds agent instruction files (now or at the base)

    @property
    def changed(self) -> list[StoreReview]:
        return [s for s in self.stores if s.status != "unchanged"]

    def counts(self) -> dict:
        out = {"records": 0, "rows": 0, "introduced": 0, "resolved": 0, "queries": 0}
        for s in self.stores:
            out["records"] += len(s.records)
            out["rows"] += len(s.rows)
            out["introduced"] += len(s.introduced)
            out["resolved"] += len(s.resolved)
            out["queries"] += len(s.queries)
        return out

    def to_json(self) -> dict:
        return {
            "version": 1,
            "repository": str(self.repo),
            "base": self.base,
            "base_commit": self.commit,
            "encoding": "estimate" if self.estimated else "cl100k_base",
            "summary": {"sources": len(self.stores), "changed": len(self.changed), **self.counts()},
            "sources": [s.to_json() for s in self.stores],
            "agents": [a.to_json() for a in self.agents],
        }


def pick_sources(repo: Path, path: Path, paths: list[str]) -> list[Source]:
    """The sources of the repository; only the one holding `path` when `path` is inside one (or
    is a store folder of its own, e.g. one `.curator.yaml` points at)."""
    sources = find_sources(paths, repo)
    rel = path.resolve().relative_to(repo.resolve()).as_posix() if path.resolve() != repo.resolve() else ""
    if not rel:
        return sources
    inside = [s for s in sources if rel == s.path or rel.startswith(s.path + "/") or s.path.startswith(rel + "/")]
    if inside:
        return inside
    return [Source(rel, "store")]


def review_repository(path: Path | str = ".", base: str = "HEAD", token_counter=None,
                      persist: bool | None = None, meaning=None) -> Review:
    """Raises GitError (not a repository, unknown revision) — a usage error for the faces.
    `persist`: the golden queries' engines keep their index (`RetrievalEngine`); `meaning`: the
    face's vectors for duplicate.topic (`LoadOptions.meaning`)."""
    from ..base.git import toplevel
    from . import git

    path = Path(path)
    repo = toplevel(path)
    commit = git.resolve(repo, base)
    now = git.work_files(repo)
    then = git.tracked_files(repo, commit)
    review = Review(repo, base, commit)
    with git.base_folder(commit) as tmp:
        sources = pick_sources(repo, path, now + then)
        git.stand_in(tmp, then, skip=tuple(s.path for s in sources))
        for src in sources:
            config = source_config(repo, src)
            old_dir = git.extract(repo, commit, src.path, tmp)
            git.extract_files(repo, commit, [p for p in beside(src.path) if p in then], tmp)
            before = load_source(old_dir, src, config, token_counter, meaning)
            after = load_source(repo / src.path, src, config, token_counter, meaning)
            if before is None and after is None:
                continue
            review.stores.append(review_store(src.path, src.kind, before, after, persist))
            if any(s is not None and s.encoding == "estimate" for s in (before, after)):
                review.estimated = True
    agent_changes(review, token_counter)
    return review


def beside(store: str) -> list[str]:
    """The files outside a store that decide its start-up load: a Serena store's project.yml and
    project.local.yml (its initial prompt, its memory patterns)."""
    from ..agents import rules_for

    if not store.rstrip("/").endswith(".serena/memories"):
        return []
    top = store.rstrip("/")[: -len("memories")]
    return [top + f.rsplit("/", 1)[-1] for f in rules_for("serena").value("project.initial-prompt")["files"]]


def agent_changes(review: Review, token_counter=None) -> None:
    """Each agent's start-up change between the base and the work tree (the context model of
    both: `ContextModel.startup_tokens`, the number `curator context` shows)."""
    from ..context.build import build_context
    from .agent_startup import model_at, startup_changes

    before = model_at(review.repo, review.commit, token_counter=token_counter)
    after = build_context(review.repo, token_counter=token_counter, env={**os.environ, "CI": "1"})
    review.instructions = bool(before.agents or after.agents)
    review.agents = startup_changes(before, after)


__all__ = [
    "GitError",
    "QueryChange",
    "RecordChange",
    "Review",
    "RowChange",
    "Source",
    "StoreReview",
    "review_repository",
]
