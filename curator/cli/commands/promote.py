"""`curator promote SRC --to DEST --index INDEX`: a transient or reflexion record becomes knowledge."""

from __future__ import annotations

NAME = "promote"
ORDER = 40
HELP = "promote a transient/reflexion record to a semantic memory with an index row and L0 route"


def add_arguments(parser) -> None:
    from ..curate import add_write_args

    parser.add_argument("src", metavar="SRC", help="the record to promote (path inside the store)")
    parser.add_argument("--to", dest="dest", required=True, metavar="DEST", help="new memory path, e.g. api/api-webhook-signing.md")
    parser.add_argument("--index", required=True, metavar="INDEX", help="the domain index that gets the row")
    parser.add_argument("--keywords", nargs="+", metavar="KW", help="row keywords (default: suggested)")
    parser.add_argument("--source", "--source-action", dest="source_action", choices=("archive", "remove", "keep"), default="archive",
                        help="what happens to SRC (default: archive into .curator/archive)")
    add_write_args(parser, positional_store=False)


def run(args) -> int:
    from ...curation import plan_promote
    from ..curate import finish, planning, writing_session

    with writing_session(args) as store:  # locked from before the load to after the write
        keywords = [k for item in (args.keywords or []) for k in item.replace(",", " ").split()] or None
        def make(s):  # planned again from the files as they are if one changes before the write
            return plan_promote(s, args.src, args.dest, args.index, keywords, args.source_action, counter=s.counter)

        return finish(args, store, planning(make, store), make)
