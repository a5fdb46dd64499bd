"""`curator context --verify` as text (80 columns) or markdown, and the instruction-file part of
`curator usage`: what each session recorded beside what the model predicts for its version, the
usage and cost of each file, the skill listing. Plain strings, like context_report."""

from __future__ import annotations

import textwrap

from ..proof.run import Proof
from ..proof.verify import CHECKED, MATCHED, MISMATCHES, NO_RECORD, SessionCheck

WIDTH = 80
MARK = {MATCHED: "✔", "gone": "−", "outside": "·", "absent": "·"}


def _wrap(text: str, indent: str, width: int = WIDTH) -> list[str]:
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent,
                         break_on_hyphens=False) or [indent]


def _mark(status: str) -> str:
    return "✖" if status in MISMATCHES else MARK.get(status, "·")


def headline(proof: Proof) -> str:
    """One sentence for both faces: how many sessions, how they were checked, the mismatches."""
    n = len(proof.checks)
    if not n:
        return "no Claude Code session of this repository: nothing to verify the model against"
    states: dict[str, int] = {}
    for c in proof.checks:
        states[c.state] = states.get(c.state, 0) + 1
    parts = []
    checked = states.get(CHECKED, 0) + states.get(NO_RECORD, 0)
    if checked:
        parts.append(f"{checked} checked against the rules of {'its' if checked == 1 else 'their'} own version")
    parts += [f"{k} {state}" for state, k in states.items() if state not in (CHECKED, NO_RECORD)]
    bad = [c for c in proof.checks if c.mismatches]
    tail = (f"; {proof.mismatches} mismatch{'es' if proof.mismatches != 1 else ''} in {len(bad)} session"
            f"{'s' if len(bad) != 1 else ''}" if bad else ("; every recorded load matched" if checked else ""))
    return f"{n} session{'s' if n != 1 else ''}: " + ", ".join(parts) + tail


def session_head(c: SessionCheck) -> str:
    ev = c.evidence
    rules = f" (rules of {c.rules_version})" if c.rules_version and c.rules_version != ev.version else ""
    where = f" in {c.prediction.cwd}/" if c.prediction is not None and c.prediction.cwd else ""
    return f"{ev.started[:16].replace('T', ' ')}  {ev.session_id[:8]}  Claude Code {ev.version or '?'}{rules}{where}"


def differing_rules(checks: list[SessionCheck]) -> dict[str, list[str]]:
    """Per checked session, the ids of its version's rules that not every checked session's
    version holds (empty when all the sessions share their rules): what "its own version's
    rules" changed for it."""
    held = {c.evidence.session_id: {c.prediction.rules.table.rule_id(r) for r in c.prediction.rules.held.values()}
            for c in checks if c.prediction is not None}
    if len({frozenset(h) for h in held.values()}) < 2:
        return {}
    common = set.intersection(*held.values())
    return {sid: sorted(h - common) for sid, h in held.items()}


def rules_line(c: SessionCheck, differing: dict[str, list[str]]) -> list[str]:
    ids = differing.get(c.evidence.session_id)
    if not ids:
        return []
    short = [i.split("/", 1)[-1] for i in ids]  # every id is Claude Code's
    shown = ", ".join(short[:3]) + (f" and {len(short) - 3} more" if len(short) > 3 else "")
    return _wrap(f"rules of {c.rules_version}, not held by every session's version: {shown}", "  ")


def row_lines(row, indent: str = "  ") -> list[str]:
    head = f"{indent}{_mark(row.status)} {row.when:<9}  {row.path}"
    if row.status != MATCHED:
        head += f"  [{row.status}]"
    elif row.bytes in ("changed since", "differs"):
        head += f"  [{row.bytes}]"
    out = _wrap(head, "", WIDTH) if len(head) > WIDTH else [head]
    said = []
    if row.status in MISMATCHES:
        said.append(f"{row.detail}; the rule {row.rule or '(none)'} predicted: {row.predicted}"
                    if row.predicted else f"{row.detail}; rule {row.rule}")
        if row.hint:
            said.append(f"→ {row.hint}")
    elif row.detail:
        said.append(row.detail)
    for s in said:
        out += _wrap(s, indent + "    ")
    return out


def render_text(proof: Proof, rows: bool = True) -> str:
    out = _wrap(f"Claude Code sessions of {proof.root}: {headline(proof)}", "")
    if proof.current is not None:
        out += _wrap(f"each checked against the model built with its own version's rules (docs/agents.md); "
                     f"usage against today's ({proof.current.version})", "  ")
    differing = differing_rules(proof.checks)
    for c in sorted(proof.checks, key=lambda c: c.evidence.started, reverse=True):
        out.append("")
        out.append(session_head(c))
        out += rules_line(c, differing)
        if c.note or c.state not in (CHECKED,):
            out += _wrap(f"{c.state}: {c.note}" if c.note else c.state, "  ")
        elif not c.rows:
            out += _wrap(f"it recorded no instruction file at start-up, and the rules of {c.rules_version} "
                         "predict none", "  ")
        if rows:
            for row in c.rows:
                out += row_lines(row)
    out += [""] + listing_lines(proof)
    out += findings_lines(proof.findings)
    return "\n".join(out) + "\n"


