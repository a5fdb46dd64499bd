"""`curator keywords INDEX:LINE --set KW ...` (or `INDEX TARGET` when one row points at TARGET):
edit one row's keywords (shows uniqueness)."""

from __future__ import annotations

import re

NAME = "keywords"
ORDER = 43
HELP = "edit the keywords of an index row (INDEX:LINE, or INDEX TARGET); prints uniqueness and collisions"


def add_arguments(parser) -> None:
    from ..curate import add_write_args

    parser.add_argument("index", metavar="INDEX[:LINE]", help="the domain index, and the row's line in it")
    parser.add_argument("target", metavar="TARGET", nargs="?",
                        help="the memory the row points at (when only one row of INDEX does)")
    parser.add_argument("--set", dest="keywords", nargs="+", required=True, metavar="KW", help="the new keywords")
    add_write_args(parser, positional_store=False)


def address(index: str, target: str | None):
    """(index, target, RowRef or None) from `INDEX:LINE` or `INDEX TARGET`."""
    from ...curation.keywords import RowRef
    from ..common import UsageError

    m = re.fullmatch(r"(.+):([0-9]+)", index)
    if m and target:
        raise UsageError(f"give the row as {index} or as INDEX TARGET, not both")
    if m:
        return m.group(1), None, RowRef(m.group(1), int(m.group(2)))
    if not target:
        raise UsageError(f"which row of {index}? give INDEX:LINE, or INDEX TARGET")
    return index, target, None


def in_its_source(args, index: str) -> str:
    """An index named by its place in the repository (`.serena/memories/database-index.md`, as
    `curator check` on a repository prints it): its memory system becomes the store, and the
    index is named inside it."""
    from ..common import locate_and_configure

    located, _ = locate_and_configure(args)
    layout = located.layout
    if layout is None or layout.single:
        return index
    for spec in layout.memory_sources():
        prefix = spec.rel.strip("/") + "/"
        if spec.rel not in (".", "") and index.startswith(prefix):
            args.store, args.store_pos = str(spec.root), None
            return index[len(prefix):]
    return index


def run(args) -> int:
    from ...curation import plan_keywords
    from ..curate import finish, planning, writing_session

    index, target, row = address(args.index, args.target)
    inside = in_its_source(args, index)
    if inside != index:
        index, row = inside, (type(row)(inside, row.line, row.text) if row is not None else None)
    with writing_session(args) as store:  # locked from before the load to after the write
        kws = [k for item in args.keywords for k in item.replace(",", " ").split()]
        def make(s):  # planned again from the files as they are if one changes before the write
            return plan_keywords(s, index, target, kws, row=row)

        plan = planning(make, store)
        from ...reports.keyword_advice import too_few

        warning = too_few(store, list(dict.fromkeys(k.lower() for k in kws)))
        if warning:
            from rich.text import Text

            from ..common import note_console

            note_console().print(Text.assemble(("warning", "warning"), f": {len(set(k.lower() for k in kws))} keyword(s), {warning}"))
        return finish(args, store, plan, make)
