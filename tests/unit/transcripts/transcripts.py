"""Small transcript fixtures in the shapes Claude Code 2.1.x writes (and a few older ones)."""

from __future__ import annotations

import json
from pathlib import Path

SID = "11111111-aaaa-4bbb-8ccc-000000000001"
CWD = "/work/repo"


def base(kind: str, uuid: str, ts: str, sid: str = SID, cwd: str = CWD, branch: str = "main",
         version: str = "2.1.38", parent: str | None = None, **extra) -> dict:
    d = {"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": cwd, "sessionId": sid,
         "version": version, "gitBranch": branch, "type": kind, "uuid": uuid, "timestamp": ts}
    d.update(extra)
    return d


def prompt(uuid: str, text: str, ts: str, **kw) -> dict:
    return base("user", uuid, ts, message={"role": "user", "content": text}, **kw)


def assistant(uuid: str, ts: str, blocks: list, msg_id: str, usage: dict | None = None, **kw) -> dict:
    usage = usage or {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 100,
                      "cache_creation_input_tokens": 20}
    return base("assistant", uuid, ts, message={"model": "claude-opus-4-6", "id": msg_id, "type": "message",
                                                "role": "assistant", "content": blocks, "usage": usage}, **kw)


def text(t: str) -> dict:
    return {"type": "text", "text": t}


def tool(name: str, inp: dict, tid: str = "toolu_1") -> dict:
    return {"type": "tool_use", "id": tid, "name": name, "input": inp}


def result(uuid: str, ts: str, content: str, tid: str = "toolu_1", is_error: bool = False, **kw) -> dict:
    return base("user", uuid, ts, message={"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": tid, "content": content, "is_error": is_error}]}, **kw)


def nested_memory(uuid: str, ts: str, path: str, **kw) -> dict:
    return base("attachment", uuid, ts, attachment={"type": "nested_memory", "path": path,
                                                    "content": {"path": path, "content": "x"}}, **kw)


def write(path: Path, objs: list, tail: bytes = b"") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = b"".join(json.dumps(o).encode() + b"\n" if not isinstance(o, bytes) else o for o in objs)
    path.write_bytes(data + tail)
    return path


def well_formed(sid: str = SID, cwd: str = CWD, day: str = "2026-11-10") -> list:
    """A session: a prompt, an answer in two lines sharing one message id, a tool call, its
    result, a correction by the user and the fix."""
    t = lambda hms: f"{day}T{hms}.000Z"  # noqa: E731
    kw = {"sid": sid, "cwd": cwd}
    return [
        {"type": "file-history-snapshot", "messageId": "m0", "snapshot": {}, "isSnapshotUpdate": False},
        base("progress", "p1", t("10:00:00"), data={"type": "hook_progress"}, **kw),
        prompt("u1", "the server does not start", t("10:00:01"), **kw),
        assistant("a1", t("10:00:05"), [{"type": "thinking", "thinking": "hm", "signature": "s"}], "msg_1", **kw),
        assistant("a2", t("10:00:06"), [tool("Bash", {"command": "make run"})], "msg_1", **kw),
        result("r1", t("10:00:09"), "Error: port 4000 in use", is_error=True, **kw),
        assistant("a3", t("10:00:12"), [text("Port 4000 is taken by another process.")], "msg_2",
                  usage={"input_tokens": 7, "output_tokens": 3}, **kw),
        prompt("u2", "no, use port 4001 from .env instead of killing things", t("10:01:00"), **kw),
        assistant("a4", t("10:02:30"), [text("Using PORT=4001 from .env; the server starts.")], "msg_3",
                  usage={"input_tokens": 1, "output_tokens": 1}, **kw),
        base("system", "s1", t("10:02:31"), subtype="local_command", content="<local-command-stdout>\x1b[1mok\x1b[22m</local-command-stdout>", **kw),
        {"type": "summary", "summary": "Server port fix", "leafUuid": "a4"},
    ]
