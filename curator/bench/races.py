"""External-edit races: curator writing while someone else edits the same files.

    python -m curator.bench.races [--runs 25] [--seed 1]

For each writing operation (keywords, fix, promote, prune) and each run: a fresh small tiered
store, an "editor" thread that appends marked lines to the files the operation writes at random
moments (every 0–40 ms by default, ~50 saves a second, from before the command starts until after it ends), and the command run
in-process. Each run is then one of
  applied    the first plan was written
  replanned  a file changed between plan and write; planned again, the same changes applied
  refused    the changes differed (or could not merge): the command showed them and exited 2
and every marked line the editor wrote must be somewhere: in the file, in a `.conflict` file
beside it, or in the archived copy (a lost edit is a failure, printed with its run).
Targets (issue 20): fewer than 10% of runs refused, 0 edits lost.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

INDEX = "skills-a-index.md"
STORE = {
    "memory-index.md": "# Memory Index\n\n|alpha beta gamma delta: [skills-a-index](skills-a-index.md) (0)\n",
    INDEX: "| Keywords | File |\n|---|---|\n"
           + "".join(f"| w{i} alpha beta x{i} y{i} z{i} | [a/m{i}](a/m{i}.md) |\n" for i in range(1, 6))
           + "| gone words here now | [a/gone](a/gone.md) |\n",
    **{f"a/m{i}.md": f"# Memory {i}\n\nText of memory {i}, about x{i} and y{i}.\n" for i in range(1, 6)},
    "validation/2025-01-02-old-check.md": "# Old check\n\nChecked the pool size.\n",
    "validation/2026-11-18-fresh-check.md": "# Fresh check\n\nWebhook signing rotation works.\n",
}
OPS = {
    "keywords": (["keywords", INDEX, "a/m2.md", "--set", "w2", "alpha", "beta", "fresh", "words"], [INDEX, "a/m2.md"]),
    "fix": (["fix", "{root}", "--check", "index.missing-target"], [INDEX, "a/m3.md"]),
    "promote": (["promote", "validation/2026-11-18-fresh-check.md", "--to", "a/webhook-signing.md", "--index", INDEX,
                 "--keywords", "webhook", "signing", "rotation"], [INDEX, "a/m4.md"]),
    "prune": (["prune", "{root}"], ["memory-index.md", "a/m5.md"]),
}


def _store(base: Path) -> Path:
    root = base / "store"
    for rel, text in STORE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


class Editor(threading.Thread):
    """Appends `<!-- edit N -->` lines to `paths` at random moments until stopped."""

    def __init__(self, root: Path, paths: list[str], rng: random.Random, gap: float) -> None:
        super().__init__(daemon=True)
        self.root, self.paths, self.rng, self.gap = root, paths, rng, gap
        self.stop = threading.Event()
        self.written: list[tuple[str, str]] = []

    def run(self) -> None:
        n = 0
        while not self.stop.is_set():
            rel = self.rng.choice(self.paths)
            mark = f"<!-- edit {n} -->"
            try:
                with open(self.root / rel, "a") as fh:  # an editor's save: append through its own handle
                    fh.write(mark + "\n")
                self.written.append((rel, mark))
            except OSError:
                pass
            n += 1
            time.sleep(self.rng.uniform(0, self.gap))


def _lost(root: Path, written: list[tuple[str, str]]) -> list[str]:
    """Marks found nowhere: not in the file, a conflict file beside it, nor the archive."""
    texts = []
    for p in root.rglob("*"):
        if p.is_file() and ".curator/journal" not in p.as_posix():
            texts.append(p.read_text(errors="replace"))
    everything = "\n".join(texts)
    return [f"{rel}: {mark}" for rel, mark in written if mark not in everything]


def run_once(op: str, seed: int, gap: float) -> tuple[str, list[str], float]:
    from .. import curation
    from ..cli import main

    rng = random.Random(seed)
    base = Path(tempfile.mkdtemp(prefix="curator-races-"))
    calls = []
    real = curation.apply_plan

    def counting(root, plan):
        calls.append(1)
        return real(root, plan)

    try:
        root = _store(base)
        argv, paths = OPS[op]
        argv = [a.replace("{root}", str(root)) for a in argv]
        if "{root}" not in " ".join(OPS[op][0]):
            argv += ["--store", str(root)]
        editor = Editor(root, paths, rng, gap)
        out, err = io.StringIO(), io.StringIO()
        curation.apply_plan = counting
        editor.start()
        time.sleep(rng.uniform(0, 0.01))
        start = time.perf_counter()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(argv)
        finally:
            took = time.perf_counter() - start
            time.sleep(rng.uniform(0, 0.01))
            editor.stop.set()
            editor.join()
            curation.apply_plan = real
        if code == 0:
            outcome = "replanned" if len(calls) > 1 else "applied"
        elif "changed on disk" in err.getvalue() or "by someone else" in err.getvalue():
            outcome = "refused"
            if os.environ.get("CURATOR_RACES_VERBOSE"):
                print(f"  {op} refused: {' '.join(err.getvalue().split())[-200:]}")
        else:
            outcome = f"error: {' '.join(err.getvalue().split())[:160]}"
        return outcome, _lost(root, editor.written), took
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=25, help="runs per operation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--gap-ms", type=float, default=40, help="the editor saves every 0–GAP ms (default 40: ~50 saves/s)")
    args = parser.parse_args(argv)
    os.environ.setdefault("CURATOR_TOKENS", "estimate")
    os.environ.setdefault("CURATOR_NO_REPLAY", "1")
    os.environ.setdefault("CURATOR_TODAY", "2026-11-20")
    print(f"editor saves every 0–{args.gap_ms:g} ms; {args.runs} runs per operation")
    print(f"{'operation':<10} {'runs':>5} {'applied':>8} {'replanned':>10} {'refused':>8} {'other':>6} {'lost':>5} "
          f"{'median ms':>10}")
    totals = {"runs": 0, "refused": 0, "lost": 0}
    problems = []
    for op in OPS:
        counts = {"applied": 0, "replanned": 0, "refused": 0, "other": 0}
        lost, times = 0, []
        for i in range(args.runs):
            outcome, missing, took = run_once(op, args.seed * 1000 + i, args.gap_ms / 1000)
            counts[outcome if outcome in counts else "other"] += 1
            if outcome not in counts:
                problems.append(f"{op} run {i}: {outcome}")
            lost += len(missing)
            problems += [f"{op} run {i}: lost {m}" for m in missing]
            times.append(took * 1000)
        print(f"{op:<10} {args.runs:>5} {counts['applied']:>8} {counts['replanned']:>10} {counts['refused']:>8} "
              f"{counts['other']:>6} {lost:>5} {statistics.median(times):>10.0f}")
        totals["runs"] += args.runs
        totals["refused"] += counts["refused"]
        totals["lost"] += lost
    share = totals["refused"] / max(1, totals["runs"])
    print(f"refused {totals['refused']}/{totals['runs']} runs ({share:.0%}; target < 10%), "
          f"edits lost {totals['lost']} (target 0)")
    for p in problems[:20]:
        print("  " + p)
    return 0 if share < 0.10 and totals["lost"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
