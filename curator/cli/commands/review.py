"""`curator review`: what the memory changes in the work tree do, against a git revision."""

from __future__ import annotations

NAME = "review"
ORDER = 12
HELP = "review memory changes against a git revision (records, index rows, tokens, findings, queries)"
DESCRIPTION = (
    "Compare the memory in the work tree (staged and unstaged) with a git revision, for every "
    "memory source the repository holds: records added, removed, modified, renamed or moved between "
    "tiers; index rows added, removed, re-pointed or re-keyworded; tokens against their caps; "
    "findings introduced and resolved; golden queries whose results changed."
)


def add_arguments(parser) -> None:
    from ..common import add_format_arg

    parser.add_argument("path", nargs="?", default=".", metavar="PATH",
                        help="the repository, or one memory folder in it (default: the current folder)")
    parser.add_argument("--base", default="HEAD", metavar="REF", help="the git revision to compare with (default: HEAD)")
    add_format_arg(parser, ("text", "json", "markdown"))
    parser.add_argument("--fail-on", choices=("error", "warning", "info", "never"), default="never",
                        help="exit 1 when the changes introduce a finding at or above this severity (default: never)")


def run(args) -> int:
    import sys
    from pathlib import Path

    from ...base.tokens import default_counter, estimating
    from ...model.findings import Severity
    from ...reports.review_report import render_markdown, render_text
    from ...review import GitError, review_repository
    from ..common import (
        EXIT_FINDINGS,
        EXIT_OK,
        UsageError,
        console,
        load_options,
        own_path,
        print_json,
    )

    path = Path(own_path(args.path))
    if not path.exists():
        raise UsageError(f"not found: {args.path}")
    counter = default_counter()
    try:
        review = review_repository(path, args.base, token_counter=counter, persist=not estimating(),
                                   meaning=load_options().meaning)
    except GitError as exc:
        raise UsageError(str(exc)) from None
    finally:
        counter.flush()
    if not review.stores and not review.instructions:
        raise UsageError(f"no memory store found in {review.repo} (looked for .serena/memories, "
                         ".claude/memory and docs/*-experience, now and at " + args.base + "), nor any agent "
                         "instruction file (CLAUDE.md, AGENTS.md, ...)")
    if args.format == "json":
        print_json(review.to_json())
    elif args.format == "markdown":
        from ...reports.escape import plain_text

        sys.stdout.write(plain_text(render_markdown(review)))
    else:
        render_text(console(), review)
    if args.fail_on == "never":
        return EXIT_OK
    fail = Severity.parse(args.fail_on)
    new = [f for s in review.stores for f in s.introduced]
    return EXIT_FINDINGS if any(f.severity >= fail for f in new) else EXIT_OK
