"""A session's conversation, for reading and mining, and search across sessions (streamed)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .lines import capped_lines
from .reader import MAX_TEXT, LineStats, is_prompt, iter_objects, text_of


@dataclass(slots=True)
class ToolCall:
    name: str
    summary: str  # the input, one line
    id: str = ""


@dataclass(slots=True)
class ToolResult:
    text: str
    is_error: bool
    tool_use_id: str = ""


@dataclass(slots=True)
class Turn:
    uuid: str
    role: str  # user (a prompt), assistant, tool (results), system
    timestamp: str
    text: str
    calls: list[ToolCall] = field(default_factory=list)
    results: list[ToolResult] = field(default_factory=list)
    sidechain: bool = False
    session_id: str = ""
    line: int = 0


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|[\x00-\x08\x0b-\x1f\x7f]")


def _clip(text: str, n: int = MAX_TEXT) -> str:
    """Bounded, and without terminal escapes (command output is recorded with its colours)."""
    text = ANSI.sub("", text[: n * 2])
    return text if len(text) <= n else text[: n - 1] + "…"


def _summary(inp) -> str:
    if not isinstance(inp, dict):
        return ""
    for key in ("file_path", "memory_file_name", "memory_name", "command", "pattern", "query", "path", "url",
                "description", "prompt"):
        v = inp.get(key)
        if isinstance(v, str) and v:
            return _clip(" ".join(v.split()), 160)
    return _clip(json.dumps(inp, ensure_ascii=False), 160)


def _result_text(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))
    return ""


def turn_of(no: int, obj: dict) -> Turn | None:
    kind = obj.get("type")
    msg = obj.get("message")
    uuid = u if isinstance(u := obj.get("uuid"), str) else ""
    ts = t if isinstance(t := obj.get("timestamp"), str) else ""
    side = obj.get("isSidechain") is True
    sid = s if isinstance(s := obj.get("sessionId"), str) else ""
    if kind == "system":
        content = obj.get("content")
        if isinstance(content, str) and content.strip():
            return Turn(uuid, "system", ts, _clip(content.strip()), sidechain=side, session_id=sid, line=no)
        return None
    if kind not in ("user", "assistant") or not isinstance(msg, dict):
        return None
    content = msg.get("content")
    if kind == "user":
        if isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            results = [ToolResult(_clip(_result_text(b.get("content"))), b.get("is_error") is True,
                                  str(b.get("tool_use_id", ""))) for b in content
                       if isinstance(b, dict) and b.get("type") == "tool_result"]
            return Turn(uuid, "tool", ts, "", results=results, sidechain=side, session_id=sid, line=no)
        if not is_prompt(obj):
            return None
        return Turn(uuid, "user", ts, _clip(text_of(content).strip()), sidechain=side, session_id=sid, line=no)
    text = _clip(text_of(content).strip())
    calls = []
    if isinstance(content, list):
        calls = [ToolCall(str(b.get("name", "?")), _summary(b.get("input")), str(b.get("id", ""))) for b in content
                 if isinstance(b, dict) and b.get("type") == "tool_use"]
    if not text and not calls:
        return None  # thinking blocks, empty deltas
    return Turn(uuid, "assistant", ts, text, calls=calls, sidechain=side, session_id=sid, line=no)


def conversation(path: Path, limit: int | None = None, stats: LineStats | None = None) -> list[Turn]:
    """The turns of one transcript, in file order (at most `limit`)."""
    out: list[Turn] = []
    try:
        for no, obj in iter_objects(Path(path), stats):
            t = turn_of(no, obj)
            if t is not None:
                out.append(t)
                if limit is not None and len(out) >= limit:
                    break
    except OSError:
        pass
    return out


def same_uuid(full: str, given: str) -> bool:
    """`given` names `full`: equal, or a prefix of at least 8 characters (as lists show them)."""
    return full == given or (len(given) >= 8 and full.startswith(given))


def find_turn(paths: Iterable[Path], uuid: str) -> Turn | None:
    """The turn with this uuid or uuid prefix (lines are matched as bytes before being parsed)."""
    needle = uuid.encode()
    for path in paths:
        try:
            with open(path, "rb") as fh:
                for no, (raw, _size) in enumerate(capped_lines(fh), 1):
                    if raw is None or needle not in raw:
                        continue
                    try:
                        obj = json.loads(raw)
                    except (ValueError, RecursionError):
                        continue
                    if isinstance(obj, dict) and isinstance(obj.get("uuid"), str) and same_uuid(obj["uuid"], uuid):
                        return turn_of(no, obj) or Turn(uuid, str(obj.get("type", "?")), str(obj.get("timestamp", "")),
                                                        "", session_id=str(obj.get("sessionId", "")), line=no)
        except OSError:
            continue
    return None


@dataclass(slots=True)
class Hit:
    session_id: str
    path: str
    turn: Turn
    snippet: str


def search(files: Iterable[tuple[str, Path]], query: str, limit: int = 200) -> Iterator[Hit]:
    """Turns whose text (or tool calls/results) contain every word of `query`, case-insensitive.
    A line is only parsed when its raw bytes contain the first word."""
    words = [w.lower() for w in query.split() if w]
    if not words:
        return
    first = words[0].encode()
    n = 0
    for sid, path in files:
        try:
            fh = open(path, "rb")
        except OSError:
            continue
        with fh:
            for no, (raw, _size) in enumerate(capped_lines(fh), 1):
                if raw is None or first not in raw.lower():
                    continue
                try:
                    obj = json.loads(raw)
                except (ValueError, RecursionError):
                    continue
                if not isinstance(obj, dict):
                    continue
                t = turn_of(no, obj)
                if t is None:
                    continue
                hay = "\n".join([t.text, *(f"{c.name} {c.summary}" for c in t.calls), *(r.text for r in t.results)])
                low = hay.lower()
                if all(w in low for w in words):
                    i = low.find(words[0])
                    snippet = " ".join(hay[max(0, i - 60): i + 100].split())
                    yield Hit(sid, str(path), t, snippet)
                    n += 1
                    if n >= limit:
                        return


def turn_text(t: Turn) -> str:
    """What a turn says, for mining: its text, else its tool results (errors first)."""
    if t.text.strip():
        return t.text
    if t.results:
        return "\n".join(r.text for r in sorted(t.results, key=lambda r: not r.is_error) if r.text.strip())
    return "\n".join(f"{c.name}: {c.summary}" for c in t.calls)


def passage(paths: Iterable[Path], uuid: str, uuid_to: str | None = None) -> list[Turn]:
    """The turn `uuid` — or every turn from it through `uuid_to` — of the file that holds it."""
    if not uuid_to or uuid_to == uuid:
        t = find_turn(paths, uuid)
        return [t] if t is not None else []
    for path in paths:
        found = find_turn([path], uuid)
        if found is None:
            continue
        out: list[Turn] = []
        for t in conversation(path):
            if t.line < found.line:
                continue
            out.append(t)
            if same_uuid(t.uuid, uuid_to):
                return out
        return []  # uuid_to is not after uuid in this transcript
    return []
