"""`prove(root, sessions)`: the repository's model held against its Claude Code sessions — each
session checked against the rules of its own version, the usage and cost of every instruction
file, the skill listing as the agent builds it beside the listings the sessions recorded, and the
findings. What `curator context --verify`, `curator usage` and the app's Context view show.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import date  # noqa: TC003

from ..base.config import Thresholds
from ..model.findings import Finding
from ..transcripts.evidence import SessionEvidence, session_evidence
from . import findings as fnd
from .listing import Entry, Seen, Simulation, recorded_state, settings, simulate
from .predict import AGENT, Prediction
from .usage import Usage, usage
from .verify import MATCHED, MISMATCHES, SessionCheck, Verifier


@dataclass(slots=True)
class FileSeen:
    """One file across the sessions: how many loaded it, the last, and the mismatches."""

    path: str
    sessions: list[str] = field(default_factory=list)  # ids, newest first
    last: str = ""
    mismatches: list[tuple[SessionCheck, object]] = field(default_factory=list)  # (session, its Row), newest first

    @property
    def count(self) -> int:
        return len(self.sessions)


@dataclass(slots=True)
class Proof:
    root: str
    checks: list[SessionCheck]
    current: Prediction | None  # today's model (the version the repository's model uses)
    usage: Usage | None = None
    simulation: Simulation | None = None
    listed: list[Seen] = field(default_factory=list)  # each repository skill in the newest recorded listing
    findings: list[Finding] = field(default_factory=list)
    files: dict[str, FileSeen] = field(default_factory=dict)

    @property
    def checked(self) -> list[SessionCheck]:
        return [c for c in self.checks if c.prediction is not None]

    @property
    def mismatches(self) -> int:
        return sum(len(c.mismatches) for c in self.checks)

    def seen(self, path: str) -> FileSeen:
        """A file across the sessions: recorded loads, and for a skill, command or subagent the
        sessions that used it (newest first)."""
        got = self.files.get(path)
        item = self.usage.of(path) if self.usage is not None else None
        if item is None or item.kind not in ("skill", "command", "subagent"):
            return got or FileSeen(path)
        out = FileSeen(path, list(got.sessions) if got else [], got.last if got else "",
                       list(got.mismatches) if got else [])
        for sid in item.lines:
            if sid not in out.sessions:
                out.sessions.append(sid)
        out.last = max(out.last, item.last)
        return out

    def sessions_loading(self, path: str) -> list[str]:
        return self.seen(path).sessions

    def to_json(self) -> dict:
        states: dict[str, int] = {}
        for c in self.checks:
            states[c.state] = states.get(c.state, 0) + 1
        return {"root": self.root, "sessions": len(self.checks), "states": states, "mismatches": self.mismatches,
                "rules": self.current.version if self.current else None,
                "checks": [c.to_json() for c in self.checks],
                "usage": self.usage.to_json() if self.usage else None,
                "listing": self.simulation.to_json() if self.simulation else None,
                "listing_recorded": [{"name": s.name, "recorded": s.recorded, "simulated": s.simulated,
                                      "session_id": s.session_id, "agrees": s.agrees} for s in self.listed],
                "findings": [f.to_json() for f in self.findings]}


def prove(root, sessions, *, today: date | None = None, thresholds: Thresholds | None = None, token_counter=None,
          env: dict | None = None, home: str | None = None, version: str | None = None) -> Proof:
    """Check `sessions` (transcripts.index.Session, or SessionEvidence) of the repository at
    `root`; `version` is today's Claude Code (default: the one the repository's model uses)."""
    env = dict(os.environ) if env is None else env
    home = home or env.get("HOME") or os.path.expanduser("~")
    if today is None:
        from ..model.loader import current_day

        today = current_day()
    t = thresholds or _thresholds(root)
    evidence = [s if isinstance(s, SessionEvidence) else session_evidence(s) for s in sessions]
    verifier = Verifier(str(root), home=home, token_counter=token_counter, env=env)
    checks = verifier.run(evidence)
    if version is None:
        from ..context.versions import choose

        version = choose(verifier.root).rules[AGENT].version
    current = verifier.predictor.predict(version, "")
    proof = Proof(verifier.root, checks, current)
    if current is None:
        return proof
    proof.usage = usage(checks, current, verifier._rel)
    proof.simulation, proof.listed = _listing(current, checks, verifier.root, home, bool(env.get("CI", "").strip()),
                                              verifier.predictor.fs)
    proof.files = _files(checks, verifier)
    paths = {x.name: x.path for x in current.ctx.listing if x.kind in ("skill", "command")}
    born = _born(verifier.root, proof.usage)
    proof.findings = sorted(
        fnd.contradicted(checks) + fnd.unused(proof.usage, checks, today, t, born)
        + fnd.dropped(proof.simulation, checks, paths) + fnd.never_attached(proof.usage, checks, verifier.reads_matching),
        key=Finding.sort_key)
    return proof


def _thresholds(root) -> Thresholds:
    from pathlib import Path

    from ..base.config import ConfigError, load_config

    try:
        return load_config(Path(root)).thresholds
    except ConfigError:
        return Thresholds()


def _described(fs, x) -> str:
    """What the listing shows of a skill: its description, with its `when_to_use` after it."""
    from ..context.fs import Text
    from ..context.parse import read_meta

    got = fs.read(x.path) if fs is not None else None
    when = read_meta(got.text).data.get("when_to_use") if isinstance(got, Text) else None
    return f"{x.description} {' '.join(str(when).split())}" if isinstance(when, str) and when.strip() else x.description


def _listing(current: Prediction, checks: list[SessionCheck], root: str, home: str, ci: bool, fs=None):
    """The listing as the agent builds it today (the repository's skills, with the other skills
    the newest recorded listing held), and each repository skill's state in that record."""
    invoked: dict[str, int] = {}
    for c in checks:
        for name, n in c.evidence.skills.items():
            invoked[name] = invoked.get(name, 0) + n
        for name in c.evidence.attributed:
            invoked.setdefault(name, 1)
    ours = [Entry(x.name, _described(fs, x), x.path, x.kind, invoked.get(x.name, 0)) for x in current.ctx.listing
            if x.kind in ("skill", "command") and x.description]
    newest = max((c for c in checks if c.evidence.listing is not None), key=lambda c: c.evidence.started, default=None)
    others = []
    if newest is not None and (listing := newest.evidence.listing) is not None:
        mine = {e.name for e in ours}
        others = [Entry(n, "·" * chars, "", "skill", invoked.get(n, 0)) for n, chars in
                  zip(listing.names, listing.described, strict=False) if n not in mine]
    values, where = settings(root, home, ci)
    sim = simulate(ours + others, current.rules, fraction=values.get("skillListingBudgetFraction"),
                   max_desc=values.get("skillListingMaxDescChars"), settings_from=where)
    seen = []
    if newest is not None:
        for e in ours:
            seen.append(Seen(e.name, recorded_state(newest.evidence.listing, e.name, sim.max_desc), e.state,
                             newest.evidence.session_id, newest.evidence.started))
    return sim, seen


