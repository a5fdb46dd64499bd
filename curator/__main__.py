"""`python -m curator` and the `curator` console script."""

from __future__ import annotations

import sys


def main() -> None:
    import gc

    # a command runs for a moment and keeps almost everything it allocates to the end, so
    # cyclic collections only cost time (17-23% of a large check); the app turns them back on
    gc.disable()
    import os

    # one BLAS thread: curator's matrices are small (a query's embedding, 10k cosines), and on a
    # busy machine a thread pool waking for each costs more than the work (a one-shot query's
    # numpy embedding 60 ms vs 160+ ms; a cosine pass 0.5 ms vs 12 ms, measured with load ~7)
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    run = None  # the kept run (base/kept.py) this command may keep its result through
    if sys.argv[1:2] in (["check"], ["context"]):
        from .checks.replay import begin

        code, run = begin(sys.argv[1:])  # an unchanged store: the output kept from its last check
        if code is not None:
            sys.exit(code)
    if sys.argv[1:2] == ["retrieve"]:
        from .cli.commands.retrieve import answer_fast

        code, run = answer_fast(sys.argv[1:])  # an unchanged store: searched without loading it
        if code is not None:
            sys.exit(code)
    from .cli import main as cli_main

    sys.exit(cli_main(kept=run))


if __name__ == "__main__":
    main()
