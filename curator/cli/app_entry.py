"""`curator [STORE]` with no command: open the app (until it exists, print a store summary)."""

from __future__ import annotations

import argparse

from .common import add_store_args, console, open_store


def run_app(argv: list[str]) -> int:
    from . import _Parser

    parser = _Parser(prog="curator", description="Open the curator app on STORE.")
    add_store_args(parser)
    parser.add_argument("--theme", help="theme name ('?' lists themes)")
    args = parser.parse_args(argv)
    store, located = open_store(args)
    out = console()
    tiers: dict[str, int] = {}
    for r in store.records.values():
        tiers[r.tier] = tiers.get(r.tier, 0) + 1
    out.print(f"[bold]{located.given}[/]: {len(store.records)} files, {store.total_tokens:,} tokens ({store.encoding})")
    for tier, n in sorted(tiers.items()):
        out.print(f"  {tier:<10} {n}")
    return 0


__all__ = ["run_app", "argparse"]
