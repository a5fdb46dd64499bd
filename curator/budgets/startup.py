"""What the agent loads at start-up from a store, by format, and the cap on it.

- tiered Serena: the always-loaded `memory-index.md` (plus `knowledge/` where configured)
  against the start-up token budget (`budgets.startup_load`) and, beside the budget, what
  activating the project says (the memory names and the initial prompt, as for a plain store):
  Serena lists every memory whatever index the store keeps;
- Claude Code: `MEMORY.md` whole when a start-up instruction file imports it (CLAUDE.md's
  `@.claude/memory/MEMORY.md`: an import has no cap, as the context model shows it), else as
  auto memory its first 200 lines or 25 KB, whichever comes first;
- plain Serena: what activating the project says: the memory names (the agent reads a memory by
  name) and the project's initial prompt, with any memory it embeds;
- experience entries: the memory-automation plan's first-run load — the latest entries of each
  folder, summaries before entries, an active set of at most 12.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..agents import rules_for
from ..base.tokens import estimate
from ..model import formats as fmts
from ..model.auto_memory import committed_claude_memory, store_auto_off
from ..model.serena_listing import is_project_folder
from ..model.store import Store
from . import CapLine

LATEST_PER_FOLDER = 5
ACTIVE_SET = 12


@dataclass(slots=True)
class Startup:
    what: str  # what is loaded, in words
    tokens: int  # tokens the agent loads
    cap_tokens: int | None  # the token budget, where there is one
    cap_label: str  # the cap in words ("2,500 tokens", "200 lines or 25 KB")
    files: list[tuple[str, int]] = field(default_factory=list)
    past_cap: list[CapLine] = field(default_factory=list)  # non-blank lines the agent never sees
    cut_lines: int = 0  # every line past the cap (blank ones too), where the cap is in lines
    beside: int = 0  # tokens in `tokens` no budget governs: Serena's activation next to a tiered index
    beside_what: str = ""  # what they are, in words

    @property
    def past_cap_lines(self) -> int:
        return self.cut_lines or len(self.past_cap)

    @property
    def store_files(self) -> list[tuple[str, int]]:
        """The files inside the store (not Serena's `../project.yml`, whose prompt loads beside it)."""
        return [(p, n) for p, n in self.files if not p.startswith("../")]

    @property
    def prompt_tokens(self) -> int:
        """Tokens of the files beside the store: a Serena project's initial prompt."""
        return sum(n for p, n in self.files if p.startswith("../"))

    @property
    def capped(self) -> int:
        """The tokens the budget governs (all of them, unless some load beside it)."""
        return self.tokens - self.beside

    @property
    def over(self) -> bool:
        return self.past_cap_lines > 0 or (self.cap_tokens is not None and self.capped > self.cap_tokens)

    def to_json(self) -> dict:
        """The one shape every JSON output gives a memory system's start-up load."""
        return {
            "what": self.what, "tokens": self.tokens, "budget": self.cap_tokens, "cap": self.cap_label,
            "cap_tokens": self.cap_tokens, "over": self.over, "past_cap_lines": self.past_cap_lines,
            "files": [{"path": p, "tokens": n} for p, n in self.files],
            "budgeted": self.capped, "beside": {"tokens": self.beside, "what": self.beside_what},
            "past_cap": [{"path": c.path, "line": c.line, "text": c.text, "cumulative": c.cumulative}
                         for c in self.past_cap],
        }


def _count(store: Store, text: str) -> int:
    counter = store.counter
    if counter is None:
        return estimate(text)
    return counter.count_many([("", text)])[0]


def startup_of(store: Store) -> Startup:
    fmt = store.format
    if fmt == fmts.CLAUDE:
        return _claude(store)
    if fmt == fmts.SERENA:
        return _serena_names(store)
    if fmt == fmts.EXPERIENCE:
        return _experience(store)
    from . import startup_load

    sl = startup_load(store)
    st = Startup(
        "the always-loaded index" + (" and auto-loaded tiers" if len(sl.files) > 1 else ""),
        sl.tokens,
        sl.budget,
        f"{sl.budget:,} tokens",
        list(sl.files),
        list(sl.past_cap),
    )
    if fmt == fmts.SERENA_TIERED and is_project_folder(store):  # Serena lists the names of a tiered store too
        act = _serena_names(store)
        st.tokens += act.tokens
        st.beside, st.beside_what = act.tokens, "Serena's activation, " + act.what
        st.files += act.files
    return st


def startup_inputs(store: Store) -> list[str]:
    """The files outside a Claude store that decide what of its MEMORY.md loads (the start-up
    files that may import it, the file that does, the settings that turn auto memory off): what a
    kept answer that counts it must see unchanged (retrieval/fast.py)."""
    import os

    from ..model.auto_memory import store_repo
    from ..model.imports import startup_import

    if store.format != fmts.CLAUDE:
        return []
    repo = store_repo(store)
    home = os.environ.get("HOME") or os.path.expanduser("~")
    out = [os.path.join(home, ".claude", "settings.json")]
    if repo is not None:
        out += [os.path.join(repo, p) for p in ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md", "AGENTS.md",
                                                ".claude/AGENTS.md", ".claude/settings.json",
                                                ".claude/settings.local.json", ".curator.yaml")]
        via = startup_import(store)
        if via:
            out.append(os.path.join(repo, via.rsplit(":", 1)[0]))
    return list(dict.fromkeys(out))


