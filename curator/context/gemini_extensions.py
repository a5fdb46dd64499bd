"""Gemini CLI's extensions (`packages/cli/src/config/extension-manager.ts` at v0.56.0): each
`~/.gemini/extensions/<name>/gemini-extension.json` brings its context files (`contextFileName`,
`GEMINI.md` by default, inside the extension's folder) into every session where the extension is
enabled — whatever the folder's trust. Extensions are on unless `extension-enablement.json` turns
one off for this folder (its last matching override wins). Read-only, shown apart, not in CI."""

from __future__ import annotations

import os

from .builder import Builder
from .model import AgentContext
from .user import json_object, read_user

ENABLEMENT = "extension-enablement.json"
MANIFEST = "gemini-extension.json"


def _slashed(path: str) -> str:
    p = path.replace("\\", "/")
    return ("" if p.startswith("/") else "/") + p + ("" if p.endswith("/") else "/")


def _wild(pattern: str, text: str) -> bool:
    """`*` as any run of characters, the rest literal, the whole text: greedy, in linear passes
    (a regular expression of many `*` backtracks without end on a long path)."""
    parts = pattern.split("*")
    if len(parts) == 1:
        return pattern == text
    if not text.startswith(parts[0]) or not text.endswith(parts[-1]) or len(parts[0]) + len(parts[-1]) > len(text):
        return False
    at, end = len(parts[0]), len(text) - len(parts[-1])
    for part in parts[1:-1]:
        at = text.find(part, at, end)
        if at < 0:
            return False
        at += len(part)
    return True


def enabled(config: dict, name: str, here: str) -> bool:
    """As `ExtensionEnablementManager.isEnabled`: on by default, the last matching rule wins."""
    entry = config.get(name)
    overrides = entry.get("overrides") if isinstance(entry, dict) else None
    on = True
    for rule in overrides if isinstance(overrides, list) else []:
        if isinstance(rule, str) and _wild(rule[1:] if rule.startswith("!") else rule, _slashed(here)):
            on = not rule.startswith("!")
    return on


def extension_context(b: Builder, ctx: AgentContext) -> None:
    rules = b.rules_of("gemini")
    if b.ci or not rules.has("extensions.folder"):
        return
    folder = os.path.join(b.home, rules.value("extensions.folder"))
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return
    config = json_object(os.path.join(folder, ENABLEMENT))
    here = os.path.realpath(b.fs.root)
    for sub in names:
        root = os.path.join(folder, sub)
        manifest = json_object(os.path.join(root, MANIFEST))
        if not manifest or os.path.islink(root):
            continue
        given = manifest.get("name")
        name = given if isinstance(given, str) and given else sub
        if not enabled(config, name, here):
            ctx.notes.append(f"Gemini CLI extension {name} is turned off for this folder: its context is not read")
            continue
        files = manifest.get("contextFileName") or "GEMINI.md"
        names = [files] if isinstance(files, str) else [f for f in files if isinstance(f, str)] if isinstance(
            files, list) else []
        kept = _valid(names, root, rules.value("extensions.bad-name", "file"))
        if kept is None:
            ctx.notes.append(f"Gemini CLI skips extension {name} whole: a context-file name leaves its folder")
            continue
        for full in kept:
            for shown, text in read_user(b.home, [os.path.relpath(full, b.home)], []):
                ctx.add_user(shown, text, f"extension {name}'s context (user level, every session)",
                             rules.id("extensions.folder"))


def _valid(names: list[str], root: str, bad: str) -> list[str] | None:
    """The context files an extension brings (full paths): until 0.60.0 a name leaving its folder
    skips the whole extension (None); since, an empty or absolute name or one holding `..`
    (also URL-encoded) is dropped alone (`extensions.bad-name`)."""
    from urllib.parse import unquote

    out = []
    for rel in names:
        full = os.path.normpath(os.path.join(root, rel))
        outside = not full.startswith(root + os.sep)
        if bad == "extension":
            if outside:
                return None
        elif not rel.strip() or "\x00" in rel or os.path.isabs(rel) or rel.startswith("\\") or ".." in rel \
                or ".." in unquote(rel) or outside or (len(rel) > 1 and rel[1] == ":" and rel[0].isalpha()):
            continue
        out.append(full)
    return out