def _files(checks: list[SessionCheck], verifier: Verifier) -> dict[str, FileSeen]:
    out: dict[str, FileSeen] = {}
    for c in sorted(checks, key=lambda c: c.evidence.started, reverse=True):
        for row in c.rows:
            f = out.setdefault(row.path, FileSeen(row.path))
            if row.status == MATCHED or (row.status in MISMATCHES and row.status != "missing"
                                         and row.status != "not attached"):
                if c.evidence.session_id not in f.sessions:
                    f.sessions.append(c.evidence.session_id)
                    f.last = max(f.last, row.timestamp or c.evidence.started)
            if row.status in MISMATCHES:
                f.mismatches.append((c, row))
        _read(c, verifier, out)
    return out


def _read(c: SessionCheck, verifier: Verifier, out: dict[str, FileSeen]) -> None:
    """Files the model loads only when the agent opens them (memory topic files, a command read
    as a file): a session that read one with a tool saw it."""
    p = c.prediction
    if p is None:
        return
    opened = {o.path for o in p.ctx.on_demand if o.trigger in ("invoked", "manual")}  # (not in p.on_demand)
    for t in c.evidence.reads:
        rel = verifier._rel(t.target) if t.how == "read" else None
        if rel is None or rel not in opened:
            continue
        f = out.setdefault(rel, FileSeen(rel))
        if c.evidence.session_id not in f.sessions:
            f.sessions.append(c.evidence.session_id)
        f.last = max(f.last, t.timestamp or c.evidence.started)


def _born(root: str, u: Usage) -> dict[str, float]:
    """A file's first sign: its modification time (a clone makes every file young: nothing is
    called unused then, which errs on the quiet side)."""
    out = {}
    for item in u.items:
        try:
            out[item.path] = os.stat(os.path.join(root, item.path)).st_mtime
        except OSError:
            continue
    return out


__all__ = ["FileSeen", "Proof", "prove", "recorded_state"]
