"""The context model: per agent, what reaches its context at start-up, on demand, or never.

`build.build_context(root)` makes one; every face reads it (one start-up number per agent:
`ContextModel.startup_tokens(agent)`). Paths are relative to the repository; user-level files
(`~/...`) are kept apart in `AgentContext.user` and never counted in the repository's number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.findings import Finding

AGENTS = ("claude-code", "codex", "gemini", "cursor", "copilot", "cline", "windsurf", "kiro", "roo", "serena")
LABELS = {
    "claude-code": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI", "cursor": "Cursor",
    "copilot": "GitHub Copilot", "cline": "Cline", "windsurf": "Windsurf", "kiro": "Kiro",
    "roo": "Roo Code", "serena": "Serena",
}


@dataclass(frozen=True, slots=True)
class Cut:
    kept_bytes: int
    reason: str


@dataclass(slots=True)
class Loaded:
    """One file (or a file's listing line, for skills) in the start-up context."""

    path: str
    bytes: int  # the whole file
    tokens: int  # of what is loaded (the kept part when cut)
    why: str
    via: str | None = None  # the import that brought it: "CLAUDE.md:3"
    cut: Cut | None = None
    text: str = field(default="", repr=False)  # what is loaded (for counting; not in JSON)

    @property
    def loaded_bytes(self) -> int:
        return self.cut.kept_bytes if self.cut else self.bytes

    def to_json(self) -> dict:
        return {"path": self.path, "bytes": self.bytes, "tokens": self.tokens, "why": self.why, "via": self.via,
                "cut": None if self.cut is None else {"kept_bytes": self.cut.kept_bytes, "reason": self.cut.reason}}


@dataclass(slots=True)
class OnDemand:
    path: str
    when: str  # "reading or editing src/**/*.ts", "when picked by its description: ..."
    tokens: int
    bytes: int = 0
    trigger: str = "path"  # path | description | folder | mode | manual | invoked
    globs: tuple[str, ...] = ()
    description: str = ""
    text: str = field(default="", repr=False)

    def to_json(self) -> dict:
        out = {"path": self.path, "when": self.when, "tokens": self.tokens, "bytes": self.bytes, "trigger": self.trigger}
        if self.globs:
            out["globs"] = list(self.globs)
        if self.description:
            out["description"] = self.description
        return out


@dataclass(frozen=True, slots=True)
class Unseen:
    path: str
    reason: str
    bytes: int = 0

    def to_json(self) -> dict:
        return {"path": self.path, "reason": self.reason, "bytes": self.bytes}


@dataclass(slots=True)
class AgentContext:
    agent: str
    startup: list[Loaded] = field(default_factory=list)
    on_demand: list[OnDemand] = field(default_factory=list)
    never: list[Unseen] = field(default_factory=list)
    user: list[Loaded] = field(default_factory=list)  # ~/... files: read-only, shown apart
    notes: list[str] = field(default_factory=list)
    for_path: dict[str, list[OnDemand]] = field(default_factory=dict)  # --for FILE -> what loads

    @property
    def label(self) -> str:
        return LABELS.get(self.agent, self.agent)

    @property
    def startup_tokens(self) -> int:
        return sum(f.tokens for f in self.startup)

    @property
    def startup_bytes(self) -> int:
        return sum(f.loaded_bytes for f in self.startup)

    def to_json(self) -> dict:
        out = {
            "agent": self.agent,
            "label": self.label,
            "startup": {"tokens": self.startup_tokens, "bytes": self.startup_bytes,
                        "files": [f.to_json() for f in self.startup]},
            "on_demand": [o.to_json() for o in self.on_demand],
            "never": [u.to_json() for u in self.never],
            "user": {"tokens": sum(f.tokens for f in self.user), "files": [f.to_json() for f in self.user]},
            "notes": list(self.notes),
        }
        if self.for_path:
            out["for"] = {p: [o.to_json() for o in items] for p, items in self.for_path.items()}
        return out


@dataclass(slots=True)
class ContextModel:
    root: str
    agents: dict[str, AgentContext] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    encoding: str = "cl100k_base"
    files: int = 0  # instruction files found (every agent's)
    fs: object = field(default=None, repr=False, compare=False)  # the RepoFS read (what a cache keys on)
    home: str = ""  # the home folder whose user-level files were looked at
    env: dict = field(default_factory=dict, repr=False, compare=False)

    def startup_tokens(self, agent: str) -> int:
        """THE start-up number of `agent` in this repository (0 when it loads nothing)."""
        ctx = self.agents.get(agent)
        return ctx.startup_tokens if ctx is not None else 0

    def to_json(self) -> dict:
        return {
            "root": self.root,
            "encoding": self.encoding,
            "agents": [a.to_json() for a in self.agents.values()],
        }
