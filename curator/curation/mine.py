"""Mine a passage of a session transcript into a reflexion or transient record.

The passage is one or more turns (a user's correction; an error and the fix that followed). The
record is a new file in the tier's folder (the one the store already uses for that tier, else
`reflexion/` or `reflection/`), named `YYYY-MM-DD-slug.md` by the passage's date, with provenance
in its frontmatter — `session_id`, the message `uuid` (and `uuid_to` for a range), `date` — so it
can be promoted later. Nothing is written here: the plan goes through the journaled write path.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date

import yaml

from ..model.store import Store
from .draft import Draft
from .plan import CurationError, Plan
from .validate import memory_name

KINDS = ("reflexion", "transient")
DEFAULT_FOLDER = {"reflexion": "reflexion", "transient": "reflection"}
STOP = frozenset("a an the and or but to of in on at for with is are was were be it this that you i we not no "
                 "please can could should would do does did dont don't just".split())


@dataclass(slots=True)
class Passage:
    """What is mined: the turns' text by role, with the first turn's provenance."""

    session_id: str
    uuid: str
    timestamp: str
    turns: list[tuple[str, str]] = field(default_factory=list)  # (role, text)
    uuid_to: str = ""
    task: str = ""  # the session's title
    branch: str = ""

    @property
    def day(self) -> date | None:
        try:
            return date.fromisoformat(self.timestamp[:10])
        except ValueError:
            return None


def slugify(text: str, words: int = 6) -> str:
    found = [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP]
    return "-".join(found[:words]) or "passage"


def tier_folder(store: Store, tier: str) -> str:
    """The folder the store keeps this tier's records in (the most used), else the default."""
    folders = Counter(r.folder for r in store.records.values() if r.level == 2 and r.tier == tier and r.folder)
    if folders:
        return folders.most_common(1)[0][0]
    return DEFAULT_FOLDER["reflexion" if tier == "reflexion" else "transient"]


def _quote(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.strip().splitlines())


def record_text(passage: Passage, kind: str, title: str, day: date, today: date) -> str:
    meta: dict = {"date": day, "session_id": passage.session_id, "uuid": passage.uuid}
    if passage.uuid_to:
        meta["uuid_to"] = passage.uuid_to
    if kind == "reflexion":
        meta.update({"agent": "claude-code", "task": passage.task or title, "severity": "medium", "tags": ["mined"]})
    else:
        meta.update({"task": passage.task or title, "status": "mined"})
    meta["mined"] = today
    front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=1000).strip()
    asked = [t for r, t in passage.turns if r in ("user", "tool", "system") and t.strip()]
    answered = [t for r, t in passage.turns if r == "assistant" and t.strip()]
    lines = [f"---\n{front}\n---", "", f"# {title}", ""]
    if kind == "reflexion":
        lines += ["## Known Issue", _quote(asked[0] if asked else answered[0]), ""]
        if len(asked) > 1:
            lines += ["## Symptoms", *(_quote(t) + "\n" for t in asked[1:])]
        lines += ["## Root Cause", "To be written when this is reviewed.", ""]
        lines += ["## Solution", *((_quote(t) + "\n") for t in answered)] if answered else \
                 ["## Solution", "To be written when this is reviewed.", ""]
        lines += ["## Prevention", "To be written when this is reviewed.", ""]
    else:
        lines += ["## Passage", ""]
        for role, text in passage.turns:
            if text.strip():
                lines += [f"**{role}**:", "", _quote(text), ""]
    where = f"session `{passage.session_id}`, message `{passage.uuid}`"
    if passage.branch:
        where += f", branch `{passage.branch}`"
    lines += ["## Related", f"- Mined from {where}."]
    return "\n".join(lines).rstrip("\n") + "\n"


def plan_mine(store: Store, passage: Passage, kind: str = "reflexion", *, dest: str | None = None,
              title: str | None = None, today: date | None = None) -> Plan:
    if kind not in KINDS:
        raise CurationError(f"mine as reflexion or transient, not {kind!r}")
    if not any(t.strip() for _, t in passage.turns):
        raise CurationError(f"message {passage.uuid} has no text to mine")
    for rec in store.records.values():
        if rec.frontmatter.get("uuid") == passage.uuid and rec.frontmatter.get("session_id") == passage.session_id:
            raise CurationError(f"message {passage.uuid} was already mined into {rec.path}")
    today = today or store.today
    day = passage.day or today
    first = next(t for _, t in passage.turns if t.strip())
    title = (title or " ".join(first.split())[:72]).strip() or "Mined passage"
    if dest is None:
        dest = f"{tier_folder(store, kind)}/{day.isoformat()}-{slugify(title if title else first)}.md"
    dest = memory_name(store.root, dest)
    tier = store.config.tier_for(re.sub(r"^(\.\./)+", "", dest))
    if tier != kind:
        raise CurationError(f"{dest} would be in the {tier} tier, not {kind}; pick a {kind} folder")
    draft = Draft(store.root, "mine", f"mine {passage.uuid[:8]} of session {passage.session_id[:8]} → {dest}", store)
    draft.create(dest, record_text(passage, kind, title, day, today))
    draft.notes.append(f"a {kind} record with provenance; promote it once it is reviewed")
    return draft.plan()


def passage_of(session, uuid: str, uuid_to: str | None = None) -> Passage:
    """The Passage of a session (a `curator.transcripts.Session`) from message `uuid` (through
    `uuid_to`)."""
    from pathlib import Path

    from ..transcripts.conversation import passage, turn_text

    paths = [Path(s.path) for s in session.scans]
    turns = passage(paths, uuid, uuid_to)
    if not turns:
        if uuid_to:
            raise CurationError(f"no passage from {uuid} through {uuid_to} in session {session.session_id}")
        raise CurationError(f"no message {uuid} in session {session.session_id}")
    return Passage(session.session_id, turns[0].uuid, turns[0].timestamp, [(t.role, turn_text(t)) for t in turns],
                   uuid_to=turns[-1].uuid if uuid_to else "", task=session.title, branch=session.main.branch)
