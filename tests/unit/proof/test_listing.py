"""The skill listing as Claude Code builds it, from the rule tables: the budget (1% of a 200k window
at 4 characters a token = 8,000), the per-description cut (1,536), descriptions dropped from the
least-invoked skills first until the listing fits — computed by hand on a constructed set."""

from __future__ import annotations

import os

from curator.agents import rules_for
from curator.base.tokens import FakeTokenCounter
from curator.proof import prove
from curator.proof.listing import BARE, CUT, FULL, Entry, simulate, triggers
from curator.transcripts import SessionIndex

from .sessions import Session, sid

COUNTS = [5, 0, 3, 0, 1, 7, 0, 2, 4, 9]


def _entries(n: int = 10, chars: int = 900) -> list[Entry]:
    return [Entry(f"s{i:02d}", ("w" * (chars - 1)) + ".", f".claude/skills/s{i:02d}/SKILL.md", "skill", COUNTS[i])
            for i in range(n)]


def test_the_budget_comes_from_the_rules_and_the_least_invoked_lose_their_descriptions():
    rules = rules_for("claude-code", "2.1.300")
    sim = simulate(_entries(), rules)
    assert (sim.budget, sim.window, sim.fraction, sim.max_desc) == (8000, 200_000, 0.01, 1536)
    # by hand: each line "- sNN: " + 900 characters + a newline = 908; ten = 9,080 > 8,000.
    # Never invoked: s01, s03, s06 (the later-listed first): dropping s06 saves 902 (8,178, still
    # over), s03 another 902 (7,276): it fits.
    assert sim.full == 9080
    assert [e.name for e in sim.dropped] == ["s03", "s06"]
    assert sim.total == 7276
    assert {e.name for e in sim.entries if e.state == FULL} == {f"s{i:02d}" for i in range(10)} - {"s03", "s06"}
    assert "claude-code/skills.listing-fraction@2.1.129" in sim.rules


def test_a_raised_fraction_keeps_every_description():
    sim = simulate(_entries(), rules_for("claude-code"), fraction=0.02)
    assert sim.budget == 16000 and not sim.dropped and not sim.over


def test_before_the_setting_existed_the_fixed_budget_applies():
    # 2.1.100: 2% of the window (since 2.1.32), each description cut at 250 (2.1.86 to 2.1.104)
    sim = simulate(_entries(), rules_for("claude-code", "2.1.100"))
    assert (sim.budget, sim.fraction, sim.max_desc) == (16_000, 0.0, 250) and sim.dropped == []
    sim = simulate(_entries(), rules_for("claude-code", "2.1.110"))  # the cut at 1,536 since 2.1.105
    assert (sim.budget, sim.max_desc) == (16_000, 1536)
    early = simulate(_entries(), rules_for("claude-code", "2.1.20"))  # no cut, no budget curator knows
    assert early.dropped == [] and all(e.state == FULL for e in early.entries)


def test_a_long_description_is_cut_and_the_trigger_phrase_past_the_cut_is_named():
    head = "Deploy the web app to production. " + "x" * 1560
    e = Entry("deploy", head + ' Use when the user says "ship it".', ".claude/skills/deploy/SKILL.md")
    sim = simulate([e], rules_for("claude-code"))
    (got,) = sim.entries
    assert got.state == CUT and len(got.listed) == 1536
    assert "ship it" in got.lost and any(t.startswith("Use when") for t in got.lost)
    assert triggers(head, 10) == []


def test_the_simulation_beside_a_recorded_listing_and_its_findings(tmp_path):
    """Sessions give the invocation counts; the newest recorded listing shows what the agent
    really dropped; where it disagrees with the simulation both are said."""
    root = tmp_path / "repo"
    for i in range(10):
        f = root / f".claude/skills/s{i:02d}/SKILL.md"
        f.parent.mkdir(parents=True)
        f.write_text(f"---\nname: s{i:02d}\ndescription: {'w' * 899}.\n---\nbody\n")
        os.utime(f, (1_700_000_000, 1_700_000_000))
    (root / ".git").mkdir()
    r = str(root)
    s = Session(sid(1), r, "2.1.300", "2026-11-15").instructions([])
    for i, n in enumerate(COUNTS):
        for _ in range(n):
            s.skill(f"s{i:02d}")
    s.write(tmp_path / "projects")
    index = SessionIndex.for_repo(root, [tmp_path / "projects"], use_cache=False)
    proof = prove(root, index.build(), env={"HOME": str(tmp_path), "CI": ""}, home=str(tmp_path),
                  token_counter=FakeTokenCounter())
    assert [e.name for e in proof.simulation.dropped] == ["s03", "s06"]
    dropped = [f for f in proof.findings if f.check == "sessions.listing-dropped"]
    assert [f.path for f in dropped] == [".claude/skills/s03/SKILL.md", ".claude/skills/s06/SKILL.md"]
    assert "9,080" in dropped[0].message and "invoked 0 time(s)" in dropped[0].message
    # a later session recorded its listing: s06 kept its description, s01 lost it
    listed = [(f"s{i:02d}", "" if i == 1 else "w" * 899 + ".") for i in range(10)]
    later = Session(sid(2), r, "2.1.300", "2026-11-16").instructions([]).listing(listed).prompt("x").say("y")
    later.write(tmp_path / "projects")
    index = SessionIndex.for_repo(root, [tmp_path / "projects"], use_cache=False)
    proof = prove(root, index.build(), env={"HOME": str(tmp_path), "CI": ""}, home=str(tmp_path),
                  token_counter=FakeTokenCounter())
    states = {x.name: (x.recorded, x.simulated) for x in proof.listed}
    assert states["s01"] == (BARE, FULL) and states["s06"] == (FULL, BARE) and states["s00"] == (FULL, FULL)
    dropped = {f.path for f in proof.findings if f.check == "sessions.listing-dropped"}
    assert dropped == {".claude/skills/s01/SKILL.md"}  # the record wins over the simulation (s03 was listed)
    assert states["s03"] == (FULL, BARE)


def test_the_text_report_indents_a_cut_skill_like_the_others():
    from types import SimpleNamespace

    from curator.reports.proof_report import listing_lines

    cut = Entry("deploy", "x" * 1560 + ' Use when the user says "ship it to production today".',
                ".claude/skills/deploy/SKILL.md")
    sim = simulate([cut, *_entries(9)], rules_for("claude-code", "2.1.300"))
    proof = SimpleNamespace(simulation=sim, current=SimpleNamespace(version="2.1.300"), listed=[])
    lines = listing_lines(proof)
    heads = [line for line in lines if line.startswith(" ") and not line.startswith("    ")]
    assert heads and all(line.startswith("  ") and not line.startswith("   ") for line in heads), lines
    assert any(line.startswith("  deploy: cut at 1,536") for line in lines), lines
    assert all(len(line) <= 80 for line in lines)
