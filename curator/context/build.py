"""`build_context(root)`: the context model of a repository, every agent at once.

One walk of the repository, each file read once, every count made in one batch through the
project's token counter (cached by content hash), so every face shows the same numbers.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..agents import AGENTS
from .builder import Builder
from .fs import RepoFS
from .model import AgentContext, ContextModel, OnDemand
from .others import serena_context
from .parse import matches, name_or_path_matches
from .presence import present_agents
from .versions import choose

__all__ = ["build_context", "instruction_files", "loads_for", "present_agents", "serena_context"]

NEAREST_AGENTS = ("cursor", "copilot", "devin", "kiro")  # read AGENTS.md too


def build_context(root: str | os.PathLike, *, agents: Iterable[str] | None = None, for_paths: Iterable[str] = (),
                  versions: Mapping[str, str] | None = None, chosen_by: str = "asked",
                  token_counter=None, env: dict | None = None, home: str | None = None,
                  only: set[str] | None = None, fs: RepoFS | None = None, count: bool = True,
                  managed_dir: str | None = None) -> ContextModel:
    """The context model of the repository at `root`. `agents` limits it (default: the agents
    whose files are present or that .curator.yaml names; `windsurf` is `devin`; `codex@0.150.0`
    picks a version too); `versions` picks the agent version whose rules apply
    (`{"claude-code": "2.1.276"}`; else `.curator.yaml` `agents: {name: {version: ...}}`, else the
    newest known; each `AgentContext.version` says which, `chosen_by` why); `for_paths` adds
    what loads when each of those repository-relative files is read; `only` limits the findings
    to those check ids; `count=False` leaves every token count at 0 (`curator check` needs only
    the findings); `managed_dir` is where Claude Code's managed settings are looked for.
    A wrong agent name or version raises UnknownAgent / VersionError (both ValueError)."""
    env = dict(os.environ) if env is None else env
    home = home or env.get("HOME") or str(Path.home())
    fs = fs or RepoFS.scan(root)
    choice = choose(fs.root, agents, versions, chosen_by)
    if token_counter is None and count:
        from ..base.tokens import default_counter

        token_counter = default_counter()
    b = Builder(fs, env, home, only, counter=token_counter, rules=dict(choice.rules), managed_dir=managed_dir)
    present = set(present_agents(fs, choice.rules))
    names = choice.wanted or sorted(present | set(choice.named), key=AGENTS.index)
    model = ContextModel(fs.root, home=home, env=env, notes=list(choice.problems))
    built: dict[str, AgentContext] = {}
    for name in AGENTS:  # every present agent is built: the findings are the repository's
        if name not in present and name not in names or (name == "serena" and not count):
            continue  # (Serena's entry makes no finding: a check does not load its store twice)
        ctx = built[name] = _agent(b, name, choice)
        if name in names:
            model.agents[name] = ctx
    _repository_findings(b, built, model, choice)
    if count:
        model.encoding = _count(model, token_counter)
    for p in for_paths:
        rel = p.strip("/")
        for agent, items in loads_for(model, rel).items():
            model.agents[agent].for_path[rel] = items
    model.findings = sorted(b.findings, key=lambda f: f.sort_key())
    model.fs = fs
    return model


def _agent(b: Builder, name: str, choice) -> AgentContext:
    """One agent's context: what its rules load, with its version, name, notes and the files
    it reads beside the repository's (the nearest AGENTS.md, the user's own files)."""
    from . import agents_md, claude, cline, copilot_cli, cursor, kiro, roo, rules
    from .gemini_system import system_prompt
    from .gemini_trust import apply_trust
    from .others import codex_user, devin_user, gemini_user, serena

    makers = {"claude-code": claude.build, "codex": agents_md.codex, "gemini": agents_md.gemini,
              "cursor": cursor.cursor, "copilot": rules.copilot, "copilot-cli": copilot_cli.build, "cline": cline.build,
              "devin": rules.devin,
              "kiro": kiro.kiro, "roo": roo.build, "serena": serena}
    users = {"claude-code": lambda ctx: claude.user_files(b, ctx, b.fs.root), "codex": lambda ctx: codex_user(b, ctx),
             "devin": lambda ctx: devin_user(b, ctx), "cline": lambda ctx: cline.user_files(b, ctx),
             "roo": lambda ctx: roo.user_files(b, ctx), "gemini": lambda ctx: apply_trust(b, ctx, gemini_user, after=system_prompt),
             "kiro": lambda ctx: kiro.user_files(b, ctx), "copilot-cli": lambda ctx: copilot_cli.user_files(b, ctx)}
    ctx = makers[name](b)
    ruleset = choice.rules[name]
    ctx.version, ctx.chosen_by = ruleset.version, choice.chosen_by[name]
    ctx.name = str(ruleset.value("name", ruleset.table.label))
    ctx.notes = choice.notes.get(name, []) + ctx.notes
    if name in NEAREST_AGENTS:
        agents_md.nearest(b, ctx)
    if name in users:
        users[name](ctx)
    return ctx


def _repository_findings(b: Builder, built: dict[str, AgentContext], model: ContextModel, choice) -> None:
    """The checks across every agent built: the repository's, dead parts, Claude Code's traps,
    the start-up budget, and instruction files no agent reads (the model's `misplaced`)."""
    from . import link_text, placement, startup_budget, traps
    from .checks import repository_checks

    places = placement.placements(b.fs, choice.rules)
    if b.only is None or b.only:  # `only=set()`: no finding wanted, and the passes change nothing else
        repository_checks(b, built)
        b.dead_parts()
        b.shared()
        traps.check(b, built.get("claude-code"), frozenset(link_text.check(b, built)))
        startup_budget.check(b, built)
        placement.check(b, places)
    model.misplaced = [placement.unseen(b.fs, p) for p in places]
    model.files = len(instruction_files(model))


def loads_for(model: ContextModel, rel: str) -> dict[str, list[OnDemand]]:
    """Per agent, what loads when the agent reads or edits the repository file `rel`."""
    rel = rel.strip("/")
    return {name: [o for o in ctx.on_demand if _applies(o, rel)] for name, ctx in model.agents.items()}


def _applies(o: OnDemand, rel: str) -> bool:
    if o.gitignore:
        from .ignore_lines import ignores

        return o.trigger == "path" and ignores(o.globs, rel)
    fold = str.lower if o.any_case else str  # VS Code's applyTo matches whatever the case
    test = name_or_path_matches if o.picomatch else matches
    return o.trigger in ("path", "folder") and any(test(fold(g), fold(rel)) for g in o.globs)


def instruction_files(model: ContextModel) -> set[str]:
    out = set()
    for ctx in model.agents.values():
        out |= {e.path for e in ctx.startup if not e.path.startswith(".serena")}
        out |= {o.path for o in ctx.on_demand if not o.path.startswith(".serena")}
    return out


def _count(model: ContextModel, counter) -> str:
    """Every loaded text counted in one batch (the counter caches by content hash)."""
    from ..base.tokens import default_counter, text_key

    items: list = []
    for ctx in model.agents.values():
        for e in (*ctx.startup, *ctx.user):
            if e.text:
                items.append(e)
        items += [o for o in ctx.on_demand if o.text]
    counter = counter or default_counter()
    if not items:
        return getattr(counter, "encoding", "cl100k_base")
    texts = sorted({i.text for i in items})
    counts = dict(zip(texts, counter.count_many([(text_key(t), t) for t in texts]), strict=True))
    for i in items:
        i.tokens = counts[i.text]
    if hasattr(counter, "flush"):
        counter.flush()
    return getattr(counter, "encoding", "cl100k_base")
