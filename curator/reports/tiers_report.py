"""`curator tiers` data: each folder's tier, records, tokens and why; the start-up load and why
(the CLI and the app's tiers panel show the same)."""

from __future__ import annotations


def tiers_json(store, tiering, load) -> dict:
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
                    "budget": load.budget, "why": tiering.startup_reason},
    }
