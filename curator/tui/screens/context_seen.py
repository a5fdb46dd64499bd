"""The Context view's file table: every file of the agent (start-up, listed, on demand, never) with
what the agent's own sessions show of it — "seen in N sessions, last …", "never seen", a ✖ when a
session contradicted the model — and the line under it for the highlighted file. Claude Code's
sessions only: another agent's files say nothing either way."""

from __future__ import annotations

from rich.text import Text

from ..widgets.budget_bar import compact

SHORT = {"start-up": "start", "listed": "listed", "on demand": "demand", "never": "never"}  # the table's column


def files_of(ctx) -> list[tuple[str, str, int]]:
    """(path, when, tokens) of every file the model places, each once (a skill's listing line and
    its body are one row: listed)."""
    out: list[tuple[str, str, int]] = []
    seen: set[str] = set()
    for e in ctx.startup:
        listed = e.cut is not None and "listed" in e.cut.reason
        if e.path not in seen:
            seen.add(e.path)
            out.append((e.path, "listed" if listed else "start-up", e.tokens))
    for o in ctx.on_demand:
        if o.path not in seen:
            seen.add(o.path)
            out.append((o.path, "on demand", o.tokens))
    for u in ctx.never:
        if u.path not in seen and not u.path.startswith(("~", "/")):
            seen.add(u.path)
            out.append((u.path, "never", 0))
    return out


def state_of(app) -> str:
    """ready (the sessions held against the model) | indexing | none (no session found) |
    unrecorded (every session predates the records)."""
    svc, proof = getattr(app, "transcripts", None), getattr(app, "proof", None)
    if proof is not None:
        if not proof.checks:
            return "none"
        return "ready" if any(c.prediction is not None or c.attachments for c in proof.checks) else "unrecorded"
    if svc is None or not svc.indexed:
        return "indexing"
    return "none" if not svc.sessions else "indexing"


def seen_cell(ctx, proof, state: str, path: str) -> Text:
    if ctx.agent != "claude-code":
        return Text("")
    if state == "indexing":
        return Text("…", style="dim")
    if state in ("none", "unrecorded"):
        return Text("no sessions" if state == "none" else "no records", style="dim")
    fs = proof.seen(path)
    text = Text()
    if fs.mismatches:
        text.append("✖ ", style="bold error")
    if fs.count:
        text.append(f"{fs.count} · {fs.last[5:10]}")  # seen in N sessions · the last one's day
    else:
        text.append("never seen", style="dim" if not fs.mismatches else "")
    return text


def seen_detail(ctx, proof, state: str, path: str, when: str) -> Text:
    """The highlighted file: its sessions, the last one, the mismatches (the newest two)."""
    out = Text(path, style="bold")
    if ctx.agent != "claude-code":
        return out.append(f"  {when}", style="dim")
    if state != "ready":
        said = {"indexing": "still being read…", "none": "none found",
                "unrecorded": "none records what it loads (Claude Code before 2.1.276)"}[state]
        return out.append(f"  sessions: {said}", style="dim")
    fs = proof.seen(path)
    if fs.count:
        out.append(f"  seen in {fs.count} session{'s' if fs.count != 1 else ''}, last "
                   f"{fs.last[:16].replace('T', ' ')}", style="")
        out.append(" · Enter: those sessions", style="dim")
    else:
        out.append("  never seen in a session that records what it loads", style="dim")
    for c, row in fs.mismatches[:1]:  # the newest: the line has room for one
        predicted = row.predicted.split(" (", 1)[0]
        out.append(f"\n✖ {c.evidence.started[5:10]} Claude Code {c.evidence.version}: {row.detail}; "
                   f"{row.rule or 'curator'} predicted {predicted}", style="warning")
    if len(fs.mismatches) > 1:
        out.append(f" (+{len(fs.mismatches) - 1}: `curator context --verify`)", style="dim")
    return out


def tokens_cell(tokens: int) -> Text:
    return Text(compact(tokens) if tokens else "", justify="right")
