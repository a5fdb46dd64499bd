"""Index files written back from parsed rows, for the parsers' round-trip tests (curator itself
edits an index line by line: `format_domain_row`, `format_l0_row`)."""

from __future__ import annotations

from curator.model.indexes import L0Index, format_domain_row, format_l0_row


def format_domain_index(rows: list[tuple[list[str], str]]) -> str:
    lines = ["| Keywords | File |", "|----------|------|"]
    lines += [format_domain_row(k, t) for k, t in rows]
    return "\n".join(lines) + "\n"


def format_l0(idx: L0Index) -> str:
    """An L0 written back in its own dialect."""
    out: list[str] = []
    if idx.dialect == "table":
        out += ["| Keywords | File | Tokens |" if any(lk.count is not None for _, lk in idx.links()) else "| Keywords | File |"]
        out += ["|---|---|---|" if out[0].count("|") == 4 else "|---|---|"]
        for row in idx.rows:
            out.append(format_l0_row(row.keywords, row.links, "table"))
        return "\n".join(out) + "\n"
    current = object()
    for row in idx.rows:
        if row.section != current:
            if row.section is not None:
                out.append(f"[{row.section}]")
            current = row.section
        out.append(format_l0_row(row.keywords, row.links))
    return "\n".join(out) + "\n"
