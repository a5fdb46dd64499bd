"""`curator tiers` data: each folder's tier, records, tokens and why; the start-up load and why
(the CLI and the app's tiers panel show the same)."""

from __future__ import annotations


def tiers_json(store, tiering, load=None) -> dict:
    """`load`: the store's start-up load (`budgets.startup.startup_of`, the one number every face
    shows; computed when not given)."""
    if load is None:
        from ..budgets.startup import startup_of

        load = startup_of(store)
    from ..base.config import glob_match

    tokens: dict[str, int] = {}
    globs = [f.glob for f in tiering.folders if f.glob]  # top-level session logs: rows of their own
    for rec in store.memories():
        key = next((g for g in globs if glob_match(rec.path, g)), None)
        if key is None:
            key = rec.path.split("/", 1)[0] if "/" in rec.path.lstrip("./") else ""
        tokens[key] = tokens.get(key, 0) + (rec.tokens or 0)

    rows: list[dict] = []
    for f in tiering.folders:
        row = {"folder": f.glob or ((f.folder + "/") if f.folder else "(top level)"), "tier": f.tier,
               "records": f.records, "tokens": tokens.get(f.glob or f.folder, 0), "why": f.reason}
        last = rows[-1] if rows else None
        # logs named one by one (some same-prefix names are knowledge): one row, not 266
        if f.glob and last is not None and last.get("globs") and last["why"] == f.reason and last["tier"] == f.tier:
            last["globs"].append(f.glob)
            last["records"] += row["records"]
            last["tokens"] += row["tokens"]
            last["folder"] = f"{len(last['globs'])} files like {last['globs'][0]}"
            continue
        rows.append({**row, "globs": [f.glob]} if f.glob else row)
    return {
        "store": str(store.given),
        "encoding": store.encoding,
        "folders": rows,
        "startup": {"load": list(tiering.startup), "files": [p for p, _ in load.files], "tokens": load.tokens,
                    "budget": load.cap_tokens, "cap": load.cap_label, "what": load.what,
                    "budgeted": load.capped, "beside": {"tokens": load.beside, "what": load.beside_what},
                    "why": startup_why(store, tiering)},
    }


def startup_why(store, tiering) -> str:
    """Why the start-up load is what it is: the tiered model's reason for a tiered store (and a
    Claude Code MEMORY.md), the format's own rule for the others — never a keyword index's role
    for a store whose agent lists names (Delcampe's INDEX.md was called always-loaded)."""
    from ..model import formats as fmts

    if store.format == fmts.SERENA:
        read = f"; {store.l0.path} is read by name like any memory" if store.l0 is not None else ""
        return "Serena lists every memory by name at start-up (list_memories) and reads a body only when asked" + read
    if store.format == fmts.EXPERIENCE:
        return "the memory-automation plan's first-run load: the latest entries of each folder, summaries first"
    return tiering.startup_reason


def startup_words(st: dict) -> str:
    """"2,761 tokens (budget 4,000) = memory-index.md, knowledge/**" — a tiered store's load by
    its globs; any other format's by what its agent reads."""
    if st["budget"] is not None:
        said = f"{st['budgeted']:,} tokens (budget {st['budget']:,}) = " + (", ".join(st["load"]) or "nothing")
        if st["beside"]["tokens"]:  # Serena's listing, under no budget: the total first, as every face gives it
            return f"{st['tokens']:,} tokens: {said}, and {st['beside']['tokens']:,} of {st['beside']['what']}"
        return said
    cap = "" if st["cap"] in st["what"] else f" ({st['cap']})"
    return f"{st['tokens']:,} tokens{cap} = {st['what']}"
