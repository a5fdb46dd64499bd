"""`curator mine SESSION UUID --as reflexion|transient`: a transcript passage becomes a record."""

from __future__ import annotations

NAME = "mine"
ORDER = 62
HELP = "turn a session passage (a correction, an error and its fix) into a reflexion or transient record"


def add_arguments(parser) -> None:
    from ..curate import add_write_args
    from ..sessions_support import add_projects_arg

    parser.add_argument("session", metavar="SESSION", help="the session: its id, a unique prefix or its file name")
    parser.add_argument("uuid", metavar="UUID", help="the message's uuid (see curator sessions --show SESSION)")
    parser.add_argument("--to", metavar="UUID", help="extend the passage through this later message")
    parser.add_argument("--as", dest="kind", choices=("reflexion", "transient"), default="reflexion",
                        help="the record's tier (default: reflexion)")
    parser.add_argument("--dest", metavar="PATH", help="the new record's path (default: <tier folder>/<date>-<slug>.md)")
    parser.add_argument("--title", help="the record's title (default: the passage's first words)")
    add_projects_arg(parser)
    add_write_args(parser, positional_store=False)


def run(args) -> int:
    from ...base.paths import transcript_repository
    from ...curation.mine import passage_of, plan_mine
    from ..common import UsageError, open_store, refuse_read_only
    from ..curate import finish, planning, recover_first
    from ..sessions_support import index_for

    store, located = open_store(args, quiet_notice=True)
    refuse_read_only(located)
    recover_first(store.root)
    index = index_for(transcript_repository(store.root), args)
    index.quick()
    session = index.find(args.session)
    if session is None:
        raise UsageError(f"no session {args.session!r} for {index.discovery.repo} (see curator sessions)")
    passage = planning(passage_of, session, args.uuid, args.to)
    plan = planning(plan_mine, store, passage, args.kind, dest=args.dest, title=args.title)
    return finish(args, store, plan)
