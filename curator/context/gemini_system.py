"""Gemini CLI's system-prompt file: with `GEMINI_SYSTEM_MD` set to `1` or `true`, the
`.gemini/system.md` of the folder Gemini starts in replaces its whole built-in system prompt
(another value names the file; `0` or `false` keeps the built-in one). It is read whatever the
folder's trust, so it is added after trust has moved the workspace's files (gemini_trust.py).
Without the variable, a committed `.gemini/system.md` loads only for those who set it.
"""

from __future__ import annotations

import os
import re

from ..base.paths import from_home
from .builder import Builder
from .model import AgentContext, Loaded, OnDemand


def system_prompt(b: Builder, ctx: AgentContext) -> None:
    rules = b.rules_of("gemini")
    if not rules.has("system.file"):
        return
    form = rules.value("system.file")
    rule, default = rules.id("system.file"), form["file"]
    value, where = b.env.get(form["variable"], "").strip(), ""
    if not value and rules.has("system.env-file"):
        value, where = _from_env_file(b, rules)
    if not value or value.lower() in form["off"]:
        t = b.text(default) if default in b.fs.fileset else None
        if t is not None:
            ctx.on_demand.append(OnDemand(default, f"only with {form['variable']}=1: it then replaces Gemini's whole "
                                          "system prompt", 0, t.size, "manual", text=t.text, rule=rule))
        return
    path = default if value.lower() in form["on"] else from_home(value, b.home)
    full = os.path.normpath(os.path.join(b.fs.root, path))
    rel = os.path.relpath(full, b.fs.root).replace(os.sep, "/")
    why = f"the system prompt ({form['variable']}{' in ' + where if where else ''}): it replaces Gemini's own"
    if not rel.startswith("../"):
        t = b.text(rel) if rel in b.fs.fileset else None
        if t is not None:
            ctx.startup.insert(0, Loaded(rel, t.size, 0, why, None, None, t.text, rule))
            return
        if not os.path.isfile(full):
            ctx.notes.append(f"{form['variable']} is set, but {rel} is not a file here: Gemini CLI refuses to start")
            return
        # a link out of the repository: Gemini reads where it leads, a file of yours (apart)
    if b.ci:
        return
    from .user import read_text, shown_path

    text = read_text(full)
    if text is None:
        ctx.notes.append(f"{form['variable']} names {shown_path(b.home, full)}, which is not a file: Gemini CLI "
                         "refuses to start")
    else:
        ctx.add_user(shown_path(b.home, full), text, why, rule)


def _from_env_file(b: Builder, rules) -> tuple[str, str]:
    """(value, file) of the variable in the env file Gemini loads in a trusted folder: the first
    of `.gemini/.env` and `.env` that exists (only one file is read; a variable of your shell
    wins, as the caller asked it first). ("", "") in a folder not trusted, or when CI is set."""
    from .gemini_trust import Refused, trust_of

    if b.ci or not rules.has("trust.folder"):
        return "", ""
    try:
        trusted, _ = trust_of(b, rules)
    except Refused:
        return "", ""
    if trusted is not True:
        return "", ""  # an untrusted folder's .env gives only the login variables
    name = rules.value("system.file")["variable"]
    for rel in rules.value("system.env-file"):
        t = b.text(rel) if rel in b.fs.fileset else None
        if t is None:
            continue
        for line in t.text.splitlines():
            m = re.match(rf"\s*(?:export\s+)?{re.escape(name)}\s*=\s*(.*)$", line)
            if m:
                raw = m.group(1).strip()
                quoted = raw[:1] in ("'", '"') and raw.endswith(raw[:1]) and len(raw) > 1
                return (raw[1:-1] if quoted else raw.split(" #", 1)[0].strip()), rel
        return "", ""  # the first env file found is the one read
    return "", ""
