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
    from dataclasses import replace
    from pathlib import Path

    from ...review.baseline import BASELINE_NAME, make_baseline, write_baseline
    from ..common import EXIT_OK, UsageError, console, open_repository, store_argument

    # the findings exactly as `check` reports them (a repository: every source's, the ones
    # across sources and the instruction files', paths relative to the repository)
    try:
        repo, located = open_repository(args)
    except UsageError:
        from ...live.instructions import instructions_only

        got = instructions_only(store_argument(args))
        if got is None:
            raise
        repo, located = got
    store = repo.loaded()[0].store if repo.single else replace(repo, given=located.given)
    findings = repo.findings()
    out = Path(args.output) if args.output else Path(store.root) / BASELINE_NAME
    if out.is_dir():
        raise UsageError(f"{out} is a folder; give a file name")
    try:
        write_baseline(out, make_baseline(store, findings))
    except OSError as exc:
        raise UsageError(f"cannot write {out}: {exc.strerror or exc}") from None
    console().print(f"wrote {len(findings)} finding{'s' if len(findings) != 1 else ''} to {out}; "
                    f"commit it and run `curator check --baseline {out}`")
    return EXIT_OK
