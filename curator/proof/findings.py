"""Findings from the sessions' evidence (pages in transcripts/check_pages.py): a session that
contradicts the model, a skill or rule nobody used, a description the listing dropped, a `paths:`
rule that never attached although its files were read. One finding per file: the first session
that saw a contradiction is named (a change in the agent shows on the first session that meets it).
"""

from __future__ import annotations

from datetime import UTC, date, timedelta

from ..base.config import Thresholds
from ..model.findings import Finding
from ..transcripts.check_pages import SEVERITY
from .listing import BARE, Simulation, recorded_state
from .usage import Usage
from .verify import MATCHED, MISSING, NOT_ATTACHED, UNEXPECTED, Row, SessionCheck

EVIDENCE_SESSIONS = 2  # sessions that read a rule's files before "never attached" is said
CONTRADICTED, UNUSED, DROPPED, GLOB = ("sessions.model-contradicted", "sessions.unused-instructions",
                                       "sessions.listing-dropped", "sessions.glob-never-attached")


def _finding(check: str, path: str, message: str) -> Finding:
    return Finding(check, SEVERITY[check], path, message)


def _when(c: SessionCheck) -> str:
    ev = c.evidence
    return f"Claude Code {ev.version} (session {ev.session_id[:8]}, {ev.started[:10]})"


def contradicted(checks: list[SessionCheck]) -> list[Finding]:
    """One finding per file and rule a session contradicted, naming the first session that did.
    A `paths:` rule never attached anywhere is the glob check's; a file another session attached
    on demand is noise (loaded at start-up by a session run below it says nothing of attaching)."""
    attached_somewhere = {r.path for c in checks for r in c.rows if r.when == "on demand" and r.status == MATCHED}
    first: dict[tuple[str, str, str], tuple[SessionCheck, Row, int]] = {}
    for c in sorted(checks, key=lambda c: c.evidence.started):
        for row in c.mismatches:
            if row.status == NOT_ATTACHED and (row.path in attached_somewhere or _is_paths_rule(row.rule)):
                continue
            key = (row.path, row.rule, row.status)
            if key in first:
                first[key] = (first[key][0], first[key][1], first[key][2] + 1)
            else:
                first[key] = (c, row, 1)
    out = []
    for (path, rule, status), (c, row, n) in first.items():
        said = {MISSING: "did not load it at start-up", UNEXPECTED: f"loaded it {_as(row.when)}",
                NOT_ATTACHED: f"never attached it ({row.detail})"}[status]
        by = f"the rule {rule} predicted" if rule else "curator predicted"
        more = f"; {n} sessions so far" if n > 1 else ""
        note = f" [{c.prediction.notes[0]}]" if c.prediction is not None and c.prediction.newer_than_known else ""
        out.append(_finding(CONTRADICTED, path, f"{_when(c)} {said}; {by}: {row.predicted}{more}{note}"))
    return out


def _is_paths_rule(rule: str) -> bool:
    return "/rules.paths" in rule


def _as(when: str) -> str:
    return "at start-up" if when == "start-up" else "on demand"


def unused(usage: Usage, checks: list[SessionCheck], today: date, t: Thresholds, born: dict[str, float]) -> list[Finding]:
    """Skills, commands, subagents, `paths:` rules and nested files none of the last N sessions
    used (nor any in D days) — said only once N sessions that record their attachments exist;
    a file younger than those sessions is left alone (`born`: its first sign, a POSIX time)."""
    counted = sorted((c for c in checks if c.attachments), key=lambda c: c.evidence.started, reverse=True)
    if t.unused_sessions <= 0 or len(counted) < t.unused_sessions:
        return []
    window = counted[: t.unused_sessions]
    ids = {c.evidence.session_id for c in window}
    oldest = window[-1].evidence.started
    cutoff = (today - timedelta(days=t.unused_days)).isoformat() if t.unused_days else ""
    out = []
    for item in usage.items:
        if item.kind == "start-up" or item.sessions & ids or (cutoff and item.last >= cutoff):
            continue
        if _born_after(born.get(item.path), oldest):
            continue
        what = {"skill": "invoked it", "command": "invoked it", "subagent": "started it"}.get(item.kind, "attached it")
        last = f"last {item.last[:10]}" if item.last else "never in any session"
        cost = f"; its listing line cost {item.cost:,} tokens" if item.cost and item.kind in ("skill", "command") else ""
        days = f" (nor any in {t.unused_days} days)" if t.unused_days else ""
        out.append(_finding(UNUSED, item.path, f"none of the last {len(window)} sessions {what}{days}: {last}{cost}"))
    return out


def _born_after(born: float | None, oldest: str) -> bool:
    if born is None or not oldest:
        return False
    from datetime import datetime

    try:
        start = datetime.fromisoformat(oldest.replace("Z", "+00:00"))
    except ValueError:
        return False
    if start.tzinfo is None:
        start = start.replace(tzinfo=UTC)
    return born > start.timestamp()


def dropped(sim: Simulation | None, checks: list[SessionCheck], paths: dict[str, str]) -> list[Finding]:
    """A repository skill listed bare: by the newest session listing that names it, else (with
    sessions but no listing record) by the simulation."""
    out, said = [], set()
    newest = sorted((c for c in checks if c.evidence.listing is not None), key=lambda c: c.evidence.started,
                    reverse=True)
    max_desc = sim.max_desc if sim is not None else 1536
    for name, path in paths.items():
        for c in newest:
            state = recorded_state(c.evidence.listing, name, max_desc)
            if state == "absent":
                continue
            if state == BARE:
                out.append(_finding(DROPPED, path, f"listed bare in {_when(c)}: the listing was over its budget and "
                                    "its description never reached the agent"))
            said.add(name)
            break
    if sim is not None and checks:
        for e in sim.dropped:
            if e.path and e.name not in said:
                lost = f" (lost: {', '.join(e.lost[:3])})" if e.lost else ""
                out.append(_finding(DROPPED, e.path, f"the listing as Claude Code builds it is {sim.full:,} characters, "
                                    f"over its {sim.budget:,}: this skill, invoked {e.invocations} time(s), is listed "
                                    f"bare{lost}"))
    return out


def never_attached(usage: Usage, checks: list[SessionCheck], reads_matching) -> list[Finding]:
    """A `paths:` rule no session attached although sessions read files its globs match."""
    out = []
    counted = [c for c in checks if c.attachments and c.prediction is not None]
    for item in usage.items:
        if item.kind != "rule" or item.sessions:
            continue
        hits: list[tuple[SessionCheck, list[str]]] = []
        for c in counted:
            assert c.prediction is not None  # (counted holds only the predicted)
            exp = c.prediction.on_demand.get(item.path)
            if exp is not None:
                got = reads_matching(c.evidence, exp)
                if got:
                    hits.append((c, got))
        if len(hits) >= EVIDENCE_SESSIONS:
            files = sorted({f for _, got in hits for f in got})
            shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
            out.append(_finding(GLOB, item.path, f"`paths: {', '.join(item.globs)}`: {len(hits)} sessions read {shown}, "
                                "which those globs match, and none attached the rule"))
    return out
