"""`build_context(root)`: the context model of a repository, every agent at once.

One walk of the repository, each file read once, every count made in one batch through the
project's token counter (cached by content hash), so every face shows the same numbers.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from .builder import Builder
from .fs import RepoFS
from .model import AGENTS, AgentContext, ContextModel, Loaded, OnDemand
from .parse import matches

NEAREST_AGENTS = ("cursor", "copilot", "cline", "windsurf", "kiro", "roo")  # read AGENTS.md too


def present_agents(fs: RepoFS) -> list[str]:
    """The agents whose files the repository holds."""
    files, dirs = fs.fileset, fs.dirs
    names = {f.rsplit("/", 1)[-1] for f in files}
    found = set()
    if names & {"CLAUDE.md", "CLAUDE.local.md"} or any(
            fs.under(f".claude/{d}") for d in ("rules", "skills", "commands", "agents")):
        found.add("claude-code")
    if names & {"AGENTS.md", "AGENTS.override.md"}:
        found.add("codex")
    if "GEMINI.md" in names or ".gemini/settings.json" in files:
        found.add("gemini")
    if fs.under(".cursor/rules") or ".cursorrules" in files:
        found.add("cursor")
    if ".github/copilot-instructions.md" in files or fs.under(".github/instructions"):
        found.add("copilot")
    if ".clinerules" in files or fs.under(".clinerules") or fs.under("memory-bank"):
        found.add("cline")
    if fs.under(".windsurf/rules") or ".windsurfrules" in files:
        found.add("windsurf")
    if fs.under(".kiro/steering"):
        found.add("kiro")
    if fs.under(".roo") or ".roorules" in files:
        found.add("roo")
    if ".serena/memories" in dirs:
        found.add("serena")
    return [a for a in AGENTS if a in found]


def _configured(root: str) -> list[str]:
    """`agents:` named in the repository's .curator.yaml (shown even with no file of theirs)."""
    from ..base.safeio import read_small_file

    try:
        text = read_small_file(Path(root) / ".curator.yaml").decode("utf-8", "replace")
    except Exception:  # noqa: BLE001 - absent or odd config: nothing named
        return []
    if not text or "agents" not in text:
        return []
    try:
        import yaml

        data = yaml.safe_load(text)
    except Exception:  # noqa: BLE001
        return []
    named = data.get("agents") if isinstance(data, dict) else None
    return [a for a in named if a in AGENTS] if isinstance(named, list) else []


def build_context(root: str | os.PathLike, *, agents: Iterable[str] | None = None, for_paths: Iterable[str] = (),
                  token_counter=None, env: dict | None = None, home: str | None = None,
                  only: set[str] | None = None, fs: RepoFS | None = None, count: bool = True) -> ContextModel:
    """The context model of the repository at `root`. `agents` limits it (default: the agents
    whose files are present or that .curator.yaml names); `for_paths` adds what loads when each
    of those repository-relative files is read; `only` limits the findings to those check ids;
    `count=False` leaves every token count at 0 (`curator check` needs only the findings)."""
    from . import agents_md, claude, rules
    from .checks import repository_checks

    env = dict(os.environ) if env is None else env
    home = home or env.get("HOME") or str(Path.home())
    fs = fs or RepoFS.scan(root)
    if token_counter is None and count:
        from ..base.tokens import default_counter

        token_counter = default_counter()
    b = Builder(fs, env, home, only, counter=token_counter)
    wanted = list(agents) if agents else None
    names = wanted or sorted(set(present_agents(fs)) | set(_configured(fs.root)), key=AGENTS.index)
    makers = {"claude-code": claude.build, "codex": agents_md.codex, "gemini": agents_md.gemini,
              "cursor": rules.cursor, "copilot": rules.copilot, "cline": rules.cline, "windsurf": rules.windsurf,
              "kiro": rules.kiro, "roo": rules.roo, "serena": _serena}
    model = ContextModel(fs.root, home=home, env=env)
    built: dict[str, AgentContext] = {}
    present = set(present_agents(fs))
    for name in AGENTS:  # every present agent is built: the findings are the repository's
        if name not in present and name not in names or (name == "serena" and not count):
            continue  # (Serena's entry makes no finding: a check does not load its store twice)
        ctx = built[name] = makers[name](b)
        if name in NEAREST_AGENTS:
            agents_md.nearest(b, ctx)
        if name == "claude-code":
            claude.user_files(b, ctx, fs.root)
        elif name == "codex":
            _codex_user(b, ctx)
        if name in names:
            model.agents[name] = ctx
    repository_checks(b, built)
    model.files = len(instruction_files(model))
    if count:
        model.encoding = _count(model, token_counter)
    for p in for_paths:
        rel = p.strip("/")
        for agent, items in loads_for(model, rel).items():
            model.agents[agent].for_path[rel] = items
    model.findings = sorted(b.findings, key=lambda f: f.sort_key())
    model.fs = fs
    return model