def listing_lines(proof: Proof) -> list[str]:
    sim = proof.simulation
    if sim is None or not sim.entries or proof.current is None:  # (a simulation is of today's model)
        return []
    how = f"{sim.fraction:g} of a {sim.window:,}-token window" if sim.fraction else "a fixed budget"
    out = _wrap(f"skill listing as Claude Code {proof.current.version} builds it: {sim.total:,} of {sim.budget:,} "
                f"characters ({how}; descriptions cut at {sim.max_desc:,}; settings: {sim.settings_from})", "")
    for e in sim.entries:
        if not e.path or e.state == "full":
            continue
        what = "listed bare (its description dropped)" if e.state == "bare" else f"cut at {sim.max_desc:,}"
        line = f"{e.name}: {what}, invoked {e.invocations} time(s)"
        if e.lost:
            line += f"; trigger phrases lost: {'; '.join(e.lost[:3])}"
        out += textwrap.wrap(line, WIDTH, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False)
    for s in proof.listed:
        if not s.agrees:
            out += _wrap(f"{s.name}: the session {s.session_id[:8]} listed it {s.recorded}; the simulation: "
                         f"{s.simulated}", "  ")
    if not sim.over and all(s.agrees for s in proof.listed):
        out.append("  every description fits" + (" (as the sessions' listings show)" if proof.listed else ""))
    return out


def findings_lines(findings) -> list[str]:
    if not findings:
        return []
    out = ["", f"findings ({len(findings)})"]
    for f in findings:
        head = f"  {f.severity.label:<7} {f.check}  {f.path}"
        out += [head] if len(head) <= WIDTH else [f"  {f.severity.label:<7} {f.check}", f"          {f.path}"]
        out += _wrap(f.message, "          ")
    return out


def render_markdown(proof: Proof) -> str:
    out = [f"# Claude Code sessions of `{proof.root}`", "", headline(proof), ""]
    differing = differing_rules(proof.checks)
    for c in sorted(proof.checks, key=lambda c: c.evidence.started, reverse=True):
        out += [f"## {session_head(c)}", ""]
        said = " ".join(line.strip() for line in rules_line(c, differing))
        if said:
            out += [said, ""]
        if c.note:
            out += [f"*{c.state}*: {c.note}", ""]
        if c.rows:
            out += ["| | when | file | rule | said |", "| --- | --- | --- | --- | --- |"]
            for r in c.rows:
                said = (f"{r.detail}; predicted: {r.predicted}" if r.predicted else r.detail or r.bytes).replace("|", "/")
                out.append(f"| {_mark(r.status)} {r.status} | {r.when} | `{r.path}` | `{r.rule or '-'}` | {said} |")
            out.append("")
    listing = listing_lines(proof)
    if listing:
        out += ["## Skill listing", "", *(line.strip() for line in listing), ""]
    if proof.findings:
        out += ["## Findings", ""] + [f"- **{f.severity.label}** `{f.check}` `{f.path}`: {f.message}"
                                      for f in proof.findings] + [""]
    return "\n".join(out)


def usage_lines(proof: Proof, top: int = 10) -> list[str]:
    """The instruction files' usage for `curator usage`: each file, skill, command and subagent
    with its sessions, uses, last use and cost."""
    u = proof.usage
    if u is None:
        return []
    out = [f"instruction files: {u.sessions} session(s) whose version records what they load "
           f"(of {len(proof.checks)})"]
    if not u.items:
        return out + ["  none (no CLAUDE.md, rule, skill, command or subagent)"]
    out.append(f"  {'kind':<9} {'sessions':>8} {'uses':>5} {'last':<10} {'cost':>10}  file")
    for i in sorted(u.items, key=lambda i: (-len(i.sessions), -i.cost, i.path))[: max(top, 1) * 3]:
        last = i.last[:10] if i.last else "never"
        name = f"{i.path}" + (f" ({i.name})" if i.name and i.name not in i.path else "")
        out.append(f"  {i.kind:<9} {len(i.sessions):>8} {i.uses:>5} {last:<10} {i.cost:>10,}  {name}")
    left = len(u.items) - max(top, 1) * 3
    if left > 0:
        out.append(f"  … {left} more (--top, or --format json)")
    out.append("  cost: its tokens × the API calls that carried it (a skill's listing line in every call)")
    return out
