"""Findings as text for people, JSON for machines, GitHub annotations and SARIF for CI."""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

from .. import __version__
from ..checks.registry import CHECKS
from ..model.findings import Finding, Severity
from ..model.store import Store

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


def render_text(console, store: Store, findings: list[Finding]) -> None:
    """Grouped by severity, then check; each finding as `path:line  message`."""
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    s = summary(store, findings)
    est = " (estimated)" if s["encoding"] == "estimate" else ""
    console.print(
        Text.assemble(
            ("curator check ", "bold"),
            (store.given, "bold underline"),
            f"  {s['files']} files · {s['records']} memories · {s['indexes']} indexes · "
            f"{s['tokens']:,} tokens{est}",
        )
    )
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
        console.print(
            Text.assemble(
                (f"{ICON[sev]} {check}", STYLE[sev]),
                (f"  {len(items)}", "bold"),
                (f"  {spec.text(config=getattr(store, 'config', None))}" if spec else "", "dim"),
            )
        )
        # The message beside its place when that leaves it a wide column (it wraps aligned under
        # itself); else on its own lines under the path, at full width: a narrow message column
        # is many short lines.
        group_w = min(width, max(len(_where(f)) for f in items))
        beside = console.width - 2 - group_w - 2 >= MIN_MESSAGE_COLUMN
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", width=group_w + 2, overflow="fold")
        grid.add_column(overflow="fold", max_width=max(10, console.width - group_w - 4))
        for f in items:
            msg = Text(f.message)
            if f.fix is not None:
                msg.append(f"  → {f.fix.description}", style="success")
            elif f.suggestion and f.suggestion not in f.message:
                msg.append(f"  → {f.suggestion}", style="success")
            if beside:
                grid.add_row(Text("  " + _where(f)), msg)
            elif 2 + len(_where(f)) + 2 + msg.cell_len <= console.width:  # fits on one line
                console.print(Text.assemble(("  " + _where(f), "bold"), "  ", msg), no_wrap=True)
            else:
                console.print(Text("  " + _where(f), style="bold"), overflow="fold")
                console.print(Padding(msg, (0, 0, 0, 6), expand=False))
        if beside:
            console.print(grid)
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
    out.append(f" from {checks} check{'s' if checks != 1 else ''}.")
    console.print(out)


def _where(f: Finding) -> str:
    return f"{f.path}:{f.line}" if f.line else f.path


def _join(store: Store, path: str) -> str:
    base = store.given.rstrip("/")
    return path if base in ("", ".") else f"{base}/{path}"


def repo_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding `.git` (a folder, or a file in a worktree)."""
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    return None


def _repo_path(store: Store, path: str, repo: Path | None) -> str:
    """A finding's file relative to the repository root (what CI annotations and code scanning
    expect, whatever the working folder); the store-given path outside a repository."""
    if repo is None:
        return _join(store, path)
    full = os.path.normpath(os.path.join(os.path.abspath(store.root), path))
    rel = os.path.relpath(full, repo)
    return _join(store, path) if rel.startswith("..") else Path(rel).as_posix()


def _repo_of(store: Store) -> Path | None:
    return repo_root(Path(os.path.abspath(store.root)))


def render_github(store: Store, findings: list[Finding]) -> str:
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    out = []
    repo = _repo_of(store)
    for f in findings:
        props = [f"file={_repo_path(store, f.path, repo)}"]
        if f.line:
            props.append(f"line={f.line}")
        props.append(f"title={f.check}")
        msg = f.message + (f" (suggestion: {f.suggestion})" if f.suggestion else "")
        msg = msg.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        out.append(f"::{level[f.severity]} {','.join(props)}::{msg}")
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
                "message": {"text": f.message},
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
