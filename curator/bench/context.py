"""Benchmark `curator context` and `curator check` on a repository with N instruction files:
ratios against reading and hashing the same files, side by side in one run (A B A B ...).

    python -m curator.bench.context [--files 300] [--repeat 5] [--cold-repeat 3]

The synthetic repository (deterministic): nested CLAUDE.md and AGENTS.md in package folders,
`.claude/rules` (half with `paths:`), skills, commands, Cursor rules, Copilot instructions and a
Kiro steering folder, with @imports between them, ~1,500 source files for the globs to match
and a small Serena store (so `curator check` finds a memory system as well).
Yardstick: walk the same tree and read + sha256 every instruction and memory file.
Targets (issue 22): warm ≤ 1.5×, cold ≤ 10×.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys

from .check import paired
from .run import bench_root, curator_argv, fresh_cache_env, timed

WARM_TARGET, COLD_TARGET = 1.5, 10.0
INSTRUCTION_EXT = (".md", ".mdc")


def generate(root: str, n: int, seed: int = 0) -> str:
    rnd = random.Random(seed)
    words = "cache retry lock queue token index schema migration deploy worker api test build".split()

    def para(k: int) -> str:
        return "\n".join("- " + " ".join(rnd.choice(words) for _ in range(12)) for _ in range(k)) + "\n"

    def write(rel: str, text: str) -> None:
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8") as fh:
            fh.write(text)

    os.makedirs(os.path.join(root, ".git"), exist_ok=True)
    made = 0
    write("CLAUDE.md", "# Project\n\n@docs/conventions.md\n" + para(40))
    write("docs/conventions.md", para(30))
    write("AGENTS.md", para(60))
    made += 3
    pkgs = max(1, n // 5)
    for i in range(pkgs):
        base = f"packages/p{i:03d}"
        write(f"{base}/CLAUDE.md", para(15))
        write(f"{base}/AGENTS.md", para(15))
        for j in range(5):
            write(f"{base}/src/m{j}.ts", "")
        made += 2
    k = 0
    while made < n:
        kind = k % 6
        if kind == 0:
            write(f".claude/rules/r{k}.md", (f"---\npaths:\n  - \"packages/p{k % pkgs:03d}/**/*.ts\"\n---\n" if k % 2 else "")
                  + para(10))
        elif kind == 1:
            write(f".claude/skills/s{k}/SKILL.md", f"---\nname: s{k}\ndescription: {' '.join(rnd.choice(words) for _ in range(9))}\n---\n" + para(20))
        elif kind == 2:
            write(f".claude/commands/c{k}.md", f"---\ndescription: run {rnd.choice(words)} {k}\n---\n" + para(5))
        elif kind == 3:
            write(f".cursor/rules/r{k}.mdc", f"---\nglobs: packages/p{k % pkgs:03d}/**/*.ts\nalwaysApply: false\n---\n" + para(8))
        elif kind == 4:
            write(f".github/instructions/i{k}.instructions.md", "---\napplyTo: \"packages/**/*.ts\"\n---\n" + para(8))
        else:
            write(f".kiro/steering/k{k}.md", para(8))
        made += 1
        k += 1
    for i in range(20):
        write(f".serena/memories/topic_{i}.md", para(12))
    return root


def synthetic_repo(n: int) -> str:
    path = os.path.join(str(bench_root()), f"instructions-{n}")
    if not os.path.exists(os.path.join(path, ".generated")):
        generate(path, n)
        open(os.path.join(path, ".generated"), "w").close()
    return path


def read_and_hash(root: str) -> int:
    """The yardstick: the same walk, every instruction and memory file read and hashed."""
    from .readhash import read_and_hash as walk

    return walk(root, INSTRUCTION_EXT, hidden=True)


def measure(n: int, repeat: int, cold_repeat: int) -> dict:
    repo = synthetic_repo(n)
    yard = [sys.executable, "-m", "curator.bench.context", "--yard", repo]
    env = fresh_cache_env()
    env["HOME"] = env["CURATOR_CACHE_DIR"]  # no user-level files of whoever runs it
    out: dict[str, object] = {"n": n}
    for name, argv in (("context", curator_argv("context", repo, "--format", "json")),
                       ("check", curator_argv("check", repo, "--format", "json"))):
        timed(argv, env)  # fills the caches
        timed(yard, env)
        warm_ratio, warm, base = paired(argv, yard, repeat, env, env)

        def cold_env():
            e = fresh_cache_env()
            e["HOME"] = e["CURATOR_CACHE_DIR"]
            return e

        cold_ratio, cold, _ = paired(argv, yard, cold_repeat, cold_env, env)
        out[name] = {"yard": statistics.median(r.wall for r in base), "warm": statistics.median(r.wall for r in warm),
                     "warm_ratio": warm_ratio, "cold": statistics.median(r.wall for r in cold), "cold_ratio": cold_ratio}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m curator.bench.context", description=__doc__.splitlines()[0])
    p.add_argument("--files", type=int, default=300)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--cold-repeat", type=int, default=3)
    p.add_argument("--yard", metavar="ROOT", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.yard:
        print(read_and_hash(a.yard))
        return 0
    r = measure(a.files, a.repeat, a.cold_repeat)
    print(f"| {a.files} instruction files | read-and-hash | warm | ÷ | cold | ÷ |")
    print("|---|---|---|---|---|---|")
    for name in ("context", "check"):
        m = r[name]
        ok_w = "✓" if m["warm_ratio"] <= WARM_TARGET else "✗"
        ok_c = "✓" if m["cold_ratio"] <= COLD_TARGET else "✗"
        print(f"| `curator {name}` | {m['yard']:.3f} s | {m['warm']:.3f} s | {m['warm_ratio']:.2f}× {ok_w} ≤ {WARM_TARGET} "
              f"| {m['cold']:.2f} s | {m['cold_ratio']:.1f}× {ok_c} ≤ {COLD_TARGET} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
