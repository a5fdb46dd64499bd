"""Four Claude Code sessions written for the demo repository (Ledgerline), so the sessions screen,
`curator usage`, `curator mine` and `curator context --verify` have something to show. Each turn is
a line of the transcript format (`type`, `uuid`, `parentUuid`, `sessionId`, `timestamp`, `cwd`,
`version`, `message`); memory reads are `Read` and Serena `read_memory` tool calls, as a real
session makes them. Sessions of Claude Code 2.1.276 and later also record what they put in their
context (design.md, "What a Claude Code session records"): the start-up files with the demo's own
bytes, the skill listing, a `paths:` rule attached after a read, a skill launched.

One deliberate mismatch to learn from: the 2026-11-19 session (2.1.290) recorded AGENTS.md at
start-up beside CLAUDE.md, which the rules of 2.1.290 say never loads while CLAUDE.md is there — that
developer ran with `instructionFiles: claude-md-and-agents-md`, so the agent read both files, which
have drifted apart (`instructions.drifted-copy`). The August session predates the records.
Ids come from fixed names, so every copy gets the same sessions."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path

_NS = uuid.UUID("6f1d7c1e-3f0b-4c55-9a51-2d7f8d3c9e10")
STARTUP = ("CLAUDE.md", ".claude/memory/MEMORY.md", ".claude/rules/money.md")  # what the model loads

# (session name, start time, branch, Claude Code version, turns); a turn is ("user", text),
# ("assistant", text), ("read", repository-relative path), ("serena", memory name), ("start", extra
# start-up files), ("listing", None), ("nested", rule path) or ("skill", name)
SESSIONS = (
    ("ledger-export-columns", "2026-08-20T11:15:00Z", "feat/export-columns", "2.1.180", (
        ("user", "Add the counterparty IBAN to the nightly ledger export."),
        ("read", ".claude/memory/project_nightly_export_replica.md"),
        ("assistant", "The export reads through `replica_session()`; I added the column to the query and the "
                      "CSV header, and the contract test passes."),
    )),
    ("migration-lock-timeout", "2026-11-17T09:02:00Z", "fix/statement-migration", "2.1.276", (
        ("start", ()),
        ("listing", None),
        ("user", "The statement migration hangs in staging again. Add the column to statements without "
                 "locking the table this time."),
        ("serena", "db/db-migrations-alembic"),
        ("read", ".serena/memories/reflexion/2026-09-14-migration-lock-timeout.md"),
        ("read", ".claude/memory/feedback_migration_lock_timeout.md"),
        ("assistant", "The September outage came from DDL waiting behind a long transaction. I will "
                      "set `lock_timeout = '5s'` in the revision, check `pg_stat_activity` for old "
                      "transactions first, and split the change into expand (nullable column) and a "
                      "backfill in batches of 5,000 rows."),
        ("user", "Staging passed. Anything we should remember from this one?"),
        ("assistant", "Lesson: a backfill in one UPDATE held row locks for 40 s and blocked the outbox "
                      "relay. Batch every backfill (5,000 rows, commit per batch) and run it from a "
                      "Celery task, never inside the Alembic revision."),
    )),
    ("release-notes-1-8", "2026-11-18T16:10:00Z", "main", "2.1.290", (
        ("start", ()),
        ("listing", None),
        ("user", "Write the release notes for v1.8 from the merged pull requests."),
        ("skill", "release-notes"),
        ("assistant", "Release notes for v1.8: 14 pull requests since v1.7 — features (statement export "
                      "columns, idempotency on refunds), fixes (midnight-UTC statement tests, migration "
                      "lock timeout), chores (Redis broker split)."),
    )),
    ("flaky-statement-tests", "2026-11-19T14:40:00Z", "ci/quarantine-midnight", "2.1.290", (
        ("start", ("AGENTS.md",)),  # the mismatch: this developer's settings read both files
        ("listing", None),
        ("user", "test_monthly_statement fails in CI around midnight UTC but passes on rerun. Fix it "
                 "properly."),
        ("read", ".claude/memory/feedback_quarantine_not_rerun.md"),
        ("serena", "ci/ci-flaky-test-quarantine"),
        ("read", "docs/error-experience/entries/2026-10-03-statement-tests-midnight-utc.md"),
        ("nested", ".claude/rules/experience-entries.md"),
        ("assistant", "This is the midnight-UTC flake from October: the test builds its period with "
                      "`date.today()` while the service uses `today_utc()`. I froze the clock with "
                      "`freeze_time('2026-11-30T23:59:30Z')` and switched the test to `today_utc()`; "
                      "it is quarantined until the fix merges, with ticket LED-812."),
        ("user", "Good. Is the pool sizing note still right after the worker change?"),
        ("serena", "db/db-connection-pool"),
        ("assistant", "Yes: pool_size 10 with max_overflow 5 per worker still matches the load test "
                      "(p99 38 ms at 400 rps). Validation record: the export workers need their own "
                      "pool of 4, or statements starve during the nightly export."),
    )),
)


def _text(repo: str, rel: str) -> str | None:
    try:
        return (Path(repo) / rel).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _skills(repo: str) -> list[tuple[str, str]]:
    """(name, description) of the demo's skills, as the listing shows them."""
    out = []
    for path in sorted(Path(repo, ".claude", "skills").glob("*/SKILL.md")):
        text = _text(repo, str(path.relative_to(repo))) or ""
        name = re.search(r"^name:\s*(.+)$", text, re.M)
        desc = re.search(r"^description:\s*(.+)$", text, re.M)
        out.append((name.group(1).strip() if name else path.parent.name, desc.group(1).strip() if desc else ""))
    return out


