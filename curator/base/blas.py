"""numpy's BLAS on one thread in a process that answers as a person types (the app's lab).

OpenBLAS runs each matrix product on every core, and its threads spin a while after it, waiting
for the next. In the lab two products run side by side: the query's vector on a thread of its own
(`retrieval/meaning.py` `begin`) and the static candidates (every memory's vector against the
query's). Each wanted both cores, and the spinning threads starved the other and the UI: the same
static product took 1–80 ms. On one thread each, keystroke → results at 10,000 memories went from
a median of 22–30 ms to 14–18 ms (three sets of ten new queries), and a query's vector alone from
12.2 to 10.4 ms. A one-shot `retrieve` gains nothing and the check's pair products want both
cores, so only the lab asks for this. `threadpoolctl` (scikit-learn's) finds the BLAS numpy
loaded, whichever it is, and sets its threads in this process only: the children keep theirs.
"""

from __future__ import annotations


def one_thread() -> bool:
    """numpy's BLAS on one thread from now on, in this process; False where it cannot be set
    (numpy or threadpoolctl missing: the products then run as they always did)."""
    try:
        import numpy  # noqa: F401 - loads the BLAS library the limit is set on
        from threadpoolctl import threadpool_limits
    except ImportError:
        return False
    threadpool_limits(limits=1, user_api="blas")
    return True
