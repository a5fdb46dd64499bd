"""Usage of instruction files against a count made by hand: sessions, uses, the API calls that
carried each file (to the next compaction, calls once per message id, a subagent's copy of an
attachment counted once as a use but its calls counted), the findings of unused files and of a
`paths:` rule that never attached."""

from __future__ import annotations

import os

from curator.base.config import Thresholds
from curator.base.tokens import FakeTokenCounter
from curator.proof import prove
from curator.transcripts import SessionIndex

from .sessions import Session, sid

FILES = {
    "CLAUDE.md": "Project rules for the shop.\n@docs/style.md\n",
    "docs/style.md": "Style: short words.\n",
    ".claude/rules/api.md": "---\npaths:\n  - \"src/api/**\"\n---\nAPI handlers validate input.\n",
    ".claude/rules/lib.md": "---\npaths:\n  - \"lib/**/*.py\"\n---\nLibrary code has no I/O.\n",
    "pkg/CLAUDE.md": "Package notes here.\n",
    ".claude/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploy the shop to staging\n---\nRun make deploy.\n",
    ".claude/skills/lint/SKILL.md": "---\nname: lint\ndescription: Lint the shop code\n---\nRun make lint.\n",
    ".claude/skills/unused/SKILL.md": "---\nname: unused\ndescription: Never picked by anyone\n---\nNothing.\n",
    ".claude/commands/release.md": "---\ndescription: Cut a release of the shop\n---\nTag it.\n",
    ".claude/agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews a change\n---\nReview.\n",
    "src/api/orders.py": "x = 1\n", "lib/money.py": "y = 2\n", "pkg/z.py": "z = 3\n",
}


def _repo(tmp_path):
    root = tmp_path / "shop"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
        os.utime(root / rel, (1_700_000_000, 1_700_000_000))  # 2023: older than every session
    (root / ".git").mkdir()
    return root


def _start(s: Session, r: str, note: str | None = None) -> Session:
    extra = {"reason": note} if note else {}
    return s.instructions([(f"{r}/CLAUDE.md", "Project", FILES["CLAUDE.md"]),
                           (f"{r}/docs/style.md", "Project", FILES["docs/style.md"], f"{r}/CLAUDE.md")], **extra)


