"""Two short Claude Code sessions written for the demo repository (Ledgerline), so the sessions
screen, `curator usage` and `curator mine` have something to show. Each turn is a line of the
transcript format (`type`, `uuid`, `parentUuid`, `sessionId`, `timestamp`, `cwd`, `message`);
memory reads are `Read` and Serena `read_memory` tool calls, as a real session makes them.
Ids are derived from fixed names, so every copy gets the same sessions."""

from __future__ import annotations

import json
import uuid

_NS = uuid.UUID("6f1d7c1e-3f0b-4c55-9a51-2d7f8d3c9e10")

# (session name, start time, branch, turns); a turn is ("user", text), ("assistant", text),
# ("read", repository-relative path) or ("serena", memory name)
SESSIONS = (
    ("migration-lock-timeout", "2026-11-17T09:02:00Z", "fix/statement-migration", (
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
    ("flaky-statement-tests", "2026-11-19T14:40:00Z", "ci/quarantine-midnight", (
        ("user", "test_monthly_statement fails in CI around midnight UTC but passes on rerun. Fix it "
                 "properly."),
        ("read", ".claude/memory/feedback_quarantine_not_rerun.md"),
        ("serena", "ci/ci-flaky-test-quarantine"),
        ("read", "docs/error-experience/entries/2026-10-03-statement-tests-midnight-utc.md"),
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


def transcripts(repo: str) -> dict[str, list[str]]:
    """Session id → its JSON lines, run in `repo` (absolute paths of the reads inside it)."""
    out: dict[str, list[str]] = {}
    for name, start, branch, turns in SESSIONS:
        sid = str(uuid.uuid5(_NS, name))
        lines, parent = [], None
        hh, mm = int(start[11:13]), int(start[14:16])
        for i, (kind, value) in enumerate(turns):
            minute = hh * 60 + mm + i
            ts = f"{start[:11]}{minute // 60:02d}:{minute % 60:02d}:00.000Z"
            uid = str(uuid.uuid5(_NS, f"{name}/{i}"))
            base = {"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": repo,
                    "sessionId": sid, "version": "2.1.0", "gitBranch": branch, "timestamp": ts, "uuid": uid}
            if kind == "user":
                base.update(type="user", message={"role": "user", "content": value})
            elif kind == "assistant":
                base.update(type="assistant", message={"role": "assistant", "model": "claude-demo", "content": [
                    {"type": "text", "text": value}], "usage": {"input_tokens": 1200 + 40 * i, "output_tokens": 180}})
            else:
                tool, inp = (("Read", {"file_path": f"{repo}/{value}"}) if kind == "read"
                             else ("mcp__serena__read_memory", {"memory_file_name": value}))
                base.update(type="assistant", message={"role": "assistant", "model": "claude-demo", "content": [
                    {"type": "tool_use", "id": f"toolu_{uid[:8]}", "name": tool, "input": inp}],
                    "usage": {"input_tokens": 1100 + 40 * i, "output_tokens": 30}})
            lines.append(json.dumps(base, ensure_ascii=False))
            parent = uid
        out[sid] = lines
    return out
