"""What curator's model says Claude Code loads in one session: the model built with the rules of
the session's own version (`build_context(root, versions=...)`), seen from the session's working
folder (a CLAUDE.md of a folder between the repository root and the working folder loads at
start-up, not on demand). Models are shared by every session whose version holds the same rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..agents import RuleSet, VersionError, rules_for
from ..context.model import AgentContext, OnDemand

AGENT = "claude-code"


@dataclass(slots=True)
class Expect:
    """One file as the model places it for a session."""

    path: str  # repository-relative, or ~/... for the user's own
    when: str  # start-up | on demand | never
    rule: str  # the id of the rule that put it there
    why: str
    tokens: int = 0
    parent: str = ""  # the file whose import brings it
    globs: tuple[str, ...] = ()  # on demand: what a read must match
    trigger: str = ""  # folder | path | description | invoked | manual
    text: str = field(default="", repr=False)


@dataclass(slots=True)
class Prediction:
    version: str  # the version whose rules applied
    asked: str  # the session's version as recorded
    cwd: str  # the working folder, repository-relative ('' the root)
    rules: RuleSet
    ctx: AgentContext
    startup: dict[str, Expect] = field(default_factory=dict)
    on_demand: dict[str, Expect] = field(default_factory=dict)
    never: dict[str, Expect] = field(default_factory=dict)
    user: dict[str, Expect] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def newer_than_known(self) -> bool:
        return self.rules.newer_than_known

    def place(self, rel: str) -> Expect | None:
        """Where the model put a repository file (start-up first)."""
        return self.startup.get(rel) or self.on_demand.get(rel) or self.never.get(rel)


class Predictor:
    """Predictions for one repository, one model per distinct set of rules (a session's version
    picks the rules; most versions share them)."""

    def __init__(self, root: str, token_counter=None, env: dict | None = None, home: str | None = None) -> None:
        from ..context.fs import RepoFS

        self.root = root
        self.fs = RepoFS.scan(root)
        self.counter = token_counter
        self.env, self.home = env, home
        self._models: dict[tuple, AgentContext] = {}
        self._done: dict[tuple[str, str], Prediction | None] = {}

    def rules(self, version: str) -> RuleSet | None:
        try:
            return rules_for(AGENT, version or None)
        except VersionError:
            return None

    def predict(self, version: str, cwd_rel: str = "") -> Prediction | None:
        """The prediction for a session of `version` run in `cwd_rel` (None: the version is not
        one curator can read, so no rules apply)."""
        key = (version, cwd_rel)
        if key not in self._done:
            self._done[key] = self._predict(version, cwd_rel)
        return self._done[key]

    def _predict(self, version: str, cwd_rel: str) -> Prediction | None:
        rules = self.rules(version)
        if rules is None:
            return None
        sig = tuple(sorted(rules.table.rule_id(r) for r in rules.held.values()))
        ctx = self._models.get(sig)
        if ctx is None:
            from ..context.build import build_context

            model = build_context(self.root, agents=[AGENT], versions={AGENT: rules.version}, chosen_by="the session",
                                  fs=self.fs, token_counter=self.counter, env=self.env, home=self.home)
            ctx = self._models[sig] = model.agents.get(AGENT) or AgentContext(AGENT)
        p = Prediction(rules.version, version, cwd_rel, rules, ctx)
        _place(p, ctx, cwd_rel)
        if rules.newer_than_known:
            p.notes.append(f"{version} is newer than the rules curator knows ({rules.table.newest}): a difference "
                           "may be a change in Claude Code")
        return p


def _listing(rule: str) -> bool:
    return rule.split("/", 1)[-1].split("@")[0] in ("skills.folder", "commands.folder", "subagents.folder")


def _place(p: Prediction, ctx: AgentContext, cwd_rel: str) -> None:
    for e in ctx.startup:
        if not _listing(e.rule):
            p.startup.setdefault(e.path, Expect(e.path, "start-up", e.rule, e.why, e.tokens,
                                                e.via.rsplit(":", 1)[0] if e.via else "", text=e.text))
    up = _folders_up(cwd_rel)
    for o in ctx.on_demand:
        if o.trigger not in ("folder", "path"):
            continue
        folder = _folder_of(o)
        if folder is not None and folder in up:  # a folder at or above the working folder: start-up
            parent = o.via.rsplit(":", 1)[0] if o.via else ""
            p.startup.setdefault(o.path, Expect(o.path, "start-up", o.rule, f"{o.path.rsplit('/', 1)[0]}/ is the "
                                                "working folder or above it", o.tokens, parent, text=o.text))
        else:
            p.on_demand.setdefault(o.path, _on_demand(o))
    for u in ctx.never:
        if u.path not in p.startup and u.path not in p.on_demand:
            p.never.setdefault(u.path, Expect(u.path, "never", u.rule, u.reason))
    for e in ctx.user:
        p.user.setdefault(e.path, Expect(e.path, "start-up", e.rule, e.why, e.tokens, text=e.text))
    if cwd_rel:
        p.notes.append(f"the session ran in {cwd_rel}/: the CLAUDE.md files of the folders down to it load at "
                       "start-up")


def _on_demand(o: OnDemand) -> Expect:
    return Expect(o.path, "on demand", o.rule, o.when, o.tokens, o.via.rsplit(":", 1)[0] if o.via else "",
                  tuple(o.globs), o.trigger, text=o.text)


def _folder_of(o: OnDemand) -> str | None:
    """The folder a nested file (or an import loaded with it) belongs to; None for a rule of globs."""
    if o.trigger != "folder" or len(o.globs) != 1 or not o.globs[0].endswith("/**"):
        return None
    return o.globs[0][:-3]


def _folders_up(cwd_rel: str) -> set[str]:
    """`a/b` -> {a, a/b}: the folders from the root down to the working folder."""
    parts = [x for x in cwd_rel.split("/") if x]
    return {"/".join(parts[: i + 1]) for i in range(len(parts))}
