"""What every adapter shares while a model is built: the repository, findings, imports, caps."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from ..agents import RuleSet, rules_for
from ..base.tokens import TokenCounter
from ..model.findings import Finding, Fix, Reimport
from .check_pages import SEVERITY
from .fs import Problem, RepoFS, Text
from .model import AgentContext, Cut, ImportEdge, Loaded, OnDemand, Unseen
from .parse import Ref

CODE_EXT = frozenset("""py ts tsx js jsx mjs cjs java kt kts scala go rs c h cc cpp hpp cs fs vb rb php swift m mm
dart lua ex exs erl clj hs ml r jl sql vue svelte astro html htm css scss sass less sh bash zsh ps1 psm1 bat cmd pl
tf hcl proto gradle groovy""".split())


@dataclass(slots=True)
class Builder:
    fs: RepoFS
    env: dict
    home: str
    only: set[str] | None = None  # check ids wanted (None: all)
    counter: TokenCounter | None = None  # the project's token counter
    findings: list[Finding] = field(default_factory=list)
    rules: dict[str, RuleSet] = field(default_factory=dict)  # the version chosen per agent
    managed_dir: str | None = None  # where the managed settings are looked for (None: the OS's place)
    _seen: set = field(default_factory=set)
    _renames: dict | None = None
    _parts: dict = field(default_factory=dict)  # (key, globs, dead globs) -> [(file, line)]
    _code: bool | None = None
    _shared: dict = field(default_factory=dict)  # (check, path, line, message) -> the agents that would say it
    _once: dict = field(default_factory=dict)  # what one build reads once and asks twice (Claude Code's settings)

    def once(self, key: str, make):
        """`make()` the first time `key` is asked in this build, the same value after."""
        if key not in self._once:
            self._once[key] = make()
        return self._once[key]

    def add_for(self, agent: str, check: str, path: str, message: str, line: int | None = None) -> None:
        """A finding several agents may make of one file (a skill in a folder many read): said
        once, naming them all (`shared`)."""
        if self.only is None or check in self.only:
            self._shared.setdefault((check, path, line, message), []).append(agent)

    def shared(self) -> None:
        for (check, path, line, message), agents in self._shared.items():
            self.add(check, path, f"{', '.join(dict.fromkeys(agents))}: {message}", line)
        self._shared.clear()

    def rules_of(self, agent: str) -> RuleSet:
        """The agent's rules at the version chosen for this build (the newest known by default)."""
        got = self.rules.get(agent)
        if got is None:
            got = self.rules[agent] = rules_for(agent)
        return got

    def add(self, check: str, path: str, message: str, line: int | None = None, target: str | None = None,
            suggestion: str | None = None, fix: Fix | None = None) -> None:
        """A finding, once (several agents read the same file)."""
        if self.only is not None and check not in self.only:
            return
        key = (check, path, line, message)
        if key in self._seen:
            return
        self._seen.add(key)
        self.findings.append(Finding(check, SEVERITY[check], path, message, line, target, suggestion, fix))

    def renames(self) -> dict[str, str]:
        """What git recorded as renamed in the repository (read on first ask: only a missing
        path needs it)."""
        if self._renames is None:
            from ..base.git import renames  # paths relative to the repository, read once per commit

            self._renames = renames(self.fs.root)
        return self._renames

    def real(self, rel: str) -> str:
        """The file `rel` is (through its links), or `rel` when it cannot be read."""
        return getattr(self.fs.read(rel), "real", rel)

    def loaded(self, entries) -> dict[str, str]:
        """{the real file: the path it was loaded under} of start-up entries (a file once)."""
        return {self.real(e.path): e.path for e in entries}

    @property
    def holds_code(self) -> bool:
        """Does the repository hold source files of its own (outside dot folders and scripts)? A
        kit of agent files (rules, skills, templates to copy into projects) holds none."""
        if self._code is None:
            self._code = any(f.rsplit(".", 1)[-1].lower() in CODE_EXT and not f.startswith(".")
                             and "/." not in f and f.split("/", 1)[0] not in ("scripts", "tools", "bin")
                             for f in self.fs.files)
        return self._code

    @property
    def ci(self) -> bool:
        return bool(self.env.get("CI", "").strip())

    def text(self, rel: str) -> Text | None:
        """The file's text, or None with its one finding (unreadable, symlink leaving the repo)."""
        got = self.fs.read(rel)
        if isinstance(got, Problem):
            self.problem(got)
            return None
        if got.bad is not None:
            self.add("instructions.unreadable", rel, f"not UTF-8 (byte {got.bad}): agents read it with � in place "
                     "of each byte that is not, and curator will not edit it")
        return got

    def problem(self, p: Problem) -> None:
        if p.kind == "missing":
            return
        check = "instructions.symlink-outside" if p.kind == "symlink-outside" else "instructions.unreadable"
        self.add(check, p.path, f"{p.message}; no agent reads it")

    def dead_globs(self, rel: str, key: str, globs: list[str], line: int | None = None,
                   outcome: str = "the rule never loads", parts: bool = True, read_as: list[str] | None = None,
                   ignore_case: bool = False, gitignore: bool = False) -> bool:
        """A finding when none of a rule's globs matches a file: the rule never loads (`parts`: an
        info also for the patterns of a live list that match nothing). `read_as`: the globs as the
        agent matches them, one for each written (Copilot reads `src/*.ts` as `**/src/*.ts`);
        `ignore_case`: the agent matches whatever the case (VS Code); `gitignore`: the globs are
        .gitignore lines in order (Claude Code's `paths:`), a `!` line taking back."""
        from .fs import SKIP_DIRS
        from .ignore_lines import first_file
        from .parse import first_match

        if self.fs.truncated or not globs or any(part in SKIP_DIRS for g in globs for part in g.split("/")):
            return False
        if not self.holds_code:
            return False  # a kit of agent files (no source of its own): its globs are for the projects it goes into
        found = first_file(globs, self.fs.files) if gitignore else first_match(read_as or globs, self.fs.files,
                                                                                ignore_case)
        if found is not None:
            if parts:
                self._dead_parts(rel, key, globs, line, read_as, ignore_case)
            return False
        shown = ", ".join(globs[:4]) + (" ..." if len(globs) > 4 else "")
        read = f" (read as {', '.join(read_as[:4])})" if read_as and read_as != globs else ""
        self.add("instructions.dead-glob", rel, f"`{key}: {shown}`{read} matches no file in the repository: {outcome}",
                 line)
        return True

    def _dead_parts(self, rel: str, key: str, globs: list[str], line: int | None,
                    read_as: list[str] | None = None, ignore_case: bool = False) -> None:
        """The globs of a live list that match nothing (an info: the list still loads the rule)."""
        from .parse import first_match

        if len(globs) < 2 or self.only is not None and "instructions.dead-glob-part" not in self.only:
            return
        reads = dict(zip(globs, read_as or globs, strict=True))
        dead = [g for g in dict.fromkeys(globs)
                if not g.startswith("!") and first_match([reads[g]], self.fs.files, ignore_case) is None]
        if dead:  # files copied from one template share a list: said once, for all of them (`dead_parts`)
            self._parts.setdefault((key, tuple(globs), tuple(dead)), []).append((rel, line))

    def dead_parts(self) -> None:
        """The findings of the dead parts met: one per glob list, on the first file holding it."""
        for (key, globs, dead), where in self._parts.items():
            (rel, line), others = where[0], [r for r, _ in where[1:]]
            shown = ", ".join(dead[:4]) + (f" and {len(dead) - 4} more" if len(dead) > 4 else "")
            also = ""
            if others:
                also = f"; the same list is in {len(others)} more file{'s' if len(others) > 1 else ''}: " + \
                       ", ".join(others[:3]) + (" ..." if len(others) > 3 else "")
            self.add("instructions.dead-glob-part", rel, f"`{key}:` {shown} match{'es' if len(dead) == 1 else ''} no "
                     f"file in the repository ({len(globs) - len(dead)} of its {len(globs)} patterns do){also}", line)
        self._parts.clear()

    # -- imports ------------------------------------------------------------------------

    def resolve(self, ref: Ref, importer: str) -> tuple[str | None, str | None]:
        """(repository-relative target, or None) and why not: 'outside' when it leaves the repo."""
        p = ref.path
        if p.startswith("~"):
            return None, "outside"
        if os.path.isabs(p):
            full = os.path.normpath(p)
            root = self.fs.root
            if full.startswith(root + os.sep):
                return full[len(root) + 1:].replace(os.sep, "/"), None
            return None, "outside"
        base = importer.rsplit("/", 1)[0] if "/" in importer else ""
        rel = os.path.normpath(os.path.join(base, p)).replace(os.sep, "/")
        if rel == ".." or rel.startswith("../"):
            return None, "outside"
        return rel, None

    def broken_import(self, rel: str, ref: Ref, target: str, written: str, why: str, from_root: bool = False) -> None:
        """The finding of an import to nothing, with its fix when exactly one file of that name
        is in the repository (none or several: the candidates are named, the fix is by hand)."""
        name = target.rsplit("/", 1)[-1]
        rooted = "; " in why and ref.path in self.fs.fileset  # written from the root (`_from_root_hint` said so)
        cands = [ref.path] if rooted else [
            f for f in self.fs.named(name) if f not in self.fs.links][:6]
        fix = None
        if len(cands) == 1 and cands[0] != rel and cands[0] not in self.fs.links:
            new_path = cands[0] if from_root else _hint_path(rel, cands[0])
            fix = Reimport(rel, ref.line, written, written.replace(ref.path, new_path, 1))
            why += "" if rooted else f"; the one {name} in the repository is {cands[0]}"
        elif len(cands) > 1:
            why += f"; candidates: {', '.join(cands[:5])}{' ...' if len(cands) > 5 else ''}"
        msg = f"{written} reaches no file" + (why if why.startswith(";") or not why else " " + why)
        self.add("instructions.import-broken", rel, msg, ref.line, target, cands[0] if len(cands) == 1 else None, fix)

    def _from_root_hint(self, path: str, importer: str) -> str:
        """When the path exists from the repository root: imports resolve from the importing file."""
        if "/" not in importer or path.startswith(("./", "../")):
            return ""
        if path in self.fs.fileset:
            return f"; {path} exists, but imports resolve from the importing file's folder: write @{_hint_path(importer, path)}"
        return ""

    def expand(self, ctx: AgentContext, rel: str, why: str, refs_of: Callable[[str], list[Ref]], *, loaded: set[str], hops: int,
               via: str | None = None, depth: int = 0, chain: tuple[str, ...] = (), agent_note: str = "",
               rule: str = "", import_rule: str = "", depth_rule: str = "", on_demand: OnDemand | None = None,
               report: bool = True) -> None:
        """Load `rel` and, after it, what it imports (depth first, each file once, at most `hops`
        deep) — how Claude Code and Gemini CLI read imports. At start-up by default; with
        `on_demand` (the nested file's own item, its trigger and globs) the file and its imports
        join `ctx.on_demand` instead. Every import is recorded in `ctx.imports` and a broken one is
        a finding on the importing file and line, nested or not (`report=False`: recorded only)."""
        walk = _ImportWalk(ctx, refs_of, loaded, hops, agent_note, import_rule, depth_rule, on_demand, report)
        self._load(walk, rel, why, via, depth, chain, rule)

    def _load(self, walk: _ImportWalk, rel: str, why: str, via: str | None, depth: int, chain: tuple[str, ...],
              rule: str) -> None:
        """One file of the import walk: loaded (once), then each of its imports followed."""
        t = self.text(rel)
        if t is None or t.real in walk.loaded:
            return
        walk.loaded.add(t.real)
        ctx, on_demand = walk.ctx, walk.on_demand
        if on_demand is None:
            ctx.startup.append(Loaded(rel, t.size, 0, why, via, None, t.text, rule))
        elif depth == 0:
            ctx.on_demand.append(on_demand)
        else:
            ctx.on_demand.append(OnDemand(rel, f"with {on_demand.path} (imported at {via})", 0, t.size,
                                          on_demand.trigger, on_demand.globs, text=t.text, rule=rule, via=via))
        chain = chain + (t.real,)
        for ref in walk.refs_of(t.text):
            got = self._follow(walk, rel, ref, t.real, depth, chain)
            if got is not None:
                self._load(walk, got, f"imported by {rel}", f"{rel}:{ref.line}", depth + 1, chain, walk.import_rule)

    def _follow(self, walk: _ImportWalk, rel: str, ref: Ref, key: str, depth: int, chain: tuple[str, ...]) -> str | None:
        """One import of `rel`, recorded in `ctx.imports` with its outcome (a broken one a finding
        unless the walk only records): the file to load next, or None (outside, missing,
        unreadable, a cycle, too deep)."""
        ctx, when, report = walk.ctx, walk.when, walk.report
        target, _outside = self.resolve(ref, rel)
        at = f"{rel}:{ref.line}"
        written = f"@{ref.path}"

        def record(state: str, to: str | None = target) -> None:
            ctx.imports.append(ImportEdge(rel, ref.line, written, to or "", state, when))

        if target is None:  # `resolve` gives no target exactly when the import leaves the repository
            if ref.pathlike:
                record("outside", "")
                if report:
                    self.add("instructions.import-outside", rel,
                             f"@{ref.path} is outside the repository: loads only after a one-time approval, "
                             f"never in `claude -p` or CI{walk.agent_note}", ref.line, ref.path)
                ctx.never.append(Unseen(ref.path, f"outside the repository (imported at {at}; needs approval)",
                                        rule=walk.import_rule))
            return None
        got = self.fs.read(target)
        if isinstance(got, Problem):
            if got.kind != "missing":
                record("unreadable")
                self.problem(got)
            elif ref.pathlike:
                record("missing")
                if report:
                    self.broken_import(rel, ref, target, written, f"({target} does not exist)"
                                       + self._from_root_hint(ref.path, rel))
            return None
        if got.real in chain:
            record("cycle")
            what = "imports itself" if got.real == key else f"@{ref.path} leads back to {got.real}, already being imported"
            if report:
                self.add("instructions.import-cycle", rel, f"{what} (the agent stops there)", ref.line, target)
            return None
        if depth + 1 > walk.hops:
            record("too-deep")
            if report:
                self.add("instructions.import-depth", rel, f"@{ref.path} is {depth + 1} imports deep; the agent "
                         f"follows {walk.hops}: it never loads", ref.line, target)
            ctx.never.append(Unseen(target, f"import deeper than {walk.hops} hops (at {at})", got.size, walk.depth_rule))
            return None
        record("loaded" if got.real not in walk.loaded else "already")
        return target


