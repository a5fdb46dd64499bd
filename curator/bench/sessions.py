"""Session-tier benchmark: a deterministic transcript folder of a given size (500 MB by default),
then the first sessions list (peeks), a cold full index (every byte streamed) and a warm one
(cached), each in its own process with its wall time and peak RSS. The sessions record what they
load as Claude Code 2.1.276+ does (start-up files, again after compactions; nested rules after
some reads; the skill listing; Skill calls), so the index of those records is measured too.

    python -m curator.bench.sessions --mb 500
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

REPO = "/bench/repo"
WORDS = ("memory index route keyword store tier session transcript token budget rebase migration "
         "lock timeout cache pipeline deploy review retry flaky fixture schema alembic worker").split()


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _session_lines(rng: random.Random, sid: str, day: str, target: int, cwd: str):
    """Lines of one session until about `target` bytes: prompts, assistant messages split one
    block a line (usage repeated), tool calls (Read of memories, Serena read_memory, Bash) and
    their results (some large), progress and snapshot metadata."""
    size, n, t = 0, 0, 0
    base = {"isSidechain": False, "userType": "external", "cwd": cwd, "sessionId": sid, "version": "2.1.290",
            "gitBranch": rng.choice(["main", "feature/x", "fix/lock"])}
    startup = {"type": "instructions", "files": [
        {"path": f"{cwd}/CLAUDE.md", "type": "Project", "content": _sentence(rng, 500)},
        {"path": f"{cwd}/docs/style.md", "type": "Project", "content": _sentence(rng, 150), "parent": f"{cwd}/CLAUDE.md"},
        {"path": f"{cwd}/.claude/rules/db.md", "type": "Project", "content": _sentence(rng, 120)}]}
    skills = [f"skill-{i}" for i in range(30)]
    listing = {"type": "skill_listing", "isInitial": True, "skillCount": len(skills), "names": skills,
               "content": "\n".join(f"- {n}: {_sentence(rng, 25)}" for n in skills)}

    def ts() -> str:
        nonlocal t
        t += rng.randint(1, 40)
        return f"{day}T{10 + t // 3600 % 12:02d}:{t // 60 % 60:02d}:{t % 60:02d}.000Z"

    def line(obj) -> str:
        nonlocal size, n
        n += 1
        s = json.dumps(obj) + "\n"
        size += len(s)
        return s

    yield line({"type": "file-history-snapshot", "messageId": f"{sid}-0", "snapshot": {}, "isSnapshotUpdate": False})
    yield line({**base, "type": "attachment", "uuid": f"{sid}-i", "timestamp": ts(), "attachment": startup})
    yield line({**base, "type": "attachment", "uuid": f"{sid}-l", "timestamp": ts(), "attachment": listing})
    compacted = 0
    while size < target:
        if size - compacted > 3_000_000:  # a compaction, and the start-up files recorded again
            compacted = size
            yield line({**base, "type": "system", "subtype": "compact_boundary", "uuid": f"{sid}-b{n}", "timestamp": ts()})
            yield line({**base, "type": "attachment", "uuid": f"{sid}-r{n}", "timestamp": ts(),
                        "attachment": {**startup, "reason": "compact"}})
        u = f"{sid}-{n}"
        yield line({**base, "type": "user", "uuid": u, "timestamp": ts(),
                    "message": {"role": "user", "content": _sentence(rng, rng.randint(5, 60))}})
        for k in range(rng.randint(1, 6)):
            mid = f"msg_{sid[:8]}_{n}"
            usage = {"input_tokens": rng.randint(1, 50), "output_tokens": rng.randint(10, 900),
                     "cache_read_input_tokens": rng.randint(1000, 90000), "cache_creation_input_tokens": rng.randint(0, 5000)}
            yield line({**base, "type": "assistant", "uuid": f"{u}-a{k}", "timestamp": ts(),
                        "message": {"id": mid, "role": "assistant", "content": [{"type": "text", "text": _sentence(rng, rng.randint(10, 120))}],
                                    "usage": usage}})
            r = rng.random()
            tool_input: dict[str, str]
            if r < 0.15:
                tool, tool_input = "mcp__serena__read_memory", {"memory_file_name": f"topic-{rng.randint(0, 199)}"}
            elif r < 0.3:
                tool, tool_input = "Read", {"file_path": f"{REPO}/.serena/memories/topic-{rng.randint(0, 199)}.md"}
            elif r < 0.32:
                tool, tool_input = "Skill", {"skill": rng.choice(skills)}
            else:
                tool, tool_input = "Bash", {"command": _sentence(rng, 6)}
            call = {"type": "tool_use", "id": f"t{n}", "name": tool, "input": tool_input}
            yield line({**base, "type": "assistant", "uuid": f"{u}-c{k}", "timestamp": ts(),
                        "message": {"id": mid, "role": "assistant", "content": [call], "usage": usage}})
            yield line({**base, "type": "progress", "uuid": f"{u}-p{k}", "timestamp": ts(),
                        "data": {"type": "hook_progress", "hookEvent": "PreToolUse"}})
            big = rng.random() < 0.1
            out = _sentence(rng, rng.randint(2000, 8000) if big else rng.randint(20, 400))
            if tool == "Skill":
                out = f"Launching skill: {tool_input['skill']}"
            yield line({**base, "type": "user", "uuid": f"{u}-r{k}", "timestamp": ts(),
                        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{n}",
                                                                 "content": out, "is_error": rng.random() < 0.05}]}})
            if call["name"] == "Read" and rng.random() < 0.1:  # a rule with paths: attached after the read
                yield line({**base, "type": "attachment", "uuid": f"{u}-n{k}", "timestamp": ts(), "attachment": {
                    "type": "nested_memory", "path": f"{cwd}/.claude/rules/memories.md", "content": {
                        "path": f"{cwd}/.claude/rules/memories.md", "type": "Project",
                        "content": _sentence(rng, 80), "globs": [".serena/**"]}}})


def generate(dest: Path, mb: int = 500, seed: int = 0) -> Path:
    """`dest/projects/<slug>/<session>.jsonl` (+ subagents) adding up to about `mb` MB: most
    sessions 1–8 MB, a few of 40–80 MB; a second project folder whose cwd is elsewhere."""
    rng = random.Random(seed)
    projects = dest / "projects"
    folder = projects / REPO.replace("/", "-")
    other = projects / "-bench-other"
    total, target, i = 0, mb * 1_000_000, 0
    while total < target:
        big = rng.random() < 0.04
        size = rng.randint(40, 80) * 1_000_000 if big else rng.randint(1, 8) * 1_000_000
        size = min(size, max(200_000, target - total))
        sid = f"{seed:04x}{i:04x}-0000-4000-8000-{rng.getrandbits(48):012x}"
        day = f"2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}"
        cwd = REPO if rng.random() < 0.9 else "/bench/other"
        where = folder if cwd == REPO else other
        where.mkdir(parents=True, exist_ok=True)
        with open(where / f"{sid}.jsonl", "w") as fh:
            fh.writelines(_session_lines(rng, sid, day, size, cwd))
        if rng.random() < 0.2:
            sub = where / sid / "subagents"
            sub.mkdir(parents=True, exist_ok=True)
            with open(sub / f"agent-{i:04x}.jsonl", "w") as fh:
                fh.writelines(_session_lines(rng, sid, day, size // 10, cwd))
        total += size
        i += 1
    (dest / ".generated").write_text(f"{mb} {seed}\n")
    return dest


def _child(mode: str, root: str) -> None:
    """Run one phase in this process and print its JSON line."""
    import resource
    import time

    from curator.transcripts import SessionIndex

    start = time.perf_counter()
    index = SessionIndex.for_repo(REPO, [Path(root) / "projects"])
    sessions = index.quick() if mode == "quick" else index.build()
    wall = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    size = sum(f.size for f in index.discovery.files)
    print(json.dumps({"mode": mode, "wall_s": round(wall, 3), "peak_rss_mb": round(rss, 1), "sessions": len(sessions),
                      "files": len(index.discovery.files), "mb": round(size / 1e6, 1),
                      "tokens": sum(s.tokens for s in sessions), "skipped_other_cwd": index.discovery.skipped}))


def _app(root: str) -> None:
    """Headless app on a copy of the sample store whose repository is the generated one: seconds
    from start until the sessions screen is up (5 pressed at once; the store loads meanwhile),
    until it lists sessions, and until indexing is done."""
    import asyncio
    import shutil
    import time

    from textual.widgets import DataTable

    from curator.base.locations import sample_store
    from curator.base.tokens import FakeTokenCounter
    from curator.transcripts.service import SessionsService
    from curator.tui.app import make_app

    from .run import scratch

    store = Path(scratch("curator-bench-store-")) / "memories"
    shutil.copytree(sample_store(), store)

    class Service(SessionsService):
        def __init__(self, store_root, roots=None):
            super().__init__(store_root, [Path(root) / "projects"])
            self.repo = Path(REPO)

    import curator.transcripts.service as service

    # the app (in this child process) builds its service on mount: one rooted at the generated projects
    service.SessionsService = Service  # type: ignore[misc]  # a test double swapped in for one run

    async def run() -> dict:
        app = make_app(store, token_counter=FakeTokenCounter(), remember_theme=False)
        start = time.perf_counter()
        out = {}
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("5")
            out["screen_s"] = round(time.perf_counter() - start, 3)  # the sessions screen is up
            while True:
                await pilot.pause(0.01)
                table = app.screen.query("#sessions")
                if "listed_s" not in out and table and table.first(DataTable).row_count:
                    out["listed_s"] = round(time.perf_counter() - start, 3)
                    out["rows"] = table.first(DataTable).row_count
                if app.transcripts is not None and app.transcripts.indexed:
                    out["indexed_s"] = round(time.perf_counter() - start, 3)
                    break
        return out

    print(json.dumps({"mode": "app", **asyncio.run(run())}))


def main(argv: list[str] | None = None) -> int:
    import subprocess

    from .run import bench_root, fresh_cache_env

    p = argparse.ArgumentParser(prog="python -m curator.bench.sessions", description=__doc__.splitlines()[0])
    p.add_argument("--mb", type=int, default=500)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--app-runs", type=int, default=2, help="app starts: cold, then warm (default 2)")
    p.add_argument("--child", nargs=2, metavar=("MODE", "ROOT"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        (_app if args.child[0] == "app" else lambda r: _child(args.child[0], r))(args.child[1])
        return 0
    dest = bench_root() / f"transcripts-{args.mb}-{args.seed}-records"  # (sessions that record their context)
    if not (dest / ".generated").exists():
        print(f"generating {args.mb} MB of transcripts in {dest} …", file=sys.stderr)
        generate(dest, args.mb, args.seed)
    cli, app = fresh_cache_env(), fresh_cache_env()
    # cold quick list, cold full index, warm full index, warm quick list; the app cold, then warm
    for mode, env in (("quick", cli), ("build", cli), ("build", cli), ("quick", cli), *[("app", app)] * args.app_runs):
        out = subprocess.run([sys.executable, "-m", "curator.bench.sessions", "--child", mode, str(dest)],
                             env=env, capture_output=True, text=True, check=False)
        sys.stdout.write(out.stdout or out.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
