"""The retrieval preview of what an agent picks by description (issue 22 item 5): skills,
subagents, Cursor description-only rules, Kiro `inclusion: auto`, Windsurf `model_decision` —
ranked by BM25 over their descriptions, beside the memories, in the engine and `curator retrieve`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from curator.base.tokens import FakeTokenCounter
from curator.model import load_store
from curator.retrieval import RetrievalEngine
from curator.retrieval.requested import requested_items, would_also_load

FILES = {
    ".claude/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploy the web app to production with the "
                                      "release checklist\n---\nSteps.\n",
    ".claude/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Extract text and tables from PDF files\n---\nSteps.\n",
    ".claude/agents/reviewer.md": "---\nname: reviewer\ndescription: Review a pull request for security issues\n---\nx\n",
    ".claude/commands/ship.md": "---\ndescription: Deploy to production now\n---\nx\n",  # typed by the user: never picked
    ".cursor/rules/db.mdc": "---\ndescription: Database migrations and schema changes\n---\nx\n",
    ".cursor/rules/style.mdc": "---\nalwaysApply: true\ndescription: Database style\n---\nx\n",  # always: not picked
    ".kiro/steering/api.md": "---\ninclusion: auto\ndescription: REST API endpoints and error responses\n---\nx\n",
    ".windsurf/rules/i18n.md": "---\ntrigger: model_decision\ndescription: Translations and locale files\n---\nx\n",
    ".serena/memories/deploying.md": "# Deploying\n\nThe production deploy runs from the release branch.\n",
    ".serena/memories/pdfs.md": "# PDFs\n\nWe parse PDF invoices with pdfplumber.\n",
}


def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for rel, text in FILES.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    (root / ".git").mkdir()
    return root


def names(picks):
    return [(p.kind, p.name) for p in picks]


def test_every_agent_requested_kind_is_found_and_nothing_else(tmp_path):
    items, _ = requested_items(repo(tmp_path))
    assert sorted(path for _, path, _, _ in items) == [
        ".claude/agents/reviewer.md", ".claude/skills/deploy/SKILL.md", ".claude/skills/pdf/SKILL.md",
        ".cursor/rules/db.mdc", ".kiro/steering/api.md", ".windsurf/rules/i18n.md"]


def test_the_prompt_picks_by_description_with_the_words_that_matched(tmp_path):
    root = repo(tmp_path)
    [pick] = would_also_load(root, "deploy the app to production")
    assert (pick.kind, pick.name, pick.agent) == ("skill", "deploy", "claude-code")
    assert {"deploy", "production"} <= set(pick.matched)
    assert names(would_also_load(root, "add a database migration")) == [("Cursor rule", "db")]
    assert names(would_also_load(root, "which locale files hold the translations")) == [("Windsurf rule", "i18n")]
    assert names(would_also_load(root, "error responses of the REST endpoints")) == [("Kiro steering", "api")]
    assert would_also_load(root, "rebase onto main") == []  # no shared word: nothing


def test_the_engine_keeps_the_items_until_a_file_changes(tmp_path):
    root = repo(tmp_path)
    engine = RetrievalEngine(load_store(root / ".serena/memories", token_counter=FakeTokenCounter()), semantic=False)
    assert names(engine.also_load("extract tables from a pdf")) == [("skill", "pdf")]
    skill = root / ".claude/skills/pdf/SKILL.md"
    skill.write_text("---\nname: pdf\ndescription: Fill in PDF forms\n---\nSteps.\n", encoding="utf-8")
    os.utime(skill, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    assert engine.also_load("extract tables from a pdf")[0].matched == ("pdf",)
    (root / ".claude/skills/tables").mkdir()
    (root / ".claude/skills/tables/SKILL.md").write_text("---\nname: tables\ndescription: Extract tables\n---\n")
    os.utime(root / ".claude/skills", ns=(time.time_ns() + 2 * 10**9,) * 2)
    assert ("skill", "tables") in names(engine.also_load("extract tables from a pdf"))


def test_a_store_outside_a_repository_gets_no_preview(tmp_path):
    store = tmp_path / "mem"
    store.mkdir()
    (store / "a.md").write_text("# A\n\ndeploy\n")
    assert RetrievalEngine(load_store(store, token_counter=FakeTokenCounter()), semantic=False).also_load("deploy") == []


def _retrieve(root, *args):
    env = {**os.environ, "CURATOR_NO_SEMANTIC": "1"}
    return subprocess.run([sys.executable, "-m", "curator", "retrieve", *args], capture_output=True, text=True,
                          cwd=root, env=env)


def test_cli_retrieve_shows_the_section_in_text_and_json_also_when_answered_fast(tmp_path):
    root = repo(tmp_path)
    for _ in range(2):  # the second run is answered from the kept index (retrieval.fast)
        out = _retrieve(root, "deploy to production", "--format", "json")
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        assert data["results"][0]["path"] == "deploying.md"
        assert [(p["kind"], p["name"]) for p in data["would_also_load"]] == [("skill", "deploy")]
    text = _retrieve(root, "deploy to production")
    assert "would also load" in text.stdout and "skill deploy" in text.stdout
    assert "description matches" in text.stdout


class MeaningStub:
    """The semantic source stood in for: a text's vector is its share of three topics."""

    digest = "stub"
    TOPICS = (("deploy", "production", "ship", "live"), ("pdf", "tables", "document"), ("weather", "rain"))

    def __init__(self):
        import numpy as np

        self.np = np

    def encode(self, texts, progress=None):
        rows = []
        for t in texts:
            low = t.lower()
            v = self.np.array([sum(w in low for w in topic) for topic in self.TOPICS] + [0.05], dtype=self.np.float32)
            rows.append(v / self.np.linalg.norm(v))
        return self.np.stack(rows)


def test_with_the_semantic_source_meaning_leads_and_a_lone_shared_word_picks_nothing(tmp_path):
    root = repo(tmp_path)
    stub = MeaningStub()
    [pick] = would_also_load(root, "ship it live", encoder=stub)  # no word of the description
    assert (pick.name, pick.matched, pick.score) == ("deploy", (), 0.0) and pick.meaning > 0.9
    assert would_also_load(root, "is it going to rain", encoder=stub) == []  # no description is about it
    # "files" is in two descriptions, but neither is about the weather: words alone would pick them
    assert names(would_also_load(root, "weather files")) and would_also_load(root, "weather files", encoder=stub) == []


def test_with_meaning_a_description_words_rank_first_is_not_dropped_by_the_meaning_floor(tmp_path):
    # issue 30: three subagents BM25 ranked first for their prompts fell under the fixed cosine floor
    root = repo(tmp_path)
    stub = MeaningStub()
    prompt = "weather station: security review of this pull request"  # meaning: the weather
    picks = would_also_load(root, prompt, encoder=stub)
    assert names(picks) == [("subagent", "reviewer")] and picks[0].meaning < 0.35 and picks[0].score > 0
    assert names(would_also_load(root, prompt)) == [("subagent", "reviewer")]  # as words alone pick it
