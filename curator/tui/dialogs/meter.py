"""The live uniqueness / collision meter shown while keywords are typed."""

from __future__ import annotations

from rich.text import Text

from ...reports.keyword_advice import too_few


def meter_text(store, index: str, keywords: list[str], replacing_line: int | None = None) -> Text:
    from ...curation import meter

    if not keywords:
        return Text("type some keywords (ADR-017 recommends 10–15)", style="dim")
    u, collisions = meter(store, index, keywords, replacing_line)
    need = store.config.thresholds.uniqueness
    out = Text()
    filled = round(20 * u)
    colour = "success" if u >= 0.6 else ("warning" if u >= need else "error")
    # the bar, then what its share is of: the keywords no other row of this index uses
    out.append("█" * filled, style=colour)
    out.append("░" * (20 - filled), style="dim")
    out.append(f" {u:.0%}", style=f"bold {colour}")
    out.append(f" unique in {index.rsplit('/', 1)[-1]}")
    out.append(f"\n{len(keywords)} keyword(s)", style="warning" if len(keywords) < store.config.thresholds.min_keywords else "dim")
    warning = too_few(store, keywords)
    if warning:
        out.append(f"\n▲ {warning}", style="bold warning")
    if collisions:
        path, line, shared = collisions[0]
        out.append(f"\nshares {len(shared)} with {path}:{line}{'' if path == index else ' (another index)'}: ", style="dim")
        out.append(" ".join(shared[:8]), style="accent")
        if len(collisions) > 1:
            out.append(f" (+{len(collisions) - 1} more rows)", style="dim")
    return out