def _record(repo: str, kind: str, value) -> dict | None:
    """The `attachment` of a record turn (None: its file is not in this copy)."""
    if kind == "start":
        files = []
        for rel in (*STARTUP, *value):
            text = _text(repo, rel)
            if text is not None:
                entry = {"path": f"{repo}/{rel}", "type": "Project", "content": text}
                if rel.startswith(".claude/memory/"):
                    entry["parent"] = f"{repo}/CLAUDE.md"  # imported by CLAUDE.md
                files.append(entry)
        return {"type": "instructions", "files": files}
    if kind == "listing":
        skills = _skills(repo)
        return {"type": "skill_listing", "isInitial": True, "skillCount": len(skills), "names": [n for n, _ in skills],
                "content": "\n".join(f"- {n}: {d}" if d else f"- {n}" for n, d in skills)}
    text = _text(repo, value)
    if text is None:
        return None
    globs = re.findall(r"^\s*-\s*\"?([^\"\n]+)\"?\s*$", text.split("\n---", 1)[0], re.M)
    body = text.split("\n---\n", 1)[1] if text.startswith("---") and "\n---\n" in text else text
    return {"type": "nested_memory", "path": f"{repo}/{value}", "displayPath": value,
            "content": {"path": f"{repo}/{value}", "type": "Project", "content": body, "globs": globs,
                        "rawContent": text}}


def transcripts(repo: str) -> dict[str, list[str]]:
    """Session id → its JSON lines, run in `repo` (absolute paths of the reads inside it)."""
    out: dict[str, list[str]] = {}
    for name, start, branch, version, turns in SESSIONS:
        sid = str(uuid.uuid5(_NS, name))
        lines, parent = [], None
        hh, mm = int(start[11:13]), int(start[14:16])
        for i, (kind, value) in enumerate(turns):
            minute = hh * 60 + mm + i
            ts = f"{start[:11]}{minute // 60:02d}:{minute % 60:02d}:00.000Z"
            uid = str(uuid.uuid5(_NS, f"{name}/{i}"))
            base: dict[str, object] = {"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": repo,
                    "sessionId": sid, "version": version, "gitBranch": branch, "timestamp": ts, "uuid": uid}
            msg = {"role": "assistant", "model": "claude-demo", "id": f"msg_{uid[:12]}"}
            if kind == "user":
                base.update(type="user", message={"role": "user", "content": value})
            elif kind == "assistant":
                base.update(type="assistant", message={**msg, "content": [{"type": "text", "text": value}],
                                                       "usage": {"input_tokens": 1200 + 40 * i, "output_tokens": 180}})
            elif kind in ("start", "listing", "nested"):
                att = _record(repo, kind, value)
                if att is None:
                    continue
                base.update(type="attachment", attachment=att)
            else:
                tool, inp = (("Read", {"file_path": f"{repo}/{value}"}) if kind == "read"
                             else ("Skill", {"skill": value}) if kind == "skill"
                             else ("mcp__serena__read_memory", {"memory_file_name": value}))
                base.update(type="assistant", message={**msg, "content": [
                    {"type": "tool_use", "id": f"toolu_{uid[:8]}", "name": tool, "input": inp}],
                    "usage": {"input_tokens": 1100 + 40 * i, "output_tokens": 30}})
                if kind == "skill":  # the result that launches it
                    lines.append(json.dumps(base, ensure_ascii=False))
                    parent, uid = uid, str(uuid.uuid5(_NS, f"{name}/{i}/result"))
                    base = {**base, "parentUuid": parent, "uuid": uid, "type": "user", "message": {
                        "role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{parent[:8]}",
                                                     "content": f"Launching skill: {value}"}]}}
            lines.append(json.dumps(base, ensure_ascii=False))
            parent = uid
        out[sid] = lines
    return out
