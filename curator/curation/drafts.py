"""Fixes drafted from a file's own text: a `MEMORY.md` line for an unlisted topic file, a
frontmatter block for a memory without one, the quoting that makes invalid frontmatter parse.

Nothing here invents silently: a line's title and hook come from the file's frontmatter (or its
heading), a drafted block is opt-in (`fix --check frontmatter.missing`) and shown as a diff."""

from __future__ import annotations

import posixpath
import re

from ..model.claude_index import inline_sections
from ..model.findings import Frontmatter, ListEntry, SplitIndex
from ..model.formats import CLAUDE_TYPES, claude_cap, claude_cap_of
from ..model.frontmatter import quoted_frontmatter
from ..model.store import Store
from .draft import Draft

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ENTRY = re.compile(r"^\s*[-*]\s+\[[^\]]*\]\([^)]+\)")
_SENTENCE = re.compile(r"(?<=[.!?])\s")


def draft_fix(store: Store, draft: Draft, fix: ListEntry | Frontmatter | SplitIndex) -> None:
    match fix:
        case SplitIndex(index=index):
            _split_index(store, draft, index)
        case ListEntry(path=path, index=index):
            _list_entry(store, draft, path, index)
        case Frontmatter(path=path, mode="quote"):
            for no, line in (quoted_frontmatter(draft.text(path)) or {}).items():
                draft.replace_line(path, no, line.rstrip("\r"))
        case Frontmatter(path=path, mode="draft"):
            _frontmatter_block(store, draft, path)


def _field(rec, key: str) -> str:
    fm = rec.frontmatter or {}
    meta = m if isinstance(m := fm.get("metadata"), dict) else {}
    value = fm.get(key) if fm.get(key) not in (None, "") else meta.get(key)
    return " ".join(str(value).split()) if value not in (None, "") else ""


def _humane(stem: str) -> str:
    words = re.sub(r"^(user|feedback|project|reference)[_-]", "", stem)
    return re.sub(r"[_-]+", " ", words).strip().capitalize() or stem


def entry_line(store: Store, path: str, index: str) -> str:
    """`- [Title](file.md) — hook`: the title from `name` (else the heading, else the file
    name), the hook from `description`; the link relative to the index's folder."""
    rec = store.records[path]
    title = _field(rec, "name") or (rec.title or "").strip() or _humane(path.rsplit("/", 1)[-1][:-3])
    hook = _field(rec, "description")
    link = posixpath.relpath(path, posixpath.dirname(index) or ".")
    title = title.replace("[", "(").replace("]", ")")
    return f"- [{title}]({link})" + (f" — {hook}" if hook else "")


def _section_end(lines: list[str], kind: str) -> int | None:
    """The line (1-based) after which an entry of type `kind` goes: the last entry of the
    section its type names (`## Feedback`), else the last entry of the file."""
    names = {kind, kind + "s"} if kind else set()
    section: int | None = None
    last_in: int | None = None
    last_any: int | None = None
    for no, line in enumerate(lines, 1):
        h = _HEADING.match(line)
        if h:
            words = set(re.findall(r"[a-z]+", h.group(2).lower()))
            section = no if names & words else None
            if section is not None and last_in is None:
                last_in = no
            continue
        if _ENTRY.match(line):
            last_any = no
            if section is not None:
                last_in = no
    return last_in or last_any


def _list_entry(store: Store, draft: Draft, path: str, index: str) -> None:
    if path not in store.records:
        return
    kind = _field(store.records[path], "type").lower()
    kind = kind if kind in CLAUDE_TYPES else ""
    line = entry_line(store, path, index)
    lines = draft.text(index).splitlines()
    if claude_cap_of(draft.text(index), claude_cap(store)) is not None:
        # a line past the cap is never seen: listing the file there only moves the finding
        # into budget.past-cap, so it is left unlisted until the index is shortened
        note = (f"unlisted files not listed: {index} is already past Claude Code's load cap, so a line added to it "
                "is never seen — shorten it first (budget.past-cap)")
        if note not in draft.notes:
            draft.notes.append(note)
        return
    after = _section_end(lines, kind)
    if after is None:
        draft.append_line(index, line)
        return
    current = draft.current_line(index, after)
    nl = "\r\n" if "\r\n" in draft.text(index) else "\n"
    draft.replace_line(index, after, (current or lines[after - 1]) + nl + line)