def _claude(store: Store) -> Startup:
    """What Claude Code loads of the store here: its MEMORY.md as auto memory (`claude_as_auto`),
    but nothing for a `.claude/memory` committed in the repository that no loaded file imports and
    neither your autoMemoryDirectory nor a link makes your auto memory (the context view's "never
    by itself"): the auto-memory figure is said in words, the number is what the agent gets."""
    from ..model.imports import store_file_import

    st = claude_as_auto(store)
    if not st.files or store_file_import(store, st.files[0][0]) is not None or not committed_claude_memory(store.root):
        return st
    path = st.files[0][0]
    past = f", {st.past_cap_lines} lines past its cap" if st.past_cap_lines else ""
    return Startup(f"nothing: {path} is committed in the repository, not your auto memory here; Claude Code reads "
                   f"it only when a loaded file imports it (as auto memory: {st.tokens:,} tokens{past})", 0, None,
                   st.cap_label)


def claude_as_auto(store: Store) -> Startup:
    """The store's MEMORY.md as Claude Code loads it when it is the auto memory (its cap) or
    imported (whole): what the route walks from (retrieval/route.py), wherever it is kept."""
    from ..model.imports import startup_import

    path = store.l0.path if store.l0 is not None else "MEMORY.md"
    cap = fmts.claude_cap(store)  # the version the repository pins, as `context` reads it
    label = f"Claude Code's auto memory: {fmts.claude_cap_words(cap)} of {path}"
    if store.l0 is None or store.l0.path not in store.records:
        unread = store.unread_index()
        if unread is not None and not store_auto_off(store):
            return _unread(store, unread, label, cap)
        return Startup("nothing (no MEMORY.md)" if unread is None else "nothing: Claude Code's auto memory is off",
                       0, None, label)
    rec = store.records[store.l0.path]
    via = startup_import(store)
    if via is not None:  # imported: Claude Code loads the whole file, with no cap
        return Startup(f"{rec.path}, whole: Claude Code imports it ({via})", rec.tokens or 0, None,
                       f"none: {via} imports {rec.path} whole (Claude Code)", [(rec.path, rec.tokens or 0)])
    off = store_auto_off(store)
    if off:  # the context view's "auto memory is off", said here too
        return Startup(f"nothing: Claude Code's auto memory is off ({off}); {rec.path} loads only if a loaded "
                       "file imports it", 0, None, label)
    lines = rec.text.splitlines(keepends=True)
    if cap.get("strip"):  # what Claude Code injects, counted as `curator context` counts it
        from ..model.memory_md import loaded_index

        shown, first = loaded_index(rec.text, cap["lines"], cap["bytes"])
        tokens = _count(store, shown)
    else:
        first = fmts.claude_cap_of(rec.text, cap)
        tokens = rec.tokens or 0 if first is None else _count(store, "".join(lines[: first - 1]))
    past: list[CapLine] = []
    if first is not None:  # the lines the loader drops, as the tiered store's cap names them
        from . import line_tokens

        counts = line_tokens(store, rec.text, rec.content_hash)
        running = sum(counts[: first - 1])
        for no in range(first, len(lines) + 1):
            running += counts[no - 1] if no - 1 < len(counts) else 0
            if lines[no - 1].strip():
                past.append(CapLine(rec.path, no, lines[no - 1].rstrip("\n"), running))
    cut = 0 if first is None else len(lines) - first + 1
    what = f"{rec.path} as Claude Code's auto memory (its {fmts.claude_cap_words(cap)})"
    return Startup(what, tokens, None, label, [(rec.path, tokens)], past, cut)


