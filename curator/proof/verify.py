"""Hold the model against each session: what the session recorded loading (its start-up files,
the files it attached later) beside what curator's model predicts for that session's version and
working folder. Every recorded file gets a row — matched (and whether it saw the bytes the model
counts), or a mismatch naming the rule that predicted otherwise — and so does every predicted
start-up file the session did not record, and every on-demand file a read of the session should
have attached. A session whose version wrote no such record says so instead.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..transcripts.evidence import SessionEvidence
from ..transcripts.records import Load
from .content import CHANGED_SINCE, DIFFERS, Contents
from .predict import Expect, Prediction, Predictor

MATCHED, MISSING, UNEXPECTED, NOT_ATTACHED, GONE, OUTSIDE, ABSENT = (
    "matched", "missing", "unexpected", "not attached", "gone", "outside", "absent")
MISMATCHES = (MISSING, UNEXPECTED, NOT_ATTACHED)
CHECKED, PREDATES, NO_RECORD, ELSEWHERE, NO_RULES = "checked", "predates the records", "no record", "elsewhere", \
    "unknown version"


@dataclass(slots=True)
class Row:
    path: str  # repository-relative (as recorded when outside the repository)
    status: str  # matched | missing | unexpected | not attached | gone | outside | absent
    when: str  # start-up | on demand: how the session recorded it (or the model predicted it)
    rule: str  # the rule that put it there, or that predicted otherwise
    detail: str = ""
    bytes: str = ""  # same | changed since | differs | unknown ('' when not compared)
    predicted: str = ""  # what the model said, when it said otherwise: "never (CLAUDE.md counts ...)"
    timestamp: str = ""
    tokens: int = 0

    @property
    def mismatch(self) -> bool:
        return self.status in MISMATCHES

    @property
    def hint(self) -> str:
        """Where to look first, by the rule that predicted otherwise."""
        key = self.rule.split("/", 1)[-1].split("@")[0]
        if not self.mismatch:
            return ""
        if self.status == NOT_ATTACHED:  # whichever rule put it on demand: the attaching is at fault
            return "the agent attaches these when it reads a file there; a glob or folder it reads otherwise misses"
        if key.startswith("agents-md"):
            return ("did that session run with another instructionFiles (claude-md-and-agents-md loads both), or a "
                    "Claude Code that reads AGENTS.md otherwise?")
        if key in ("rules.folder", "project.files", "imports.syntax", "user.files"):
            return "a claudeMdExcludes or instructionFiles managed-only in that session's settings takes files out"
        if key in ("rules.paths", "project.nested", "imports.nested"):
            return "the agent attaches these when it reads a file there; a glob or folder it reads otherwise misses"
        if not self.rule:
            return "a file curator has no rule for: if the agent does load it, the rule is missing (docs/agents.md)"
        return ""

    def to_json(self) -> dict:
        out = {"path": self.path, "status": self.status, "when": self.when, "rule": self.rule}
        for key in ("detail", "predicted", "hint", "bytes", "timestamp"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        return out


@dataclass(slots=True)
class SessionCheck:
    evidence: SessionEvidence
    state: str  # checked | predates the records | no record | elsewhere | unknown version
    note: str = ""
    rows: list[Row] = field(default_factory=list)
    prediction: Prediction | None = None
    attachments: bool = False  # its version records attachments (nested files, skills): usage counts it

    @property
    def mismatches(self) -> list[Row]:
        return [r for r in self.rows if r.mismatch]

    @property
    def rules_version(self) -> str:
        return self.prediction.version if self.prediction is not None else ""

    def to_json(self) -> dict:
        ev = self.evidence
        return {"session_id": ev.session_id, "started": ev.started, "version": ev.version,
                "rules": self.rules_version or None, "cwd": ev.cwd, "state": self.state, "note": self.note or None,
                "mismatches": len(self.mismatches), "rows": [r.to_json() for r in self.rows]}


def relative(root: str, path: str) -> str | None:
    """`path` (absolute, as a session recorded it) relative to the repository root, or None."""
    p = os.path.normpath(path).replace(os.sep, "/")
    r = root.rstrip("/") + "/"
    return p[len(r):] if p.startswith(r) else None


class Verifier:
    """Checks sessions of one repository against the model of each session's version."""

    def __init__(self, root: str, predictor: Predictor | None = None, home: str | None = None, token_counter=None,
                 env: dict | None = None) -> None:
        self.root = os.path.realpath(root)
        self.roots = {self.root, os.path.abspath(root)}
        self.home = home or os.path.expanduser("~")
        self.predictor = predictor or Predictor(self.root, token_counter, env, self.home)
        self.contents = Contents(self.root)
        self._reads: dict[str, list[str]] = {}

    def check(self, ev: SessionEvidence) -> SessionCheck:
        rules = self.predictor.rules(ev.version)
        if rules is None:
            return SessionCheck(ev, NO_RULES, f"its version {ev.version!r} is not one curator can read")
        attachments = rules.has("records.attachments") or ev.attachments
        if not ev.recorded and not rules.has("records.instructions"):
            newest = self.predictor.rules(rules.table.newest)
            rule = newest.rule("records.instructions") if newest is not None else None
            since = rule.since if rule is not None else "a later version"
            return SessionCheck(ev, PREDATES, f"Claude Code {ev.version} recorded no start-up files (they are "
                                f"recorded from {since} on){'' if attachments else '; nor what it attached later'}",
                                attachments=attachments)
        cwd_rel = self._cwd(ev.cwd)
        if cwd_rel is None:
            return SessionCheck(ev, ELSEWHERE, f"it ran in {ev.cwd or 'an unknown folder'}, outside {self.root}")
        p = self.predictor.predict(ev.version, cwd_rel)
        if p is None:  # (the rules were read above: predict has them too)
            return SessionCheck(ev, NO_RULES, f"its version {ev.version!r} is not one curator can read")
        out = SessionCheck(ev, CHECKED if ev.recorded else NO_RECORD, prediction=p, attachments=attachments)
        if not ev.recorded:
            out.note = "the session holds no start-up record (a resumed or forked session?): only what it attached"
        else:
            self._startup(out, p)
        if attachments:
            self._later(out, p)
        return out

    def _cwd(self, cwd: str) -> str | None:
        if not cwd:
            return ""
        for root in self.roots:
            rel = relative(root, cwd)
            if rel is not None:
                return rel
            if os.path.normpath(cwd) == os.path.normpath(root):
                return ""
        return None

    def _rel(self, path: str) -> str | None:
        for root in self.roots:
            rel = relative(root, path)
            if rel is not None:
                return rel
        return None

    def _bytes(self, row: Row, load: Load, ev: SessionEvidence) -> None:
        got = self.predictor.fs.read(row.path)  # confined; a link inside the repository is followed
        verdict, why = self.contents.judge(load, row.path, getattr(got, "text", None), ev.started, ev.branch)
        row.bytes = verdict
        if verdict in (CHANGED_SINCE, DIFFERS):
            row.detail = "; ".join(x for x in (row.detail, why) if x)

    # -- start-up ---------------------------------------------------------------------------

    def _startup(self, out: SessionCheck, p: Prediction) -> None:
        ev = out.evidence
        seen: set[str] = set()
        for load in ev.startup:
            rel = self._rel(load.path)
            if rel is None:
                out.rows.append(self._outside(load, p))
                continue
            seen.add(rel)
            row = self._placed(rel, load, p, "start-up", p.startup.get(rel), ev)
            out.rows.append(row)
        for rel, exp in p.startup.items():
            if rel not in seen and not self._same_file_seen(rel, seen):
                out.rows.append(Row(rel, MISSING, "start-up", exp.rule, "the session did not record it",
                                    predicted=f"start-up ({exp.why})", tokens=exp.tokens))

    def _same_file_seen(self, rel: str, seen: set[str]) -> bool:
        """A file recorded under another name of the same bytes (CLAUDE.md -> AGENTS.md)."""
        real = getattr(self.predictor.fs.read(rel), "real", rel)
        return any(getattr(self.predictor.fs.read(s), "real", s) == real for s in seen)

    def _placed(self, rel: str, load: Load, p: Prediction, when: str, exp: Expect | None,
                ev: SessionEvidence) -> Row:
        if exp is None:
            real = getattr(self.predictor.fs.read(rel), "real", rel)
            pool = p.startup if when == "start-up" else p.on_demand
            exp = next((e for path, e in pool.items() if getattr(self.predictor.fs.read(path), "real", path) == real),
                       None)
        if exp is not None:
            row = Row(rel, MATCHED, when, exp.rule, timestamp=load.timestamp, tokens=exp.tokens)
            parent = self._rel(load.parent) if load.parent else ""
            if when == "start-up" and (parent or "") != exp.parent and (parent or exp.parent):
                row.detail = f"imported by {parent or 'nothing'} (the model: {exp.parent or 'not an import'})"
            self._bytes(row, load, ev)
            return row
        other = p.on_demand.get(rel) if when == "start-up" else p.startup.get(rel)
        if other is not None:
            return Row(rel, UNEXPECTED, when, other.rule, f"recorded {_as(when)}",
                       predicted=f"{other.when} ({other.why})", timestamp=load.timestamp)
        never = p.never.get(rel)
        if never is not None:
            return Row(rel, UNEXPECTED, when, never.rule, f"recorded {_as(when)}", predicted=f"never ({never.why})",
                       timestamp=load.timestamp)
        if rel not in self.predictor.fs.fileset:
            return Row(rel, GONE, when, "", f"recorded {_as(when)}, no longer in the repository",
                       timestamp=load.timestamp)
        return Row(rel, UNEXPECTED, when, "", f"recorded {_as(when)}",
                   predicted="never (no rule of curator's loads it)", timestamp=load.timestamp)

    def _outside(self, load: Load, p: Prediction) -> Row:
        path = load.path.replace("\\", "/")  # a Windows session's paths, keyed as the model shows them
        home = self.home.replace("\\", "/").rstrip("/") + "/"
        if path.startswith(home):
            shown = "~/" + path[len(home):]
            exp = p.user.get(shown)
            if exp is not None:
                return Row(shown, MATCHED, "start-up", exp.rule, "your own (user level)", timestamp=load.timestamp)
            if load.type in ("User", "AutoMem"):
                return Row(shown, OUTSIDE, "start-up", "", f"{load.type}: not on this machine now, or not modelled",
                           timestamp=load.timestamp)
        exp = p.user.get(path)  # the managed policy file, or a $CLAUDE_CONFIG_DIR outside home
        if exp is None and load.type == "Managed":  # the model read it elsewhere ($CURATOR_MANAGED_DIR)
            exp = next((e for e in p.user.values() if e.rule.endswith("/managed.file")), None)
        if exp is not None:
            return Row(path, MATCHED, "start-up", exp.rule, exp.why, timestamp=load.timestamp)
        kind = {"Managed": "the managed policy file (not on this machine now)", "User": "another user's own file",
                "AutoMem": "another user's auto memory"}.get(load.type, "outside the repository (not modelled)")
        return Row(path, OUTSIDE, "start-up", "", kind, timestamp=load.timestamp)

    # -- later: attached on demand ------------------------------------------------------------

    def _later(self, out: SessionCheck, p: Prediction) -> None:
        ev = out.evidence
        attached: dict[str, Load] = {}
        for load in ev.nested:
            rel = self._rel(load.path)
            if rel is None:
                out.rows.append(Row(load.path, OUTSIDE, "on demand", "", "attached from outside the repository",
                                    timestamp=load.timestamp))
                continue
            if rel in attached:
                continue  # attached again after a compaction
            attached[rel] = load
            row = self._placed(rel, load, p, "on demand", p.on_demand.get(rel), ev)
            if row.status == MATCHED:
                exp = p.on_demand.get(rel)
                if exp is not None and exp.globs and not exp.parent and not self._read_before(ev, exp, load.timestamp):
                    row.detail = "; ".join(x for x in (row.detail, "attached with no read curator saw that its "
                                                       "globs match") if x)
            out.rows.append(row)
        for rel, exp in p.on_demand.items():
            if rel in attached or not exp.globs:
                continue
            if exp.parent:  # an import of a nested file: it comes with its parent
                if exp.parent in attached:
                    out.rows.append(Row(rel, NOT_ATTACHED, "on demand", exp.rule, f"{exp.parent} was attached, this "
                                        "file it imports was not", predicted=f"on demand, with {exp.parent}",
                                        tokens=exp.tokens))
                continue
            reads = self.reads_matching(ev, exp)
            if reads:
                first = reads[0]
                more = f" and {len(reads) - 1} more" if len(reads) > 1 else ""
                out.rows.append(Row(rel, NOT_ATTACHED, "on demand", exp.rule, f"the session read {first}{more}; it was "
                                    "never attached", predicted=f"on demand ({exp.why})", tokens=exp.tokens))

    def reads_matching(self, ev: SessionEvidence, exp: Expect) -> list[str]:
        """The repository files the session read or edited that `exp`'s globs match (the file
        itself left out)."""
        from ..context.parse import matches

        return [rel for rel in self._read_paths(ev) if rel != exp.path and any(matches(g, rel) for g in exp.globs)]

    def _read_paths(self, ev: SessionEvidence) -> list[str]:
        """The repository files a session read or edited, each once, in order (kept per session:
        every on-demand file of the model is held against them)."""
        got = self._reads.get(ev.session_id)
        if got is None:
            got = list(dict.fromkeys(rel for t in ev.reads if (rel := self._rel(t.target))))
            self._reads[ev.session_id] = got
        return got

    def _read_before(self, ev: SessionEvidence, exp: Expect, when: str) -> bool:
        from ..context.parse import matches

        for t in ev.reads:
            rel = self._rel(t.target)
            if rel and (not when or not t.timestamp or t.timestamp <= when) and any(matches(g, rel) for g in exp.globs):
                return True
        return False

    def run(self, evidence: list[SessionEvidence]) -> list[SessionCheck]:
        return [self.check(ev) for ev in evidence]


def _as(when: str) -> str:
    return "at start-up" if when == "start-up" else "on demand"