def _frontmatter_block(store: Store, draft: Draft, path: str) -> None:
    """A `name`/`description`/`type` block for a memory that has none (or the keys it lacks),
    drafted from its heading, first sentence and file-name prefix."""
    rec = store.records.get(path)
    if rec is None or rec.frontmatter_error:
        return
    stem = path.rsplit("/", 1)[-1][:-3]
    prefix = stem.split("_", 1)[0].split("-", 1)[0].lower()
    kind = prefix if prefix in CLAUDE_TYPES else "project"
    body = rec.body() if hasattr(rec, "body") else (rec.text or "")
    prose = " ".join(ln.strip() for ln in body.splitlines() if ln.strip() and not ln.lstrip().startswith(("#", "---", "```")))
    first = _SENTENCE.split(prose, 1)[0][:200].rstrip()
    values = {"name": (rec.title or "").strip() or _humane(stem), "description": first or _humane(stem), "type": kind}
    have = {k for k in values if _field(rec, k)}
    new = [f"{k}: {_yaml_scalar(v)}" for k, v in values.items() if k not in have]
    if not new:
        return
    text = draft.text(path)
    if rec.frontmatter:  # add the missing keys just before the closing fence
        close = next((i for i, ln in enumerate(text.splitlines()[1:], 2) if ln.strip() == "---"), None)
        if close is not None:
            draft.replace_line(path, close, "\n".join(new) + "\n---")
        return
    first_line = draft.current_line(path, 1) or ""
    draft.replace_line(path, 1, "\n".join(["---", *new, "---", first_line]))


def _yaml_scalar(value: str) -> str:
    """A value as a YAML scalar that reads back as the same string."""
    import yaml

    dumped = yaml.safe_dump(value, default_flow_style=True, width=10_000, allow_unicode=True).strip()
    return dumped.removesuffix("\n...").removesuffix("...").strip()


def _split_index(store: Store, draft: Draft, index: str) -> None:
    """The inline sections past the cap (then the largest others, until the index fits) each
    into a `reference_<title>.md` topic file, replaced by its line in the index."""
    text = draft.text(index)
    lines = text.splitlines()
    limits = claude_cap(store)
    cap = claude_cap_of(text, limits)
    if cap is None:
        return
    sections = inline_sections(text)
    order = [s for s in sections if s.end >= cap] + sorted((s for s in sections if s.end < cap),
                                                           key=lambda s: -len(s.body))
    folder = posixpath.dirname(index)
    taken = set(store.records)
    gone: dict[int, str | None] = {}
    for sec in order:
        if claude_cap_of("\n".join(kept for i, ln in enumerate(lines, 1) if (kept := gone.get(i, ln)) is not None),
                         limits) is None:
            break
        slug = re.sub(r"[^a-z0-9]+", "_", sec.title.lower()).strip("_")[:60] or "section"
        name, n = f"reference_{slug}.md", 2
        while posixpath.join(folder, name) in taken:
            name, n = f"reference_{slug}_{n}.md", n + 1
        path = posixpath.join(folder, name) if folder else name
        taken.add(path)
        first = next((ln.strip(" -*#>") for ln in sec.body if ln.strip()), sec.title)
        hook = re.sub(r"[`*_]", "", first)[:150].strip()
        draft.create(path, "---\n" f"name: {_yaml_scalar(sec.title)}\n" f"description: {_yaml_scalar(hook)}\n"
                     "type: reference\n---\n" f"# {sec.title}\n\n" + "\n".join(sec.body) + "\n")
        title = sec.title.replace("[", "(").replace("]", ")")
        gone[sec.start] = f"- [{title}]({name}) — {hook}"
        for i in range(sec.start + 1, sec.end + 1):
            gone[i] = None
    for no, line in gone.items():
        draft.replace_line(index, no, line)
    if gone:
        draft.notes.append(f"drafted {sum(1 for v in gone.values() if v)} topic file(s) from {index}'s inline sections: "
                           "read them before applying (type: reference; names from the headings)")
