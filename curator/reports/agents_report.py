"""docs/agents.md: every agent load rule curator applies, with the versions it holds for and the
page it comes from — rendered from the tables in curator/agents/ (one row each), so a change in an
agent is one row and this page follows.

Regenerate: `python -m curator.reports.agents_report > docs/agents.md` (a test keeps it in sync).
"""

from __future__ import annotations

from ..agents import TABLES, AgentTable, Rule


def _source(rule: Rule) -> str:
    page = rule.source.page
    shown = page.split("://", 1)[-1].removeprefix("www.")
    out = f"[{shown}]({page}), checked {rule.source.checked}"
    return out + (f". {rule.source.note}" if rule.source.note else "")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _heading(table: AgentTable) -> str:
    aliases = f" (also `{'`, `'.join(table.aliases)}`)" if table.aliases else ""
    return f"{table.label} (`{table.agent}`){aliases}"


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but `-` dropped, spaces to `-`."""
    import re

    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def _table(table: AgentTable) -> list[str]:
    changes = ", ".join(table.boundaries()) or "none"
    scheme = "dates of the docs" if table.versioning == "date" else "releases"
    releases = ", ".join(f"{release} ({day})" for release, day in table.releases)
    read_as = f" A release number is read as the day it came out: {releases}." if releases else ""
    out = [f"## {_heading(table)}", "",
           f"Newest known: {table.newest} (as of {table.newest_checked}); versions are {scheme}. "
           f"Versions at which a rule starts or stops: {changes}.{read_as}", "",
           "| rule | kind | what the agent does | versions | source |", "| --- | --- | --- | --- | --- |"]
    for rule in table.rows:
        out.append(f"| `{table.rule_id(rule)}` | {rule.when} | {_cell(rule.what)} | {rule.versions()} | "
                   f"{_cell(_source(rule))} |")
    return out + [""]


def agents_markdown() -> str:
    head = [
        "# What each agent loads: the rules curator applies",
        "",
        "Generated from `curator/agents/` by `python -m curator.reports.agents_report`; do not edit by hand.",
        "Each rule holds from the agent version in *versions* (`since`) until the version that replaced it",
        "(`until`); a rule with no version holds in every version curator models. `curator context` applies",
        "the newest known version of each agent unless one is chosen: `--agent claude-code@2.1.270`,",
        "`.curator.yaml` `agents: {claude-code: {version: 2.1.270}}`, or",
        "`build_context(root, versions={\"claude-code\": \"2.1.270\"})`. Every file the model places at",
        "start-up, on demand or never carries the id of the rule that put it there (`rule` in",
        "`curator context --format json`).",
        "",
        "| agent | newest known | rules | versions at which a rule changes |",
        "| --- | --- | ---: | --- |",
        *(f"| [{t.label}](#{_anchor(_heading(t))}) (`{t.agent}`) | "
          f"{t.newest} | {len(t.rows)} | {', '.join(t.boundaries()) or '—'} |" for t in TABLES.values()),
        "",
    ]
    body: list[str] = []
    for table in TABLES.values():
        body += _table(table)
    return "\n".join(head + body)


if __name__ == "__main__":
    import sys

    sys.stdout.write(agents_markdown())
