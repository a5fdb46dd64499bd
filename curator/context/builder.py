"""What every adapter shares while a model is built: the repository, findings, imports, caps."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..model.findings import Finding, Fix, Reimport
from ..model.imports import MAX_HOPS  # Claude Code and Gemini CLI follow imports this deep
from .check_pages import SEVERITY
from .fs import Problem, RepoFS, Text
from .model import AgentContext, Cut, Loaded, Unseen
from .parse import Ref


@dataclass(slots=True)
class Builder:
    fs: RepoFS
    env: dict
    home: str
    only: set[str] | None = None  # check ids wanted (None: all)
    counter: object = None  # the project's token counter (curator.base.tokens)
    findings: list[Finding] = field(default_factory=list)
    _seen: set = field(default_factory=set)
    _renames: dict | None = None

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

    @property
    def ci(self) -> bool:
        return bool(self.env.get("CI", "").strip())

    def text(self, rel: str) -> Text | None:
        """The file's text, or None with its one finding (unreadable, symlink leaving the repo)."""
        got = self.fs.read(rel)
        if isinstance(got, Problem):
            self.problem(got)
            return None
        return got

    def problem(self, p: Problem) -> None:
        if p.kind == "missing":
            return
        check = "instructions.symlink-outside" if p.kind == "symlink-outside" else "instructions.unreadable"
        self.add(check, p.path, f"{p.message}; no agent reads it")

    def dead_globs(self, rel: str, key: str, globs: list[str], line: int | None = None) -> bool:
        """A finding when none of a rule's globs matches a file: the rule never loads."""
        from .fs import SKIP_DIRS
        from .parse import first_match

        if self.fs.truncated or not globs or any(part in SKIP_DIRS for g in globs for part in g.split("/")):
            return False
        if first_match(globs, self.fs.files) is not None:
            return False
        shown = ", ".join(globs[:4]) + (" ..." if len(globs) > 4 else "")
        self.add("instructions.dead-glob", rel, f"`{key}: {shown}` matches no file in the repository: "
                 "the rule never loads", line)
        return True

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
            f for f in self.fs.files if f.rsplit("/", 1)[-1] == name and f not in self.fs.links][:6]
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

    def expand(self, ctx: AgentContext, rel: str, why: str, refs_of, *, via: str | None = None, depth: int = 0,
               chain: tuple[str, ...] = (), loaded: set[str], hops: int = MAX_HOPS, agent_note: str = "") -> None:
        """Load `rel` into `ctx.startup` and, after it, what it imports (depth first, each file
        once, at most `hops` deep) — how Claude Code and Gemini CLI read imports."""
        t = self.text(rel)
        if t is None:
            return
        key = t.real
        if key in loaded:
            return
        loaded.add(key)
        ctx.startup.append(Loaded(rel, t.size, 0, why, via, None, t.text))
        chain = chain + (key,)
        for ref in refs_of(t.text):
            target, why_not = self.resolve(ref, rel)
            at = f"{rel}:{ref.line}"
            if why_not == "outside":
                if ref.pathlike:
                    self.add("instructions.import-outside", rel,
                             f"@{ref.path} is outside the repository: loads only after a one-time approval, "
                             f"never in `claude -p` or CI{agent_note}", ref.line, ref.path)
                    ctx.never.append(Unseen(ref.path, f"outside the repository (imported at {at}; needs approval)"))
                continue
            got = self.fs.read(target)
            if isinstance(got, Problem):
                if got.kind == "missing":
                    if ref.pathlike:
                        self.broken_import(rel, ref, target, f"@{ref.path}", f"({target} does not exist)"
                                           + self._from_root_hint(ref.path, rel))
                else:
                    self.problem(got)
                continue
            if got.real in chain:
                what = "imports itself" if got.real == key else f"@{ref.path} leads back to {got.real}, already being imported"
                self.add("instructions.import-cycle", rel, f"{what} (the agent stops there)", ref.line, target)
                continue
            if depth + 1 > hops:
                self.add("instructions.import-depth", rel,
                         f"@{ref.path} is {depth + 1} imports deep; the agent follows {hops}: it never loads", ref.line, target)
                ctx.never.append(Unseen(target, f"import deeper than {hops} hops (at {at})", got.size))
                continue
            self.expand(ctx, target, f"imported by {rel}", refs_of, via=at, depth=depth + 1, chain=chain,
                        loaded=loaded, hops=hops, agent_note=agent_note)


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


def cut_bytes(entry: Loaded, kept_bytes: int, reason: str) -> None:
    """Keep only the first `kept_bytes` bytes of `entry` (a character split is dropped)."""
    data = entry.text.encode("utf-8")[:kept_bytes]
    entry.text = data.decode("utf-8", "ignore")
    entry.cut = Cut(kept_bytes, reason)


def line_of(text: str, offset_chars: int) -> int:
    return text.count("\n", 0, offset_chars) + 1
