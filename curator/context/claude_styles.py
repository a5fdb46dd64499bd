"""Claude Code's output styles (`.claude/output-styles/*.md`, yours in `~/.claude/output-styles/`):
the one your `outputStyle` setting names joins the context at start-up, as `# Output Style:
<name>` and its body; the others are never read. A style without `keep-coding-instructions`
takes the place of Claude Code's own coding instructions (not counted: the built-in prompt is not)."""

from __future__ import annotations

import os
from typing import Any

from ..agents import RuleSet
from .builder import Builder
from .model import AgentContext, Loaded, Unseen
from .parse import claude_meta


def _styles(b: Builder, folder: str, requote: bool = False) -> dict[str, tuple[str, Any, Any]]:
    """name -> (path, text, meta) of the repository's styles (a frontmatter `name`, else the file's)."""
    out: dict[str, tuple[str, Any, Any]] = {}
    for rel in b.fs.under(folder):
        if not rel.endswith(".md"):
            continue
        t = b.text(rel)
        if t is None:
            continue
        meta = claude_meta(t.text, requote)
        name = str(meta.data.get("name") or os.path.basename(rel)[:-3]).strip() if not meta.error else \
            os.path.basename(rel)[:-3]
        out.setdefault(name, (rel, t, meta))
    return out


def output_styles(b: Builder, ctx: AgentContext, rules: RuleSet, chosen: tuple[str, str] | None) -> None:
    if not rules.has("output-styles.folder"):
        return
    from .claude_items import switch_on, written

    spec, rule = rules.value("output-styles.folder"), rules.id("output-styles.folder")
    styles = _styles(b, spec["folder"], rules.value("frontmatter.requote", False))
    name, where = chosen if chosen is not None else (spec["default"], "")
    for style, (rel, t, meta) in styles.items():
        if style != name:
            ctx.never.append(Unseen(rel, f"an output style no setting selects (outputStyle is {name})", t.size, rule))
            continue
        ctx.startup.append(Loaded(rel, t.size, 0, f"output style {style} (outputStyle in {where})", None, None,
                                  f"# Output Style: {style}\n{meta.body}", rule))
        if not switch_on(rules, written(t.text, spec["keep"])):
            ctx.notes.append(f"output style {style} has no keep-coding-instructions: true, so Claude Code leaves its "
                             "own coding instructions out of the system prompt")
    if chosen is not None and name not in styles and name != spec["default"]:
        ctx.notes.append(f"outputStyle is {name} ({where}): a built-in style or one of yours, not the repository's")
