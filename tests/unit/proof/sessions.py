"""Transcripts built to the documented schema (design.md, "What a Claude Code session records"):
one line a record, the fields real ones carry. A session is written from a list of steps, so a
test says what the session did and the line shapes stay in one place."""

from __future__ import annotations

import json
import re
import uuid as uuidlib
from pathlib import Path

NS = uuidlib.UUID("0b7c5e0e-8a55-4f3e-9f5e-31aa2b1c0d31")


class Session:
    """`Session(sid, cwd, version, day)` then steps; `.lines` are the JSON objects in order."""

    def __init__(self, sid: str, cwd: str, version: str, day: str = "2026-11-10", branch: str = "main",
                 start: str = "09:00", sidechain: bool = False) -> None:
        self.sid, self.cwd, self.version, self.branch = sid, cwd, version, branch
        self.sidechain = sidechain
        self.day = day
        self.minute = int(start[:2]) * 60 + int(start[3:5])
        self.second = 0
        self.lines: list[dict] = []
        self.msg = 0
        self.tool = 0
        self.parent = None

    def _ts(self) -> str:
        self.second += 7
        m = self.minute + self.second // 60
        return f"{self.day}T{m // 60:02d}:{m % 60:02d}:{self.second % 60:02d}.000Z"

    def _base(self, kind: str, **extra) -> dict:
        uid = str(uuidlib.uuid5(NS, f"{self.sid}/{len(self.lines)}"))
        d = {"parentUuid": self.parent, "isSidechain": self.sidechain, "userType": "external", "cwd": self.cwd,
             "sessionId": self.sid, "version": self.version, "gitBranch": self.branch, "entrypoint": "cli",
             "type": kind, "uuid": uid, "timestamp": self._ts()}
        d.update(extra)
        self.lines.append(d)
        self.parent = uid
        return d

    def copy(self, line: dict) -> Session:
        """A line copied from another transcript, uuid and all (a subagent inherits it)."""
        self.lines.append({**line, "isSidechain": self.sidechain})
        return self

    def last(self) -> dict:
        return self.lines[-1]

    # -- records ------------------------------------------------------------------------
    def instructions(self, files: list[tuple], **extra) -> Session:
        """files: (absolute path, type, content[, parent])."""
        entries = []
        for f in files:
            e = {"path": f[0], "type": f[1], "content": f[2]}
            if len(f) > 3 and f[3]:
                e["parent"] = f[3]
            entries.append(e)
        self._base("attachment", attachment={"type": "instructions", "files": entries, **extra})
        return self

    def nested(self, path: str, content: str, globs=None, raw=None, differs=False, copy_of: dict | None = None) -> Session:
        inner = {"path": path, "type": "Project", "content": content}
        if globs is not None:
            inner["globs"] = globs
        if raw is not None:
            inner["rawContent"] = raw
        if differs:
            inner["contentDiffersFromDisk"] = True
        self._base("attachment", attachment={"type": "nested_memory", "path": path, "displayPath": path,
                                             "content": inner})
        return self

    def listing(self, entries: list[tuple[str, str]], initial: bool = True) -> Session:
        """entries: (name, description as listed; '' for a name listed bare)."""
        content = "\n".join(f"- {n}: {d}" if d else f"- {n}" for n, d in entries)
        self._base("attachment", attachment={"type": "skill_listing", "content": content, "isInitial": initial,
                                             "names": [n for n, _ in entries], "skillCount": len(entries)})
        return self

    def invoked(self, skills: list[tuple[str, str, str]]) -> Session:
        self._base("attachment", attachment={"type": "invoked_skills", "skills": [
            {"name": n, "path": p, "content": c} for n, p, c in skills]})
        return self

    def compact(self) -> Session:
        self._base("system", subtype="compact_boundary", content="Conversation compacted",
                   compactMetadata={"trigger": "auto", "preTokens": 160000})
        return self

    # -- the conversation ----------------------------------------------------------------
    def prompt(self, text: str) -> Session:
        self._base("user", message={"role": "user", "content": text})
        return self

    def say(self, text: str, blocks: int = 1, **extra) -> Session:
        """One API call written as `blocks` lines sharing a message id (usage repeated)."""
        self.msg += 1
        mid = f"msg_{self.sid[:6]}_{self.msg:03d}"
        usage = {"input_tokens": 12, "output_tokens": 40, "cache_read_input_tokens": 9000,
                 "cache_creation_input_tokens": 300}
        for _ in range(blocks):
            self._base("assistant", message={"id": mid, "type": "message", "role": "assistant",
                                             "model": "claude-opus-4-6", "content": [{"type": "text", "text": text}],
                                             "usage": usage}, **extra)
        return self

    def call(self, name: str, inp: dict, result: str = "ok", error: bool = False, **extra) -> Session:
        """A tool call (its own API call) and its result."""
        self.msg += 1
        self.tool += 1
        tid = f"toolu_{self.sid[:6]}_{self.tool:03d}"
        self._base("assistant", message={"id": f"msg_{self.sid[:6]}_{self.msg:03d}", "type": "message",
                                         "role": "assistant", "model": "claude-opus-4-6",
                                         "content": [{"type": "tool_use", "id": tid, "name": name, "input": inp}],
                                         "usage": {"input_tokens": 3, "output_tokens": 20}}, **extra)
        self._base("user", message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tid, "content": result, "is_error": error}]})
        return self

    def read(self, rel: str) -> Session:
        return self.call("Read", {"file_path": f"{self.cwd_root()}/{rel}"}, "     1→…")

    def skill(self, name: str, error: bool = False) -> Session:
        return self.call("Skill", {"skill": name}, f"Launching skill: {name}" if not error else "Unknown skill",
                         error=error)

    def cwd_root(self) -> str:
        return getattr(self, "root", self.cwd)

    def write(self, projects: Path, subagent_of: Session | None = None) -> Path:
        folder = projects / re.sub(r"[^A-Za-z0-9]", "-", self.cwd)
        if subagent_of is not None:
            path = folder / subagent_of.sid / "subagents" / f"agent-{self.sid[:8]}.jsonl"
        else:
            path = folder / f"{self.sid}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(o) + "\n" for o in self.lines), encoding="utf-8")
        return path


def sid(n: int) -> str:
    return f"{n:08x}-aaaa-4bbb-8ccc-{n:012x}"
