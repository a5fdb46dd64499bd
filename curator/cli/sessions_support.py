"""What the session-tier commands (sessions, usage, mine, prune --unused-for) share: where the
transcripts are and how a session is named on the command line."""

from __future__ import annotations

from pathlib import Path

from .common import UsageError


def add_projects_arg(parser) -> None:
    parser.add_argument("--projects", action="append", metavar="DIR",
                        help="a Claude Code projects folder to search (repeatable; default: $CLAUDE_CONFIG_DIR "
                             "roots, else ~/.claude/projects and ~/.config/claude/projects)")


def roots_of(args) -> list[Path] | None:
    given = getattr(args, "projects", None)
    if not given:
        return None
    roots = [Path(p).expanduser() for p in given]
    for r in roots:
        if not r.is_dir():
            raise UsageError(f"projects folder not found: {r}")
    return roots


def index_for(repo: Path, args, *, match_all: bool = False):
    from ..transcripts import SessionIndex

    return SessionIndex.for_repo(repo, roots_of(args), match_all=match_all)



def store_usage(store, args, progress=None):
    """(UsageIndex, SessionIndex) for a loaded store."""
    from ..base.paths import transcript_repository
    from ..transcripts import usage_for_store

    return usage_for_store(store.root, list(store.records), store.today, transcript_repository(store.root), roots_of(args), progress)
