"""The user-level files of Codex and Devin Desktop (read-only, shown apart, off when CI is set),
the memories Codex writes, and Serena's entry (the names of the memories it lists)."""

from __future__ import annotations

import os
from pathlib import Path

from .builder import Builder
from .model import AgentContext, Loaded, MemoryFolder, OnDemand


def codex_user(b: Builder, ctx: AgentContext) -> None:
    """~/.codex/AGENTS.override.md, else ~/.codex/AGENTS.md, and the memories folder."""
    from .user import home_rel, read_user

    if b.ci:
        return
    rules = b.rules_of("codex")
    rel = home_rel(b, b.env.get("CODEX_HOME"), ".codex")
    if rel is None:
        return
    for name in rules.value("user.files"):
        got = read_user(b.home, [f"{rel}/{name}"], [])
        if got and got[0][1].strip():  # an empty override is passed over
            shown, text = got[0]
            ctx.add_user(shown, text, "your global AGENTS.md (user level)", rules.id("user.files"))
            break
    from .codex_config import codex_config

    chosen = b.once("codex-config", lambda: codex_config(b)).memories
    folder = os.path.join(b.home, rel, chosen or rules.value("memory.folder"))
    if os.path.isdir(folder) and not os.path.islink(folder):
        from .user import count_md

        files, size = count_md(folder)
        shown = "~/" + os.path.relpath(folder, b.home).replace(os.sep, "/") + "/"
        ctx.memory_folders.append(MemoryFolder(shown, "user", files, size, False,
                                               rules.id("memory.version-2" if chosen else "memory.folder")))


def devin_user(b: Builder, ctx: AgentContext) -> None:
    """Devin Desktop's global AGENTS.md (Windsurf's global rules before 2026-06)."""
    from .user import read_user

    if b.ci:
        return
    rules = b.rules_of("devin")
    for shown, text in read_user(b.home, [rules.value("user.file")], []):
        ctx.add_user(shown, text, "your global rules (user level)", rules.id("user.file"))


def serena(b: Builder) -> AgentContext:
    """Serena lists every memory's name at start-up (the memory source's own rule, reused)."""
    from ..model.loader import LoadOptions, load_store

    rules = b.rules_of("serena")
    folder = rules.value("memories.folder")
    root = os.path.join(b.fs.root, folder)
    if not os.path.isdir(root):
        return _prompt_only(b, rules)
    try:  # the version this build reads (`--agent serena@1.5.3`) is the one the store's activation reads
        store = load_store(root, LoadOptions(given=folder, token_counter=b.counter,
                                             agents=(f"serena@{rules.version}",)))
    except Exception as exc:  # noqa: BLE001 - a store that cannot load: said, never fatal
        ctx = AgentContext("serena")
        ctx.notes.append(f"{folder} cannot load: {exc}")
        return ctx
    return serena_context(store)


def _prompt_only(b: Builder, rules) -> AgentContext:
    """A project with `.serena/project.yml` and no memories folder (git keeps no empty folder):
    its initial prompt still loads at every activation."""
    from ..model.serena_activation import Activation, prompt_of

    ctx = AgentContext("serena")
    act = Activation()
    prompt_of(None, Path(b.fs.root) / ".serena", act, rules.version)
    if act.prompt:
        ctx.startup.append(Loaded(act.prompt_file, len(act.prompt.encode("utf-8")), 0, _prompt_why(act, ""), None,
                                  None, act.prompt, rules.id("project.initial-prompt")))
    ctx.notes += act.notes + [f"the initial prompt embeds {n!r}, which Serena cannot load: it puts nothing there"
                              for n in act.unknown]
    return ctx


def _prompt_why(act, folder: str) -> str:
    why = "its initial_prompt, at every project activation"
    if act.embedded:
        why += "; it embeds " + ", ".join(act.embedded)
    return why


def _serena_startup(ctx: AgentContext, store, st, act, rules) -> None:
    """The activation's entries (the names, the initial prompt) and, for a tiered store, the index
    the agent reads first: `st` (`startup_of`, every face's number) split, never recounted."""
    from ..model import formats as fmts
    from ..model.serena_listing import listed

    folder = rules.value("memories.folder")
    prompt = st.prompt_tokens
    plain = store.format == fmts.SERENA
    n = len(listed(store))
    names = (st.tokens if plain else st.beside) - prompt
    ctx.startup.append(Loaded(folder, len(act.names.encode("utf-8")), names,
                              f"the names of {n} {'memory' if n == 1 else 'memories'} (list_memories)"
                              if not act.off else st.what if plain else "no memory names (the tools are off)",
                              None, None, "", rules.id("memories.folder")))
    if prompt:
        ctx.startup.append(Loaded(act.prompt_file, len(act.prompt.encode("utf-8")), prompt, _prompt_why(act, folder),
                                  None, None, "", rules.id("project.initial-prompt")))
    if not plain:  # ADR-017: the agent reads the index first, once a session (the store's budget governs it)
        for path, tokens in st.store_files:
            rec = store.records.get(path)
            ctx.startup.append(Loaded(f"{folder}/{path}", (rec.size or 0) if rec else 0, tokens,
                                      f"{st.what} (ADR-017: read first, once a session), budget {st.cap_label}",
                                      None, None, ""))


