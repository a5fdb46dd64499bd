"""Where the ADRs that curator cites can be read (the public repository they come from)."""

from __future__ import annotations

import re

BASE = "https://github.com/rjmurillo/ai-agents/blob/main/.agents/architecture/"
ADRS = {
    "ADR-017": BASE + "ADR-017-tiered-memory-index-architecture.md",
    "ADR-037": BASE + "ADR-037-memory-router-architecture.md",
}


def linked(text: str, style: str = ""):
    """Rich Text of `text` with each known ADR id a clickable link."""
    from rich.text import Text

    out = Text(text, style=style)
    for m in re.finditer(r"ADR-\d{3}", text):
        url = ADRS.get(m.group(0))
        if url:
            out.stylize(f"underline link {url}", m.start(), m.end())
    return out
