"""The context model: per agent, what reaches its context at start-up, on demand, or never.

`build.build_context(root)` makes one; every face reads it (one start-up number per agent:
`ContextModel.startup_tokens(agent)`). Paths are relative to the repository; user-level files
(`~/...`) are kept apart in `AgentContext.user` and never counted in the repository's number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..agents import TABLES
from ..model.findings import Finding
from .fs import RepoFS

LABELS = {name: table.label for name, table in TABLES.items()}


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
    rule: str = ""  # the id of the load rule that put it here (curator.agents)

    @property
    def loaded_bytes(self) -> int:
        return self.cut.kept_bytes if self.cut else self.bytes

    def to_json(self) -> dict:
        return {"path": self.path, "bytes": self.bytes, "tokens": self.tokens, "why": self.why, "via": self.via,
                "cut": None if self.cut is None else {"kept_bytes": self.cut.kept_bytes, "reason": self.cut.reason},
                "rule": self.rule}


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
    rule: str = ""
    via: str | None = None  # the import that brings it with its parent: "pkg/CLAUDE.md:2"
    any_case: bool = False  # its globs match whatever the case (VS Code's applyTo)
    picomatch: bool = False  # its globs match as the Copilot CLI's picomatch: the path from the root or the name
    gitignore: bool = False  # its globs are .gitignore lines in order, as Claude Code reads `paths:` (ignore_lines.py)

    def to_json(self) -> dict:
        out = {"path": self.path, "when": self.when, "tokens": self.tokens, "bytes": self.bytes, "trigger": self.trigger,
               "rule": self.rule}
        if self.globs:
            out["globs"] = list(self.globs)
        if self.description:
            out["description"] = self.description
        if self.via:
            out["via"] = self.via
        return out


@dataclass(frozen=True, slots=True)
class Unseen:
    path: str
    reason: str
    bytes: int = 0
    rule: str = ""

    def to_json(self) -> dict:
        return {"path": self.path, "reason": self.reason, "bytes": self.bytes, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class ImportEdge:
    """One `@path` (or `#[[file:]]`) as the agent resolves it: what checks read (a nested file's
    imports too, which load with it on demand)."""

    importer: str
    line: int
    written: str  # as written, `@docs/a.md`
    target: str  # repository-relative ('' when it leaves the repository)
    status: str  # loaded | missing | outside | too-deep | cycle | unreadable | already
    when: str = "start-up"  # start-up | on demand

    def to_json(self) -> dict:
        return {"importer": self.importer, "line": self.line, "written": self.written, "target": self.target,
                "status": self.status, "when": self.when}


@dataclass(frozen=True, slots=True)
class Listed:
    """A skill, command or subagent as the agent lists it, with where its name and description
    came from (frontmatter, the folder's name, the body's first line, nothing)."""

    path: str
    kind: str  # skill | command | subagent
    name: str
    description: str
    frontmatter: str  # ok | none | unreadable
    name_from: str  # frontmatter | file
    description_from: str  # frontmatter | body | none

    def to_json(self) -> dict:
        return {"path": self.path, "kind": self.kind, "name": self.name, "frontmatter": self.frontmatter,
                "name_from": self.name_from, "description_from": self.description_from}


@dataclass(frozen=True, slots=True)
class MemoryFolder:
    """A memory folder the agent writes: where it is, whose it is, how much it holds."""

    path: str  # repository-relative, or ~/...
    scope: str  # project | local | user
    files: int
    bytes: int
    writable: bool  # False: the user's own, shown read-only
    rule: str = ""

    def to_json(self) -> dict:
        return {"path": self.path, "scope": self.scope, "files": self.files, "bytes": self.bytes,
                "writable": self.writable, "rule": self.rule}


@dataclass(slots=True)
class AgentContext:
    agent: str
    startup: list[Loaded] = field(default_factory=list)
    on_demand: list[OnDemand] = field(default_factory=list)
    never: list[Unseen] = field(default_factory=list)
    user: list[Loaded] = field(default_factory=list)  # ~/... files: read-only, shown apart
    notes: list[str] = field(default_factory=list)
    for_path: dict[str, list[OnDemand]] = field(default_factory=dict)  # --for FILE -> what loads
    version: str = ""  # the agent version whose rules were applied
    chosen_by: str = "newest known"  # newest known | --agent | .curator.yaml | the caller
    imports: list[ImportEdge] = field(default_factory=list)
    listing: list[Listed] = field(default_factory=list)
    memory_folders: list[MemoryFolder] = field(default_factory=list)
    settings: dict = field(default_factory=dict)  # settings the agent read that change what loads
    name: str = ""  # the agent's name at that version (Windsurf before 2026-06)

    def add_user(self, shown: str, text: str, why: str, rule: str) -> None:
        """A file read beside the repository (yours, your organisation's): apart, not counted."""
        self.user.append(Loaded(shown, len(text.encode("utf-8")), 0, why, None, None, text, rule))

    @property
    def label(self) -> str:
        return self.name or LABELS.get(self.agent, self.agent)

    @property
    def newest(self) -> str:
        table = TABLES.get(self.agent)
        return table.newest if table is not None else ""

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
            "rules": {"version": self.version, "newest": self.newest, "chosen_by": self.chosen_by},
            "imports": [i.to_json() for i in self.imports],
            "memory_folders": [m.to_json() for m in self.memory_folders],
        }
        if self.listing:
            out["listing"] = [x.to_json() for x in self.listing]
        if self.settings:
            out["settings"] = self.settings
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
    fs: RepoFS | None = field(default=None, repr=False, compare=False)  # the RepoFS read (what a cache keys on)
    home: str = ""  # the home folder whose user-level files were looked at
    env: dict = field(default_factory=dict, repr=False, compare=False)
    misplaced: list[Unseen] = field(default_factory=list)  # files where no agent looks (rule folder a file, ...)
    notes: list[str] = field(default_factory=list)  # about the whole model (an `agents:` entry left out)

    @property
    def versions(self) -> dict[str, str]:
        """Per agent, the version whose rules were applied."""
        return {name: ctx.version for name, ctx in self.agents.items()}

    def startup_tokens(self, agent: str) -> int:
        """THE start-up number of `agent` in this repository (0 when it loads nothing)."""
        ctx = self.agents.get(agent)
        return ctx.startup_tokens if ctx is not None else 0

    def to_json(self) -> dict:
        return {
            "root": self.root,
            "encoding": self.encoding,
            "agents": [a.to_json() for a in self.agents.values()],
            "misplaced": [u.to_json() for u in self.misplaced],
            "notes": list(self.notes),
        }