def test_usage_counts_equal_the_hand_count(tmp_path):
    root = _repo(tmp_path)
    r = str(root)
    projects = tmp_path / "projects"
    # S1: the api rule attached after a read (calls 1-2 before it), deploy invoked (call 3), a
    # compaction after call 4, the start-up re-recorded, two more calls; a subagent inherits the
    # api rule (same uuid) and makes 2 calls of its own
    s1 = Session(sid(1), r, "2.1.300", "2026-11-01")
    _start(s1, r).listing([("deploy", "Deploy the shop to staging"), ("lint", "Lint the shop code"),
                           ("unused", "Never picked by anyone"), ("release", "Cut a release of the shop")])
    s1.prompt("add an endpoint").say("looking").read("src/api/orders.py")
    s1.nested(f"{r}/.claude/rules/api.md", "API handlers validate input.\n", globs=["src/api/**"])
    inherited = s1.last()
    s1.skill("deploy").say("deployed", blocks=2).compact()
    _start(s1, r, "compact").say("after").say("more")
    sub = Session(sid(1), r, "2.1.300", "2026-11-01", start="09:30", sidechain=True)
    sub.copy(inherited).say("sub one").say("sub two")
    # S2: pkg/CLAUDE.md attached; a refused Skill call; lint invoked; /release typed (invoked_skills),
    # re-attached after a compaction (no new use); the reviewer started; lib/money.py read, nothing attached
    s2 = Session(sid(2), r, "2.1.300", "2026-11-02")
    _start(s2, r).prompt("tidy pkg").read("pkg/z.py")
    s2.nested(f"{r}/pkg/CLAUDE.md", FILES["pkg/CLAUDE.md"])
    s2.skill("deploy", error=True).skill("lint")
    s2.invoked([("release", f"{r}/.claude/commands/release.md", "Tag it.")]).say("released")
    s2.compact().invoked([("release", f"{r}/.claude/commands/release.md", "Tag it.")]).say("still here")
    s2.call("Task", {"subagent_type": "reviewer", "prompt": "review"}).read("lib/money.py")
    # S3: a launch without its call (deploy), a run of lines attributed to lint, lib/money.py read again
    s3 = Session(sid(3), r, "2.1.300", "2026-11-03")
    _start(s3, r).prompt("ship").call("Bash", {"command": "x"}, "Launching skill: deploy")
    s3.say("linting", attributionSkill="lint").say("still linting", attributionSkill="lint").read("lib/money.py")
    # S4: Claude Code 2.1.38 records nothing: its Skill call is no evidence either way
    s4 = Session(sid(4), r, "2.1.38", "2026-10-01")
    s4.prompt("old").skill("deploy").say("ok")
    for s in (s1, s2, s3, s4):
        s.write(projects)
    sub.write(projects, subagent_of=s1)
    home = tmp_path / "home"
    home.mkdir()
    index = SessionIndex.for_repo(root, [projects], use_cache=False)
    proof = prove(root, index.build(), env={"HOME": str(home), "CI": ""}, home=str(home),
                  token_counter=FakeTokenCounter(), thresholds=Thresholds(unused_sessions=3, unused_days=0))
    use = {i.path: i for i in proof.usage.items}
    # the hand count: (sessions, uses, API calls that carried it)
    assert proof.usage.sessions == 3  # S4 predates the records
    hand = {
        # S1: 4 calls to its compaction, 2 after the start-up was re-recorded; S2: 4 to its compaction (7 calls,
        # nothing re-recorded); S3: all 4
        "CLAUDE.md": (3, 3, (4 + 2) + 4 + 4),
        "docs/style.md": (3, 3, (4 + 2) + 4 + 4),
        ".claude/rules/api.md": (1, 1, 2 + 2),  # calls 3-4 in S1, and the subagent's 2
        "pkg/CLAUDE.md": (1, 1, 3),  # attached after S2's call 1; its compaction came after call 4
        ".claude/rules/lib.md": (0, 0, 0),
        ".claude/skills/deploy/SKILL.md": (2, 2, 1 + 3),  # S1: call 4 carried it; S3: launched after call 1 of 3
        ".claude/skills/lint/SKILL.md": (2, 2, 1),  # S2: invoked at call 3, compaction after it; S3: attribution
        ".claude/skills/unused/SKILL.md": (0, 0, 0),
        ".claude/commands/release.md": (1, 1, 1 + 3),  # typed after S2's call 3 (call 4, then the compaction);
        # re-attached after it: calls 5-7, no second use
        ".claude/agents/reviewer.md": (1, 1, 0),
    }
    got = {p: (len(use[p].sessions), use[p].uses, use[p].calls) for p in hand}
    assert got == hand
    assert use[".claude/skills/deploy/SKILL.md"].last.startswith("2026-11-03")
    reviewer = use[".claude/agents/reviewer.md"]  # the time of the call that started it, not the session's start
    task = next(x for x in s2.lines if x["type"] == "assistant" and x["message"]["content"][0].get("name") == "Task")
    assert reviewer.last == task["timestamp"] > s2.lines[0]["timestamp"]
    assert use["CLAUDE.md"].cost == use["CLAUDE.md"].tokens * 14 and use["CLAUDE.md"].tokens > 0
    # a `paths:` rule attaches its body (recorded as `content`; the frontmatter only as `rawContent`)
    fake = FakeTokenCounter()
    api = use[".claude/rules/api.md"]
    assert api.tokens == fake.count("API handlers validate input.\n") < fake.count(FILES[".claude/rules/api.md"])
    assert api.cost == api.tokens * 4
    # the listing line rode on every call of S1, the only session that recorded a listing (6 calls)
    assert use[".claude/skills/unused/SKILL.md"].listed_calls == 6
    by = {(f.check, f.path) for f in proof.findings}
    assert ("sessions.glob-never-attached", ".claude/rules/lib.md") in by  # read in S2 and S3, never attached
    assert ("sessions.unused-instructions", ".claude/skills/unused/SKILL.md") in by
    assert ("sessions.unused-instructions", ".claude/rules/lib.md") in by
    assert not any(p == ".claude/skills/deploy/SKILL.md" for c, p in by if c == "sessions.unused-instructions")
    assert not [f for f in proof.findings if f.check == "sessions.model-contradicted"], proof.findings


def test_too_few_sessions_say_nothing_of_unused_files(tmp_path):
    root = _repo(tmp_path)
    r = str(root)
    s = _start(Session(sid(1), r, "2.1.300", "2026-11-01"), r).prompt("hi").say("hello")
    s.write(tmp_path / "projects")
    index = SessionIndex.for_repo(root, [tmp_path / "projects"], use_cache=False)
    proof = prove(root, index.build(), env={"HOME": str(tmp_path), "CI": ""}, home=str(tmp_path),
                  token_counter=FakeTokenCounter(), thresholds=Thresholds(unused_sessions=2))
    assert not [f for f in proof.findings if f.check == "sessions.unused-instructions"]
