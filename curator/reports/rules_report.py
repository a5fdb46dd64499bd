"""The checks as documented rules: one page per check (`curator check --explain ID`), the list
(`curator check --list`) and docs/checks.md, all rendered from the registry
(`curator.checks.registry`) with thresholds from a config. Plain text: markdown that reads as it
is in a terminal.

Regenerate the docs page: `python -m curator.reports.rules_report > docs/checks.md`
(tests/unit/checks/test_rules.py fails when it is out of date)."""

from __future__ import annotations

from ..base.config import Config
from ..checks.registry import CHECKS, FIX_SAFETY, CheckSpec
from ..model.formats import FORMATS


def formats_of(spec: CheckSpec) -> str:
    if spec.family == ("context",):
        return "instruction files"
    if spec.family == ("sessions",):
        return "instruction files, against the agent's sessions"
    if set(spec.formats) == set(FORMATS):
        return "all formats"
    return ", ".join(f for f in FORMATS if f in spec.formats)


def list_lines(config: Config | None = None) -> list[str]:
    return [f"{c.id:<24} {c.severity_in(config):<8} {c.text(config=config)} [{formats_of(c)}]"
            for c in CHECKS.values()]


def explain(spec: CheckSpec, config: Config | None = None, heading: str = "#") -> str:
    """The rule's page."""
    config = config or Config()
    severity = spec.severity_in(config)
    default = spec.severity.label.lower()
    changed = f" (default {default}; set by .curator.yaml)" if severity != default else ""
    safety = FIX_SAFETY[spec.fix_safety].format(id=spec.id)
    return "\n".join([
        f"{heading} {spec.id}",
        "",
        f"{spec.text(config=config)}.",
        "",
        f"- severity: {severity}{changed}",
        f"- formats: {formats_of(spec)}",
        f"- scope: {spec.scope}; reads: {', '.join(sorted(spec.reads))}",
        "",
        f"{heading}# Why it matters",
        "",
        spec.text("why", config),
        "",
        f"{heading}# Example",
        "",
        f"    {spec.text('example', config)}",
        "",
        f"{heading}# Fix",
        "",
        spec.text("fix", config),
        "",
        f"Fix safety: {safety}.",
        "",
    ])


def rules_markdown(config: Config | None = None) -> str:
    """docs/checks.md: every rule's page with the default thresholds."""
    head = [
        "# curator's checks",
        "",
        "Generated from `curator/checks/registry.py` by `python -m curator.reports.rules_report`;",
        "do not edit by hand. Thresholds are the defaults: `.curator.yaml` can change them, and",
        "`curator check --explain ID STORE` prints a rule with that store's values.",
        "",
        "| check | severity | what it finds |",
        "| --- | --- | --- |",
        *(f"| [{c.id}](#{c.id.replace('.', '')}) | {c.severity.label.lower()} | {c.text(config=config)} |"
          for c in CHECKS.values()),
        "",
    ]
    return "\n".join(head) + "\n" + "\n".join(explain(c, config, "##") for c in CHECKS.values())


if __name__ == "__main__":
    import sys

    sys.stdout.write(rules_markdown())
