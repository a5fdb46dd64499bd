"""Findings as text for people, JSON for machines, GitHub annotations and SARIF for CI."""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

from .. import __version__
from ..base.paths import git_root
from ..checks.registry import CHECKS
from ..model.findings import Finding, Severity
from ..model.hints import hint
from ..model.store import Store
from .fitting import middle_cut

STYLE = {Severity.ERROR: "bold error", Severity.WARNING: "warning", Severity.INFO: "info"}
ICON = {Severity.ERROR: "✖", Severity.WARNING: "▲", Severity.INFO: "●"}


def summary(store: Store, findings: list[Finding]) -> dict:
    return {
        "files": len(store.records),
        "records": sum(1 for r in store.records.values() if r.level == 2),
        "indexes": sum(1 for r in store.records.values() if r.level < 2),
        "tokens": store.total_tokens,
        "encoding": "estimate" if store.encoding == "estimate" else "cl100k_base",
        "errors": sum(1 for f in findings if f.severity == Severity.ERROR),
        "warnings": sum(1 for f in findings if f.severity == Severity.WARNING),
        "infos": sum(1 for f in findings if f.severity == Severity.INFO),
    }


def render_json(store: Store, findings: list[Finding]) -> dict:
    return {
        "version": 1,
        "store": store.given,
        "summary": summary(store, findings),
        "findings": [f.to_json() for f in findings],
    }


MIN_MESSAGE_COLUMN = 44  # narrower than this, a message goes under its path instead


def print_indented(console, text, indent: int) -> None:
    """`text` wrapped at word boundaries to the console's width less `indent`, each line
    indented and never padded with trailing spaces."""
    from rich.text import Text

    for line in text.wrap(console, max(20, console.width - indent)):
        line.rstrip()
        console.print(Text(" " * indent) + line, no_wrap=True, crop=False)


