"""Gemini CLI's folder trust (`packages/core/src/utils/trust.ts`): in a folder you have not
trusted it reads none of the workspace's GEMINI.md files, settings or skills. Your choices are in
`~/.gemini/trustedFolders.json` (`TRUST_FOLDER`, `TRUST_PARENT`, `DO_NOT_TRUST`; the longest
matching path decides); `GEMINI_CLI_TRUST_WORKSPACE=true`, or trust turned off in your
settings, trusts every folder. Read-only, and not read when CI is set."""

from __future__ import annotations

import json
import os

from .builder import Builder
from .model import AgentContext, Unseen
from .user import read_text


def trust_of(b: Builder, rules) -> tuple[bool | None, str]:
    """True / False (what you chose, and where), None when you have not chosen yet."""
    spec = rules.value("trust.folder")
    if str(b.env.get(spec["variable"], "")).lower() == "true":
        return True, f"${spec['variable']} is set"
    settings = _json(os.path.join(b.home, ".gemini", "settings.json"))
    node: object = settings
    for key in spec["setting"]:
        node = node.get(key) if isinstance(node, dict) else None
    if node is False:
        return True, "folder trust is off in your ~/.gemini/settings.json"
    choices = _json(os.path.join(b.home, spec["file"]))
    here = os.path.realpath(b.fs.root)
    best, level = -1, None
    for path, chosen in choices.items():
        if not isinstance(path, str) or chosen not in ("TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST"):
            continue
        base = os.path.realpath(os.path.dirname(path) if chosen == "TRUST_PARENT" else path)
        inside = here == base or here.startswith(base.rstrip(os.sep) + os.sep)
        if inside and len(path) > best:
            best, level = len(path), chosen
    where = "~/" + spec["file"]
    if level == "DO_NOT_TRUST":
        return False, f"you chose not to trust it ({where})"
    return (True, f"trusted in {where}") if level else (None, "")


def _json(path: str) -> dict:
    try:
        data = json.loads(read_text(path) or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def apply_trust(b: Builder, ctx: AgentContext, user_files=None) -> None:
    """Your files first (`user_files(b, ctx)`: trust never hides them); then, in an untrusted
    folder, the workspace's files move to never; in one not decided yet: a note."""
    if user_files is not None:
        user_files(b, ctx)
    rules = b.rules_of("gemini")
    if b.ci or not rules.has("trust.folder") or not (ctx.startup or ctx.on_demand):
        return
    trusted, why = trust_of(b, rules)
    rule = rules.id("trust.folder")
    if trusted is None:
        ctx.notes.append("Gemini CLI asks whether to trust this folder the first time it runs here: until you do, it "
                         "reads none of the workspace's GEMINI.md files or skills")
    elif trusted is False:
        reason = f"the folder is not trusted: {why}"
        ctx.never += [Unseen(e.path, reason, e.bytes, rule) for e in ctx.startup]
        ctx.never += [Unseen(o.path, reason, o.bytes, rule) for o in ctx.on_demand]
        ctx.startup, ctx.on_demand = [], []
        ctx.notes.append(f"Gemini CLI reads none of the workspace's files: {why}")
