"""Checks as documented rules: one registry, a page per check with thresholds from the live
config, docs/checks.md in sync, and one fail/pass case file per check (tests/rules/<id>.yaml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from curator.base.config import Config, Thresholds
from curator.base.tokens import FakeTokenCounter
from curator.checks import CHECKS, FAMILIES, run_checks
from curator.model.loader import load_store
from curator.reports.rules_report import explain, rules_markdown

REPO = Path(__file__).resolve().parents[3]
CASES = REPO / "tests" / "rules"
DOCS = REPO / "docs" / "checks.md"
ALL_CHECKS = sorted(CHECKS)
STORE_CHECKS = sorted(i for i in CHECKS if CHECKS[i].family not in (("context",), ("sessions",)))


def _content(value):
    if isinstance(value, dict):  # {head, repeat, times, tail}: a long file without writing it out
        return value.get("head", "") + value["repeat"] * value["times"] + value.get("tail", "")
    return value


def _findings(make_store, case: dict, check: str, side: str, monkeypatch):
    files = {path: _content(v) for path, v in case["files"].items()}
    if case.get("sessions"):  # instruction files and Claude Code sessions: the proof's findings for the check
        return _session_findings(make_store, case, check, side, files)
    if case.get("repo"):  # a repository's instruction files: the context model's findings for the check
        from curator.context import build_context

        root = make_store(files, name=f"{side}/repo")
        for link, target in case.get("links", {}).items():  # symbolic links: {path: where it points}
            (root / link).symlink_to(target)
        home = make_store({}, name=f"{side}/home")  # no user-level file of the machine running the tests
        model = build_context(root, only={check}, env={"CI": "1", "HOME": str(home)}, home=str(home), count=False)
        return model.findings
    meaning = None
    if "vectors" in case:  # the semantic source stood in for: each file's vector by its path
        import numpy as np

        def embed(store, records, vectors=case["vectors"]):
            m = np.array([vectors[r.path] for r in records], dtype=np.float32)
            return m / np.linalg.norm(m, axis=1, keepdims=True)

        def meaning():
            return embed
    if "config" in case:
        files[".curator.yaml"] = case["config"]
    root = make_store(files, name=f"{side}/{case.get('store', 'store')}")
    return run_checks(load_store(root, token_counter=FakeTokenCounter(), meaning=meaning), only=[check])


def _session_findings(make_store, case: dict, check: str, side: str, files: dict):
    """`sessions: true` cases: `transcripts:` lists sessions, each {version, day, steps}; a step is
    [instructions, [paths]], [read, path], [nested, path, globs?], [skill, name], [listing,
    [[name, description]]] or [say, text] — written to the documented schema by tests/unit/proof."""
    import importlib.util
    import os

    from curator.base.config import Thresholds
    from curator.proof import prove
    from curator.transcripts import SessionIndex

    spec = importlib.util.spec_from_file_location("proof_sessions", REPO / "tests" / "unit" / "proof" / "sessions.py")
    writer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(writer)
    Session, sid = writer.Session, writer.sid

    root = make_store(files, name=f"{side}/repo")
    for rel in files:
        os.utime(root / rel, (1_700_000_000, 1_700_000_000))  # older than every session
    projects = root.parent / "projects"
    r = str(root)
    for n, spec in enumerate(case["transcripts"], 1):
        s = Session(sid(n), r, str(spec["version"]), str(spec.get("day", "2026-11-10")))
        for step, *args in spec["steps"]:
            if step == "instructions":
                s.instructions([(f"{r}/{p}", "Project", files[p]) for p in args[0]])
            elif step == "nested":
                s.nested(f"{r}/{args[0]}", files[args[0]], globs=args[1] if len(args) > 1 else None)
            elif step == "listing":
                s.listing([tuple(x) for x in args[0]])
            else:
                getattr(s, step)(*args)
        s.write(projects)
    home = root.parent / "home"
    home.mkdir(exist_ok=True)
    index = SessionIndex.for_repo(root, [projects], use_cache=False)
    proof = prove(root, index.build(), env={"HOME": str(home), "CI": ""}, home=str(home),
                  token_counter=FakeTokenCounter(), thresholds=Thresholds(**case.get("thresholds", {})))
    return [f for f in proof.findings if f.check == check]


def test_every_check_has_one_case_file_and_every_case_file_a_check():
    files = {p.stem for p in CASES.glob("*.yaml")}
    assert files == set(ALL_CHECKS), (sorted(set(ALL_CHECKS) - files), sorted(files - set(ALL_CHECKS)))


@pytest.mark.parametrize("check", ALL_CHECKS)
def test_the_rule_fails_its_fail_case_and_passes_its_pass_case(make_store, monkeypatch, check):
    case = yaml.safe_load((CASES / f"{check}.yaml").read_text(encoding="utf-8"))
    for n, fail in enumerate([case["fail"], *case.get("also_fail", [])]):  # also_fail: more shapes (real stores')
        failed = _findings(make_store, fail, check, f"fail{n}", monkeypatch)
        assert {f.check for f in failed} == {check}, [(f.check, f.path, f.message) for f in failed]
        assert sorted({f.path for f in failed}) == sorted(fail["findings"]), [(f.path, f.message) for f in failed]
        fixes = fail.get("fixes")  # the fix each finding offers, by path
        if fixes is not None:
            assert {f.path: f.fix.kind if f.fix else None for f in failed} == fixes
    passed = _findings(make_store, case["pass"], check, "pass", monkeypatch)
    assert passed == [], [(f.check, f.path, f.message) for f in passed]


def test_one_registry_each_check_in_one_family():
    seen: dict[str, list[str]] = {}
    for name, ids in FAMILIES:
        for i in ids:
            seen.setdefault(i, []).append(name)
    from_loader = {i for i in STORE_CHECKS if CHECKS[i].family == ("loader",)}  # found by the walk
    assert set(seen) == set(STORE_CHECKS) - from_loader
    assert all(list(CHECKS[i].family) == names for i, names in seen.items())


@pytest.mark.parametrize("check", ALL_CHECKS)
def test_every_page_is_complete(check):
    page = explain(CHECKS[check])
    for section in ("Why it matters", "Example", "Fix", "Fix safety:"):
        assert section in page, section
    assert "{" not in page.replace("{}", ""), page  # every threshold filled in


def test_thresholds_come_from_the_live_config():
    config = Config(thresholds=Thresholds(uniqueness=0.55, min_keywords=7, size_warn_chars=6000))
    assert "under 55% of a row's keywords" in CHECKS["keywords.uniqueness"].text(config=config)
    assert "fewer than 7 keywords" in explain(CHECKS["keywords.too-few"], config)
    assert "6,000 characters" in CHECKS["size.chars"].text(config=config)
    assert "40%" in CHECKS["keywords.uniqueness"].text()  # the default


def test_docs_checks_md_is_in_sync():
    assert DOCS.read_text(encoding="utf-8") == rules_markdown(), \
        "docs/checks.md is stale: python -m curator.reports.rules_report > docs/checks.md"


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "curator", *args], capture_output=True, text=True, cwd=cwd)


def test_check_explain_prints_the_page_and_check_list_uses_the_store_config(make_store):
    out = _cli("check", "--explain", "links.broken")
    assert out.returncode == 0 and out.stdout.startswith("# links.broken") and "## Why it matters" in out.stdout
    root = make_store({"memory-index.md": "[Git]\n", ".curator.yaml": "thresholds:\n  min_keywords: 7\n"})
    listed = _cli("check", "--list", str(root))
    assert "fewer than 7 keywords" in listed.stdout, listed.stdout + listed.stderr
    unknown = _cli("check", "--explain", "links.nope")
    assert unknown.returncode == 2 and "unknown check id: links.nope" in unknown.stderr
