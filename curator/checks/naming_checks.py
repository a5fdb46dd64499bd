"""naming.*: the deprecated `skill-` prefix and kebab-case basenames (basenames, not paths)."""

from __future__ import annotations

import re

from .context import Context

KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
EXEMPT = {"README", "CLAUDE", "AGENTS", "CHANGELOG"}


def _stem(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(".md")


def run(ctx: Context) -> None:
    store = ctx.store
    for path in ctx.file_paths():
        stem = _stem(path)
        if stem.startswith("skill-"):
            ctx.add(
                "naming.skill-prefix",
                path,
                f"file name {stem!r} uses the deprecated `skill-` prefix (ADR-017: use {{domain}}-{{description}})",
                suggestion=path[: len(path) - len(stem) - 3] + stem.removeprefix("skill-") + ".md",
            )
        if stem not in EXEMPT and not KEBAB.match(stem):
            ctx.add("naming.case", path, f"file name {stem!r} is not kebab-case", suggestion=_kebab(path))
    for index_path, rows in store.all_indexes() if ctx.paths is None else ():
        for row in rows:
            for link in row.links:
                if link.target and _stem(link.target).startswith("skill-"):
                    ctx.add(
                        "naming.skill-prefix",
                        index_path,
                        f"row points at {link.target}, a `skill-` prefixed name",
                        line=row.line,
                        target=link.target,
                    )


def _kebab(path: str) -> str:
    folder, _, name = path.rpartition("/")
    stem = name.removesuffix(".md")
    stem = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", stem)
    stem = re.sub(r"[^a-zA-Z0-9]+", "-", stem).strip("-").lower()
    return f"{folder}/{stem}.md" if folder else f"{stem}.md"