@dataclass(slots=True)
class _ImportWalk:
    """What every step of one `Builder.expand` shares: the agent's context, how imports are
    read, the files loaded so far, the bounds and rules, and where the files go."""

    ctx: AgentContext
    refs_of: Callable[[str], list[Ref]]
    loaded: set[str]
    hops: int
    agent_note: str
    import_rule: str
    depth_rule: str
    on_demand: OnDemand | None
    report: bool

    @property
    def when(self) -> str:
        return "start-up" if self.on_demand is None else "on demand"


def _hint_path(importer: str, path: str) -> str:
    """`path` (repository-relative) as written from `importer`'s folder."""
    import posixpath

    return posixpath.relpath(path, posixpath.dirname(importer) or ".")


def cap_chars(entry: Loaded, limit: int, reason: str) -> int:
    """Cut `entry` to its first `limit` characters; the bytes cut off (0 when it fits)."""
    if len(entry.text) <= limit:
        return 0
    kept = entry.text[:limit]
    kept_bytes = len(kept.encode("utf-8"))
    entry.cut = Cut(kept_bytes, reason)
    entry.text = kept
    return entry.bytes - kept_bytes


def cut_bytes(entry: Loaded, kept_bytes: int, reason: str, raw: bytes | None = None) -> None:
    """Keep only the first `kept_bytes` bytes of `entry` (a character split is dropped). `raw`: the
    file's bytes when they are not UTF-8 — the agent cuts those, then reads U+FFFD for each bad one."""
    if raw is not None:
        entry.text = raw[:kept_bytes].decode("utf-8", "replace")
        entry.cut = Cut(kept_bytes, reason)
        return
    data = entry.text.encode("utf-8")[:kept_bytes]
    entry.text = data.decode("utf-8", "ignore")
    entry.cut = Cut(kept_bytes, reason)