def print_hanging(console, head, body, limit: int = 0) -> None:
    """`head` then `body` wrapped between words beside it, its further lines indented to where
    the body began (a transcript turn: time, role and id, then its words); `limit`: at most that
    many characters of the body, cut at a word with an ellipsis."""
    from rich.text import Text

    if limit and body.cell_len > limit:
        cut = body.plain.rfind(" ", 0, limit)
        body = body[: cut if cut > limit // 2 else limit] + Text("…")
    indent = head.cell_len
    if indent > console.width // 2:  # a long head: the body goes under it
        print_indented(console, head, 0)
        print_indented(console, body, 4)
        return
    room = max(20, console.width - indent)
    if any(len(w) > room for w in body.plain.split()):  # a path longer than the line: cut in its middle

        body = Text(" ".join(middle_cut(w, room) for w in body.plain.split()), style=body.style)
    lines = body.wrap(console, room) if body.plain else [Text()]
    for i, line in enumerate(lines):
        line.rstrip()
        console.print((head if i == 0 else Text(" " * indent)) + line, no_wrap=True, crop=False)


def print_phrases(console, phrases, indent: int, sep: str = " · ", head=None) -> None:
    """Phrases (Texts or strs) joined by `sep`, wrapped between phrases only (never a number away
    from its word), each line indented — the first after `head` when given (a change's mark);
    a phrase longer than a line is wrapped between words, a path in it cut in its middle."""
    from rich.text import Text


    room = max(20, console.width - indent)
    lines: list[Text] = []
    line = Text()
    for phrase in (Text(p) if isinstance(p, str) else p for p in phrases):
        if not phrase.plain:
            continue
        if any(len(w) > room for w in phrase.plain.split()):  # a path longer than a line: its middle goes
            phrase = Text(" ".join(middle_cut(w, room) for w in phrase.plain.split()), style=phrase.style)
        if line.cell_len and line.cell_len + len(sep) + phrase.cell_len > room:
            lines.append(line)
            line = Text()
        if line.cell_len:
            line.append(sep)
        line.append_text(phrase)
    if line.cell_len:
        lines.append(line)
    for i, line in enumerate(lines):
        for j, part in enumerate(line.wrap(console, room) if line.cell_len > room else [line]):
            part.rstrip()
            lead = head if head is not None and i == 0 and j == 0 else Text(" " * indent)
            console.print(lead + part, no_wrap=True, crop=False)


def plural(n: int, word: str, words: str | None = None) -> str:
    """`1 index`, `2 indexes`: a count with its noun agreeing."""
    return f"{n:,} {word if n == 1 else words or word + 's'}"


def render_text(console, store: Store, findings: list[Finding], ran: int | None = None) -> None:
    """Grouped by severity, then check; each finding as `path:line  message`; `ran` is how many
    checks ran (the summary says how many of them found something)."""
    from rich.text import Text

    s = summary(store, findings)
    est = " (estimated)" if s["encoding"] == "estimate" else ""
    from .escape import visible

    head = Text.assemble(("curator check ", "bold"), (visible(store.given), "bold underline"))
    facts = Text(f"{plural(s['files'], 'file')} · {plural(s['records'], 'memory', 'memories')} · "
                 f"{plural(s['indexes'], 'index', 'indexes')} · {plural(s['tokens'], 'token')}{est}")
    if head.cell_len + 2 + facts.cell_len <= console.width:
        console.print(head + Text("  ") + facts, no_wrap=True)
    else:  # the totals on their own line: never cut between a number and its noun
        if head.cell_len > console.width:  # a long path on a line of its own, folded, no padded break
            console.print(Text("curator check", style="bold"))
            head = Text(visible(str(store.given)), style="bold underline")
        console.print(head, overflow="fold")
        console.print(Text("  ") + facts, no_wrap=True, overflow="ellipsis")
    if not findings:
        console.print(Text("✔ no findings", style="bold success"))
        return
    groups: dict[tuple[Severity, str], list[Finding]] = defaultdict(list)
    for f in findings:
        groups[(f.severity, f.check)].append(f)
    width = max(len(_where(f)) for f in findings)
    width = min(width, 48)
    for (sev, check), items in sorted(groups.items(), key=lambda kv: (-kv[0][0], kv[0][1])):
        spec = CHECKS.get(check)
        console.print()
        head = Text.assemble((f"{ICON[sev]} {check}", STYLE[sev]), (f"  {len(items)}", "bold"))
        about = Text(spec.text(config=getattr(store, "config", None)) if spec else "", style="dim")
        if head.cell_len + 2 + about.cell_len <= console.width:
            console.print(head + Text("  ") + about, no_wrap=True)
        else:  # the summary whole under its check id, never cut mid-phrase on the id's line
            console.print(head, no_wrap=True)
            print_indented(console, about, 4)
        # The message beside its place when that leaves it a wide column (it wraps aligned under
        # itself); else on its own lines under the path, at full width: a narrow message column
        # is many short lines.
        group_w = min(width, max(len(_where(f)) for f in items))
        beside = console.width - 2 - group_w - 2 >= MIN_MESSAGE_COLUMN
        _print_items(console, items, group_w, beside)
        how = _how_to_fix(store, items)
        if how is not None:  # the command whole, wrapped beside "fix: $"
            print_hanging(console, Text("  fix: $ ", style="dim"), how)
    console.print()
    parts = []
    for sev, key, word in (
        (Severity.ERROR, "errors", "error"),
        (Severity.WARNING, "warnings", "warning"),
        (Severity.INFO, "infos", "info"),
    ):
        n = s[key]
        parts.append((f"{n} {word}{'' if n == 1 else 's'}", STYLE[sev] if n else "dim"))
    checks = len({f.check for f in findings})
    out = Text("Found ")
    for i, (txt, style) in enumerate(parts):
        if i:
            out.append(", ")
        out.append(txt, style=style)
    of = f" of the {ran} run" if ran is not None and ran > checks else ""
    out.append(f" from {plural(checks, 'check')}{of}.")
    console.print(out)


GROUP_FROM = 3  # findings of one check naming one target: one entry, its places listed


def _grouped(items: list[Finding]) -> tuple[dict[str, list[Finding]], list[Finding]]:
    """({target: findings} of targets named by GROUP_FROM or more, the other findings): 34 links
    to one missing file read as one entry with its 34 places, not 34 entries (skogai)."""
    by: dict[str, list[Finding]] = defaultdict(list)
    for f in items:
        if f.target:
            by[f.target].append(f)
    groups = {t: fs for t, fs in by.items() if len(fs) >= GROUP_FROM}
    return groups, [f for f in items if not (f.target and f.target in groups)]


def _print_items(console, items: list[Finding], group_w: int, beside: bool) -> None:
    """Each finding as `path:line  message`, the message beside its place or under it; findings
    naming one target GROUP_FROM times or more as one entry (`--format json` keeps each)."""
    from rich.text import Text

    from .escape import visible

    groups, rest = _grouped(items)
    for target, fs in groups.items():
        head = Text(visible(target), style="bold")
        head.append(f"  in {len(fs)} places, the first: ")
        head.append(visible(fs[0].message))
        print_indented(console, head, 2)
        places = [Text(_where(f), style="dim") for f in fs[:12]]
        if len(fs) > 12:
            places.append(Text(f"… {len(fs) - 12} more (--format json lists each)", style="dim"))
        print_phrases(console, places, 6, sep=", ")
    for f in rest:
        msg = Text(visible(f.message))
        if f.fix is not None:
            msg.append(f"  → {visible(f.fix.description)}", style="success")
        elif f.suggestion and f.suggestion not in f.message:
            msg.append(f"  → {visible(f.suggestion)}", style="success")
        if beside:  # the message wraps aligned under itself, no line padded
            lines = msg.wrap(console, max(10, console.width - group_w - 4))
            if len(_where(f)) > group_w:  # a path wider than the column: alone on its line, so
                # it neither runs into the message nor pushes the message past the edge
                console.print(Text("  " + _where(f), style="bold"), overflow="fold")
                where = Text(" " * (group_w + 4))
            else:
                where = Text(f"  {_where(f)}".ljust(group_w + 4), style="bold")
            for i, line in enumerate(lines):
                line.rstrip()
                console.print((where if i == 0 else Text(" " * (group_w + 4))) + line, no_wrap=True, crop=False)
        elif 2 + len(_where(f)) + 2 + msg.cell_len <= console.width:  # fits on one line
            console.print(Text.assemble(("  " + _where(f), "bold"), "  ", msg), no_wrap=True)
        else:
            console.print(Text("  " + _where(f), style="bold"), overflow="fold")
            print_indented(console, msg, 6)


def _how_to_fix(store: Store, items: list[Finding]):  # -> Text | None
    """One line under a check's findings: how to fix them (the command, or what to do by hand)."""
    from rich.text import Text

    fixable = [f for f in items if f.fix is not None]
    h = hint(fixable[0] if fixable else items[0], store.given)
    if not h.command:
        return None  # done by hand: the message says how
    out = Text()
    out.append(h.command, style="bold")
    if not fixable:
        out.append(f"  ({h.text})", style="dim")
    elif len(fixable) < len(items):
        out.append(f"  ({len(fixable)} of {len(items)} have a fix)", style="dim")
    return out


def _where(f: Finding) -> str:
    from .escape import visible

    return visible(f"{f.path}:{f.line}" if f.line else f.path)  # a repository's name, never a line of its own


def _join(store: Store, path: str) -> str:
    base = store.given.rstrip("/")
    return path if base in ("", ".") else f"{base}/{path}"


def _repo_path(store: Store, path: str, repo: Path | None) -> str:
    """A finding's file relative to the repository root (what CI annotations and code scanning
    expect, whatever the working folder); the store-given path outside a repository."""
    if repo is None:
        return _join(store, path)
    full = os.path.normpath(os.path.join(os.path.abspath(store.root), path))
    rel = os.path.relpath(full, repo)
    return _join(store, path) if rel.startswith("..") else Path(rel).as_posix()


def _repo_of(store: Store) -> Path | None:
    return git_root(Path(os.path.abspath(store.root)))


def render_github(store: Store, findings: list[Finding]) -> str:
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    out = []
    repo = _repo_of(store)
    from .escape import workflow_data, workflow_property

    for f in findings:  # escaped as workflow commands require: a newline in a name starts none
        props = [f"file={workflow_property(_repo_path(store, f.path, repo))}"]
        if f.line:
            props.append(f"line={f.line}")
        props.append(f"title={workflow_property(f.check)}")
        msg = f.message + (f" (suggestion: {f.suggestion})" if f.suggestion else "")
        out.append(f"::{level[f.severity]} {','.join(props)}::{workflow_data(msg)}")
    return "\n".join(out) + ("\n" if out else "")


def render_sarif(store: Store, findings: list[Finding]) -> dict:
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
    rule_ids = list(CHECKS)
    results = []
    repo = _repo_of(store)
    base = {"uriBaseId": "%SRCROOT%"} if repo is not None else {}
    for f in findings:
        loc: dict = {"artifactLocation": {"uri": _repo_path(store, f.path, repo), **base}}
        if f.line:
            loc["region"] = {"startLine": f.line}
        results.append(
            {
                "ruleId": f.check,
                "ruleIndex": rule_ids.index(f.check) if f.check in CHECKS else -1,
                "level": level[f.severity],
                "message": {"text": f"{f.message}\nFix: {hint(f).line()}"},
                "locations": [{"physicalLocation": loc}],
            }
        )
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "curator",
                        "version": __version__,
                        "rules": [
                            {
                                "id": c.id,
                                "shortDescription": {"text": c.text(config=getattr(store, "config", None))},
                                "fullDescription": {"text": c.text("why", getattr(store, "config", None))},
                                "defaultConfiguration": {"level": level[c.severity]},
                            }
                            for c in CHECKS.values()
                        ],
                    }
                },
                "results": results,
                **({"originalUriBaseIds": {"%SRCROOT%": {"uri": repo.as_uri() + "/"}}} if repo is not None else {}),
            }
        ],
    }
