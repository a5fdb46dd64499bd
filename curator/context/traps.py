"""Claude Code's traps, found on the model it was built into:

- `instructions.agents-md-unread`: an AGENTS.md holding guidance of its own that never reaches
  Claude Code because a CLAUDE.md, `.claude/CLAUDE.md` or `CLAUDE.local.md` in the same folder
  counts instead (since 2.1.277 the fallback reads AGENTS.md only where none is found; before, it
  reads none) and imports nothing of it — a line that merely names it (`Follow AGENTS.md first`)
  is text, not an import. A personal CLAUDE.local.md does it for one developer alone.
- `instructions.redundant-import`: an `@import` of a file Claude Code loads at start-up anyway
  (a `.claude/rules` file without `paths:`, a root CLAUDE.md file).

Only what is certain is said: an AGENTS.md that is the same file (a link), a copy of what Claude
loads, or a pointer to a file Claude loads (both entries name one canonical file) is no trap; a
subfolder's AGENTS.md below a root CLAUDE.md alone is left to the model's notes (the docs do not
say that the root's file stops it).
"""

from __future__ import annotations

import posixpath
import re

from ..model.findings import AddImport, Unimport
from .builder import Builder
from .model import AgentContext
from .parse import glob_list, read_meta

NAME = "AGENTS.md"
SAME_SHARE = 0.6  # share of AGENTS.md's lines Claude already loads: a copy, not other guidance
MIN_OWN = 3  # lines of its own an AGENTS.md needs before it is "guidance Claude misses"
_PATHY = re.compile(r"(?:`([^`\s]+)`|\]\(([^)\s#]+)|@([^\s`]+))")


def check(b: Builder, ctx: AgentContext | None, links_as_text: frozenset[str] = frozenset()) -> None:
    """`links_as_text`: files that are links checked out as text (their own finding says why they
    name AGENTS.md without importing it)."""
    if ctx is None:
        return
    rules = b.rules_of("claude-code")
    mode = ctx.settings.get("instructionFiles", {}).get("value", "")
    if mode not in ("claude-md", "managed-only"):  # a setting that turns AGENTS.md off is the user's choice
        _unread(b, ctx, rules, links_as_text)
    _redundant(b, ctx, rules)


def _real(b: Builder, rel: str) -> str:
    return b.real(rel)


def _lines(text: str) -> set[str]:
    out = set()
    for line in text.splitlines():
        s = " ".join(line.strip().lower().split())
        if len(s) >= 4 and not re.fullmatch(r"[-#*>=`|_ ]+", s) and not s.startswith("#"):
            out.add(s)
    return out


# -- AGENTS.md that Claude Code never reads ------------------------------------------------

def _unread(b: Builder, ctx: AgentContext, rules, links_as_text: frozenset[str]) -> None:
    names = rules.value("project.files")
    startup = {_real(b, e.path): e for e in ctx.startup}
    later = {_real(b, o.path): o for o in ctx.on_demand}
    for rel in b.fs.files:
        if rel.rsplit("/", 1)[-1] != NAME or rel.startswith((".agents/", ".claude/")) or "/." in "/" + rel.rsplit("/", 1)[0]:
            continue
        folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
        real = _real(b, rel)
        if real in startup or folder and real in later and _covers(later[real], folder):
            continue  # Claude Code reads it where it applies (imported, linked, or by the fallback)
        t = b.text(rel)
        if t is None or not t.text.strip():
            continue
        prefix = folder + "/" if folder else ""
        silencers = [prefix + n for n in names if prefix + n in b.fs.fileset]
        if not silencers or any(s in links_as_text for s in silencers):
            continue  # a subfolder's AGENTS.md below a root CLAUDE.md only: not certain (a link read as text: said)
        loaded = [e for e in ctx.startup] if not folder else [o for o in ctx.on_demand if _covers(o, folder)]
        said = set().union(*(_lines(getattr(e, "text", "")) for e in loaded)) if loaded else set()
        own = _lines(t.text) - said
        mine = _lines(t.text)
        if not mine or len(own) < MIN_OWN or 1 - len(own) / len(mine) >= SAME_SHARE:
            continue  # a copy of what Claude reads (instructions.drifted-copy speaks of drift)
        entries = {_real(b, s) for s in silencers} | {_real(b, e.path) for e in loaded if e.path.rsplit("/", 1)[-1] in
                                                     {n.rsplit("/", 1)[-1] for n in names}}
        if _points_at_loaded(b, rel, t.text, {_real(b, e.path) for e in loaded} - entries):
            continue  # both entries name one canonical file Claude loads: a pointer for the other agents
        _report(b, ctx, rules, rel, folder, silencers, len(own), real in later)


def _covers(o, folder: str) -> bool:
    return any(g == folder + "/**" or folder.startswith(g[:-3] + "/") for g in o.globs if g.endswith("/**"))


