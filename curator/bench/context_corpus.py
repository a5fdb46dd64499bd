"""Judge `curator context` on the instruction corpus: for every repository, what Claude Code (today
and before 2.1.277) and Codex load at start-up counted by hand (this module's own reading of their
docs, no curator.context or curator.agents code), against `curator context --format json` (same
files, bytes within 1%).

    python -m curator.bench.context_corpus [--corpus DIR] [--work DIR]

Hand rules — Claude Code: `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md` (through symbolic
links); from 2.1.277, when none of the three is there, `AGENTS.md` and `.claude/AGENTS.md`
instead; then depth first their `@path` imports (outside ``` fences and `code`, relative to the
importing file, existing files inside the repository, each once, ≤ 4 hops); `.claude/rules/**/*.md`
whose YAML has no `paths:`; skills as `- name: description` (frontmatter YAML cannot read: the
folder's name and the body's first line), commands with a description, subagents. Codex: the root
`AGENTS.override.md` else `AGENTS.md`, at most 32,768 bytes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

from ..agents import rules_for

CORPUS = "/work/shared/corpora/instructions"


def _fm(text: str) -> dict:
    m = re.match(r"---\n(.*?)\n---", text, re.S)
    try:
        data = yaml.safe_load(m.group(1)) if m else {}
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def _imports(text: str) -> list[str]:
    out, fence = [], False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
            continue
        if not fence:
            out += [m.group(1).rstrip(".,;:)") for m in re.finditer(r"(?:^|\s)@(\S+)", re.sub(r"`[^`]*`", "", line))]
    return out


BEFORE, TODAY = "2.1.276", rules_for("claude-code").version  # before AGENTS.md support, and the newest known


def hand_count(root: str, agents_md: bool = True, hops: int = 4) -> dict:
    """Start-up files (path -> bytes) of Claude Code and Codex; `agents_md=False` is Claude Code
    before 2.1.277 (no AGENTS.md unless imported)."""
    root = os.path.realpath(root)

    def read(rel):
        p = os.path.join(root, rel)
        if not os.path.isfile(p) or not os.path.realpath(p).startswith(root + "/"):
            return None
        with open(p, "rb") as fh:
            return fh.read()

    claude, seen = {}, set()

    def load(rel, depth):
        data = read(rel)
        real = os.path.realpath(os.path.join(root, rel))
        if data is None or real in seen:
            return
        seen.add(real)
        claude[rel] = len(data)
        for imp in _imports(data.decode("utf-8", "replace")) if depth < hops else []:
            target = os.path.normpath(os.path.join(os.path.dirname(rel), imp))
            if not imp.startswith(("~", "/")) and not target.startswith(".."):
                load(target, depth + 1)

    found = [rel for rel in ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md") if read(rel) is not None]
    for rel in found:
        load(rel, 0)
    if agents_md and not found:
        for rel in ("AGENTS.md", ".claude/AGENTS.md"):
            load(rel, 0)
    for dp, _, fn in sorted(os.walk(os.path.join(root, ".claude/rules"))):
        for n in sorted(fn):
            rel = os.path.relpath(os.path.join(dp, n), root)
            if n.endswith(".md") and not _fm(read(rel).decode("utf-8", "replace")).get("paths"):
                load(rel, 0)

    def listing(rel, name, desc):
        claude[rel] = len((f"- {name}: {desc}" if desc else f"- {name}").encode())

    skills = os.path.join(root, ".claude/skills")
    for name in sorted(os.listdir(skills)) if os.path.isdir(skills) else []:
        rel = f".claude/skills/{name}/SKILL.md"
        if read(rel) is not None:
            text = read(rel).decode("utf-8", "replace")
            fm = _fm(text)
            desc = " ".join(str(fm.get("description") or "").split())
            if not desc:
                m = re.match(r"---\n(.*?)\n---\n?", text, re.S)
                body = text[m.end():] if m else text
                desc = next((s for s in (ln.strip().lstrip("#").strip() for ln in body.splitlines()) if s), "")
            listing(rel, str(fm.get("name") or name), desc)
    for kind in ("commands", "agents"):
        for dp, _, fn in sorted(os.walk(os.path.join(root, ".claude", kind))):
            for f in sorted(fn):
                rel = os.path.relpath(os.path.join(dp, f), root)
                if not f.endswith(".md"):
                    continue
                fm = _fm(read(rel).decode("utf-8", "replace"))
                desc = " ".join(str(fm.get("description") or "").split())
                if kind == "commands" and desc:
                    listing(rel, rel[len(".claude/commands/"):-3].replace("/", ":"), desc)
                elif kind == "agents":
                    listing(rel, str(fm.get("name") or f[:-3]), desc)
    codex = {}
    for name in ("AGENTS.override.md", "AGENTS.md"):
        data = read(name)
        if data is not None and data.strip():
            codex = {name: min(len(data), 32 * 1024)}
            break
    return {"claude-code": claude, "codex": codex}


def materialize(corpus: str, name: str, dest: str) -> str:
    """The skeleton repository, with the symbolic links `.files.txt` records (the stored copy
    keeps a link as a small file holding its target)."""
    subprocess.run([sys.executable, os.path.join(corpus, "materialize.py"), os.path.join(corpus, name), dest,
                    "--no-git"], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(corpus, name, ".files.txt"), encoding="utf-8") as fh:
        for line in fh:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 2 and parts[1].startswith("symlink -> "):
                p = os.path.join(dest, parts[0])
                if os.path.lexists(p):
                    os.remove(p)
                os.symlink(parts[1][len("symlink -> "):], p)
    os.makedirs(os.path.join(dest, ".git"), exist_ok=True)
    return dest


def _startup(data: dict, agent: str) -> tuple[dict, int]:
    ours = {x["agent"]: x for x in data["agents"]}
    files = {f["path"]: (f["cut"] or {}).get("kept_bytes", f["bytes"]) for f in
             ours.get(agent, {"startup": {"files": []}})["startup"]["files"]}
    return files, ours[agent]["startup"]["tokens"] if agent in ours else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m curator.bench.context_corpus", description=__doc__.splitlines()[0])
    p.add_argument("--corpus", default=CORPUS)
    p.add_argument("--work", default=None, help="where to materialize (default: a new temporary folder)")
    a = p.parse_args(argv)
    work = a.work or tempfile.mkdtemp(prefix="curator-corpus-")
    env = dict(os.environ, HOME=os.path.join(work, ".home"), CURATOR_NO_REPLAY="1")
    names = sorted(n for n in os.listdir(a.corpus) if os.path.isdir(os.path.join(a.corpus, n)))
    print(f"| repository | claude-code {BEFORE} | claude-code {TODAY} | codex | same files, bytes ±1% | findings |")
    print("|---|---|---|---|---|---|")
    agree = 0
    for name in names:
        root = os.path.join(work, name)
        if not os.path.exists(root):
            materialize(a.corpus, name, root)
        cells, ok, findings = [], True, []
        for version, agents_md, agent in ((BEFORE, False, "claude-code"), (TODAY, True, "claude-code"),
                                          (TODAY, True, "codex")):
            out = subprocess.run([sys.executable, "-m", "curator", "context", root, "--format", "json", "--agent",
                                  f"claude-code@{version}", "codex"], env=env, capture_output=True, text=True,
                                 check=False, cwd=work)
            data = json.loads(out.stdout)
            got, tokens = _startup(data, agent)
            want = hand_count(root, agents_md=agents_md)[agent]
            ok &= set(got) == set(want) and all(abs(got[k] - v) <= v / 100 for k, v in want.items())
            cells.append(f"{len(got)} files, {sum(got.values()):,} B, {tokens:,} tok")
            findings = data["findings"]
        agree += ok
        checks = sorted({f["check"].split(".", 1)[1] for f in findings})
        print(f"| {name} | {' | '.join(cells)} | {'yes' if ok else 'NO'} | {len(findings)} {', '.join(checks)} |")
    print(f"\n{agree} of {len(names)} repositories: the same start-up files as the hand count ({work})")
    return 0 if agree == len(names) else 1


if __name__ == "__main__":
    raise SystemExit(main())
