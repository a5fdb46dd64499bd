"""`curator keywords INDEX TARGET --set KW ...`: edit a row's keywords (shows uniqueness)."""

from __future__ import annotations

NAME = "keywords"
ORDER = 43
HELP = "edit the keywords of an index row; prints uniqueness and collisions"


def add_arguments(parser) -> None:
    from ..curate import add_write_args

    parser.add_argument("index", metavar="INDEX", help="the domain index")
    parser.add_argument("target", metavar="TARGET", help="the memory the row points at")
    parser.add_argument("--set", dest="keywords", nargs="+", required=True, metavar="KW", help="the new keywords")
    add_write_args(parser, positional_store=False)


def run(args) -> int:
    from ...curation import plan_keywords
    from ..curate import finish, planning, writing_session

    with writing_session(args) as store:  # locked from before the load to after the write
        kws = [k for item in args.keywords for k in item.replace(",", " ").split()]
        plan = planning(plan_keywords, store, args.index, args.target, kws)
        from ...reports.keyword_advice import too_few

        warning = too_few(store, list(dict.fromkeys(k.lower() for k in kws)))
        if warning:
            from rich.text import Text

            from ..common import err_console

            err_console().print(Text.assemble(("warning", "warning"), f": {len(set(k.lower() for k in kws))} keyword(s), {warning}"))
        return finish(args, store, plan)
