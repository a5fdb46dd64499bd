"""A repository's memory systems: where each one lives and which format it is in.

`discover(path)` answers for a repository (or any folder): Serena `.serena/memories/`, Claude
Code memory (`.claude/memory/` in the repository and `~/.claude/projects/<slug>/memory/` for it,
`$CLAUDE_CONFIG_DIR` honoured), experience entries under `docs/`, Serena's global memories
(`~/.serena/memories/global/`, read-only) and the place the session transcripts are kept. A path
that is itself a memory folder is a workspace of that one source, as before.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..base.trust import Untrusted, confine
from ..base.worktree import main_checkout
from . import formats as fmts
from .auto_memory import auto_memory_place, claude_roots, claude_slug

SERENA, CLAUDE, EXPERIENCE, SESSIONS = "serena", "claude", "experience", "sessions"


@dataclass(frozen=True, slots=True)
class SourceSpec:
    kind: str  # serena | claude | experience | sessions
    root: Path  # the memory folder
    rel: str  # how it is shown: relative to the repository, or ~/… for the user's own folders
    origin: str = "repo"  # repo | user | global
    read_only: bool = False
    fmt: str | None = None  # the memory format (formats.py); None for sessions
    why: str = ""  # why it is read-only, when that is not plain (a store that resolves outside the repository)

    @property
    def name(self) -> str:
        return self.rel

    @property
    def label(self) -> str:
        fmt = fmts.adapter(self.fmt).label if self.fmt else "session transcripts"
        extra = " (read-only)" if self.read_only else ""
        return f"{fmt}{extra}"


@dataclass(frozen=True, slots=True)
class Layout:
    root: Path  # the repository (or the folder given)
    sources: tuple[SourceSpec, ...] = ()
    single: bool = False  # the path given was itself one memory folder
    notes: tuple[str, ...] = field(default=())

    def memory_sources(self) -> list[SourceSpec]:
        return [s for s in self.sources if s.kind != SESSIONS]


def _is_dir(p: Path) -> bool:
    try:
        return p.is_dir()
    except OSError:
        return False


def _has_md(p: Path) -> bool:
    try:
        return any(e.name.endswith(".md") for e in os.scandir(p))
    except OSError:
        return False


def looks_like_memory_folder(p: Path) -> bool:
    """A folder that is itself a store (given directly), not a repository holding stores."""
    name = p.name
    if name in ("memories", "memory") or name.endswith("-experience"):
        return True
    try:
        names = {e.name for e in os.scandir(p)}
    except OSError:
        return False
    if names & {"MEMORY.md", "memory-index.md", ".curator.yaml"}:
        return True
    if names & {".serena", ".claude", ".git"} or _repository_without_git(p, names):
        return False
    if _is_dir(p / "docs") and any(_is_dir(p / "docs" / f"{k}-experience") for k in ("error", "good")):
        return False
    return any(n.endswith(".md") for n in names)


# what an agent reads at a repository's top (live/instructions.TOP_FILES' first level)
AGENT_TOP = frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "AGENTS.override.md", "GEMINI.md",
                       ".cursorrules", ".windsurfrules", ".roorules", ".clinerules", ".cursor", ".kiro",
                       ".roo", ".devin", ".windsurf", "memory-bank"})
_NOT_BUILD = {".git", "README.md", "README", "README.rst", "CLAUDE.md", "AGENTS.md"}


def _repository_without_git(p: Path, names: set[str]) -> bool:
    """A checkout copied without `.git` (an export, a tarball): an agent's file at the top and
    beside it a build file, a source file, or no memory at all. A store that keeps a CLAUDE.md
    among its memories (only .md/.txt files and topic folders) stays a store."""
    if not names & AGENT_TOP:
        return False
    from .linkres import REPO_MARKERS, ROOT_FILES

    if names & (set(REPO_MARKERS) - _NOT_BUILD):
        return True
    memories = [n for n in names if n.endswith(".md") and n not in AGENT_TOP and n not in ROOT_FILES]
    files = [n for n in names if not n.startswith(".") and not n.endswith((".md", ".txt")) and not _is_dir(p / n)]
    return not memories or bool(files)


DEFAULT_PRECEDENCE = (SERENA, CLAUDE, EXPERIENCE)


@dataclass(frozen=True, slots=True)
class RepoSettings:
    """`sources:` in the repository's `.curator.yaml`: exclude found sources, add others, and the
    precedence that decides which copy of duplicated knowledge retrieval keeps."""

    exclude: tuple[str, ...] = ()
    add: tuple[tuple[str, str | None], ...] = ()  # (path relative to the repository, format)
    precedence: tuple[str, ...] = DEFAULT_PRECEDENCE
    notes: tuple[str, ...] = ()


def repository_settings(root: Path) -> RepoSettings:
    """Read `sources:` leniently: anything odd becomes a note, never an exception."""
    from ..base.safeio import UnsafeFile, read_small_file
    from ..base.safeyaml import Refused, load

    path = root / ".curator.yaml"
    try:
        data = load(read_small_file(path).decode("utf-8"))
    except (FileNotFoundError, UnsafeFile):  # absent, or a FIFO, device or link: never read
        return RepoSettings()
    except Refused as exc:
        return RepoSettings(notes=(f"{path}: cannot read sources settings ({exc.problem})",))
    except Exception as exc:  # noqa: BLE001 - YAML errors, odd tags, unreadable: one note
        return RepoSettings(notes=(f"{path}: cannot read sources settings ({type(exc).__name__})",))
    section = data.get("sources") if isinstance(data, dict) else None
    if not isinstance(section, dict):
        return RepoSettings()
    notes: list[str] = []

    def names(key: str) -> tuple[str, ...]:
        value = section.get(key) or []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            notes.append(f"sources.{key} must be a list")
            return ()
        return tuple(str(v).strip().rstrip("/") for v in value if str(v).strip())

    add: list[tuple[str, str | None]] = []
    for item in section.get("add") or []:
        if isinstance(item, str):
            add.append((item.rstrip("/"), None))
        elif isinstance(item, dict) and item.get("path"):
            fmt = item.get("format")
            add.append((str(item["path"]).rstrip("/"), str(fmt) if fmt in fmts.FORMATS else None))
        else:
            notes.append(f"sources.add: cannot use {item!r}")
    precedence = names("precedence") or DEFAULT_PRECEDENCE
    return RepoSettings(names("exclude"), tuple(add), precedence, tuple(notes))


def discover(path: Path | str, *, env: Mapping[str, str] | None = None, home: Path | None = None,
             user_sources: bool = True) -> Layout:
    """Every memory system in a repository, or the one folder given. Never raises."""
    environ = os.environ if env is None else env
    root = Path(path)
    if looks_like_memory_folder(root) and not _is_dir(root / ".serena") and not _is_dir(root / ".claude"):
        fmt = fmts.detect_format(root)
        kind = {fmts.CLAUDE: CLAUDE, fmts.EXPERIENCE: EXPERIENCE}.get(fmt, SERENA)
        return Layout(root, (SourceSpec(kind, root, ".", "repo", False, fmt),), single=True)
    found: list[SourceSpec] = []
    serena = root / ".serena" / "memories"
    if _is_dir(serena):
        found.append(SourceSpec(SERENA, serena, ".serena/memories", "repo", False, fmts.detect_format(serena)))
    claude = root / ".claude" / "memory"
    if _is_dir(claude):
        found.append(SourceSpec(CLAUDE, claude, ".claude/memory", "repo", False, fmts.CLAUDE))
    docs = root / "docs"
    if _is_dir(docs) and any(_is_dir(docs / f"{k}-experience") for k in ("error", "good")):
        found.append(SourceSpec(EXPERIENCE, docs, "docs", "repo", False, fmts.EXPERIENCE))
    if user_sources:
        found += [s for s in _user_sources(root, environ, home) if all(f.root.resolve() != s.root.resolve() for f in found)]
    settings = repository_settings(root)
    notes = list(settings.notes)
    for rel, named in settings.add:
        extra = (root / rel)
        try:
            confine(root, root, rel, "sources.add")  # a repository's config stays inside it
        except Untrusted as exc:
            notes.append(str(exc))
            continue
        if _is_dir(extra) and all(s.root != extra for s in found):
            fmt = named or fmts.detect_format(extra)
            kind = {fmts.CLAUDE: CLAUDE, fmts.EXPERIENCE: EXPERIENCE}.get(fmt, SERENA)
            found.append(SourceSpec(kind, extra, rel, "repo", False, fmt))
    if settings.exclude:
        found = [s for s in found if s.rel not in settings.exclude and s.kind not in settings.exclude]
    found = [_outside_read_only(s, root, notes) for s in found]
    return Layout(root, tuple(found), notes=tuple(notes))


def _outside_read_only(spec: SourceSpec, root: Path, notes: list[str]) -> SourceSpec:
    """A repository's memory folder that resolves outside it (a symbolic link out) is read-only
    unless the user names it: on the command line (the folder itself) or in their own settings
    (`writable_stores:` in curator's settings.yaml)."""
    from ..base.trust import outside_repository

    if spec.origin != "repo" or spec.read_only or not outside_repository(spec.root, root):
        return spec
    try:
        real = spec.root.resolve()
    except (OSError, RuntimeError):
        real = spec.root
    if str(real) in user_writable_stores():
        return spec
    why = (f"{spec.rel} resolves outside the repository (to {real}): curator does not write there unless you "
           f"name it — `curator COMMAND {real}`, or `writable_stores: [{real}]` in {_settings_name()}")
    notes.append(why)
    return SourceSpec(spec.kind, spec.root, spec.rel, spec.origin, True, spec.fmt, why)


def _settings_name() -> str:
    from ..base.locations import user_settings_file

    return str(user_settings_file())


def user_writable_stores() -> frozenset[str]:
    """Real paths of stores outside their repository the user lets curator write (their own
    settings file, `writable_stores:`)."""
    from ..base.locations import user_settings_file
    from ..base.safeio import UnsafeFile, read_small_file
    from ..base.safeyaml import load

    try:
        data = load(read_small_file(user_settings_file()).decode("utf-8"))
    except (OSError, UnsafeFile, UnicodeDecodeError, ValueError):
        return frozenset()
    except Exception:  # noqa: BLE001 - YAML errors, odd tags: the setting is not there
        return frozenset()
    stores = data.get("writable_stores") if isinstance(data, dict) else None
    if not isinstance(stores, list):
        return frozenset()
    out = set()
    for s in stores:
        if isinstance(s, str) and s.strip():
            try:
                out.add(str(Path(s.strip()).expanduser().resolve()))
            except (OSError, RuntimeError):
                continue
    return frozenset(out)


def repository_source_of(repo_path: str, settings: RepoSettings) -> tuple[str, str] | None:
    """(kind, folder) of the repository's own memory system holding a repo-relative file path,
    by discover's rules: the stores at the repository's top and those `sources.add` names, minus
    `sources.exclude`. A store deeper down (a fixture, a bundled sample, a vendored checkout) is
    not the repository's until `.curator.yaml` adds it, so review lists what the header counts."""
    for rel, fmt in settings.add:
        if repo_path.startswith(rel + "/"):
            kind = {fmts.CLAUDE: CLAUDE, fmts.EXPERIENCE: EXPERIENCE}.get(fmt or "", SERENA)
            return _unless_excluded(kind, rel, settings)
    for kind, pattern, rel in _TOP_SOURCES:
        if pattern.match(repo_path):
            return _unless_excluded(kind, rel, settings)
    return None


_TOP_SOURCES = (  # (kind, a file inside it, the folder discover loads)
    (SERENA, re.compile(r"^\.serena/memories/"), ".serena/memories"),
    (CLAUDE, re.compile(r"^\.claude/memory/"), ".claude/memory"),
    (EXPERIENCE, re.compile(r"^docs/(?:error|good)-experience/"), "docs"),  # one system, both folders
)


def _unless_excluded(kind: str, rel: str, settings: RepoSettings) -> tuple[str, str] | None:
    # discover's exclude names a source's shown folder or its kind
    if kind in settings.exclude or rel in settings.exclude:
        return None
    return kind, rel


def _user_sources(root: Path, env: Mapping[str, str], home: Path | None) -> list[SourceSpec]:
    out: list[SourceSpec] = []
    home = home or Path(env.get("HOME") or Path.home())
    try:
        absolute = root.resolve()
    except OSError:
        return out
    moved = auto_memory_place(absolute, env, home)
    if moved is not None and _is_dir(moved[0]) and _has_md(moved[0]):
        folder, shown, origin, read_only, why = moved
        out.append(SourceSpec(CLAUDE, folder, shown, origin, read_only, fmts.CLAUDE, why))
    slug = claude_slug(absolute)
    shared = claude_slug(main_checkout(absolute))  # since 2.1.63 a worktree's auto memory is its main checkout's
    for base in claude_roots(env, home):
        project = base / "projects" / slug
        mem = base / "projects" / shared / "memory"
        if _is_dir(mem) and _has_md(mem):
            out.append(SourceSpec(CLAUDE, mem, _shown(mem, home), "user", False, fmts.CLAUDE))
        if _is_dir(project) and _has_transcripts(project):
            out.append(SourceSpec(SESSIONS, project, _shown(project, home), "user", True, None))
    glob = home / ".serena" / "memories" / "global"
    if _is_dir(glob) and _has_md(glob):
        out.append(SourceSpec(SERENA, glob, _shown(glob, home), "global", True, fmts.SERENA))
    return out


def _has_transcripts(p: Path) -> bool:
    try:
        return any(e.name.endswith(".jsonl") for e in os.scandir(p))
    except OSError:
        return False


def _shown(p: Path, home: Path) -> str:
    try:
        return "~/" + str(p.relative_to(home))
    except ValueError:
        return str(p)
