"""Gemini CLI's folder trust (`packages/core/src/utils/trust.ts`): in a folder you have not
trusted it reads none of the workspace's GEMINI.md files, settings or skills. Your choices are in
`~/.gemini/trustedFolders.json` (`TRUST_FOLDER`, `TRUST_PARENT`, `DO_NOT_TRUST`; the longest
matching path decides); `GEMINI_CLI_TRUST_WORKSPACE=true`, or trust turned off in your
settings, trusts every folder — unless, since 0.57.0, `GEMINI_CLI_TRUST_WORKSPACE=false` or (0.59.0)
`GEMINI_RESTRICTED_MODE=true` says it is untrusted (`trust.env-off`). Read-only, and not read when CI is set."""

from __future__ import annotations

import os

from .builder import Builder
from .model import AgentContext, Unseen
from .user import json_object, json_value, read_text

_LEVELS = ("TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST")


class Refused(Exception):
    """A trust file Gemini CLI stops at (`FatalConfigError`): not an object, or a level it lacks."""


def trust_of(b: Builder, rules) -> tuple[bool | None, str]:
    """True / False (what you chose, and where), None when you have not chosen yet. Raises
    Refused for a file Gemini CLI will not start with. Decided once a build: your files, the
    system prompt and the workspace's settings all ask."""
    got = b.once("gemini trust", lambda: _decided(b, rules))
    if isinstance(got, Refused):
        raise got
    return got


def _decided(b: Builder, rules) -> tuple[bool | None, str] | Refused:
    try:
        return _trust_of(b, rules)
    except Refused as exc:
        return exc


def _trust_of(b: Builder, rules) -> tuple[bool | None, str]:
    spec = rules.value("trust.folder")
    off = env_off(b, rules)
    if off:
        return False, off
    if b.env.get(spec["variable"]) == "true":
        return True, f"${spec['variable']} is true"
    settings = json_object(os.path.join(b.home, ".gemini", "settings.json"))
    node: object = settings
    for key in spec["setting"]:
        node = node.get(key) if isinstance(node, dict) else None
    if node is False:
        return True, "folder trust is off in your ~/.gemini/settings.json"
    where = "~/" + spec["file"]
    text = read_text(os.path.join(b.home, spec["file"]))
    choices = json_value(text) if text is not None else {}
    if not isinstance(choices, dict):
        raise Refused(f"{where} is not a JSON object")
    odd = next((v for v in choices.values() if v not in _LEVELS), None)
    if odd is not None:
        raise Refused(f"{where} holds the trust level {odd!r}")
    here = os.path.realpath(b.fs.root)
    best, level = -1, None
    for path, chosen in choices.items():
        base = os.path.realpath(os.path.dirname(path) if chosen == "TRUST_PARENT" else path)
        inside = here == base or here.startswith(base.rstrip(os.sep) + os.sep)
        if inside and len(path) > best:  # the key's own length, as trust.ts at v0.56.0 compares it
            best, level = len(path), chosen
    if level == "DO_NOT_TRUST":
        return False, f"you chose not to trust it ({where})"
    return (True, f"trusted in {where}") if level else (None, "")


def env_off(b: Builder, rules) -> str:
    """The variable that makes the folder untrusted whatever you chose ("": none), asked first
    and compared exactly, as `checkPathTrust` does (`trust.env-off`, since 0.57.0)."""
    for variable, value in rules.value("trust.env-off", {}).items():
        if b.env.get(variable) == value:
            return f"${variable} is {value}"
    return ""


def apply_trust(b: Builder, ctx: AgentContext, user_files=None, after=None) -> None:
    """Your files first (`user_files(b, ctx)`: trust never hides them); then, in an untrusted
    folder, the workspace's files move to never; in one not decided yet: a note. `after(b, ctx)`:
    what Gemini reads whatever the trust (the system-prompt file)."""
    if user_files is not None:
        user_files(b, ctx)
    _trust(b, ctx)
    if after is not None:
        after(b, ctx)


def _trust(b: Builder, ctx: AgentContext) -> None:
    from .gemini_extensions import extension_context

    extension_context(b, ctx)
    rules = b.rules_of("gemini")
    if not rules.has("trust.folder") or not (ctx.startup or ctx.on_demand):
        return
    off = env_off(b, rules)  # a variable, not a file of yours: it counts in CI too
    if b.ci and not off:
        return
    try:
        trusted, why = (False, off) if off else trust_of(b, rules)
    except Refused as exc:
        ctx.notes.append(f"Gemini CLI refuses to start while {exc}: fix the file (curator shows what it would load)")
        return
    rule = rules.id("trust.env-off" if off else "trust.folder")
    if trusted is None:
        ctx.notes.append("Gemini CLI asks whether to trust this folder the first time it runs here: until you do, it "
                         "reads none of the workspace's GEMINI.md files or skills")
    elif trusted is False:
        reason = f"the folder is not trusted: {why}"
        ctx.never += [Unseen(e.path, reason, e.bytes, rule) for e in ctx.startup]
        ctx.never += [Unseen(o.path, reason, o.bytes, rule) for o in ctx.on_demand]
        ctx.startup, ctx.on_demand = [], []
        ctx.notes.append(f"Gemini CLI reads none of the workspace's files: {why}")
