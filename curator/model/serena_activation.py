"""What Serena puts in context when it activates a project (`get_project_activation_message`):
the memory names (serena_listing.py), then the project's `initial_prompt` (`.serena/project.yml`,
a key of `project.local.yml` overriding it), which since 1.7.0 is a template whose
`{{ embed_memory('NAME') }}` inlines a whole memory. Rules: curator/agents/serena.py.

Pure: it reads the two small YAML files beside the store and the memories the prompt embeds
(through safeio, never through a link out of the repository). Of the template it reads comments,
`embed_memory` and `-` trimming around it; other expressions and `{% %}` blocks are counted as
written (said in a note).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..agents import rules_for
from .serena_listing import is_project_folder, names_text, repository, serena_version
from .serena_patterns import project_config

__all__ = ["Activation", "activation", "names_text", "serena_version"]

EMBED = re.compile(r"(\s*)\{\{(-?)\s*embed_memory\(\s*(['\"])([^'\"\n]{0,300})\3\s*\)\s*(-?)\}\}(\s*)")
TOOL_NAME = re.compile(r"(\s*)\{\{(-?)\s*tool_names\[\s*(['\"])(\w{1,80})\3\s*\]\s*(-?)\}\}(\s*)")
COMMENT = re.compile(r"(\s*)\{#(-?).*?(-?)#\}(\s*)", re.S)
BODY_CAP = 8 << 20  # a memory embedded is read up to this size
MAX_PROMPT = 4_000_000  # characters built; copies past it are counted by multiplication


@dataclass(slots=True)
class Activation:
    names: str = ""  # the listing ("" with no memory)
    prompt: str = ""  # the initial prompt as it reaches the agent, embedded memories in it
    prompt_file: str = ""  # the file it is read from (`.serena/project.yml` or `.serena/project.local.yml`)
    copies: list[tuple[str, int]] = field(default_factory=list)  # (text, times) counted, not built (MAX_PROMPT)
    embedded: list[str] = field(default_factory=list)  # the memories it inlines, once each (names as written)
    unknown: list[str] = field(default_factory=list)  # names it embeds that Serena cannot load (it puts "")
    notes: list[str] = field(default_factory=list)  # a project file that cannot be read, template blocks
    off: str = ""  # why project.yml turns Serena's memory tools off ("" when it does not)


def activation(store) -> Activation:
    """The activation text of the Serena store `store` (`.serena/memories`)."""
    out = Activation(names=names_text(store))
    if not is_project_folder(store):
        return out
    prompt_of(store, Path(store.root).parent, out)
    if out.off:
        out.names = ""  # no memory tool, no listing (and no body the agent can read)
    return out


def prompt_of(store, serena_dir: Path, out: Activation, version: str | None = None) -> None:
    """The initial prompt of the project whose `.serena` folder is `serena_dir` (`store`: its
    memories, or None where the folder has none)."""
    rule = rules_for("serena", version if store is None else serena_version(store)).value("project.initial-prompt")
    config, origin = project_config(serena_dir, tuple(rule["files"]), out.notes)
    out.off = memories_off(config)
    prompt = config.get(rule["key"])
    if not isinstance(prompt, str) or not prompt:
        return
    out.prompt_file = origin.get(rule["key"], "")
    if not rule["template"]:
        out.prompt = f"\nProject-specific instructions:\n {prompt}"
        return
    if "{%" in prompt:
        out.notes.append("the initial prompt holds template blocks ({% %}): curator counts them as written")
    body = COMMENT.sub(_trimmed(""), prompt)
    built = [len(body)]
    bodies: dict[str, str | None] = {}  # a name embedded 20,000 times is resolved and read once

    def embed(m: re.Match) -> str:
        raw = m.group(4)
        if raw not in bodies:
            bodies[raw] = _embedded(store, raw, out)
        text = bodies[raw]
        wrapped = "" if text is None else f'<memory name="{m.group(4)}">\n{text.strip()}\n</memory>'
        if built[0] + len(wrapped) > MAX_PROMPT:
            out.copies.append((wrapped, 1))
            wrapped = ""
        built[0] += len(wrapped)
        return _trimmed(wrapped)(m, groups=(1, 2, 5, 6))

    body = TOOL_NAME.sub(lambda m: _trimmed(m.group(4))(m, groups=(1, 2, 5, 6)), body)  # a tool's own name
    body = EMBED.sub(embed, body)
    out.prompt = f"\n<project-instructions>\n{body.strip()}\n</project-instructions>"


def memories_off(config: dict) -> str:
    """Why the project's settings take Serena's memory tools away: `excluded_tools` naming
    `read_memory`, or the `no-memories` mode in `default_modes` / `added_modes` (a `--mode` given
    when the server starts is not seen here)."""
    rule = rules_for("serena").value("memories.off")
    tools = config.get(rule["tools"]) or []
    if isinstance(tools, list) and rule["tool"] in tools:
        return f"its {rule['tools']} name {rule['tool']}"
    for key in rule["modes"]:
        modes = config.get(key) or []
        if isinstance(modes, list) and rule["mode"] in modes:
            return f"its {key} include {rule['mode']}"
    return ""


def _trimmed(text: str):
    """A replacement that keeps the whitespace around a tag unless its `-` trims it (Jinja's
    `{{-` / `-}}`, `{#-` / `-#}`)."""

    def sub(m: re.Match, groups: tuple[int, int, int, int] = (1, 2, 3, 4)) -> str:
        before, left, right, after = (m.group(g) for g in groups)
        return ("" if left else before) + text + ("" if right else after)

    return sub


def _embedded(store, raw: str, out: Activation) -> str | None:
    """The body `load_memory(raw)` returns, as Serena resolves the name (`_sanitize_name`, no
    `..`, absolute or empty parts; `global/` from the user's global memories); None where it
    fails (Serena then puts "")."""
    name = raw.removeprefix("mem:")
    name = (name[:-3] if name.endswith(".md") else name).replace(os.sep, "/")
    parts = name.split("/")
    base: Path | None
    inside: Path | None
    patterns = getattr(store, "memory_patterns", None)
    if ".." in parts or os.path.isabs(name) or "" in parts or \
            (patterns is not None and patterns.is_ignored(name + ".md")):
        out.unknown.append(raw)
        return None
    if parts[0] == "global":
        home = os.environ.get("HOME", "")
        if len(parts) < 2 or not home or os.environ.get("CI", "").strip():
            out.unknown.append(raw)
            return None
        base, rel, inside = Path(home) / ".serena" / "memories" / "global", "/".join(parts[1:]) + ".md", None
    else:
        base, rel, inside = (Path(store.root) if store is not None else None), name + ".md", repository(store)
    if base is None:
        out.unknown.append(raw)
        return None
    rec = store.records.get(rel) if store is not None and base == Path(store.root) else None
    text = rec.text if rec is not None and rec.readable else _read(base / rel, inside, out, raw)
    if text is None:
        return None
    if raw not in out.embedded:
        out.embedded.append(raw)
    return text


def _read(path: Path, inside: Path | None, out: Activation, raw: str) -> str | None:
    from ..base.safeio import UnsafeFile, read_small_file

    try:
        real = path.resolve()
        return read_small_file(real, cap=BODY_CAP, inside=(inside,) if inside else ()).decode("utf-8", "replace")
    except FileNotFoundError:
        out.unknown.append(raw)
    except (OSError, RuntimeError, UnsafeFile) as exc:
        out.notes.append(f"the initial prompt embeds {raw!r}, which curator does not read ({exc}): not counted")
    return None
