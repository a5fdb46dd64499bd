"""duplicate.topic's threshold, fitted on the corpus leaving one store out: every pair of
memories at cosine ≥ 0.75 (the semantic source's embeddings; textual near-duplicates, experience
twins, stubs and transient records left out), judged by a maintainer's reading of the pair
(`NO` / `YES_LOW` below, by file names), then for each store the F0.5-best threshold on the
others and its precision and recall on that store.

    python -m curator.bench.topical CORPORA_DIR

Measured 2026-11-26 (h24's int8 all-MiniLM-L6-v2): every fold fits 0.875–0.88; precision 0.93 and
recall 0.63 on the 1,000-file tiered store, 0.75–1.00 precision elsewhere.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .identity import STORES

NO = """labeler-003 labeler-004|labeler-004 labeler-005|labeler-003 labeler-005|labeler-001 labeler-006|cost-002 cost-008|cost-002 cost-011|git-conflict-deleted-file git-merge-preflight|design-007 design-008
retrospective-001 retrospective-002|ai-quality-gate-efficiency ci-001-copilot|roadmap-v11 epic-2|anti-pattern-pr-001.md pr-enum-001|anti-pattern-pr-001.md pr-review-enum-001|pr-enum-001 pr-review-anti-pattern|pr-review-anti-pattern-pr-001 pr-review-enum-001
pr-002-independent pr-003-verification|bash-exit-codes git-hooks-cross|bash-integration-exit-codes git-hooks-cross|architecture-015 deployment-001|git-004-branch git-hooks-001|reflect-observations skillforge-observations|implementation-001-pre implementation-002-test
ci-infrastructure-003 debugging-001|graphql-mutation-format graphql-troubleshooting|skills-github-workflow-patterns workflow-composite-action|skills-github-workflow-patterns workflow-patterns-composite|git-001-pre-commit git-hooks-session
powershell-005-importmodule powershell-cross-platform|ui_improvements_accordion ui_improvements_clear|ebay_scheduled_listing_backend ebay_scheduled_listing_ui|ebay_inventory_api_limitation ebay_trading_api_implementation|stamp_ai_extraction_complete_fix stamp_parser_wrong
stamp_category_ebay_errors stamp_ebay_integration|database_extension session_summary_tracking|ebay_listings_viewer_fixes stamp_ebay_integration|DEDUPLICATION_FINAL three_layer|ebay_error_25019 ebay_oauth_scope|ai_database_save ai_ui_population|ebay_listings_api_sync ebay_listings_viewer_complete
ebay_category_investigation ebay_condition_fix|llm_modal_fix llm_settings|authentication_and_ebay post_deployment|ebay_image_upload ebay_trading_api_complete|ai_notification_granular six_enhancements
dual-transport stdio-webui|dual-transport http-addr|GGUF_IMPLEMENTATION QUICK_START_GGUF|MULTI_VARIANT QUICK_START_GPU|surrealdb_embedded_fixes surrealdb_embedded_makefile|mem0_project_analysis mem0_tools_summary
hook_registry pre_tool_use|hook_registry post_tool_use|ops_tools slash_commands|cross-cutting module-error|suggested_commands task-completion|suggested_commands troubleshooting_guide|architecture_deep_dive project_state_2025_01_08
omniprotocol_wave8.1 omniprotocol_wave8_tcp|project_813_819 project_990|subagent-global-simplify-rescan subagent-global-simplify-wave1|user-correction-ski user-correction-tea|lark-test-pid lark-authdb|eval-retire foundation-r|service-readiness user-scope
foundation-e foundation-h|service-readiness user-correction-com|user-correction-no skills-cli-contract|memory-capab user-habit|labeler-002 labeler-combined-x""".replace("\n","|").split("|")
YES_LOW = ["feedback_brainstorm_no_question_tool feedback_prose_over_picker", "surrealdb_refactoring_plan surrealdb_refactoring_progress", "surrealdb_refactoring_plan surrealdb_schema_migration", "ai_notification_enhancement ai_notification_implementation", "ai_notification_enhancement ai_notification_granular", "ebay_listings_viewer_fixes ebay_listings_viewer_ui_fixes", "simple_tracking_viewer tracking_datatable"]


def _match(p: dict, rule: str) -> bool:
    a, b = rule.split()
    return (a in p["a"] and b in p["b"]) or (a in p["b"] and b in p["a"])


def label(p: dict) -> bool:
    if any(_match(p, r) for r in NO if r.strip()):
        return False
    return p["cos"] >= 0.80 or any(_match(p, r) for r in YES_LOW)


def pairs(corpora: Path, only: str = "") -> list[dict]:
    from .. import live  # noqa: F401 - provides duplicate.topic its encoder
    from ..base.tokens import EstimateCounter
    from ..checks import run_checks
    from ..checks.topical_checks import embedder, topical_pairs
    from ..model import load_store

    if embedder() is None:
        raise SystemExit("the semantic source is not installed: nothing to fit")
    out = []
    for name, sub in STORES.items():
        if only not in name:
            continue
        sub = "docs" if name.startswith("experience/") else sub
        store = load_store(corpora / name / sub, token_counter=EstimateCounter())
        near = {frozenset((f.path, f.target)) for f in run_checks(store, ["duplicate.near"])}
        for a, b, cos in topical_pairs(store, 0.75):
            if frozenset((a, b)) not in near and a.rsplit("/", 1)[-1] != b.rsplit("/", 1)[-1]:
                out.append({"store": name, "a": a, "b": b, "cos": cos})
    for p in out:
        p["yes"] = label(p)
    return out


def score(ps: list[dict], t: float, beta: float = 0.5) -> tuple[float, float, float]:
    tp = sum(p["yes"] and p["cos"] >= t for p in ps)
    fp = sum(not p["yes"] and p["cos"] >= t for p in ps)
    fn = sum(p["yes"] and p["cos"] < t for p in ps)
    pr = tp / (tp + fp) if tp + fp else 1.0
    rc = tp / (tp + fn) if tp + fn else 1.0
    f = (1 + beta**2) * pr * rc / (beta**2 * pr + rc) if pr + rc else 0.0
    return f, pr, rc


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m curator.bench.topical", description=__doc__.split("\n\n")[0])
    ap.add_argument("corpora", type=Path)
    ap.add_argument("--only", default="", help="only the stores whose name holds this")
    args = ap.parse_args(argv)
    ps = pairs(args.corpora, args.only)
    cands = [round(0.75 + i * 0.005, 3) for i in range(41)]
    print(f"{'store (left out)':42}{'fitted':>7}{'precision':>10}{'recall':>8}")
    for s in sorted({p["store"] for p in ps}):
        train = [p for p in ps if p["store"] != s]
        t = max(cands, key=lambda t: (score(train, t)[0], t))
        _, pr, rc = score([p for p in ps if p["store"] == s], t)
        print(f"{s:42}{t:>7.3f}{pr:>10.2f}{rc:>8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
