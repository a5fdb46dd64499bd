"""Where a cold `curator check` goes: each part's wall time, against read-and-hash.

    python -m curator.bench.floor [--files 10000] [--repeat 3]

Every part is timed in a child process of its own with an empty cache folder (medians over
`--repeat`), on the synthetic store, one after another as a cold check runs them:
  start-up           the interpreter and the modules a check imports (numpy included)
  read-and-hash      the yardstick: walk, read and sha256 every file (in-process)
  load               walk, read, hash and parse every file, attach the indexes, tiers
  tokens, rs_bpe     count every file's cl100k_base tokens, tokenizer load included
  tokens, tiktoken   the same with tiktoken (one thread)
  facts              headings, links and near-duplicate fingerprints of every file
  <family>           each check family on the loaded store (facts already made)
  cache save         writing the store's cache after the checks (load includes its own save)
  report             the JSON report
The sum of the parts a check cannot overlap (start-up, load, facts, the families, save, report)
is the floor of a one-process cold check; the token counts overlap with them (on a second core).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from .run import scratch, synthetic_store

IMPORTS = "import curator.cli.commands.check, curator.live.workspace, curator.checks, numpy"


def _parts(store_path: str) -> dict[str, float]:
    """One cold run, in this process, timed part by part (seconds)."""
    from importlib import import_module

    from ..base.cache import store_cache
    from ..base.tokens import TiktokenCounter
    from ..checks import FAMILIES
    from ..checks.context import Context
    from ..checks.facts import facts_for
    from ..model.findings import Finding
    from ..model.loader import load_store
    from ..reports import render_json
    from .readhash import read_and_hash

    out: dict[str, float] = {}

    def timed(name, fn):
        start = time.perf_counter()
        value = fn()
        out[name] = time.perf_counter() - start
        return value

    timed("read-and-hash", lambda: read_and_hash(store_path))
    store = timed("load", lambda: load_store(store_path))
    texts = [r.text for r in store.records.values() if r.readable]

    def rs_bpe():
        try:
            from rs_bpe.bpe import openai
        except ImportError:
            return None
        count = openai.cl100k_base().count
        return [count(t) for t in texts]

    def tiktoken():
        from ..base.tokens import _load_encoding

        enc = _load_encoding()
        return [len(enc.encode_ordinary(t)) for t in texts]

    if timed("tokens, rs_bpe", rs_bpe) is None:
        out.pop("tokens, rs_bpe")
    timed("tokens, tiktoken", tiktoken)
    # the checks' store: the same files with their counts (read again, not from the cache, so
    # the facts below do not read files)
    store = load_store(store_path, token_counter=TiktokenCounter(), use_cache=False)
    ctx = Context(store)
    timed("facts", lambda: facts_for(ctx))
    for name, _ids in FAMILIES:
        module = import_module(f"curator.checks.{name}")
        timed(name, lambda module=module: module.run(ctx))
    findings = sorted(ctx.findings + list(store.load_findings), key=Finding.sort_key)
    timed("cache save", lambda: store_cache(store_path).save())  # the facts and findings (load saved its part)
    timed("report", lambda: json.dumps(render_json(store, findings)))
    return out


def _child(store_path: str) -> dict[str, float]:
    env = dict(os.environ, CURATOR_CACHE_DIR=scratch("curator-bench-floor-"))
    code = f"import json; from curator.bench.floor import _parts; print(json.dumps(_parts({store_path!r})))"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _startup() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", IMPORTS], check=True)
    return time.perf_counter() - start


SERIAL = ("start-up", "load", "facts", "cache save", "report")  # + the families


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m curator.bench.floor", description=__doc__.splitlines()[0])
    p.add_argument("--files", type=int, default=10000)
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args(argv)
    store = str(synthetic_store(a.files))
    runs = []
    for _ in range(a.repeat):
        parts = _child(store)
        parts["start-up"] = _startup()
        runs.append(parts)
    names = list(runs[0])
    med = {n: statistics.median(r[n] for r in runs) for n in names}
    low = {n: min(r[n] for r in runs) for n in names}  # the least contended run of each part
    from ..checks import FAMILIES

    serial = [n for n in names if n in SERIAL or n in dict(FAMILIES)]
    print(f"| part ({a.files:,} files, {a.repeat} runs) | median s | ÷ read-and-hash | fastest s | ÷ read-and-hash |")
    print("|---|---|---|---|---|")
    for n in ["start-up"] + [n for n in names if n != "start-up"]:
        print(f"| {n} | {med[n]:.3f} | {med[n] / med['read-and-hash']:.2f}× | {low[n]:.3f} | {low[n] / low['read-and-hash']:.2f}× |")
    f_med, f_low = sum(med[n] for n in serial), sum(low[n] for n in serial)
    print(f"| **one-process floor** (start-up, load, facts, families, save, report) | {f_med:.3f} | "
          f"{f_med / med['read-and-hash']:.1f}× | {f_low:.3f} | {f_low / low['read-and-hash']:.1f}× |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