def _points_at_loaded(b: Builder, rel: str, text: str, loaded: set[str]) -> bool:
    """AGENTS.md names (by path, link or @) a file Claude Code loads at the same moment."""
    base = rel.rsplit("/", 1)[0] if "/" in rel else ""
    for line in text.splitlines():
        for m in _PATHY.finditer(line):
            p = next(g for g in m.groups() if g).rstrip(".,:;)")
            for start in (base, ""):
                cand = posixpath.normpath(posixpath.join(start, p.lstrip("./") if p.startswith("./") else p))
                if cand in b.fs.fileset and _real(b, cand) in loaded and cand.rsplit("/", 1)[-1] not in (NAME,):
                    return True
    return False


def _report(b: Builder, ctx: AgentContext, rules, rel: str, folder: str, silencers: list[str], own: int,
            later: bool) -> None:
    committed = [s for s in silencers if not s.endswith("CLAUDE.local.md")]
    at = committed[0] if committed else silencers[0]
    pointer = _pointer_line(b, at, rel)
    new = "@" + posixpath.relpath(rel, posixpath.dirname(at) or ".")
    since = rules.has("agents-md.fallback")
    where = "" if not folder else f" for files under {folder}/"
    if not since:
        why = f"Claude Code {rules.version} reads no AGENTS.md unless a loaded file imports it"
    elif committed:
        why = f"{at} counts here, so Claude Code reads it instead of {rel}{where}"
    else:
        why = (f"{at} is your own (not committed): it turns AGENTS.md off for you alone — your Claude Code reads it "
               f"instead of {rel}{where}, your teammates' reads {rel}")
    extra = " (it reaches Claude only with the subfolders' CLAUDE.md files that import it)" if later else ""
    if pointer is not None:
        no, text = pointer
        msg = (f"names {rel} ({_shown(text)}) but that is text, not an import: {why}, and the "
               f"{own} lines of guidance only {rel} holds never reach it{extra} — write {new}")
        line = no
    else:
        msg = f"{why}; {rel} holds {own} lines of guidance Claude never gets{extra} — import it with {new}"
        line = None
    fix = AddImport(at, pointer[0] if pointer else 0, new) if at not in b.fs.links else None
    b.add("instructions.agents-md-unread", at, msg, line, rel, None, fix)


def _shown(line: str) -> str:
    s = " ".join(line.split())
    return repr(s if len(s) <= 60 else s[:57] + "...")


def _pointer_line(b: Builder, at: str, target: str) -> tuple[int, str] | None:
    """The first line of `at` that names the AGENTS.md file without importing it."""
    t = b.fs.read(at)
    if not hasattr(t, "text"):
        return None
    rel_name = posixpath.relpath(target, posixpath.dirname(at) or ".")
    names = {rel_name, "/" + target, target}
    pat = re.compile(r"(?<![\w@./-])(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
                     + r")(?![\w-])")
    for no, line in enumerate(t.text.splitlines(), 1):
        if pat.search(line):
            return no, line
    return None


# -- imports of files that load anyway -------------------------------------------------------

def _redundant(b: Builder, ctx: AgentContext, rules) -> None:
    anyway = _loads_anyway(b, ctx, rules)
    if not anyway:
        return
    for edge in ctx.imports:
        if edge.status not in ("loaded", "already") or edge.target not in anyway or edge.importer == edge.target:
            continue
        fix = Unimport(edge.importer, edge.line, edge.written) if edge.importer not in b.fs.links else None
        b.add("instructions.redundant-import", edge.importer,
              f"{edge.written}: {anyway[edge.target]}, so Claude Code loads it at every start-up anyway — the "
              "import adds nothing but a second place to keep in step", edge.line, edge.target, None, fix)


def _loads_anyway(b: Builder, ctx: AgentContext, rules) -> dict[str, str]:
    """Files Claude Code loads at start-up by their own rule, with why."""
    mode = ctx.settings.get("instructionFiles", {}).get("value", "")
    if mode == "managed-only":
        return {}
    out = {rel: f"{rel} is a start-up file itself" for rel in rules.value("project.files") if rel in b.fs.fileset}
    if rules.has("rules.folder"):
        folder, key = rules.value("rules.folder"), rules.value("rules.paths")
        for rel in b.fs.under(folder):
            if not rel.endswith(".md"):
                continue
            t = b.fs.read(rel)
            if not hasattr(t, "text"):
                continue
            meta = read_meta(t.text)
            if meta.lenient or meta.error or not glob_list(meta.data.get(key)):
                out[rel] = f"{rel} is a rule without `{key}:`"
    excluded = {u.path for u in ctx.never if "claudeMdExcludes" in u.reason}
    return {k: v for k, v in out.items() if k not in excluded}
