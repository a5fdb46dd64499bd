import pytest

from curator.base.config import ConfigError, glob_match, load_config
from curator.base.tokens import EstimateCounter, TiktokenCounter


def test_defaults_without_a_file(tmp_path):
    cfg = load_config(tmp_path)
    assert cfg.tier_for("knowledge/x.md") == "semantic"
    assert cfg.tier_for("validation/2026-01-01-x.md") == "transient"
    assert cfg.is_strict_index("skills-git-index.md") and not cfg.is_strict_index("api-index.md")


def test_rules_thresholds_and_budgets_from_yaml(tmp_path):
    (tmp_path / ".curator.yaml").write_text(
        "tiers:\n  - {glob: 'notes/**', tier: transient}\n"
        "strict_indexes: ['*-index.md']\n"
        "thresholds: {uniqueness: 0.5}\nbudgets: {l0: 900}\nttl_days: {transient: 7}\n"
    )
    cfg = load_config(tmp_path)
    assert cfg.tier_for("notes/a.md") == "transient"
    assert cfg.tier_for("other/a.md") == "semantic"
    assert cfg.thresholds.uniqueness == 0.5 and cfg.budgets.l0 == 900
    assert cfg.ttl_days == {"transient": 7}
    assert cfg.is_strict_index("api-index.md")


@pytest.mark.parametrize(
    "text, message",
    [
        ("tiers: [{glob: a}]", "needs 'glob' and 'tier'"),
        ("tiers: [{glob: a, tier: cosmic}]", "unknown tier"),
        ("nonsense: 1", "unknown setting"),
        ("thresholds: {uniqueness: -1}", "non-negative"),
        ("thresholds: {bogus: 1}", "unknown setting 'thresholds.bogus'"),
        ("[1, 2", "not valid YAML"),
        ("- a\n- b\n", "must be a mapping"),
        ("severity: {naming.case: loud}", "must be error, warning, info or off"),
        ('include: "\\x00"', "holds a NUL byte"),  # a path no file system accepts: not a traceback
        # fusion weights a cloned repository sets: a string or NaN was a traceback at the first query
        ('retrieval: {source_weights: {lead: "x"}}', "'retrieval.source_weights.lead' must be a non-negative number"),
        ("retrieval: {source_weights: {unsure: .nan}}", "'retrieval.source_weights.unsure' must be a non-negative"),
    ],
)
def test_bad_config_is_a_clear_error(tmp_path, text, message):
    (tmp_path / ".curator.yaml").write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config(tmp_path)


def test_config_found_at_repo_root(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".curator.yaml").write_text("budgets: {l0: 10}\n")
    store = tmp_path / ".serena" / "memories"
    store.mkdir(parents=True)
    assert load_config(store).budgets.l0 == 10


def test_glob_semantics():
    assert glob_match("a/b/c.md", "**/c.md") and glob_match("c.md", "**/c.md")
    assert not glob_match("a/c.md", "*.md")
    assert glob_match("knowledge", "knowledge/**")


def test_tiktoken_counts_and_caches_without_loading_twice(tmp_path):
    cache = tmp_path / "t.json"
    c = TiktokenCounter(cache)
    assert c.count("hello world") == 2
    c.flush()
    warm = TiktokenCounter(cache)
    assert warm.count_many([("", "hello world")]) == [2]
    assert warm._enc is None  # served from the cache: the tokenizer never loaded


def test_estimate_is_labelled():
    assert EstimateCounter().encoding == "estimate"
    assert EstimateCounter().count("abcdefgh") == 2