def serena_context(store) -> AgentContext:
    """Serena's entry from its loaded store (the app's own snapshot after a memory edit, too):
    the memories its patterns hide are not listed (the store never loaded them)."""
    from ..agents import rules_for
    from ..budgets.startup import startup_of
    from ..model.serena_activation import activation
    from ..model.serena_listing import linked_names, listing, serena_version

    rules = rules_for("serena", serena_version(store))
    ctx = AgentContext("serena")
    st = startup_of(store)  # the number the budgets and `curator tokens` show: split here, never recounted
    folder = rules.value("memories.folder")
    act = activation(store)
    _serena_startup(ctx, store, st, act, rules)
    unread = linked_names(store)
    if unread:
        links = listing(store).links
        where = f" (linked folders {', '.join(f'{folder}/{k}' for k in links)})" if links else ""
        ctx.notes.append(f"{len(unread)} memories Serena lists have no record in curator{where}: their names are "
                         "counted; curator does not show or check them (hidden, excluded or reached through a link)")
    ctx.notes += [f"the initial prompt embeds {n!r}, which Serena cannot load: it puts nothing there"
                  for n in act.unknown]
    ctx.notes += act.notes + listing(store).notes
    if act.off:
        ctx.notes.append(f".serena/project.yml takes Serena's memory tools away ({act.off}): no memory is listed, "
                         "none can be read through Serena")
    mems = [] if act.off else list(store.memories())
    if mems:  # one line: the bodies are read by name, none is attached by path
        ctx.on_demand.append(OnDemand(folder + "/", f"{len(mems)} memory {'body' if len(mems) == 1 else 'bodies'}, "
                                      "each when the agent reads it by name", sum(r.tokens or 0 for r in mems),
                                      sum(r.size or 0 for r in mems), "invoked", rule=rules.id("memories.folder")))
    patterns = getattr(store, "memory_patterns", None)
    if patterns is not None and (patterns.ignored or patterns.read_only):
        rule = rules.id("memories.patterns")
        if patterns.hidden:
            ctx.notes.append(f"{len(patterns.hidden)} memories match ignored_memory_patterns: Serena never lists, "
                             "reads or writes them, and curator leaves them out")
        if patterns.read_only:
            ctx.notes.append(f"read_only_memory_patterns {', '.join(patterns.read_only)}: curator never writes "
                             "the memories they match")
        ctx.settings = {"memory_patterns": patterns.to_json(), "rule": rule}
    return ctx


def _workspace_read(b: Builder, rules) -> bool:
    """Does Gemini CLI read this folder's `.gemini/settings.json`? Not in a folder you chose not to
    trust (or a variable untrusts): your GEMINI.md names then come from your settings alone."""
    from .gemini_trust import Refused, trust_of

    if not rules.has("trust.folder"):
        return True
    try:
        return trust_of(b, rules)[0] is not False
    except Refused:
        return True


def gemini_user(b: Builder, ctx: AgentContext) -> None:
    """Your `~/.gemini/GEMINI.md` and, since 0.37.0, your private project memory (read-only, apart)."""
    from .agents_md import gemini_names
    from .user import gemini_project_slug, read_user

    if b.ci:
        return
    rules = b.rules_of("gemini")
    names, _ = gemini_names(b, workspace=_workspace_read(b, rules))
    folder = rules.value("user.folder")
    for shown, text in read_user(b.home, [f"{folder}/{n}" for n in names], []):
        ctx.add_user(shown, text, "your global GEMINI.md (user level)", rules.id("user.folder"))
    if not rules.has("memory.project"):
        return
    place = rules.value("memory.project")
    slug = gemini_project_slug(b.home, b.fs.root, place)
    if slug is None:
        return
    base = f"{place['folder']}/{slug}/{place['memory']}"
    for name in (place["index"], *names):  # MEMORY.md, else the older private GEMINI.md
        got = read_user(b.home, [f"{base}/{name}"], [])
        if got:
            shown, text = got[0]
            ctx.add_user(shown, text, "your private project memory (user level)", rules.id("memory.project"))
            return