def loads_for(model: ContextModel, rel: str) -> dict[str, list[OnDemand]]:
    """Per agent, what loads when the agent reads or edits the repository file `rel`."""
    rel = rel.strip("/")
    return {name: [o for o in ctx.on_demand if _applies(o, rel)] for name, ctx in model.agents.items()}


def _applies(o: OnDemand, rel: str) -> bool:
    return o.trigger in ("path", "folder") and any(matches(g, rel) for g in o.globs)


def instruction_files(model: ContextModel) -> set[str]:
    out = set()
    for ctx in model.agents.values():
        out |= {e.path for e in ctx.startup if not e.path.startswith(".serena")}
        out |= {o.path for o in ctx.on_demand if not o.path.startswith(".serena")}
    return out


def _codex_user(b: Builder, ctx: AgentContext) -> None:
    from .user import read_user

    if b.ci:
        return
    base = b.env.get("CODEX_HOME")
    rel = ".codex"
    if base:
        try:
            rel = os.path.relpath(base, b.home)
        except ValueError:
            return
    for name in ("AGENTS.override.md", "AGENTS.md"):
        got = read_user(b.home, [f"{rel}/{name}"], [])
        if got:
            shown, text = got[0]
            ctx.user.append(Loaded(shown, len(text.encode("utf-8")), 0, "your global AGENTS.md (user level)", None,
                                   None, text))
            return


def _serena(b: Builder) -> AgentContext:
    """Serena lists every memory's name at start-up (the memory source's own rule, reused)."""
    from ..model import load_store

    root = os.path.join(b.fs.root, ".serena", "memories")
    try:
        store = load_store(root, given=".serena/memories", token_counter=b.counter)
    except Exception as exc:  # noqa: BLE001 - a store that cannot load: said, never fatal
        ctx = AgentContext("serena")
        ctx.notes.append(f".serena/memories cannot load: {exc}")
        return ctx
    return serena_context(store)


def serena_context(store) -> AgentContext:
    """Serena's entry from its loaded store (the app's own snapshot after a memory edit, too)."""
    from ..budgets.startup import startup_of

    ctx = AgentContext("serena")
    st = startup_of(store)
    names = "\n".join(sorted(r.path[:-3] if r.path.endswith(".md") else r.path for r in store.memories()))
    entry = Loaded(".serena/memories", len(names.encode("utf-8")), st.tokens, st.what, None, None, "")
    ctx.startup.append(entry)
    mems = list(store.memories())
    if mems:  # one line: the bodies are read by name, none is attached by path
        ctx.on_demand.append(OnDemand(".serena/memories/", f"{len(mems)} memory bodies, each when the agent reads "
                                      "it by name", sum(r.tokens or 0 for r in mems),
                                      sum(r.size or 0 for r in mems), "invoked"))
    return ctx


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
