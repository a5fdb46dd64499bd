"""`curator tiers` data: each folder's tier, records, tokens and why; the start-up load and why
(the CLI and the app's tiers panel show the same)."""

from __future__ import annotations


def tiers_json(store, tiering, load=None) -> dict:
    """`load`: the store's start-up load (`budgets.startup.startup_of`, the one number every face
    shows; computed when not given)."""
    if load is None:
        from ..budgets.startup import startup_of

        load = startup_of(store)
    tokens: dict[str, int] = {}
    for rec in store.memories():
        folder = rec.path.split("/", 1)[0] if "/" in rec.path.lstrip("./") else ""
        tokens[folder] = tokens.get(folder, 0) + (rec.tokens or 0)
    return {
        "store": str(store.given),
        "encoding": store.encoding,
        "folders": [
            {"folder": (f.folder + "/") if f.folder else "(top level)", "tier": f.tier, "records": f.records,
             "tokens": tokens.get(f.folder, 0), "why": f.reason}
            for f in tiering.folders
        ],
        "startup": {"load": list(tiering.startup), "files": [p for p, _ in load.files], "tokens": load.tokens,
                    "budget": load.cap_tokens, "cap": load.cap_label, "what": load.what,
                    "why": tiering.startup_reason},
    }


def startup_words(st: dict) -> str:
    """"2,761 tokens (budget 4,000) = memory-index.md, knowledge/**" — a tiered store's load by
    its globs; any other format's by what its agent reads."""
    if st["budget"] is not None:
        return f"{st['tokens']:,} tokens (budget {st['budget']:,}) = " + (", ".join(st["load"]) or "nothing")
    cap = "" if st["cap"] in st["what"] else f" ({st['cap']})"
    return f"{st['tokens']:,} tokens{cap} = {st['what']}"
