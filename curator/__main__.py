"""`python -m curator` and the `curator` console script."""

from __future__ import annotations

import sys


def main() -> None:
    from .cli import main as cli_main

    sys.exit(cli_main())


if __name__ == "__main__":
    main()
