"""Files in a memory folder that are not memories: a `.txt` report the agent never lists, a
linter's config (`.eslintrc.cjs`, `.prettierrc`) that belongs to the code, not the memory."""

from __future__ import annotations

import re

from .findings import Finding, Severity

CHECK = "store.foreign-file"
# hidden files that are tool configuration (editor and VCS leftovers such as .gitkeep,
# .DS_Store or swap files stay unremarked)
TOOL_CONFIG = re.compile(r"^\.(eslintrc|prettierrc|stylelintrc|babelrc|editorconfig|npmrc|nvmrc|markdownlint"
                         r"|browserslistrc|swcrc|lintstagedrc)([.\w-]*)$", re.IGNORECASE)


# what a memory may link beside it (images, a diagram's source), and curator's own files
ATTACHMENTS = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".drawio", ".excalidraw", ".mmd", ".pdf")
OWN = {"golden-queries.yaml", "golden-queries.yml"}


def is_attachment(name: str) -> bool:
    return name.lower().endswith(ATTACHMENTS) or name in OWN


def foreign_file(rel: str, hidden: bool) -> Finding:
    if hidden:
        message = ("tool configuration in the memory folder: it configures code, not memory — move it to "
                   "the repository root (or the package it belongs to)")
    else:
        message = ("not markdown: the agent's memory tools list and read only .md files, so nobody sees "
                   "it — rename it to .md if it is a memory, else move it out of the memory folder")
    return Finding(CHECK, Severity.WARNING, rel, message)
