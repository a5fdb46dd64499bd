"""What Serena puts in context when it activates a project (`get_project_activation_message`):
the memory names as JSON and a line saying how to read them, then the project's `initial_prompt`
(`.serena/project.yml`, a key of `project.local.yml` overriding it), in which since 1.7.0
`{{ embed_memory('NAME') }}` inlines a whole memory. Rules: curator/agents/serena.py.

Pure: it reads the two small YAML files beside the store (through safeio, never following a link
out of the repository) and the store's own records.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..agents import rules_for

PROMPT_FILE = "../project.yml"  # the initial prompt as a start-up file, by the store's own paths
READ_LINE = "Use `read_memory` to read these memories later if they are relevant to the task.\n"
# `{{ embed_memory('NAME') }}` (either quote); other template expressions are counted as written
EMBED = re.compile(r"\{\{-?\s*embed_memory\(\s*(['\"])([^'\"\n]{1,300})\1\s*\)\s*-?\}\}")


@dataclass(slots=True)
class Activation:
    names: str = ""  # the JSON line and the line after it ("" with no memory)
    prompt: str = ""  # the initial prompt as it reaches the agent, embedded memories in it
    prompt_file: str = ""  # the file it is read from (`.serena/project.yml` or `project.local.yml`)
    embedded: list[str] = field(default_factory=list)  # the memories it inlines (store paths)
    unknown: list[str] = field(default_factory=list)  # names it embeds that are no memory (Serena puts "")
    notes: list[str] = field(default_factory=list)  # a project file that cannot be read


def serena_version(store) -> str | None:
    from .auto_memory import agent_pinned

    return agent_pinned(store, "serena")


def names_text(store) -> str:
    """The listing as Serena writes it: `json.dumps({"memories": [...], "read_only_memories":
    [...]})` (the patterns' read-only ones apart), then the line telling the agent to read them."""
    patterns = getattr(store, "memory_patterns", None)
    plain: list[str] = []
    read_only: list[str] = []
    for path in listed(store):
        name = path[:-3] if path.endswith(".md") else path
        (read_only if patterns is not None and patterns.is_read_only(path) else plain).append(name)
    listing: dict[str, list[str]] = {}
    if plain:
        listing["memories"] = sorted(plain)
    if read_only:
        listing["read_only_memories"] = sorted(read_only)
    return f"{json.dumps(listing)}\n{READ_LINE}" if listing else ""


def listed(store) -> list[str]:
    """Every file Serena lists: each markdown file of the folder, an index or one curator could
    not read as well (not a folder `.curator.yaml` includes: Serena does not know it), and since
    1.6.0 those under a linked folder."""
    own = [p for p in store.records if not p.startswith("../")]
    if not rules_for("serena", serena_version(store)).value("memories.folder-links"):
        return own
    return own + [p for p in linked(store) if p not in store.records]


MAX_LINKED = 10_000  # names read through linked folders: a link to a huge tree is cut, never walked for ever


def linked(store) -> list[str]:
    """The markdown files Serena finds through linked folders in the store (`os.walk(followlinks=
    True)`), as store paths. curator reads none of them (a linked folder is not walked: loops,
    double counting, writes through a link); it lists their names, and only where the link stays
    in the repository, each real folder once."""

    def build() -> list[str]:
        from ..base.paths import is_within

        links, real_repo = repo_links(store)
        patterns = getattr(store, "memory_patterns", None)
        out: list[str] = []
        seen: set[str] = set()
        for link, target in links:
            for folder, dirs, files in os.walk(target, followlinks=True):
                real = os.path.realpath(folder)
                if real in seen or not is_within(Path(real), real_repo):
                    dirs[:] = []
                    continue
                seen.add(real)
                dirs.sort()
                rel = os.path.relpath(folder, target).replace(os.sep, "/")
                prefix = link if rel == "." else f"{link}/{rel}"
                for name in sorted(files):
                    path = f"{prefix}/{name}"
                    if name.endswith(".md") and not (patterns is not None and patterns.is_ignored(path)):
                        out.append(path)
                if len(out) >= MAX_LINKED:
                    return out[:MAX_LINKED]
        return out

    from .store import NAMES

    return store.view("serena-linked", build, reads={NAMES})


def repo_links(store) -> tuple[list[tuple[str, Path]], Path]:
    """The store's linked folders whose target stays in its repository (store path, real
    target), and the repository's real path."""
    from ..base.paths import is_within, store_repository

    root = Path(store.root)
    repo = store_repository(root, getattr(store, "repo_root", None), store.format)
    try:
        real_repo = Path(repo).resolve() if repo is not None else None
    except (OSError, RuntimeError):
        real_repo = None
    if real_repo is None:
        return [], Path("/nonexistent")
    out = []
    for link in _folder_links(root):
        try:
            target = (root / link).resolve(strict=True)
        except (OSError, RuntimeError):
            continue
        if is_within(target, real_repo):
            out.append((link, target))
    return out, real_repo


def say_linked(store) -> None:
    """The walk's finding on a linked folder, as it holds for the Serena version read: since
    1.6.0 Serena lists what is in it, and the start-up load counts those names."""
    from dataclasses import replace

    from .walk import FOLDER_LINK

    if not rules_for("serena", serena_version(store)).value("memories.folder-links"):
        return
    note = (f"{FOLDER_LINK}; Serena lists the memories in it (since 1.6.0): their names count in the start-up load "
            "where the link stays in the repository, their bodies are not read")
    # a linked folder elsewhere in the repository is how Serena shares memories: no error, a note in `context`
    shared = {link for link, _ in repo_links(store)[0]}
    store.load_findings[:] = [replace(f, message=note) if f.message == FOLDER_LINK else f
                              for f in store.load_findings
                              if not (f.check == "index.unsafe-target" and f.path in shared)]


def _folder_links(root: Path) -> list[str]:
    """The linked folders below `root` (by real folders only), as store paths."""
    out: list[str] = []
    stack = [""]
    while stack and len(out) < 1000:
        rel = stack.pop()
        try:
            entries = sorted(os.scandir(root / rel), key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            path = f"{rel}/{e.name}" if rel else e.name
            if e.name.startswith("."):
                continue
            if e.is_symlink():
                if os.path.isdir(e.path):
                    out.append(path)
            elif e.is_dir(follow_symlinks=False):
                stack.append(path)
    return out


def project_config(serena_dir: Path, files: tuple[str, ...], notes: list[str]) -> tuple[dict, dict[str, str]]:
    """`project.yml` with `project.local.yml`'s keys laid over it (Serena's `ProjectConfig.load`),
    and the file each key came from."""
    merged: dict = {}
    origin: dict[str, str] = {}
    for shown in files:
        data = _yaml(serena_dir / Path(shown).name, shown, notes)
        merged.update(data)
        origin.update({str(k): shown for k in data})
    return merged, origin


def activation(store) -> Activation:
    """The activation text of the plain Serena store `store` (`.serena/memories`)."""
    out = Activation(names=names_text(store))
    root = Path(store.root)
    if root.name != "memories" or root.parent.name != ".serena":
        return out
    rule = rules_for("serena", serena_version(store)).value("project.initial-prompt")
    config, origin = project_config(root.parent, tuple(rule["files"]), out.notes)
    prompt = config.get(rule["key"])
    if not isinstance(prompt, str) or not prompt:
        return out
    out.prompt_file = origin.get(rule["key"], "")
    if not rule["template"]:
        out.prompt = f"\nProject-specific instructions:\n {prompt}"
        return out

    def embed(m: re.Match) -> str:
        rec = _memory(store, m.group(2))
        if rec is None:
            out.unknown.append(m.group(2))
            return ""
        out.embedded.append(rec.path)
        return f'<memory name="{m.group(2)}">\n{(rec.text or "").strip()}\n</memory>'

    body = EMBED.sub(embed, prompt)
    out.prompt = f"\n<project-instructions>\n{body.strip()}\n</project-instructions>"
    return out


def _memory(store, name: str):
    """The record `load_memory(name)` reads: `mem:` and `.md` taken off, as Serena's
    `_sanitize_name` does; a global memory is not this store's."""
    name = name.strip().removeprefix("mem:")
    name = name[:-3] if name.endswith(".md") else name
    return store.records.get(f"{name}.md")


def _yaml(path: Path, shown: str, notes: list[str]) -> dict:
    from ..base.safeio import read_small_file
    from ..base.safeyaml import load

    try:
        text = read_small_file(path).decode("utf-8", "replace")
    except FileNotFoundError:
        return {}
    except Exception as exc:  # noqa: BLE001 - an odd file: said, never fatal
        notes.append(f"{shown}: cannot be read ({exc})")
        return {}
    try:
        data = load(text)
    except Exception:  # noqa: BLE001 - not YAML, or aliases past the budget
        notes.append(f"{shown} is not valid YAML: its initial prompt is not counted")
        return {}
    return data if isinstance(data, dict) else {}
