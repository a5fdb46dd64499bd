"""Each agent's start-up change between two context models — what `review` reports:
`claude-code start-up +1,240 tokens: CLAUDE.md +900, .claude/rules/api.md new +340`.
`model_at(root, ref)` builds the model of a git revision (its instruction files only)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..agents import rules_for
from ..context.model import ContextModel

_NAMES = (".cursorrules", ".clinerules", ".windsurfrules", ".roorules")  # top files a revision's model reads

SERENA_PROJECT = tuple(rules_for("serena").value("project.initial-prompt")["files"])  # its initial prompt


@dataclass(frozen=True, slots=True)
class FileChange:
    path: str
    before: int | None  # tokens at start-up, None: not loaded then
    after: int | None

    def words(self) -> str:
        if self.before is None:
            return f"{self.path} new +{self.after:,}"
        if self.after is None:
            return f"{self.path} gone -{self.before:,}"
        return f"{self.path} {self.after - self.before:+,}"


@dataclass(slots=True)
class AgentChange:
    agent: str
    before: int
    after: int
    files: list[FileChange] = field(default_factory=list)

    @property
    def delta(self) -> int:
        return self.after - self.before

    def line(self) -> str:
        parts = ", ".join(f.words() for f in self.files)
        return f"{self.agent} start-up {self.delta:+,} tokens" + (f": {parts}" if parts else "")

    def to_json(self) -> dict:
        return {"agent": self.agent, "before": self.before, "after": self.after, "delta": self.delta,
                "files": [{"path": f.path, "before": f.before, "after": f.after} for f in self.files]}


def startup_changes(before: ContextModel | None, after: ContextModel) -> list[AgentChange]:
    """Every agent whose start-up load changed (tokens or files), biggest change first."""
    out = []
    agents = list(after.agents) + [a for a in (before.agents if before else {}) if a not in after.agents]
    for agent in agents:
        a = after.agents.get(agent)
        b = before.agents.get(agent) if before else None
        was = {e.path: e.tokens for e in b.startup} if b else {}
        now = {e.path: e.tokens for e in a.startup} if a else {}
        files = [FileChange(p, was.get(p), now.get(p)) for p in list(now) + [p for p in was if p not in now]
                 if was.get(p) != now.get(p)]
        if files:
            files.sort(key=lambda f: -abs((f.after or 0) - (f.before or 0)))
            out.append(AgentChange(agent, sum(was.values()), sum(now.values()), files))
    out.sort(key=lambda c: -abs(c.delta))
    return out


def _candidate(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return (path.endswith((".md", ".mdc")) or name in _NAMES or name.startswith(".roorules-")
            or path in (".gemini/settings.json", ".claude/settings.json", ".curator.yaml", *SERENA_PROJECT)
            or path.startswith((".clinerules/", ".roo/")))


def model_at(root, ref: str, *, token_counter=None, env: dict | None = None) -> ContextModel:
    """The context model of the repository at git revision `ref`: its file list from the
    revision, its instruction files extracted to a scratch folder. Raises review.git.GitError."""
    import tempfile

    from ..context.build import build_context
    from ..context.fs import RepoFS
    from .git import _git_bytes, tracked_files
    from .untar import untar

    files = tracked_files(root, ref)
    wanted = [f for f in files if _candidate(f)]
    with tempfile.TemporaryDirectory(prefix="curator-context-") as tmp:
        for i in range(0, len(wanted), 400):
            data = _git_bytes(root, "archive", "--format=tar", ref, "--", *wanted[i:i + 400])
            untar(data, tmp)  # as tarfile's "data" filter: no link out, no device, no absolute path
        fs = RepoFS(os.path.realpath(tmp))
        fs.files = sorted(files)
        fs.dirs = {f.rsplit("/", i)[0] for f in files for i in range(1, f.count("/") + 1)}
        env = dict(os.environ if env is None else env, CI="1")  # the revision's files, not the user's
        return build_context(tmp, token_counter=token_counter, env=env, fs=fs)