def _unread(store: Store, rec, label: str, cap: dict) -> Startup:
    """A MEMORY.md curator will not take as a memory (not UTF-8, over its size limit) still loads:
    read as Claude Code reads it (bad bytes as U+FFFD) and as `context` reads it (regular files, no
    NUL, at most the CLAUDE.md skip size), so `tokens` says what `context` says."""
    from ..model.memory_md import loaded_index

    text = _lossy(rec.abspath, rules_for("claude-code").value("project.max-bytes"))
    if text is None or not (rec.error or "").startswith(("not valid UTF-8", "file is too large")):
        return Startup(f"nothing: {rec.path} is not text Claude Code can read ({rec.error})", 0, None, label)
    from ..model.imports import store_file_import

    via = store_file_import(store, rec.path)
    why = f"read as Claude Code reads it (curator could not: {rec.error})"
    if via is not None:  # imported: loaded whole, no cap
        tokens = _count(store, text)
        return Startup(f"{rec.path}, whole: Claude Code imports it ({via}); {why}", tokens, None,
                       f"none: {via} imports {rec.path} whole (Claude Code)", [(rec.path, tokens)])
    if cap.get("strip"):
        shown, first = loaded_index(text, cap["lines"], cap["bytes"])
    else:
        first = fmts.claude_cap_of(text, cap)
        shown = text if first is None else "".join(text.splitlines(keepends=True)[: first - 1])
    tokens = _count(store, shown)
    cut = 0 if first is None else len(text.splitlines()) - first + 1
    what = f"{rec.path} as Claude Code's auto memory, {why}"
    return Startup(what, tokens, None, label, [(rec.path, tokens)], [], cut)


def _lossy(path, most: int) -> str | None:
    """The file as `context` reads it: a regular file (a link followed) of at most `most` bytes
    with no NUL in its head, decoded as UTF-8 with U+FFFD for bad bytes; None otherwise."""
    from pathlib import Path

    from ..base.safeio import UnsafeFile, read_small_file

    try:
        data = read_small_file(Path(path).resolve(), cap=most)
    except (OSError, UnsafeFile, RuntimeError):
        return None
    return None if b"\0" in data[:8192] else data.decode("utf-8", "replace")


def _serena_names(store: Store) -> Startup:
    """What activating the project puts in context: the memory names as Serena lists them, and
    the project's initial prompt with the memories it embeds (model/serena_activation.py)."""
    from ..model.serena_activation import activation
    from ..model.serena_listing import listed

    act = activation(store)
    n = len(listed(store))
    what = f"the names of {n} {'memory' if n == 1 else 'memories'} (list_memories)"
    if act.off:
        what = f"no memory names: .serena/project.yml takes Serena's memory tools away ({act.off})"
    names = _count(store, act.names) if act.names else 0
    if not act.prompt:
        return Startup(what, names, None, "no cap")
    times: dict[str, int] = {}
    for text, k in act.copies:  # a prompt that embeds one memory thousands of times: counted, not built
        times[text] = times.get(text, 0) + k
    prompt = _count(store, act.prompt) + sum(_count(store, t) * k for t, k in times.items())
    what += f" and the initial prompt of {act.prompt_file}"
    if act.embedded:
        what += ", which embeds " + ", ".join(act.embedded)
    return Startup(what, names + prompt, None, "no cap", [("../" + act.prompt_file.rsplit("/", 1)[-1], prompt)])


def _experience(store: Store) -> Startup:
    by_folder: dict[str, list] = {}
    for rec in store.memories():
        top = rec.path.split("/", 1)[0]
        by_folder.setdefault(top, []).append(rec)
    chosen = []
    for recs in by_folder.values():
        summaries = [r for r in recs if r.kind == "experience-summary"]
        entries = [r for r in recs if r.kind == "experience"]
        pool = sorted(summaries, key=lambda r: (r.date or "", r.path), reverse=True)
        pool += sorted(entries, key=lambda r: (r.date or "", r.path), reverse=True)
        chosen += pool[:LATEST_PER_FOLDER]
    chosen = chosen[:ACTIVE_SET]
    files = [(r.path, r.tokens or 0) for r in chosen]
    return Startup(
        f"the latest {LATEST_PER_FOLDER} per folder, summaries first (active set ≤ {ACTIVE_SET})",
        sum(t for _, t in files),
        None,
        f"{ACTIVE_SET} records",
        files,
    )
