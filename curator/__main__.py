"""`python -m curator` and the `curator` console script."""

from __future__ import annotations

import sys


def main() -> None:
    import gc

    # a command runs for a moment and keeps almost everything it allocates to the end, so
    # cyclic collections only cost time (17-23% of a large check); the app turns them back on
    gc.disable()
    from .replay import begin

    code = begin(sys.argv[1:])  # `check` of an unchanged store: its kept output, nothing loaded
    if code is not None:
        sys.exit(code)
    from .cli import main as cli_main

    sys.exit(cli_main())


if __name__ == "__main__":
    main()
