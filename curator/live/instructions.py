"""`curator check` on a repository that holds instruction files (CLAUDE.md, AGENTS.md, rules...)
but no memory store: a repository of only its instruction findings."""

from __future__ import annotations

from ..base.paths import git_root
from ..context.for_check import findings_of


def instructions_only(arg: str | None, only: set[str] | None = None, token_counter=None, agents=None):
    """(Repository, Located) for `curator check` on a repository that holds instruction files but
    no memory store (most repositories): its findings are the instruction checks'. None when
    the folder holds no agent file at all, not even one misplaced (the usual "no agent memory
    found" then stands)."""
    from pathlib import Path

    from ..context.build import present_agents
    from ..context.fs import RepoFS
    from ..model.discovery import Located
    from ..model.sources import Layout
    from .repository import Repository

    root = Path(arg) if arg else repository_here(Path.cwd())
    if root is None or not root.is_dir() or _unreadable_store_config(root):
        return None
    fs = RepoFS.scan(root)
    from ..context.placement import placements

    misplaced = placements(fs)
    if not present_agents(fs) and not misplaced:  # an agent's file where no agent reads it is a finding
        return None
    if arg is None and not misplaced and instruction_repository(None, startup_only=True) is None:
        return None  # with no path, the app's rule: nothing loads at start-up here (curator's checkout)
    from ..context.for_check import instruction_model

    model = instruction_model(root, only, token_counter, agents, fs)
    repo = Repository(Layout(root, ()), (), (), model, tuple(findings_of(model)))
    return repo, Located(root, arg or str(root), repo=root, layout=repo.layout)


def _unreadable_store_config(root) -> bool:
    """Does a memory store of the repository have a config curator refuses (invalid YAML, an
    alias bomb)? Then its error stands: checking only the instruction files would pass a store
    no check has read ("0 memory systems, no findings", exit 0)."""
    from ..base.config import ConfigError, load_config
    from ..model.sources import discover

    for spec in discover(root).memory_sources():
        try:
            load_config(spec.root)
        except ConfigError:
            return True
        except OSError:
            continue
    return False


# names an agent reads at a repository's top: a folder outside git holding one is a repository
TOP_FILES = ("CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "AGENTS.override.md", "GEMINI.md", ".cursorrules",
             ".windsurfrules", ".roorules", ".clinerules", ".cursor/rules", ".github/copilot-instructions.md",
             ".github/instructions", ".devin/rules", ".windsurf/rules", ".kiro/steering", ".roo", "memory-bank")


def repository_here(cwd):
    """The git repository holding `cwd`; outside git, `cwd` itself when an agent's file sits at
    its top (a checkout copied without .git), never the home folder (~/.claude is the user's)."""
    import os
    from pathlib import Path

    here = Path(cwd).resolve()
    root = git_root(here)
    if root is None and here != Path(os.path.expanduser("~")).resolve() and any(
            (here / name).exists() for name in TOP_FILES):
        root = here
    return root


def instruction_repository(arg: str | None, cwd=None, startup_only: bool = False):
    """The folder `arg` names (else the git repository here, else the folder here when an
    agent's file sits at its top) when it holds an agent's instruction files: the app opens on
    what each agent loads there, memory or not. None when there is none. `startup_only` (the
    app with no path, before it falls back to the demo): only a folder holding something an
    agent loads at start-up counts — a checkout of curator, whose only agent files are the
    bundled sample's nested CLAUDE.md and AGENTS.md, opens the demo — and never a folder of
    what curator ships."""
    from pathlib import Path

    from ..base.locations import shipped
    from ..context.build import present_agents
    from ..context.fs import RepoFS

    root = Path(arg).expanduser() if arg else repository_here(Path(cwd or Path.cwd()))
    if root is None or not root.is_dir():
        return None
    fs = RepoFS.scan(root)
    if not present_agents(fs):
        return None
    if startup_only and (shipped(root) is not None or not loads_at_startup(root, fs)):
        return None
    return root


def loads_at_startup(root, fs=None) -> bool:
    """Does any agent load a file of this repository at start-up (the user's own files and
    Serena's memory names aside)?"""
    from ..context.build import build_context

    model = build_context(root, fs=fs, count=False, only=set())
    return any(ctx.startup for name, ctx in model.agents.items() if name != "serena")


def agents_model(repo, token_counter=None, agents=None):
    """The counted context model of the repository's instruction files, for the agents' start-up
    numbers a machine output carries (`ContextModel.startup_tokens`, as `curator tokens` and
    `curator context` give them; `agents`: those of `check --agent`); None for one store given
    alone (it has no repository)."""
    if repo.single:
        return None
    from ..context.build import build_context

    fs = getattr(repo.instructions, "fs", None)  # the walk the check's own model made, when it made one
    return build_context(repo.root, token_counter=token_counter, agents=agents, only=set(), fs=fs,
                         chosen_by="--agent" if agents else "asked")


def with_memory(model, bench, swaps=None):
    """The model with Serena's entry made from the workbench's own `.serena/memories` snapshot: a
    memory edit changes Serena's start-up with no instruction file changed, and walking the
    repository again for it would be waste. None when nothing differs (or `swaps`, the sources
    that changed, leave Serena's alone)."""
    import dataclasses
    import os

    from ..context.build import serena_context

    if model is None or bench is None or "serena" not in model.agents:
        return None
    root = os.path.realpath(os.path.join(model.root, ".serena", "memories"))
    changed = None if swaps is None else {s.index for s in swaps}
    store = next((s.workspace.store for i, s in bench.loaded()
                  if os.path.realpath(s.root) == root and (changed is None or i in changed)), None)
    if store is None:
        return None
    ctx = serena_context(store)
    old = model.agents["serena"]
    if _shown(ctx) == _shown(old):
        return None
    return dataclasses.replace(model, agents={**model.agents, "serena": ctx})


def _shown(ctx) -> tuple:
    return ([(e.path, e.bytes, e.tokens, e.why) for e in ctx.startup],
            [(o.path, o.when, o.tokens, o.bytes) for o in ctx.on_demand])


def instructions_workbench(model):
    """A workbench with no memory source, holding only the instruction findings of `model`: what
    the app's Problems lists (and the scope counts) in a repository without memory."""
    from dataclasses import replace
    from pathlib import Path

    from ..model.sources import Layout
    from .workbench import Workbench

    bench = Workbench(Layout(Path(model.root), ()))
    bench.repo = replace(bench.repo, instructions=model, instruction_findings=tuple(model.findings))
    return bench


def context_root(layout):
    """The repository whose instruction files go with `layout`: its root, or for one memory
    folder given alone the repository holding it (None when there is none)."""
    from pathlib import Path

    root = Path(layout.root)
    if not layout.single:
        return root
    parts = root.parts
    for tail in ((".serena", "memories"), (".claude", "memory")):
        if parts[-2:] == tail:
            return Path(*parts[:-2])
    return git_root(root)


def load_context(layout, token_counter=None):
    """The context model (curator.context) of the repository `layout` belongs to — what the
    app's Context view, tree and overview show; None when there is no repository around it."""
    from ..context.build import build_context

    root = context_root(layout)
    if root is None or not root.is_dir():
        return None
    return build_context(root, token_counter=token_counter)
