"""Deterministic synthetic memory stores for benchmarks (1k, 10k, 50k files).

Sizes follow a log-normal with a median near 500 tokens and a tail to ~7,000; about 4% of the
files are domain indexes; an L0 routes to every domain. A little drift is sprinkled in (dead
rows, orphans, stale counts) so the checks have work to do. Same seed → byte-identical store.

    python -m curator.bench.synth OUT_DIR --files 1000 [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import random
import shutil
from pathlib import Path

SYLLABLES = (
    "ka lo mi ra ven tor el sa quin dor pa li ne mo ru sta gra fel bri cal don mar pel vis "
    "tan cor lex nu fra zen hol tri ber gal"
).split()
TECH = (
    "cache index query retry lock migration branch commit rebase deploy token budget schema "
    "pool worker queue timeout replica backfill webhook signature cursor pagination bundle "
    "focus render route review quarantine matrix release tag pipeline artifact secret vault "
    "metric trace span alert incident rollback canary feature flag tenant shard partition"
).split()


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 3)))


def _tokens_target(rng: random.Random) -> int:
    # log-normal: median 500, sigma 0.75 → p99 ≈ 2,900; clamp the tail at 7,000
    return int(min(7000, max(40, math.exp(rng.gauss(math.log(500), 0.75)))))


def _body(rng: random.Random, vocab: list[str], title: str, tokens: int) -> str:
    lines = [f"## {title}", "", f"**Use when**: {' '.join(rng.sample(vocab, 6))}.", ""]
    size = 0
    target_words = int(tokens / 2.3)  # ~2.3 cl100k tokens per invented word
    n = 0
    while size < target_words:
        if n and n % 12 == 0:
            lines += ["", f"### {' '.join(rng.sample(vocab, 2)).title()}", ""]
        words = [rng.choice(vocab) for _ in range(rng.randint(8, 16))]
        lines.append("- " + " ".join(words) + ".")
        size += len(words)
        n += 1
    lines += ["", f"**Key insight**: {' '.join(rng.sample(vocab, 8))}."]
    return "\n".join(lines) + "\n"


def generate(root: Path, n_files: int, seed: int = 0) -> Path:
    """Write a store of about `n_files` files under `root` (replacing it). Returns root."""
    rng = random.Random(seed)
    root = Path(root)
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    n_domains = max(1, round(n_files * 0.04)) - 1 or 1  # the L0 is one of the index files
    n_memories = max(1, n_files - n_domains - 1)
    vocab = TECH + [_word(rng) for _ in range(3000)]
    domains = []
    for k in range(n_domains):
        domains.append(f"{rng.choice(TECH)}-{_word(rng)}-{k}")
    per_domain: dict[str, list[tuple[list[str], str]]] = {d: [] for d in domains}
    for i in range(n_memories):
        domain = domains[i % n_domains]
        topic = [rng.choice(vocab) for _ in range(3)]
        name = f"{domain.split('-')[0]}-{'-'.join(topic)}-{i}"
        path = f"{domain}/{name}.md"
        tokens = _tokens_target(rng)
        text = _body(rng, vocab, " ".join(topic).title(), tokens)
        (root / domain).mkdir(exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
        keywords = topic + rng.sample(vocab, rng.randint(7, 12))
        if rng.random() < 0.97:  # ~3% orphans
            per_domain[domain].append((keywords, path))
    l0_rows = []
    for d, rows in per_domain.items():
        lines = ["| Keywords | File |", "|----------|------|"]
        for kws, path in rows:
            target = path if rng.random() > 0.01 else path.replace(".md", "-renamed.md")  # ~1% dead rows
            lines.append(f"| {' '.join(kws)} | [{target[:-3]}]({target}) |")
        index = f"skills-{d}-index.md"
        (root / index).write_text("\n".join(lines) + "\n", encoding="utf-8")
        kw = " ".join([d.split("-")[0], d.split("-")[1]] + rng.sample(vocab, 6))
        count = f" ({rng.randint(100, 3000)})" if rng.random() < 0.5 else ""
        l0_rows.append(f"|{kw}: [skills-{d}-index]({index}){count}")
    l0 = ["# Memory Index", "", "[Domains]", *l0_rows]
    (root / "memory-index.md").write_text("\n".join(l0) + "\n", encoding="utf-8")
    return root


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m curator.bench.synth", description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path)
    p.add_argument("--files", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    generate(a.out, a.files, a.seed)
    n = sum(1 for _ in a.out.rglob("*.md"))
    print(f"wrote {n} files to {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
