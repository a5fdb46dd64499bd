"""`curator baseline`: record the store's current findings as accepted, in a committed file."""

from __future__ import annotations

NAME = "baseline"
ORDER = 11
HELP = "write the current findings to a baseline file; `check --baseline FILE` then fails only on new ones"


def add_arguments(parser) -> None:
    from ..common import add_store_args

    add_store_args(parser)
    parser.add_argument("--output", "-o", metavar="FILE",
                        help="where to write it (default: .curator-baseline.json in the store folder)")


def run(args) -> int:
    from pathlib import Path

    from ...checks import run_checks
    from ...review.baseline import BASELINE_NAME, make_baseline, write_baseline
    from ..common import EXIT_OK, UsageError, console, open_store

    store, _ = open_store(args)
    findings = run_checks(store)
    out = Path(args.output) if args.output else store.root / BASELINE_NAME
    if out.is_dir():
        raise UsageError(f"{out} is a folder; give a file name")
    try:
        write_baseline(out, make_baseline(store, findings))
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from None
    console().print(f"wrote {len(findings)} finding{'s' if len(findings) != 1 else ''} to {out}; "
                    f"commit it and run `curator check --baseline {out}`")
    return EXIT_OK
