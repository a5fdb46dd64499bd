"""The retrieval lab shows near-copies once, marked, as `curator retrieve` does; and the skills
an agent would also load for the query."""

from __future__ import annotations

from tests.pilot.conftest import search_in_lab, settle, step_named

PROSE = "Retry the webhook delivery with exponential backoff and give up after the seventh attempt."


def _near_copies(sample_copy) -> None:
    """The same skill kept under two names, other headings and other related links."""
    (sample_copy / "api/webhook-retries.md").write_text(
        f"# Webhook retries\n\n{PROSE}\n\n## Related\n\n- [api-error-envelope](api-error-envelope.md)\n")
    (sample_copy / "api/api-webhook-retries.md").write_text(f"# Skill-API-007: Webhook retries\n\n{PROSE}\n")


def _a_skill_beside(sample_copy) -> None:
    skill = sample_copy.parent / ".claude/skills/webhooks/SKILL.md"  # the repository the store sits in
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: webhooks\ndescription: Debug failed webhook deliveries and their retries\n---\nx\n")


def _one_row_for_near_copies_marked_with_the_count(screen) -> None:
    table = screen.query_one("#fused")
    keys = [r.value for r in table.rows]
    pair = {"api/webhook-retries.md", "api/api-webhook-retries.md"}
    assert len(pair & set(keys)) == 1, keys
    kept = next(k for k in keys if k in pair)
    row = table.get_row(kept)
    assert "+1 copy" in str(row[1])


def _names_the_skill_an_agent_would_also_load(screen) -> None:
    trace = str(screen.query_one("#trace").render())
    assert "would also load: skill webhooks" in trace and "webhook" in trace


async def test_lab_marks_near_copies_and_names_the_skill_an_agent_would_also_load(app, sample_copy):
    """One store with both (a launch is ~1 s of CPU), one search: the two copies are one row marked
    "+1 copy", and the trace names the skill beside the store."""
    _near_copies(sample_copy)
    _a_skill_beside(sample_copy)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await search_in_lab(app, pilot, "webhook delivery backoff")
        await settle(app, pilot)
        for check in (_one_row_for_near_copies_marked_with_the_count, _names_the_skill_an_agent_would_also_load):
            with step_named(check.__name__):
                check(screen)
